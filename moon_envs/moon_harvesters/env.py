"""Moon Harvesters — ``moon_harvesters_v0``
========================================

Néstor Romeral Andrés's polyomino game (nestorgames) for 2–4 players: mining companies
place their uniquely shaped harvesters on the Moon, collecting the helium-3 deposits
they cover, then scatter two new deposits for the others. The rules as implemented, with
the reason for every house rule: ``docs/rules.md`` (section "Moon Harvesters").

============================  ==========================================================
Import                        ``moon_envs.make("moon_harvesters_v0", num_players=2)``
PettingZoo registry           ``pettingzoo.make("aec", "moon_envs/moon_harvesters_v0")``
Gymnasium (single agent)      ``gymnasium.make("moon_envs/MoonHarvesters-v0")``
Agents                        ``player_0 .. player_{n-1}``
Actions                       ``Discrete(K + 1 + 10 * cells)``: 1,443 (2 players),
                              1,925 (3–4 players)
Observation                   ``Dict(observation=Box(0, 1, (L,), float32),
                              action_mask=Box(0, 1, (K + 1 + 10 * cells,), int8))``
Chance                        none
Hidden information            none
============================  ==========================================================

Board and pieces
----------------
12 rows × 12 columns with 2 players, 12 × 16 with 3–4 (``rows`` / ``cols`` override).
Cells are numbered row-major, ``cell = row * cols + col``; text renders name columns
A–P and rows 1–12, harvesters ``a``–``d`` for ``player_0``–``player_3``, ``O`` a crater,
``*`` a deposit, ``@`` a deposit on a crater (only with ``craters_block_deposits=False``).
Each kind has 10 harvesters; the supply holds 80 deposits; 3 craters.

Shapes
------
A kind is a polyomino written as rows of ``#`` and ``.`` separated by ``/``, e.g.
``"#./#./#./##"``. ``shapes`` takes a list (or a comma-separated string) of specs, each a
built-in pentomino letter (``F I L N P T U V W X Y Z``), a pattern (named ``K1``, ``K2``,
… by position) or ``"NAME=PATTERN"``. Shapes must be non-empty, edge-connected and fit
the grid; there must be at least ``num_players`` kinds (at most 8). Defaults [HOUSE, the
rule images are lost; the parent game uses pentominoes]::

    L  #.     X  .#.    U  #.#    P  ##
       #.        ###       ###       ##
       #.        .#.                 #.
       ##

Base set ``L, X`` with 2 players; with the expansion ``L, X, U, P`` with 3–4.
Harvesters may be rotated and mirrored. A kind's distinct orientations fill orientation
slots 0, 1, … in a fixed order (rotations by 0°, 90°, 180°, 270°, then the mirror image —
columns reversed — rotated the same way), duplicates dropped: X has 1, U 4, L and P 8.
``HarvestersGame.kinds[k].pattern(slot)`` prints a slot's orientation.

Actions
-------
One flat space over all phases, its size fixed per config (``K`` kinds,
``cells = rows * cols``):

==========================================  =============================================
``0 .. K-1``                                auction: take harvester kind ``k``
``K``                                       auction: take one crater
``K+1 + cell``                              place one of your craters on ``cell``
``K+1+cells + slot*cells + cell``           place a harvester in orientation ``slot``
                                            (0–7) with the top-left corner of its
                                            bounding box on ``cell`` (8 × cells entries:
                                            1,536 on 12 × 16)
``K+1+9*cells + cell``                      put a deposit on ``cell``
==========================================  =============================================

The mask is exact for the phase: only the current phase's block has legal entries;
orientation slots a kind does not use, anchors that would put a cell off the grid, and
placements overlapping a harvester (or a crater, with ``craters_block``) are masked;
deposits may not go on a harvester, a deposit or (with ``craters_block_deposits``) a
crater. It
is all zeros for an agent not to move and never empty for the agent to move: there is no
pass action, a player who cannot place a harvester passes automatically.

Game flow
---------
1. Auction: one harvester of each kind and the craters are on offer. From ``player_0``,
   in turn, each player still in takes a kind (theirs for the game; they leave the
   auction) or one crater.
2. Crater holders place their craters on cells without a crater, one per turn, in seat
   order from ``player_0``.
3. ``player_0`` places 2 deposits; play starts with ``player_1``.
4. A turn: place one harvester (inside the grid, not overlapping a harvester or a crater),
   collect the deposits it covers, then place 2 deposits on unoccupied cells (no harvester,
   crater or deposit; fewer when cells or the supply run out, or none with
   ``deposits_when_short="none"``), each deposit a separate action by the same agent. A
   player who cannot place (no harvester left, or none fits) passes; the game ends when
   every player passes in a row, i.e. when nobody can place.

Observation
-----------
From the observing player's point of view (seat order rotated so that "me" comes first),
``L = (n + 2) * cells + 3n + n*K + K + 7`` float32 in [0, 1] (595 for 2 players, 992 for 3,
1,191 for 4): the planes (``cells`` each, row-major) own harvesters, each opponent's
harvesters in seat order after me, craters, deposits; then per player (me first)
harvesters left / 10; supply / 80; per player deposits collected / 80; the phase one-hot
(auction, craters, place, deposits); per player (me first) the one-hot of the kind held
(all zero while still in the auction); kinds still on offer; craters left in the auction
/ 3; per player craters held / 3; deposits still to place this turn / 2.

Rewards
-------
``reward_mode="win"`` (default): 0 until the end; the winners share +1, the others share −1.
The winner has the most deposits; a tie goes to the tied player with fewer harvesters
placed; a tie that remains is a shared win (``ties="shared"``, default) or, as the published
"replay", no win at all (``ties="none"``: every seat gets 0). ``reward_mode="score"``: each
step's change of deposits collected.

Parameters
----------
``num_players`` (2–4, default 2), ``shapes`` (see Shapes; default per player count),
``rows`` / ``cols`` (3–16; default per player count), ``pieces_per_kind`` (10),
``num_deposits`` (80), ``num_craters`` (3), ``deposits_per_turn`` (2),
``first_deposits`` (2), ``craters_block`` (True), ``craters_block_deposits`` (True),
``deposits_when_short`` (``"fewer"`` or ``"none"``, default ``"fewer"``), ``ties``
(``"shared"`` or ``"none"``, default ``"shared"``), plus the env's ``render_mode``
(``"human"``, ``"ansi"``, ``"rgb_array"``), ``reward_mode`` and ``illegal_action``
(``"raise"`` or ``"penalize"``).

House rules
-----------
Each is a parameter; ``docs/rules.md`` gives the reason for every default.

* ``shapes``: L and X (2 players), L, X, U and P (3–4), all pentominoes; with 3–4
  players all four kinds are on offer and a kind nobody takes stays unused.
* ``craters_block=True``: a harvester may not cover a crater.
* ``craters_block_deposits=True``: a deposit may not go on a crater.
* ``deposits_when_short="fewer"``: when the supply or the free cells cannot take the
  turn's deposits, place as many as fit; ``"none"``: place none.
* ``ties="shared"``: players still tied after the fewer-harvesters tie-break all win;
  ``"none"``: nobody wins (the published "replay"; the next episode is the replay).

Readings of the text (not switches): when the craters run out a player still in the
auction must take a kind, and a player left alone in the auction may keep taking craters
while any remain; craters nobody takes are not used; crater holders place one crater per
turn in seat order from ``player_0``, skipping players with none left; ``player_0`` is
the first player (the published rule picks whoever last visited the Moon).

Snapshots
---------
``HarvestersState.validate()`` checks a position rebuilt from an untrusted snapshot
(field types, dtypes, shapes and ranges, deposits and craters conserved, each seat's
cells matching its harvesters, the kinds on offer, the "still fits" flags and the
observation equal to their recomputation, a phase and player to move with a legal
action) and raises ``ConfigError`` naming the field and the allowed values.

Version history
---------------
* v0 (moon-envs 0.1.0): first release; the ``craters_block_deposits``,
  ``deposits_when_short`` and ``ties`` parameters (defaults unchanged).
"""

from __future__ import annotations

from moon_envs.core.aec import RENDER_MODES, MoonAECEnv
from moon_envs.moon_harvesters.render import render_rgb
from moon_envs.moon_harvesters.rules import HarvestersGame


class raw_env(MoonAECEnv):
    """Moon Harvesters as a PettingZoo AEC environment; see the module docstring."""

    game_class = HarvestersGame
    rgb_renderer = staticmethod(render_rgb)
    metadata = {
        "render_modes": RENDER_MODES,
        "name": "moon_harvesters_v0",
        "is_parallelizable": False,
        "render_fps": 2,
    }


def env(**kwargs) -> raw_env:
    """Build the Moon Harvesters AEC environment (keyword parameters as in the module
    docstring)."""
    return raw_env(**kwargs)
