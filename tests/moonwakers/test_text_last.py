"""The ``last:`` line of the text view names the mapped card a move took: the card paid,
lost or LABO'd, although it has left the mapped cards by the time the line is written."""

from __future__ import annotations

from moon_envs.moonwakers.text import explored, face, last_step
from tests.moonwakers.positions import A, blank, give, map_card, of_kind, run, show

O2 = 1  # combination id in the default file: O2, two O atoms


def _two_mapped(s, seat: int, element: str = "O") -> tuple[int, int]:
    """Map two cards of terrain ``element`` with different faces for ``seat``."""
    e = "CHNOPS".index(element)
    cards = [c for c in s.pile if s.cards.element_of[c] == e]
    first = cards[0]
    second = next(c for c in cards if face(s, c) != face(s, first))
    map_card(s, seat, first)
    map_card(s, seat, second)
    return first, second


def _last_line(s, viewer=None) -> str:
    lines = [x for x in s.to_string(viewer).splitlines() if x.startswith("last: ")]
    assert len(lines) == 1, s.to_string(viewer)
    return lines[0]


def test_a_payment_names_the_card_paid():
    s = blank(2)
    show(s, 0, O2)
    paid, kept = _two_mapped(s, 0)
    run(s, ("pay_start", {"seat": 0, "slot": 0}))
    s.apply_action(A.mapped(0, 0))
    assert s.discard == [paid] and s.mapped[0] == [kept]
    line = _last_line(s)
    assert line == (
        f"last: player_0: pay with player_0's mapped card #0 "
        f"({face(s, paid)}/{explored(s, paid, None)})"
    )
    assert face(s, kept) not in line
    assert f"({face(s, paid)}/" in _last_line(s, 1)  # every seat sees the card paid


def test_a_loss_and_a_labo_name_the_card_that_left():
    s = blank(2)
    lost, kept = _two_mapped(s, 0)
    run(s, ("loss", {"seat": 0}))
    s.apply_action(A.mapped(0, 0))
    assert s.mapped[0] == [kept]
    assert f"lose player_0's mapped card #0 ({face(s, lost)}/" in _last_line(s)

    s = blank(2)
    give(s, 0, of_kind(s, "labo")[0])
    taken, kept = _two_mapped(s, 1)
    run(s, ("claim", {"seat": 0}))
    s.apply_action(A.mapped(1, 0))
    assert s.hand[0][-1] == taken and s.mapped[1] == [kept]
    line = _last_line(s, 0)
    assert line == (
        f"last: player_0: LABO on player_1's mapped card #0 "
        f"({face(s, taken)}/{explored(s, taken, 0)})"
    )


def test_the_last_step_names_the_card_of_the_move_as_it_was_offered():
    s = blank(2)
    show(s, 0, O2)
    _, second = _two_mapped(s, 0)
    run(s, ("pay_start", {"seat": 0, "slot": 0}))
    before = s.action_to_string(A.mapped(0, 1))  # a move not made yet: the card in place
    assert f"({face(s, second)}/" in before
    s.apply_action(A.mapped(0, 1))
    # the picture's LAST line; the card paid is public now: its explored face shows
    assert last_step(s, 1) == (
        f"player_0: pay with player_0's mapped card #1 "
        f"({face(s, second)}/{explored(s, second, 1)})"
    )
    assert explored(s, second, 1) != "??"


def test_a_snapshot_written_before_the_card_entry_still_loads():
    """Snapshots saved when ``last`` had three entries load, naming no card."""
    s = blank(2)
    show(s, 0, O2)
    _two_mapped(s, 0)
    run(s, ("pay_start", {"seat": 0, "slot": 0}))
    s.apply_action(A.mapped(0, 0))
    data = s.to_dict()
    data["state"]["last"] = data["state"]["last"][:3]
    old = type(s).from_dict(data, s.game)
    assert old.last == [*s.last[:3], -1]
    assert _last_line(old).startswith("last: player_0: pay with player_0's mapped card #0")
