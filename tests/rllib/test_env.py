"""The RLlib multi-agent env: turns, masks, rewards for every seat, leagues, env checks."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

pytest.importorskip("ray.rllib")

from ray.rllib.utils.pre_checks.env import check_multiagent_environments

from moon_agents.training.rllib.env import LegalDiscrete, MoonMultiAgentEnv, register_envs
from moon_agents.training.rllib.league import policy_mapping_fn
from moon_envs import list_envs
from moon_envs.core.game import ConfigError, IllegalActionError


def make(env_id: str = "jupiter_v0", **config):
    return MoonMultiAgentEnv({"env_id": env_id, **config})


@pytest.mark.parametrize("env_id", list_envs())
def test_rllib_env_checker_passes(env_id):
    check_multiagent_environments(make(env_id, seed=0))


@pytest.mark.parametrize("env_id", list_envs())
def test_sampled_actions_are_always_legal_and_rewards_sum_to_returns(env_id):
    """Random play through the action spaces' sample(): no illegal action over many
    episodes, only the agent to move observes, and each seat's rewards add up to its
    game return (so every seat gets its reward, the final one included)."""
    env = make(env_id, params={"reward_mode": "score"}, seed=1)
    episodes, steps = 0, 0
    for episode in range(6 if env_id == "moonstar_v1" else 25):
        obs, _ = env.reset(seed=episode)
        totals = dict.fromkeys(env.agents, 0.0)
        done = False
        while not done:
            assert len(obs) == 1
            (agent,) = obs
            mask = obs[agent]["action_mask"]
            action = env.get_action_space(agent).sample()
            assert mask[action] == 1, f"{agent} sampled illegal action {action}"
            obs, rewards, terms, truncs, _ = env.step({agent: action})
            steps += 1
            for a, r in rewards.items():
                totals[a] += r
            done = terms["__all__"]
            assert not truncs["__all__"]
        assert set(obs) == set(env.agents)  # everyone sees the end
        returns = env.aec.game_state.returns("score")
        for seat, agent in enumerate(env.agents):
            assert totals[agent] == pytest.approx(returns[seat])
        episodes += 1
    assert steps > episodes * 5


def test_the_end_of_a_game_reaches_every_seat():
    """A position one move from the end, set up by hand: the seat that does not move
    also receives its final reward (+1 / -1 in win mode) with its final observation."""
    env = make(seed=3)
    probe = make(seed=3)
    obs, _ = probe.reset(seed=5)
    before_last = None
    while True:
        (agent,) = obs
        snapshot = probe.aec.get_state()
        action = int(np.flatnonzero(obs[agent]["action_mask"])[0])
        obs, _, terms, _, _ = probe.step({agent: action})
        if terms["__all__"]:
            before_last = (snapshot, agent, action)
            break
    snapshot, mover, action = before_last
    env.reset(seed=0)
    env.aec.set_state(snapshot)  # the hand-built position: one move before the end
    obs, rewards, terms, _, infos = env.step({mover: action})
    winners = env.aec.game_state.winners()
    assert terms == {"player_0": True, "player_1": True, "__all__": True}
    assert set(rewards) == {"player_0", "player_1"}
    for seat in (0, 1):
        expected = 1.0 if winners == [seat] else (-1.0 if seat not in winners else 0.0)
        assert rewards[f"player_{seat}"] == expected
        assert infos[f"player_{seat}"]["won"] == (seat in winners)
        assert not obs[f"player_{seat}"]["action_mask"].any()


def _short_moonstar(**config):
    params = {"num_players": 3, "max_rounds": 1, "reward_mode": "win"}
    return make("moonstar_v1", params=params, seed=1, **config)


def test_a_seat_that_never_had_a_decision_still_gets_its_final_reward():
    """Moonstar, 3 players, one round: some games end before one seat ever decides; that
    seat's reward still arrives with the final observations, and every seat's rewards
    add up to its return."""
    env = _short_moonstar()
    never = 0
    for episode in range(40):
        obs, _ = env.reset(seed=episode)
        rng = np.random.default_rng(episode)
        totals = dict.fromkeys(env.agents, 0.0)
        acted = set()
        done = False
        while not done:
            (agent,) = obs
            acted.add(agent)
            legal = np.flatnonzero(obs[agent]["action_mask"])
            obs, rewards, terms, _, _ = env.step({agent: int(rng.choice(legal))})
            for a, r in rewards.items():
                totals[a] += r
            done = terms["__all__"]
        never += len(acted) < len(env.agents)
        returns = env.aec.game_state.returns("win")
        for seat, agent in enumerate(env.agents):
            assert totals[agent] == pytest.approx(returns[seat]), (episode, agent)
    assert never > 0, "no game ended before a seat decided; the test needs other seeds"


def test_reset_never_hands_back_a_game_the_opponents_already_finished():
    """With in-env opponents a one-round Moonstar game can end before the learner's seat
    decides: reset deals a new game instead (RLlib could not step a finished one)."""
    env = _short_moonstar(league=["random"])
    starts = 0
    original = env._start_episode

    def counting():
        nonlocal starts
        starts += 1
        original()

    env._start_episode = counting
    for episode in range(250):
        obs, _ = env.reset(seed=episode)
        assert not env.aec.game_state.is_terminal()
        (agent,) = obs
        assert obs[agent]["action_mask"].any()
    assert starts > 250, "no game ended at reset; the test needs other seeds"
    (agent,) = obs
    env.step({agent: int(np.flatnonzero(obs[agent]["action_mask"])[0])})


def test_illegal_actions_and_wrong_agents_raise():
    env = make(seed=0)
    obs, _ = env.reset(seed=0)
    (agent,) = obs
    illegal = np.flatnonzero(obs[agent]["action_mask"] == 0)
    if illegal.size:
        with pytest.raises(IllegalActionError, match="legal"):
            env.step({agent: int(illegal[0])})
    other = "player_1" if agent == "player_0" else "player_0"
    with pytest.raises(IllegalActionError, match=agent):
        env.step({other: 0})


def test_zoo_opponents_play_inside_the_env():
    env = make(league=["random"], seed=2)
    seats = set()
    for episode in range(10):
        obs, _ = env.reset(seed=episode)
        assert len(env.agents) == 1 and "@" not in env.agents[0]
        seats.add(env.agents[0])
        done = False
        while not done:
            (agent,) = obs
            assert agent == env.agents[0]
            obs, rewards, terms, _, _ = env.step({agent: env.get_action_space(agent).sample()})
            done = terms["__all__"]
        assert set(rewards) == set(env.agents)
    assert seats == {"player_0", "player_1"}  # the learner's seat is drawn


def test_snapshot_seats_are_mapped_to_their_module():
    env = make(league=["snapshot_1"], modules=["snapshot_0", "snapshot_1"], seed=0)
    env.reset(seed=0)
    modules = sorted(policy_mapping_fn(a) for a in env.agents)
    assert modules == ["learner", "snapshot_1"]
    assert set(env.agents) <= set(env.possible_agents)
    with pytest.raises(ConfigError, match="snapshot_7"):
        env.set_league(["snapshot_7"])
    with pytest.raises(ConfigError, match="env_id"):
        MoonMultiAgentEnv({})


def test_bound_action_space_pickles_as_a_plain_discrete():
    env = make(seed=0)
    obs, _ = env.reset(seed=0)
    (agent,) = obs
    space = env.get_action_space(agent)
    assert isinstance(space, LegalDiscrete)
    copy = pickle.loads(pickle.dumps(space))
    assert copy == space and copy._legal_mask_fn is None


def test_every_env_id_is_registered_with_ray():
    from ray.tune.registry import ENV_CREATOR, _global_registry

    ids = register_envs()
    assert ids == list_envs()
    for env_id in ids:
        creator = _global_registry.get(ENV_CREATOR, env_id)
        env = creator({"seed": 1})
        assert isinstance(env, MoonMultiAgentEnv) and env.env_id == env_id
