"""MaskablePPO self-play training from an :class:`~moon_agents.training.config.ExperimentConfig`.

::

    moon-envs train configs/jupiter_ppo.yaml            # or, from Python:
    from moon_agents.training.config import load_config
    from moon_agents.training.train import train
    result = train(load_config("configs/jupiter_ppo.yaml"))

The learner plays ``config.env`` through :class:`moon_envs.core.wrappers.SingleAgentEnv`
(a seat drawn each episode, the other seats played by opponents from a pool) in
``algorithm.n_envs`` copies inside a ``DummyVecEnv``. The pool starts with
``opponents.pool`` (e.g. random and greedy, one seeded instance per env) and, every
``opponents.snapshots.every_timesteps``, gains a frozen copy of the learner; only the
newest ``max_in_pool`` snapshots stay. Every ``eval.every_timesteps`` the learner plays
``eval.games`` greedy games against each of ``eval.opponents`` (seats rotated, fixed
seeds) and a row is added to the metrics.

A run folder ``<output.dir>/<run name>/`` holds::

    config.yaml          the resolved config (every default filled in)
    versions.json        Python and package versions, platform
    seed                 the seed, as text
    metrics.csv          one row per evaluation (also metrics.json)
    summary.json         final numbers, wall time, steps/s
    learning_curve.png   evaluation win rates (95% CI bands) and training win rate
    checkpoints/         step_<N>.zip every checkpoints.every_timesteps, snapshot_<N>.zip
    tb/                  TensorBoard logs (tensorboard --logdir <run>/tb)
    model.zip            the final model (agent spec "ppo:<run>/model.zip")
    resume/              state.json (what --resume continues from: the last checkpoint's
                         counters, metrics, generators) and pool_<N>.zip, the pool's
                         snapshots (moon_agents.training.sb3_resume)

Metrics are rewritten after every evaluation, and Ctrl-C stops a run early but still
saves the model, metrics and plot (``"interrupted": true`` in ``summary.json``). Every
file is written atomically, so a killed run leaves a consistent folder, and
``train(config, resume=RUN)`` (``moon-envs train --resume RUN``) continues it from its
last checkpoint, appending to its metrics (:mod:`moon_agents.training.resume`).

On CPU, the same config and seed give the same metrics: every generator (Python, numpy,
torch, each env, each opponent) is seeded from ``seed``, torch runs
``torch_threads`` threads, and no metric depends on the clock (wall times are kept in
``summary.json`` only). A ``budget.wall_clock_minutes`` limit makes *where* a run stops
depend on the machine.

This module runs the experiment (:func:`train`); the run folder is written by
:mod:`moon_agents.training.run_folder`, the envs, opponents and model are built by
:mod:`moon_agents.training.build`, and the self-play callback is in
:mod:`moon_agents.training.callback`.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import yaml

from moon_agents.checkpoint import save_checkpoint
from moon_agents.training import sb3_resume
from moon_agents.training.build import build_model, build_vec_env, seed_everything
from moon_agents.training.callback import _make_callback_class
from moon_agents.training.config import ExperimentConfig
from moon_agents.training.resume import check_resumable
from moon_agents.training.run_folder import (
    TrainResult,
    atomic_path,
    make_run_dir,
    package_versions,
    plot_learning_curve,
    write_atomic,
    write_metrics,
)
from moon_envs.core.game import ConfigError

__all__ = [  # the entry point and, for existing imports, the helpers of the modules beside it
    "TrainResult",
    "build_model",
    "build_vec_env",
    "make_run_dir",
    "package_versions",
    "plot_learning_curve",
    "seed_everything",
    "train",
    "write_metrics",
]


# ---- the entry point ----------------------------------------------------------------------


def train(
    config: ExperimentConfig, progress: bool | None = None, resume: str | Path | None = None
) -> TrainResult:
    """Run the experiment ``config`` and write its run folder; see the module docstring.

    ``progress``: ``True`` draws the progress bar on stderr, ``False`` none; ``None`` (the
    default) honours ``output.progress_bar`` on a terminal only
    (:func:`moon_agents.progress.resolve`). ``resume``: a run folder written with
    ``config`` (budget fields aside) to continue from its last resume point instead of
    starting a new folder (:mod:`moon_agents.training.resume`; the RLlib back-end has no
    resume).
    """
    # -- RLlib back-end: `algorithm: rllib-ppo` configs train on Ray
    # (agents/training/rllib/train.py)
    if config.algorithm.name == "rllib-ppo":
        if resume is not None:
            raise ConfigError("--resume: the rllib-ppo trainer cannot resume a run folder")
        from moon_agents.training.rllib.train import train_rllib

        return train_rllib(config, progress)
    # -- JAX trainers: `algorithm: alphazero` / `jax_ppo` / `imitation`
    # (agents/training/jax/run.py)
    if config.algorithm.name in ("alphazero", "jax_ppo", "imitation"):
        from moon_agents.training.jax.run import train_jax

        return train_jax(config, progress, resume)
    # --
    try:
        import sb3_contrib  # noqa: F401
        import torch  # noqa: F401
    except ImportError as exc:  # pragma: no cover - depends on the install
        raise ConfigError(
            'training needs torch and sb3-contrib: pip install "moon-envs[train]"'
        ) from exc

    seed_everything(config.seed, config.torch_threads)
    game = config.env.game_name()
    # the envs and the opponents first: a refused opponent (say, an unsafe checkpoint)
    # stops the run before its folder is written
    vec_env, fixed = build_vec_env(config, game)
    if resume is None:
        run_dir = make_run_dir(config)
        write_atomic(run_dir / "versions.json", json.dumps(package_versions(), indent=2))
        write_atomic(run_dir / "seed", f"{config.seed}\n")
    else:
        run_dir = check_resumable(resume, config)
        state = sb3_resume.load_state(run_dir)
    write_atomic(run_dir / "config.yaml", yaml.safe_dump(config.to_dict(), sort_keys=False))
    tb_dir = run_dir / "tb" if config.output.tensorboard else None
    model = build_model(config, vec_env, tb_dir)
    callback = _make_callback_class()(config, run_dir, fixed, game, progress)
    callback.vec_env = vec_env
    resumed_from: list[int] = []
    if resume is not None:
        snapshots = sb3_resume.restore(run_dir, state, model, vec_env)
        callback.restore_fields(state["callback"], snapshots, state["pool"])
        callback.set_pools(vec_env)
        resumed_from = [*state["callback"].get("resumed_from", []), model.num_timesteps]
        write_metrics(callback.metrics, run_dir)  # rows after the checkpoint are dropped
    callback.resumed_from = resumed_from

    budget = config.budget.total_timesteps or 2**62
    start = time.perf_counter()
    interrupted = False
    try:
        model.learn(
            total_timesteps=max(budget - model.num_timesteps, 0),
            callback=callback,
            tb_log_name="ppo",
            reset_num_timesteps=resume is None,
        )
    except KeyboardInterrupt:  # Ctrl-C: keep what was learnt, write the run folder
        interrupted = True
        callback.finish()
    elapsed = callback.elapsed_before + time.perf_counter() - start

    model_path = run_dir / "model.zip"
    with atomic_path(model_path) as tmp:
        save_checkpoint(model, tmp)
    write_metrics(callback.metrics, run_dir)
    callback.save_resume_state(callback.checkpoint(f"step_{model.num_timesteps}.zip"))
    if config.output.plot:
        try:
            plot_learning_curve(
                callback.metrics, run_dir / "learning_curve.png", f"{config.name} ({config.env.id})"
            )
        except ImportError:
            pass
    final = {k: v for k, v in callback.metrics[-1].items() if k.startswith("eval_")}
    summary = {
        "run_dir": str(run_dir),
        "timesteps": int(model.num_timesteps),
        "episodes": callback.episodes,
        "snapshots": len(callback.snapshots),
        "elapsed_s": round(elapsed, 2),
        "steps_per_s": round(model.num_timesteps / max(elapsed, 1e-9), 1),
        "final_eval": final,
        "model": str(model_path),
        "interrupted": interrupted,
        "resumed_from_timesteps": resumed_from,
        "device": str(model.device),
    }
    write_atomic(run_dir / "summary.json", json.dumps(summary, indent=2))
    vec_env.close()
    return TrainResult(
        run_dir=run_dir,
        model_path=model_path,
        metrics=callback.metrics,
        timesteps=int(model.num_timesteps),
        elapsed_s=elapsed,
        snapshots=len(callback.snapshots),
        final_eval=final,
        interrupted=interrupted,
        device=str(model.device),
    )
