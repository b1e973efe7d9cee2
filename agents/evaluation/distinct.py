"""Playing one recorded game, and telling games apart: what makes two games "the same".

A game is identified by its **key**: a hash of who sat in which seat and of its full
history, every player action and every chance outcome in the order they were applied
(OpenSpiel's ``State.history()``). Two games with the same key are the same game played
again: on a chance-free game two deterministic agents in the same seats play one game
however often they are asked to (see :mod:`moon_agents.evaluation.openings`).

Chance outcomes are read as the env draws them: for the length of a game the env's
generator is wrapped by one that, at each draw made at a chance node, notes the outcome
the draw picks (the env's own rule, ``moon_envs.core.aec._draw``). The game played is the
one ``env.reset(seed=seed)`` would give.

:func:`distinct_games` keeps the first game of each key; every win rate, interval, mover
split and Elo rating of a tournament or ladder is computed over those (see
:mod:`moon_agents.evaluation.tournament`).
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from gymnasium.utils import seeding

from moon_agents.base import start_game
from moon_agents.evaluation.openings import play_opening
from moon_envs.core.aec import _draw

__all__ = ["PlayedGame", "distinct_games", "game_key", "play_recorded", "replay_final_state"]


@dataclass
class PlayedGame:
    """One finished game: scores, winning seats, player decisions (``length``, opening
    plies included), its :func:`game_key`, the seat that made the first decision, the
    opening moves and the full history (player actions ``>= 0``, chance outcome ``c``
    written ``-1 - c``)."""

    scores: list[float]
    winners: list[int]
    length: int
    key: str
    first_mover: int
    opening: list[int] = field(default_factory=list)
    history: list[int] = field(default_factory=list)


def game_key(seats: Sequence[Any], history: Sequence[int]) -> str:
    """A 16-hex-digit hash of the seats (who sat where) and the full history."""
    text = json.dumps([[str(s) for s in seats], [int(h) for h in history]])
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def distinct_games(records: Sequence[Any]) -> list[Any]:
    """The first record of each key, in order. A record without a key (``""``, as in
    games built by hand or stored before keys existed) counts as distinct."""
    seen: set[str] = set()
    out = []
    for r in records:
        key = getattr(r, "key", "")
        if key:
            if key in seen:
                continue
            seen.add(key)
        out.append(r)
    return out


class _RecordingRandom:
    """The env's generator, noting the outcome of every draw made at a chance node."""

    def __init__(self, gen: Any, env: Any, history: list[int]) -> None:
        self.gen, self._env, self._history = gen, env, history

    def random(self, *args: Any, **kwargs: Any) -> Any:
        u = self.gen.random(*args, **kwargs)
        state = self._env.game_state
        if not args and not kwargs and state is not None and state.is_chance_node():
            self._history.append(-1 - int(_draw(state.chance_outcomes(), float(u))))
        return u

    def __getattr__(self, name: str) -> Any:
        return getattr(self.gen, name)


def play_recorded(
    env: Any,
    agents: Sequence[Any],
    seed: int | None = None,
    clock: tuple[list[int], list[float]] | None = None,
    opening_plies: int = 0,
    opening_rng: Any = None,
    labels: Sequence[Any] | None = None,
) -> PlayedGame:
    """Play one game of the AEC ``env`` with ``agents[seat]`` in each seat, recording it.

    ``opening_plies`` plies are first drawn by ``opening_rng``
    (:func:`moon_agents.evaluation.openings.play_opening`); ``clock`` as in
    :func:`moon_agents.evaluation.tournament.play_game` (the agents' decisions only).
    ``labels`` (default: the agents' positions) name the seats in the key.
    """
    base = env.unwrapped
    history: list[int] = []
    gen = seeding.np_random(seed)[0] if seed is not None else base.np_random
    gen = getattr(gen, "gen", gen)
    base._np_random = _RecordingRandom(gen, base, history)
    if seed is not None:
        base._np_random_seed = seed
    try:
        played = _play(env, agents, history, clock, opening_plies, opening_rng)
    finally:
        base._np_random = gen
    seats = labels if labels is not None else list(range(len(agents)))
    played.key = game_key(seats, history)
    return played


def _play(
    env: Any,
    agents: Sequence[Any],
    history: list[int],
    clock: tuple[list[int], list[float]] | None,
    opening_plies: int,
    opening_rng: Any,
) -> PlayedGame:
    env.reset()
    seat_of = {a: i for i, a in enumerate(env.possible_agents)}
    for seat, player in enumerate(agents):
        start_game(player, env.game, seat)
    movers: list[int] = []

    def note(seat: int, action: int) -> None:
        movers.append(seat)
        history.append(action)

    opening = play_opening(env, opening_plies, opening_rng, note) if opening_plies else []
    while env.agents:
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
            continue
        if env.game_state.is_terminal():
            break
        view = env.agent_view(agent)
        seat = seat_of[agent]
        player = agents[seat]
        start = time.perf_counter()
        action = int(player.act(view) if hasattr(player, "act") else player(view))
        if clock is not None:
            clock[0][seat] += 1
            clock[1][seat] += time.perf_counter() - start
        note(seat, action)
        env.step(action)
        if env.game_state.is_terminal():
            break
    state = env.game_state
    return PlayedGame(
        [float(s) for s in state.scores()],
        list(state.winners()),
        len(movers),
        "",
        movers[0] if movers else -1,
        opening,
        history,
    )


def replay_final_state(game: Any, history: Sequence[int]) -> Any:
    """A fresh state of ``game`` with ``history`` applied (chance outcomes included): the
    position a recorded game ended in."""
    state = game.new_initial_state()
    for h in history:
        if h < 0:
            state.apply_chance_outcome(-1 - h)
        else:
            state.apply_action(h)
    return state

