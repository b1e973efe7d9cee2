"""Checks every registered environment must pass, whatever its game.

PettingZoo's api_test and seed_test, AEC conventions, masks, snapshots (clone, to_dict,
pickle, deepcopy, get_state/set_state), illegal actions, observations that do not leak
hidden information, renders, the registries and the single-agent view.
"""

from __future__ import annotations

import copy
import json
import pickle

import gymnasium
import numpy as np
import pettingzoo
import pytest
from pettingzoo.test import api_test, seed_test

import moon_envs
from moon_envs import ConfigError, IllegalActionError
from moon_envs.core.game import CHANCE, TERMINAL
from tests.helpers import play_env, play_to_end, random_legal, step_state

ENV_IDS = moon_envs.list_envs()


@pytest.fixture(params=ENV_IDS)
def env_id(request) -> str:
    return request.param


def test_api_test(env_id):
    api_test(moon_envs.make(env_id), num_cycles=400)


def test_seed_test(env_id):
    seed_test(lambda: moon_envs.make(env_id), num_cycles=400)


def test_games_end_with_zero_sum_win_rewards_and_nonempty_masks(env_id):
    env = moon_envs.make(env_id)
    spec = env.game.spec
    for seed in range(12):
        totals = dict.fromkeys(env.possible_agents, 0.0)
        rng = np.random.default_rng(seed)
        env.reset(seed=seed)
        moves = 0
        for agent in env.agent_iter():
            obs, reward, term, trunc, _ = env.last()
            totals[agent] += reward
            assert env.observation_space(agent).contains(obs), f"{agent} obs out of space"
            if term or trunc:
                env.step(None)
                continue
            assert obs["action_mask"].any(), "all-zero mask for the agent to move"
            others = [a for a in env.agents if a != agent]
            for other in others:
                assert not env.observe(other)["action_mask"].any(), "mask for an idle agent"
            env.step(random_legal(obs["action_mask"], rng))
            moves += 1
        assert moves <= spec.max_game_length
        assert abs(sum(totals.values())) < 1e-9
        assert max(totals.values()) > 0 or all(v == 0 for v in totals.values())


def test_different_seeds_give_different_games(env_id):
    traces = {str(play_env(moon_envs.make(env_id), seed)) for seed in range(6)}
    assert len(traces) > 1


def test_same_seed_same_game(env_id):
    assert play_env(moon_envs.make(env_id), 7) == play_env(moon_envs.make(env_id), 7)


def _midgame_state(env_id: str, seed: int, moves: int):
    game = moon_envs.make(env_id).game
    state = game.new_initial_state()
    rng = np.random.default_rng(seed)
    for _ in range(moves):
        if state.is_terminal():
            break
        step_state(state, rng)
    return state


@pytest.mark.parametrize("seed", range(8))
def test_clone_dict_pickle_roundtrips_continue_identically(env_id, seed):
    state = _midgame_state(env_id, seed, moves=5 + 4 * seed)
    copies = [
        state.clone(),
        state.game.state_from_dict(json.loads(json.dumps(state.to_dict()))),
        type(state).from_dict(state.to_dict()),
        pickle.loads(pickle.dumps(state)),
        copy.deepcopy(state),
    ]
    reference = play_to_end(state.clone(), np.random.default_rng(seed))
    for c in copies:
        assert c == state
        assert play_to_end(c, np.random.default_rng(seed)) == reference


def test_clone_is_independent(env_id):
    state = _midgame_state(env_id, 1, moves=6)
    before = state.to_dict()
    c = state.clone()
    play_to_end(c, np.random.default_rng(0))
    assert state.to_dict() == before


@pytest.mark.parametrize("seed", range(4))
def test_env_deepcopy_pickle_and_snapshots_keep_the_position(env_id, seed):
    env = moon_envs.make(env_id)
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    for _ in range(6 + seed):
        obs, _, term, _, _ = env.last()
        if term:
            break
        env.step(random_legal(obs["action_mask"], rng))
    snapshot = json.loads(json.dumps(env.get_state()))
    restored = moon_envs.make(env_id)
    restored.set_state(snapshot)
    clones = [copy.deepcopy(env), pickle.loads(pickle.dumps(env)), restored]

    def continuation(e):
        r = np.random.default_rng(99)
        out = []
        for agent in e.agent_iter():
            o, rew, term, trunc, _ = e.last()
            a = None if term or trunc else random_legal(o["action_mask"], r)
            out.append((agent, a, rew, o["observation"].tobytes()))
            e.step(a)
        return out

    expected = continuation(env)
    for c in clones:
        assert continuation(c) == expected


def test_illegal_actions_raise_and_change_nothing(env_id):
    env = moon_envs.make(env_id)
    rng = np.random.default_rng(3)
    env.reset(seed=3)
    checked = 0
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        mask = obs["action_mask"]
        illegal = np.flatnonzero(mask == 0)
        before = json.dumps(env.get_state(), sort_keys=True)
        bad = [None, -1, len(mask), 1.5, "x"] + ([int(illegal[0])] if illegal.size else [])
        for a in bad:
            with pytest.raises(IllegalActionError, match=agent):
                env.step(a)
            assert json.dumps(env.get_state(), sort_keys=True) == before
            checked += 1
        env.step(random_legal(mask, rng))
    assert checked > 0


def test_illegal_action_penalize_mode(env_id):
    env = moon_envs.make(env_id, illegal_action="penalize")
    env.reset(seed=0)
    obs, *_ = env.last()
    agent = env.agent_selection
    env.step(len(obs["action_mask"]))  # out of range
    assert all(env.terminations.values())
    assert env._cumulative_rewards[agent] == -1.0
    assert all(v == 0 for a, v in env._cumulative_rewards.items() if a != agent)


def test_observations_do_not_leak_hidden_information(env_id):
    """A determinisation redraws what a player cannot know; their observation must not move."""
    for seed in range(10):
        state = _midgame_state(env_id, seed, moves=3 + 3 * seed)
        rng = np.random.default_rng(seed)
        for p in range(state.game.spec.num_players):
            for _ in range(3):
                sampled = state.resample(p, rng)
                assert np.array_equal(sampled.observation(p), state.observation(p))
                assert sampled.current_player() == state.current_player()
                if state.current_player() == p:
                    assert np.array_equal(sampled.legal_actions_mask(), state.legal_actions_mask())


def test_chance_outcomes_are_distributions(env_id):
    for seed in range(5):
        state = moon_envs.make(env_id).game.new_initial_state()
        rng = np.random.default_rng(seed)
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                outs = state.chance_outcomes()
                assert outs and abs(sum(p for _, p in outs) - 1.0) < 1e-9
                assert all(0 <= o < state.game.spec.max_chance_outcomes for o, _ in outs)
            else:
                assert state.chance_outcomes() == []
            step_state(state, rng)
        assert state.current_player() == TERMINAL
        assert not state.legal_actions_mask().any()
        with pytest.raises(IllegalActionError):
            state.apply_action(0)


def test_renders(env_id):
    text_env = moon_envs.make(env_id, render_mode="ansi")
    text_env.reset(seed=0)
    assert isinstance(text_env.render(), str) and text_env.render()
    rgb_env = moon_envs.make(env_id, render_mode="rgb_array")
    play_env(rgb_env, 0)
    img = rgb_env.render()
    assert img.dtype == np.uint8 and img.ndim == 3 and img.shape[2] == 3
    assert img.std() > 0  # something is drawn


def test_unknown_params_and_bad_values_are_named(env_id):
    with pytest.raises(ConfigError, match="valid parameters"):
        moon_envs.make(env_id, no_such_param=1)
    with pytest.raises(ConfigError, match="reward_mode"):
        moon_envs.make(env_id, reward_mode="points")
    with pytest.raises(ConfigError, match="render_mode"):
        moon_envs.make(env_id, render_mode="pygame")


def test_registries(env_id):
    entry = moon_envs.get_entry(env_id)
    assert entry.doc.strip(), "the env module docstring is its documentation page"
    pz = pettingzoo.make("aec", f"moon_envs/{env_id}")
    assert pz.metadata["name"] == env_id
    gym_env = gymnasium.make(entry.gym_id)
    obs, info = gym_env.reset(seed=0)
    assert gym_env.observation_space.contains(obs)
    assert info["action_mask"].any()


def test_single_agent_view_gives_the_learner_its_own_reward(env_id):
    """Summed over an episode, the learner's rewards equal its seat's win-mode return:
    a loss after an opponent's winning move reaches the learner."""
    env = moon_envs.make_single_agent(env_id)
    rng = np.random.default_rng(0)
    seats = set()
    for episode in range(12):
        _obs, info = env.reset(seed=episode)
        total, done = 0.0, False
        while not done:
            mask = env.action_masks()
            assert mask.any() and np.array_equal(mask, info["action_mask"])
            _obs, reward, term, trunc, info = env.step(random_legal(mask, rng))
            total += reward
            done = term or trunc
        seat = info["seat"]
        seats.add(seat)
        assert total == pytest.approx(env.aec.game_state.returns("win")[seat])
    assert len(seats) > 1, "the learner's seat is drawn per episode"


def test_unknown_env_id_lists_valid_ones():
    with pytest.raises(ConfigError, match="jupiter_v0"):
        moon_envs.make("jupyter_v0")


def test_fast_legality_check_agrees_with_the_mask(env_id):
    """Games may override ``_is_legal`` for speed; it must say exactly what the mask says."""
    for seed in range(6):
        state = moon_envs.make(env_id).game.new_initial_state()
        rng = np.random.default_rng(seed)
        while not state.is_terminal():
            if state.current_player() >= 0:
                mask = state.legal_actions_mask()
                for a in range(-1, mask.size + 1):
                    expected = 0 <= a < mask.size and bool(mask[a])
                    assert state._is_legal(a) == expected, (a, str(state))
            step_state(state, rng)
