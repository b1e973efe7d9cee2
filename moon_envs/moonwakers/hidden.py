"""What a seat cannot see: determinisation (resample), the full-information vector, and
the checks of a position rebuilt from an untrusted snapshot.

A seat does not know the explored face of: the pile's cards, face-down table cards it did
not scan, mapped cards it never saw explored, and the other hands' private cards (the
set-up card). Every such card shows its terrain face (biome and element) except in the
pile, so :func:`resample` redeals exactly those cards: each hidden place gets a card of
the same terrain face, uniformly drawn from the hidden cards, and the rest form the pile.
Who knows which place's face stays with the place.
"""

from __future__ import annotations

import numpy as np

from moon_envs.core.game import ConfigError
from moon_envs.moonwakers.config import MAX_PLAYERS, TABLE_SLOTS

LOCATIONS = ("pile", "discard", "table", "hand", "mapped", "limbo")


def resample(s, player: int, rng: np.random.Generator):
    """A clone where every card ``player`` cannot see is redrawn consistently."""
    new = s.clone()
    cards = new.cards
    bit = 1 << player
    places: list[tuple[list, int]] = []  # (container, index) of a hidden card with a face up
    for k, c in enumerate(new.table):
        if c >= 0 and not new.known[c] & bit:
            places.append((new.table, k))
    for x in range(new.n):
        for pile in (new.hand[x], new.mapped[x]):
            for k, c in enumerate(pile):
                if not new.known[c] & bit:
                    places.append((pile, k))
    if not places and not new.pile:
        new.forget_memos()
        return new
    old_known = list(new.known)
    pool = list(new.pile) + [box[k] for box, k in places]
    face = {c: (cards.terrain_biome[c], int(cards.terrain_element[c])) for c in pool}
    by_face: dict = {}
    for c in pool:
        by_face.setdefault(face[c], []).append(c)
    for group in by_face.values():
        # canonical order first: the redraw must depend only on what the seat knows (the
        # set of cards it cannot place), never on where the true cards happen to lie
        group.sort()
        rng.shuffle(group)
    used = set()
    for box, k in places:
        old = box[k]
        card = by_face[face[old]].pop()
        box[k] = card
        used.add(card)
        new.known[card] = old_known[old]
    new.pile = sorted(c for c in pool if c not in used)
    for c in new.pile:
        new.known[c] = 0
    new.forget_memos()
    return new


def global_state(s) -> np.ndarray:
    """Every seat's observation, then each card's location, owner or slot, and every
    explored face, then a one-hot of the seat to move (plus 'game over')."""
    n = s.n
    nt = s.cards.num_terrain
    parts = [s._observation(p) for p in range(n)]
    where = np.zeros((nt, len(LOCATIONS) + TABLE_SLOTS), dtype=np.float32)
    owner = np.zeros((nt, MAX_PLAYERS), dtype=np.float32)
    for c in s.pile:
        where[c, 0] = 1
    for c in s.discard:
        where[c, 1] = 1
    for k, c in enumerate(s.table):
        if c >= 0:
            where[c, 2] = 1
            where[c, len(LOCATIONS) + k] = 1
    for x in range(n):
        for c in s.hand[x]:
            where[c, 3] = 1
            owner[c, x] = 1
        for c in s.mapped[x]:
            where[c, 4] = 1
            owner[c, x] = 1
    for c in s.limbo:
        where[c, 5] = 1
    mover = np.zeros(n + 1, dtype=np.float32)
    p = s.current_player()
    if p >= 0:
        mover[p] = 1
    elif p == -2:
        mover[n] = 1
    return np.concatenate([*parts, where.ravel(), owner.ravel(), mover])


def global_state_size(n: int, obs_size: int, num_terrain: int) -> int:
    return n * obs_size + num_terrain * (len(LOCATIONS) + TABLE_SLOTS + MAX_PLAYERS) + n + 1


def validate(s) -> None:
    """Raise :class:`ConfigError` on a field that no Moonwakers position can hold."""
    if getattr(s, "n", None) != s.game.config.num_players:
        raise ConfigError(f"state field 'n' must be {s.game.config.num_players} (num_players)")
    n, cards = s.n, s.cards
    nt, nk = cards.num_terrain, cards.num_combos

    def seat_lists(name: str) -> list:
        value = getattr(s, name, None)
        if (
            not isinstance(value, list)
            or len(value) != n
            or not all(isinstance(v, list) for v in value)
        ):
            raise ConfigError(f"state field {name!r} must be a list of {n} lists (one per seat)")
        return value

    seen: list[int] = []
    for name in ("pile", "discard", "limbo"):
        value = getattr(s, name, None)
        if not isinstance(value, list):
            raise ConfigError(f"state field {name!r} must be a list of terrain card ids")
        seen += value
    if not isinstance(s.table, list) or len(s.table) != TABLE_SLOTS:
        raise ConfigError(f"state field 'table' must be a list of {TABLE_SLOTS} card ids or -1")
    seen += [c for c in s.table if c != -1]
    for name in ("hand", "mapped"):
        for v in seat_lists(name):
            seen += v
    if sorted(seen) != list(range(nt)):
        raise ConfigError(
            f"state fields pile/discard/limbo/table/hand/mapped must hold every terrain card id "
            f"0..{nt - 1} exactly once"
        )
    combos = list(s.combo_pile) + list(s.combo_under) + [c for c in s.combo_up if c != -1]
    for v in seat_lists("bought"):
        combos += v
    if sorted(combos) != list(range(nk)):
        raise ConfigError(f"COMBINATION card ids 0..{nk - 1} must each appear exactly once")
    for name, low, high in (
        ("option", -1, 1),
        ("position", -1, TABLE_SLOTS - 1),
        ("claims", -2, 2),
    ):
        value = getattr(s, name, None)
        if (
            not isinstance(value, list)
            or len(value) != n
            or any(not low <= v <= high for v in value)
        ):
            raise ConfigError(f"state field {name!r} must be {n} integers in {low}..{high}")
    if (
        not isinstance(s.known, list)
        or len(s.known) != nt
        or any(not 0 <= v < (1 << n) for v in s.known)
    ):
        raise ConfigError(f"state field 'known' must be {nt} seat bit masks in 0..{(1 << n) - 1}")
    if not 0 <= s.initiative < n:
        raise ConfigError(f"state field 'initiative' must be in 0..{n - 1}")
    from moon_envs.moonwakers import tasks as T

    kinds = set(T.AUTO) | set(T.CHANCE_OUTCOMES) | set(T.LEGAL)
    if not isinstance(s.tasks, list) or any(
        not isinstance(t, dict) or t.get("t") not in kinds for t in s.tasks
    ):
        raise ConfigError(f"state field 'tasks' must be a list of tasks of kinds {sorted(kinds)}")
