"""Determinisation: :func:`resample` redraws everything a seat has not seen.

What seat ``p`` cannot know, and how it is redrawn:

* **Cards.** The explored face of the pile's cards, of face-down table cards and mapped
  cards it never looked at, of another seat's unseen set-up card, of a card DASH put
  aside. Each such *place* shows a terrain face (biome and element), so its card is
  redrawn among the cards ``p`` cannot place (the pile's and the places'), keeping the
  face, and so that every constraint ``p`` knows holds:

  - a place filled from the pile at tick ``t`` cannot hold a card ``p`` saw elsewhere at
    or after ``t`` (``gone[p][card] < drawn``);
  - a set-up card is never an ACCIDENT or a STORM (``setup_hand="redraw"``), is of no
    kind a window showed it is not (``not_kinds``), and holds at least the elements its
    holder's revealed claims or its payment under way need (``floor``, ``pay_need``).

  The places and the candidates are matched at random (augmenting paths over a seeded
  order), so a consistent deal is always found; cards left over form the pile.
* **Other seats' looks.** Which face-down card another seat looked at (an opening SCAN,
  a SCAN card) is redrawn among the cards it could have chosen then: ``looks`` keeps
  them (and how many have since left play), never the choice.
* **Sealed choices** not yet revealed: another seat's SCAN / PROTECTION (any), claim
  (pass or a card it can afford in the redrawn position) and response to the free card's
  accident (SHELTER only when it holds one).
* Memories: another seat's ``gone`` row keeps only what all saw; a sealed last move or a
  face-down draw is no longer named.

The result depends only on what ``p`` knows and on ``rng``: two positions that differ
only in what ``p`` has not seen give the same determinisation for the same generator.
"""

from __future__ import annotations

import random

import numpy as np

from moon_envs.moonwakers.draws import BAD_SETUP
from moon_envs.moonwakers.state import ROLL_RESPONSE, SHELTER_RESPONSE
from moon_envs.moonwakers.text import still_sealed


def resample(s, p: int, rng: np.random.Generator):
    """A clone of ``s`` where everything seat ``p`` cannot know is redrawn (``rng`` seeds
    one Python generator for all the draws)."""
    rng = random.Random(int(rng.integers(2**63)))
    new = s.clone()
    mapping = _redeal(new, s, p, rng)
    _redraw_looks(new, s, p, mapping, rng)
    _redraw_sealed(new, p, rng)
    gone_pub = new.gone_pub
    for x in range(new.n):
        if x != p:
            new.gone[x] = list(gone_pub)
    seat, action, kind, _ = new.last
    if seat != p and _sealed_last(s, seat, action, kind, p):
        new.last = [seat, -2, kind, -1]
    new.combo_pile.sort()
    new.forget_memos()
    return new


def _sealed_last(s, seat: int, action: int, kind: str, p: int) -> bool:
    """Whether the last step is hidden from ``p``: a sealed choice, or a card drawn face
    down that ``p`` has not seen."""
    if seat < 0:
        return kind == "draw" and action >= 0 and not s.known[action] >> p & 1
    return still_sealed(s, kind, action)


# ---- cards ----------------------------------------------------------------------------------


def _places(s, p: int) -> list[tuple[list, int, int]]:
    """Hidden places ``(container, index, seat whose set-up card it is or -1)`` in a
    canonical order (what ``p`` sees: table slots, hands, mapped cards, limbo, under)."""
    bit = 1 << p
    known = s.known
    out = [(s.table, k, -1) for k, c in enumerate(s.table) if c >= 0 and not known[c] & bit]
    for x in range(s.n):
        out += [(s.hand[x], i, x) for i, c in enumerate(s.hand[x]) if not known[c] & bit]
    for x in range(s.n):
        out += [(s.mapped[x], i, -1) for i, c in enumerate(s.mapped[x]) if not known[c] & bit]
    out += [(s.limbo, i, -1) for i, c in enumerate(s.limbo) if not known[c] & bit]
    out += [(s.pile_under, i, -1) for i, c in enumerate(s.pile_under) if not known[c] & bit]
    return out


def _floor(s, x: int) -> list[int]:
    """Elements ``x``'s unseen hand cards must hold: its revealed claims' needs and what
    its payment under way still lacks beyond its seen cards."""
    need = list(s.floor[x])
    for t in s.tasks[:1]:
        if t["t"] == "pay" and t["seat"] == x:
            public = s.public_resources(x)
            need = [max(a, b - c) for a, b, c in zip(need, s.pay_need, public)]
    return need


def _redeal(new, old, p: int, rng: random.Random) -> dict[int, int]:
    """Redeal the hidden places of ``new`` (a clone of ``old``); return old -> new ids."""
    places = _places(new, p)
    if not places:
        new.pile.sort()
        return {}
    cards = new.cards
    face_of = cards.face_of
    gone = old.gone[p]
    pool = sorted(list(new.pile) + [box[i] for box, i, _ in places])
    by_face: dict[int, list[int]] = {}
    for c in pool:
        by_face.setdefault(face_of[c], []).append(c)
    kind_of = cards.kind_of
    bad = {i for i, k in enumerate(_kinds()) if k in BAD_SETUP}
    redraw = new.config.setup_hand == "redraw"
    strict: list[list[int]] = []
    loose: list[list[int]] = []
    for box, i, owner in places:
        c0 = box[i]
        same = by_face[face_of[c0]]
        loose.append(same)
        drawn = old.drawn[c0]
        ok = [c for c in same if drawn < 0 or gone[c] < drawn]
        if owner >= 0:
            floor = _floor(old, owner)
            banned = new.not_kinds[owner]
            gives = cards.gives
            ok = [
                c
                for c in ok
                if not (redraw and kind_of[c] in bad)
                and not banned >> kind_of[c] & 1
                and all(g >= f for g, f in zip(gives[c], floor))
            ]
        strict.append(ok)
    assign = _match(strict, rng) or _match(loose, rng)
    assert assign is not None, "the true deal always matches"
    known, drawn = list(old.known), list(old.drawn)
    mapping = {}
    used = set()
    for (box, i, _), card in zip(places, assign):
        c0 = box[i]
        mapping[c0] = card
        box[i] = card
        used.add(card)
        new.known[card] = known[c0]
        new.drawn[card] = drawn[c0]
    new.pile = [c for c in pool if c not in used]
    for c in new.pile:
        new.known[c] = 0
        new.drawn[c] = -1
    return mapping


def _kinds() -> tuple[str, ...]:
    from moon_envs.moonwakers.cards import EXPLORED_KINDS

    return EXPLORED_KINDS


def _match(cands: list[list[int]], rng: random.Random) -> list[int] | None:
    """A random perfect matching of places to distinct candidate cards, or ``None``."""
    count = len(cands)
    order = list(range(count))
    rng.shuffle(order)
    shuffled = []
    for c in cands:
        c = list(c)
        rng.shuffle(c)
        shuffled.append(c)
    holder: dict[int, int] = {}
    assign = [-1] * count

    def place(i: int, seen: set) -> bool:
        for c in shuffled[i]:
            if c in seen:
                continue
            seen.add(c)
            j = holder.get(c)
            if j is None or place(j, seen):
                holder[c] = i
                assign[i] = c
                return True
        return False

    for i in order:
        if not place(i, set()):
            return None
    return assign


# ---- looks and sealed choices ----------------------------------------------------------------


def _face_down(s) -> set[int]:
    """Cards in play whose explored face not everyone has seen."""
    full = s.all_seats
    known = s.known
    out = {c for c in s.table if c >= 0}
    for m in s.mapped:
        out.update(m)
    out.update(s.limbo)
    out.update(s.pile_under)
    return {c for c in out if known[c] != full}


def _redraw_looks(new, old, p: int, mapping: dict[int, int], rng: random.Random) -> None:
    live = _face_down(old)
    looks = []
    for seat, away, cands in old.looks:
        keep = [mapping.get(c, c) for c in cands if c in live]
        if keep:  # a look none of whose cards is still face down in play tells nothing
            looks.append([seat, away + len(cands) - len(keep), sorted(keep)])
    new.looks = looks
    full = new.all_seats
    known = new.known
    mine = 1 << p
    for c in range(len(known)):
        k = known[c]
        if k and k != full and k & ~mine:
            known[c] = k & mine
    for x in range(new.n):  # owners know their own hand cards
        for c in new.hand[x]:
            known[c] |= 1 << x
    for seat, away, cands in looks:
        if seat == p:
            continue
        bit = 1 << seat
        options = [c for c in cands if not known[c] & bit]
        if options:
            r = rng.randrange(away + len(options))
            if r < len(options):
                known[options[r]] |= bit


def _redraw_sealed(new, p: int, rng: random.Random) -> None:
    n = new.n
    if not new.options_public:
        for x in range(n):
            if x != p and new.option[x] >= 0:
                new.option[x] = rng.randrange(2)
    for x in range(n):
        if x != p:
            new.claim_need[x] = [0] * 6
    if not new.claims_public:
        for x in range(n):
            if x == p or new.claims[x] < -1:
                continue
            have = new.packed_resources(x)
            legal = [-1] + [k for k in range(len(new.combo_up)) if new.can_afford(x, k, have)]
            slot = legal[rng.randrange(len(legal))]
            new.claims[x] = slot
            if slot >= 0:
                cost = new.cards.cost_of[new.combo_up[slot]]
                public = new.public_resources(x)
                new.claim_need[x] = [max(0, c - q) for c, q in zip(cost, public)]
    if not new.responses_public:
        for x in range(n):
            if x != p and new.responses[x] >= 0:
                if new.holding(x, "shelter") >= 0 and rng.randrange(2):
                    new.responses[x] = SHELTER_RESPONSE
                else:
                    new.responses[x] = ROLL_RESPONSE
