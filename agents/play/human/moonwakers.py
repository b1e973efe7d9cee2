"""Moonwakers for people: what each move shows the table, and the chance events in words.

A move is narrated as the reader may know it (a sealed option, claim, scan target or
answer to an accident stays ``(sealed)`` until everyone has chosen), followed by what it
showed: the card a MAP took or an EXPLORE flipped, the card a LABO turned over, the card
given up or paid, the COMBINATION card bought and the points. When a sealed batch is
revealed, every choice is listed. Chance events are told from the positions before and
after them: characters dealt, terrain cards laid face down on the table (their terrain
face only), the reader's own set-up card, cards an ionic storm makes everyone explore,
COMBINATION cards turned up, every d12 (die, modifier and total) and the first player.
Only what the reader's seat may know is printed; a spectator (``observer=None``) sees
every face. Cards are typed as the game prints them (``pay with Ice Field:C``): see
:mod:`moon_agents.play.human.moonwakers_typing`.
"""

from __future__ import annotations

from typing import Any

from moon_agents.play.human.hooks import GameHooks
from moon_agents.play.human.moonwakers_typing import aliases
from moon_envs.moonwakers.config import ActionLayout as A
from moon_envs.moonwakers.config import target_points
from moon_envs.moonwakers.text import (
    OPTIONS,
    RESPONSES,
    combo_name,
    explored,
    face,
    public_action_name,
)


def _name(state: Any, action: int, observer: int | None) -> str:
    mover = state.current_player()
    if observer is None or observer == mover:
        return state.action_to_string(int(action))
    return public_action_name(state, int(action), observer)


def _card(state: Any, card: int, observer: int | None) -> str:
    return f"{face(state, card)} / {explored(state, card, observer)}"


def narrate(before: Any, action: int, after: Any, observer: int | None) -> list[str]:
    """The move as ``observer`` may know it, then what it showed the table."""
    seat = before.current_player()
    lines = [_name(before, action, observer)]
    kind = before.tasks[0]["t"]
    lay = before.layout
    if kind == "reveal":
        card = before.table[before.position[seat]]
        if after.reveal_choice[seat] == 0:
            lines.append(f"  player_{seat} maps {face(before, card)}")
        else:
            lines.append(f"  player_{seat} flips {_card(after, card, observer)}")
    elif kind in ("claim", "pay") and int(action) >= lay.MAPPED:
        new = [c for c in after.discard + after.hand[seat] if c not in before.discard]
        new = [c for c in new if c not in before.hand[seat]]
        verb = "turns over" if kind == "claim" else "pays with"
        lines += [f"  player_{seat} {verb} {_card(after, c, observer)}" for c in new]
    for x in range(before.n):
        gained = after.points(x) - before.points(x)
        if gained:
            combo = after.bought[x][-1]
            lines.append(
                f"  player_{x} takes {combo_name(after, combo)}: +{gained}, "
                f"now {after.points(x)} points"
            )
    lines += _reveals(before, action)
    lines += _flipped(before, after, observer)
    if after.is_terminal() and not before.is_terminal():
        lines += _game_over(after)
    return lines


def _reveals(before: Any, action: int) -> list[str]:
    """Sealed choices shown when this move was the last one of its batch (read from the
    position before it, with this move added: once revealed they are public)."""
    kind = before.tasks[0]["t"]
    following = before.tasks[1]["t"] if len(before.tasks) > 1 else ""
    seat = before.current_player()
    a = int(action)
    if kind == "option" and following == "options_reveal":
        options = list(before.option)
        options[seat] = a - A.OPT_SCAN
        return [
            "  options: " + ", ".join(f"player_{x} {OPTIONS[o]}" for x, o in enumerate(options))
        ]
    if kind == "claim" and following == "claims_reveal" and a < A.MAPPED:
        if before.claims_public:
            return []
        claims = list(before.claims)
        claims[seat] = -1 if a == A.PASS else a - A.CLAIM
        shown = []
        for x, c in enumerate(claims):
            if c == -1:
                shown.append(f"player_{x} passes")
            elif c >= 0:
                shown.append(f"player_{x} claims {combo_name(before, before.combo_up[c])}")
        return ["  claims: " + ", ".join(shown)]
    if kind == "respond" and following == "responses_reveal":
        answers = list(before.responses)
        answers[seat] = 1 if a == A.SHELTER else 0
        return [
            "  against the accident: "
            + ", ".join(f"player_{x} {RESPONSES[r]}" for x, r in enumerate(answers) if r >= 0)
        ]
    return []


def _flipped(before: Any, after: Any, observer: int | None) -> list[str]:
    """Free table cards flipped for all at the end of the round."""
    full = after.all_seats
    return [
        f"  the free card {k} is flipped: {_card(after, c, observer)}"
        for k, c in enumerate(after.table)
        if c >= 0 and after.known[c] == full and before.known[c] != full
    ]


def _game_over(state: Any) -> list[str]:
    points = ", ".join(f"player_{x} {state.points(x)}" for x in range(state.n))
    winners = ", ".join(f"player_{w}" for w in state.winners())
    return [f"== game over after round {state.round}: {points}; winner(s): {winners}"]


def narrate_chance(before: Any, after: Any, observer: int | None) -> list[str]:
    """The chance events between two positions, as ``observer`` may know them."""
    lines: list[str] = []
    n = after.n
    for x in range(n):
        if before.character[x] < 0 <= after.character[x]:
            c = after.character[x]
            lines.append(
                f"player_{x} is {after.cards.character_names[c]} ({after.ability(x).upper()})"
            )
    for x in range(n):  # set-up cards and ionic storm draws
        new = [c for c in after.hand[x] if c not in before.hand[x]]
        for c in new:
            if after.known[c] == after.all_seats:
                lines.append(f"player_{x} draws and explores {_card(after, c, observer)}")
            elif observer is None or observer == x:
                lines.append(f"player_{x} draws {_card(after, c, observer)} (set-up card)")
            else:
                lines.append(f"player_{x} draws {face(after, c)} (set-up card, unseen)")
    if after.round != before.round and after.round > 0:
        lines.append(f"== round {after.round}: player_{after.initiative} has the initiative")
    for k, c in enumerate(after.table):
        if c >= 0 and c != before.table[k]:
            lines.append(f"table card {k}: {face(after, c)} (face down)")
    for k, c in enumerate(after.combo_up):
        if c >= 0 and c != before.combo_up[k]:
            lines.append(f"COMBINATION slot {k}: {combo_name(after, c)}")
    rolls = after.last_rolls
    if after.round == before.round:
        rolls = rolls[len(before.last_rolls) :]
    for x, die, total in rolls:
        mod = total - die
        sign = f" {mod:+d} = {total}" if mod else ""
        lines.append(f"player_{x} rolls the d12: {die}{sign}")
    if before.round == 0 and after.round > 0:
        lines.append(f"player_{after.initiative} starts (highest d12)")
    for x in range(n):
        gained = after.points(x) - before.points(x)
        if gained:
            lines.append(f"player_{x} now has {after.points(x)} points")
    if after.is_terminal() and not before.is_terminal():
        lines += _game_over(after)
    return lines


def legend(state: Any, seat: int | None) -> str:
    """``help``: the goal, a round, how to type moves (at most 15 lines)."""
    target = target_points(state.n)
    return (
        "Moonwakers SEED. Goal: the most COMBINATION points when the game ends (at the\n"
        f"end of the round in which someone reaches {target}); buy them with elements.\n"
        "A round: 'option SCAN' or 'option PROTECTION' (sealed); 'scan table card 2' if\n"
        "you chose SCAN; put your character under a table card ('place under table card\n"
        "1'); then 'MAP' (keep the card's terrain element) or 'EXPLORE' (flip it: its\n"
        "explored face goes to your hand; face an ACCIDENT with 'play SHELTER' or 'roll\n"
        "the die'); last 'claim combination slot 0' or 'pass' (or 'pas'), sealed, and\n"
        "pay card by card, naming a card as the game prints it: 'pay with Ice Field:C'.\n"
        "Windows offer 'play SHIELD', 'play CRYOGEN', 'play DEFECTIVE SHELTER' or 'pass'.\n"
        "Cards show as Biome:Element / explored face (?? when you have not seen it).\n"
        "Type a number, a name, or enough words of it; 'moves' lists the legal moves,\n"
        "'board' shows your view, 'q' quits."
    )


HOOKS = GameHooks(narrate=narrate, legend=legend, narrate_chance=narrate_chance, aliases=aliases)
