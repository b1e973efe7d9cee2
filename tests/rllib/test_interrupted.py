"""Ctrl-C during an RLlib run: the run folder is written and ``moon-envs train`` says the
run was interrupted and where it was saved, as it does for SB3 runs."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

pytest.importorskip("ray.rllib")

from moon_agents.cli.main import main


def test_ctrl_c_is_reported_by_the_train_command(
    ray_session, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import moon_agents.training.rllib.train as rllib_train

    built = rllib_train.build_algorithm

    def build_then_interrupt(*args, **kwargs):
        algo = built(*args, **kwargs)
        train_once = algo.train
        calls = []

        def train_then_ctrl_c():
            calls.append(1)
            if len(calls) > 1:
                raise KeyboardInterrupt
            return train_once()

        algo.train = train_then_ctrl_c
        return algo

    monkeypatch.setattr(rllib_train, "build_algorithm", build_then_interrupt)
    cfg = tmp_path / "ctrl_c.yaml"
    cfg.write_text(
        "name: ctrl_c\n"
        "env: {id: jupiter_v0}\n"
        "algorithm: {name: rllib-ppo, train_batch_size: 64, minibatch_size: 32, num_epochs: 1,"
        " net_arch: [16]}\n"
        "budget: {total_timesteps: 100000}\n"
        "ray: {num_env_runners: 0, num_envs_per_env_runner: 1}\n"  # sampled in the driver
        "opponents: {pool: [random], snapshots: {every_timesteps: 0}}\n"
        "eval: {every_timesteps: 0, games: 2, opponents: [random]}\n"
        "checkpoints: {every_timesteps: 0}\n"
        "output: {tensorboard: false, plot: false}\n"
    )
    out = io.StringIO()
    code = main(["train", str(cfg), "--out", str(tmp_path), "--no-progress"], stdout=out)
    text = out.getvalue()
    assert code == 0, text
    run_dir = tmp_path / "ctrl_c_seed0"
    summary = json.loads((run_dir / "summary.json").read_text())
    assert summary["interrupted"] is True and 0 < summary["timesteps"] < 100000
    assert f"training interrupted (Ctrl-C) at {summary['timesteps']} timesteps" in text
    assert str(run_dir) in text
    assert (run_dir / "model" / "model.json").is_file()
