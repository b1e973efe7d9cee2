"""The search-cost row of ``moon-envs bench``: rules-core random actions with clones."""

from __future__ import annotations

import moon_envs
from moon_agents.benchmarks.speed import run_bench, search_cost


def test_search_cost_plays_whole_games_and_counts_actions():
    game = moon_envs.make("jupiter_v0").game
    row = search_cost(game, seconds=0.3, seed=0)
    assert row.steps > 0 and row.games >= 1 and row.steps_per_s > 0


def test_bench_prints_the_search_cost_table():
    lines: list[str] = []
    result = run_bench(["jupiter_v0"], seconds=0.05, repeats=1, out=lines.append)
    assert any("search cost" in line for line in lines)
    rows = result["metrics"]["search_cost_actions_per_s"]["rows"]
    assert rows["jupiter_v0"]["median"] > 0
