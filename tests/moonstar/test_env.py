"""Moonstar as a PettingZoo environment: API and seed tests for every preset, combinations
and player counts; random-play fuzz with the rules' invariants; renders."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import moon_envs
from moon_envs.core.game import CHANCE
from moon_envs.moonstar.env import env as moonstar_env

PRESETS = list(range(1, 13))
COMBOS = [
    {"num_players": 2, "scoring": "squares", "movement": "double_half", "challenges": True},
    {"num_players": 5, "side_bets": True, "favourite_star": True, "planets": [2, 7, 15]},
    {"num_players": 8, "num_moons": 12, "num_dice": 9, "scoring": "chains", "side_bets": True},
    {
        "num_players": 3,
        "num_moons": 7,
        "num_dice": 10,
        "challenges": True,
        "move_budget": 5,
        "setup": "random",
    },
    {"num_players": 6, "dealer_menu": [2, 7, {"scoring": "chains", "challenges": True}]},
    {"num_players": 7, "game": 9, "challenges": True, "side_bets": True},
    {"num_players": 2, "game": 1, "round_optimum": True},
    {"num_players": 4, "game": 11, "round_optimum": True, "favourite_star": True},
]


@pytest.mark.parametrize("game", PRESETS)
def test_api_and_seed_for_each_preset(game):
    api_test(moon_envs.make("moonstar_v1", game=game, num_players=3), num_cycles=300)
    seed_test(lambda: moon_envs.make("moonstar_v1", game=game, num_players=3), num_cycles=300)


@pytest.mark.parametrize("params", COMBOS, ids=[str(i) for i in range(len(COMBOS))])
def test_api_and_seed_for_combinations(params):
    api_test(moonstar_env(**params), num_cycles=300)
    seed_test(lambda: moonstar_env(**params), num_cycles=300)


@pytest.mark.parametrize("n", range(2, 9))
def test_api_for_player_counts(n):
    api_test(moon_envs.make("moonstar_v1", num_players=n), num_cycles=200)


def _fuzz(params: dict, seeds: range) -> dict:
    """Random play through the rules core checking every transition; returns counters."""
    from moon_envs.moonstar.rules import MoonstarGame

    game = MoonstarGame(**params)
    stats = {"rounds": 0, "no_bid": 0, "made": 0, "failed": 0}
    for seed in seeds:
        rng = np.random.default_rng(seed)
        st = game.new_initial_state()
        while not st.is_terminal():
            cp = st.current_player()
            before = st.points.copy()
            if cp == CHANCE:
                outs = st.chance_outcomes()
                st.apply_action(outs[int(rng.integers(len(outs)))][0])
            else:
                mask = st.legal_actions_mask()
                assert mask.any()
                if st.phase == "play":  # the incrementally kept move mask is exact
                    assert np.array_equal(st.play_block, st.build_play_block())
                assert np.allclose(st.board, st.board_features(), atol=1e-5)
                obs = st.observation(cp)
                assert obs.shape == game.spec.observation_shape
                assert obs.min() >= -1 and obs.max() <= 1
                legal = np.flatnonzero(mask)
                st.apply_action(int(legal[rng.integers(legal.size)]))
            delta = st.points - before
            report = st.info().get("round_report")
            if not delta.any():
                continue
            # scores change only when a round ends, by the rules' amounts
            assert report is not None
            assert delta.tolist() == report["score_changes"]
            stats["rounds"] += 1
            if report["no_bid"]:
                stats["no_bid"] += 1
                o = report["organizer"]
                assert delta[o] == 20 and (np.delete(delta, o) == 0).all()
                continue
            b, bid = report["bidder"], report["bid"]
            assert report["achieved"] <= report["best_total"]
            assert report["regret"] == report["best_total"] - report["achieved"]
            delta = delta - np.array(report["side_bets"])  # side bets settled separately
            if not st.game.rounds[report["rules"]].side_bets:
                assert not any(report["side_bets"])
            ch = set(report["challengers"])
            if report["made"]:
                stats["made"] += 1
                assert delta[b] == bid + (25 if ch else 0)
                for s in range(len(delta)):
                    if s != b:
                        assert delta[s] == (-25 if s in ch else 0)
            else:
                stats["failed"] += 1
                assert delta[b] == (-25 if ch else 0)
                for s in range(len(delta)):
                    if s != b:
                        assert delta[s] == (25 if s in ch else 10)
        assert st.move_number <= game.spec.max_game_length
    return stats


@pytest.mark.parametrize(
    "params",
    [
        {"num_players": 3},
        {"num_players": 4, "game": 10},
        {"num_players": 2, "game": 7},
        {"num_players": 5, "game": 8},
        {"num_players": 3, "game": 11},
        {"num_players": 4, "game": 12},
        {"num_players": 6, "game": 6, "setup": "random"},
        {"num_players": 4, "game": 10, "auction_order": "random"},
        {"num_players": 3, "game": 8, "chain_members": "all"},
    ],
    ids=["g1", "g10", "g7", "g8", "g11", "g12", "g6", "random-order", "chains-all"],
)
def test_random_play_fuzz_invariants(params):
    stats = _fuzz(params, range(8))
    assert stats["rounds"] > 0 and stats["made"] + stats["failed"] > 0


def test_round_report_in_info():
    env = moon_envs.make("moonstar_v1", num_players=3)
    env.reset(seed=4)
    rng = np.random.default_rng(4)
    reports = 0
    for agent in env.agent_iter():
        obs, _, term, trunc, info = env.last()
        if "round_report" in info and not info["round_report"]["no_bid"]:
            rep = info["round_report"]
            assert rep["best_total"] >= rep["achieved"] and rep["regret"] >= 0
            reports += 1
        if term or trunc:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.integers(legal.size)]))
    assert reports > 0


def test_renders():
    env = moon_envs.make("moonstar_v1", num_players=4, render_mode="rgb_array", game=6)
    env.reset(seed=1)
    img = env.render()
    assert img.ndim == 3 and img.shape[2] == 3 and img.dtype == np.uint8
    rng = np.random.default_rng(1)
    for _ in range(40):
        obs, _, term, _, _ = env.last()
        if term:
            break
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.integers(legal.size)]))
    img2 = env.render()
    assert img2.shape == img.shape and not np.array_equal(img, img2)
    text = moon_envs.make("moonstar_v1", render_mode="ansi")
    text.reset(seed=0)
    out = text.render()
    assert "star 11" in out and "player_3" in out


def test_documented_sizes():
    env = moon_envs.make("moonstar_v1")
    assert env.action_space("player_0").n == 181
    assert env.observation_space("player_0")["observation"].shape == (244,)
    doc = moon_envs.get_entry("moonstar_v1").doc
    for word in (
        "num_players",
        "count_rule",
        "planets",
        "scoring",
        "favourite_star",
        "movement",
        "challenges",
        "side_bets",
        "bet_fractions",
        "move_budget",
        "dealer_menu",
        "target",
        "setup",
        "first_organizer",
        "max_rounds",
        "solver_info",
        "game",
        "House rules",
        "Actions",
        "Observation",
    ):
        assert word in doc, word


def test_action_names():
    from moon_envs.moonstar.rules import MoonstarGame

    g = MoonstarGame(game=11)
    st = g.new_initial_state()
    assert st.action_to_string(g.bid_action(70)) == "bid 70"
    assert st.action_to_string(g.a_pass) == "pass"
    assert "failed" in st.action_to_string(g.bet_action(True, 2))
    assert st.action_to_string(g.move_action(3, 2, 1)).startswith("moon 3 with die 2")


@pytest.mark.parametrize("params", [{"game": 1}, {"game": 6}, {"game": 11, "num_players": 3}])
def test_round_optimum_shows_the_solvers_best_total_until_play_begins(params):
    from moon_envs.moonstar import solver
    from moon_envs.moonstar.constants import OPTIMUM_PHASES

    params = {"num_players": 2, **params}
    plain = moon_envs.make("moonstar_v1", **params)
    env = moon_envs.make("moonstar_v1", round_optimum=True, **params)
    rng = np.random.default_rng(1)
    plain.reset(seed=5)
    env.reset(seed=5)
    shown = 0
    for _ in range(400):
        if not env.agents:
            break
        agent = env.agent_selection
        state = env.game_state
        obs = env.observe(agent)
        base = plain.observe(agent)["observation"]
        assert np.array_equal(obs["observation"][:-2], base)  # the rest is unchanged
        tail = obs["observation"][-2:]
        if state.phase in OPTIMUM_PHASES:
            best = solver.solve(state.situation(), with_plan=False).total
            assert tuple(tail) == (pytest.approx(min(1.0, best / 70)), 1.0)
            shown += 1
        else:
            assert tuple(tail) == (0.0, 0.0)
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        env.step(action)
        plain.step(action)
    assert shown > 0
