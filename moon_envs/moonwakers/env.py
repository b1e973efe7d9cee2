"""Moonwakers SEED — ``moonwakers_v1``
===================================

Gaman Games' exploration card game for 2–6 players: explore a planet, collect the
elements C, H, N, O, P, S and combine them into molecules (COMBINATION cards). The
collection's hidden-information card game. The rules as implemented, with the reason for
every house rule: ``docs/rules.md`` (section "Moonwakers SEED").

============================  ==========================================================
Import                        ``moon_envs.make("moonwakers_v1", num_players=2)``
PettingZoo registry           ``pettingzoo.make("aec", "moon_envs/moonwakers_v1")``
Gymnasium (single agent)      ``gymnasium.make("moon_envs/Moonwakers-v1")``
Agents                        ``player_0 .. player_{n-1}``
Actions                       ``Discrete(48 + 7N)`` (N terrain cards: 398 by default)
Observation                   ``Dict(observation=Box(0, 1, (L,), float32),
                              action_mask=Box(0, 1, (48 + 7N,), int8))``, L = 585
Chance                        characters, every terrain and COMBINATION draw, the d12
                              roll-off for the first player, every d12 (accidents, duels)
Hidden information            other hands' set-up cards, face-down table and mapped cards
                              a seat has not looked at, the pile, others' looks and sealed
                              choices (SCAN / PROTECTION, claims, answers to accidents)
============================  ==========================================================

Card data
---------
All cards live in ``moon_envs/moonwakers/data/cards.json`` (the house lists of
docs/rules.md: 17 COMBINATION cards, 50 TERRAIN cards, 6 CHARACTERS).
``make("moonwakers_v1", cards="my_cards.json")`` plays with another file of the same
schema::

    {"schema": "moonwakers-cards/1",          (optional; exactly this value)
     "elements": ["C", "H", "N", "O", "P", "S"],
     "combinations": [{"name": "H2O", "cost": {"H": 2, "O": 1}, "points": 3}, ...],
     "terrain": [{"biome": "Volcano", "element": "H",
                  "explored": {"kind": "elements", "elements": {"H": 1, "O": 1}}}, ...],
     "characters": [{"name": "Blue Moon", "ability": "shortcut"}, ...]}

``explored.kind``: ``elements`` (1–3 atoms in ``elements``), ``accident``,
``infrared_storm``, ``ionic_storm``, ``labo``, ``cryogen``, ``defective_shelter``,
``scan``, ``shelter``, ``shield``. 1–32 combinations (1–12 atoms, 1–99 points), 8–96
terrain cards, exactly 6 characters (``shortcut`` / ``permutation`` / ``dash``), names
and biomes of 1–60 characters, files of at most 1 MB nested at most 16 levels. A bad
file raises ``ConfigError`` naming the card and the field (``moonwakers.cards``).

Round
-----
Opening (players + 1 table cards face down; SCAN / PROTECTION chosen one seat at a time,
sealed until all have chosen; scanners look alone), DASH, SHORTCUT, positioning (SCAN
action cards may be played on a table or mapped card), PERMUTATION, reveal (MAP or
EXPLORE; accidents, SHELTER, DEFECTIVE SHELTER, SHIELD, storms), the free card flipped for
all (its accident answered by everyone at once, sealed), sealed claims (LABO first),
d12 duels, payment card by card, end of game. Every step is documented in the module of
its phase (``opening``, ``positioning``, ``reveal``, ``accidents``, ``acquisition``,
``draws``).

Actions
-------
One flat ``Discrete`` space (``config.ActionLayout``): 0 pass (decline an ability, a
response card, a claim, the end of the game); 1–2 SCAN / PROTECTION; 3–9 look at table
slot; 10–16 DASH slot; 17–23 place under slot; 24–30 play a SCAN card on table slot; 31
SHORTCUT; 32–36 PERMUTATION with the seat 1–5 to the left; 37 CRYOGEN; 38 SHIELD; 39
DEFECTIVE SHELTER; 40 SHELTER; 41 roll; 42 MAP; 43 EXPLORE; 44–46 claim COMBINATION slot;
47 end the game (``game_end="choice"``); ``48 + offset × N + i``: the ``i``-th oldest
mapped card of the seat ``offset`` places to the left (0: one's own), to play a SCAN card
on (placement), LABO (claim), lose (loss) or pay with (payment); ``48 + 6N + id``: one's
own hand card ``id`` (to lose or pay). The mask is exact; only the seat of the front task
has a non-zero mask. ``state.action_to_string(a)`` names actions in the current decision.

Observation
-----------
See ``moonwakers.observation``: the decision to take, per seat (rotated, me first)
public facts plus what I saw of their hands, sealed choices once revealed (or my own),
the table with what I know of each card (the flipped free card included), the face-up
combinations. Two positions that differ only in what a seat cannot know give it the same
observation, mask, infos and text (tested). ``env.state()`` has everything.

Rewards
-------
``reward_mode="win"``: the winners (most combination points; ties broken by more
COMBINATION cards, then shared) share +1, the others −1. ``"score"``: points as gained.

Parameters
----------
=======================  ============  ====================================================
parameter                default       allowed values and meaning
=======================  ============  ====================================================
``num_players``          2             2..6
``cards``                None          a card file path (None: the package's)
``max_rounds``           100           1..500 [HOUSE] safety cap: the game also ends after it
``end_when_stalemated``  False         [HOUSE] ``True``: the game ends at the end of a round
                                       after which nobody can ever score again (nothing
                                       left to draw, no LABO, nothing affordable)
``setup_hand``           "redraw"      [HOUSE] an ACCIDENT / STORM set-up card is shown and
                                       redrawn; ``"keep"``: kept in hand, holding nothing
``ability_duel``         True          [HOUSE] SHORTCUT / PERMUTATION is a d12 duel against
                                       the target; ``False``: it works unless answered
``shortcut_when``        "first"       [HOUSE] before the first placement, against the
                                       initiative player; ``"every"``: before any other
                                       seat's placement, against that seat
``permutation_when``     "end"         [HOUSE] once all are placed; ``"own"``: right after
                                       the user's own placement
``shield_abilities``     True          [HOUSE] the target may SHIELD a SHORTCUT/PERMUTATION;
                                       ``False``: SHIELD answers attack cards only
``pile``                 "unordered"   [HOUSE] cards put under the pile are shuffled in;
                                       ``"ordered"``: they come back in order, after the
                                       shuffled part
``free_card``            "pile"        [HOUSE] the free non-accident card goes under the
                                       pile; ``"discard"``: onto the discard pile
``claims``               "sealed"      [HOUSE] claims sealed until all claimed; ``"open"``
``purchases_per_round``  1             [HOUSE] 1..3 COMBINATION cards per seat and round
``cancelled_shelter``    "roll"        [HOUSE] a cancelled SHELTER leaves the die;
                                       ``"loss"``: the accident hits at once
``ionic_storm_draws``    "inert"       [HOUSE] a storm drawn by an ionic storm does nothing;
                                       ``"act"``: it acts as if explored
``game_end``             "automatic"   [HOUSE] the round in which the target is reached ends
                                       the game; ``"choice"``: each such player may end it
``response_windows``     "disguised"   [HOUSE] windows also offered, PASS only, to a seat
                                       holding an unseen card; ``"holders"``: to holders only
                                       (being asked then shows the table the card)
``scan_targets``         "terrain"     a SCAN card looks at a table or mapped card;
                                       ``"table"``: at a table card only
``infrared_storm_``       "all"         [HOUSE] an infrared storm replaces every face-up
``replaces``                           COMBINATION card; ``"two"``: the first two (4+ players)
``action_card_timing``   "fixed"       [HOUSE] LABO before one's claims, a SCAN card at one's
                                       placement, CRYOGEN before an ability acts, DEFECTIVE
                                       SHELTER after a SHELTER; the only value
=======================  ============  ====================================================

Plus the env's ``render_mode`` (``ansi``, ``human``, ``rgb_array``: the spectator's
picture), ``reward_mode`` and ``illegal_action``. Bad values raise ``ConfigError`` naming
the parameter and its allowed values.

House rules
-----------
The card lists; the unordered pile; set-up accidents and storms redrawn; the timing of
SHORTCUT and PERMUTATION, their duels and the target's SHIELD; CRYOGEN freezes an ability
for the round and each ability is used at most once per round; the disguised response
windows; a cancelled shelter leaves the die; storms drawn by an ionic storm do nothing;
free non-accident cards go under the pile; sealed claims, duels for shared claims, one
purchase per seat and round; the fixed moments of the action cards; the automatic end of
the game; the round cap; a stalemate played on to the round cap. Each is a parameter
above; docs/rules.md gives the reason for every default.

Version history
---------------
* v1 (after moon-envs 0.2.0): the first player by a d12 roll-off (chance nodes, ties rolled
  again); the free card flipped for all to see; answers to its accident sealed; a SCAN
  card also looks at mapped cards; lost, paid and LABO'd mapped cards chosen one by one
  (``48 + 7N`` actions); an infrared storm refills a slot its pile could not fill from the
  returned cards; the round cap raised from 30 to 100; every house rule a parameter;
  ``resample`` redraws sealed choices and other seats' looks and keeps every constraint
  the seat knows.
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
        "name": "moonwakers_v1",
        "is_parallelizable": False,
        "render_fps": 2,
    }


def env(**kwargs) -> raw_env:
    """Build the Moonwakers AEC environment (keyword parameters as in the module docstring)."""
    return raw_env(**kwargs)
