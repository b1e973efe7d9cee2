"""The opening protocol: varied games between deterministic agents on chance-free games.

On a game without chance nodes (``GameSpec.has_chance`` false, as Moon Harvesters), two
deterministic agents (``greedy``, a trained network played greedily) play the same game
every time they sit in the same seats, so a thousand games are one or two games repeated.
The **random opening** protocol varies them: the first ``k`` plies (player decisions) of
each game are drawn uniformly from the legal moves, then the agents play on.

* **Which random numbers.** The opening of game ``g`` is drawn by a generator seeded from
  the env seed of the first game of its seat rotation: games ``g`` with the same
  ``g // m`` (``m`` line-ups, 2 in a two-agent 2-player game) share it, so both seat
  orders of a pairing play the same opening, and a run is reproducible from its seed.
  The generator is its own (:func:`opening_rng`), not the env's, so an opening does not
  shift the chance draws of the game after it.
* **Which moves.** At each of the ``k`` plies, a move is drawn uniformly from
  ``State.legal_actions()``; an opening stops early if the game ends.
* **Default.** ``random-opening:6`` on chance-free games, ``none`` on games with chance
  (their dice and deals already vary the games). ``--opening PLIES`` or
  ``--opening none`` on ``moon-envs eval`` and ``moon-envs ladder`` overrides it; the
  protocol is recorded in the results' JSON (``"opening"``) and every game's opening
  moves in its record.

On a game with chance the same random stream draws the opening, but the dice may differ
between the two seat orders (each game has its own env seed), and with them the legal
moves; both seat orders then open alike only where their legal moves agree.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from moon_envs.core.game import ConfigError
from moon_envs.core.snapshot import quote

__all__ = [
    "DEFAULT_PLIES",
    "MAX_PLIES",
    "Opening",
    "opening_rng",
    "play_opening",
    "resolve_opening",
    "rotation_seed",
]

DEFAULT_PLIES = 6
"""Plies of random opening on a chance-free game when none is asked for. Moon Harvesters'
first plies have 2 or 3 legal moves (the setup picks), so 4 plies gave 177 different
openings in 250 seat rotations (a 500-game pairing), 6 plies 249; a game is about 64
plies long."""
MAX_PLIES = 40
"""The longest opening allowed (plies); 0 is no opening."""
_SALT = 0x6F70656E  # keeps the opening stream apart from any other use of the same seed


@dataclass(frozen=True)
class Opening:
    """A resolved opening protocol: ``plies`` random plies (0: none) and how it was chosen."""

    plies: int
    chosen: str = "asked"  # "asked", or "default" when picked from the game's chance flag

    @property
    def name(self) -> str:
        """``"none"`` or ``"random-opening:K"``: how results files record it."""
        return "none" if self.plies == 0 else f"random-opening:{self.plies}"

    def describe(self) -> str:
        """One sentence for reports."""
        why = " (the default for this game)" if self.chosen == "default" else ""
        if self.plies == 0:
            return f"Opening: none{why}; every game is played by the agents from the start."
        return (
            f"Opening: {self.name}{why}; the first {self.plies} plies of each game are drawn "
            "uniformly from the legal moves, the same for every seat order of a rotation."
        )


def resolve_opening(value: Any, has_chance: bool) -> Opening:
    """The protocol asked for by ``value``: ``None`` or ``"auto"`` (the default:
    :data:`DEFAULT_PLIES` on a chance-free game, none with chance), ``"none"``, an
    integer ``0..MAX_PLIES`` or its text, or ``"random-opening:K"``. Anything else is a
    :class:`ConfigError`."""
    if value is None or value == "auto":
        return Opening(0 if has_chance else DEFAULT_PLIES, "default")
    plies: Any = value
    if isinstance(value, str):
        text = value.strip()
        if text == "none":
            return Opening(0)
        text = text.removeprefix("random-opening:")
        plies = int(text) if text.isdigit() else None
    if isinstance(plies, bool) or not isinstance(plies, (int, np.integer)):
        plies = None
    if plies is None or not 0 <= int(plies) <= MAX_PLIES:
        raise ConfigError(
            f"opening={quote(value)} is not allowed; allowed: 'none', 'auto' or a number of "
            f"plies 0..{MAX_PLIES} (also written random-opening:K)"
        )
    return Opening(int(plies))


def rotation_seed(seed: int, game_index: int, num_lineups: int) -> int:
    """The env seed of the first game of game ``game_index``'s seat rotation (games are
    seeded ``seed + g``): the seed its opening is drawn by."""
    return seed + (game_index // max(1, num_lineups)) * max(1, num_lineups)


def opening_rng(env_seed: int) -> np.random.Generator:
    """The generator that draws the opening of the rotation whose first env seed is
    ``env_seed``."""
    return np.random.default_rng([_SALT, int(env_seed) % 2**64])


def play_opening(
    env: Any, plies: int, rng: np.random.Generator, on_move: Callable[[int, int], None]
) -> list[int]:
    """Play up to ``plies`` uniformly drawn legal moves on the reset AEC ``env``, calling
    ``on_move(seat, action)`` before each; returns the moves (fewer if the game ended)."""
    moves: list[int] = []
    seat_of = {a: i for i, a in enumerate(env.possible_agents)}
    while len(moves) < plies and env.agents and not env.game_state.is_terminal():
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
            continue
        legal = env.game_state.legal_actions()
        action = int(legal[int(rng.integers(len(legal)))])
        on_move(seat_of[agent], action)
        env.step(action)
        moves.append(action)
    return moves
