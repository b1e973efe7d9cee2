"""Every config shipped in configs/ validates and trains end to end (shrunk to seconds).

A config whose ``moon-envs train configs/NAME.yaml`` command the docs show is trained by
``tests/test_docs_commands.py`` instead, through the command line with the same shrunk
sizes; each config trains once per test session."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from moon_agents.training.config import load_config

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = sorted((ROOT / "configs").glob("*.yaml"))


def test_configs_are_shipped() -> None:
    names = {p.name for p in SHIPPED}
    games = ["jupiter", "moonstar", "moon_harvesters", "star_master", "moonwakers"]
    assert {f"{game}_ppo.yaml" for game in games} <= names


def trained_by_the_docs() -> set[str]:
    """The configs (file stems) that a documented ``moon-envs train`` command trains."""
    from tests.test_docs_commands import documented_commands

    found = set()
    for command in documented_commands():
        words = command.split()
        if words[:2] == ["moon-envs", "train"] and len(words) == 3:
            found.add(Path(words[2]).stem)
    return found


def test_the_docs_train_the_configs_this_file_leaves_to_them() -> None:
    """The docs' train commands are what the skip below relies on: they name real
    configs, run shrunk like the ones here, and leave some configs to this file."""
    from tests.test_docs_commands import SHRUNK_JAX, SHRUNK_JAX_COMMON

    docs = trained_by_the_docs()
    stems = {p.stem for p in SHIPPED}
    assert {"jupiter_alphazero", "jupiter_ppo"} <= docs and docs - {"NAME"} <= stems
    assert stems - docs  # e.g. star_master_alphazero
    assert SHRUNK_JAX_COMMON["budget"]["total_timesteps"] == 32
    assert SHRUNK_JAX["alphazero"]["algorithm"] == {"games": 4, "unroll": 8, "batch_size": 16}


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_shipped_config_trains_end_to_end(path: Path, tmp_path: Path) -> None:
    pytest.importorskip("sb3_contrib")
    from moon_agents.training.train import train

    cfg = load_config(path)
    assert cfg.name == path.stem and cfg.budget.total_timesteps
    if path.stem in trained_by_the_docs():
        pytest.skip("the docs' `moon-envs train` command trains it (tests/test_docs_commands.py)")
    if cfg.algorithm.name == "rllib-ppo":
        pytest.skip("RLlib configs train end to end in tests/rllib/test_train.py")
    if cfg.algorithm.name in ("alphazero", "jax_ppo", "imitation"):
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

    from tests.test_docs_commands import SHRUNK_JAX  # the docs' train commands' sizes

    sizes = {f"algorithm.{k}": v for k, v in SHRUNK_JAX[cfg.algorithm.name]["algorithm"].items()}
    small = load_config(
        path,
        {
            **sizes,
            "budget.total_timesteps": 32,
            "budget.stop_at_timesteps": 16 if cfg.budget.stop_at_timesteps else None,
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
    if cfg.algorithm.name == "imitation":  # a round plays whole games
        assert result.timesteps >= 32 and result.metrics[-1]["round"] == 1
    else:
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


def _algorithm(path: Path) -> str | None:
    """``algorithm.name`` of a config file, read without building its trainer's schema."""
    import yaml

    algorithm = yaml.safe_load(path.read_text()).get("algorithm")
    return algorithm.get("name") if isinstance(algorithm, dict) else algorithm


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
    # the config that made it: same trainer, started from the file the network names
    started = description.get("training", {}).get("init_from")
    same_trainer = [
        p
        for p in SHIPPED
        if p.stem.startswith(f"{network.stem}_") and _algorithm(p) == description["algorithm"]
    ]
    makers = [c for c in map(load_config, same_trainer) if c.algorithm.init_from == started]
    assert len(makers) == 1, (network, started, [c.name for c in makers])
    cfg = makers[0]
    assert cfg.env.id == env_id and cfg.algorithm.hidden == description["hidden"]
    chain = re.match(r"runs/(\w+?)_seed(\d+)/model\.npz$", started or "")
    if chain:  # the last run of a chain: the run it starts from is a shipped config's
        assert (ROOT / "configs" / f"{chain.group(1)}.yaml").is_file(), started
