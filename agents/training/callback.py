"""The self-play callback of a training run: snapshots, evaluations, checkpoints, statistics.

:func:`_make_callback_class` builds ``SelfPlayCallback`` (a Stable-Baselines3
``BaseCallback``, imported only when training) which adds frozen copies of the learner to
the opponent pool, evaluates the learner and appends a row to the metrics, writes
checkpoints, keeps the training episodes' statistics and drives the progress bar (its
``progress`` argument as in :func:`moon_agents.training.train.train`).
:func:`_metric_name` turns an agent spec into the metric columns' name.
"""

from __future__ import annotations

import math
import time
from pathlib import Path
from typing import Any

import numpy as np

from moon_agents.checkpoint import save_checkpoint
from moon_agents.progress import progress_bar, resolve
from moon_agents.training.run_folder import atomic_path, write_metrics
from moon_agents.training.schema import ExperimentConfig

_TRAIN_STATS = (
    "approx_kl",
    "clip_fraction",
    "entropy_loss",
    "explained_variance",
    "loss",
    "policy_gradient_loss",
    "value_loss",
)

# ---- the callback -------------------------------------------------------------------------


def _make_callback_class():
    from stable_baselines3.common.callbacks import BaseCallback

    class SelfPlayCallback(BaseCallback):
        """Snapshots, evaluations, checkpoints, episode statistics and the progress bar."""

        def __init__(
            self,
            config: ExperimentConfig,
            run_dir: Path,
            fixed: list[list[Any]],
            game: str,
            progress: bool | None = None,
        ) -> None:
            super().__init__(verbose=0)
            self.cfg = config
            self.show = resolve(progress, config.output.progress_bar)
            self.game = game
            self.schedule = list(config.opponents.schedule)  # pool changes still to come
            self.run_dir = run_dir
            self.fixed = fixed
            self.snapshots: list[Any] = []
            self.snapshot_files: list[tuple[int, str]] = []  # (step, resume/pool_<step>.zip)
            self.vec_env: Any = None  # set by the trainer: its envs' generators are saved
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
            self.elapsed_before = 0.0  # seconds of the sessions before a resume

        # -- resume (moon_agents.training.sb3_resume)
        def resume_fields(self) -> dict[str, Any]:
            """The callback's counters and rows, as JSON data."""
            return {
                "episodes": self.episodes,
                "next_snapshot": self.next_snapshot,
                "next_eval": self.next_eval,
                "next_ckpt": self.next_ckpt,
                "last_eval_step": self.last_eval_step,
                "schedule_done": len(self.cfg.opponents.schedule) - len(self.schedule),
                "window": self._window,
                "train_stats": self.train_stats,
                "metrics": self.metrics,
                "elapsed_s": self.elapsed_before + time.perf_counter() - self.start,
                "resumed_from": getattr(self, "resumed_from", []),
            }

        def restore_fields(self, fields: dict[str, Any], snapshots: list[Any], pool: list) -> None:
            """Continue from :meth:`resume_fields` and the pool's snapshot agents."""
            from moon_agents.training.build import pool_agents

            self.episodes = int(fields["episodes"])
            self.next_snapshot = float(fields["next_snapshot"])
            self.next_eval = float(fields["next_eval"])
            self.next_ckpt = float(fields["next_ckpt"])
            self.last_eval_step = int(fields["last_eval_step"])
            done = int(fields["schedule_done"])
            self.schedule = list(self.cfg.opponents.schedule)[done:]
            self._window = [tuple(w) for w in fields["window"]]
            self.train_stats = dict(fields["train_stats"])
            self.metrics = list(fields["metrics"])
            self.elapsed_before = float(fields["elapsed_s"])
            self.snapshots = list(snapshots)
            self.snapshot_files = [(int(p["step"]), p["file"]) for p in pool]
            if done:
                step = self.cfg.opponents.schedule[done - 1]
                self.fixed = [
                    pool_agents(self.cfg, self.game, step.pool, i, done)
                    for i in range(self.cfg.algorithm.n_envs)
                ]
            self.resumed = True

        def kept_snapshots(self) -> list[tuple[int, str]]:
            """The pool's snapshot files: the newest ``max_in_pool``."""
            return self.snapshot_files[-self.cfg.opponents.snapshots.max_in_pool :]

        def set_pools(self, env: Any) -> None:
            """Every env's opponents: its fixed pool and the kept snapshots."""
            keep = self.snapshots[-self.cfg.opponents.snapshots.max_in_pool :]
            for i, fixed in enumerate(self.fixed):
                env.env_method("set_opponents", [*fixed, *keep], indices=[i])

        def checkpoint(self, name: str) -> str:
            """Save the model as ``checkpoints/<name>`` (atomically); its relative path."""
            with atomic_path(self.run_dir / "checkpoints" / name) as tmp:
                save_checkpoint(self.model, tmp)
            return f"checkpoints/{name}"

        def save_resume_state(self, checkpoint: str) -> None:
            from moon_agents.training.sb3_resume import save_state

            save_state(self.run_dir, self.model, self.vec_env, self, checkpoint)

        # -- hooks
        def _on_training_start(self) -> None:
            budget = self.cfg.budget.total_timesteps
            rollout = self.cfg.algorithm.n_envs * self.cfg.algorithm.n_steps
            total = None if budget is None else -(-budget // rollout) * rollout
            self.num_timesteps = self.model.num_timesteps  # a resumed run's, not 0
            self.pbar = progress_bar(self.show, total=total, desc=self.cfg.run_name(), unit="step")
            if self.pbar is not None and self.num_timesteps:
                self.pbar.update(self.num_timesteps)
            if not getattr(self, "resumed", False):
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
            while self.schedule and t >= self.schedule[0].from_timesteps:
                self.next_pool()
            if t >= self.next_snapshot:
                self.snapshot()
                self.next_snapshot += self.cfg.opponents.snapshots.every_timesteps
            checkpoint = None
            if t >= self.next_ckpt:
                checkpoint = self.checkpoint(f"step_{t}.zip")
                self.next_ckpt += self.cfg.checkpoints.every_timesteps
            if t >= self.next_eval:
                self.evaluate()
                self.next_eval += self.cfg.eval.every_timesteps
            if checkpoint is not None:  # after this step's evaluation: resume starts here
                self.save_resume_state(checkpoint)
            minutes = self.cfg.budget.wall_clock_minutes
            spent = self.elapsed_before + time.perf_counter() - self.start
            out_of_time = minutes is not None and spent > 60.0 * minutes
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
            from moon_agents.policy import PolicyAgent
            from moon_agents.training.sb3_resume import write_pool_snapshot

            t = self.num_timesteps
            agent = PolicyAgent.from_model(self.model, name=f"snapshot_{t}")
            self.snapshots.append(agent)
            self.snapshot_files.append((t, write_pool_snapshot(self.run_dir, t, agent.policy)))
            self.set_pools(self.training_env)
            if self.cfg.opponents.snapshots.save:
                self.checkpoint(f"snapshot_{t}.zip")

        def next_pool(self) -> None:
            """The schedule's next step: every env's fixed pool is replaced (snapshots stay)."""
            from moon_agents.training.build import pool_agents

            step = self.schedule.pop(0)
            stage = len(self.cfg.opponents.schedule) - len(self.schedule)
            self.fixed = [
                pool_agents(self.cfg, self.game, step.pool, i, stage)
                for i in range(self.cfg.algorithm.n_envs)
            ]
            self.set_pools(self.training_env)

        def evaluate(self) -> None:
            from moon_agents.evaluation.tournament import eval_columns, evaluate_learner
            from moon_agents.policy import PolicyAgent

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
            results = evaluate_learner(self.cfg, learner, _metric_name)
            row.update(eval_columns(results))
            for key, (rate, _, _) in results.items():
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
