"""``algorithm.devices``: the JAX trainers split their batch over several devices.

Two simulated CPU devices (``XLA_FLAGS=--xla_force_host_platform_device_count=2``, which
must be set before jax is imported, so each check runs in a fresh ``python``): a tiny
run on 2 devices of ``alphazero`` and of ``jax_ppo`` finishes, reports 2 devices, plays
twice the config's games a step and gives finite metrics; its first iteration (self-play
and gradient steps) equals a 1-device run of the same global batch up to float
tolerance, which checks that the gradients are averaged over the devices; and that
1-device run gives the numbers the trainers gave before they could use several devices.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("mctx")
pytest.importorskip("equinox")
pytest.importorskip("optax")

from moon_agents.training.config import parse_config
from moon_envs import ConfigError

ROOT = Path(__file__).resolve().parents[2]

# What the trainers printed for PROBE's 1-device run (scale 2, devices field left out)
# before algorithm.devices existed: the first iteration's statistics and parameters.
NAN = float("nan")
OLD_ONE_DEVICE = {
    "alphazero": {
        "decisions": 64,
        "stats": {
            "games_finished": 0,
            "positions_kept": 64,
            "sgd_steps": 1,
            "policy_loss": 3.478663921356201,
            "value_loss": 0.010712750256061554,
            "draw_rate": NAN,
        },
        "params": {
            "sum": 169.00644995606308,
            "first": [
                -0.10097931325435638,
                -0.021510116755962372,
                -0.1796617954969406,
                0.008186453953385353,
                -0.12452732026576996,
                0.24532894790172577,
                -0.19908204674720764,
                -0.07998351752758026,
            ],
        },
    },
    "jax_ppo": {
        "decisions": 64,
        "stats": {
            "episodes_finished": 0,
            "pool_episodes": 0,
            "trained_fraction": 0.609375,
            "approx_kl": 2.4263348677777685e-05,
            "clip_fraction": 0.0,
            "entropy": 2.598747968673706,
            "policy_loss": -0.0019541075453162193,
            "value_loss": 0.006277770735323429,
            "learner_win_rate": NAN,
        },
        "params": {
            "sum": 169.05049703023906,
            "first": [
                -0.10057688504457474,
                -0.02172250486910343,
                -0.17720527946949005,
                0.010359501466155052,
                -0.12698140740394592,
                0.2432904988527298,
                -0.19868384301662445,
                -0.08161772787570953,
            ],
        },
    },
}

PROBE = r"""
import json, sys
from pathlib import Path
import jax, numpy as np
from moon_agents.training.config import parse_config
from moon_agents.training.jax.run import _trainer
import moon_envs.jax as mj

algo, out_dir, with_devices = sys.argv[1], sys.argv[2], sys.argv[3] == "1"

def config(scale, devices):
    if algo == "alphazero":
        section = {"name": "alphazero", "games": 4 * scale, "unroll": 8, "simulations": 4,
                   "max_considered_actions": 4, "hidden": [16], "batch_size": 16 * scale,
                   "sample_reuse": 0.5, "value_target": "bootstrap"}
    else:
        section = {"name": "jax_ppo", "num_envs": 4 * scale, "num_steps": 8,
                   "num_minibatches": 2, "num_epochs": 1, "hidden": [16], "pool_size": 2}
    if devices is not None:
        section["devices"] = devices
    return parse_config({
        "name": "probe", "seed": 3,
        "env": {"id": "jupiter_v0", "params": {"num_players": 2}},
        "algorithm": section, "budget": {"total_timesteps": 64},
        "eval": {"every_timesteps": 0, "games": 2, "opponents": ["random"]},
        "export": "last",
        "output": {"dir": out_dir, "progress_bar": False, "plot": False}})

def params(arrays):
    leaves = [np.asarray(arrays[k], np.float64) for k in sorted(arrays)]
    return {"sum": float(sum(np.abs(x).sum() for x in leaves)),
            "first": [float(v) for v in np.concatenate([x.ravel() for x in leaves])[:8]]}

cfg = config(2, 1 if with_devices else None)
trainer = _trainer(cfg, mj.make(cfg.env.id, **cfg.env.params))
stats = trainer.iteration()
out = {"one": {"decisions": trainer.decisions, "params": params(trainer.arrays()),
               "stats": {k: v for k, v in stats.items() if not k.endswith("_s")}}}
if with_devices:
    from moon_agents.net_weights import load_net
    from moon_agents.training.train import train
    result = train(config(1, "all"))
    summary = json.loads((result.run_dir / "summary.json").read_text())
    out["two"] = {"summary": summary, "metrics": result.metrics,
                  "params": params(load_net(result.model_path)[0])}
print("PROBE " + json.dumps(out))
"""


def probe(algo: str, out_dir: Path, devices: int = 2, with_devices: bool = True) -> dict:
    """Run PROBE in a fresh python that sees ``devices`` simulated CPU devices."""
    env = dict(os.environ)
    env["XLA_FLAGS"] = f"--xla_force_host_platform_device_count={devices}"
    env["JAX_PLATFORMS"] = "cpu"
    done = subprocess.run(
        [sys.executable, "-c", PROBE, algo, str(out_dir), "1" if with_devices else "0"],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    line = next(x for x in done.stdout.splitlines() if x.startswith("PROBE "))
    return json.loads(line[len("PROBE ") :])


def _close(a: float, b: float) -> bool:
    both_nan = isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b)
    return both_nan or a == pytest.approx(b, rel=1e-4, abs=1e-6)


@pytest.mark.parametrize("algo", ["alphazero", "jax_ppo"])
def test_two_devices_play_twice_the_games_and_average_the_gradients(
    algo: str, tmp_path: Path
) -> None:
    out = probe(algo, tmp_path)
    one, two = out["one"], out["two"]
    summary = two["summary"]
    assert summary["devices"] == 2
    # the config's batch is per device: one iteration on 2 devices plays 2 x 4 games
    per_iteration = 2 * 4 * 8
    assert summary["timesteps"] == per_iteration == one["decisions"]
    last = two["metrics"][-1]
    numbers = {k: v for k, v in last.items() if isinstance(v, float) and not k.endswith("rate")}
    assert numbers and all(math.isfinite(v) for v in numbers.values()), last
    # the same global batch on 1 device: the same statistics and weights after the
    # first iteration's gradient steps, up to float tolerance
    for key, value in one["stats"].items():
        assert _close(last[key], value), (key, last[key], value)
    assert _close(two["params"]["sum"], one["params"]["sum"])
    assert np.allclose(two["params"]["first"], one["params"]["first"], rtol=1e-4, atol=1e-6)
    # and that 1-device run is what the trainer gave before it could use several devices
    old = OLD_ONE_DEVICE[algo]
    assert one["decisions"] == old["decisions"]
    for key, value in old["stats"].items():
        assert _close(one["stats"][key], value), (key, one["stats"][key], value)
    assert _close(one["params"]["sum"], old["params"]["sum"])
    assert np.allclose(one["params"]["first"], old["params"]["first"], rtol=1e-5, atol=1e-7)


def test_devices_is_bounded_and_checked_against_the_machine() -> None:
    base = {
        "name": "d",
        "env": {"id": "jupiter_v0", "params": {"num_players": 2}},
        "budget": {"total_timesteps": 64},
        "eval": {"opponents": ["random"]},
    }
    for algo in ("alphazero", "jax_ppo"):
        assert parse_config({**base, "algorithm": {"name": algo}}).algorithm.devices == "all"
        for bad in (0, 5000, "some", 1.5):
            with pytest.raises(ConfigError, match="devices"):
                parse_config({**base, "algorithm": {"name": algo, "devices": bad}})
        # this test process sees one CPU device
        with pytest.raises(ConfigError, match=r"algorithm.devices: 2 but JAX sees 1"):
            parse_config({**base, "algorithm": {"name": algo, "devices": 2}})
