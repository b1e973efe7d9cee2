"""Moonstar baseline agents: always legal, the oracle plays every round optimally, and the
ladder random < heuristic < oracle holds."""

from __future__ import annotations

import numpy as np
import pytest

import moon_envs
from moon_agents.heuristics.moonstar import (
    MoonstarHeuristicAgent,
    MoonstarOracleAgent,
    greedy_moves,
)
from moon_agents.random_agent import RandomAgent
from moon_agents.zoo import make_agent


def play(env, agents, seed):
    """One game; returns the round reports of the rounds each seat played."""
    env.reset(seed=seed)
    reports = []
    for agent in env.agent_iter():
        obs, _, term, trunc, info = env.last()
        if "round_report" in info and info["round_report"] not in reports[-1:]:
            reports.append(info["round_report"])
        if term or trunc:
            env.step(None)
            continue
        seat = env.possible_agents.index(agent)
        action = agents[seat].act(env.agent_view(agent))
        assert obs["action_mask"][action]
        env.step(action)
    return reports


@pytest.mark.parametrize("game", range(1, 13))
def test_agents_play_legally_and_the_oracle_is_exact(game):
    env = moon_envs.make("moonstar_v1", game=game, num_players=3)
    agents = [MoonstarOracleAgent(seed=0), MoonstarHeuristicAgent(seed=1), RandomAgent(seed=2)]
    oracle_rounds = 0
    for seed in range(2):
        for rep in play(env, agents, seed):
            if rep["no_bid"] or rep["bidder"] != 0:
                continue
            oracle_rounds += 1
            assert rep["regret"] == 0 and rep["achieved"] == rep["best_total"]
            assert rep["made"]  # the oracle only bids what it can make
    assert oracle_rounds > 0


@pytest.mark.parametrize("game", [1, 7, 8, 9])
def test_mid_round_solutions_add_up_along_the_oracle_plan(game):
    """Re-solving after each of the oracle's moves: points made + best still to make is
    the round's optimum all along."""
    from moon_envs.moonstar import solver
    from moon_envs.moonstar.rules import MoonstarGame

    rng = np.random.default_rng(game)
    g = MoonstarGame(num_players=2, setup="random", first_organizer=0, game=game)
    oracle = MoonstarOracleAgent(seed=0)
    from moon_envs.core.view import AgentView

    for _ in range(4):
        st = g.new_initial_state()
        while st.phase != "auction":
            outs = st.chance_outcomes()
            st.apply_action(outs[int(rng.integers(len(outs)))][0])
        st.apply_action(g.bid_action(2))
        st.apply_action(g.a_pass)
        best = st.best_total
        assert best == solver.solve(st.situation()).total
        while st.phase == "play":
            assert st.round_total + solver.solve(st.situation()).total == best
            st.apply_action(oracle.act(AgentView.of(st)))
        assert st.info()["round_report"]["achieved"] == best


def test_zoo_builds_both_agents():
    assert isinstance(make_agent("oracle", "moonstar", seed=1), MoonstarOracleAgent)
    assert isinstance(make_agent("heuristic", "moonstar", seed=1), MoonstarHeuristicAgent)
    assert make_agent("greedy", "moonstar", seed=1, name="g").name == "g"


def test_greedy_estimate_is_a_lower_bound_of_the_optimum():
    from moon_envs.moonstar import solver
    from moon_envs.moonstar.rules import MoonstarGame

    rng = np.random.default_rng(5)
    for params in ({}, {"game": 7}, {"game": 8}, {"game": 9}):
        game = MoonstarGame(num_players=2, setup="random", first_organizer=0, **params)
        for _ in range(10):
            st = game.new_initial_state()
            while st.phase != "auction":
                outs = st.chance_outcomes()
                st.apply_action(outs[int(rng.integers(len(outs)))][0])
            est, plan = greedy_moves(st)
            assert len(plan) == st.rules.num_moves
            assert est <= solver.solve(st.situation()).total


def test_ladder_random_heuristic_oracle():
    from moon_agents.evaluation.tournament import tournament

    result = tournament(
        "moonstar_v1",
        ["random", "heuristic", "oracle"],
        games=36,
        seed=0,
        env_params={"num_players": 3},
    )
    rate = {name: result.win_rate(name) for name in ("random", "heuristic", "oracle")}
    assert rate["random"] < rate["heuristic"] < rate["oracle"]
