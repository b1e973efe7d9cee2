"""moon_harvesters_v0 as a PettingZoo AEC environment: API, seeding, fuzz, renders."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import moon_envs
from moon_envs import IllegalActionError
from moon_envs.moon_harvesters import env as harvesters_env
from moon_envs.moon_harvesters.rules import PLACE

CONFIGS = {
    "2p": {"num_players": 2},
    "3p": {"num_players": 3},
    "4p": {"num_players": 4},
    "custom-2p": {"num_players": 2, "shapes": ["T4=###/.#.", "##/##", "I"], "rows": 8, "cols": 10},
    "custom-3p": {"num_players": 3, "shapes": "F,W,Y", "craters_block": False},
}


@pytest.fixture(params=sorted(CONFIGS), ids=sorted(CONFIGS))
def params(request) -> dict:
    return CONFIGS[request.param]


def test_api_test(params):
    api_test(harvesters_env.env(**params), num_cycles=300)


def test_seed_test(params):
    seed_test(lambda: harvesters_env.env(**params), num_cycles=300)


def test_metadata_and_spaces():
    e = moon_envs.make("moon_harvesters_v0", num_players=4)
    assert e.metadata["name"] == "moon_harvesters_v0"
    assert e.possible_agents == [f"player_{i}" for i in range(4)]
    assert e.action_space("player_0").n == 1925
    space = e.observation_space("player_2")["observation"]
    assert space.shape == (1191,) and space.low.min() == 0.0 and space.high.max() == 1.0


def test_random_play_fuzz_invariants(params):
    e = harvesters_env.env(**params)
    game = e.game
    n = game.config.num_players
    total = game.config.num_deposits
    for seed in range(8):
        rng = np.random.default_rng(seed)
        e.reset(seed=seed)
        returns = dict.fromkeys(e.possible_agents, 0.0)
        moves = 0
        for agent in e.agent_iter():
            obs, reward, term, trunc, _ = e.last()
            returns[agent] += reward
            assert e.observation_space(agent).contains(obs)
            if term or trunc:
                e.step(None)
                continue
            mask = obs["action_mask"]
            legal = np.flatnonzero(mask)
            assert legal.size > 0
            s = e.game_state
            if s.phase == PLACE:
                block = mask[game.place_base : game.deposit_base]
                assert block.any() and not mask[: game.place_base].any()
            e.step(int(legal[rng.integers(legal.size)]))
            moves += 1
            s = e.game_state
            assert s.deposit.sum() + s.collected.sum() + s.supply == total
            assert (s.placed <= game.config.pieces_per_kind).all()
            sizes = {
                i: game.kinds[int(s.kind_of[int(s.owner[s.piece == i][0])])].size
                for i in np.unique(s.piece[s.piece >= 0])
            }
            for i, size in sizes.items():
                assert (s.piece == i).sum() == size  # pieces never overlap
            assert (s.owner >= 0).sum() == sum(sizes.values())
        assert moves <= game.spec.max_game_length
        assert abs(sum(returns.values())) < 1e-9
        assert len(e.game_state.winners()) in range(1, n + 1)


def test_score_rewards_sum_to_the_deposits_collected():
    e = moon_envs.make("moon_harvesters_v0", num_players=3, reward_mode="score")
    rng = np.random.default_rng(4)
    e.reset(seed=4)
    got = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        got[agent] += reward
        if term or trunc:
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        e.step(int(legal[rng.integers(legal.size)]))
    assert [got[a] for a in e.possible_agents] == e.game_state.collected.tolist()


def test_illegal_action_raises_and_changes_nothing():
    e = moon_envs.make("moon_harvesters_v0")
    e.reset(seed=0)
    before = e.get_state()
    mask = e.action_mask()
    bad = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(IllegalActionError, match="illegal"):
        e.step(bad)
    assert e.get_state() == before


def test_snapshots_mid_game():
    e = moon_envs.make("moon_harvesters_v0", num_players=2)
    rng = np.random.default_rng(2)
    e.reset(seed=2)
    for _ in range(30):
        legal = np.flatnonzero(e.action_mask())
        e.step(int(legal[rng.integers(legal.size)]))
    snap = e.get_state()
    twin = moon_envs.make("moon_harvesters_v0", num_players=2)
    twin.set_state(snap)
    for other in (twin, copy.deepcopy(e), pickle.loads(pickle.dumps(e))):
        assert other.game_state == e.game_state
        assert np.array_equal(other.action_mask(), e.action_mask())
        assert np.array_equal(
            other.observe("player_1")["observation"], e.observe("player_1")["observation"]
        )


def test_text_and_rgb_renders():
    e = moon_envs.make("moon_harvesters_v0", num_players=4, render_mode="ansi")
    rng = np.random.default_rng(1)
    e.reset(seed=1)
    for _ in range(40):
        legal = np.flatnonzero(e.action_mask())
        e.step(int(legal[rng.integers(legal.size)]))
    text = e.render()
    lines = text.splitlines()
    assert lines[0].split() == list("ABCDEFGHIJKLMNOP")
    grid = [list(line[4::2]) for line in lines[1:24:2]]  # rows; joins of pieces between
    assert all(len(row) == 16 for row in grid)
    s = e.game_state
    assert sum(row.count("*") for row in grid) == int(s.deposit.sum())
    assert sum(row.count("O") for row in grid) == int((s.crater & (s.owner < 0)).sum())
    assert sum(sum(ch in "abcd" for ch in row) for row in grid) == int((s.owner >= 0).sum())

    rgb = moon_envs.make("moon_harvesters_v0", num_players=4, render_mode="rgb_array")
    rgb.set_state(e.get_state())
    img = rgb.render()
    assert img.dtype == np.uint8 and img.ndim == 3 and img.shape[2] == 3
    assert img.shape[1] == 2 * 12 + 16 * 28
    assert len(np.unique(img.reshape(-1, 3), axis=0)) > 5


def test_docstring_documents_the_layout():
    doc = moon_envs.get_entry("moon_harvesters_v0").doc
    for words in ("Shapes", "Actions", "Observation", "Parameters", "House rules", "1,536"):
        assert words in doc
