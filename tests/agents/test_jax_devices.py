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
from typing import Any

import numpy as np
import pytest

pytest.importorskip("mctx")
pytest.importorskip("equinox")
pytest.importorskip("optax")

from moon_agents.training.config import parse_config
from moon_agents.training.train import train
from moon_envs import ConfigError

ROOT = Path(__file__).resolve().parents[2]

# first_iteration(tiny_config(algo, 2, None, ...)) as the trainers gave it on one CPU
# device before algorithm.devices existed (the commit before it, seed 3): the
# statistics, the parameters and the sum of the optimizer state after the first
# iteration's gradient steps.
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
        "opt_state": 2.8718580038194137,
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
        "opt_state": 5.368249214205505,
    },
}

HERE = Path(__file__).resolve().parent


def tiny_config(algo: str, scale: int, devices: int | str | None, out_dir: str) -> Any:
    """A tiny Jupiter config whose batch is ``scale`` times the smallest one;
    ``devices: None`` leaves the field out (as configs written before it did)."""
    if algo == "alphazero":
        section: dict[str, Any] = {
            "name": "alphazero",
            "games": 4 * scale,
            "unroll": 8,
            "simulations": 4,
            "max_considered_actions": 4,
            "hidden": [16],
            "batch_size": 16 * scale,
            "sample_reuse": 0.5,
            "value_target": "bootstrap",
            "max_grad_norm": 1000,
        }
    else:
        section = {
            "name": "jax_ppo",
            "num_envs": 4 * scale,
            "num_steps": 8,
            "num_minibatches": 2,
            "num_epochs": 1,
            "hidden": [16],
            "pool_size": 2,
            "max_grad_norm": 1000,
        }
    if devices is not None:
        section["devices"] = devices
    return parse_config({
        "name": "probe", "seed": 3,
        "env": {"id": "jupiter_v0", "params": {"num_players": 2}},
        "algorithm": section, "budget": {"total_timesteps": 64},
        "eval": {"every_timesteps": 0, "games": 2, "opponents": ["random"]},
        "export": "last",
        "output": {"dir": out_dir, "progress_bar": False, "plot": False},
    })  # fmt: skip


def summary_of(leaves: list[Any]) -> dict[str, Any]:
    """The sum of absolute values of ``leaves`` and their first 8 numbers."""
    flat = np.concatenate([np.asarray(x, np.float64).ravel() for x in leaves])
    return {"sum": float(np.abs(flat).sum()), "first": [float(v) for v in flat[:8]]}


def first_iteration(config: Any) -> dict[str, Any]:
    """One iteration of ``config``'s trainer: the decisions played, the statistics, and
    the parameters and optimizer state after its gradient steps."""
    import jax

    import moon_envs.jax as mj
    from moon_agents.training.jax.run import _trainer

    trainer = _trainer(config, mj.make(config.env.id, **config.env.params))
    stats = trainer.iteration()
    arrays = trainer.arrays()
    return {
        "decisions": trainer.decisions,
        "stats": {k: v for k, v in stats.items() if not k.endswith("_s")},
        "params": summary_of([arrays[k] for k in sorted(arrays)]),
        "opt_state": summary_of(jax.tree.leaves(jax.device_get(trainer.opt_state)))["sum"],
    }


# For each algorithm named (comma-separated): a tiny run on the devices the process
# sees, the first iteration's numbers as above (one process for all: one start-up)
PROBE = r"""
import json, sys, zipfile
from pathlib import Path
import jax
import numpy as np
sys.path.insert(0, sys.argv[3])
from test_jax_devices import summary_of, tiny_config
import moon_envs.jax as mj
from moon_agents.net_weights import load_net
from moon_agents.training.jax.checkpointing import load_state
from moon_agents.training.jax.run import _trainer
from moon_agents.training.train import train

for algo in sys.argv[1].split(","):
    out_dir = str(Path(sys.argv[2]) / algo)
    result = train(tiny_config(algo, 1, "all", out_dir))
    arrays = load_net(result.model_path)[0]
    with zipfile.ZipFile(result.run_dir / "resume" / "state.npz") as zf:
        names = sorted(n for n in zf.namelist() if n.startswith("opt_state."))
        opt = [np.load(zf.open(n), allow_pickle=False) for n in names]
    out = {
        "summary": json.loads((result.run_dir / "summary.json").read_text()),
        "metrics": result.metrics,
        "params": summary_of([arrays[k] for k in sorted(arrays)]),
        "opt_state": summary_of(opt)["sum"],
    }
    # the resume state, gathered to the host when written, goes back onto both devices
    config = tiny_config(algo, 1, "all", out_dir)
    fresh = _trainer(config, mj.make(config.env.id, **config.env.params))
    load_state(result.run_dir, fresh)
    resumed = fresh.arrays()
    out["resumed"] = {
        "decisions": fresh.decisions,
        "same_params": all(np.array_equal(resumed[k], arrays[k]) for k in arrays),
        "devices": sorted({len(x.sharding.device_set) for x in jax.tree.leaves(fresh.params)}),
    }
    print("PROBE " + algo + " " + json.dumps(out))
"""

ALGORITHMS = ("alphazero", "jax_ppo")


def probe(algos: tuple[str, ...], out_dir: Path, devices: int = 2) -> dict[str, dict]:
    """Run PROBE for each of ``algos`` in one fresh python that sees ``devices`` simulated
    CPU devices; its numbers by algorithm."""
    env = dict(os.environ)
    env["XLA_FLAGS"] = f"--xla_force_host_platform_device_count={devices}"
    env["JAX_PLATFORMS"] = "cpu"
    done = subprocess.run(
        [sys.executable, "-c", PROBE, ",".join(algos), str(out_dir), str(HERE)],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    lines = [x.split(" ", 2) for x in done.stdout.splitlines() if x.startswith("PROBE ")]
    return {algo: json.loads(numbers) for _, algo, numbers in lines}


@pytest.fixture(scope="module")
def two_device_runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict]:
    """Both trainers' tiny runs on 2 simulated devices, by algorithm."""
    return probe(ALGORITHMS, tmp_path_factory.mktemp("two_devices"))


def _close(a: float, b: float, rel: float) -> bool:
    both_nan = isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b)
    return both_nan or a == pytest.approx(b, rel=rel, abs=rel / 100)


@pytest.mark.parametrize("algo", ALGORITHMS)
def test_one_device_gives_the_numbers_of_the_trainer_before_the_split(
    algo: str, tmp_path: Path
) -> None:
    # this process sees one CPU device: devices left out means all of them, one
    one = first_iteration(tiny_config(algo, 2, None, str(tmp_path)))
    old = OLD_ONE_DEVICE[algo]
    assert one["decisions"] == old["decisions"]
    # the losses are means of float32 terms that nearly cancel (a policy loss of -0.002):
    # their last digits move with the XLA build's summation order, the weights' do not
    for key, value in old["stats"].items():
        assert _close(one["stats"][key], value, 1e-4), (key, one["stats"][key], value)
    assert _close(one["params"]["sum"], old["params"]["sum"], 1e-6)
    assert np.allclose(one["params"]["first"], old["params"]["first"], rtol=1e-6, atol=1e-8)
    assert _close(one["opt_state"], old["opt_state"], 1e-6)


@pytest.mark.parametrize("algo", ALGORITHMS)
def test_two_devices_play_twice_the_games_and_average_the_gradients(
    algo: str, tmp_path: Path, two_device_runs: dict[str, dict]
) -> None:
    two = two_device_runs[algo]
    summary = two["summary"]
    assert summary["devices"] == 2
    # the config's batch is per device: one iteration on 2 devices plays 2 x 4 games
    old = OLD_ONE_DEVICE[algo]  # one device, the same global batch of 8 games
    assert summary["timesteps"] == 2 * 4 * 8 == old["decisions"]
    last = two["metrics"][-1]
    numbers = {k: v for k, v in last.items() if isinstance(v, float) and not k.endswith("rate")}
    assert numbers and all(math.isfinite(v) for v in numbers.values()), last
    # the first iteration's statistics, weights and Adam moments (which scale with the
    # gradient) are those of one device with the same global batch, to float tolerance
    for key, value in old["stats"].items():
        assert _close(last[key], value, 1e-4), (key, last[key], value)
    assert _close(two["params"]["sum"], old["params"]["sum"], 1e-4)
    assert np.allclose(two["params"]["first"], old["params"]["first"], rtol=1e-4, atol=1e-6)
    assert _close(two["opt_state"], old["opt_state"], 1e-4)
    # its resume state loads onto 2 devices, and is refused on 1, with the reason
    assert two["resumed"] == {"decisions": 64, "same_params": True, "devices": [2]}
    with pytest.raises(ConfigError, match=r"written by a run on 2 device\(s\); this run has 1"):
        train(tiny_config(algo, 1, "all", str(tmp_path)), resume=summary["run_dir"])


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
