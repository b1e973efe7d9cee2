"""Text views of a Moonwakers position and the names of actions.

``to_text(state, None)`` is the spectator's full view (every face); ``to_text(state, p)``
shows only what seat ``p`` may know: unseen explored faces print as ``??``.
"""

from __future__ import annotations

from moon_envs.moonwakers.cards import ELEMENTS
from moon_envs.moonwakers.config import NUM_ELEMENTS
from moon_envs.moonwakers.config import ActionLayout as A

SEALED = ("option", "claim", "peek")


def face(s, card: int) -> str:
    """The terrain face: biome and element."""
    cards = s.cards
    return f"{cards.terrain_biome[card]}:{ELEMENTS[cards.terrain_element[card]]}"


def explored(s, card: int, viewer: int | None) -> str:
    """The explored face as ``viewer`` knows it (``??`` when unseen)."""
    if viewer is not None and not s.known[card] & (1 << viewer):
        return "??"
    kind = s.cards.kind_name(card)
    if kind != "elements":
        return kind.upper()
    counts = s.cards.explored_elements[card]
    return "".join(
        f"{ELEMENTS[e]}{counts[e] if counts[e] > 1 else ''}" for e in range(6) if counts[e]
    )


def to_text(s, viewer: int | None) -> str:
    cards = s.cards
    who = "spectator" if viewer is None else f"player_{viewer}"
    lines = [
        f"Moonwakers round {s.round} (view: {who}); "
        f"initiative player_{s.initiative}; phase {s.phase()}"
    ]
    ups = []
    for combo in s.combo_up:
        if combo >= 0:
            cost = "".join(f"{ELEMENTS[e]}{v}" for e, v in enumerate(cards.combo_cost[combo]) if v)
            ups.append(f"{cards.combo_names[combo]}({cost})={cards.combo_points[combo]}")
    lines.append("combinations up: " + (", ".join(ups) or "-"))
    lines.append(
        f"pile {len(s.pile)}, discard {len(s.discard)}, combination pile {len(s.combo_pile)}"
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
            opt = (
                ("SCAN", "PROTECTION")[s.option[x]] if s.options_public or x == viewer else "sealed"
            )
        hand = ", ".join(f"{face(s, c)}/{explored(s, c, viewer)}" for c in s.hand[x]) or "-"
        mapped = ", ".join(face(s, c) for c in s.mapped[x]) or "-"
        lines.append(
            f"player_{x} {char} ({s.ability(x)}{', frozen' if s.frozen[x] else ''}) option {opt} "
            f"points {s.points(x)} ({len(s.bought[x])} cards) | hand: {hand} | mapped: {mapped}"
        )
    if s.last_rolls:
        lines.append("rolls: " + ", ".join(f"player_{x} {d}->{t}" for x, d, t in s.last_rolls))
    if not s.tasks:
        lines.append("game over; winners: " + ", ".join(f"player_{w}" for w in s.winners()))
    return "\n".join(lines)


def action_name(s, action: int) -> str:
    """The full name of ``action`` (for the player who takes it)."""
    a = int(action)
    n = s.n
    cards = s.cards
    if a == A.PASS:
        return "pass"
    if a in (A.OPT_SCAN, A.OPT_PROTECTION):
        return "option SCAN" if a == A.OPT_SCAN else "option PROTECTION"
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
    }
    if a in simple:
        return simple[a]
    if A.PERMUTE <= a < A.CRYOGEN:
        return f"PERMUTATION with the player {a - A.PERMUTE + 1} seat(s) to the left"
    if A.LOSE_MAPPED <= a < A.PAY_MAPPED:
        return f"lose a mapped {ELEMENTS[a - A.LOSE_MAPPED]} card"
    if A.PAY_MAPPED <= a < A.CLAIM:
        return f"pay a mapped {ELEMENTS[a - A.PAY_MAPPED]} card"
    if A.CLAIM <= a < A.LABO:
        return f"claim combination slot {a - A.CLAIM}"
    if A.LABO <= a < A.HAND:
        off, e = divmod(a - A.LABO, NUM_ELEMENTS)
        return f"LABO on a mapped {ELEMENTS[e]} card of the player {off} seat(s) to the left"
    if A.HAND <= a < A.HAND + cards.num_terrain:
        c = a - A.HAND
        return f"hand card {face(s, c)}/{explored(s, c, None)}"
    raise ValueError(
        f"action {a} is out of range 0..{A.HAND + cards.num_terrain - 1} for {n} players"
    )


def public_action_name(s, action: int, observer: int) -> str:
    """What ``observer`` learns of the move about to be made: sealed choices stay sealed."""
    mover = s.current_player()
    if mover == observer or not s.tasks:
        return action_name(s, action)
    kind = s.tasks[0]["t"]
    if kind == "claim" and action >= A.LABO:
        return action_name(s, action)
    if A.HAND <= action:
        c = action - A.HAND
        return f"hand card {face(s, c)}/{explored(s, c, observer)}"
    if kind in SEALED or (kind == "place" and action >= A.SCAN_CARD):
        label = {"option": "an option", "claim": "a claim", "peek": "a table card to scan"}.get(
            kind, "a table card to scan with SCAN"
        )
        return f"player_{mover} chooses {label} (sealed)"
    return action_name(s, action)
