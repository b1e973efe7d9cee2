"""Without the train extra (torch, sb3-contrib) a published ladder leaves out the shipped
MaskablePPO policies with a note and plays the rest, instead of stopping."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from moon_agents.cli.main import main
from moon_agents.evaluation.ladder.lineups import LADDERS, ladder_plan


@pytest.fixture
def no_train_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    """As if torch and sb3-contrib were not installed."""
    for module in ("torch", "sb3_contrib"):
        monkeypatch.setitem(sys.modules, module, None)


def test_with_the_extra_the_published_lineup_is_whole() -> None:
    pytest.importorskip("sb3_contrib")
    for env_id, published in LADDERS.items():
        plan = ladder_plan(env_id)
        assert plan.agents == published.agents and plan.skipped == {}, env_id


def test_without_it_the_policies_are_left_out_with_the_reason(no_train_extra: None) -> None:
    jupiter = ladder_plan("jupiter_v0")  # `trained` is a numpy network there: it stays
    assert "trained" in jupiter.agents and "trained-ppo" not in jupiter.agents
    assert "agents/trained/jupiter.zip" in jupiter.skipped["trained-ppo"]
    assert 'pip install "moon-envs[train]"' in jupiter.skipped["trained-ppo"]
    moonwakers = ladder_plan("moonwakers_v1")
    assert set(moonwakers.skipped) == {"trained-ppo"}
    assert "torch and sb3_contrib" in moonwakers.skipped["trained-ppo"]
    assert set(moonwakers.agents) == set(LADDERS["moonwakers_v1"].agents) - {"trained-ppo"}


def test_the_ladder_command_plays_on_with_a_note(
    no_train_extra: None, tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    out = io.StringIO()
    argv = ["ladder", "moonwakers_v1", "--games", "1", "--drop", "mcts-5", "--drop", "mcts-20"]
    argv += ["--drop", "trained-ppo", "--out", str(tmp_path / "l"), "--no-progress"]
    assert main(argv, stdout=out) == 0  # dropping a left-out agent is no error
    assert main([*argv[:-5], "--out", str(tmp_path / "m"), "--no-progress"], stdout=out) == 0
    err = capsys.readouterr().err
    assert "note: trained-ppo is left out of the ladder: it is the MaskablePPO policy" in err
    ladder = json.loads((tmp_path / "m" / "ladder.json").read_text())
    assert sorted(a["label"] for a in ladder["agents"]) == ["heuristic", "random", "trained"]
