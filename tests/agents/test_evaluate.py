"""Tournament statistics (Wilson, Bradley–Terry Elo) on hand-made results, and real tournaments."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from moon_agents.evaluation.tournament import (
    ELO_MEAN,
    GameRecord,
    TournamentResult,
    fit_elo,
    lineups,
    pairwise_results,
    tournament,
    wilson_interval,
)
from moon_agents.random_agent import RandomAgent
from moon_envs import ConfigError


def test_wilson_known_values() -> None:
    lo, hi = wilson_interval(50, 100)
    assert lo == pytest.approx(0.40383, abs=1e-5) and hi == pytest.approx(0.59617, abs=1e-5)
    lo, hi = wilson_interval(0, 10)
    assert lo == 0.0 and hi == pytest.approx(0.27753, abs=1e-5)
    lo, hi = wilson_interval(10, 10)
    assert hi == 1.0 and lo == pytest.approx(0.72247, abs=1e-5)
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_elo_two_players_matches_odds() -> None:
    results = [("A", "B", 1.0)] * 75 + [("A", "B", 0.0)] * 25
    elo = fit_elo(["A", "B"], results, prior_ties=0)
    assert elo["A"] - elo["B"] == pytest.approx(400 * math.log10(3), abs=1e-6)
    assert (elo["A"] + elo["B"]) / 2 == pytest.approx(ELO_MEAN)


def test_elo_ties_count_half_and_prior_keeps_ratings_finite() -> None:
    ties = fit_elo(["A", "B"], [("A", "B", 0.5)] * 10, prior_ties=0)
    assert ties["A"] == pytest.approx(ties["B"])
    # 3 wins + 2 ties = 4 points of 5 -> odds 4:1
    elo = fit_elo(["A", "B"], [("A", "B", 1.0)] * 3 + [("A", "B", 0.5)] * 2, prior_ties=0)
    assert elo["A"] - elo["B"] == pytest.approx(400 * math.log10(4), abs=1e-6)
    sweep = fit_elo(["A", "B"], [("A", "B", 1.0)] * 20, prior_ties=1.0)
    assert sweep["A"] - sweep["B"] == pytest.approx(400 * math.log10(20.5 / 0.5), abs=1e-6)


def test_elo_transitive_chain() -> None:
    # A beats B 2:1 and B beats C 2:1; BT gives A:C odds 4:1 without direct games.
    results = [("A", "B", 1.0)] * 200 + [("A", "B", 0.0)] * 100
    results += [("B", "C", 1.0)] * 200 + [("B", "C", 0.0)] * 100
    elo = fit_elo(["A", "B", "C"], results, prior_ties=0)
    assert elo["A"] - elo["C"] == pytest.approx(400 * math.log10(4), abs=1e-4)
    assert elo["A"] > elo["B"] > elo["C"]


def test_pairwise_and_stats_from_hand_made_games() -> None:
    games = [
        GameRecord(0, 0, ("x", "y"), (10.0, 5.0), (0,), 10),
        GameRecord(1, 1, ("y", "x"), (7.0, 7.0), (0, 1), 10),  # shared win
        GameRecord(2, 2, ("x", "y"), (3.0, 9.0), (1,), 10),
        GameRecord(3, 3, ("y", "x"), (2.0, 8.0), (1,), 10),
    ]
    assert pairwise_results(games[0]) == [("x", "y", 1.0)]
    assert pairwise_results(games[1]) == [("y", "x", 0.5)]
    r = TournamentResult.from_games("jupiter_v0", ["x", "y"], games, prior_ties=0)
    x, y = r.stats["x"], r.stats["y"]
    assert (x.wins, x.ties, x.losses, x.games) == (2, 1, 1, 4)
    assert x.win_rate == pytest.approx(2.5 / 4) and y.win_rate == pytest.approx(1.5 / 4)
    assert x.mean_score == pytest.approx((10 + 7 + 3 + 8) / 4)
    assert r.stats["x"].elo - r.stats["y"].elo == pytest.approx(400 * math.log10(2.5 / 1.5))
    assert r.pairwise()["x"]["y"] == pytest.approx(2.5 / 4)
    table = r.table()
    assert table.splitlines()[0].startswith("| Agent |")
    assert table.splitlines()[2].startswith("| x | 4 | 2 | 1 | 1 | 0.625 |")


def test_lineups_rotate_every_seat() -> None:
    assert lineups(2, 2) == [(0, 1), (1, 0)]
    assert len(lineups(3, 2)) == 6
    assert len(lineups(4, 4)) == 24
    four = lineups(2, 4)
    for seat in range(4):
        assert sorted(up[seat] for up in four) == [0, 0, 1, 1]


def test_small_tournament_is_reproducible_and_writes_files(tmp_path: Path) -> None:
    r1 = tournament("jupiter_v0", ["random", "greedy"], games=40, seed=7, out_dir=tmp_path)
    r2 = tournament("jupiter_v0", ["random", "greedy"], games=40, seed=7)
    assert r1.games == r2.games
    assert r1.stats["greedy"].win_rate > 0.75  # greedy is far stronger than random
    assert r1.stats["greedy"].elo > r1.stats["random"].elo
    seats = [g.seats for g in r1.games]
    assert seats.count(("random", "greedy")) == seats.count(("greedy", "random")) == 20
    for name in ("results.csv", "results.json", "games.csv", "table.md", "win_rates.png"):
        assert (tmp_path / name).stat().st_size > 0
    data = json.loads((tmp_path / "results.json").read_text())
    assert data["num_games"] == 40 and {a["agent"] for a in data["agents"]} == {"random", "greedy"}


def test_three_player_tournament_with_agent_objects() -> None:
    agents = [RandomAgent(seed=1, name="r1"), RandomAgent(seed=2, name="r2"), "greedy"]
    r = tournament("jupiter_v0", agents, games=12, seed=0, env_params={"num_players": 3})
    assert all(len(g.seats) == 3 and sorted(g.seats) == ["greedy", "r1", "r2"] for g in r.games)
    assert sum(s.games for s in r.stats.values()) == 36
    # print(result) is the summary and the table; the repr stays one short line
    text = str(r)
    assert text.startswith("jupiter_v0 {'num_players': 3}: 3 players, 12 games, seats rotated")
    assert "| Agent | Games |" in text and text.count("\n| r") == 2
    assert repr(r).startswith("<TournamentResult jupiter_v0") and len(repr(r)) < 200


def test_duplicate_names_are_made_unique() -> None:
    r = tournament("jupiter_v0", ["random", "random"], games=4, seed=0)
    assert r.agents == ["random", "random#2"]


def test_errors() -> None:
    with pytest.raises(ConfigError, match="at least 2 agents"):
        tournament("jupiter_v0", ["random"], games=4)
    with pytest.raises(ConfigError, match="unknown agent 'nope'"):
        tournament("jupiter_v0", ["random", "nope"], games=4)
    with pytest.raises(ConfigError, match="registered ids"):
        tournament("no_such_v9", ["random", "random"], games=4)


def test_time_per_move_is_measured_per_agent() -> None:
    import time

    from moon_agents.random_agent import RandomAgent

    class SlowAgent(RandomAgent):
        def act(self, view):  # type: ignore[no-untyped-def]
            time.sleep(0.004)
            return super().act(view)

    slow = SlowAgent(seed=0, name="slow")
    result = tournament("jupiter_v0", [slow, "random"], games=4, seed=0)
    stats = result.stats
    assert stats["slow"].decisions > 0 and stats["random"].decisions > 0
    assert stats["slow"].ms_per_move >= 4.0 > stats["random"].ms_per_move
    assert sum(g.length for g in result.games) == sum(s.decisions for s in stats.values())
    assert "| ms/move |" in result.table().splitlines()[0]
    row = next(r for r in result.rows() if r["agent"] == "slow")
    assert row["ms_per_move"] >= 4.0
