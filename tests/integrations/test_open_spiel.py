"""Every registered game (and Moonstar's twelve Games) passes OpenSpiel's random_sim_test."""

from __future__ import annotations

import numpy as np
import pytest

import moon_envs

pyspiel = pytest.importorskip("pyspiel")
from moon_envs.integrations.open_spiel import load_game, register_all  # noqa: E402

# per env id: parameter sets to test (presets and variants); others get the defaults
VARIANTS = {
    "jupiter_v0": [{}, {"num_players": 4, "black_moons": True}, {"expanding_universe": True}],
    "moonstar_v1": [{"game": n, "max_rounds": 1} for n in range(1, 13)]
    + [{"game": "5", "planets": [3, 5, 8], "max_rounds": 1}],
    "moon_harvesters_v0": [{}, {"num_players": 3}, {"shapes": ["L", "X"], "rows": 10, "cols": 10}],
    "star_master_v0": [
        {"num_players": n, "memory": m, **v}
        for n, m, v in [
            (2, "none", {}),
            (3, "perfect", {"competition": True, "max_turns": 40}),
            (4, "decay", {"children": True}),
            (6, "none", {"max_turns": 40}),  # 2 and 4 players play whole games: enough
        ]
    ]
    + [{"num_players": 1, "solitaire": True, "memory": "perfect"}],
    # full games take about 25 s of information states at 6 players: a few rounds suffice
    "moonwakers_v1": [
        {"num_players": 2},
        {"num_players": 3, "max_rounds": 8},
        {"num_players": 6, "max_rounds": 4},
    ],
}
CASES = [(e, p) for e in moon_envs.list_envs() for p in VARIANTS.get(e, [{}])]


@pytest.mark.parametrize("env_id, params", CASES, ids=[f"{e}-{p}" for e, p in CASES])
def test_random_sim_test(env_id, params):
    game = load_game(env_id, **params)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    # the game string loads back to the same rules (parameters typed to survive it)
    again = pyspiel.load_game(str(game))
    assert str(again) == str(game)
    assert again.new_initial_state().moon_state.game.config == game.moon_game.config


def test_python_values_and_command_line_strings_become_the_declared_types():
    from moon_envs.integrations.open_spiel import spiel_params

    typed = spiel_params(
        "moonstar_v1",
        {"game": "3", "side_bets": True, "max_rounds": "2", "planets": [3, 5, 8],
         "move_budget": None, "count_rule": "equal", "dealer_menu": [1, {"scoring": "squares"}]},
    )  # fmt: skip
    assert typed == {
        "game": 3, "side_bets": 1, "max_rounds": 2, "planets": "3;5;8", "move_budget": -1,
        "count_rule": "equal", "dealer_menu": '[1,{"scoring":"squares"}]',
    }  # fmt: skip
    assert load_game("moonstar_v1", first_organizer=2).moon_game.config.first_organizer == 2
    game = load_game("moonstar_v1", game=12, dealer_menu=[1, {"scoring": "squares"}])
    assert dict(game.moon_game.config.dealer_menu[1]) == {"scoring": "squares"}
    with pytest.raises(moon_envs.ConfigError, match="planets="):
        load_game("moonstar_v1", planets="3 5 8")
    for bad, message in [
        ("9" * 5000, "planets=.* is not allowed"),
        ("[" * 5000 + "]" * 5000, "nested too deeply"),
        ("zz" + "x" * 100_000, "a value of 100,002 characters"),
        ('{"a": 1, "a": 2}', "duplicate key 'a'"),
    ]:
        with pytest.raises(moon_envs.ConfigError, match=message) as err:
            pyspiel.load_game("moon_envs_moonstar_v1", {"planets": bad})
        assert len(str(err.value)) < 400


def test_every_env_is_registered_and_types_follow_the_spec():
    names = register_all()
    assert set(names) == set(moon_envs.list_envs())
    for env_id, short in names.items():
        game = pyspiel.load_game(short)
        spec = moon_envs.make(env_id).game.spec
        assert game.num_distinct_actions() == spec.num_actions
        assert game.max_chance_outcomes() == spec.max_chance_outcomes
        assert game.num_players() == spec.num_players
        info = pyspiel.GameType.Information
        want = info.IMPERFECT_INFORMATION if spec.hidden_information else info.PERFECT_INFORMATION
        assert game.get_type().information == want


def test_chance_nodes_and_observations_match_the_rules_state():
    game = load_game("jupiter_v0")
    state = game.new_initial_state()
    rng = np.random.default_rng(0)
    saw_chance = False
    while not state.is_terminal():
        moon = state.moon_state
        if state.is_chance_node():
            saw_chance = True
            assert state.chance_outcomes() == [(o, p) for o, p in moon.chance_outcomes()]
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            p = state.current_player()
            assert state.legal_actions() == moon.legal_actions()
            assert np.array_equal(state.observation_tensor(p), moon.observation(p).ravel())
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert saw_chance
    assert state.returns() == state.moon_state.returns("win").tolist()


def test_bad_parameter_is_refused():
    with pytest.raises(Exception, match="num_players"):
        load_game("jupiter_v0", num_players=9)


def test_mcts_against_open_spiel_mctsbot_plays_whole_games():
    from moon_agents.benchmarks.search_vs_open_spiel import play_case

    ours, theirs = play_case("jupiter_v0", {}, simulations=5, games=2, c=1.4, seed=0)
    assert ours.seat_games == theirs.seat_games == 2
    assert 0 <= ours.points + theirs.points <= 2
    assert ours.simulations > 0 and theirs.simulations > 0


def test_benchmark_refuses_hidden_information_variants():
    from moon_agents.benchmarks.search_vs_open_spiel import play_case

    with pytest.raises(ValueError, match="hides information"):
        play_case("moonstar_v1", {"game": 11, "max_rounds": 1}, 2, 1, 1.4, 0)
