"""The core protocol's own behaviour: win-mode returns, config errors, serialisation codec,
agent views."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest

from moon_envs.core.game import (
    ConfigError,
    check_choice,
    check_int,
    config_from_kwargs,
)
from moon_envs.core.snapshot import decode as _decode
from moon_envs.core.snapshot import encode as _encode
from moon_envs.core.view import AgentView
from moon_envs.jupiter.rules import JupiterGame


@pytest.mark.parametrize(
    "n,winners,expected",
    [
        (2, [0], [1.0, -1.0]),
        (4, [2], [-1 / 3, -1 / 3, 1.0, -1 / 3]),
        (4, [0, 3], [0.5, -0.5, -0.5, 0.5]),
        (3, [0, 1, 2], [0.0, 0.0, 0.0]),
    ],
)
def test_win_mode_returns_share_plus_and_minus_one(n, winners, expected, monkeypatch):
    state = JupiterGame(num_players=n).new_initial_state()
    state.stage = "over"
    monkeypatch.setattr(type(state), "_winners", lambda self: winners)
    ret = state.returns("win")
    assert ret.tolist() == pytest.approx(expected)
    assert ret.sum() == pytest.approx(0.0)


def test_returns_are_zero_before_the_end_and_bad_mode_is_named():
    state = JupiterGame().new_initial_state()
    assert state.returns().tolist() == [0.0, 0.0]
    assert state.winners() == []
    with pytest.raises(ConfigError, match="reward_mode"):
        state.returns("elo")


def test_config_helpers_name_fields_and_allowed_values():
    @dataclass(frozen=True)
    class Cfg:
        size: int = 3

    with pytest.raises(ConfigError, match=r"unknown parameter\(s\) \['sise'\].*\['size'\]"):
        config_from_kwargs(Cfg, {"sise": 4})
    with pytest.raises(ConfigError, match=r"size=9 is out of range; allowed: 1\.\.4"):
        check_int("size", 9, 1, 4)
    with pytest.raises(ConfigError, match="must be an integer"):
        check_int("size", True, 1, 4)
    with pytest.raises(ConfigError, match=r"mode='b'.*\['a', 'c'\]"):
        check_choice("mode", "b", ["a", "c"])


def test_game_accepts_a_config_or_keywords_but_not_both():
    g = JupiterGame(num_players=3)
    assert JupiterGame(g.config) == g == JupiterGame({"num_players": 3})
    with pytest.raises(ConfigError, match="not both"):
        JupiterGame(g.config, num_players=3)


def test_codec_roundtrips_the_field_types_states_use():
    values = {
        "arr": np.arange(6, dtype=np.int8).reshape(2, 3),
        "tup": (1, (2, 3)),
        "set": {3, 1},
        "nested": [{"a": (1,)}, None, 1.5, "s", True],
        "int_keys": {1: "x", 2: (3,)},
        "np_scalar": np.int64(4),
    }
    out = _decode(_encode(values))
    assert out["arr"].dtype == np.int8 and np.array_equal(out["arr"], values["arr"])
    assert out["tup"] == (1, (2, 3)) and out["set"] == {1, 3}
    assert out["nested"] == [{"a": (1,)}, None, 1.5, "s", True]
    assert out["int_keys"] == {1: "x", 2: (3,)} and out["np_scalar"] == 4


def test_agent_view_of_the_player_to_move_and_of_an_idle_player():
    state = JupiterGame(random_first_player=False).new_initial_state()
    view = AgentView.of(state)
    assert view.seat == 0 and view.action_mask.any()
    idle = AgentView.of(state, 1)
    assert not idle.action_mask.any()
    sampled = view.sample_state(np.random.default_rng(0))
    assert sampled == state and sampled is not state


def test_from_dict_without_a_game_rebuilds_tuple_config_fields():
    # tuple-valued config fields travel through JSON as {"__tuple__": ...}; from_dict must
    # rebuild the same config (hence an equal game) without the game being passed in
    import json

    from moon_envs.moon_harvesters.rules import HarvestersGame
    from moon_envs.moonstar.rules import MoonstarGame

    for game in (
        MoonstarGame(game=5, planets=(2, 3, 4, 5, 6, 7)),
        HarvestersGame(shapes=("##/##", "###")),
    ):
        state = game.new_initial_state()
        data = json.loads(json.dumps(state.to_dict()))
        back = type(state).from_dict(data)
        assert back.game == game and back.game.config == game.config
        assert back == state


def test_score_rewards_are_the_change_of_score_of_the_last_action():
    state = JupiterGame(random_first_player=False).new_initial_state()
    assert state.rewards("score").tolist() == [0.0, 0.0]  # nothing applied yet
    rng = np.random.default_rng(3)
    while not state.is_terminal():
        before = state.scores()
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.integers(len(outcomes))][0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        delta = state.rewards("score")
        assert delta.tolist() == (state.scores() - before).tolist()
        # "win" rewards are zero until the end, then the returns
        expected_win = state.returns("win") if state.is_terminal() else np.zeros(2)
        assert state.rewards("win").tolist() == expected_win.tolist()
