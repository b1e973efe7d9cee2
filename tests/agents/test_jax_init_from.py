"""``algorithm.init_from``: a JAX run starts from a network file's weights, and refuses a
file written for another env, other parameters or another architecture."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("jax")
pytest.importorskip("equinox")
pytest.importorskip("optax")

import jax
import numpy as np

import moon_envs.jax as mj
from moon_agents.net_weights import load_net, save_net
from moon_agents.training.config import parse_config
from moon_agents.training.jax.network import PolicyValueNet, net_description, to_arrays
from moon_envs.core.game import ConfigError

ENV = {"id": "jupiter_v0", "params": {"num_players": 2, "line_features": True}}
PPO: dict[str, Any] = {
    "name": "init_from_tiny",
    "seed": 1,
    "env": ENV,
    "algorithm": {
        "name": "jax_ppo",
        "num_envs": 16,
        "num_steps": 16,
        "num_minibatches": 2,
        "hidden": [32, 32],
        "pool_size": 1,
    },
    "budget": {"total_timesteps": 256},
    "eval": {"every_timesteps": 256, "games": 2, "opponents": ["random"]},
    "export": "last",
}


def _config(tmp_path: Path, **algorithm: Any) -> Any:
    data = {**PPO, "algorithm": {**PPO["algorithm"], **algorithm}}
    data["output"] = {"dir": str(tmp_path / "runs"), "progress_bar": False, "plot": False}
    return parse_config(data)


def _network_file(tmp_path: Path, config: Any, seed: int = 7) -> tuple[Path, dict]:
    """A network file for ``config``'s architecture with weights drawn from ``seed``."""
    twin = mj.make(config.env.id, **config.env.params)
    d = net_description(config, twin)
    net = PolicyValueNet(
        d["observation_size"], d["num_actions"], d["hidden"], d["activation"], jax.random.key(seed)
    )
    arrays = to_arrays(net)
    return save_net(tmp_path / "start.npz", arrays, {**d, "training": {}}), arrays


def _same(a: dict, b: dict) -> bool:
    return a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)


@pytest.mark.parametrize("trainer", ["jax_ppo", "alphazero"])
def test_both_trainers_start_from_the_file(tmp_path: Path, trainer: str) -> None:
    from moon_agents.training.jax.run import _trainer

    ppo = _config(tmp_path)
    path, arrays = _network_file(tmp_path, ppo)
    if trainer == "alphazero":
        algorithm = {"name": "alphazero", "games": 8, "unroll": 4, "hidden": [32, 32]}
        data = {**PPO, "algorithm": {**algorithm, "init_from": str(path)}}
        config = parse_config(data)
    else:
        config = _config(tmp_path, init_from=str(path))
    twin = mj.make(config.env.id, **config.env.params)
    assert _same(_trainer(config, twin).arrays(), arrays)
    fresh = _trainer(_config(tmp_path), twin).arrays()  # without init_from: random weights
    assert not _same(fresh, arrays)


def test_a_run_records_where_it_started(tmp_path: Path) -> None:
    from moon_agents.training.train import train

    config = _config(tmp_path)
    path, arrays = _network_file(tmp_path, config)
    result = train(_config(tmp_path, init_from=str(path)), progress=False)
    start, description = load_net(result.run_dir / "checkpoints" / "step_0.npz")
    assert _same(start, arrays)
    assert description["training"] == {"decisions": 0, "init_from": str(path)}
    _, last = load_net(result.model_path)
    assert last["training"] == {"decisions": 256, "init_from": str(path)}


def test_export_best_never_picks_the_file_it_started_from(tmp_path: Path) -> None:
    """With a step size too small to change a weight, every evaluation scores the same;
    the first to reach the best score would be step 0, which is the starting file."""
    from moon_agents.training.train import train

    path, _ = _network_file(tmp_path, _config(tmp_path))
    config = _config(tmp_path, init_from=str(path), learning_rate=1e-30, final_learning_rate=1e-30)
    config = parse_config({**config.model_dump(), "export": "best"})
    result = train(config, progress=False)
    rows = result.metrics
    assert [r["timesteps"] for r in rows] == [0, 256]
    assert rows[0]["gate_score"] == rows[1]["gate_score"]
    summary = json.loads((result.run_dir / "summary.json").read_text())
    assert summary["exported"]["timesteps"] == 256
    assert summary["exported"]["worst_win_rate"] == rows[1]["gate_score"]
    _, description = load_net(result.model_path)
    assert description["training"]["decisions"] == 256


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"hidden": [64]}, "hidden"),
        ({"activation": "tanh"}, "activation"),
        ({"env_params": {"num_players": 2, "line_features": False}}, "game_config"),
    ],
)
def test_a_file_for_another_network_is_refused(tmp_path: Path, change: dict, field: str) -> None:
    from moon_agents.training.jax.run import _trainer

    path, _ = _network_file(tmp_path, _config(tmp_path))
    params = change.pop("env_params", None)
    config = _config(tmp_path, init_from=str(path), **change)
    if params is not None:
        data = {
            **PPO,
            "env": {"id": "jupiter_v0", "params": params},
            "algorithm": {**PPO["algorithm"], "init_from": str(path)},
        }
        config = parse_config(data)
    twin = mj.make(config.env.id, **config.env.params)
    with pytest.raises(ConfigError) as err:
        _trainer(config, twin)
    message = str(err.value)
    assert message.startswith("algorithm.init_from: ") and f"{field}=" in message
    assert "allowed: a network file written for the same" in message


def test_a_missing_or_foreign_file_is_refused(tmp_path: Path) -> None:
    from moon_agents.training.jax.run import _trainer

    twin = mj.make(ENV["id"], **ENV["params"])
    missing = _config(tmp_path, init_from=str(tmp_path / "nope.npz"))
    with pytest.raises(ConfigError, match=r"^algorithm.init_from: .*does not exist$"):
        _trainer(missing, twin)
    chained = _config(
        tmp_path, init_from=str(tmp_path / "runs" / "earlier_run_seed4" / "model.npz")
    )
    with pytest.raises(
        ConfigError,
        match=r"does not exist; it is what a run of the config "
        r"named 'earlier_run' \(seed 4\) writes: train that first, e\.g\. "
        r"`moon-envs train configs/earlier_run\.yaml`$",
    ):
        _trainer(chained, twin)
    junk = tmp_path / "junk.npz"
    junk.write_bytes(b"not a zip")
    with pytest.raises(ConfigError, match=r"^algorithm.init_from: "):
        _trainer(_config(tmp_path, init_from=str(junk)), twin)
    with pytest.raises(ConfigError, match="init_from"):
        _config(tmp_path, init_from="")
