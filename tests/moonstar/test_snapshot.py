"""Moonstar positions rebuilt from untrusted snapshots: every bad field is named."""

from __future__ import annotations

import json

import numpy as np
import pytest

import moon_envs
from moon_envs import ConfigError


def snapshot_in_play() -> tuple[moon_envs.core.aec.MoonAECEnv, dict]:
    """A JSON snapshot of a 3-player Game 12 env in the play phase."""
    env = moon_envs.make("moonstar_v1", game=12, num_players=3)
    rng = np.random.default_rng(0)
    for seed in range(50):
        env.reset(seed=seed)
        while env.agents and not env.game_state.is_terminal():
            if env.game_state.phase == "play" and env.game_state.moves_done >= 2:
                return env, json.loads(json.dumps(env.get_state()))
            mask = env.observe(env.agent_selection)["action_mask"]
            env.step(int(rng.choice(np.flatnonzero(mask))))
    raise AssertionError("no play phase reached")


def flip_first(values: list, old) -> None:
    """Flip the first entry equal to ``old``."""
    i = values.index(old)
    values[i] = not old


def flip(values: list, i: int) -> None:
    values[i] = 1 - values[i]


CORRUPTIONS = [
    (lambda s: s.update(phase="x"), r"phase='x' is not allowed; allowed values: \['first'"),
    (lambda s: s.update(rules_idx=40), r"rules_idx=40 is out of range; allowed: 0..10"),
    (lambda s: s.update(rules_idx=-5), r"rules_idx=-5 is out of range"),
    (lambda s: s.update(organizer=3), r"organizer=3 is out of range; allowed: 0..2"),
    (lambda s: s.update(excluded=7), r"excluded=7 is out of range"),
    (lambda s: s.update(moves_done=-1), r"moves_done=-1 is out of range"),
    (lambda s: s["moon_star"]["__ndarray__"].__setitem__(0, 100), r"moon_star\[0\]=100"),
    (lambda s: flip_first(s["moon_moved"]["__ndarray__"], False), "moves_done=.* disagrees"),
    (lambda s: s["dice"]["__ndarray__"].__setitem__(0, 9), r"dice\[0\]=9 is out of range"),
    (lambda s: s.update(high_bid=71), r"high_bid=71 is out of range; allowed: 2..70"),
    (lambda s: s.update(bidder=-1), "bidder=-1 disagrees with high_bid"),
    (lambda s: s.update(red_star=20), r"red_star=20 is out of range"),
    (lambda s: s["board"]["__ndarray__"].__setitem__(0, 0.5), "board disagrees"),
    (lambda s: flip(s["play_block"]["__ndarray__"][0][0], 0), "play_block disagrees"),
    (lambda s: s.update(to_act=2 if s["to_act"] != 2 else 1), "to_act=.* disagrees"),
    (lambda s: s["bet_side"]["__ndarray__"].__setitem__(0, 3), r"bet_side\[0\]=3"),
    (lambda s: s.update(planets_to_place=[99]), "planets_to_place"),
]


@pytest.mark.parametrize("change,message", CORRUPTIONS)
def test_a_corrupt_field_is_refused_naming_it_and_nothing_changes(change, message):
    env, snap = snapshot_in_play()
    env.set_state(snap)  # the intact snapshot loads
    before = json.dumps(env.get_state(), sort_keys=True)
    change(snap["state"]["state"])
    with pytest.raises(ConfigError, match=message):
        env.set_state(snap)
    assert json.dumps(env.get_state(), sort_keys=True) == before


def test_snapshots_along_random_games_of_every_preset_validate():
    rng = np.random.default_rng(1)
    for game in range(1, 13):
        env = moon_envs.make("moonstar_v1", game=game, num_players=3, max_rounds=3)
        env.reset(seed=game)
        while env.agents and not env.game_state.is_terminal():
            env.set_state(json.loads(json.dumps(env.get_state())))
            mask = env.observe(env.agent_selection)["action_mask"]
            env.step(int(rng.choice(np.flatnonzero(mask))))


def snapshot_after_a_round() -> tuple[moon_envs.core.aec.MoonAECEnv, dict]:
    """A JSON snapshot taken right after a round ended (its report is in the position)."""
    env = moon_envs.make("moonstar_v1", num_players=3, game=10)
    rng = np.random.default_rng(2)
    env.reset(seed=2)
    while env.game_state.report is None or env.game_state.report["no_bid"]:
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))
    return env, json.loads(json.dumps(env.get_state()))


def _report_edit(key, value):
    def edit(s):
        s["report"][key] = value

    return edit


REPORT_CORRUPTIONS = [
    (lambda s: s.update(report="x"), "report must be null or a round report mapping"),
    (lambda s: s.update(report=[1, 2, 3]), "report must be null or a round report mapping"),
    (lambda s: s.update(report={"a": 1}), "report has keys"),
    (lambda s: s["report"].pop("bid"), "report has keys"),
    (lambda s: s["report"].update(extra=1), "report has keys"),
    (_report_edit("bid", "x"), "report.bid must be an integer"),
    (_report_edit("bid", 1.5), "report.bid must be an integer"),
    (_report_edit("bidder", 9), r"report.bidder=9 is out of range"),
    (_report_edit("made", 1), "report.no_bid and report.made must be true or false"),
    (_report_edit("score_changes", [1, 2]), "report.score_changes must be a list of 3"),
    (_report_edit("score_changes", [0, "x", 0]), r"report.score_changes\[1\]"),
    (_report_edit("challengers", [7]), r"report.challengers\[0\]=7"),
    (_report_edit("best_total", -3), "report.best_total=-3"),
    (_report_edit("achieved", float("nan")), "not allowed; snapshot numbers are finite"),
]


@pytest.mark.parametrize("change,message", REPORT_CORRUPTIONS)
def test_a_corrupt_round_report_is_refused_and_nothing_changes(change, message):
    env, snap = snapshot_after_a_round()
    assert snap["state"]["state"]["report"] is not None
    env.set_state(snap)
    assert "round_report" in env.game_state.info()
    before = json.dumps(env.get_state(), sort_keys=True, allow_nan=False)
    change(snap["state"]["state"])
    with pytest.raises(ConfigError, match=message):
        env.set_state(snap)
    assert json.dumps(env.get_state(), sort_keys=True, allow_nan=False) == before


def test_non_finite_numbers_are_refused_anywhere_in_a_snapshot():
    env, snap = snapshot_in_play()
    for edit in (
        lambda s: s["state"]["state"].update(report={"a": float("nan")}),
        lambda s: s["state"]["state"]["board"]["__ndarray__"].__setitem__(0, float("inf")),
        lambda s: s["state"]["state"].update(_scores_before=float("nan")),
        lambda s: s["infos"]["player_0"].update(x=float("-inf")),
    ):
        bad = json.loads(json.dumps(snap))
        edit(bad)
        with pytest.raises(ConfigError, match=r"finite|non-finite"):
            env.set_state(bad)
        json.dumps(env.get_state(), allow_nan=False)  # still strict JSON
