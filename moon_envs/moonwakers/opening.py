"""Round start and phase 1, the opening; DASH; the CRYOGEN / SHIELD windows of abilities.

* ``round_start``: the initiative passes left (not before the first round); the last
  round's free card, left face up on the table for all to see, goes under the pile (or
  onto the discard pile, ``free_card="discard"``, unless it is an accident); players + 1
  terrain cards are drawn face down onto the table.
* ``option``: every seat, clockwise from the initiative player, chooses SCAN or PROTECTION.
  The choices are sealed (hidden from the others) until all have chosen.
* ``peek``: each SCAN player looks at the explored face of one table card, alone.
* ``dash``: before positioning, a DASH holder may replace a table card by a new draw; the
  old card goes under the pile.

When a character ability is announced (:func:`ability_windows`), every other seat that
holds a CRYOGEN may play it to freeze that ability for the round; the user may answer
with a SHIELD, which blocks the CRYOGEN. Under ``shield_abilities`` the target of a
SHORTCUT or PERMUTATION may then cancel it with a SHIELD of their own.
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
    for k, card in enumerate(s.table):  # last round's free card, flipped for all to see
        if card >= 0:
            s.table[k] = -1
            if s.config.free_card == "discard" and not s.cards.is_kind(card, "accident"):
                s.discard.append(card)
            else:
                s.to_pile(card)
    s.option = [-1] * n
    s.options_public = False
    s.position = [-1] * n
    s.occupant = [-1] * len(s.occupant)
    s.ability_used = [False] * n
    s.frozen = [False] * n
    s.reveal_choice = [-1] * n
    s.responses = [-1] * n
    s.responses_public = False
    s.claims = [-2] * n
    s.claims_public = False
    s.bought_round = [0] * n
    s.claim_turns = 0
    s.last_rolls = []
    if len(s.looks) > 32:
        prune_looks(s)
    order = s.order_from(s.initiative)
    s.push(
        *[{"t": "draw", "dest": "table", "slot": k} for k in range(n + 1)],
        *[{"t": "option", "seat": x} for x in order],
        {"t": "options_reveal"},
    )


def prune_looks(s) -> None:
    """Forget the private looks none of whose cards is still face down in play (done
    when more than 32 are kept: a look whose cards have all left play tells nothing)."""
    full = s.all_seats
    known = s.known
    live = {c for c in s.table if c >= 0 and known[c] != full}
    for m in s.mapped:
        live.update(m)
    live.update(s.limbo)
    live.update(c for c in s.pile_under if known[c] != full)
    s.looks = [look for look in s.looks if not live.isdisjoint(look[2])]


def record_look(s, seat: int, card: int, candidates: list[int]) -> None:
    """``seat`` looks at ``card``'s explored face, chosen among ``candidates``."""
    s.known[card] |= 1 << seat
    s.looks.append([seat, 0, sorted(candidates)])


@T.decision("option", lambda s, t: [A.OPT_SCAN, A.OPT_PROTECTION])
def choose_option(s, t, action: int) -> None:
    s.option[t["seat"]] = SCAN if action == A.OPT_SCAN else PROTECTION


@T.auto("options_reveal")
def options_reveal(s, t) -> None:
    s.options_public = True
    order = s.order_from(s.initiative)
    option = s.option
    s.push(
        *[{"t": "peek", "seat": x} for x in order if option[x] == SCAN],
        *[{"t": "dash", "seat": x} for x in order if s.ability(x) == "dash"],
        {"t": "place_start"},
    )


def table_cards(s) -> list[int]:
    return [c for c in s.table if c >= 0]


def _peek_legal(s, t) -> list[int]:
    return [A.PEEK + k for k, c in enumerate(s.table) if c >= 0]


@T.decision("peek", _peek_legal)
def peek(s, t, action: int) -> None:
    record_look(s, t["seat"], s.table[action - A.PEEK], table_cards(s))


# ---- ability windows -------------------------------------------------------------------------


def ability_windows(s, user: int, target: int = -1) -> list[dict]:
    """CRYOGEN windows of the other seats (clockwise from the user), then the target's
    SHIELD window (under ``shield_abilities``)."""
    s.ability_blocked = False
    out = [task("cryogen", seat=x, user=user) for x in s.order_from(user)[1:]]
    if target >= 0 and s.config.shield_abilities:
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
    if s.ability_used[x] or s.frozen[x] or not (s.pile or s.pile_under or s.discard):
        return []
    return [A.PASS, *[A.DASH + k for k, c in enumerate(s.table) if c >= 0]]


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
    slot = t["slot"]
    if not ability_live(s, t["seat"]) or s.table[slot] < 0:
        return
    s.limbo.append(s.table[slot])
    s.table[slot] = -1
    s.push(task("draw", dest="table", slot=slot), task("limbo_to_pile"))


@T.auto("limbo_to_pile")
def limbo_to_pile(s, t) -> None:
    """The card DASH replaced goes under the pile once the new one is drawn."""
    cards, s.limbo = s.limbo, []
    for c in cards:
        s.to_pile(c)
