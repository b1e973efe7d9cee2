"""Hand-built Moonwakers positions for the rule tests."""

from __future__ import annotations

from moon_envs.core.game import CHANCE
from moon_envs.moonwakers.config import ActionLayout, face_up_combos
from moon_envs.moonwakers.game import MoonwakersGame
from moon_envs.moonwakers.tasks import task

SHORTCUT, PERMUTATION, DASH = 0, 2, 4  # character ids with these abilities
A = ActionLayout(50)  # the default card file's layout (HAND needs the number of cards)


def blank(n: int = 2, chars=None, **params):
    """Round 1, initiative 0, everyone PROTECTION (public), all cards in their piles."""
    s = MoonwakersGame(num_players=n, **params).new_initial_state()
    s.tasks = []
    s.character = list(chars) if chars else [1, 3, 5, 0, 2, 4][:n]
    s.round, s.initiative = 1, 0
    s.option, s.options_public = [1] * n, True
    s.pile = list(range(s.cards.num_terrain))
    s.known = [0] * s.cards.num_terrain
    s.drawn = [-1] * s.cards.num_terrain
    s.combo_pile = list(range(s.cards.num_combos))
    s.combo_up = [-1] * face_up_combos(n)
    s.last_rolls = []
    s.last = [-1, -1, "", -1]
    return s


def of_kind(s, kind: str) -> list[int]:
    return [c for c in range(s.cards.num_terrain) if s.cards.kind_name(c) == kind]


def _draw(s, card: int) -> None:
    s.pile.remove(card)
    s.tick += 1
    s.drawn[card] = s.tick


def give(s, seat: int, card: int, public: bool = True) -> int:
    """``card`` into ``seat``'s hand: explored in public, or an unseen set-up card."""
    _draw(s, card)
    s.hand[seat].append(card)
    s.known[card] = s.all_seats if public else 1 << seat
    return card


def map_card(s, seat: int, card: int) -> int:
    _draw(s, card)
    s.mapped[seat].append(card)
    return card


def lay(s, slot: int, card: int, occupant: int = -1) -> int:
    _draw(s, card)
    s.table[slot] = card
    if occupant >= 0:
        s.occupant[slot] = occupant
        s.position[occupant] = slot
    return card


def show(s, slot: int, combo: int) -> None:
    s.combo_pile.remove(combo)
    s.combo_up[slot] = combo


def run(s, *tasks) -> None:
    """Queue ``tasks`` (kind, fields) and advance to the first decision or chance node."""
    s.tasks = [task(kind, **fields) for kind, fields in tasks]
    s.advance()


def front(s) -> str:
    return s.tasks[0]["t"] if s.tasks else "over"


def roll(s, die: int) -> None:
    """Roll ``die`` (1..12) at a d12 chance node."""
    assert s.current_player() == CHANCE and s.tasks[0]["t"] == "roll", front(s)
    s.apply_action(die - 1)


def seen_later_twins():
    """Two positions, two seats: player_1's unseen set-up card is Ice Field H (card 4).
    In the first, the other Ice Field H (card 10) was explored in public later, then lost
    under the pile, so player_0 knows card 10 was not in play at the set-up; in the
    second it never saw card 10, so either card may be the set-up card."""
    s = blank(2)
    give(s, 1, 4, public=False)  # player_1's set-up card (tick 1)
    seen = give(s, 0, 10)  # explored in public later ...
    s.hand[0].remove(seen)
    s.to_pile(seen)  # ... then lost under the pile
    fresh = blank(2)
    give(fresh, 1, 4, public=False)
    return s, fresh


def paying_a_claim() -> tuple:
    """``(state, card)``: player_1 claimed the O2 card up and is paying it; its unseen
    card (Crystal Forest O, ``card``) holds the O it needs, which the SHELTER of the same
    face (card 20) does not."""
    s = blank(2)
    show(s, 0, 1)  # O2 up
    hidden = give(s, 1, 14, public=False)  # unseen by player_0
    assert s.cards.gives[hidden][3] == 1 and s.cards.kind_name(20) == "shelter"  # same face
    give(s, 1, 16)  # one public O
    s.initiative = 1
    run(s, ("claims_start", {}))
    s.apply_action(A.CLAIM)  # player_1 claims O2: its unseen card holds an O
    s.apply_action(A.PASS)
    assert front(s) == "pay" and s.floor[1][3] == 1
    return s, hidden
