"""Moonwakers SEED — ``moonwakers_v0``
===================================

Gaman Games' exploration card game for 2–6 players: explore a planet, collect the
elements C, H, N, O, P, S and combine them into molecules (COMBINATION cards). The
collection's hidden-information card game. Rules: RULES.md §2 and docs/rules.md.

============================  ==========================================================
Import                        ``moon_envs.make("moonwakers_v0", num_players=2)``
PettingZoo registry           ``pettingzoo.make("aec", "moon_envs/moonwakers_v0")``
Gymnasium (single agent)      ``gymnasium.make("moon_envs/Moonwakers-v0")``
Agents                        ``player_0 .. player_{n-1}``
Actions                       ``Discrete(95 + N)`` (N terrain cards: 145 by default)
Observation                   ``Dict(observation=Box(0, 1, (L,), float32),
                              action_mask=Box(0, 1, (95 + N,), int8))``, L = 564
Chance                        characters, every terrain and COMBINATION draw, first
                              player, every d12 (accidents, duels)
Hidden information            other hands' set-up cards, unscanned table cards,
                              unexplored mapped cards, the pile, others' sealed choices
============================  ==========================================================

Card data
---------
All cards live in ``moon_envs/moonwakers/data/cards.json`` ([HOUSE] lists of RULES.md
§2: 17 COMBINATION cards, 50 TERRAIN cards, 6 CHARACTERS). ``make("moonwakers_v0",
cards="my_cards.json")`` plays with another file of the same schema::

    {"elements": ["C", "H", "N", "O", "P", "S"],
     "combinations": [{"name": "H2O", "cost": {"H": 2, "O": 1}, "points": 3}, ...],
     "terrain": [{"biome": "Volcano", "element": "H",
                  "explored": {"kind": "elements", "elements": {"H": 1, "O": 1}}}, ...],
     "characters": [{"name": "Blue Moon", "ability": "shortcut"}, ...]}

``explored.kind``: ``elements`` (1–3 atoms in ``elements``), ``accident``,
``infrared_storm``, ``ionic_storm``, ``labo``, ``cryogen``, ``defective_shelter``,
``scan``, ``shelter``, ``shield``. 1–32 combinations (1–12 atoms, 1–99 points), 8–96
terrain cards, exactly 6 characters (``shortcut`` / ``permutation`` / ``dash``). A bad
file raises ``ConfigError`` naming the card and the field (``moonwakers.cards``).

Round
-----
Opening (players + 1 table cards; SCAN / PROTECTION chosen one seat at a time, sealed
until all have chosen; scanners peek alone), DASH, SHORTCUT, positioning (SCAN action
cards may be played), PERMUTATION, reveal (MAP or EXPLORE; accidents, SHELTER,
DEFECTIVE SHELTER, SHIELD, storms), the free card's accident for everyone, sealed claims,
d12 duels, payment card by card, end of game. Every step is documented in the module of
its phase (``opening``, ``positioning``, ``reveal``, ``acquisition``, ``draws``).

Actions
-------
One flat ``Discrete`` space (``config.ActionLayout``): 0 pass; 1–2 SCAN / PROTECTION;
3–9 peek at table slot; 10–16 DASH slot; 17–23 place under slot; 24–30 play SCAN card on
slot; 31 SHORTCUT; 32–36 PERMUTATION with the seat 1–5 to the left; 37 CRYOGEN; 38
SHIELD; 39 DEFECTIVE SHELTER; 40 SHELTER; 41 roll; 42 MAP; 43 EXPLORE; 44–49 lose a mapped
card of element C…S; 50–55 pay a mapped card of element C…S; 56–58 claim combination
slot; 59–94 LABO on (seat offset × 6 + element); 95 + id: a hand card (to lose or pay).
The mask is exact; only the seat of the front task has a non-zero mask.

Observation
-----------
See ``moonwakers.observation``: the decision to take, per seat (rotated, me first)
public facts plus what I saw of their hands, the table with what I scanned, the face-up
combinations. Two positions that differ only in what a seat cannot know give it the same
observation, mask, infos and text (tested). ``env.state()`` has everything.

Rewards
-------
``reward_mode="win"``: the winners (most combination points; ties broken by more
COMBINATION cards, then shared) share +1, the others −1. ``"score"``: points as gained.

Parameters
----------
``num_players`` (2–6, default 2), ``cards`` (card file path, default the package's),
``max_rounds`` ([HOUSE] 30: the game also ends after this round), plus the env's
``render_mode``, ``reward_mode`` and ``illegal_action``.

House rules
-----------
Card lists; the pile is unordered (a card put "under the pile" is shuffled in); set-up
cards that are accidents or storms are redrawn; abilities as in RULES.md §2 (SHORTCUT
offered before the first placement, PERMUTATION after all placements, each a duel);
response windows (CRYOGEN, SHIELD, DEFECTIVE SHELTER) are also offered, with PASS only,
to a seat holding an unseen card so that being asked reveals nothing; a cancelled SHELTER
leaves the die; storms drawn by an ionic storm do nothing; free non-accident cards go
under the pile; claims sealed, one per seat per round, duels for shared claims; the game
ends at the end of the round where the target is reached, after ``max_rounds``, or when
no COMBINATION card is left.

Version history
---------------
* v0 (moon-envs 0.1.0): first release.
"""

from __future__ import annotations

from moon_envs.core.aec import RENDER_MODES, MoonAECEnv
from moon_envs.moonwakers.game import MoonwakersGame
from moon_envs.moonwakers.render import render_rgb


class raw_env(MoonAECEnv):
    """Moonwakers SEED as a PettingZoo AEC environment; see the module docstring."""

    game_class = MoonwakersGame
    rgb_renderer = staticmethod(render_rgb)
    metadata = {
        "render_modes": RENDER_MODES,
        "name": "moonwakers_v0",
        "is_parallelizable": False,
        "render_fps": 2,
    }


def env(**kwargs) -> raw_env:
    """Build the Moonwakers AEC environment (keyword parameters as in the module docstring)."""
    return raw_env(**kwargs)
