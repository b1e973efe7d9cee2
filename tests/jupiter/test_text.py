"""The text board counts in words: ``1 probe left`` and ``1 point``, plural otherwise."""

from __future__ import annotations

from moon_envs.jupiter.rules import JupiterGame


def test_counts_of_one_are_singular():
    s = JupiterGame(num_players=3, num_probes=1).new_initial_state()
    s.points = [1, -1, 2]
    text = str(s)
    assert "player_0 (a):   1 point, 1 probe left" in text
    assert "player_1 (b):  -1 point, 1 probe left" in text
    assert "player_2 (c):   2 points, 1 probe left" in text
    assert "probes left" not in text
    s = JupiterGame(num_players=2, num_probes=2).new_initial_state()
    assert "0 points, 2 probes left" in str(s)
