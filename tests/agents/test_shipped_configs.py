"""Every config shipped in configs/ validates and trains end to end (shrunk to seconds)."""

from __future__ import annotations

from pathlib import Path

import pytest

from agents.config import load_config

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = sorted((ROOT / "configs").glob("*.yaml"))


def test_configs_are_shipped() -> None:
    names = {p.name for p in SHIPPED}
    assert {"jupiter_ppo.yaml", "moonstar_ppo.yaml"} <= names


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_shipped_config_trains_end_to_end(path: Path, tmp_path: Path) -> None:
    pytest.importorskip("sb3_contrib")
    from agents.train import train

    cfg = load_config(path)
    assert cfg.name == path.stem and cfg.budget.total_timesteps
    if cfg.algorithm.name == "rllib-ppo":
        pytest.skip("RLlib configs train end to end in tests/rllib/test_train.py")
    small = load_config(
        path,
        {
            "budget.total_timesteps": 128,
            "algorithm.n_envs": 2,
            "algorithm.n_steps": 64,
            "algorithm.batch_size": 64,
            "opponents.snapshots.every_timesteps": 64,
            "eval.every_timesteps": 0,
            "eval.games": 2,
            "checkpoints.every_timesteps": 0,
            "output.dir": str(tmp_path),
            "output.progress_bar": False,
            "output.tensorboard": False,
            "output.plot": False,
        },
    )
    # everything but the shrunk fields is the shipped config
    assert small.env == cfg.env and small.opponents.pool == cfg.opponents.pool
    result = train(small)
    assert result.timesteps == 128
    assert (result.run_dir / "model.zip").is_file()
    last = result.metrics[-1]
    for opponent in cfg.eval.opponents:
        assert 0.0 <= last[f"eval_{opponent}_win_rate"] <= 1.0
