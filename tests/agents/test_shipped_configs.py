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
    if cfg.algorithm.name in ("alphazero", "jax_ppo"):
        _train_jax_config_shrunk(path, cfg, tmp_path)
        return
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


def _train_jax_config_shrunk(path: Path, cfg, tmp_path: Path) -> None:
    pytest.importorskip("mctx")
    pytest.importorskip("equinox")
    from moon_agents.training.train import train

    sizes = (
        {"algorithm.games": 4, "algorithm.unroll": 8, "algorithm.batch_size": 16}
        if cfg.algorithm.name == "alphazero"
        else {"algorithm.num_envs": 4, "algorithm.num_steps": 8, "algorithm.num_minibatches": 2}
    )
    small = load_config(
        path,
        {
            **sizes,
            "budget.total_timesteps": 32,
            "eval.every_timesteps": 0,
            "eval.games": 2,
            "eval.opponents": cfg.eval.opponents[:1],
            "output.dir": str(tmp_path),
            "output.progress_bar": False,
            "output.plot": False,
        },
    )
    assert small.env == cfg.env and small.algorithm.hidden == cfg.algorithm.hidden
    result = train(small)
    assert result.timesteps == 32
    assert (result.run_dir / "model.npz").is_file()


def test_every_game_has_a_config_whose_observation_the_ladder_uses() -> None:
    """configs/<game>_ppo.yaml trains the policy shipped as agents/trained/<game>.zip; the
    published ladder must build the env it was trained on (same observation), 2 players."""
    from moon_agents.evaluation.ladder.lineups import LADDERS
    from moon_envs import make

    for env_id, plan in LADDERS.items():
        game = make(env_id, **plan.env_params).game.spec.name
        network = ROOT / "agents" / "trained" / f"{game}.npz"
        if network.is_file():  # the `trained` agent is a network trained on the JAX twin
            _network_matches_the_ladder(network, env_id, plan)
        cfg = load_config(ROOT / "configs" / f"{game}_ppo.yaml")
        assert cfg.env.id == env_id and cfg.algorithm.name == "maskable_ppo"
        trained_with = {k: v for k, v in cfg.env.params.items() if k != "reward_mode"}
        ladder = {k: v for k, v in plan.env_params.items() if k != "solver_info"}
        assert trained_with.get("num_players") == 2
        assert {k: v for k, v in trained_with.items() if k != "solver_info"} == ladder


def _network_matches_the_ladder(network: Path, env_id: str, plan) -> None:
    """The shipped network was trained on the ladder's game, parameters and all, by the
    shipped config that names it."""
    import dataclasses
    import json

    from moon_agents.net_weights import load_net
    from moon_envs import make

    _, description = load_net(network)
    config = make(env_id, **plan.env_params).game.config
    assert description["env_id"] == env_id
    assert description["game_config"] == json.loads(json.dumps(dataclasses.asdict(config)))
    algorithm = description["algorithm"]
    cfg = load_config(ROOT / "configs" / f"{network.stem}_{algorithm}.yaml")
    assert cfg.env.id == env_id and cfg.algorithm.hidden == description["hidden"]
