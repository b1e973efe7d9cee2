"""``moon-envs train``: train from a YAML config (with command-line overrides) and report.

The config is a file path or the name of a shipped config (``moon-envs configs`` lists
them; :func:`moon_agents.cli.configs.resolve_config`).

The progress bar counts timesteps (self-play decisions) with an ETA. ``--progress`` or
``--no-progress``, when given, wins; otherwise the config's ``output.progress_bar`` is
honoured on a terminal only (:func:`moon_agents.progress.resolve`).

``--resume RUN`` continues the run folder ``RUN`` from its last resume point (see
:mod:`moon_agents.training.resume`), appending to its metrics; its config is the folder's
``config.yaml`` (or the config given, which must match it but for the budget), and
``--timesteps`` may extend the budget.

A trainer works in whole iterations (a rollout, or a round of self-play games), so a
budget that is not a whole number of them is rounded up, and the command says so before
it starts. For a quick trial run, ``--timesteps 1 --eval-games 2`` runs one iteration with
two-game evaluations.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, TextIO


def add_resume_flag(parser: argparse.ArgumentParser) -> None:
    """The ``--resume RUN`` option of ``moon-envs train``."""
    parser.add_argument(
        "--resume",
        metavar="RUN",
        help="continue the run folder RUN from its last checkpoint, appending to its "
        "metrics (--timesteps may extend the budget; docs/training.md, 'Resuming a run')",
    )


def cmd_train(args: argparse.Namespace, out: TextIO) -> int:
    from moon_agents.cli.configs import resolve_config
    from moon_agents.cli.usage import UsageError
    from moon_agents.training.config import load_config
    from moon_agents.training.resume import resume_config
    from moon_agents.training.train import train

    resume = getattr(args, "resume", None)
    overrides: dict[str, Any] = {}
    if args.timesteps is not None:
        overrides["budget.total_timesteps"] = args.timesteps
    eval_games = getattr(args, "eval_games", None)
    if eval_games is not None:
        overrides["eval.games"] = eval_games
    if resume is not None:
        flags = (("--out", args.out), ("--seed", args.seed), ("--eval-games", eval_games))
        for flag, value in flags:
            if value is not None:
                raise UsageError(
                    f"{flag}: a resumed run keeps its folder and seed; allowed with --resume: "
                    f"--timesteps, --progress/--no-progress"
                )
    elif args.config is None:
        raise UsageError("train: give a config file (or a shipped config's name), or --resume RUN")
    if args.config is not None:
        path, shipped = resolve_config(args.config)
        if shipped is not None:
            print(f"using the shipped config {shipped.name} ({path})", file=sys.stderr)
        if args.out is not None:
            overrides["output.dir"] = args.out
        if args.seed is not None:
            overrides["seed"] = args.seed
        config = load_config(path, overrides)
    else:
        config = resume_config(resume, overrides)
    verb = f"resuming {resume}:" if resume is not None else "training"
    print(f"{verb} {config.name} on {config.env.id} (seed {config.seed})", file=out)
    note = rounding_note(config)
    if note:
        print(note, file=out)
    result = train(config, progress=args.progress, resume=resume)
    if result.interrupted:
        print(
            f"training interrupted (Ctrl-C) at {result.timesteps} timesteps; what was learnt "
            f"is saved in {result.run_dir} ({result.model_path.name}, metrics, summary.json)",
            file=out,
        )
    print(f"run folder: {result.run_dir}  (device: {result.device})", file=out)
    pool = "" if result.snapshots is None else f"  snapshots: {result.snapshots}"
    print(f"timesteps: {result.timesteps}{pool}  wall time: {result.elapsed_s:.1f} s", file=out)
    for key, value in result.final_eval.items():
        if key.endswith("_win_rate"):
            stem = key[: -len("_win_rate")]
            lo, hi = result.final_eval[f"{stem}_ci_low"], result.final_eval[f"{stem}_ci_high"]
            print(f"final win rate vs {stem[5:]}: {value:.3f} [{lo:.3f}, {hi:.3f}]", file=out)
    spec = getattr(result, "agent_spec", f"ppo:{result.model_path}")  # rllib: runs differ
    print(f"model: {result.model_path}  (agent spec {spec})", file=out)
    return 0


def iteration_size(config: Any) -> tuple[int, str] | None:
    """The decisions one iteration of ``config``'s trainer takes, and how they are made up;
    None where iterations vary (RLlib's)."""
    a = config.algorithm
    if a.name == "maskable_ppo":
        return a.n_envs * a.n_steps, f"n_envs {a.n_envs} x n_steps {a.n_steps}"
    if a.name == "alphazero":
        return a.games * a.unroll, f"games {a.games} x unroll {a.unroll}"
    if a.name == "jax_ppo":
        return a.num_envs * a.num_steps, f"num_envs {a.num_envs} x num_steps {a.num_steps}"
    # imitation: a round's positions depend on how long its games last
    return None


def rounding_note(config: Any) -> str | None:
    """The line saying that ``budget.total_timesteps`` is rounded up to whole iterations,
    or None when it is a whole number of them (or there is no timestep budget)."""
    total, size = config.budget.total_timesteps, iteration_size(config)
    if total is None or size is None or total % size[0] == 0:
        return None
    rounded = -(-total // size[0]) * size[0]
    return (
        f"note: budget.total_timesteps {total:,} is rounded up to {rounded:,}: the trainer "
        f"works in whole iterations of {size[0]:,} decisions ({size[1]})"
    )
