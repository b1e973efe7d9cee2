"""The run loop of the JAX trainers: run folder, evaluations, metrics, weights, progress.

::

    moon-envs train configs/jupiter_alphazero.yaml          # or, from Python:
    from moon_agents.training.config import load_config
    from moon_agents.training.train import train
    result = train(load_config("configs/jupiter_alphazero.yaml"))

The trainer (:class:`~moon_agents.training.jax.alphazero.AlphaZero` or
:class:`~moon_agents.training.jax.ppo.JaxPPO`) runs iterations until
``budget.total_timesteps`` self-play decisions (``budget.stop_at_timesteps``, when set:
the schedules still span the total) or ``budget.wall_clock_minutes``. Every
``eval.every_timesteps`` decisions (and at the end) the current network plays
``eval.games`` games in the Python env against each of ``eval.opponents`` (seats
rotated, the run's evaluation seed) and a metrics row is added.

A run folder ``<output.dir>/<run name>/`` holds::

    config.yaml, versions.json, seed
    metrics.csv / metrics.json  one row per evaluation; no column depends on the clock,
                                so the same config and seed give the same rows on a CPU
    timing.csv                  wall time, self-play decisions/s and SGD updates/s per row
    learning_curve.png          evaluation win rates (95% CI) by wall time
    checkpoints/step_<N>.npz    the network at every evaluation
    model.npz                   the exported network (agent spec "az:<run>/model.npz"):
                                ``export: best`` keeps the evaluation with the highest
                                worst-case win rate over eval.opponents (the first one
                                reaching it; never the step-0 network of an init_from
                                run, which is the file it started from), ``last`` the last
    summary.json                final numbers, wall time, speeds, the device count
    resume/state.npz            what --resume continues from: the trainer's whole state
                                after the last evaluation (checkpointing.py)

Ctrl-C stops a run early and still writes the model, metrics and plot. Every file is
written atomically (a temporary file, then ``os.replace``), so a run killed at any moment
(even ``kill -9``) leaves a consistent folder that ``moon-envs train --resume RUN``
continues; on a CPU the resumed run's ``metrics.csv`` rows are those of an uninterrupted
run.
"""

from __future__ import annotations

import csv
import io
import json
import math
import time
from pathlib import Path
from typing import Any

import yaml

from moon_agents.net_agent import NetAgent
from moon_agents.net_weights import save_net
from moon_agents.progress import advance, progress_bar, resolve
from moon_agents.training.jax.checkpointing import load_state, save_state
from moon_agents.training.jax.network import net_description
from moon_agents.training.resume import check_resumable
from moon_agents.training.run_folder import (
    TrainResult,
    atomic_path,
    make_run_dir,
    package_versions,
    write_atomic,
)
from moon_agents.training.run_folder import write_metrics as _write_metrics
from moon_envs.core.game import ConfigError

_VERSIONED = ("jax", "jaxlib", "equinox", "optax", "mctx")


def train_jax(
    config: Any, progress: bool | None = None, resume: str | Path | None = None
) -> TrainResult:
    """Run a JAX-trainer experiment and write its run folder (see the module docstring);
    ``progress`` as in :func:`moon_agents.training.train.train`; ``resume``: a run folder
    of this config to continue from its resume state (docs/training.md, "Resuming a
    run")."""
    import moon_envs.jax as mj

    show = resolve(progress, config.output.progress_bar)
    trainer_class = _trainer_class(config)
    resumable_trainer = getattr(trainer_class, "RESUMABLE", True)
    if resume is not None and not resumable_trainer:
        raise ConfigError(
            f"--resume {resume}: the {config.algorithm.name} trainer keeps no resume state; "
            "rerun the config instead"
        )
    twin = mj.make(config.env.id, **config.env.params)
    trainer = trainer_class(config, twin)
    if resume is None:
        run_dir = make_run_dir(config)
        write_atomic(run_dir / "versions.json", json.dumps(package_versions(_VERSIONED), indent=2))
        write_atomic(run_dir / "seed", f"{config.seed}\n")
        loop: dict[str, Any] = {
            "metrics": [],
            "timing": [],
            "best": [-math.inf, -1],
            "next_eval": 0,
            "selfplay_s": 0.0,
            "learn_s": 0.0,
            "elapsed_s": 0.0,
            "stats": {},
            "resumed_from": [],
        }
    else:
        run_dir = check_resumable(resume, config)
        loop = load_state(run_dir, trainer)
        loop["resumed_from"] = [*loop.get("resumed_from", []), trainer.decisions]
        # rows after the resume point (an interrupted session's) are dropped now
        _write_metrics(loop["metrics"], run_dir)
        if loop["timing"]:
            _write_timing(loop["timing"], run_dir)
    write_atomic(run_dir / "config.yaml", yaml.safe_dump(config.to_dict(), sort_keys=False))
    description = getattr(trainer, "description", None) or net_description(config, twin)
    init_from = config.algorithm.init_from
    started = {} if init_from is None else {"init_from": init_from}

    budget = config.budget.stop_at_timesteps or config.budget.total_timesteps or 2**62
    minutes = config.budget.wall_clock_minutes
    every = config.eval.every_timesteps or math.inf
    metrics: list[dict[str, Any]] = loop["metrics"]
    timing: list[dict[str, Any]] = loop["timing"]
    bar = _bar(show, config, budget, trainer.devices.count)
    if bar is not None and trainer.decisions:
        bar.update(trainer.decisions)
    if bar is not None and hasattr(trainer, "report"):  # progress inside an iteration
        trainer.report = lambda done: advance(bar, done)
    start = time.perf_counter() - loop["elapsed_s"]
    interrupted = False

    def evaluate(resumable: bool) -> None:
        arrays = trainer.arrays()
        step = trainer.decisions
        path = run_dir / "checkpoints" / f"step_{step}.npz"
        save_net(path, arrays, {**description, "training": {"decisions": step, **started}})
        row = {"timesteps": step, "updates": trainer.updates, **loop["stats"]}
        results = _evaluate(config, NetAgent(arrays, description, name="learner"))
        for key, (rate, lo, hi) in results.items():
            row[f"eval_{key}_win_rate"] = rate
            row[f"eval_{key}_ci_low"] = lo
            row[f"eval_{key}_ci_high"] = hi
        worst = min(rate for rate, _, _ in results.values())
        row["gate_score"] = worst
        best = loop["best"]
        if worst > best[0] and (step > 0 or init_from is None):  # not the file it started from
            loop["best"] = [worst, step]
        metrics.append(row)
        elapsed = time.perf_counter() - start
        timing.append(
            {
                "timesteps": step,
                "wall_s": round(elapsed, 2),
                "selfplay_decisions_per_s": round(step / max(loop["selfplay_s"], 1e-9), 1),
                "sgd_updates_per_s": round(trainer.updates / max(loop["learn_s"], 1e-9), 1),
            }
        )
        _write_metrics(metrics, run_dir)
        _write_timing(timing, run_dir)
        if resumable and resumable_trainer:  # the point a later --resume starts from
            loop["elapsed_s"] = elapsed
            save_state(run_dir, trainer, loop)
        if bar is not None:
            bar.set_postfix(bar_labels(row), refresh=False)

    try:
        while True:
            if trainer.decisions >= loop["next_eval"]:
                loop["next_eval"] += every
                evaluate(resumable=True)
            out_of_time = minutes is not None and time.perf_counter() - start > 60.0 * minutes
            if trainer.decisions >= budget or out_of_time:
                break
            stats = trainer.iteration()
            loop["selfplay_s"] += stats.pop("selfplay_s")
            loop["learn_s"] += stats.pop("learn_s")
            loop["stats"] = stats
            if bar is not None:
                advance(bar, trainer.decisions)
    except KeyboardInterrupt:
        interrupted = True
    if not metrics or metrics[-1]["timesteps"] != trainer.decisions:
        # an interrupted run's last row is no resume point: --resume starts from the
        # evaluation before it, so that the rows stay those of an uninterrupted run
        evaluate(resumable=not interrupted)
    elapsed = time.perf_counter() - start
    if bar is not None:
        bar.close()

    best = loop["best"]
    chosen = best[1] if config.export == "best" and best[1] >= 0 else trainer.decisions
    model_path = run_dir / "model.npz"
    source = run_dir / "checkpoints" / f"step_{chosen}.npz"
    write_atomic(model_path, source.read_bytes())
    if config.output.plot:
        try:
            plot_curve(metrics, timing, run_dir / "learning_curve.png", config)
        except ImportError:
            pass
    final = {k: v for k, v in metrics[-1].items() if k.startswith("eval_")}
    selfplay_s, learn_s = loop["selfplay_s"], loop["learn_s"]
    summary = {
        "run_dir": str(run_dir),
        "algorithm": config.algorithm.name,
        "timesteps": trainer.decisions,
        "sgd_updates": trainer.updates,
        "elapsed_s": round(elapsed, 2),
        "selfplay_decisions_per_s": round(trainer.decisions / max(selfplay_s, 1e-9), 1),
        "sgd_updates_per_s": round(trainer.updates / max(learn_s, 1e-9), 1),
        "final_eval": final,
        "exported": {
            "policy": config.export,
            "timesteps": chosen,
            "worst_win_rate": next(r["gate_score"] for r in metrics if r["timesteps"] == chosen),
        },
        "model": str(model_path),
        "interrupted": interrupted,
        "resumed_from_timesteps": loop["resumed_from"],
        "device": _device(),
        "devices": trainer.devices.count,
    }
    write_atomic(run_dir / "summary.json", json.dumps(summary, indent=2))
    result = TrainResult(
        run_dir=run_dir,
        model_path=model_path,
        metrics=metrics,
        timesteps=trainer.decisions,
        elapsed_s=elapsed,
        snapshots=getattr(trainer, "snapshots", None),  # jax_ppo's pool; alphazero has none
        final_eval=final,
        interrupted=interrupted,
        device=_device(),
    )
    result.agent_spec = f"az:{model_path}"  # type: ignore[attr-defined]
    return result


def _trainer(config: Any, twin: Any) -> Any:
    """The trainer of ``config`` on ``twin``."""
    return _trainer_class(config)(config, twin)


def _trainer_class(config: Any) -> Any:
    if config.algorithm.name == "imitation":
        from moon_agents.training.jax.imitation import Imitation

        return Imitation
    if config.algorithm.name == "alphazero":
        from moon_agents.training.jax.alphazero import AlphaZero

        return AlphaZero
    from moon_agents.training.jax.ppo import JaxPPO

    return JaxPPO


def _evaluate(config: Any, learner: NetAgent) -> dict[str, tuple[float, float, float]]:
    from moon_agents.evaluation.tournament import evaluate_learner

    return evaluate_learner(config, learner, lambda spec: spec.replace(":", "_"))


def _write_timing(rows: list[dict[str, Any]], run_dir: Path) -> None:
    text = io.StringIO(newline="")
    w = csv.DictWriter(text, fieldnames=list(rows[0]))
    w.writeheader()
    w.writerows(rows)
    write_atomic(run_dir / "timing.csv", text.getvalue())


def bar_labels(row: dict[str, Any]) -> dict[str, str]:
    """A metrics row's win rates as the bar shows them: ``eval_greedy_win_rate`` as
    ``greedy``, ``learner_win_rate`` (jax_ppo's pool games) as ``learner``."""
    shown = {}
    for key, value in row.items():
        if key.endswith("_win_rate"):
            label = key[: -len("_win_rate")]
            shown[label.removeprefix("eval_")] = f"{value:.2f}"
    return shown


def _bar(show: bool | None, config: Any, total: int, devices: int = 1) -> Any:
    """The run's progress bar, the device count after its name."""
    desc = f"{config.run_name()} [{devices} device{'s' if devices > 1 else ''}]"
    return progress_bar(show, total=None if total >= 2**62 else total, desc=desc, unit="decision")


def plot_curve(
    metrics: list[dict[str, Any]], timing: list[dict[str, Any]], path: Path, config: Any
) -> None:
    """Evaluation win rates (95% CI bands) against wall-clock minutes."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    minutes = [t["wall_s"] / 60 for t in timing]
    fig, ax = plt.subplots(figsize=(8.5, 4))
    for key in metrics[0]:
        if key.startswith("eval_") and key.endswith("_win_rate"):
            stem = key[: -len("_win_rate")]
            ax.plot(minutes, [m[key] for m in metrics], marker="o", label=f"vs {stem[5:]}")
            ax.fill_between(
                minutes,
                [m[f"{stem}_ci_low"] for m in metrics],
                [m[f"{stem}_ci_high"] for m in metrics],
                alpha=0.2,
            )
    ax.axhline(0.5, color="gray", linewidth=0.8)
    ax.set_ylim(0, 1)
    ax.set_xlabel("wall-clock minutes")
    ax.set_ylabel("win rate (ties count half)")
    ax.set_title(f"{config.name} ({config.env.id}, {config.algorithm.name})")
    ax.grid(alpha=0.3)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, borderaxespad=0.0)
    fig.tight_layout()
    with atomic_path(path) as tmp:
        fig.savefig(tmp, dpi=100)
    plt.close(fig)


def _device() -> str:
    import jax

    return str(jax.devices()[0].platform)
