"""``train --resume RUN``: a killed or interrupted run continues from its last resume
point; on a CPU the JAX trainers then give the rows of an uninterrupted run, and folders
that are not run folders, or were written with another config or a newer version, are
refused and left untouched."""

from __future__ import annotations

import io
import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("jax")
pytest.importorskip("equinox")
pytest.importorskip("optax")

from moon_agents.cli.main import main
from moon_agents.training.config import parse_config
from moon_agents.training.train import train
from moon_envs.core.game import ConfigError

ENV = {"id": "jupiter_v0", "params": {"num_players": 2}}
# the self-play shapes and settings of test_jax_devices' one-device runs, so that the
# session's compilation cache holds one self-play program for both files
ALGORITHMS: dict[str, dict[str, Any]] = {
    "alphazero": {
        "name": "alphazero",
        "games": 8,
        "unroll": 8,
        "simulations": 4,
        "max_considered_actions": 4,
        "hidden": [16],
        "value_target": "bootstrap",
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
            "budget": {"total_timesteps": 256, **budget},
            "eval": {"every_timesteps": 128, "games": 2, "opponents": ["random"]},
            "export": "last",
            "output": {"dir": str(out), "run_name": run_name, "progress_bar": False, "plot": False},
        }
    )


def _copy_at(monkeypatch: pytest.MonkeyPatch, step: int, into: Path) -> None:
    """Copy the run folder as it is once its resume state at ``step`` is written: what a
    ``kill -9`` right then would leave."""
    import moon_agents.training.jax.run as run_module

    real = run_module.save_state

    def save_state(run_dir: Path, trainer: Any, loop: dict) -> Path:
        path = real(run_dir, trainer, loop)
        if trainer.decisions == step:
            shutil.copytree(run_dir, into)
        return path

    monkeypatch.setattr(run_module, "save_state", save_state)


@pytest.mark.parametrize("algorithm", ["alphazero", "jax_ppo"])
def test_a_killed_run_resumes_to_the_rows_of_an_uninterrupted_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, algorithm: str
) -> None:
    killed = tmp_path / "killed"
    with monkeypatch.context() as m:
        _copy_at(m, 128, killed)
        whole = train(_config(tmp_path, algorithm, "whole"), progress=False)
    expected = (whole.run_dir / "metrics.csv").read_text()
    assert [r["timesteps"] for r in json.loads((killed / "metrics.json").read_text())] == [0, 128]
    assert not (killed / "summary.json").exists()
    # a write that kill -9 cut short leaves its temporary file; a file of the user's stays
    (killed / "resume" / ".state.npz.k1ll3d_x.npz").write_bytes(b"PK partial")
    (killed / ".notes.txt").write_text("mine")

    if algorithm == "alphazero":
        resumed = train(_config(tmp_path, algorithm, "killed"), progress=False, resume=killed)
        assert resumed.run_dir == killed and resumed.timesteps == 256
    else:  # the command line, with the folder's own config.yaml
        out = io.StringIO()
        assert main(["train", "--resume", str(killed), "--no-progress"], stdout=out) == 0
        assert f"run folder: {killed}" in out.getvalue() and "timesteps: 256" in out.getvalue()
    assert (killed / "metrics.csv").read_text() == expected
    summary = json.loads((killed / "summary.json").read_text())
    assert summary["resumed_from_timesteps"] == [128]
    left = sorted(p.name for p in killed.rglob(".*"))
    assert left == [".moon-envs-run.json", ".notes.txt"]  # no temporary file


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
    from moon_agents.training.config import save_config
    from moon_agents.training.resume import check_resumable
    from moon_agents.training.run_folder import make_run_dir, package_versions

    config = _config(tmp_path, "jax_ppo", "run")
    run = make_run_dir(config)
    save_config(config, run / "config.yaml")
    versions = package_versions()
    (run / "versions.json").write_text(json.dumps(versions))
    with pytest.raises(ConfigError, match="no resume state"):
        check_resumable(run, config)
    (run / "resume").mkdir()
    (run / "resume" / "state.npz").write_bytes(b"")
    assert check_resumable(run, config) == run
    before = {p: p.stat().st_mtime_ns for p in run.rglob("*")}

    other = _config(tmp_path, "jax_ppo", "elsewhere", total_timesteps=10_000)
    assert check_resumable(run, other) == run  # budget and run name may change
    other.algorithm.learning_rate = 0.5
    with pytest.raises(ConfigError, match=r"algorithm\.learning_rate: folder 0\.001, given 0\.5"):
        check_resumable(run, other)
    (run / "versions.json").write_text(json.dumps({**versions, "moon-envs": "999.0"}))
    with pytest.raises(ConfigError, match=r"moon-envs 999\.0, newer than"):
        check_resumable(run, config)
    changed = {p: t for p, t in before.items() if p.name != "versions.json"}
    assert {p: p.stat().st_mtime_ns for p in run.rglob("*") if p.name != "versions.json"} == changed

    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "config.yaml").write_text("name: x\n")
    with pytest.raises(ConfigError, match="not a run folder"):
        check_resumable(mine, config)
    assert sorted(os.listdir(mine)) == ["config.yaml"]
    with pytest.raises(ConfigError, match="missing"):
        check_resumable(tmp_path / "nope", config)


def test_the_command_line_refuses_bad_resume_requests(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    mine = tmp_path / "mine"
    mine.mkdir()
    cases = [
        (["train"], "give a config file"),
        (["train", "--resume", str(mine)], "not a run folder"),
        (["train", "--resume", str(mine), "--seed", "3"], "--seed: a resumed run keeps"),
        (["train", "--resume", str(mine), "--out", "x"], "--out: a resumed run keeps"),
    ]
    for argv, words in cases:
        assert main(argv, stdout=io.StringIO()) == 2, argv
        assert words in capsys.readouterr().err, argv
    assert os.listdir(mine) == []


def test_run_folder_files_are_replaced_whole_or_not_at_all(tmp_path: Path) -> None:
    from moon_agents.training.run_folder import atomic_path, write_metrics

    path = tmp_path / "metrics.csv"
    path.write_text("old rows\n")
    with pytest.raises(RuntimeError), atomic_path(path) as tmp:
        tmp.write_text("half of the new rows")
        raise RuntimeError("killed while writing")
    assert path.read_text() == "old rows\n"
    assert sorted(os.listdir(tmp_path)) == ["metrics.csv"]  # the temporary file is gone
    write_metrics([{"timesteps": 5, "loss": float("nan")}], tmp_path)
    assert path.read_bytes() == b"timesteps,loss\r\n5,\r\n"
    assert json.loads((tmp_path / "metrics.json").read_text()) == [{"timesteps": 5, "loss": None}]
