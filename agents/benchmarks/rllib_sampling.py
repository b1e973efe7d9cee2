"""Sampling throughput: RLlib with 1 and 2 env runners beside the SB3 trainer, one run.

::

    python -m moon_agents.benchmarks.rllib_sampling --env jupiter_v0 --seconds 20 [--runners 1 2]

Every contender plays the learner's seat against ``random`` (played inside the env, as
in training) with an untrained policy of the same shape, and only the learner's steps
count, so the figures compare like with like:

* ``sb3``: the SB3 trainer's ``DummyVecEnv`` of ``n_envs`` envs in one process, timed
  over ``MaskablePPO.collect_rollouts`` (sampling only);
* ``rllib-NxK``: ``N`` RLlib env runners of ``K`` envs each sampling in parallel
  (``EnvRunner.sample``), timed from the driver, on a local Ray with ``N + 1`` CPUs;
  ``N = 0`` samples with the driver's own env runner (no sampling process).

Ratios are to ``sb3`` measured in the same run (the machine may be shared). On a cluster,
``--address auto`` joins it and ``--runners 1 8 32`` shows how sampling scales there.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from moon_agents.cli.ranges import MAX_SECONDS, PositiveNumber, WholeNumber
from moon_agents.cli.usage import UsageError

PARAMS = {"num_players": 2}
SB3_ENVS = 8
"""Envs of the SB3 trainer's ``DummyVecEnv``."""
SB3_STEPS = 256
"""Steps per env of one SB3 ``collect_rollouts`` (one rollout: ``SB3_ENVS x SB3_STEPS``)."""
RLLIB_CHUNK = 1000
"""Timesteps each RLlib env runner samples per call (one warm-up call, then timed calls)."""


def bench_sb3(
    env_id: str, seconds: float, n_envs: int | None = None, n_steps: int | None = None
) -> float:
    """Learner steps per second of the SB3 trainer's sampling (collect_rollouts), over
    whole rollouts of ``n_envs`` (:data:`SB3_ENVS`) x ``n_steps`` (:data:`SB3_STEPS`)."""
    n_envs = SB3_ENVS if n_envs is None else n_envs
    n_steps = SB3_STEPS if n_steps is None else n_steps
    from moon_agents.training.build import build_model, build_vec_env, seed_everything
    from moon_agents.training.config import parse_config

    config = parse_config(
        {
            "env": {"id": env_id, "params": PARAMS},
            "algorithm": {"n_envs": n_envs, "n_steps": n_steps, "batch_size": n_steps},
            "opponents": {"pool": ["random"]},
            "eval": {"opponents": ["random"]},
        }
    )
    seed_everything(0, 1)
    vec, _ = build_vec_env(config, config.env.game_name())
    model = build_model(config, vec, None)
    _, callback = model._setup_learn(10**12, None)
    callback.on_training_start(locals(), globals())
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        model.collect_rollouts(model.env, callback, model.rollout_buffer, n_steps)
        steps += n_envs * n_steps
    return steps / (time.perf_counter() - start)


def bench_rllib(
    env_id: str, seconds: float, runners: int, address: str | None, envs_per_runner: int = 8
) -> float:
    """Learner steps per second of ``runners`` RLlib env runners sampling in parallel."""
    import ray

    from moon_agents.training.config import parse_config
    from moon_agents.training.rllib.train import build_algorithm, init_ray

    config = parse_config(
        {
            "env": {"id": env_id, "params": PARAMS},
            "algorithm": {"name": "rllib-ppo"},
            "opponents": {"pool": ["random"], "snapshots": {"every_timesteps": 0}},
            "eval": {"opponents": ["random"]},
            "ray": {
                "address": address,
                "num_env_runners": runners,
                "num_envs_per_env_runner": envs_per_runner,
                "num_cpus": runners + 1,
            },
        }
    )
    started = init_ray(config)
    algo = build_algorithm(config, ["random"], [])
    chunk = RLLIB_CHUNK

    def sample(runner: Any) -> int:
        episodes = runner.sample(num_timesteps=chunk)
        return sum(len(e) for e in episodes)

    group = algo.env_runner_group
    local = runners == 0  # no sampling process: the driver's own env runner samples
    group.foreach_env_runner(sample, local_env_runner=local)  # warm-up
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        steps += sum(group.foreach_env_runner(sample, local_env_runner=local))
    rate = steps / (time.perf_counter() - start)
    algo.stop()
    if started:
        ray.shutdown()
    return rate


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line's settings (``--help`` lists them)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--env", default="jupiter_v0")
    parser.add_argument(
        "--seconds", type=PositiveNumber("--seconds", MAX_SECONDS), default=20.0
    )
    parser.add_argument(
        "--runners",
        type=WholeNumber("--runners", (0, 1024)),
        nargs="+",
        default=[1, 2],
        help="0..1024 each; 0: sample in the driver",
    )
    parser.add_argument(
        "--envs-per-runner",
        type=WholeNumber("--envs-per-runner", (1, 1024)),
        nargs="+",
        default=[1, 8],
    )
    parser.add_argument("--address", default=None, help='join a cluster ("auto" or address)')
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> dict[str, float]:
    try:
        args = parse_args(argv)
    except UsageError as exc:  # one line naming the flag and its range, before any sampling
        raise SystemExit(f"rllib_sampling: {exc}") from None
    rates = {"sb3": bench_sb3(args.env, args.seconds)}
    for n in args.runners:
        for k in args.envs_per_runner:
            rates[f"rllib-{n}x{k}"] = bench_rllib(args.env, args.seconds, n, args.address, k)
    print(f"{args.env}, learner steps/s over {args.seconds:g} s each (vs random):")
    for name, rate in rates.items():
        print(f"  {name:10s} {rate:9.0f} steps/s   x{rate / rates['sb3']:.2f} vs sb3")
    print(json.dumps({k: round(v, 1) for k, v in rates.items()}))
    return rates


if __name__ == "__main__":
    main()
