"""Text views of a Moonwakers position and the names of actions.

``to_text(state, None)`` is the spectator's full view (every face, and a ``stalemate:``
line once nobody can score any more); ``to_text(state, p)`` shows only what seat ``p``
may know: unseen explored faces print as ``??`` and another seat's sealed choices as
``sealed``. Action names follow the decision being taken (a
MAPPED action is a SCAN, a LABO, a loss or a payment); :func:`public_action_name` is
what another seat learns of a move.
"""

from __future__ import annotations

from moon_envs.moonwakers.cards import ELEMENTS
from moon_envs.moonwakers.config import ActionLayout as A
from moon_envs.moonwakers.stalemate import STALEMATE_TEXT, stalemated

SEALED = ("option", "claim", "peek", "respond")
OPTIONS = ("SCAN", "PROTECTION")
RESPONSES = ("die", "SHELTER")


def face(s, card: int) -> str:
    """The terrain face: biome and element."""
    cards = s.cards
    return f"{cards.terrain_biome[card]}:{ELEMENTS[cards.element_of[card]]}"


def explored(s, card: int, viewer: int | None) -> str:
    """The explored face as ``viewer`` knows it (``??`` when unseen)."""
    if viewer is not None and not s.known[card] >> viewer & 1:
        return "??"
    kind = s.cards.kind_name(card)
    if kind != "elements":
        return kind.upper()
    counts = s.cards.gives[card]
    return "".join(
        f"{ELEMENTS[e]}{counts[e] if counts[e] > 1 else ''}" for e in range(6) if counts[e]
    )


def combo_name(s, combo: int) -> str:
    cards = s.cards
    cost = "".join(f"{ELEMENTS[e]}{v}" for e, v in enumerate(cards.cost_of[combo]) if v)
    return f"{cards.combo_names[combo]}({cost})={cards.points_of[combo]}"


def _sealed(public: bool, x: int, viewer: int | None) -> bool:
    return not public and viewer is not None and x != viewer


def to_text(s, viewer: int | None) -> str:
    cards = s.cards
    who = "spectator" if viewer is None else f"player_{viewer}"
    lines = [
        f"Moonwakers round {s.round} (view: {who}); "
        f"initiative player_{s.initiative}; phase {s.phase()}"
    ]
    ups = [combo_name(s, c) for c in s.combo_up if c >= 0]
    lines.append("combinations up: " + (", ".join(ups) or "-"))
    under = f", under the pile {len(s.pile_under)}" if s.pile_under else ""
    lines.append(
        f"pile {len(s.pile)}{under}, discard {len(s.discard)}, combination pile {len(s.combo_pile)}"
    )
    table = []
    for k, c in enumerate(s.table):
        if c >= 0:
            occ = f" <- player_{s.occupant[k]}" if s.occupant[k] >= 0 else ""
            table.append(f"[{k}] {face(s, c)} / {explored(s, c, viewer)}{occ}")
    lines.append("table: " + ("; ".join(table) or "-"))
    for x in range(s.n):
        char = cards.character_names[s.character[x]] if s.character[x] >= 0 else "?"
        opt = "-"
        if s.option[x] >= 0:
            opt = "sealed" if _sealed(s.options_public, x, viewer) else OPTIONS[s.option[x]]
        extra = ""
        if s.claims[x] >= -1:
            claim = "pass" if s.claims[x] == -1 else f"slot {s.claims[x]}"
            extra += f" claim {'sealed' if _sealed(s.claims_public, x, viewer) else claim}"
        if s.responses[x] >= 0:
            resp = RESPONSES[s.responses[x]]
            extra += f" answer {'sealed' if _sealed(s.responses_public, x, viewer) else resp}"
        hand = ", ".join(f"{face(s, c)}/{explored(s, c, viewer)}" for c in s.hand[x]) or "-"
        mapped = ", ".join(f"{face(s, c)}/{explored(s, c, viewer)}" for c in s.mapped[x]) or "-"
        lines.append(
            f"player_{x} {char} ({s.ability(x)}{', frozen' if s.frozen[x] else ''}) option {opt}"
            f"{extra} points {s.points(x)} ({len(s.bought[x])} cards) | hand: {hand} | "
            f"mapped: {mapped}"
        )
    if s.last_rolls:
        lines.append("rolls: " + ", ".join(f"player_{x} {d}->{t}" for x, d, t in s.last_rolls))
    if s.last[2]:
        lines.append("last: " + last_step(s, viewer))
    if viewer is None and s.tasks and stalemated(s):  # a seat cannot know: hidden cards
        lines.append(f"stalemate: {STALEMATE_TEXT}; {stalemate_end(s)}")
    if not s.tasks:
        lines.append("game over; winners: " + ", ".join(f"player_{w}" for w in s.winners()))
    return "\n".join(lines)


def stalemate_end(s) -> str:
    """When a stalemated game ends, under its ``end_when_stalemated``."""
    if s.config.end_when_stalemated:
        return "the game ends with this round (end_when_stalemated)"
    return (
        f"the rounds play on, empty, to the round cap (max_rounds={s.config.max_rounds}); "
        "end_when_stalemated=True ends the game with this round"
    )


def last_step(s, viewer: int | None) -> str:
    """The last step (a move or a chance event) as ``viewer`` may know it."""
    seat, action, kind, card = s.last
    if seat < 0:
        return chance_name(s, kind, action, viewer)
    hidden = viewer is not None and viewer != seat and still_sealed(s, kind, action)
    if action == -2 or hidden:
        return f"player_{seat} {sealed_label(kind, action)} (sealed)"
    return f"player_{seat}: {describe(s, seat, action, kind, viewer, card)}"


def chance_name(s, kind: str, outcome: int, viewer: int | None) -> str:
    if kind == "roll":
        return f"a d12 rolled {outcome + 1}"
    if kind == "combo":
        return f"COMBINATION card {combo_name(s, outcome)} turned up"
    if kind == "character":
        return f"character {s.cards.character_names[outcome]} dealt"
    if kind == "draw":
        if outcome < 0 or (viewer is not None and not s.known[outcome] >> viewer & 1):
            return "a terrain card drawn face down"
        return f"terrain card {face(s, outcome)} / {explored(s, outcome, viewer)} drawn"
    return kind


def _is_sealed(kind: str, action: int) -> bool:
    if kind in SEALED:
        return not (kind == "claim" and action >= A.MAPPED)
    return kind == "place" and action >= A.SCAN_CARD


def still_sealed(s, kind: str, action: int) -> bool:
    """Whether a past move of another seat is still hidden (options, claims and answers
    are shown once everyone has chosen; scan targets never are)."""
    public = {
        "option": s.options_public,
        "claim": s.claims_public,
        "respond": s.responses_public,
    }.get(kind, False)
    return not public and _is_sealed(kind, action)


def sealed_label(kind: str, action: int) -> str:
    return {
        "option": "chooses an option",
        "claim": "chooses a claim",
        "peek": "chooses a table card to scan",
        "respond": "chooses SHELTER or the die",
    }.get(kind, "plays SCAN on a card of their choice")


def describe(s, seat: int, action: int, kind: str, viewer: int | None, card: int = -1) -> str:
    """The name of ``action`` taken by ``seat`` in a ``kind`` decision. A MAPPED action
    names the card at its index in ``s``; ``card`` (the card it named when it was taken,
    ``state.last[3]``) names a move already made, whose card may have left."""
    a = int(action)
    lay = s.layout
    if a == A.PASS:
        return "pass"
    if a in (A.OPT_SCAN, A.OPT_PROTECTION):
        return f"option {OPTIONS[a - A.OPT_SCAN]}"
    for start, name in (
        (A.PEEK, "scan table card"),
        (A.DASH, "DASH table card"),
        (A.PLACE, "place under table card"),
        (A.SCAN_CARD, "play SCAN on table card"),
    ):
        if start <= a < start + 7:
            return f"{name} {a - start}"
    simple = {
        A.SHORTCUT: "SHORTCUT",
        A.CRYOGEN: "play CRYOGEN",
        A.SHIELD: "play SHIELD",
        A.DEFECTIVE: "play DEFECTIVE SHELTER",
        A.SHELTER: "play SHELTER",
        A.ROLL: "roll the die",
        A.MAP: "MAP",
        A.EXPLORE: "EXPLORE",
        A.END: "end the game",
    }
    if a in simple:
        return simple[a]
    if A.PERMUTE <= a < A.CRYOGEN:
        return f"PERMUTATION with player_{(seat + a - A.PERMUTE + 1) % s.n}"
    if A.CLAIM <= a < A.END:
        return f"claim combination slot {a - A.CLAIM}"
    if A.MAPPED <= a < lay.HAND:
        off, i = lay.split_mapped(a)
        owner = (seat + off) % s.n
        verb = {"place": "play SCAN on", "claim": "LABO on", "loss": "lose", "pay": "pay with"}
        where = f"player_{owner}'s mapped card #{i}"
        c = card if card >= 0 else s.mapped[owner][i] if i < len(s.mapped[owner]) else -1
        if c >= 0:
            where += f" ({face(s, c)}/{explored(s, c, viewer)})"
        return f"{verb.get(kind, 'use')} {where}"
    if lay.HAND <= a < lay.num_actions:
        c = a - lay.HAND
        verb = {"loss": "lose", "pay": "pay with"}.get(kind, "use")
        return f"{verb} hand card {face(s, c)}/{explored(s, c, viewer)}"
    raise ValueError(f"action {a} is out of range 0..{lay.num_actions - 1}")


def action_name(s, action: int) -> str:
    """The full name of ``action`` for the player to move (faces as that seat knows them)."""
    seat = s.current_player()
    kind = s.tasks[0]["t"] if s.tasks else ""
    return describe(s, max(seat, 0), action, kind, seat if seat >= 0 else None)


def public_action_name(s, action: int, observer: int) -> str:
    """What ``observer`` learns of the move about to be made: sealed choices stay sealed."""
    mover = s.current_player()
    if not s.tasks or mover < 0:
        return action_name(s, action)
    kind = s.tasks[0]["t"]
    if mover != observer and _is_sealed(kind, int(action)):
        return f"player_{mover} {sealed_label(kind, int(action))} (sealed)"
    return describe(s, mover, action, kind, observer)
