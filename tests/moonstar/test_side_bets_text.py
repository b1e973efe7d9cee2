"""A seat reads its own Game 11 side bet in its text view; the others' stay sealed until
all have bet."""

from __future__ import annotations

import numpy as np
import pytest

from moon_envs.moonstar.rules import MoonstarGame
from tests.recorded import random_action


def at_side_bets(seed: int = 0):
    """A three-player Game 11 position at its first side bet, everyone on 20 points."""
    g = MoonstarGame(num_players=3, game=11)
    s = g.new_initial_state()
    rng = np.random.default_rng(seed)
    while s.phase != "bets":
        assert not s.is_terminal()
        s.apply_action(random_action(s, rng))
    s.points = np.full(3, 20, dtype=np.int64)
    return g, s


def _bets_line(text: str) -> str:
    lines = [x for x in text.splitlines() if x.startswith("side bets: ")]
    assert len(lines) == 1, text
    return lines[0]


def test_a_seat_sees_its_own_side_bet_and_the_others_sealed():
    g, s = at_side_bets()
    me = s.current_player()
    s.apply_action(g.bet_action(False, 1))  # a quarter of 20 on "made"
    other, third = (me + 1) % 3, (me + 2) % 3
    assert s.phase == "bets"
    mine = f"player_{me} 0.25 of score (5 points) on made"
    assert mine in _bets_line(s.to_string(me))
    assert f"player_{other} to bet" in _bets_line(s.to_string(me))
    assert f"player_{me} sealed" in _bets_line(s.to_string(other))
    assert mine in _bets_line(str(s))  # the spectator sees every bet
    rng = np.random.default_rng(0)
    assert s.resample(other, rng).to_string(other) == s.to_string(other)
    s.apply_action(g.bet_action(True, 2))
    s.apply_action(g.bet_action(False, 0))
    assert s.phase == "play"  # all have bet: the bets are public
    line = _bets_line(s.to_string(other))
    assert mine in line and f"player_{other} 0.5 of score (10 points) on failed" in line
    assert f"player_{third} no bet" in line


def test_rounds_without_side_bets_have_no_side_bets_line():
    s = MoonstarGame(num_players=3, game=1).new_initial_state()
    assert "side bets" not in str(s)
    with pytest.raises(ValueError, match=r"player must be in 0\.\.2"):
        s.to_string(3)
