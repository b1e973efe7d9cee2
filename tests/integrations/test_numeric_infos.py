"""numeric_infos: the same int64 keys and shapes at every step of every game, values that
follow the env's own infos, and those own infos (text included) unchanged beside them."""

from __future__ import annotations

import copy

import numpy as np
import pytest

import moon_envs
from moon_envs.integrations.numeric_infos import numeric_infos
from tests.helpers import random_legal

CASES = [
    ("jupiter_v0", {}),
    ("moonstar_v1", {"num_players": 3, "max_rounds": 2}),
    ("moon_harvesters_v0", {}),
    ("star_master_v0", {"num_players": 3}),
    ("star_master_v0", {"num_players": 1, "solitaire": True}),
    ("moonwakers_v1", {"num_players": 3}),
    ("jupiter_v0", {"illegal_action": "penalize"}),
]


def _play(env_id: str, params: dict, seed: int, max_steps: int = 3000):
    """A random game through the wrapper, with a plain env in lockstep; yields after each
    reset or step (wrapped env, plain env, the last action)."""
    env, plain = numeric_infos(moon_envs.make(env_id, **params)), moon_envs.make(env_id, **params)
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    plain.reset(seed=seed)
    yield env, plain, None
    for steps, agent in enumerate(env.agent_iter()):
        assert steps < max_steps, "game did not end"
        obs, _, term, trunc, info = env.last()
        assert info is env.infos[agent]
        action = None if term or trunc else random_legal(obs["action_mask"], rng)
        env.step(action)
        plain.step(action)
        yield env, plain, action


@pytest.mark.parametrize(("env_id", "params"), CASES, ids=[f"{e}-{p}" for e, p in CASES])
def test_every_info_is_fixed_int64_arrays_and_the_env_infos_are_unchanged(env_id, params):
    seen: dict[str, set] = {}
    for env, plain, _ in _play(env_id, params, seed=1):
        for agent, info in env.infos.items():
            space = env.info_space(agent)
            assert set(info) == set(space.spaces), (agent, info)
            for key, value in info.items():
                assert isinstance(value, np.ndarray) and value.dtype == np.int64, key
                assert value.shape == space[key].shape, key
                seen.setdefault(key, set()).add(value.tobytes())
            assert space.contains(info)
        assert env.unwrapped.infos == plain.infos  # the text forms stay where they were
        assert set(env.infos) == set(plain.infos)
    if env_id != "jupiter_v0":  # infos that move: some field took several values
        assert any(len(values) > 1 for values in seen.values()), seen


def test_star_master_none_and_lists_become_fixed_vectors():
    races = 0
    for env, _, _ in _play("star_master_v0", {"num_players": 3}, seed=2):
        for agent, info in env.infos.items():
            raw = env.unwrapped.infos[agent]
            race = raw.get("last_race")
            want = [-2, -2, -2] if race is None else race
            assert info["last_race"].tolist() == want
            flip = raw.get("last_flip")
            keys = ("seat", "slot", "colour", "found")
            got = [int(info[f"last_flip_{k}"]) for k in keys]
            assert got == ([-1] * 4 if flip is None else [int(flip[k]) for k in keys])
            races += race is not None
    assert races > 0


def test_moon_harvesters_phase_is_a_code_and_last_action_the_action_applied():
    from moon_envs.moon_harvesters.constants import ALL_PHASES

    for env, _, action in _play("moon_harvesters_v0", {}, seed=3, max_steps=60):
        for agent, info in env.infos.items():
            raw = env.unwrapped.infos[agent]
            assert ALL_PHASES[int(info["phase"])] == raw["phase"]
            expected = -1 if raw["last_action"] == "" else action
            if action is not None:
                assert int(info["last_action"]) == expected
        if action is None:
            break


def test_moonstar_round_report_fields_follow_the_report():
    reports = 0
    for env, _, _ in _play("moonstar_v1", {"num_players": 3, "max_rounds": 3}, seed=4):
        if "player_0" not in env.infos:  # done and removed at the end of the game
            continue
        info = env.infos["player_0"]
        report = env.unwrapped.infos["player_0"].get("round_report")
        if report is None:
            assert int(info["round_report_round"]) == -1
            assert info["round_report_score_changes"].tolist() == [0, 0, 0]
            continue
        reports += 1
        assert int(info["round_report_round"]) == report["round"]
        assert info["round_report_score_changes"].tolist() == report["score_changes"]
        assert int(info["round_report_no_bid"]) == int(report["no_bid"])
        if not report["no_bid"]:
            assert int(info["round_report_made"]) == int(report["made"])
            members = [int(s in report["challengers"]) for s in range(3)]
            assert info["round_report_challengers"].tolist() == members
            assert info["round_report_side_bets"].tolist() == report["side_bets"]
    assert reports > 0


def test_an_illegal_action_under_penalize_is_in_the_numeric_infos():
    env = numeric_infos(moon_envs.make("jupiter_v0", illegal_action="penalize"))
    env.reset(seed=0)
    assert int(env.infos["player_1"]["illegal_action_agent"]) == -1
    agent = env.agent_selection
    illegal = int(np.flatnonzero(env.action_mask() == 0)[0])
    env.step(illegal)
    for info in env.infos.values():
        assert int(info["illegal_action_agent"]) == int(agent.split("_")[1])
        assert int(info["illegal_action_action"]) == illegal


def _as_lists(infos: dict) -> dict:
    return {a: {k: v.tolist() for k, v in info.items()} for a, info in infos.items()}


def test_set_state_brings_the_numeric_infos_back():
    env = numeric_infos(moon_envs.make("moon_harvesters_v0"))
    env.reset(seed=0)
    at_start, snapshot = _as_lists(env.infos), env.get_state()
    rng = np.random.default_rng(0)
    for _ in range(5):
        env.step(random_legal(env.action_mask(), rng))
    assert _as_lists(env.infos) != at_start
    env.set_state(snapshot)
    assert _as_lists(env.infos) == at_start
    assert _as_lists(copy.deepcopy(env).infos) == at_start


def test_an_info_field_without_a_numeric_form_is_named(monkeypatch):
    env = numeric_infos(moon_envs.make("moonwakers_v1", num_players=2))
    state_class = type(env.unwrapped.game.new_initial_state())
    original = state_class.info
    monkeypatch.setattr(state_class, "info", lambda self: {**original(self), "mood": "calm"})
    with pytest.raises(ValueError, match=r"\['mood'\] of moonwakers_v1 have no numeric form"):
        env.reset(seed=0)


def test_only_moon_envs_are_wrapped():
    from pettingzoo import AECEnv

    class OtherGame(AECEnv):
        pass

    with pytest.raises(moon_envs.ConfigError, match="wraps a moon-envs AEC env, got OtherGame"):
        numeric_infos(OtherGame())
