"""``train --resume RUN``: a killed or interrupted run continues from its last resume
point; on a CPU the JAX trainers then give the rows of an uninterrupted run, and folders
that are not run folders, or were written with another config or a newer version, are
refused and left untouched."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("jax")
pytest.importorskip("equinox")
pytest.importorskip("optax")

from moon_agents.training.config import parse_config
from moon_agents.training.train import train
from moon_envs.core.game import ConfigError

ENV = {"id": "jupiter_v0", "params": {"num_players": 2}}
ALGORITHMS: dict[str, dict[str, Any]] = {
    "alphazero": {
        "name": "alphazero",
        "games": 8,
        "unroll": 8,
        "simulations": 2,
        "max_considered_actions": 4,
        "hidden": [16],
        "batch_size": 16,
        "replay_size": 100,  # the buffer wraps around before the interruption
    },
    "jax_ppo": {
        "name": "jax_ppo",
        "num_envs": 8,
        "num_steps": 8,
        "num_minibatches": 2,
        "hidden": [16],
        "pool_size": 2,
        "snapshot_every": 1,
    },
}


def _config(out: Path, algorithm: str, run_name: str, **budget: Any) -> Any:
    return parse_config(
        {
            "name": "resume_tiny",
            "seed": 4,
            "env": ENV,
            "algorithm": ALGORITHMS[algorithm],
            "budget": {"total_timesteps": 320, **budget},
            "eval": {"every_timesteps": 128, "games": 2, "opponents": ["random"]},
            "export": "last",
            "output": {"dir": str(out), "run_name": run_name, "progress_bar": False, "plot": False},
        }
    )


class _Killed(Exception):
    """Stands for ``kill -9``: the run stops where it is, writing nothing more."""


def _kill_after(monkeypatch: pytest.MonkeyPatch, trainer_class: Any, iterations: int) -> None:
    real = trainer_class.iteration
    calls = {"n": 0}

    def iteration(self: Any) -> dict:
        calls["n"] += 1
        if calls["n"] > iterations:
            raise _Killed
        return real(self)

    monkeypatch.setattr(trainer_class, "iteration", iteration)


def _trainer_class(algorithm: str) -> Any:
    if algorithm == "alphazero":
        from moon_agents.training.jax.alphazero import AlphaZero

        return AlphaZero
    from moon_agents.training.jax.ppo import JaxPPO

    return JaxPPO


@pytest.mark.parametrize("algorithm", ["alphazero", "jax_ppo"])
def test_a_killed_run_resumes_to_the_rows_of_an_uninterrupted_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, algorithm: str
) -> None:
    whole = train(_config(tmp_path, algorithm, "whole"), progress=False)
    expected = (whole.run_dir / "metrics.csv").read_text()

    # killed after 3 iterations of 64 decisions: past the evaluation at 128, before 256
    with monkeypatch.context() as m:
        _kill_after(m, _trainer_class(algorithm), 3)
        with pytest.raises(_Killed):
            train(_config(tmp_path, algorithm, "killed"), progress=False)
    run = tmp_path / "killed"
    assert [r["timesteps"] for r in json.loads((run / "metrics.json").read_text())] == [0, 128]
    assert not (run / "summary.json").exists()

    resumed = train(_config(tmp_path, algorithm, "killed"), progress=False, resume=run)
    assert resumed.run_dir == run and resumed.timesteps == 320
    assert (run / "metrics.csv").read_text() == expected
    summary = json.loads((run / "summary.json").read_text())
    assert summary["resumed_from_timesteps"] == [128]
    assert not [p for p in run.rglob(".*") if p.name != ".moon-envs-run.json"]  # no temp files


def test_ctrl_c_rows_are_dropped_and_a_budget_can_be_extended(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from moon_agents.training.jax.ppo import JaxPPO

    real = JaxPPO.iteration
    calls = {"n": 0}

    def iteration(self: Any) -> dict:
        calls["n"] += 1
        if calls["n"] > 3:
            raise KeyboardInterrupt
        return real(self)

    monkeypatch.setattr(JaxPPO, "iteration", iteration)
    first = train(_config(tmp_path, "jax_ppo", "run"), progress=False)
    assert first.interrupted and [r["timesteps"] for r in first.metrics] == [0, 128, 192]
    monkeypatch.setattr(JaxPPO, "iteration", real)
    # the row written at Ctrl-C (192) is not a resume point; the budget grows to 384
    config = _config(tmp_path, "jax_ppo", "run", total_timesteps=384)
    resumed = train(config, progress=False, resume=first.run_dir)
    steps = [r["timesteps"] for r in json.loads((first.run_dir / "metrics.json").read_text())]
    assert steps == [0, 128, 256, 384]
    assert resumed.timesteps == 384
    assert "total_timesteps: 384" in (first.run_dir / "config.yaml").read_text()


def test_folders_that_cannot_be_resumed_are_refused_untouched(tmp_path: Path) -> None:
    run = train(_config(tmp_path, "jax_ppo", "run", total_timesteps=64), progress=False).run_dir
    before = {p: p.stat().st_mtime_ns for p in run.rglob("*")}

    other = _config(tmp_path, "jax_ppo", "run")
    other.algorithm.learning_rate = 0.5
    with pytest.raises(ConfigError, match=r"algorithm\.learning_rate: folder 0\.001, given 0\.5"):
        train(other, progress=False, resume=run)

    versions = json.loads((run / "versions.json").read_text())
    newer = {**versions, "moon-envs": "999.0"}
    (run / "versions.json").write_text(json.dumps(newer))
    with pytest.raises(ConfigError, match=r"moon-envs 999\.0, newer than"):
        train(_config(tmp_path, "jax_ppo", "run"), progress=False, resume=run)
    (run / "versions.json").write_text(json.dumps(versions))
    assert {p: p.stat().st_mtime_ns for p in run.rglob("*") if p.name != "versions.json"} == {
        p: t for p, t in before.items() if p.name != "versions.json"
    }

    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "config.yaml").write_text("name: x\n")
    with pytest.raises(ConfigError, match="not a run folder"):
        train(_config(tmp_path, "jax_ppo", "run"), progress=False, resume=mine)
    assert sorted(os.listdir(mine)) == ["config.yaml"]
    with pytest.raises(ConfigError, match="missing"):
        train(_config(tmp_path, "jax_ppo", "run"), progress=False, resume=tmp_path / "nope")
