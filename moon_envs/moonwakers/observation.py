"""The Moonwakers observation of one seat: only what that seat may know, from its view.

Layout (every entry in [0, 1]; seats rotated so that the observer comes first, padded to
six seats):

* global: one-hot of the decision to take (the task kinds of :mod:`tasks`, plus 'other'),
  round / max_rounds, pile and discard sizes / terrain cards, options public, claims
  public, the elements still to pay (/ 6, when paying);
* per seat (:data:`SEAT_FEATURES`): present, ability (3), SCAN / PROTECTION (once public,
  or one's own), points / target, COMBINATION cards / 8, mapped elements (6, / 6), hand
  size / 12, elements of the hand cards this seat sees (6, / 6), action cards it sees
  (6, / 2), hand cards it cannot see / 6, ability used, frozen, initiative, table slot
  (7 one-hot), MAP / EXPLORE, claim (pass + 3 slots; once public, or one's own);
* per table slot: present, occupant (6 one-hot, rotated), terrain element (6), biome
  (one-hot over the card file's biomes), and, when the observer knows its explored face,
  its kind (10) and elements (6, / 3);
* per face-up COMBINATION slot: present, cost (6, / 6), points / 10, affordable by me.
"""

from __future__ import annotations

import numpy as np

from moon_envs.moonwakers import tasks as T
from moon_envs.moonwakers.cards import ACTION_KINDS, EXPLORED_KINDS
from moon_envs.moonwakers.config import COMBO_SLOTS, MAX_PLAYERS, TABLE_SLOTS

SEAT_FEATURES = 1 + 3 + 2 + 1 + 1 + 6 + 1 + 6 + 6 + 1 + 3 + TABLE_SLOTS + 2 + 4
COMBO_FEATURES = 1 + 6 + 1 + 1
_ACTION_INDEX = [EXPLORED_KINDS.index(k) for k in ACTION_KINDS]


def global_size() -> int:
    return len(T.DECISION_KINDS) + 1 + 5 + 6


def table_features(num_biomes: int) -> int:
    return 1 + MAX_PLAYERS + 6 + num_biomes + len(EXPLORED_KINDS) + 6


def observation_size(num_biomes: int) -> int:
    return (
        global_size()
        + MAX_PLAYERS * SEAT_FEATURES
        + TABLE_SLOTS * table_features(num_biomes)
        + COMBO_SLOTS * COMBO_FEATURES
    )


def build_observation(s, p: int) -> np.ndarray:
    cards = s.cards
    n = s.n
    nb = len(cards.biomes)
    out = np.zeros(observation_size(nb), dtype=np.float32)
    kinds = T.DECISION_KINDS
    t = s.tasks[0]["t"] if s.tasks else None
    out[kinds.index(t) if t in kinds else len(kinds)] = 1.0
    i = len(kinds) + 1
    nt = cards.num_terrain
    out[i : i + 5] = (
        s.round / s.game.config.max_rounds,
        len(s.pile) / nt,
        len(s.discard) / nt,
        s.options_public,
        s.claims_public,
    )
    i += 5
    if s.tasks and t == "pay" and s.tasks[0]["seat"] == p:
        out[i : i + 6] = np.asarray(s.pay_need) / 6.0
    i += 6

    bit = 1 << p
    for r in range(n):
        x = (p + r) % n
        o = i + r * SEAT_FEATURES
        out[o] = 1.0
        out[o + 1 + int(cards.character_ability[s.character[x]])] = (
            1.0 if s.character[x] >= 0 else 0.0
        )
        if s.option[x] >= 0 and (s.options_public or x == p):
            out[o + 4 + s.option[x]] = 1.0
        out[o + 6] = min(1.0, s.points(x) / s.target)
        out[o + 7] = min(1.0, len(s.bought[x]) / 8)
        for c in s.mapped[x]:
            out[o + 8 + cards.terrain_element[c]] += 1.0 / 6
        out[o + 14] = min(1.0, len(s.hand[x]) / 12)
        hidden = 0
        for c in s.hand[x]:
            if s.known[c] & bit:
                out[o + 15 : o + 21] += cards.explored_elements[c] / 6.0
                k = int(cards.explored_kind[c])
                if k in _ACTION_INDEX:
                    out[o + 21 + _ACTION_INDEX.index(k)] += 0.5
            else:
                hidden += 1
        out[o + 27] = min(1.0, hidden / 6)
        o += 28
        out[o] = s.ability_used[x]
        out[o + 1] = s.frozen[x]
        out[o + 2] = x == s.initiative
        if s.position[x] >= 0:
            out[o + 3 + s.position[x]] = 1.0
        o += 3 + TABLE_SLOTS
        if s.reveal_choice[x] >= 0:
            out[o + s.reveal_choice[x]] = 1.0
        if s.claims[x] >= -1 and (s.claims_public or x == p):
            out[o + 2 + s.claims[x] + 1] = 1.0
    i += MAX_PLAYERS * SEAT_FEATURES

    tf = table_features(nb)
    for k, c in enumerate(s.table):
        if c < 0:
            continue
        o = i + k * tf
        out[o] = 1.0
        if s.occupant[k] >= 0:
            out[o + 1 + (s.occupant[k] - p) % n] = 1.0
        out[o + 7 + cards.terrain_element[c]] = 1.0
        out[o + 13 + cards.biomes.index(cards.terrain_biome[c])] = 1.0
        if s.known[c] & bit:
            o2 = o + 13 + nb
            out[o2 + cards.explored_kind[c]] = 1.0
            out[o2 + len(EXPLORED_KINDS) : o2 + len(EXPLORED_KINDS) + 6] = (
                cards.explored_elements[c] / 3.0
            )
    i += TABLE_SLOTS * tf

    for k, combo in enumerate(s.combo_up):
        if combo < 0:
            continue
        o = i + k * COMBO_FEATURES
        out[o] = 1.0
        out[o + 1 : o + 7] = cards.combo_cost[combo] / 6.0
        out[o + 7] = min(1.0, cards.combo_points[combo] / 10)
        out[o + 8] = s.can_afford(p, k)
    np.clip(out, 0.0, 1.0, out=out)
    return out
