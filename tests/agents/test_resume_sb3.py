"""``train --resume RUN`` for the MaskablePPO trainer: a run killed after a checkpoint
continues from it (weights, Adam state, counters, pool snapshots, generators) and appends
to the same metrics."""

from __future__ import annotations

import io
import json
import shutil
import zipfile
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("sb3_contrib")

import torch

from moon_agents.training import sb3_resume
from moon_agents.training.config import parse_config
from moon_agents.training.train import train


def _config(out: Path, run_name: str, total: int = 512) -> Any:
    return parse_config(
        {
            "name": "resume_sb3",
            "seed": 2,
            "env": {"id": "jupiter_v0", "params": {"num_players": 2}},
            "algorithm": {
                "n_envs": 2,
                "n_steps": 64,
                "batch_size": 64,
                "n_epochs": 1,
                "net_arch": [16],
            },
            "opponents": {
                "pool": ["random"],
                "snapshots": {"every_timesteps": 128, "max_in_pool": 1, "save": False},
            },
            "budget": {"total_timesteps": total},
            "eval": {"every_timesteps": 256, "games": 2, "opponents": ["random"]},
            "checkpoints": {"every_timesteps": 256},
            "output": {
                "dir": str(out),
                "run_name": run_name,
                "progress_bar": False,
                "plot": False,
                "tensorboard": False,
            },
        }
    )


def test_a_killed_run_resumes_from_its_last_checkpoint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    killed = tmp_path / "killed"
    real = sb3_resume.save_state

    def save_state(run_dir: Path, model: Any, vec_env: Any, callback: Any, ckpt: str) -> None:
        real(run_dir, model, vec_env, callback, ckpt)
        if model.num_timesteps == 256 and not killed.exists():
            shutil.copytree(run_dir, killed)  # what kill -9 right after it leaves

    with monkeypatch.context() as m:
        m.setattr(sb3_resume, "save_state", save_state)
        whole = train(_config(tmp_path, "whole"), progress=False)
    assert whole.timesteps == 512
    state = json.loads((killed / "resume" / "state.json").read_text())
    assert state["checkpoint"] == "checkpoints/step_256.zip" and state["num_timesteps"] == 256
    # the pool keeps one snapshot (the newest, at 256); the older file was removed
    assert [p.name for p in (killed / "resume").glob("pool_*.zip")] == ["pool_256.zip"]
    rows_before = json.loads((killed / "metrics.json").read_text())
    assert [r["timesteps"] for r in rows_before] == [0, 256]

    # the weights and Adam state of the checkpoint are what a resumed model holds
    from moon_agents.training.build import build_model, build_vec_env

    config = _config(tmp_path, "killed")
    vec_env, _ = build_vec_env(config, "jupiter")
    model = build_model(config, vec_env, None)
    snapshots = sb3_resume.restore(killed, sb3_resume.load_state(killed), model, vec_env)
    with zipfile.ZipFile(killed / "checkpoints" / "step_256.zip") as zf:
        saved = torch.load(io.BytesIO(zf.read("policy.optimizer.pth")), weights_only=True)
    restored = model.policy.optimizer.state_dict()
    assert saved["state"][0]["step"] > 0
    for key in ("exp_avg", "exp_avg_sq", "step"):
        assert torch.equal(restored["state"][0][key], saved["state"][0][key])
    assert model.num_timesteps == 256 and [s.name for s in snapshots] == ["snapshot_256"]

    resumed = train(config, progress=False, resume=killed)
    assert resumed.run_dir == killed and resumed.timesteps == 512
    rows = json.loads((killed / "metrics.json").read_text())
    assert [r["timesteps"] for r in rows] == [0, 256, 512]
    assert rows[:2] == rows_before  # appended, the rows before the checkpoint kept
    assert rows[2]["episodes"] > rows[1]["episodes"]  # the episode count goes on
    summary = json.loads((killed / "summary.json").read_text())
    assert summary["resumed_from_timesteps"] == [256] and summary["timesteps"] == 512
    assert not [p for p in killed.rglob(".*") if p.name != ".moon-envs-run.json"]  # no temp files

    # resuming a finished run trains nothing and adds no row; a larger budget goes on
    assert train(config, progress=False, resume=killed).timesteps == 512
    assert json.loads((killed / "metrics.json").read_text()) == rows
    longer = train(_config(tmp_path, "killed", total=640), progress=False, resume=killed)
    assert longer.timesteps == 640
    steps = [r["timesteps"] for r in json.loads((killed / "metrics.json").read_text())]
    assert steps == [0, 256, 512, 640]
    assert "total_timesteps: 640" in (killed / "config.yaml").read_text()
