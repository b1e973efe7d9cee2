"""Phase 2, positioning, with SHORTCUT, PERMUTATION and the SCAN action card.

* ``shortcut``: a SHORTCUT holder may try to place before another seat: before the first
  placement, against the initiative player (``shortcut_when="first"``, the default), or
  before any other seat's placement, against that seat (``"every"``). After the CRYOGEN
  and SHIELD windows, a d12 duel (``ability_duel``); the winner places at once.
* ``place``: clockwise from the initiative player, each puts their character under a free
  table card (one per card). Instead, a seat holding a SCAN action card may play it to
  look at a face-down card it has not seen: a table card, or (``scan_targets="terrain"``)
  a mapped card of any seat; then it places.
* ``permute``: each PERMUTATION holder may swap places with another placed character: a
  duel against that character (who may SHIELD), once all are placed
  (``permutation_when="end"``) or right after its own placement (``"own"``).

Every ability is used at most once per round and not at all once frozen by a CRYOGEN.
"""

from __future__ import annotations

from moon_envs.moonwakers import tasks as T
from moon_envs.moonwakers.config import ActionLayout as A
from moon_envs.moonwakers.draws import duel
from moon_envs.moonwakers.opening import ability_live, ability_windows, record_look, table_cards
from moon_envs.moonwakers.tasks import task


def _free_slots(s) -> list[int]:
    occupant = s.occupant
    return [k for k, c in enumerate(s.table) if c >= 0 and occupant[k] < 0]


@T.auto("place_start")
def place_start(s, t) -> None:
    cfg = s.config
    order = s.order_from(s.initiative)
    abilities = [s.ability(x) for x in range(s.n)]
    every, own = cfg.shortcut_when == "every", cfg.permutation_when == "own"
    out = []
    for i, y in enumerate(order):
        if i == 0 or every:
            out += [
                {"t": "shortcut", "seat": x, "target": y}
                for x in s.order_from(y)[1:]
                if abilities[x] == "shortcut"
            ]
        out.append({"t": "place", "seat": y})
        if own and abilities[y] == "permutation":
            out.append({"t": "permute", "seat": y})
    if not own:
        out += [{"t": "permute", "seat": x} for x in order if abilities[x] == "permutation"]
    # every seat then reveals, clockwise (a seat without a character placed is skipped)
    out += [{"t": "reveal", "seat": x} for x in order]
    s.push(*out, {"t": "end_round"})


def _shortcut_legal(s, t) -> list[int]:
    x, y = t["seat"], t["target"]
    if s.ability_used[x] or s.frozen[x] or s.position[x] >= 0 or s.position[y] >= 0:
        return []
    if s.config.shortcut_when == "first" and any(p >= 0 for p in s.position):
        return []
    return [A.PASS, A.SHORTCUT] if _free_slots(s) else []


@T.decision("shortcut", _shortcut_legal)
def shortcut(s, t, action: int) -> None:
    if action == A.PASS:
        return
    x, y = t["seat"], t["target"]
    s.ability_used[x] = True
    s.push(
        *ability_windows(s, x, y),
        task("ability_go", user=x, target=y, then=task("shortcut_won", seat=x)),
    )


@T.auto("ability_go")
def ability_go(s, t) -> None:
    """The ability acts unless frozen or shielded: a duel (``ability_duel``) or at once."""
    if not ability_live(s, t["user"]):
        return
    if s.config.ability_duel:
        s.push(*duel([t["user"], t["target"]], t["then"]))
    else:
        s.push({**t["then"], "winner": t["user"]})


@T.auto("shortcut_won")
def shortcut_won(s, t) -> None:
    if t["winner"] == t["seat"]:
        s.push(task("place", seat=t["seat"]))


def _place_legal(s, t) -> list[int]:
    x = t["seat"]
    if s.position[x] >= 0:
        return []
    free = _free_slots(s)
    if not free:
        return []
    out = [A.PLACE + k for k in free]
    if s.holding(x, "scan") >= 0:
        bit = 1 << x
        known = s.known
        out += [A.SCAN_CARD + k for k, c in enumerate(s.table) if c >= 0 and not known[c] & bit]
        if s.config.scan_targets == "terrain":
            for off in range(s.n):
                out += s.mapped_choices(x, (x + off) % s.n, unseen_only=True)
    return out


def mapped_cards(s) -> list[int]:
    return [c for m in s.mapped for c in m]


@T.decision("place", _place_legal)
def place(s, t, action: int) -> None:
    x = t["seat"]
    if action >= A.MAPPED:
        off, i = s.layout.split_mapped(action)
        s.spend(x, "scan")
        record_look(s, x, s.mapped[(x + off) % s.n][i], mapped_cards(s))
        s.push(task("place", seat=x))
        return
    if action >= A.SCAN_CARD:
        s.spend(x, "scan")
        record_look(s, x, s.table[action - A.SCAN_CARD], table_cards(s))
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
    s.push(*ability_windows(s, x, target), task("ability_go", user=x, target=target, then=then))


@T.auto("permute_won")
def permute_won(s, t) -> None:
    x, y = t["seat"], t["target"]
    a, b = s.position[x], s.position[y]
    if t["winner"] != x or a < 0 or b < 0:
        return
    s.position[x], s.position[y] = b, a
    s.occupant[a], s.occupant[b] = y, x
