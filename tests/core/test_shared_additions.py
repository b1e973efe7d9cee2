"""The shared core's PettingZoo global state, per-seat text views, the agents' optional
``reset(game, seat)``, and the core's independence from the registry."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import numpy as np
import pytest
from pettingzoo.test.state_test import test_state_space as pz_state_space_test

import moon_envs
from moon_agents.base import start_game
from moon_agents.evaluation.tournament import play_game
from moon_agents.random_agent import RandomAgent
from tests.helpers import random_legal

ENV_IDS = moon_envs.list_envs()


class RecordingAgent(RandomAgent):
    """A random agent that records every ``reset`` call it receives."""

    def __init__(self, seed: int = 0, name: str = "recorder") -> None:
        super().__init__(seed=seed, name=name)
        self.resets: list[tuple[str, int]] = []

    def reset(self, game, seat: int) -> None:
        self.resets.append((game.spec.name, seat))


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_state_space_passes_pettingzoo_checks(env_id):
    env = moon_envs.make(env_id)
    env.reset(seed=0)
    pz_state_space_test(env)
    assert env.state_space.shape == env.game.spec.global_state_shape


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_state_stays_in_state_space_and_marks_the_player_to_move(env_id):
    env = moon_envs.make(env_id)
    n = env.game.spec.num_players
    rng = np.random.default_rng(1)
    for seed in range(3):
        env.reset(seed=seed)
        for agent in env.agent_iter():
            s = env.state()
            assert s.dtype == np.float32
            assert env.state_space.contains(s)
            tail = s[-(n + 1) :]
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                assert tail[n] == 1.0 and tail.sum() == 1.0
                env.step(None)
                continue
            assert tail[env.possible_agents.index(agent)] == 1.0 and tail.sum() == 1.0
            env.step(random_legal(obs["action_mask"], rng))


def test_state_before_reset_is_a_clear_error():
    env = moon_envs.make("jupiter_v0")
    with pytest.raises(RuntimeError, match="reset"):
        env.state()


def test_moonstar_global_state_shows_sealed_side_bets_that_observations_hide():
    env = moon_envs.make("moonstar_v1", game=11, num_players=3)
    rng = np.random.default_rng(0)
    for seed in range(40):
        env.reset(seed=seed)
        while env.agents:
            st = env.game_state
            if st.phase == "bets" and (st.bet_side >= 0).any():
                bettor = int(np.flatnonzero(st.bet_side >= 0)[0])
                other = next(p for p in range(3) if p != bettor)
                hidden = st.clone()
                hidden.bet_side[bettor] = 1 - hidden.bet_side[bettor]
                # the other seat cannot tell the two apart, the global state can
                assert np.array_equal(st.observation(other), hidden.observation(other))
                assert not np.array_equal(st.global_state(), hidden.global_state())
                return
            obs, _, term, trunc, _ = env.last()
            env.step(None if term or trunc else random_legal(obs["action_mask"], rng))
    pytest.fail("no side bet was placed in 40 random games")


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_text_view_of_a_seat_and_of_a_spectator(env_id):
    env = moon_envs.make(env_id)
    env.reset(seed=0)
    st = env.game_state
    assert st.to_string() == str(st)
    for seat in range(env.game.spec.num_players):
        assert isinstance(st.to_string(seat), str) and st.to_string(seat)
    with pytest.raises(ValueError, match="player must be"):
        st.to_string(env.game.spec.num_players)


def test_start_game_calls_reset_only_where_defined():
    game = moon_envs.make("jupiter_v0").game
    agent = RecordingAgent()
    start_game(agent, game, 1)
    assert agent.resets == [("jupiter", 1)]
    start_game(RandomAgent(0), game, 0)  # no reset method: nothing happens, no error


def test_tournament_games_reset_each_seat_before_play():
    env = moon_envs.make("jupiter_v0", num_players=3)
    a, b = RecordingAgent(1), RecordingAgent(2)
    play_game(env, [a, b, a], seed=0)
    assert a.resets == [("jupiter", 0), ("jupiter", 2)]
    assert b.resets == [("jupiter", 1)]


def test_single_agent_view_resets_its_opponents_every_episode():
    opp = RecordingAgent(3)
    env = moon_envs.make_single_agent("jupiter_v0", opponents=[opp], learner_seat=0)
    for episode in range(3):
        env.reset(seed=episode)
        assert len(opp.resets) == episode + 1
        assert opp.resets[-1] == ("jupiter", 1)


def test_single_agent_view_wants_a_built_env():
    from moon_envs.core.wrappers import SingleAgentEnv

    with pytest.raises(moon_envs.ConfigError, match="make_single_agent"):
        SingleAgentEnv("jupiter_v0")


def test_the_core_does_not_import_the_registry():
    core = Path(moon_envs.__file__).parent / "core"
    for path in core.glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                continue
            for name in names:
                assert not name.startswith("moon_envs.registry"), f"{path.name} imports {name}"
                assert name != "moon_envs" or not isinstance(node, ast.ImportFrom), (
                    f"{path.name} imports from the package root (which loads the registry)"
                )


@pytest.mark.parametrize("bad", [np.array(0.7), float("inf"), True, "3", [1]])
def test_single_agent_view_refuses_non_integer_actions_untouched(bad):
    env = moon_envs.make_single_agent("jupiter_v0", learner_seat=0)
    env.reset(seed=0)
    before = json.dumps(env.aec.get_state(), sort_keys=True)
    with pytest.raises(moon_envs.IllegalActionError):
        env.step(bad)
    assert json.dumps(env.aec.get_state(), sort_keys=True) == before
    legal = int(np.flatnonzero(env.action_masks())[0])
    env.step(np.int64(legal))  # numpy integers, as SB3 sends them, still play
