"""Checks of a Moonwakers position rebuilt from an untrusted snapshot (``State.validate``).

The core has already checked that the snapshot holds exactly the fields of a position,
each of the right top-level kind. Here every field is checked for its type, length and
range, the cards for conservation, the knowledge bits and ticks for consistency with
where the cards lie, and every queued task for its fields (kind by kind) and for what it
refers to (a limbo card, a filled COMBINATION slot, a payable debt). The memo of the
front task's legal actions or chance outcomes must equal what the position implies.
Every failure raises :class:`~moon_envs.core.game.ConfigError` naming the field.
"""

from __future__ import annotations

from typing import Any

from moon_envs.core.game import ConfigError
from moon_envs.core.snapshot import quote
from moon_envs.moonwakers import tasks as T
from moon_envs.moonwakers.config import TABLE_SLOTS, face_up_combos
from moon_envs.moonwakers.state import MAX_ROLLS_KEPT

MAX_TASKS = 2000
MAX_LOOKS = 4096
MAX_TICK = 10**9
THEN_KINDS = ("shortcut_won", "permute_won", "duel_won", "first_won")


def _fail(field: str, problem: str) -> None:
    raise ConfigError(f"state field {field} {problem}")


def _int(field: str, v: Any, lo: int, hi: int) -> int:
    if type(v) is not int or not lo <= v <= hi:
        _fail(field, f"must be an integer in {lo}..{hi}, got {quote(v)}")
    return v


def _bool(field: str, v: Any) -> None:
    if type(v) is not bool:
        _fail(field, f"must be true or false, got {quote(v)}")


def _list(field: str, v: Any, length: int | None = None, most: int | None = None) -> list:
    if type(v) is not list:
        _fail(field, f"must be a list, got {quote(v)}")
    if length is not None and len(v) != length:
        _fail(field, f"must hold {length} entries, got {len(v)}")
    if most is not None and len(v) > most:
        _fail(field, f"must hold at most {most} entries, got {len(v)}")
    return v


def _ints(field: str, v: Any, length: int | None, lo: int, hi: int, most: int | None = None):
    for i, x in enumerate(_list(field, v, length, most)):
        _int(f"{field}[{i}]", x, lo, hi)
    return v


def _bools(field: str, v: Any, length: int) -> None:
    for i, x in enumerate(_list(field, v, length)):
        _bool(f"{field}[{i}]", x)


def _seat_lists(field: str, v: Any, n: int, length: int | None, lo: int, hi: int) -> None:
    for x, row in enumerate(_list(field, v, n)):
        _ints(f"{field}[{x}]", row, length, lo, hi)


def validate(s) -> None:
    """Raise :class:`ConfigError` on a field no Moonwakers position can hold."""
    cfg = s.game.config
    n = _int("n", s.n, cfg.num_players, cfg.num_players)
    cards = s.cards
    nt, nk = cards.num_terrain, cards.num_combos
    _scalars(s, cfg, n)
    _cards(s, cfg, n, nt, nk)
    _knowledge(s, n, nt)
    _round_fields(s, cfg, n)
    _tasks(s, n, nt)
    _memo(s)


def _scalars(s, cfg, n: int) -> None:
    _int("round", s.round, 0, cfg.max_rounds)
    _int("initiative", s.initiative, 0, n - 1)
    _ints("character", s.character, n, -1, 5)
    dealt = [c for c in s.character if c >= 0]
    if len(set(dealt)) != len(dealt):
        _fail("character", f"deals a character twice: {s.character}")
    if s.round > 0 and len(dealt) != n:
        _fail("character", "must give every seat a character once the game has started")
    for name in ("options_public", "ability_blocked", "shelter_ok", "claims_public"):
        _bool(name, getattr(s, name))
    _bool("responses_public", s.responses_public)
    _int("tick", s.tick, 0, MAX_TICK)
    _int("claim_turns", s.claim_turns, 0, cfg.purchases_per_round)


def _cards(s, cfg, n: int, nt: int, nk: int) -> None:
    seen: list[int] = []
    for name, most in (("pile", nt), ("pile_under", nt), ("discard", nt), ("limbo", nt)):
        seen += _ints(name, getattr(s, name), None, 0, nt - 1, most)
    if cfg.pile == "unordered" and s.pile_under:
        _fail("pile_under", "must be empty with pile='unordered'")
    if s.pile != sorted(s.pile):
        _fail("pile", "must be sorted (the shuffled pile is a set of card ids)")
    _ints("table", s.table, TABLE_SLOTS, -1, nt - 1)
    if any(c >= 0 for c in s.table[n + 1 :]):
        _fail("table", f"uses slots beyond the {n + 1} of {n} players")
    seen += [c for c in s.table if c >= 0]
    for name in ("hand", "mapped"):
        _seat_lists(name, getattr(s, name), n, None, 0, nt - 1)
        for row in getattr(s, name):
            seen += row
    if sorted(seen) != list(range(nt)):
        _fail(
            "pile/pile_under/discard/limbo/table/hand/mapped",
            f"must hold every terrain card id 0..{nt - 1} exactly once",
        )
    _ints("combo_up", s.combo_up, face_up_combos(n), -1, nk - 1)
    combos = list(_ints("combo_pile", s.combo_pile, None, 0, nk - 1, nk))
    combos += _ints("combo_under", s.combo_under, None, 0, nk - 1, nk)
    combos += [c for c in s.combo_up if c >= 0]
    _seat_lists("bought", s.bought, n, None, 0, nk - 1)
    for row in s.bought:
        combos += row
    if sorted(combos) != list(range(nk)):
        _fail("combo_pile/combo_under/combo_up/bought", f"must hold ids 0..{nk - 1} once each")
    _ints("score", s.score, n, 0, 99 * nk)
    points = [sum(s.cards.points_of[c] for c in row) for row in s.bought]
    if s.score != points:
        _fail("score", f"must be the points of the bought cards, {points}")


def _knowledge(s, n: int, nt: int) -> None:
    full = (1 << n) - 1
    _ints("known", s.known, nt, 0, full)
    tick = s.tick
    _ints("drawn", s.drawn, nt, -1, tick)
    _ints("gone_pub", s.gone_pub, nt, -1, tick)
    _seat_lists("gone", s.gone, n, nt, -1, tick)
    for c in s.pile:
        if s.known[c] or s.drawn[c] != -1:
            _fail(f"known[{c}]/drawn[{c}]", "must be 0 / -1 for a card in the shuffled pile")
    for c in s.discard:
        if s.known[c] != full:
            _fail(f"known[{c}]", "must be public (all seats) for a card on the discard pile")
    for x in range(n):
        for c in s.hand[x]:
            if not s.known[c] >> x & 1:
                _fail(f"known[{c}]", f"must include player {x}, who holds the card")
    _list("looks", s.looks, None, MAX_LOOKS)
    for i, look in enumerate(s.looks):
        field = f"looks[{i}]"
        _list(field, look, 3)
        _int(f"{field}[0]", look[0], 0, n - 1)
        _ints(f"{field}[2]", look[2], None, 0, nt - 1, nt)
        _int(f"{field}[1]", look[1], 0, nt - len(look[2]))
        if len(set(look[2])) != len(look[2]):
            _fail(f"{field}[2]", "lists a card twice")
    _seat_lists("floor", s.floor, n, 6, 0, 12)
    _seat_lists("claim_need", s.claim_need, n, 6, 0, 12)
    _ints("not_kinds", s.not_kinds, n, 0, (1 << 10) - 1)


def _round_fields(s, cfg, n: int) -> None:
    _ints("option", s.option, n, -1, 1)
    _ints("position", s.position, n, -1, TABLE_SLOTS - 1)
    _ints("occupant", s.occupant, TABLE_SLOTS, -1, n - 1)
    for x, k in enumerate(s.position):
        if k >= 0 and s.occupant[k] != x:
            _fail("position/occupant", f"disagree: player {x} at slot {k}")
    for k, x in enumerate(s.occupant):
        if x >= 0 and s.position[x] != k:
            _fail("position/occupant", f"disagree: slot {k} holds player {x}")
    _bools("ability_used", s.ability_used, n)
    _bools("frozen", s.frozen, n)
    _ints("reveal_choice", s.reveal_choice, n, -1, 1)
    _ints("responses", s.responses, n, -1, 1)
    _ints("claims", s.claims, n, -2, len(s.combo_up) - 1)
    _ints("bought_round", s.bought_round, n, 0, cfg.purchases_per_round)
    _ints("duel_rolls", s.duel_rolls, n, -1, 14)
    _ints("pay_need", s.pay_need, 6, 0, 12)
    _list("last_rolls", s.last_rolls, None, MAX_ROLLS_KEPT)
    for i, roll in enumerate(s.last_rolls):
        _list(f"last_rolls[{i}]", roll, 3)
        _int(f"last_rolls[{i}][0]", roll[0], 0, n - 1)
        die = _int(f"last_rolls[{i}][1]", roll[1], 1, 12)
        _int(f"last_rolls[{i}][2]", roll[2], die - 1, die + 2)
    _list("last", s.last, 4)
    _int("last[0]", s.last[0], -1, n - 1)
    _int("last[1]", s.last[1], -2, s.game.spec.num_actions)
    if s.last[2] != "" and s.last[2] not in _kinds():
        _fail("last[2]", f"must be a task kind or '', got {quote(s.last[2])}")
    _int("last[3]", s.last[3], -1, s.cards.num_terrain - 1)


def _kinds() -> set[str]:
    return set(T.AUTO) | set(T.CHANCE_OUTCOMES) | set(T.LEGAL)


# ---- the task queue ----------------------------------------------------------------------------

SEAT, TABLE_SLOT, COMBO_SLOT, CARD, SEATS, THEN, COUNT, FLAG = range(8)
SCHEMA: dict[str, dict[str, int]] = {
    "setup": {},
    "character": {"seat": SEAT},
    "combo": {"slot": COMBO_SLOT},
    "combo_return": {},
    "first_won": {"winner": SEAT},
    "round_start": {"first": FLAG},
    "options_reveal": {},
    "place_start": {},
    "reveal_start": {},
    "end_round": {},
    "responses_start": {},
    "responses_reveal": {},
    "claims_start": {},
    "round_over": {},
    "limbo_to_pile": {},
    "cryogen": {"seat": SEAT, "user": SEAT},
    "target_shield": {"seat": SEAT, "user": SEAT},
    "dash_do": {"seat": SEAT, "slot": TABLE_SLOT},
    "shortcut": {"seat": SEAT, "target": SEAT},
    "ability_go": {"user": SEAT, "target": SEAT, "then": THEN},
    "shortcut_won": {"seat": SEAT, "winner": SEAT},
    "permute_won": {"seat": SEAT, "target": SEAT, "winner": SEAT},
    "defective": {"seat": SEAT, "victim": SEAT},
    "shelter_end": {"seat": SEAT, "card": CARD},
    "accident": {"seat": SEAT, "card": CARD},
    "claims_reveal": {"before": COUNT},
    "claims_end": {"before": COUNT},
    "settle": {"slot": COMBO_SLOT, "seats": SEATS},
    "duel_won": {"slot": COMBO_SLOT, "winner": SEAT},
    "pay_start": {"seat": SEAT, "slot": COMBO_SLOT},
    "pay": {"seat": SEAT, "slot": COMBO_SLOT},
    "duel_end": {"seats": SEATS, "then": THEN},
}
for _kind in (
    "option", "peek", "dash", "place", "permute", "reveal", "loss", "claim", "respond",
    "end_choice", "shield_cryogen", "shield_defective", "response_go",
):  # fmt: skip
    SCHEMA[_kind] = {"seat": SEAT}
OPTIONAL = {"round_start": {"first"}}


def _tasks(s, n: int, nt: int) -> None:
    _list("tasks", s.tasks, None, MAX_TASKS)
    refs: list[int] = []
    pay_slots: list[int] = []
    for i, t in enumerate(s.tasks):
        field = f"tasks[{i}]"
        _task(s, field, t, n, nt, top=True)
        if i and ("_legal" in t or "_chance" in t):
            _fail(field, "may not hold a memo (_legal / _chance): only the front task does")
        if t.get("card", -1) >= 0:
            refs.append(t["card"])
        if t["t"] in ("pay", "pay_start"):
            pay_slots.append(t["slot"])
            if s.combo_up[t["slot"]] < 0:
                _fail(field, f"pays for COMBINATION slot {t['slot']}, which is empty")
        if t["t"] == "pay" and i:
            _fail(field, "a payment can only be the front task")
    if len(set(pay_slots)) != len(pay_slots):
        _fail("tasks", "pay twice for one COMBINATION slot")
    dash = any(t["t"] == "limbo_to_pile" for t in s.tasks)
    if dash and (refs or len(s.limbo) != 1):
        _fail("limbo", "must hold just the card DASH replaced while it waits for the pile")
    if not dash and sorted(refs) != sorted(s.limbo):
        _fail("limbo", "must hold exactly the accident cards the queued tasks are facing")
    for c in refs:
        if not s.cards.is_kind(c, "accident") or s.known[c] != s.all_seats:
            _fail("tasks", f"face card {c}, which is not a flipped ACCIDENT")
    front = s.tasks[0] if s.tasks else None
    paying = front is not None and front["t"] == "pay"
    if any(s.pay_need) != paying:
        _fail("pay_need", "must be non-zero exactly while the front task is a payment")
    if paying:
        have = s.resources(front["seat"])
        if any(h < need for h, need in zip(have, s.pay_need)):
            _fail("pay_need", f"exceeds what player {front['seat']} holds ({have})")


def _task(s, field: str, t: Any, n: int, nt: int, top: bool) -> None:
    if type(t) is not dict:
        _fail(field, f"must be a task mapping, got {quote(t)}")
    kind = t.get("t")
    if kind == "draw" or kind == "roll":
        schema = _chance_schema(field, t)
    elif kind in SCHEMA:
        schema = SCHEMA[kind]
    else:
        _fail(field, f"has kind {quote(kind)}; allowed: {sorted([*SCHEMA, 'draw', 'roll'])}")
    optional = set(OPTIONAL.get(kind, ()))
    if kind in THEN_KINDS and not top:
        optional.add("winner")
    allowed = {"t", "_legal", "_chance", *schema}
    for key in t:
        if key not in allowed:
            _fail(field, f"has unknown key {quote(key, 40)}; allowed: {sorted(allowed)}")
    for key, what in schema.items():
        if key not in t:
            if key in optional:
                continue
            _fail(field, f"({kind}) lacks {key!r}")
        if kind in THEN_KINDS and key == "winner" and not top:
            _fail(field, f"({kind}) is a duel's follow-up and may not name a winner yet")
        _value(s, f"{field}.{key}", t[key], what, n, nt)
    if "then" in t:
        then = t["then"]
        if type(then) is not dict or then.get("t") not in THEN_KINDS:
            _fail(f"{field}.then", f"must be a task of kinds {list(THEN_KINDS)}")
        _task(s, f"{field}.then", then, n, nt, top=False)


def _chance_schema(field: str, t: dict) -> dict[str, int]:
    if t["t"] == "draw":
        dest = t.get("dest")
        if dest == "table":
            return {"dest": -1, "slot": TABLE_SLOT}
        if dest in ("setup", "ionic"):
            return {"dest": -1, "seat": SEAT}
        _fail(f"{field}.dest", f"is {quote(dest)}; allowed: ['table', 'setup', 'ionic']")
    why = t.get("why")
    if why == "duel":
        return {"seat": SEAT, "why": -1}
    if why == "accident":
        return {"seat": SEAT, "why": -1, "card": CARD}
    _fail(f"{field}.why", f"is {quote(why)}; allowed: ['duel', 'accident']")
    return {}


def _value(s, field: str, v: Any, what: int, n: int, nt: int) -> None:
    if what == SEAT:
        _int(field, v, 0, n - 1)
    elif what == TABLE_SLOT:
        _int(field, v, 0, n)
    elif what == COMBO_SLOT:
        _int(field, v, 0, len(s.combo_up) - 1)
    elif what == CARD:
        _int(field, v, -1, nt - 1)
    elif what == COUNT:
        _int(field, v, 0, 3 * n)
    elif what == FLAG:
        _bool(field, v)
    elif what == SEATS:
        _ints(field, v, None, 0, n - 1, n)
        if len(set(v)) != len(v):
            _fail(field, "names a seat twice")


def _memo(s) -> None:
    """The front task's memo must be what the position implies (a snapshot cannot make
    an action legal or an outcome possible by editing it)."""
    if not s.tasks:
        return
    t = s.tasks[0]
    kind = t["t"]
    if kind in T.AUTO:
        _fail("tasks[0]", f"is an automatic step ({kind}); a position waits on a decision")
    memo, other = ("_chance", "_legal") if kind in T.CHANCE_OUTCOMES else ("_legal", "_chance")
    if other in t:
        _fail(f"tasks[0].{other}", f"does not belong to a {kind} task")
    given = t.pop(memo, None)
    probe = s.clone()  # computing it may reshuffle the discard pile or open a window
    fn = T.CHANCE_OUTCOMES.get(kind) or T.LEGAL[kind]
    want = fn(probe, probe.tasks[0])
    if not want:
        _fail("tasks[0]", f"({kind}) has nothing to choose from in this position")
    if given != want:
        _fail(f"tasks[0].{memo}", f"must be {quote(want)}, what the position implies")
    t[memo] = want
