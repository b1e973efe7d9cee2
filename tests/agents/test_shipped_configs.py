"""Every config shipped in configs/ validates and trains end to end (shrunk to seconds)."""

from __future__ import annotations

from pathlib import Path

import pytest

from moon_agents.training.config import load_config

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = sorted((ROOT / "configs").glob("*.yaml"))


def test_configs_are_shipped() -> None:
    names = {p.name for p in SHIPPED}
    games = ["jupiter", "moonstar", "moon_harvesters", "star_master", "moonwakers"]
    assert {f"{game}_ppo.yaml" for game in games} <= names


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_shipped_config_trains_end_to_end(path: Path, tmp_path: Path) -> None:
    pytest.importorskip("sb3_contrib")
    from moon_agents.training.train import train

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


def test_every_game_has_a_config_whose_observation_the_ladder_uses() -> None:
    """configs/<game>_ppo.yaml trains the policy shipped as agents/trained/<game>.zip; the
    published ladder must build the env it was trained on (same observation), 2 players."""
    from moon_agents.evaluation.ladder.lineups import LADDERS
    from moon_envs import make

    for env_id, plan in LADDERS.items():
        game = make(env_id, **plan.env_params).game.spec.name
        cfg = load_config(ROOT / "configs" / f"{game}_ppo.yaml")
        assert cfg.env.id == env_id and cfg.algorithm.name == "maskable_ppo"
        trained_with = {k: v for k, v in cfg.env.params.items() if k != "reward_mode"}
        ladder = {k: v for k, v in plan.env_params.items() if k != "solver_info"}
        assert trained_with.get("num_players") == 2
        assert {k: v for k, v in trained_with.items() if k != "solver_info"} == ladder
