"""The Moonwakers observation of one seat: only what that seat may know, from its view.

Layout (every entry in [0, 1]; seats rotated so that the observer comes first, padded to
six seats):

* global: one-hot of the decision to take (the task kinds of :mod:`tasks`, plus 'other'),
  round / max_rounds, pile and discard sizes / terrain cards, options public, claims
  public, responses public, the elements still to pay (/ 6, when paying);
* per seat (:data:`SEAT_FEATURES`): present, ability (3), SCAN / PROTECTION (once public,
  or one's own), points / target, COMBINATION cards / 8, mapped elements (6, / 6), hand
  size / 12, elements of the hand cards this seat sees (6, / 6), action cards it sees
  (6, / 2), hand cards it cannot see / 6, ability used, frozen, initiative, table slot
  (7 one-hot), MAP / EXPLORE, claim (pass + 3 slots; once public, or one's own), response
  to the free card's accident (roll / SHELTER; once public, or one's own), and whether
  the seat is the subject of the decision (the ability's user or target, the shelter's
  owner);
* per table slot: present, occupant (6 one-hot, rotated), terrain element (6), biome
  (one-hot over the card file's biomes), and, when the observer knows its explored face,
  its kind (10) and elements (6, / 3);
* per face-up COMBINATION slot: present, cost (6, / 6), points / 10, affordable by me.
"""

from __future__ import annotations

from array import array

import numpy as np

from moon_envs.moonwakers import tasks as T
from moon_envs.moonwakers.cards import ACTION_KINDS, EXPLORED_KINDS, PACK_BITS, PACK_GUARDS
from moon_envs.moonwakers.config import COMBO_SLOTS, MAX_PLAYERS, TABLE_SLOTS

SEAT_FEATURES = 1 + 3 + 2 + 1 + 1 + 6 + 1 + 6 + 6 + 1 + 3 + TABLE_SLOTS + 2 + 4 + 2 + 1
COMBO_FEATURES = 1 + 6 + 1 + 1


def global_size() -> int:
    return len(T.DECISION_KINDS) + 1 + 6 + 6


def table_features(num_biomes: int) -> int:
    return 1 + MAX_PLAYERS + 6 + num_biomes + len(EXPLORED_KINDS) + 6


def observation_size(num_biomes: int) -> int:
    return (
        global_size()
        + MAX_PLAYERS * SEAT_FEATURES
        + TABLE_SLOTS * table_features(num_biomes)
        + COMBO_SLOTS * COMBO_FEATURES
    )


def _scaled(div: float) -> list[float]:
    """``min(1, v / div)`` for v = 0..299 (a lookup table for the hot path; no count in
    a position reaches 300: at most 96 cards of at most 3 atoms)."""
    return [min(1.0, v / div) for v in range(300)]


_BY2, _BY3, _BY6, _BY8, _BY12 = (_scaled(d) for d in (2, 3, 6, 8, 12))
_ACTION_SLOT = [ACTION_KINDS.index(k) if k in ACTION_KINDS else -1 for k in EXPLORED_KINDS]


MEMO_LIMIT = 1024
"""Most card-count blocks remembered per card set; the memo is emptied past this, which
keeps memory flat over any number of games (a larger memo grew a process by ~16 MB over
thousands of games while it filled)."""


def build_observation(s, p: int) -> np.ndarray:
    cards = s.cards
    n = s.n
    rows = _rows(cards)
    seen_rows, unseen_rows, combo_rows, zeros, pack_mapped, pack_seen, blocks_m, blocks_h = rows[:8]
    out = array("f", zeros)
    tasks = s.tasks
    t = tasks[0]["t"] if tasks else None
    nkinds = _KIND_SLOT_OTHER[0]
    out[_KIND_SLOT.get(t, nkinds)] = 1.0
    i = nkinds + 1
    nt = cards.num_terrain
    out[i] = min(1.0, s.round / s.game.config.max_rounds)
    out[i + 1] = len(s.pile) / nt
    out[i + 2] = len(s.discard) / nt
    opts_public, claims_public = s.options_public, s.claims_public
    responses_public = s.responses_public
    if opts_public:
        out[i + 3] = 1.0
    if claims_public:
        out[i + 4] = 1.0
    if responses_public:
        out[i + 5] = 1.0
    i += 6
    subject = -1
    if t is not None:
        front = tasks[0]
        if t == "pay" and front["seat"] == p:
            need = s.pay_need
            for e in range(6):
                out[i + e] = _BY6[need[e]]
        key = _SUBJECT.get(t)
        if key is not None:
            subject = front[key]
    i += 6

    bit = 1 << p
    target = s.target
    known = s.known
    ability = cards.ability_of
    have = -1
    if len(blocks_h) > MEMO_LIMIT:  # bounded memos (a few MB at most: flat memory)
        blocks_h.clear()
        blocks_m.clear()
    character, option, score, bought = s.character, s.option, s.score, s.bought
    mapped, hand, used, frozen = s.mapped, s.hand, s.ability_used, s.frozen
    position, reveal, claims, responses = s.position, s.reveal_choice, s.claims, s.responses
    initiative = s.initiative
    for r in range(n):
        x = (p + r) % n
        o = i + r * SEAT_FEATURES
        out[o] = 1.0
        ch = character[x]
        if ch >= 0:
            out[o + 1 + ability[ch]] = 1.0
        opt = option[x]
        if opt >= 0 and (opts_public or x == p):
            out[o + 4 + opt] = 1.0
        pts = score[x]
        if pts:
            out[o + 6] = min(1.0, pts / target)
        out[o + 7] = _BY8[len(bought[x])]
        # the seat's card counts, each group summed as one packed integer (``_packs``)
        total = 0
        for c in mapped[x]:
            total += pack_mapped[c]
        block_m = blocks_m.get(total)
        if block_m is None:
            block_m = blocks_m[total] = _mapped_block(total)
        out[o + 8 : o + 14] = block_m
        total_m = total
        total = 0
        for c in hand[x]:
            total += pack_seen[c] if known[c] & bit else PACK_UNSEEN
        block_h = blocks_h.get(total)
        if block_h is None:
            block_h = blocks_h[total] = _hand_block(total)
        out[o + 14 : o + 28] = block_h[0]
        if r == 0 and block_h[1]:
            # my own elements, packed (unknown here while I hold a card I have not seen)
            have = total_m + (total & ELEMENTS)
        if used[x]:
            out[o + 28] = 1.0
        if frozen[x]:
            out[o + 29] = 1.0
        if x == initiative:
            out[o + 30] = 1.0
        k = position[x]
        if k >= 0:
            out[o + 31 + k] = 1.0
        k = reveal[x]
        if k >= 0:
            out[o + 38 + k] = 1.0
        k = claims[x]
        if k >= -1 and (claims_public or x == p):
            out[o + 41 + k] = 1.0
        k = responses[x]
        if k >= 0 and (responses_public or x == p):
            out[o + 44 + k] = 1.0
        if x == subject:
            out[o + 46] = 1.0
    i += MAX_PLAYERS * SEAT_FEATURES

    tf = len(seen_rows[0])
    occupant = s.occupant
    for k, c in enumerate(s.table):
        if c < 0:
            continue
        o = i + k * tf
        out[o : o + tf] = seen_rows[c] if known[c] & bit else unseen_rows[c]
        if occupant[k] >= 0:
            out[o + 1 + (occupant[k] - p) % n] = 1.0
    i += TABLE_SLOTS * tf

    if have < 0:
        have = s.packed_resources(p)
    have |= GUARDS
    cost_packed = rows[8]
    for k, combo in enumerate(s.combo_up):
        if combo < 0:
            continue
        o = i + k * COMBO_FEATURES
        out[o : o + COMBO_FEATURES] = combo_rows[combo]
        if (have - cost_packed[combo]) & GUARDS == GUARDS:  # every element affordable
            out[o + 8] = 1.0
    return np.frombuffer(out, dtype=np.float32)


FIELD = PACK_BITS  # bits per packed count (the card set's packing, ``cards.packed``)
MASK = (1 << FIELD) - 1
PACK_UNSEEN = (1 << FIELD * 12) + (1 << FIELD * 13)  # hand size + 1, unseen cards + 1
ELEMENTS = (1 << FIELD * 6) - 1  # the six element fields of a packed count
GUARDS = PACK_GUARDS  # the top bit of each element field
_SUBJECT = {"cryogen": "user", "target_shield": "user", "defective": "victim", "shortcut": "target"}


def _mapped_block(total: int) -> array:
    """Entries 8..13 of a seat block (mapped elements) from their packed counts."""
    return array("f", [_BY6[(total >> FIELD * e) & MASK] for e in range(6)])


def _hand_block(total: int) -> tuple:
    """Entries 14..27 of a seat block (hand size, seen elements and action cards, unseen
    cards) from their packed counts, and the seen elements (``None`` when a card is
    unseen)."""
    fields = [(total >> FIELD * j) & MASK for j in range(14)]
    elements, actions, size, unseen = fields[:6], fields[6:12], fields[12], fields[13]
    row = [_BY12[size], *[_BY6[v] for v in elements], *[_BY2[v] for v in actions], _BY6[unseen]]
    return array("f", row), not unseen


def _packs(cards) -> tuple[list[int], list[int]]:
    """Per card, its packed count as a mapped card (its terrain element) and as a seen
    hand card (its explored elements, its action kind, one card): ``FIELD`` bits each."""
    mapped = [1 << FIELD * cards.element_of[c] for c in range(cards.num_terrain)]
    seen = []
    for c in range(cards.num_terrain):
        v = 1 << FIELD * 12
        for e, count in cards.gives_sparse[c]:
            v += count << FIELD * e
        a = _ACTION_SLOT[cards.kind_of[c]]
        if a >= 0:
            v += 1 << FIELD * (6 + a)
        seen.append(v)
    return mapped, seen


_ROWS: dict[int, tuple] = {}


def _rows(cards) -> tuple:
    """Built once per card set: per card, its table-slot features (explored face seen /
    unseen; occupant left out); per COMBINATION card its features (affordability left
    out); an all-zero observation; per card its packed counts (:func:`_packs`); and the
    memos of count blocks (:func:`_mapped_block`, :func:`_hand_block`); and the packed
    cost of every COMBINATION card (affordability is one subtraction: with the top bit
    of each field set, a field stays >= its guard exactly when it holds the cost)."""
    rows = _ROWS.get(id(cards))
    if rows is not None and rows[0] is cards:
        return rows[1]
    nb = len(cards.biomes)
    tf = table_features(nb)
    nk = len(EXPLORED_KINDS)
    seen, unseen = [], []
    for c in range(cards.num_terrain):
        row = [0.0] * tf
        row[0] = 1.0
        row[7 + cards.element_of[c]] = 1.0
        row[13 + cards.biome_of[c]] = 1.0
        unseen.append(array("f", row))
        row[13 + nb + cards.kind_of[c]] = 1.0
        for e, v in cards.gives_sparse[c]:
            row[13 + nb + nk + e] = _BY3[v]
        seen.append(array("f", row))
    combos = []
    for k in range(cards.num_combos):
        row = [0.0] * COMBO_FEATURES
        row[0] = 1.0
        for e, v in enumerate(cards.cost_of[k]):
            row[1 + e] = _BY6[v]
        row[7] = min(1.0, cards.points_of[k] / 10)
        combos.append(array("f", row))
    costs = cards.packed_cost
    built = (seen, unseen, combos, bytes(4 * observation_size(nb)), *_packs(cards), {}, {}, costs)
    _ROWS[id(cards)] = (cards, built)
    return built


_KIND_SLOT: dict = {}
_KIND_SLOT_OTHER = [0]  # the 'other' entry of the phase one-hot


def index_decision_kinds() -> None:
    """Fix the phase one-hot once every phase module has registered its decisions."""
    _KIND_SLOT.clear()
    _KIND_SLOT.update({k: i for i, k in enumerate(T.DECISION_KINDS)})
    _KIND_SLOT_OTHER[0] = len(T.DECISION_KINDS)
