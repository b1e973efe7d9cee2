"""The Moonstar round statistics behind docs/training.md's gap-to-oracle table."""

from __future__ import annotations

import pytest

from moon_agents.benchmarks.moonstar_rounds import main, round_stats


def test_the_oracle_bids_the_optimum_and_plays_it() -> None:
    stats = round_stats(["oracle", "random"], games=2, seed=3)
    oracle, rnd = stats["oracle"], stats["random"]
    assert oracle.games == rnd.games == 2 and oracle.wins == 2.0
    assert oracle.auctions_won > 0 and oracle.made == oracle.auctions_won
    assert oracle.bid_minus_optimum == 0 and oracle.short_of_optimum == 0
    assert oracle.score >= 400  # two games won at 200 or more


def test_the_heuristic_never_bids_above_the_optimum() -> None:
    stats = round_stats(["heuristic", "oracle"], games=2, seed=5)["heuristic"]
    assert stats.auctions_won > 0 and stats.made == stats.auctions_won
    assert stats.bid_minus_optimum <= 0 and stats.short_of_optimum >= 0


def test_two_different_agents_are_needed(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(ValueError, match="--agents: two different agent specs"):
        round_stats(["oracle", "oracle"], games=1)
    with pytest.raises(SystemExit):
        main(["--agents", "oracle", "random", "--games", "0"])
    assert "--games: at least 1" in capsys.readouterr().err
