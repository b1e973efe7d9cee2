"""MaskablePPO self-play training from an :class:`~agents.config.ExperimentConfig`.

::

    moon-envs train configs/jupiter_ppo.yaml            # or, from Python:
    from agents.config import load_config
    from agents.train import train
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

Metrics are rewritten after every evaluation, and Ctrl-C stops a run early but still
saves the model, metrics and plot (``"interrupted": true`` in ``summary.json``).

On CPU, the same config and seed give the same metrics: every generator (Python, numpy,
torch, each env, each opponent) is seeded from ``seed``, torch runs
``torch_threads`` threads, and no metric depends on the clock (wall times are kept in
``summary.json`` only). A ``budget.wall_clock_minutes`` limit makes *where* a run stops
depend on the machine.
"""

from __future__ import annotations

import csv
import json
import math
import platform
import random
import shutil
import sys
import time
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

import numpy as np

from agents.checkpoint import save_checkpoint
from agents.config import ExperimentConfig, save_config
from moon_envs.core.game import ConfigError

_TRAIN_STATS = (
    "approx_kl",
    "clip_fraction",
    "entropy_loss",
    "explained_variance",
    "loss",
    "policy_gradient_loss",
    "value_loss",
)
_VERSIONED = (
    "moon-envs",
    "numpy",
    "gymnasium",
    "pettingzoo",
    "torch",
    "stable-baselines3",
    "sb3-contrib",
    "pydantic",
)


@dataclass
class TrainResult:
    """What :func:`train` produced."""

    run_dir: Path
    model_path: Path
    metrics: list[dict[str, Any]]
    timesteps: int
    elapsed_s: float
    snapshots: int = 0
    final_eval: dict[str, float] = field(default_factory=dict)
    interrupted: bool = False
    device: str = "cpu"


# ---- run folder ---------------------------------------------------------------------------


def make_run_dir(config: ExperimentConfig) -> Path:
    """Create the run folder: ``<dir>/<run name>``, or ``..._1``, ``..._2`` if it is taken.

    With ``output.overwrite`` the named folder is emptied and reused instead.
    """
    base = Path(config.output.dir) / config.run_name()
    run = base
    if config.output.overwrite and run.exists():
        shutil.rmtree(run)
    n = 1
    while run.exists() and any(run.iterdir()):
        run = base.with_name(f"{base.name}_{n}")
        n += 1
    run.mkdir(parents=True, exist_ok=True)
    (run / "checkpoints").mkdir(exist_ok=True)
    return run


def package_versions() -> dict[str, str]:
    """Versions of Python, the platform and the packages a run depends on."""
    out = {"python": sys.version.split()[0], "platform": platform.platform()}
    for name in _VERSIONED:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = "not installed"
    return out


def seed_everything(seed: int, torch_threads: int) -> None:
    """Seed Python, numpy and torch; fix torch's thread count (reproducible CPU runs)."""
    import torch

    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    torch.set_num_threads(torch_threads)


# ---- environments and opponents -----------------------------------------------------------


def build_vec_env(config: ExperimentConfig, game: str) -> tuple[Any, list[list[Any]]]:
    """The DummyVecEnv of ``n_envs`` single-agent envs and each env's fixed opponents."""
    from stable_baselines3.common.vec_env import DummyVecEnv

    from agents.zoo import make_agent
    from moon_envs.core.wrappers import SingleAgentEnv
    from moon_envs.registry import make_single_agent

    fixed: list[list[Any]] = []
    for i in range(config.algorithm.n_envs):
        fixed.append(
            [
                make_agent(spec, game, seed=config.seed * 7919 + 1000 * (i + 1) + j, name=spec)
                for j, spec in enumerate(config.opponents.pool)
            ]
        )

    def factory(i: int):
        def _make() -> SingleAgentEnv:
            return make_single_agent(config.env.id, opponents=fixed[i], **config.env.params)

        return _make

    vec = DummyVecEnv([factory(i) for i in range(config.algorithm.n_envs)])
    return vec, fixed


def build_model(config: ExperimentConfig, vec_env: Any, tb_dir: Path | None) -> Any:
    """A fresh MaskablePPO for ``config.algorithm`` (seeded, logging to ``tb_dir``)."""
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.logger import configure

    a = config.algorithm
    activation = {"tanh": torch.nn.Tanh, "relu": torch.nn.ReLU}[a.activation]
    device = a.device
    if device == "cuda" and not torch.cuda.is_available():
        import warnings

        warnings.warn(
            "algorithm.device is 'cuda' but torch sees no GPU; training on the CPU "
            "(summary.json records the device used)",
            RuntimeWarning,
            stacklevel=2,
        )
        device = "cpu"
    model = MaskablePPO(
        "MlpPolicy",
        vec_env,
        learning_rate=a.learning_rate,
        n_steps=a.n_steps,
        batch_size=a.batch_size,
        n_epochs=a.n_epochs,
        gamma=a.gamma,
        gae_lambda=a.gae_lambda,
        clip_range=a.clip_range,
        ent_coef=a.ent_coef,
        vf_coef=a.vf_coef,
        max_grad_norm=a.max_grad_norm,
        target_kl=a.target_kl,
        normalize_advantage=a.normalize_advantage,
        policy_kwargs={"net_arch": list(a.net_arch), "activation_fn": activation},
        seed=config.seed,
        device=device,
        verbose=0,
    )
    formats = ["tensorboard"] if tb_dir is not None else []
    model.set_logger(configure(str(tb_dir) if tb_dir is not None else None, formats))
    return model


# ---- the callback -------------------------------------------------------------------------


def _make_callback_class():
    from stable_baselines3.common.callbacks import BaseCallback

    class SelfPlayCallback(BaseCallback):
        """Snapshots, evaluations, checkpoints, episode statistics and the progress bar."""

        def __init__(self, config: ExperimentConfig, run_dir: Path, fixed: list[list[Any]]) -> None:
            super().__init__(verbose=0)
            self.cfg = config
            self.run_dir = run_dir
            self.fixed = fixed
            self.snapshots: list[Any] = []
            self.metrics: list[dict[str, Any]] = []
            self.train_stats: dict[str, float] = {}
            self.start = time.perf_counter()
            self.pbar: Any = None
            self._ep_len = np.zeros(config.algorithm.n_envs, dtype=np.int64)
            self._window: list[tuple[float, float, int]] = []  # (reward, won, length)
            self._ret = np.zeros(config.algorithm.n_envs)
            self.episodes = 0
            snap = config.opponents.snapshots.every_timesteps
            ev = config.eval.every_timesteps
            ck = config.checkpoints.every_timesteps
            self.next_snapshot = snap if snap > 0 else math.inf
            self.next_eval = ev if ev > 0 else math.inf
            self.next_ckpt = ck if ck > 0 else math.inf
            self.last_eval_step = -1

        # -- hooks
        def _on_training_start(self) -> None:
            if self.cfg.output.progress_bar:
                try:
                    from tqdm import tqdm

                    budget = self.cfg.budget.total_timesteps
                    rollout = self.cfg.algorithm.n_envs * self.cfg.algorithm.n_steps
                    total = None if budget is None else -(-budget // rollout) * rollout
                    self.pbar = tqdm(
                        total=total,
                        desc=self.cfg.run_name(),
                        unit="step",
                        dynamic_ncols=True,
                        disable=None,  # shown on a terminal, left out of redirected logs
                    )
                except ImportError:
                    self.pbar = None
            self.evaluate()  # the untrained baseline: row 0 of the learning curve

        def _on_rollout_start(self) -> None:
            values = self.model.logger.name_to_value
            stats = {k: float(values[f"train/{k}"]) for k in _TRAIN_STATS if f"train/{k}" in values}
            if stats:
                self.train_stats = stats

        def _on_step(self) -> bool:
            n = self.cfg.algorithm.n_envs
            rewards = self.locals["rewards"]
            dones = self.locals["dones"]
            infos = self.locals["infos"]
            self._ret += rewards
            self._ep_len += 1
            for i in np.flatnonzero(dones):
                won = 1.0 if infos[i].get("won") else 0.0
                self._window.append((float(self._ret[i]), won, int(self._ep_len[i])))
                self._ret[i] = 0.0
                self._ep_len[i] = 0
                self.episodes += 1
            if self.pbar is not None:
                self.pbar.update(n)
            t = self.num_timesteps
            if t >= self.next_snapshot:
                self.snapshot()
                self.next_snapshot += self.cfg.opponents.snapshots.every_timesteps
            if t >= self.next_ckpt:
                save_checkpoint(self.model, self.run_dir / "checkpoints" / f"step_{t}.zip")
                self.next_ckpt += self.cfg.checkpoints.every_timesteps
            if t >= self.next_eval:
                self.evaluate()
                self.next_eval += self.cfg.eval.every_timesteps
            minutes = self.cfg.budget.wall_clock_minutes
            out_of_time = minutes is not None and time.perf_counter() - self.start > 60.0 * minutes
            return not out_of_time

        def _on_training_end(self) -> None:
            self.finish()

        def finish(self) -> None:
            """Final evaluation (if the last one is stale), flush the logs, close the bar."""
            if self.last_eval_step != self.num_timesteps:
                self.evaluate()
            self.logger.dump(self.num_timesteps)
            if self.pbar is not None:
                self.pbar.close()
                self.pbar = None

        # -- actions
        def snapshot(self) -> None:
            from agents.policy import PolicyAgent

            t = self.num_timesteps
            agent = PolicyAgent.from_model(self.model, name=f"snapshot_{t}")
            self.snapshots.append(agent)
            keep = self.snapshots[-self.cfg.opponents.snapshots.max_in_pool :]
            for i, fixed in enumerate(self.fixed):
                self.training_env.env_method("set_opponents", [*fixed, *keep], indices=[i])
            if self.cfg.opponents.snapshots.save:
                save_checkpoint(self.model, self.run_dir / "checkpoints" / f"snapshot_{t}.zip")

        def evaluate(self) -> None:
            from agents.evaluate import evaluate_against
            from agents.policy import PolicyAgent

            t = self.num_timesteps
            learner = PolicyAgent(self.model.policy, name="learner")
            row: dict[str, Any] = {"timesteps": t, "episodes": self.episodes}
            window = self._window
            row["train_episodes"] = len(window)
            row["train_win_rate"] = (
                float(np.mean([w for _, w, _ in window])) if window else math.nan
            )
            row["train_mean_reward"] = (
                float(np.mean([r for r, _, _ in window])) if window else math.nan
            )
            row["train_mean_length"] = (
                float(np.mean([n for _, _, n in window])) if window else math.nan
            )
            self._window = []
            row["snapshots_in_pool"] = min(
                len(self.snapshots), self.cfg.opponents.snapshots.max_in_pool
            )
            for spec in self.cfg.eval.opponents:
                rate, lo, hi = evaluate_against(
                    self.cfg.env.id,
                    learner,
                    spec,
                    self.cfg.eval.games,
                    seed=self.cfg.seed + 1_000_003,
                    env_params=self.cfg.env.params,
                )
                key = _metric_name(spec)
                row[f"eval_{key}_win_rate"] = rate
                row[f"eval_{key}_ci_low"] = lo
                row[f"eval_{key}_ci_high"] = hi
                self.logger.record(f"eval/win_rate_vs_{key}", rate)
            for k in _TRAIN_STATS:
                row[f"train_{k}"] = self.train_stats.get(k, math.nan)
            if window:
                self.logger.record("rollout/win_rate", row["train_win_rate"])
            self.logger.dump(t)  # TensorBoard gets the evaluation at its own step
            self.metrics.append(row)
            write_metrics(self.metrics, self.run_dir)  # an interrupted run keeps its metrics
            self.last_eval_step = t
            if self.pbar is not None:
                shown = {
                    k[5:-9]: f"{v:.2f}"
                    for k, v in row.items()
                    if k.endswith("_win_rate") and k.startswith("eval_")
                }
                self.pbar.set_postfix(shown, refresh=False)

    return SelfPlayCallback


def _metric_name(spec: str) -> str:
    """A column-friendly name for an agent spec (``ppo:runs/a/model.zip`` -> ``ppo_model``)."""
    if spec.startswith(("ppo:", "ppo-trusted:")):
        return "ppo_" + Path(spec.partition(":")[2]).stem
    return spec


# ---- writers ------------------------------------------------------------------------------


def write_metrics(metrics: list[dict[str, Any]], run_dir: Path) -> None:
    """metrics.csv and metrics.json (NaN written as empty / null)."""
    if not metrics:
        return
    columns = list(dict.fromkeys(k for row in metrics for k in row))
    with open(run_dir / "metrics.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=columns)
        w.writeheader()
        for row in metrics:
            w.writerow({k: ("" if _isnan(v) else v) for k, v in row.items()})
    clean = [{k: (None if _isnan(v) else v) for k, v in row.items()} for row in metrics]
    (run_dir / "metrics.json").write_text(json.dumps(clean, indent=1))


def _isnan(v: Any) -> bool:
    return isinstance(v, float) and math.isnan(v)


def plot_learning_curve(metrics: list[dict[str, Any]], path: Path, title: str) -> None:
    """Evaluation win rates (with 95% CI bands) and the training win rate over timesteps."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    steps = [m["timesteps"] for m in metrics]
    fig, ax = plt.subplots(figsize=(8.5, 4))
    for key in metrics[0]:
        if key.startswith("eval_") and key.endswith("_win_rate"):
            stem = key[: -len("_win_rate")]
            name = stem[len("eval_") :]
            ys = [m[key] for m in metrics]
            ax.plot(steps, ys, marker="o", label=f"vs {name} (eval)")
            ax.fill_between(
                steps,
                [m[f"{stem}_ci_low"] for m in metrics],
                [m[f"{stem}_ci_high"] for m in metrics],
                alpha=0.2,
            )
    train = [
        (m["timesteps"], m["train_win_rate"]) for m in metrics if not _isnan(m["train_win_rate"])
    ]
    if train:
        ax.plot(*zip(*train), linestyle="--", color="gray", label="training pool")
    ax.set_ylim(0, 1)
    ax.set_xlabel("learner timesteps")
    ax.set_ylabel("win rate")
    ax.set_title(title)
    ax.grid(alpha=0.3)
    # beside the axes, never over the curves
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, borderaxespad=0.0)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


# ---- the entry point ----------------------------------------------------------------------


def train(config: ExperimentConfig, progress: bool | None = None) -> TrainResult:
    """Run the experiment ``config`` and write its run folder; see the module docstring.

    ``progress`` overrides ``output.progress_bar`` when given.
    """
    # -- RLlib back-end: `algorithm: rllib-ppo` configs train on Ray (agents/rllib/train.py)
    if config.algorithm.name == "rllib-ppo":
        from agents.rllib.train import train_rllib

        return train_rllib(config, progress)
    # --
    try:
        import sb3_contrib  # noqa: F401
        import torch  # noqa: F401
    except ImportError as exc:  # pragma: no cover - depends on the install
        raise ConfigError(
            'training needs torch and sb3-contrib: pip install "moon-envs[train]"'
        ) from exc
    if progress is not None:
        config = config.model_copy(
            update={"output": config.output.model_copy(update={"progress_bar": progress})}
        )

    run_dir = make_run_dir(config)
    save_config(config, run_dir / "config.yaml")
    (run_dir / "versions.json").write_text(json.dumps(package_versions(), indent=2))
    (run_dir / "seed").write_text(f"{config.seed}\n")

    seed_everything(config.seed, config.torch_threads)
    game = config.env.game_name()
    vec_env, fixed = build_vec_env(config, game)
    tb_dir = run_dir / "tb" if config.output.tensorboard else None
    model = build_model(config, vec_env, tb_dir)
    callback = _make_callback_class()(config, run_dir, fixed)

    budget = config.budget.total_timesteps or 2**62
    start = time.perf_counter()
    interrupted = False
    try:
        model.learn(total_timesteps=budget, callback=callback, tb_log_name="ppo")
    except KeyboardInterrupt:  # Ctrl-C: keep what was learnt, write the run folder
        interrupted = True
        callback.finish()
    elapsed = time.perf_counter() - start

    model_path = run_dir / "model.zip"
    save_checkpoint(model, model_path)
    write_metrics(callback.metrics, run_dir)
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
        "device": str(model.device),
    }
    (run_dir / "summary.json").write_text(json.dumps(summary, indent=2))
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
