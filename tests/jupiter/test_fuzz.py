"""Random-play fuzz of Jupiter: closed-form scores, masks, reward accounting."""

from __future__ import annotations

import numpy as np
import pytest

import moon_envs
from moon_envs.jupiter.rules import JupiterGame
from tests.helpers import play_to_end, random_legal, step_state


def closed_form_scores(state) -> np.ndarray:
    """Each player's score = sum over their probes of the pips in the same row and column."""
    g = state.game
    owner, die = state.owner, state.die
    scores = np.zeros(g.config.num_players, dtype=np.int64)
    for c in np.flatnonzero(owner >= 0):
        scores[owner[c]] += die[g.lines[c]].sum()
    return scores


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("expanding", [False, True])
def test_final_scores_match_the_closed_form(players, expanding):
    if expanding and players == 4:
        pytest.skip("4 players always use the full board")
    game = JupiterGame(num_players=players, expanding_universe=expanding)
    for seed in range(100):
        state = game.new_initial_state()
        play_to_end(state, np.random.default_rng(seed))
        assert np.array_equal(state.points, closed_form_scores(state))
        assert state.probes_left.min() >= 0 and state.dice_left >= 0


@pytest.mark.parametrize("players", [2, 3, 4])
def test_black_moons_scores_never_negative(players):
    game = JupiterGame(num_players=players, black_moons=True)
    for seed in range(100):
        state = game.new_initial_state()
        rng = np.random.default_rng(seed)
        while not state.is_terminal():
            step_state(state, rng)
            assert state.points.min() >= 0


@pytest.mark.parametrize("players", [2, 4])
def test_score_mode_rewards_sum_to_the_final_scores(players):
    env = moon_envs.make("jupiter_v0", num_players=players, reward_mode="score")
    for seed in range(30):
        rng = np.random.default_rng(seed)
        env.reset(seed=seed)
        totals = dict.fromkeys(env.possible_agents, 0.0)
        for agent in env.agent_iter():
            obs, reward, term, trunc, _ = env.last()
            totals[agent] += reward
            env.step(None if term or trunc else random_legal(obs["action_mask"], rng))
        final = env.game_state.scores()
        assert [totals[a] for a in env.possible_agents] == pytest.approx(final.tolist())


def test_observation_is_from_the_observers_point_of_view():
    state = JupiterGame(random_first_player=False).new_initial_state()
    g = state.game
    state.apply_action(g.probe_action(0))  # player_0's probe on A1
    ch = g.num_channels
    o0 = state.observation(0)[:ch]
    o1 = state.observation(1)[:ch]
    assert o0[0] == 1 and o1[1] == 1  # "mine" for player_0, "next player's" for player_1
