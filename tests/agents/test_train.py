"""Training smoke test: a tiny run end to end, its run folder, and same seed => same metrics."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
import yaml

pytest.importorskip("sb3_contrib")

from moon_agents.policy import PolicyAgent
from moon_agents.training.config import parse_config
from moon_agents.training.train import train


def tiny_config(out: Path, seed: int = 0, run_name: str | None = None):
    return parse_config(
        {
            "name": "smoke",
            "seed": seed,
            "env": {"id": "jupiter_v0", "params": {"num_players": 2}},
            "algorithm": {
                "n_envs": 2,
                "n_steps": 64,
                "batch_size": 64,
                "n_epochs": 2,
                "net_arch": [32, 32],
            },
            "opponents": {
                "pool": ["random", "greedy"],
                "snapshots": {"every_timesteps": 256, "max_in_pool": 2},
            },
            "budget": {"total_timesteps": 1024},
            "eval": {"every_timesteps": 512, "games": 10, "opponents": ["random", "greedy"]},
            "checkpoints": {"every_timesteps": 512},
            "output": {"dir": str(out), "run_name": run_name, "progress_bar": False},
        }
    )


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory):
    out = tmp_path_factory.mktemp("runs")
    return train(tiny_config(out))


def test_run_folder_contents(run) -> None:
    d = run.run_dir
    assert d.name == "smoke_seed0"
    for name in (
        "config.yaml",
        "versions.json",
        "seed",
        "metrics.csv",
        "metrics.json",
        "summary.json",
        "learning_curve.png",
        "model.zip",
    ):
        assert (d / name).is_file() and (d / name).stat().st_size > 0, name
    assert (d / "seed").read_text().strip() == "0"
    assert any((d / "tb").iterdir())
    ckpts = sorted(p.name for p in (d / "checkpoints").iterdir())
    assert "step_512.zip" in ckpts and "step_1024.zip" in ckpts
    assert "snapshot_256.zip" in ckpts and "snapshot_1024.zip" in ckpts
    versions = json.loads((d / "versions.json").read_text())
    assert {"python", "moon-envs", "torch", "sb3-contrib"} <= set(versions)
    resolved = yaml.safe_load((d / "config.yaml").read_text())
    assert resolved["algorithm"]["n_steps"] == 64 and resolved["algorithm"]["gamma"] == 0.99
    assert parse_config(resolved) == tiny_config(Path(resolved["output"]["dir"]))


def test_metrics(run) -> None:
    assert run.timesteps == 1024 and run.snapshots == 4
    steps = [m["timesteps"] for m in run.metrics]
    assert steps == [0, 512, 1024]
    last = run.metrics[-1]
    assert last["episodes"] > 0 and 0.0 <= last["train_win_rate"] <= 1.0
    for opp in ("random", "greedy"):
        rate, lo, hi = (last[f"eval_{opp}_{k}"] for k in ("win_rate", "ci_low", "ci_high"))
        assert 0.0 <= lo <= rate <= hi <= 1.0
    assert last["snapshots_in_pool"] == 2
    assert last["train_entropy_loss"] < 0  # a PPO update happened and was recorded
    with open(run.run_dir / "metrics.csv") as f:
        rows = list(csv.DictReader(f))
    assert [int(r["timesteps"]) for r in rows] == steps
    assert json.loads((run.run_dir / "metrics.json").read_text())[-1]["timesteps"] == 1024


def test_final_model_loads_as_agent(run) -> None:
    from moon_agents.evaluation.tournament import tournament

    agent = PolicyAgent.load(run.model_path, name="trained")
    r = tournament("jupiter_v0", [agent, "random"], games=6, seed=0)
    assert r.stats["trained"].games == 6


def test_same_seed_same_metrics(run, tmp_path: Path) -> None:
    again = train(tiny_config(tmp_path))
    assert again.metrics == run.metrics
    assert (again.run_dir / "metrics.csv").read_text() == (run.run_dir / "metrics.csv").read_text()


def test_existing_run_folder_is_not_overwritten(run) -> None:
    cfg = tiny_config(run.run_dir.parent)
    cfg = cfg.model_copy(
        update={
            "budget": cfg.budget.model_copy(update={"total_timesteps": 128}),
            "eval": cfg.eval.model_copy(update={"games": 2}),
        }
    )
    second = train(cfg)
    assert second.run_dir.name == "smoke_seed0_1"
    assert (run.run_dir / "model.zip").is_file()


def test_wall_clock_budget_stops_the_run(tmp_path: Path, monkeypatch) -> None:
    import tempfile

    system_tmp = tmp_path / "system_tmp"  # sb3's logger folders must not appear there
    system_tmp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(system_tmp))
    cfg = tiny_config(tmp_path / "runs")
    cfg = cfg.model_copy(
        update={
            "budget": cfg.budget.model_copy(
                update={"total_timesteps": None, "wall_clock_minutes": 0.002}
            ),
            "eval": cfg.eval.model_copy(update={"every_timesteps": 0, "games": 2}),
            "output": cfg.output.model_copy(update={"tensorboard": False}),
        }
    )
    result = train(cfg)
    assert 0 < result.timesteps < 100_000
    assert result.metrics[-1]["timesteps"] == result.timesteps
    assert [p.name for p in system_tmp.iterdir() if p.name.startswith("SB3-")] == []
