"""``python -m moon_agents.benchmarks.engine_breakdown``: the recorded steps replay, the
parts add up, and bad arguments are refused. (Timings are reported, never asserted.)"""

from __future__ import annotations

import copy

import pytest

import moon_envs
from moon_agents.benchmarks import engine_breakdown as eb


def test_recorded_steps_follow_one_another() -> None:
    """Each recorded position, with its recorded action applied, is the next recorded
    position (Moon Harvesters has no chance steps), unless the game ended there."""
    game = moon_envs.make("moon_harvesters_v0").game
    rec = eb.record(game, 120, seed=4)
    assert len(rec.decisions) == 120 and rec.chances == []
    followed = 0
    for (state, action, _), (nxt, _, _) in zip(rec.decisions, rec.decisions[1:]):
        after = copy.deepcopy(state)
        after.apply_action(action)
        if after.is_terminal():
            continue
        assert after.to_dict() == nxt.to_dict()
        followed += 1
    assert followed > 100


def test_timed_blocks_play_on_copies_of_the_recording() -> None:
    """A timed block applies moves to fresh copies: the recorded positions stay as they
    were, so every repeat of every block starts from the same positions."""
    game = moon_envs.make("moonwakers_v1").game
    rec = eb.record(game, 30, seed=2)
    before = [s.to_dict() for s, _, _ in rec.decisions]
    for state, action, _ in eb._fresh(rec.decisions, masked=True):
        state.apply_action(action)
    assert [s.to_dict() for s, _, _ in rec.decisions] == before


@pytest.mark.parametrize("env_id", ["jupiter_v0", "moon_harvesters_v0"])
def test_the_parts_add_up(env_id: str) -> None:
    game = moon_envs.make(env_id).game
    r = eb.breakdown(game, decisions=60, repeats=1, seed=1)
    assert set(eb.PARTS) <= set(r)
    assert all(r[p] >= 0.0 for p in eb.PARTS) and r["measured"] > 0.0
    assert r["sum"] == pytest.approx(sum(r[p] for p in eb.PARTS))
    if env_id == "jupiter_v0":  # a die is rolled before about a quarter of the decisions
        assert 0.1 < r["chance_per_decision"] < 0.5 and r["chance"] > 0.0
    else:
        assert r["chance_per_decision"] == 0.0 and r["chance"] == 0.0
    row = eb.table({env_id: r}).splitlines()[-1]
    assert row.startswith(f"| {env_id} | ") and row.count("|") == 10


def test_bad_arguments_are_refused(capsys: pytest.CaptureFixture) -> None:
    with pytest.raises(SystemExit) as exit_:
        eb.main(["jupiter", "--decisions", "10"])
    assert exit_.value.code == 2
    assert "unknown env id(s) ['jupiter']; allowed: ['jupiter_v0'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        eb.main(["jupiter_v0", "--repeats", "0"])
    assert "--decisions and --repeats must be at least 1" in capsys.readouterr().err


def test_main_prints_one_row_per_env(capsys: pytest.CaptureFixture) -> None:
    assert eb.main(["star_master_v0", "--decisions", "40", "--repeats", "1"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("| env | measured µs/decision |")
    assert len(out) == 3 and out[2].startswith("| star_master_v0 | ")
