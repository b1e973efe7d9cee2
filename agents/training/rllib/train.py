"""Self-play training with RLlib PPO from a YAML config (``algorithm: rllib-ppo``).

::

    moon-envs train configs/jupiter_rllib.yaml        # or, from Python:
    from moon_agents.training.config import load_config
    from moon_agents.training.rllib.train import train_rllib
    result = train_rllib(load_config("configs/jupiter_rllib.yaml"))

Ray: with ``ray.address`` unset a local Ray is started (``ray.num_cpus`` CPUs); ``"auto"``
or an address joins a running cluster. ``ray.num_env_runners`` processes sample
:class:`~moon_agents.training.rllib.env.MoonMultiAgentEnv` episodes; one learner updates the module
``"learner"`` (a :class:`~moon_agents.training.rllib.module.MaskedPPOTorchRLModule`).

League: each episode is drawn against one entry of ``opponents.pool`` (zoo agents played
inside the env), a filled snapshot slot (a frozen copy of the learner, module
``snapshot_<k>``, refilled round-robin every ``opponents.snapshots.every_timesteps``), or,
with ``opponents.self_play``, the learner itself on every seat.

The run folder has the SB3 trainer's layout (:mod:`moon_agents.training.train`): ``config.yaml``,
``versions.json`` (with ray), ``seed``, ``metrics.csv``/``metrics.json`` (one row per
evaluation), ``summary.json``, ``learning_curve.png``, ``tb/`` (TensorBoard),
``checkpoints/`` (RLlib algorithm checkpoints ``step_<N>/``, each with the learner as
a ``model/`` directory that ``rllib:PATH`` loads, and snapshot weights
``snapshot_<N>/``) and ``model/``, the final weights (agent spec ``rllib:<run>/model``).
Timesteps count the learner's own steps.
"""

from __future__ import annotations

import json
import math
import time
from pathlib import Path
from typing import Any

from moon_agents.progress import advance, progress_bar, resolve
from moon_agents.training.config import save_config
from moon_agents.training.run_folder import (
    TrainResult,
    make_run_dir,
    package_versions,
    plot_learning_curve,
    write_metrics,
)

_WINDOW_KEYS = ("learner_wins", "learner_return", "learner_length")
_LEARNER_STATS = ("policy_loss", "vf_loss", "entropy", "mean_kl_loss", "vf_explained_var")


def _metric_name(spec: str) -> str:
    from moon_agents.training.callback import _metric_name as sb3_name

    return "rllib_" + Path(spec[6:]).parent.name if spec.startswith("rllib:") else sb3_name(spec)


def init_ray(config: Any) -> bool:
    """Start a local Ray or join ``ray.address``; True if this call started it."""
    import ray

    if ray.is_initialized():
        return False
    kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
    if config.ray.address is None:  # "local": a new Ray, whatever RAY_ADDRESS or an
        kwargs["address"] = "local"  # earlier `ray start` left in /tmp/ray says
        kwargs["num_cpus"] = config.ray.num_cpus
    else:
        kwargs["address"] = config.ray.address
        use_cluster_token()
    ray.init(**kwargs)
    return True


def use_cluster_token() -> None:
    """Before joining a running cluster: present this machine's Ray token if it has one.

    Since Ray 2.59, ``ray start --head`` turns token authentication on when a token exists
    (``~/.ray/auth_token``, written by any local ``ray.init()``), but a driver joining by
    address sends the token only when ``RAY_AUTH_MODE=token``; without it the join fails
    with ``InvalidAuthToken``. A mode the user set is left alone.
    """
    import os

    if "RAY_AUTH_MODE" in os.environ:
        return
    token_file = os.environ.get("RAY_AUTH_TOKEN_PATH") or os.path.expanduser("~/.ray/auth_token")
    if os.environ.get("RAY_AUTH_TOKEN") or os.path.isfile(token_file):
        os.environ["RAY_AUTH_MODE"] = "token"
        try:  # Ray caches the mode when it is imported; refresh it as Ray itself does
            from ray._raylet import Config

            Config.initialize("")
        except (ImportError, AttributeError):  # a Ray without that cache reads the variable
            pass


def build_algorithm(config: Any, league: list[str], slots: list[str]) -> Any:
    """The RLlib PPO ``Algorithm`` for ``config`` (masked modules, league mapping)."""
    from moon_agents.training.rllib.callbacks import LeagueMetricsCallback
    from moon_agents.training.rllib.ppo import masked_ppo_config

    a = config.algorithm
    env_config = {
        "params": dict(config.env.params),
        "league": league,
        "modules": slots,
        "seed": config.seed,
    }
    ppo = (
        masked_ppo_config(config.env.id, env_config, a.net_arch, a.activation)
        .env_runners(
            num_env_runners=config.ray.num_env_runners,
            num_envs_per_env_runner=config.ray.num_envs_per_env_runner,
            num_cpus_per_env_runner=1,
            rollout_fragment_length="auto",
        )
        .learners(num_learners=0)
        .fault_tolerance(restart_failed_env_runners=config.ray.restart_failed_env_runners)
        .training(
            lr=a.learning_rate,
            gamma=a.gamma,
            lambda_=a.gae_lambda,
            clip_param=a.clip_range,
            entropy_coeff=a.ent_coef,
            vf_loss_coeff=a.vf_coef,
            vf_clip_param=a.vf_clip,
            grad_clip=a.max_grad_norm,
            grad_clip_by="global_norm",
            use_kl_loss=a.use_kl_loss,
            train_batch_size_per_learner=a.train_batch_size,
            minibatch_size=a.minibatch_size,
            num_epochs=a.num_epochs,
        )
        .callbacks(LeagueMetricsCallback)
        .debugging(seed=config.seed, log_level="ERROR")
    )
    return ppo.build_algo()


class _Run:
    """The state of one training run: league, snapshots, metrics, writers."""

    def __init__(self, config: Any, run_dir: Path, algo: Any, slots: list[str]) -> None:
        from moon_agents.training.rllib.env import LEARNER

        self.cfg = config
        self.run_dir = run_dir
        self.algo = algo
        self.slots = slots
        self.learner = LEARNER
        self.meta = {
            "env_id": config.env.id,
            "params": dict(config.env.params),
            "net_arch": list(config.algorithm.net_arch),
            "activation": config.algorithm.activation,
            "trainer": "rllib-ppo",
        }
        self.metrics: list[dict[str, Any]] = []
        self.timesteps = 0
        self.episodes = 0
        self.snapshots = 0
        self.train_window: list[tuple[float, ...]] = []
        self.learner_stats: dict[str, float] = {}
        self.writer: Any = None
        if config.output.tensorboard:
            from torch.utils.tensorboard import SummaryWriter

            self.writer = SummaryWriter(str(run_dir / "tb"))

    # -- weights
    def learner_state(self) -> dict[str, Any]:
        """The learner module's current weights (torch tensors, CPU)."""
        module = self.algo.learner_group._learner.module[self.learner]
        return {k: v.detach().cpu().clone() for k, v in module.state_dict().items()}

    def snapshot(self) -> None:
        """Copy the learner into the next snapshot slot on every env runner; widen the league."""
        from moon_agents.training.rllib.agent import save_module
        from moon_agents.training.rllib.league import league_entries

        state = self.learner_state()
        slot = self.slots[self.snapshots % len(self.slots)]
        self.snapshots += 1
        filled = min(self.snapshots, len(self.slots))
        o = self.cfg.opponents
        league = league_entries(list(o.pool), filled, o.self_play)

        def update(runner: Any) -> None:
            if slot in runner.module:
                runner.module[slot].load_state_dict(state, strict=False)
            for env in getattr(runner.env, "envs", None) or []:
                env.unwrapped.set_league(league)

        self.algo.env_runner_group.foreach_env_runner(update, local_env_runner=True)
        if o.snapshots.save:
            module = self.algo.learner_group._learner.module[self.learner]
            path = self.run_dir / "checkpoints" / f"snapshot_{self.timesteps}"
            save_module(module, path, self.meta)

    def checkpoint(self) -> Path:
        """RLlib's algorithm checkpoint ``checkpoints/step_<N>/`` (to resume with RLlib) and,
        inside it, the learner as a ``model/`` directory, so that ``rllib:PATH`` plays
        the checkpoint without unpickling RLlib's files."""
        from moon_agents.training.rllib.agent import save_module

        path = self.run_dir / "checkpoints" / f"step_{self.timesteps}"
        self.algo.save_to_path(str(path.resolve()))
        module = self.algo.learner_group._learner.module[self.learner]
        save_module(module, path / "model", self.meta)
        return path

    # -- results
    def absorb(self, result: dict[str, Any]) -> None:
        """Take the learner's steps, episodes and losses from one ``algo.train()`` result."""
        runners = result.get("env_runners", {})
        steps = runners.get("num_module_steps_sampled_lifetime", {})
        if isinstance(steps, dict) and self.learner in steps:
            self.timesteps = int(steps[self.learner])
        else:
            self.timesteps = int(runners.get("num_env_steps_sampled_lifetime", 0))
        self.episodes = int(runners.get("num_episodes_lifetime", self.episodes))
        games = float(runners.get("learner_games", 0) or 0)
        if games > 0:
            self.train_window.append((*(float(runners.get(k, 0)) for k in _WINDOW_KEYS), games))
        stats = result.get("learners", {}).get(self.learner, {})
        self.learner_stats = {k: float(stats[k]) for k in _LEARNER_STATS if k in stats}
        if self.writer is not None:
            for k, v in self.learner_stats.items():
                self.writer.add_scalar(f"train/{k}", v, self.timesteps)
            if games > 0:
                wins, ret, _, _ = self.train_window[-1]
                self.writer.add_scalar("rollout/win_rate", wins / games, self.timesteps)
                self.writer.add_scalar("rollout/mean_reward", ret / games, self.timesteps)

    def evaluate(self) -> dict[str, Any]:
        from moon_agents.evaluation.tournament import eval_columns, evaluate_learner
        from moon_agents.training.rllib.agent import RllibAgent

        learner = RllibAgent.from_state(self.learner_state(), self.meta, name="learner")
        row: dict[str, Any] = {"timesteps": self.timesteps, "episodes": self.episodes}
        row.update(self.train_row())
        row["snapshots_in_pool"] = min(self.snapshots, len(self.slots))
        results = evaluate_learner(self.cfg, learner, _metric_name)
        row.update(eval_columns(results))
        if self.writer is not None:
            for key, (rate, _, _) in results.items():
                self.writer.add_scalar(f"eval/win_rate_vs_{key}", rate, self.timesteps)
        for k in _LEARNER_STATS:
            row[f"train_{k}"] = self.learner_stats.get(k, math.nan)
        self.metrics.append(row)
        write_metrics(self.metrics, self.run_dir)
        return row

    def train_row(self) -> dict[str, Any]:
        window, self.train_window = self.train_window, []
        n = sum(w[3] for w in window)
        mean = (lambda i: sum(w[i] for w in window) / n) if n else (lambda i: math.nan)
        return {
            "train_episodes": int(n),
            "train_win_rate": mean(0),
            "train_mean_reward": mean(1),
            "train_mean_length": mean(2),
        }


def train_rllib(config: Any, progress: bool | None = None) -> TrainResult:
    """Run the RLlib experiment ``config`` and write its run folder (module docstring);
    ``progress`` as in :func:`moon_agents.training.train.train` (the bar counts timesteps,
    updated after every training iteration)."""
    from moon_agents.training.rllib import require_ray

    require_ray()
    import ray
    import torch

    from moon_agents.training.build import seed_everything
    from moon_agents.training.rllib.agent import save_module
    from moon_agents.training.rllib.league import league_entries, snapshot_ids

    show = resolve(progress, config.output.progress_bar)
    run_dir = make_run_dir(config)
    save_config(config, run_dir / "config.yaml")
    versions = package_versions()
    versions["ray"] = ray.__version__
    (run_dir / "versions.json").write_text(json.dumps(versions, indent=2))
    (run_dir / "seed").write_text(f"{config.seed}\n")
    seed_everything(config.seed, config.torch_threads)
    torch.set_num_threads(config.torch_threads)

    o = config.opponents
    slots = snapshot_ids(o.snapshots.max_in_pool) if o.snapshots.every_timesteps > 0 else []
    league = league_entries(list(o.pool), 0, o.self_play)
    started = init_ray(config)
    algo = build_algorithm(config, league, slots)
    run = _Run(config, run_dir, algo, slots)
    pbar = progress_bar(
        show, total=config.budget.total_timesteps, desc=config.run_name(), unit="step"
    )

    budget = config.budget.total_timesteps or math.inf
    minutes = config.budget.wall_clock_minutes
    every = {
        "snap": o.snapshots.every_timesteps if slots else 0,
        "eval": config.eval.every_timesteps,
        "ckpt": config.checkpoints.every_timesteps,
    }
    due = {k: (v if v > 0 else math.inf) for k, v in every.items()}
    start = time.perf_counter()
    interrupted = False
    try:
        run.evaluate()  # the untrained baseline: row 0 of the learning curve
        while run.timesteps < budget:
            run.absorb(algo.train())
            if pbar is not None:
                advance(pbar, run.timesteps)
            t = run.timesteps
            if t >= due["snap"]:
                run.snapshot()
                due["snap"] += every["snap"] * max(1, (t - due["snap"]) // every["snap"] + 1)
            if t >= due["ckpt"]:
                run.checkpoint()
                due["ckpt"] += every["ckpt"] * max(1, (t - due["ckpt"]) // every["ckpt"] + 1)
            if t >= due["eval"]:
                row = run.evaluate()
                due["eval"] += every["eval"] * max(1, (t - due["eval"]) // every["eval"] + 1)
                if pbar is not None:
                    pbar.set_postfix(_shown(row), refresh=False)
            if minutes is not None and time.perf_counter() - start > 60.0 * minutes:
                break
    except KeyboardInterrupt:  # Ctrl-C: keep what was learnt, write the run folder
        interrupted = True
    except BaseException:  # an error: free the runners (and a Ray started here), re-raise
        algo.stop()
        if started:
            ray.shutdown()
        raise
    elapsed = time.perf_counter() - start
    if not run.metrics or run.metrics[-1]["timesteps"] != run.timesteps:
        run.evaluate()
    if pbar is not None:
        pbar.close()

    model_path = save_module(
        algo.learner_group._learner.module[run.learner], run_dir / "model", run.meta
    )
    write_metrics(run.metrics, run_dir)
    if config.output.plot:
        try:
            plot_learning_curve(
                run.metrics, run_dir / "learning_curve.png", f"{config.name} ({config.env.id})"
            )
        except ImportError:
            pass
    final = {k: v for k, v in run.metrics[-1].items() if k.startswith("eval_")}
    summary = {
        "run_dir": str(run_dir),
        "algorithm": "rllib-ppo",
        "timesteps": run.timesteps,
        "episodes": run.episodes,
        "snapshots": run.snapshots,
        "elapsed_s": round(elapsed, 2),
        "steps_per_s": round(run.timesteps / max(elapsed, 1e-9), 1),
        "num_env_runners": config.ray.num_env_runners,
        "ray_address": config.ray.address,
        "final_eval": final,
        "model": str(model_path),
        "interrupted": interrupted,
    }
    (run_dir / "summary.json").write_text(json.dumps(summary, indent=2))
    if run.writer is not None:
        run.writer.close()
    algo.stop()
    if started:
        ray.shutdown()
    result = TrainResult(
        run_dir=run_dir,
        model_path=model_path,
        metrics=run.metrics,
        timesteps=run.timesteps,
        elapsed_s=elapsed,
        snapshots=run.snapshots,
        final_eval=final,
        interrupted=interrupted,
    )
    result.agent_spec = f"rllib:{model_path}"
    return result


def _shown(row: dict[str, Any]) -> dict[str, str]:
    return {
        k[5:-9]: f"{v:.2f}"
        for k, v in row.items()
        if k.startswith("eval_") and k.endswith("_win_rate")
    }
