"""The ``alphazero`` trainer end to end: a tiny run beats random on Jupiter, the same
seed gives the same metrics, and bad configs are refused by field."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("mctx")
pytest.importorskip("equinox")
pytest.importorskip("optax")

from moon_agents.evaluation.tournament import evaluate_against
from moon_agents.net_agent import NetAgent
from moon_agents.training.config import parse_config
from moon_agents.training.train import train
from moon_agents.zoo import make_agent
from moon_envs import ConfigError

TINY = {
    "name": "az_tiny",
    "seed": 0,
    "env": {"id": "jupiter_v0", "params": {"num_players": 2}},
    "algorithm": {
        "name": "alphazero",
        "games": 128,
        "unroll": 32,
        "simulations": 8,
        "max_considered_actions": 8,
        "hidden": [64],
        "batch_size": 256,
        "learning_rate": 0.003,
        "final_learning_rate": 0.001,
        "sample_reuse": 8,
    },
    "budget": {"total_timesteps": 61440},
    "eval": {"every_timesteps": 0, "games": 20, "opponents": ["random"]},
    "export": "last",
    "output": {"progress_bar": False, "plot": False},
}


def _config(tmp_path: Path, **changes) -> object:
    data = json.loads(json.dumps(TINY))
    data["output"]["dir"] = str(tmp_path)
    for dotted, value in changes.items():
        node = data
        *parents, last = dotted.split(".")
        for key in parents:
            node = node[key]
        node[last] = value
    return parse_config(data)


def test_a_tiny_run_beats_random_on_jupiter(tmp_path: Path) -> None:
    result = train(_config(tmp_path))
    run = result.run_dir
    for name in ("config.yaml", "metrics.csv", "timing.csv", "summary.json", "model.npz"):
        assert (run / name).is_file(), name
    summary = json.loads((run / "summary.json").read_text())
    assert summary["timesteps"] == 61440 and summary["sgd_updates"] > 0
    assert summary["selfplay_decisions_per_s"] > 0
    agent = NetAgent.load(result.model_path)
    rate, low, _ = evaluate_against("jupiter_v0", agent, "random", 200, seed=5)
    assert rate > 0.6 and low > 0.5, rate
    # the same file plays through the zoo's spec, with and without search
    spec = f"az:{result.model_path}"
    assert make_agent(spec, "jupiter", seed=0).description["algorithm"] == "alphazero"
    searched = make_agent(spec + ",simulations=8", "jupiter", seed=0)
    rate, _, _ = evaluate_against("jupiter_v0", searched, "random", 20, seed=5)
    assert rate > 0.5


def test_same_seed_same_metrics(tmp_path: Path) -> None:
    # TINY's self-play shapes, so that the self-play program compiled for the run above
    # is loaded from the compilation cache; two iterations a run
    changes = {"budget.total_timesteps": 8192, "eval.every_timesteps": 4096}
    rows = []
    for name in ("a", "b"):
        result = train(_config(tmp_path, **changes, **{"output.run_name": name}))
        rows.append(json.loads((result.run_dir / "metrics.json").read_text()))
    assert len(rows[0]) == 3
    assert rows[0] == rows[1]
    assert any(r.get("policy_loss") for r in rows[0])


@pytest.mark.parametrize(
    "change, words",
    [
        ({"env.params": {"num_players": 3}}, "num_players"),
        ({"env.id": "chess_v6"}, "env.id"),
        ({"env.margin_shaping": 0.1}, "margin_shaping"),
        ({"algorithm.simulations": 0}, "algorithm.simulations"),
        ({"algorithm.hidden": [0]}, "algorithm.hidden"),
        ({"algorithm.activation": "sigmoid"}, "algorithm.activation"),
        ({"eval.opponents": ["nobody"]}, "eval.opponents"),
        ({"export": "first"}, "export"),
    ],
)
def test_bad_configs_are_refused_by_field(tmp_path: Path, change: dict, words: str) -> None:
    with pytest.raises(ConfigError, match=words):
        _config(tmp_path, **change)
