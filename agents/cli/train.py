"""``moon-envs train``: train from a YAML config (with command-line overrides) and report.

The config is a file path or the name of a shipped config (``moon-envs configs`` lists
them; :func:`moon_agents.cli.configs.resolve_config`).

The progress bar counts timesteps (self-play decisions) with an ETA. ``--progress`` or
``--no-progress``, when given, wins; otherwise the config's ``output.progress_bar`` is
honoured on a terminal only (:func:`moon_agents.progress.resolve`).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, TextIO


def cmd_train(args: argparse.Namespace, out: TextIO) -> int:
    from moon_agents.cli.configs import resolve_config
    from moon_agents.training.config import load_config
    from moon_agents.training.train import train

    path, shipped = resolve_config(args.config)
    if shipped is not None:
        print(f"using the shipped config {shipped.name} ({path})", file=sys.stderr)
    overrides: dict[str, Any] = {}
    if args.out is not None:
        overrides["output.dir"] = args.out
    if args.timesteps is not None:
        overrides["budget.total_timesteps"] = args.timesteps
    if args.seed is not None:
        overrides["seed"] = args.seed
    config = load_config(path, overrides)
    print(f"training {config.name} on {config.env.id} (seed {config.seed})", file=out)
    result = train(config, progress=args.progress)
    if result.interrupted:
        print(
            f"training interrupted (Ctrl-C) at {result.timesteps} timesteps; what was learnt "
            f"is saved in {result.run_dir} ({result.model_path.name}, metrics, summary.json)",
            file=out,
        )
    print(f"run folder: {result.run_dir}  (device: {result.device})", file=out)
    print(
        f"timesteps: {result.timesteps}  snapshots: {result.snapshots}  "
        f"wall time: {result.elapsed_s:.1f} s",
        file=out,
    )
    for key, value in result.final_eval.items():
        if key.endswith("_win_rate"):
            stem = key[: -len("_win_rate")]
            lo, hi = result.final_eval[f"{stem}_ci_low"], result.final_eval[f"{stem}_ci_high"]
            print(f"final win rate vs {stem[5:]}: {value:.3f} [{lo:.3f}, {hi:.3f}]", file=out)
    spec = getattr(result, "agent_spec", f"ppo:{result.model_path}")  # rllib: runs differ
    print(f"model: {result.model_path}  (agent spec {spec})", file=out)
    return 0
