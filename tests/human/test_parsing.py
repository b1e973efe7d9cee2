from __future__ import annotations

import pytest

from moon_agents.play.human.parsing import MoveError, parse_move, words

NAMES = {
    3: "probe A1",
    4: "probe B1",
    9: "probe B2",
    40: "bid 35",
    41: "bid 36",
    70: "pass",
    101: "moon 3 with die 2 (face 4) cw",
    102: "moon 3 with die 2 (face 4) ccw",
}


def test_number_name_and_enough_words() -> None:
    assert parse_move("9", NAMES) == 9
    assert parse_move("probe b2", NAMES) == 9
    assert parse_move("B2", NAMES) == 9
    assert parse_move("  PASS ", NAMES) == 70
    assert parse_move("bid 36", NAMES) == 41
    assert parse_move("moon 3 die 2 clockwise", NAMES) == 101
    assert parse_move("moon 3 die 2 counterclockwise", NAMES) == 102
    assert words("moon 3, die 2 (face 4)") == ["moon", "3", "die", "2", "face", "4"]
    assert parse_move("#9", NAMES) == 9  # an explicit move number


def test_illegal_number_lists_the_nearest_numbers() -> None:
    with pytest.raises(MoveError, match="5 is not a legal move number") as err:
        parse_move("5", NAMES)
    assert err.value.suggestions[:3] == ["3: probe A1", "4: probe B1", "9: probe B2"]


def test_ambiguous_words_list_the_candidates() -> None:
    with pytest.raises(MoveError, match="fits 2 legal moves") as err:
        parse_move("bid", NAMES)
    assert err.value.suggestions == ["40: bid 35", "41: bid 36"]
    assert err.value.heading == "moves it fits"


def test_unknown_text_lists_the_nearest_names_not_every_move() -> None:
    names = {i: f"deposit on {chr(65 + i % 12)}{i // 12 + 1}" for i in range(144)}
    with pytest.raises(MoveError, match="names no legal move") as err:
        parse_move("deposit on Z9", names)
    assert 0 < len(err.value.suggestions) <= 6
    assert all("deposit on" in s for s in err.value.suggestions)
    with pytest.raises(MoveError, match="empty"):
        parse_move("   ", names)
