"""The text board keeps each harvester one piece: cells of one harvester are joined by
``-`` (in a row) and ``|`` (between rows), so two harvesters of one player side by side
stay two."""

from __future__ import annotations

from moon_envs.moon_harvesters.rules import PLACE, HarvestersGame
from tests.moon_harvesters.test_rules import cell, find_action
from tests.moon_harvesters.test_rules import setup as run_auction


def _cells(g, *names: str) -> set[int]:
    return {cell(g, name) for name in names}


def two_crosses_side_by_side():
    """player_1's X harvesters centred on B2 and E2 (C2 and D2 touch); player_0's first
    harvester far from them, at the bottom of the board."""
    g = HarvestersGame(num_players=2)
    s = run_auction(g, kinds=[0, 1])
    s.apply_action(g.deposit_action(cell(g, "L1")))
    s.apply_action(g.deposit_action(cell(g, "K1")))
    s.apply_action(find_action(s, 1, _cells(g, "B1", "A2", "B2", "C2", "B3")))
    s.apply_action(g.deposit_action(cell(g, "L2")))
    s.apply_action(g.deposit_action(cell(g, "K2")))
    assert s.phase == PLACE and s.current_player() == 0
    low = next(
        a
        for a in s.legal_actions()
        if a >= g.place_base and min(g.fp.cells[0][a - g.place_base].tolist()) >= 8 * g.cols
    )
    s.apply_action(low)
    s.apply_action(g.deposit_action(cell(g, "L3")))
    s.apply_action(g.deposit_action(cell(g, "K3")))
    s.apply_action(find_action(s, 1, _cells(g, "E1", "D2", "E2", "F2", "E3")))
    return g, s


def test_two_harvesters_of_one_player_side_by_side_stay_two_pieces():
    _, s = two_crosses_side_by_side()
    lines = str(s).splitlines()
    assert lines[0].startswith("    A B C D E F")
    assert lines[1].startswith("  1 . b . . b .")
    assert lines[2].startswith("      |     |")  # B1-B2 and E1-E2, one piece each
    assert lines[3].startswith("  2 b-b-b b-b-b")  # C2 and D2: two pieces
    assert lines[4].startswith("      |     |")
    assert lines[5].startswith("  3 . b . . b .")
    assert "one harvester's cells joined by - and |" in str(s)


def test_every_cell_and_join_is_where_the_board_says():
    g, s = two_crosses_side_by_side()
    lines = str(s).splitlines()
    rows = lines[1 : 2 * g.rows : 2]
    joins = lines[2 : 2 * g.rows - 1 : 2]
    assert len(rows) == g.rows and len(joins) == g.rows - 1
    piece = s.piece
    for r, line in enumerate(rows):
        assert line[:4] == f"{r + 1:>3} "
        for c in range(g.cols):
            x = r * g.cols + c
            shown = line[4 + 2 * c]
            assert (shown in "ab") == (s.owner[x] >= 0)
            if c + 1 < g.cols:
                joined = piece[x] >= 0 and piece[x] == piece[x + 1]
                assert line[5 + 2 * c] == ("-" if joined else " ")
            if r + 1 < g.rows:
                below = piece[x] >= 0 and piece[x] == piece[x + g.cols]
                assert joins[r].ljust(4 + 2 * g.cols)[4 + 2 * c] == ("|" if below else " ")
