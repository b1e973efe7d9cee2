"""Round start and phase 1, the opening; the CRYOGEN / SHIELD windows of abilities.

* ``round_start``: the initiative passes left (not before the first round); players + 1
  terrain cards are drawn face down onto the table.
* ``option``: every seat, clockwise from the initiative player, chooses SCAN or PROTECTION.
  The choices are sealed (hidden from the others) until all have chosen.
* ``peek``: each SCAN player looks at the explored face of one table card, alone.

When a character ability is announced (:func:`ability_windows`), every other seat that
holds a CRYOGEN may play it to freeze that ability for the round; the user may answer
with a SHIELD, which blocks the CRYOGEN. A targeted ability's target may then cancel it
with a SHIELD of their own ([HOUSE] RULES.md §2).
"""

from __future__ import annotations

from moon_envs.moonwakers import tasks as T
from moon_envs.moonwakers.config import ActionLayout as A
from moon_envs.moonwakers.state import PROTECTION, SCAN
from moon_envs.moonwakers.tasks import task


@T.auto("round_start")
def round_start(s, t) -> None:
    n = s.n
    if not t.get("first"):
        s.initiative = (s.initiative + 1) % n
    s.round += 1
    s.option = [-1] * n
    s.options_public = False
    s.position = [-1] * n
    s.occupant = [-1] * len(s.occupant)
    s.ability_used = [False] * n
    s.frozen = [False] * n
    s.shortcut_seat = -1
    s.reveal_choice = [-1] * n
    s.claims = [-2] * n
    s.claims_public = False
    s.last_rolls = []
    order = s.order_from(s.initiative)
    s.push(
        *[task("draw", dest="table", slot=k) for k in range(n + 1)],
        *[task("option", seat=x) for x in order],
        task("options_reveal"),
    )


@T.decision("option", lambda s, t: [A.OPT_SCAN, A.OPT_PROTECTION])
def choose_option(s, t, action: int) -> None:
    s.option[t["seat"]] = SCAN if action == A.OPT_SCAN else PROTECTION


@T.auto("options_reveal")
def options_reveal(s, t) -> None:
    s.options_public = True
    order = s.order_from(s.initiative)
    s.push(
        *[task("peek", seat=x) for x in order if s.option[x] == SCAN],
        *[task("dash", seat=x) for x in order if s.ability(x) == "dash"],
        *[task("shortcut", seat=x) for x in order[1:] if s.ability(x) == "shortcut"],
        task("place_start"),
    )


def _table_slots(s) -> list[int]:
    return [k for k, c in enumerate(s.table) if c >= 0]


@T.decision("peek", lambda s, t: [A.PEEK + k for k in _table_slots(s)])
def peek(s, t, action: int) -> None:
    card = s.table[action - A.PEEK]
    s.known[card] |= 1 << t["seat"]


# ---- ability windows -------------------------------------------------------------------------


def ability_windows(s, user: int, target: int = -1) -> list[dict]:
    """CRYOGEN windows of the other seats (clockwise from the user), then the target's
    SHIELD window."""
    s.ability_blocked = False
    out = [task("cryogen", seat=x, user=user) for x in s.order_from(user)[1:]]
    if target >= 0:
        out.append(task("target_shield", seat=target, user=user))
    return out


def ability_live(s, user: int) -> bool:
    return not s.frozen[user] and not s.ability_blocked


def _cryogen_legal(s, t) -> list[int]:
    if s.frozen[t["user"]]:
        return []
    return s.window(t["seat"], "cryogen", A.CRYOGEN)


@T.decision("cryogen", _cryogen_legal)
def cryogen(s, t, action: int) -> None:
    if action == A.CRYOGEN:
        s.spend(t["seat"], "cryogen")
        s.frozen[t["user"]] = True
        s.push(task("shield_cryogen", seat=t["user"]))


def _shield_cryogen_legal(s, t) -> list[int]:
    if not s.frozen[t["seat"]]:
        return []
    return s.window(t["seat"], "shield", A.SHIELD)


@T.decision("shield_cryogen", _shield_cryogen_legal)
def shield_cryogen(s, t, action: int) -> None:
    if action == A.SHIELD:
        s.spend(t["seat"], "shield")
        s.frozen[t["seat"]] = False


def _target_shield_legal(s, t) -> list[int]:
    if not ability_live(s, t["user"]):
        return []
    return s.window(t["seat"], "shield", A.SHIELD)


@T.decision("target_shield", _target_shield_legal)
def target_shield(s, t, action: int) -> None:
    if action == A.SHIELD:
        s.spend(t["seat"], "shield")
        s.ability_blocked = True


# ---- DASH ----------------------------------------------------------------------------------


def _dash_legal(s, t) -> list[int]:
    x = t["seat"]
    if s.ability_used[x] or s.frozen[x] or not (s.pile or s.discard):
        return []
    return [A.PASS, *[A.DASH + k for k in _table_slots(s)]]


@T.decision("dash", _dash_legal)
def dash(s, t, action: int) -> None:
    """DASH: replace a table card by the top of the pile (the old one goes under it)."""
    if action == A.PASS:
        return
    x = t["seat"]
    s.ability_used[x] = True
    s.push(*ability_windows(s, x), task("dash_do", seat=x, slot=action - A.DASH))


@T.auto("dash_do")
def dash_do(s, t) -> None:
    if not ability_live(s, t["seat"]):
        return
    old = s.table[t["slot"]]
    s.table[t["slot"]] = -1
    s.limbo.append(old)
    s.push(task("draw", dest="table", slot=t["slot"]), task("limbo_to_pile", card=old))


@T.auto("limbo_to_pile")
def limbo_to_pile(s, t) -> None:
    s.limbo.remove(t["card"])
    s.to_pile(t["card"])
