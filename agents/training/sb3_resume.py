"""The resume state of a MaskablePPO run, and its restoration.

``<run>/resume/state.json`` is rewritten (atomically) after every checkpoint
(``checkpoints.every_timesteps``) and at the end of a run, Ctrl-C included. It names the
checkpoint ``checkpoints/step_<N>.zip`` it goes with and holds, as plain JSON:

* the counters: learner timesteps, SGD updates, episodes, the next snapshot, evaluation
  and checkpoint steps, how far ``opponents.schedule`` has gone;
* the metrics rows so far and the training episodes not yet reported;
* the generators: torch's, numpy's and Python's global ones, and each env's own;
* the snapshots in the opponent pool, each a policy file ``resume/pool_<N>.zip``
  (loaded like any ``ppo:`` checkpoint: JSON and tensors only).

Resuming builds the model as a new run would, then loads the checkpoint's policy weights
(``policy.pth``) and Adam state (``policy.optimizer.pth``) with
``torch.load(weights_only=True)`` after bounded reads: sb3's pickled ``data`` entry is
never read. Not restored exactly: the rollout in progress at the checkpoint (the resumed
run starts a fresh rollout, and fresh games, from the saved env generators, so rollout
boundaries shift), the zoo opponents' own generators (they restart from their seeds) and
TensorBoard's event files (a new one is started).
"""

from __future__ import annotations

import io
import json
import random
import zipfile
from pathlib import Path
from typing import Any

import numpy as np

from moon_agents.checkpoint import SIDECAR, WEIGHTS, policy_description
from moon_agents.training.resume import STATE_FORMAT, read_state_json, state_path
from moon_agents.training.run_folder import write_atomic
from moon_agents.weights_files import check_torch_archive, open_zip, read_member, weights_limit
from moon_envs.core.game import ConfigError

OPTIMIZER = "policy.optimizer.pth"


# ---- writing ----------------------------------------------------------------------------------


def write_pool_snapshot(run_dir: Path, step: int, policy: Any) -> str:
    """Write a pool snapshot's policy file; returns its path relative to the run folder."""
    import torch

    from moon_agents.training.run_folder import atomic_path

    rel = f"resume/pool_{step}.zip"
    (run_dir / "resume").mkdir(exist_ok=True)
    buf = io.BytesIO()
    torch.save(policy.state_dict(), buf)
    with atomic_path(run_dir / rel) as tmp, zipfile.ZipFile(tmp, "w") as zf:
        zf.writestr(SIDECAR, json.dumps(policy_description(policy), indent=2))
        zf.writestr(WEIGHTS, buf.getvalue())
    return rel


def save_state(run_dir: Path, model: Any, vec_env: Any, callback: Any, checkpoint: str) -> None:
    """Write ``resume/state.json`` for ``checkpoint`` (a path relative to the run folder,
    just written from ``model``), then remove pool files it no longer names."""
    import torch

    pool = callback.kept_snapshots()
    state = {
        "format": STATE_FORMAT,
        "algorithm": "maskable_ppo",
        "checkpoint": checkpoint,
        "num_timesteps": int(model.num_timesteps),
        "n_updates": int(model._n_updates),
        "callback": callback.resume_fields(),
        "pool": [{"step": step, "file": rel} for step, rel in pool],
        "torch_rng": torch.get_rng_state().tolist(),
        "numpy_rng": _jsonable(np.random.get_state()),
        "python_rng": _jsonable(random.getstate()),
        "env_rngs": [env.np_random.bit_generator.state for env in vec_env.envs],
    }
    (run_dir / "resume").mkdir(exist_ok=True)
    write_atomic(state_path(run_dir, "maskable_ppo"), json.dumps(state))
    named = {rel for _, rel in pool}
    for path in (run_dir / "resume").glob("pool_*.zip"):
        if f"resume/{path.name}" not in named:
            path.unlink()  # a snapshot this program wrote that has left the pool


def _jsonable(value: Any) -> Any:
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, (tuple, list)):
        return [_jsonable(v) for v in value]
    return value


# ---- reading ----------------------------------------------------------------------------------


def load_state(run_dir: Path) -> dict[str, Any]:
    """The run folder's ``resume/state.json``, its fields checked."""
    path = state_path(run_dir, "maskable_ppo")
    state = read_state_json(path)
    checkpoint = state.get("checkpoint")
    if (
        not isinstance(checkpoint, str)
        or not checkpoint.startswith("checkpoints/step_")
        or "/" in checkpoint[len("checkpoints/") :]
    ):
        raise ConfigError(f"{path}: checkpoint {checkpoint!r} is not a checkpoints/step_N.zip")
    for key in ("num_timesteps", "n_updates"):
        if not isinstance(state.get(key), int) or state[key] < 0:
            raise ConfigError(f"{path}: {key} must be a count")
    pool = state.get("pool")
    if not isinstance(pool, list) or not all(
        isinstance(p, dict)
        and isinstance(p.get("file"), str)
        and p["file"].startswith("resume/pool_")
        and "/" not in p["file"][len("resume/") :]
        for p in pool
    ):
        raise ConfigError(f"{path}: pool must list resume/pool_N.zip files")
    return state


def restore(run_dir: Path, state: dict[str, Any], model: Any, vec_env: Any) -> list[Any]:
    """Load the checkpoint's weights and optimizer state into the freshly built ``model``,
    set its counters and every generator, and return the pool's snapshot agents."""
    import torch

    from moon_agents.policy import PolicyAgent

    path = run_dir / state["checkpoint"]
    weights, optimizer = _read_tensors(path, model.policy)
    try:
        model.policy.load_state_dict(weights, strict=True)
        model.policy.optimizer.load_state_dict(optimizer)
    except (RuntimeError, ValueError, KeyError, TypeError) as exc:
        raise ConfigError(f"{path}: does not fit this config's model ({exc})"[:300]) from None
    model.num_timesteps = state["num_timesteps"]
    model._n_updates = state["n_updates"]
    envs = vec_env.envs
    if len(state.get("env_rngs", [])) != len(envs):
        raise ConfigError(f"{run_dir}: the resume state has another number of envs")
    vec_env._seeds = [None] * len(envs)  # no reseeding at the first reset: streams go on
    try:
        for env, rng in zip(envs, state["env_rngs"], strict=True):
            env.np_random.bit_generator.state = rng
        torch.set_rng_state(torch.tensor(state["torch_rng"], dtype=torch.uint8))
        kind, keys, pos, has_gauss, cached = state["numpy_rng"]
        np.random.set_state((kind, np.asarray(keys, np.uint32), pos, has_gauss, cached))
        version, internal, gauss = state["python_rng"]
        random.setstate((version, tuple(internal), gauss))
    except (KeyError, TypeError, ValueError, RuntimeError):
        raise ConfigError(f"{run_dir}: the generators' states in the resume state are not valid")
    return [
        PolicyAgent.load(run_dir / p["file"], name=f"snapshot_{int(p['step'])}")
        for p in state["pool"]
    ]


def _read_tensors(path: Path, policy: Any) -> tuple[dict, dict]:
    """``policy.pth`` and ``policy.optimizer.pth`` of an sb3 zip, as tensors only."""
    import torch

    where = str(path)
    n = sum(p.numel() for p in policy.parameters())
    limits = {WEIGHTS: weights_limit(n), OPTIMIZER: weights_limit(3 * n)}
    out = []
    with open_zip(path, where, "a checkpoint zip") as zf:
        names = set(zf.namelist())
        for entry, limit in limits.items():
            if entry not in names:
                raise ConfigError(f"{where}: no {entry} entry; it cannot be resumed from")
            raw = read_member(zf, entry, limit, where)
            check_torch_archive(raw, limit, f"{where}: {entry}")
            try:
                out.append(torch.load(io.BytesIO(raw), map_location="cpu", weights_only=True))
            except Exception:  # weights_only refuses anything but tensors and plain data
                raise ConfigError(f"{where}: {entry} holds more than tensors; refused") from None
    return out[0], out[1]
