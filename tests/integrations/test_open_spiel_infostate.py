"""Perfect-recall information states of the games that hide information, and OpenSpiel's
imperfect-information algorithms (MCCFR, ISMCTS, CFR) on them."""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")
from open_spiel.python.algorithms import cfr, ismcts, mcts, outcome_sampling_mccfr  # noqa: E402

from moon_envs.integrations.open_spiel import load_game  # noqa: E402
from moon_envs.integrations.open_spiel_infostate import (  # noqa: E402
    DECLARED_BUDGET,
    MAX_ROWS,
    default_max_rows,
)

# short configurations of the three games that hide information
HIDDEN = [
    ("star_master_v0", {"max_turns": 10}),
    ("star_master_v0", {"max_turns": 10, "memory": "decay", "num_players": 3}),
    ("moonwakers_v1", {"max_rounds": 1}),
    ("moonstar_v1", {"game": 11, "max_rounds": 1}),
]
IDS = [f"{e}-{p}" for e, p in HIDDEN]
# the smallest Star Master whose game tree exact CFR walks (docs/integrations.md)
CFR_CONFIG = {"num_colours": 6, "max_turns": 1, "children": True, "white_faces": [0]}


def _play(state, rng, steps):
    """Apply ``steps`` random actions and chance outcomes (fewer if the game ends)."""
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


def _views(state, seat):
    """Seat ``seat``'s information-state string and tensor (through the observer, which
    gives the tensor whether or not the game type declares it)."""
    game = state.get_game()
    observer = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    observer.set_from(state, seat)
    string = observer.string_from(state, seat)
    assert string == state.information_state_string(seat)
    return string, observer.tensor.copy()


def _sealed_twins(game, seed_count=60):
    """States ``(a, b, mover, seat)``: the same history but for ``mover``'s last action,
    two actions ``seat`` is shown alike (a sealed choice)."""
    for seed in range(seed_count):
        rng = np.random.default_rng(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            mover = state.current_player()
            if mover >= 0:
                legal = state.legal_actions()
                for seat in range(game.num_players()):
                    if seat == mover:
                        continue
                    moon = state.moon_state
                    seen = {}
                    for action in legal:
                        seen.setdefault(moon.action_to_public_string(action, seat), []).append(
                            action
                        )
                    alike = next((acts for acts in seen.values() if len(acts) > 1), None)
                    if alike:
                        a, b = state.child(alike[0]), state.child(alike[1])
                        return a, b, mover, seat
            _play(state, rng, 1)
    raise AssertionError("no sealed choice found")


@pytest.mark.parametrize("env_id, params", HIDDEN, ids=IDS)
def test_information_state_is_declared_and_has_a_fixed_size(env_id, params):
    game = load_game(env_id, **params)
    game_type = game.get_type()
    assert game_type.provides_information_state_string
    row = int(np.prod(game.observation_tensor_shape())) + game.num_distinct_actions()
    size = default_max_rows(game.moon_game) * row
    # declared where the default tensor is small (every short Star Master here)
    assert game_type.provides_information_state_tensor == (size <= DECLARED_BUDGET)
    if env_id == "star_master_v0":
        assert game_type.provides_information_state_tensor
        assert game.information_state_tensor_shape() == [size]
    state = _play(game.new_initial_state(), np.random.default_rng(0), 30)
    for seat in range(game.num_players()):
        string, tensor = _views(state, seat)
        assert string.startswith("obs ")
        assert tensor.shape == (size,)
        if game_type.provides_information_state_tensor:
            assert np.array_equal(state.information_state_tensor(seat), tensor)


@pytest.mark.parametrize("env_id, params", HIDDEN, ids=IDS)
def test_a_sealed_choice_leaves_the_other_seats_information_state_alike(env_id, params):
    game = load_game(env_id, **params)
    a, b, mover, seat = _sealed_twins(game)
    assert a.history() != b.history()
    string_a, tensor_a = _views(a, seat)
    string_b, tensor_b = _views(b, seat)
    assert string_a == string_b
    assert np.array_equal(tensor_a, tensor_b)
    # the mover knows what it chose
    assert _views(a, mover)[0] != _views(b, mover)[0]
    assert not np.array_equal(_views(a, mover)[1], _views(b, mover)[1])


def test_perfect_recall_keeps_what_the_observation_forgot():
    """Star Master (memory="none"): two layouts that differ in two slots seat 0 never
    flips. Once its window forgets the layout, its observation is the same in both,
    but its information state (which saw the layout at set-up) is not."""
    game = load_game("star_master_v0", max_turns=4, children=True)
    rng = np.random.default_rng(3)
    state, twin = game.new_initial_state(), game.new_initial_state()
    k = game.moon_game.config.num_colours
    setup = []
    while state.moon_state.setup_index < k:  # the set-up chance nodes place the cubes
        setup.append(state.chance_outcomes()[0][0])
        state.apply_action(setup[-1])
    for outcome in [*setup[:-3], setup[-2], setup[-3], setup[-1]]:
        twin.apply_action(outcome)
    assert state.observation_string(0) != twin.observation_string(0)  # layouts shown
    forgot = False
    while not state.is_terminal() and not forgot:
        _play(state, rng, 1)
        action = state.history()[-1]
        if action not in twin.legal_actions() and action not in dict(twin.chance_outcomes()):
            break
        twin.apply_action(action)
        if np.array_equal(state.observation_tensor(0), twin.observation_tensor(0)):
            forgot = True
    assert forgot, "seat 0's observation never forgot the layout"
    assert _views(state, 0)[0] != _views(twin, 0)[0]
    assert not np.array_equal(_views(state, 0)[1], _views(twin, 0)[1])


def test_observer_refuses_a_bad_row_count_and_an_overlong_history():
    game = load_game("star_master_v0", max_turns=10)
    recall = pyspiel.IIGObservationType(perfect_recall=True)
    with pytest.raises(ValueError, match=rf"max_rows=0 is out of range; allowed: 1..{MAX_ROWS}"):
        game.make_py_observer(recall, {"max_rows": 0})
    with pytest.raises(ValueError, match="allowed: max_rows"):
        game.make_py_observer(recall, {"rows": 3})
    public = pyspiel.IIGObservationType(
        perfect_recall=True, private_info=pyspiel.PrivateInfoType.NONE
    )
    with pytest.raises(ValueError, match=r"private_info=PrivateInfoType\.SINGLE_PLAYER"):
        game.make_py_observer(public)
    state = _play(game.new_initial_state(), np.random.default_rng(0), 40)
    small = game.make_py_observer(recall, {"max_rows": 1})
    with pytest.raises(ValueError, match=r"more than the tensor's max_rows=1;"):
        small.set_from(state, 0)


@pytest.mark.parametrize("env_id, params", HIDDEN, ids=IDS)
def test_outcome_sampling_mccfr_runs(env_id, params):
    game = load_game(env_id, **params)
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    for _ in range(3):
        solver.iteration()
    assert solver._infostates  # regrets were stored per information state
    for values in solver._infostates.values():
        assert np.isfinite(values).all()


@pytest.mark.parametrize("env_id, params", HIDDEN, ids=IDS)
def test_ismcts_bot_plays_moves(env_id, params):
    game = load_game(env_id, **params)
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    bot = ismcts.ISMCTSBot(game, evaluator, 1.4, 10, random_state=np.random.RandomState(0))
    state, rng, moves = game.new_initial_state(), np.random.default_rng(0), 0
    while not state.is_terminal() and moves < 3:
        if state.is_chance_node():
            _play(state, rng, 1)
            continue
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        moves += 1
    assert moves == 3 or state.is_terminal()


def test_ismcts_determinisation_keeps_the_seats_information_state():
    game = load_game("star_master_v0", max_turns=10)
    state = _play(game.new_initial_state(), np.random.default_rng(1), 25)
    while state.is_chance_node():
        _play(state, np.random.default_rng(0), 1)
    seat = state.current_player()
    sampled = state.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert sampled.information_state_string(seat) == state.information_state_string(seat)
    assert sampled.observation_string(seat) == state.observation_string(seat)
    assert sampled.legal_actions() == state.legal_actions()


def test_exact_cfr_iterates_on_the_smallest_star_master():
    """Two iterations over the whole tree (6,997 nodes, 720 information states)."""
    game = load_game("star_master_v0", **CFR_CONFIG)
    solver = cfr.CFRSolver(game)
    assert len(solver.current_policy().state_lookup) == 720
    for _ in range(2):
        solver.evaluate_and_update_policy()
    policy = solver.average_policy().action_probability_array
    assert np.allclose(policy.sum(axis=1), 1.0)
    # seat 0 saw the layout: the average leans to one flip instead of the uniform start
    assert (policy.max(axis=1) > 0.5).all()
