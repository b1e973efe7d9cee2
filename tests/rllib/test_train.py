"""End to end: tiny RLlib PPO runs on two games write their run folders, and the trained
model plays in a tournament through the ``rllib:PATH`` agent spec."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("ray.rllib")

import yaml

from moon_agents.evaluation.tournament import tournament
from moon_agents.training.config import load_config
from moon_agents.training.train import train

TINY = {
    "budget.total_timesteps": 150,
    "algorithm.train_batch_size": 128,
    "algorithm.minibatch_size": 64,
    "algorithm.num_epochs": 1,
    "algorithm.net_arch": [16],
    "ray.num_env_runners": 1,
    "ray.num_envs_per_env_runner": 2,
    "eval.games": 2,
    "eval.every_timesteps": 0,
    "checkpoints.every_timesteps": 100,
    "opponents.snapshots.every_timesteps": 100,
    "opponents.snapshots.max_in_pool": 1,
    "output.progress_bar": False,
}
RUN_FILES = ("config.yaml", "versions.json", "seed", "metrics.csv", "metrics.json")


def _check_run_folder(result, env_id, games_finish=True):
    run = result.run_dir
    for name in (*RUN_FILES, "summary.json", "learning_curve.png"):
        assert (run / name).is_file(), name
    assert any((run / "tb").iterdir())
    assert (run / "model" / "model.json").is_file()
    assert any(p.name.startswith("step_") for p in (run / "checkpoints").iterdir())
    assert any(p.name.startswith("snapshot_") for p in (run / "checkpoints").iterdir())
    assert json.loads((run / "versions.json").read_text())["ray"] != "not installed"
    summary = json.loads((run / "summary.json").read_text())
    assert summary["algorithm"] == "rllib-ppo" and summary["timesteps"] >= 150
    assert result.timesteps >= 150 and result.snapshots >= 1
    assert len(result.metrics) >= 2 and result.metrics[0]["timesteps"] == 0
    if games_finish:
        assert sum(row["train_episodes"] for row in result.metrics) > 0
    assert result.agent_spec == f"rllib:{result.model_path}"
    assert json.loads((run / "model" / "model.json").read_text())["env_id"] == env_id


def test_jupiter_run_writes_its_folder_and_plays_a_tournament(ray_session, tmp_path):
    config = load_config(
        "configs/jupiter_rllib.yaml", {**TINY, "output.dir": str(tmp_path), "seed": 3}
    )
    result = train(config)
    _check_run_folder(result, "jupiter_v0")
    table = tournament("jupiter_v0", [result.agent_spec, "random"], games=4, seed=0)
    assert len(table.games) == 4 and result.agent_spec in table.agents
    # an RLlib algorithm checkpoint plays as rllib:PATH too (its model/ directory)
    step = next(p for p in (result.run_dir / "checkpoints").iterdir() if p.name.startswith("step_"))
    assert (step / "model" / "model.json").is_file()
    table = tournament("jupiter_v0", [f"rllib:{step}", "random"], games=2, seed=0)
    assert len(table.games) == 2


def test_moonstar_three_players_with_self_play(ray_session, tmp_path):
    data = {
        "name": "moonstar_rllib_tiny",
        "env": {
            "id": "moonstar_v1",
            "params": {
                "game": 1,
                "num_players": 3,
                "reward_mode": "score",
                "solver_info": False,
                "max_rounds": 1,  # games end within the tiny budget: end rewards reach RLlib
            },
        },
        "algorithm": {"name": "rllib-ppo"},
        "opponents": {"pool": ["random"], "self_play": True},
        "eval": {"opponents": ["random"]},
        "output": {"dir": str(tmp_path)},
    }
    path = tmp_path / "moonstar_rllib.yaml"
    path.write_text(yaml.safe_dump(data))
    # sampled in the driver: the Jupiter run above covers remote env runners (and their
    # snapshot modules); starting one costs a Ray worker process
    result = train(load_config(path, {**TINY, "ray.num_env_runners": 0}))
    _check_run_folder(result, "moonstar_v1")
