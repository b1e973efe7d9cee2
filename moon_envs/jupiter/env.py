"""Jupiter — ``jupiter_v0``
=========================

Reiner Knizia's dice game (Spielbox 1993) for 2–4 players: put probes and dice on a grid;
a probe scores the pips of every die in its row and column, a die scores its pips for every
probe in its row and column. The rules as implemented, with the reason for every house
rule: ``docs/rules.md`` (section "Jupiter").

============================  ==========================================================
Import                        ``moon_envs.make("jupiter_v0", num_players=2)``
PettingZoo registry           ``pettingzoo.make("aec", "moon_envs/jupiter-v0")``
Gymnasium (single agent)      ``gymnasium.make("moon_envs/Jupiter-v0")``
Agents                        ``player_0 .. player_{n-1}``
Actions                       ``Discrete(2 * cells + 1)``
Observation                   ``Dict(observation=Box(-1, 1, (L,), float32),
                              action_mask=Box(0, 1, (2 * cells + 1,), int8))``
Chance                        first player (uniform), each rolled die (uniform 1..6)
Hidden information            none
============================  ==========================================================

Board
-----
4 rows × 4 columns (2 players), 5 columns (3), 6 columns (4 or ``expanding_universe``).
Cells are numbered row-major, ``cell = row * cols + col``; in text renders columns are
letters A–F and rows 1–4, and probes are ``a``–``d`` for ``player_0``–``player_3``.

Actions
-------
* ``0 .. cells-1``: place one of your probes on ``cell``; you score the (signed) pips of
  every die already in its row and column.
* ``cells .. 2*cells-1``: put the die you have just rolled on ``cell - cells``; every probe
  in that row and column scores the die's value for its owner.
* ``2*cells``: take a die and roll it. The roll is a chance node (resolved by the env);
  your next decision is where to put the die, and only those actions are unmasked.

No probes left: you must roll. No dice left: you must place. A player with neither is
skipped, or ends the game (``stuck_player``, [HOUSE]). The mask is exact; it is all zeros
for an agent that is not to move.

Observation
-----------
From the observing player's point of view (seat order rotated so that "me" comes first):
for each cell a one-hot of ``n + 7`` channels (probe of me, of the next player, …;
die showing 1..6; empty), then per player (me first) probes left / probes, dice left /
dice, a one-hot of the die waiting to be placed, ``tanh(score / 50)`` per player (me
first), ``tanh((my score - best other) / 20)``, and the two variant flags.
``L = cells * (n + 7) + 2n + 10``: 158 for 2 players.

With ``line_features=True`` three numbers per cell follow (cell-major), all read off the
board: the pips a probe placed there would score now / 36, my probes sharing its row or
column / ``num_probes``, and the others' probes there / (``num_probes`` × (n − 1)).
``L`` grows by ``3 * cells`` (206 for 2 players). The shipped trained agent uses them.

Rewards
-------
``reward_mode="win"`` (default): 0 until the end; the winners (highest score; a tie is
shared, or leaves no winner with ``ties="none"``) share +1, the others share −1; with no
winner every seat gets 0. ``reward_mode="score"``: each step's change of score, to
every player it touches (a die scores for several players at once).

Parameters
----------
``num_players`` (2–4, default 2), ``black_moons`` (variant 1: dice 3 and 4 are negative,
scores clamped at 0; default False), ``expanding_universe`` (variant 2: full 6×4 board, play
until all probes and dice are used; default False), ``num_probes`` (6), ``num_dice`` (6),
``random_first_player`` (True: a chance node picks who starts, as the rules say; False:
``player_0`` starts), ``stuck_player`` (``"skip"`` or ``"end"``, default ``"skip"``),
``ties`` (``"shared"`` or ``"none"``, default ``"shared"``), ``line_features`` (observation
only, default False), plus the env's ``render_mode``
(``"human"``, ``"ansi"``, ``"rgb_array"``), ``reward_mode`` and ``illegal_action``
(``"raise"`` or ``"penalize"``).

House rules
-----------
Each is a parameter; ``docs/rules.md`` gives the reason for every default.

* ``stuck_player="skip"``: a player with neither probes nor dice is passed over and the
  others play on until the board is full; ``"end"`` ends the game there instead.
* ``ties="shared"``: every player with the best score wins; ``"none"``: a tie for the
  best score leaves no winner (every seat gets 0).

Scores are unbounded integers (the printed 0–60 track counts laps).

Snapshots
---------
``JupiterState.validate()`` checks a position rebuilt from an untrusted snapshot (field
types, dtypes, shapes and ranges, probes and dice conserved, the stage and the die in
hand agreeing, a player to move who can move) and raises ``ConfigError`` naming the field
and the allowed values.

Version history
---------------
* v0 (moon-envs 0.1.0): first release; the ``stuck_player`` and ``ties`` parameters
  (defaults unchanged).
"""

from __future__ import annotations

from moon_envs.core.aec import RENDER_MODES, MoonAECEnv
from moon_envs.jupiter.render import render_rgb
from moon_envs.jupiter.rules import JupiterGame


class raw_env(MoonAECEnv):
    """Jupiter as a PettingZoo AEC environment; see the module docstring."""

    game_class = JupiterGame
    rgb_renderer = staticmethod(render_rgb)
    metadata = {
        "render_modes": RENDER_MODES,
        "name": "jupiter_v0",
        "is_parallelizable": False,
        "render_fps": 2,
    }


def env(**kwargs) -> raw_env:
    """Build the Jupiter AEC environment (keyword parameters as in the module docstring)."""
    return raw_env(**kwargs)
