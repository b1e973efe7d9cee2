"""Phase 2, positioning, with SHORTCUT, PERMUTATION and the SCAN action card.

* ``shortcut`` [HOUSE]: before the first character is placed, each SHORTCUT holder but the
  initiative player may try to place first: a d12 duel against the initiative player
  (after the CRYOGEN and SHIELD windows); the first winner places first.
* ``place``: clockwise from the initiative player, each puts their character under a free
  table card (one per card). Instead, a seat holding a SCAN action card may play it to
  look at any table card, then place.
* ``permute`` [HOUSE]: once all are placed, each PERMUTATION holder may swap places with
  another character: a duel against that character (who may SHIELD).

Every ability is used at most once per round and not at all once frozen by a CRYOGEN.
"""

from __future__ import annotations

from moon_envs.moonwakers import tasks as T
from moon_envs.moonwakers.config import ActionLayout as A
from moon_envs.moonwakers.draws import duel
from moon_envs.moonwakers.opening import ability_live, ability_windows
from moon_envs.moonwakers.tasks import task


def _free_slots(s) -> list[int]:
    return [k for k, c in enumerate(s.table) if c >= 0 and s.occupant[k] < 0]


def _shortcut_legal(s, t) -> list[int]:
    x = t["seat"]
    if s.ability_used[x] or s.frozen[x] or s.shortcut_seat >= 0 or not _free_slots(s):
        return []
    return [A.PASS, A.SHORTCUT]


@T.decision("shortcut", _shortcut_legal)
def shortcut(s, t, action: int) -> None:
    if action == A.PASS:
        return
    x = t["seat"]
    s.ability_used[x] = True
    then = task("shortcut_won", seat=x)
    s.push(
        *ability_windows(s, x, s.initiative),
        task("ability_duel", user=x, target=s.initiative, then=then),
    )


@T.auto("ability_duel")
def ability_duel(s, t) -> None:
    if ability_live(s, t["user"]):
        s.push(*duel([t["user"], t["target"]], t["then"]))


@T.auto("shortcut_won")
def shortcut_won(s, t) -> None:
    if t["winner"] == t["seat"]:
        s.shortcut_seat = t["seat"]


@T.auto("place_start")
def place_start(s, t) -> None:
    order = s.order_from(s.initiative)
    if s.shortcut_seat >= 0:
        order.remove(s.shortcut_seat)
        order.insert(0, s.shortcut_seat)
    s.push(
        *[task("place", seat=x) for x in order],
        *[
            task("permute", seat=x)
            for x in s.order_from(s.initiative)
            if s.ability(x) == "permutation"
        ],
        task("reveal_start"),
    )


def _place_legal(s, t) -> list[int]:
    free = _free_slots(s)
    if not free:
        return []
    out = [A.PLACE + k for k in free]
    x = t["seat"]
    if s.holding(x, "scan") >= 0:
        bit = 1 << x
        out += [A.SCAN_CARD + k for k, c in enumerate(s.table) if c >= 0 and not s.known[c] & bit]
    return out


@T.decision("place", _place_legal)
def place(s, t, action: int) -> None:
    x = t["seat"]
    if action >= A.SCAN_CARD:
        s.spend(x, "scan")
        s.known[s.table[action - A.SCAN_CARD]] |= 1 << x
        s.push(task("place", seat=x))
        return
    k = action - A.PLACE
    s.position[x] = k
    s.occupant[k] = x


def _permute_legal(s, t) -> list[int]:
    x = t["seat"]
    if s.ability_used[x] or s.frozen[x] or s.position[x] < 0:
        return []
    n = s.n
    out = [A.PERMUTE + off - 1 for off in range(1, n) if s.position[(x + off) % n] >= 0]
    return [A.PASS, *out] if out else []


@T.decision("permute", _permute_legal)
def permute(s, t, action: int) -> None:
    if action == A.PASS:
        return
    x = t["seat"]
    target = (x + action - A.PERMUTE + 1) % s.n
    s.ability_used[x] = True
    then = task("permute_won", seat=x, target=target)
    s.push(*ability_windows(s, x, target), task("ability_duel", user=x, target=target, then=then))


@T.auto("permute_won")
def permute_won(s, t) -> None:
    x, y = t["seat"], t["target"]
    if t["winner"] != x:
        return
    a, b = s.position[x], s.position[y]
    s.position[x], s.position[y] = b, a
    s.occupant[a], s.occupant[b] = y, x
