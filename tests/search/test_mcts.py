"""The MCTS agent on hand-built positions, with chance, seeds and hidden information."""

from __future__ import annotations

import numpy as np
import pytest

import moon_envs
from moon_agents.search import MCTSAgent
from moon_agents.zoo import make_agent
from moon_envs.core.game import CHANCE, TERMINAL
from moon_envs.core.view import AgentView
from tests.helpers import step_state
from tests.search.toy_games import CoinGame, NimGame, WideGame

# small games per game (env id without its version), so that many run in a few seconds
SMALL = {
    "moonstar": {"max_rounds": 1, "num_players": 3},
    "moonwakers": {"max_rounds": 4},
    "star_master": {"max_turns": 40},
}
# hidden-information variants of games whose default hides nothing
HIDDEN_VARIANTS = {
    "moonstar": [{"game": 11, "num_players": 3, "max_rounds": 1}],
}
# more variants whose searches must stay legal: memory modes, player counts
VARIANTS = {
    "star_master": [{"memory": "perfect", "num_players": 3}, {"memory": "decay"}],
    "moonwakers": [{"num_players": 4}],
}


def game_of(env_id: str) -> str:
    return env_id.rsplit("_v", 1)[0]


def test_finds_the_only_winning_move_in_nim():
    state = NimGame(heap=5).new_initial_state()
    agent = MCTSAgent(seed=3, simulations=400)
    assert agent.act(AgentView.of(state)) == 0  # take 1, leave 4
    visits = {a: v for a, (v, _) in agent.last.root.items()}
    assert visits[0] > visits[1] and visits[0] > visits[2]


def expectimax(state) -> np.ndarray:
    """Exact values (``returns("win")`` per seat) of a tiny position: each player
    maximises its own value, chance nodes average over their outcomes."""
    player = state.current_player()
    if player == TERMINAL:
        return state.returns("win")
    if player == CHANCE:
        total = np.zeros(state.game.spec.num_players)
        for outcome, p in state.chance_outcomes():
            child = state.clone()
            child.apply_action(outcome)
            total += p * expectimax(child)
        return total
    best = None
    for a in np.flatnonzero(state.legal_actions_mask()):
        child = state.clone()
        child.apply_action(int(a))
        value = expectimax(child)
        if best is None or value[player] > best[player]:
            best = value
    return best


def jupiter_endgame():
    """Three empty cells (C3, C4, D4), a probe each and one die left, player_0 (28 points)
    behind player_1 (39) and to move; only the probe on C3 (action 10, +18) wins."""
    from moon_envs.jupiter.rules import JupiterGame

    state = JupiterGame(num_players=2, random_first_player=False).new_initial_state()
    dice = {0: 5, 1: 6, 2: 6, 4: 4, 5: 5, 7: 2, 8: 3, 9: 4, 11: 5}  # cell -> face
    for cell, face in dice.items():
        state.place(cell, face=face)
    for cell in (3, 6, 12, 13):
        state.place(cell, seat=0)
    state.probes_left[:] = [1, 1]
    state.dice_left = 1
    state.points[:] = [28, 39]
    return state


def test_finds_the_winning_move_in_a_jupiter_endgame_with_chance():
    state = jupiter_endgame()
    values = {}
    for a in np.flatnonzero(state.legal_actions_mask()):
        child = state.clone()
        child.apply_action(int(a))
        values[int(a)] = expectimax(child)[0]
    assert [a for a, v in values.items() if v > 0.99] == [10]  # exact: only C3 wins
    assert max(v for a, v in values.items() if a != 10) < 0  # the others lose on average
    agent = MCTSAgent(seed=0, simulations=400)
    assert agent.act(AgentView.of(state)) == 10
    visits = {a: n for a, (n, _) in agent.last.root.items()}
    assert visits[10] == max(visits.values())


def test_chance_node_values_match_their_expectation():
    state = CoinGame(p_safe=0.6, p_risky=0.3).new_initial_state()
    agent = MCTSAgent(seed=0, simulations=4000, c=2.0)
    assert agent.act(AgentView.of(state)) == 1
    (n_risky, v_risky), (n_safe, v_safe) = agent.last.root[0], agent.last.root[1]
    assert n_risky + n_safe == 4000
    # standard errors are at most 1/sqrt(n); allow four of them
    assert abs(v_safe - 0.2) < 4 / np.sqrt(n_safe)
    assert abs(v_risky - (-0.4)) < 4 / np.sqrt(n_risky)


class FixedAgent:
    """Always plays ``move`` (a rollout policy for the tests)."""

    def __init__(self, move: int) -> None:
        self.move = move

    def act(self, view: AgentView) -> int:
        return self.move


def test_a_horizon_cuts_rollouts_and_values_them_by_score_gains():
    import random

    agent = MCTSAgent(seed=0, simulations=1, horizon=4)
    state = NimGame(heap=100).new_initial_state()
    assert agent._rollout(state, random.Random(0)) == []  # valued by the search, not here
    assert 100 - 3 * 4 <= state.heap <= 100 - 4  # exactly four moves of 1-3 stones
    state = NimGame(heap=100).new_initial_state()
    assert MCTSAgent(seed=0, simulations=1)._rollout(state, random.Random(0)) in (
        [1.0, -1.0],
        [-1.0, 1.0],
    )
    assert state.is_terminal()  # without a horizon the rollout plays to the end


def test_horizon_values_are_centred_score_gains_scaled_in_uct():
    """WideGame's scores are 0:1 before seat 0's pick, 1:0 after the winning one and 0:1
    after the others: with a horizon the root values are the centred score gains (+1 for
    the winning pick, 0 for the others), and the largest gain seen sets UCT's scale."""
    state = WideGame(width=3, winning=2).new_initial_state()
    agent = MCTSAgent(seed=0, simulations=30, horizon=1)
    assert agent.act(AgentView.of(state)) == 2
    means = {a: m for a, (_, m) in agent.last.root.items()}
    assert means[2] == 1.0 and means[0] == means[1] == 0.0
    assert agent._scale == 1.0


def test_progressive_widening_limits_the_children():
    state = WideGame().new_initial_state()
    agent = MCTSAgent(seed=0, simulations=100, widening=0.5)
    agent.act(AgentView.of(state))
    assert 2 <= len(agent.last.root) <= 10  # ceil(100 ** 0.5)
    plain = MCTSAgent(seed=0, simulations=100)
    assert plain.act(AgentView.of(state)) == 17
    assert len(plain.last.root) == 50  # plain UCT tries every move once


def test_the_rollout_agents_move_is_expanded_first():
    state = WideGame().new_initial_state()
    agent = MCTSAgent(seed=0, simulations=1, rollout_agent=FixedAgent(17))
    agent.act(AgentView.of(state))
    assert list(agent.last.root) == [17]
    # with widening, a good prior move is found where blind widening would miss it
    guided = MCTSAgent(seed=0, simulations=30, widening=0.5, rollout_agent=FixedAgent(17))
    assert guided.act(AgentView.of(state)) == 17
    blind = MCTSAgent(seed=0, simulations=30, widening=0.5)
    blind.act(AgentView.of(state))
    assert len(blind.last.root) <= 6 and blind.last.root.get(17, (0, 0))[0] <= 1


def _play(env_id: str, specs: list[str], seed: int, **params) -> list[int]:
    """One game through the AEC env; asserts every chosen action is legal."""
    env = moon_envs.make(env_id, **{**SMALL.get(game_of(env_id), {}), **params})
    env.reset(seed=seed)
    n = env.game.spec.num_players
    agents = [
        make_agent(specs[i % len(specs)], env.game.spec.name, seed=seed + i) for i in range(n)
    ]
    seat = {a: i for i, a in enumerate(env.possible_agents)}
    actions = []
    while env.agents:
        agent = env.agent_selection
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        action = agents[seat[agent]].act(env.agent_view(agent))
        assert obs["action_mask"][action] == 1, f"illegal action {action} in {env_id}"
        actions.append(action)
        env.step(action)
    return actions


PLAY_CASES = [
    (env_id, params)
    for env_id in moon_envs.list_envs()
    for params in [
        {},
        *HIDDEN_VARIANTS.get(game_of(env_id), []),
        *VARIANTS.get(game_of(env_id), []),
    ]
]


@pytest.mark.parametrize("env_id, params", PLAY_CASES, ids=[f"{e}-{p}" for e, p in PLAY_CASES])
def test_never_an_illegal_action(env_id, params):
    """Whole games with plain UCT, and with widening, a horizon and score rewards."""
    wide = "mcts:simulations=4,widening=0.5,horizon=5,reward=score"
    moves = 0
    for seed in range(12):
        specs = ["mcts:simulations=3", wide if seed % 2 else "random"]
        moves += len(_play(env_id, specs, seed, **params))
    assert moves >= 12 * 10  # whole games, not a few moves


def test_same_seed_same_moves():
    a = _play("jupiter_v0", ["mcts:simulations=20", "random"], seed=5)
    b = _play("jupiter_v0", ["mcts:simulations=20", "random"], seed=5)
    assert a == b


def test_rollout_agent_and_score_reward_play_legally():
    _play("jupiter_v0", ["mcts:simulations=4,rollout=greedy,reward=score", "greedy"], seed=1)


def test_time_budget_stops():
    state = moon_envs.make("jupiter_v0").game.new_initial_state()
    while state.current_player() == CHANCE:
        step_state(state, np.random.default_rng(0))
    agent = make_agent("mcts:seconds=0.05", "jupiter")
    agent.act(AgentView.of(state))
    assert agent.last.simulations >= 1 and agent.last.seconds < 0.5


def _hidden_positions():
    """Positions of every hidden-information game where the seat to move may not know
    something: yields (env_id, params, state, twin), the twin redrawn by ``resample`` for
    the seat to move (so it differs only in what that seat may not know)."""
    for env_id in moon_envs.list_envs():
        for params in HIDDEN_VARIANTS.get(game_of(env_id), [{}]):
            game = moon_envs.make(env_id, **params).game
            if not game.spec.hidden_information:
                continue
            rng = np.random.default_rng(0)
            state = game.new_initial_state()
            found = 0
            while not state.is_terminal() and found < 2:
                seat = state.current_player()
                if seat >= 0:
                    twin = state.resample(seat, np.random.default_rng(found + 99))
                    if twin.to_dict() != state.to_dict():
                        found += 1
                        yield env_id, params, state.clone(), twin
                step_state(state, rng)


def test_no_peek_decisions_ignore_what_the_seat_may_not_know():
    cases = list(_hidden_positions())
    assert cases, "no hidden-information position found"
    assert any(e == "moonstar_v1" for e, _, _, _ in cases)
    for env_id, params, state, twin in cases:
        seat = state.current_player()
        assert twin.current_player() == seat
        a = make_agent("mcts:simulations=30", state.game.spec.name, seed=7)
        b = make_agent("mcts:simulations=30", state.game.spec.name, seed=7)
        assert a.act(AgentView.of(state)) == b.act(AgentView.of(twin)), (env_id, params)
        assert a.last.root == b.last.root, env_id


def test_no_peek_on_moonstar_sealed_side_bets_built_by_hand():
    """Game 11: another seat's sealed side bet changed by hand (side, stake) leaves the
    seat to move with the same view, and MCTS with the same seed makes the same search."""
    import math

    game = moon_envs.make("moonstar_v1", game=11, num_players=3, max_rounds=4).game
    found = 0
    for seed in range(200):
        state = game.new_initial_state()
        rng = np.random.default_rng(seed)
        while not state.is_terminal():
            seat = state.current_player()
            others = [o for o in range(3) if o != seat and state.bet_stake[o] > 0]
            if seat >= 0 and state.phase == "bets" and others:
                break
            step_state(state, rng)
        else:
            continue
        other = others[0]
        twin = state.clone()
        twin.bet_side[other] = 1 - state.bet_side[other]
        k = 1 if twin.bet_side[other] == 1 else 0
        twin.bet_idx[other] = k
        fraction = game.config.bet_fractions[k]
        twin.bet_stake[other] = math.floor(fraction * max(0, int(state.points[other])) + 1e-9)
        twin._cache_mask = None
        assert twin.bet_stake[other] > 0 and twin.to_dict() != state.to_dict()
        assert np.array_equal(state.observation(seat), twin.observation(seat))
        assert np.array_equal(state.legal_actions_mask(), twin.legal_actions_mask())
        assert state.to_string(seat) == twin.to_string(seat)
        spec = "mcts:simulations=40,reward=score"  # scores feel any stake a peek would see
        a = make_agent(spec, "moonstar", seed=3)
        b = make_agent(spec, "moonstar", seed=3)
        assert a.act(AgentView.of(state, seat)) == b.act(AgentView.of(twin, seat))
        assert a.last.root == b.last.root
        found += 1
        if found == 3:
            break
    assert found == 3, "no sealed side bet found to vary"
