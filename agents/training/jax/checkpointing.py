"""The resume state of a JAX run: everything needed to continue it exactly.

``<run>/resume/state.npz`` is rewritten (atomically) after every scheduled evaluation and
at the end of a run that was not interrupted. It is a zip of ``.npy`` arrays and one JSON
member, ``state.json``:

* the trainer's trees, leaf by leaf: the network's parameters, the optimizer's state
  (Adam moments, step counts), the JAX key, the games in progress, and for ``jax_ppo``
  the snapshot pool (the trees each trainer names in ``RESUME_TREES``); PRNG keys are
  stored as their raw key data;
* ``alphazero``'s replay buffer (its filled rows, head and size: nothing is lost) and
  its numpy generator's state;
* the trainer's counters (``RESUME_COUNTERS``) and the run loop's state: metrics and
  timing rows, the best evaluation so far, the next evaluation step, the seconds spent;
* the number of devices the run's batch was split over (``algorithm.devices``).

Arrays split over several devices are gathered whole to the host before they are
written, and placed back with the fresh trainer's shardings when read: a state resumes
on the same number of devices it was written on (its batches are that many times the
config's), and a state written on another number is refused with a line that says so.

It is read back without unpickling: every member must be one the freshly built trainer
expects, with that trainer's shape and dtype (the replay's rows at most its capacity),
each read with a bounded size and ``allow_pickle=False``.
"""

from __future__ import annotations

import io
import json
import math
import zipfile
from pathlib import Path
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from moon_agents.training.resume import (
    STATE_FORMAT,
    check_state_format,
    state_path,
)
from moon_agents.training.run_folder import atomic_path
from moon_agents.weights_files import read_member
from moon_envs.core.game import ConfigError

STATE_JSON = "state.json"
MAX_JSON_BYTES = 64 << 20
NPY_HEADER_BYTES = 256
MAX_MEMBERS = 1 << 14


def _is_key(x: Any) -> bool:
    return jax.dtypes.issubdtype(x.dtype, jax.dtypes.prng_key)


def _host(x: Any, gather: Any = jax.device_get) -> np.ndarray:
    """``x`` whole on the host (a key as its raw key data); ``gather`` brings it there."""
    return np.asarray(gather(jax.random.key_data(x) if _is_key(x) else x))


def _expected(trainer: Any) -> dict[str, np.ndarray]:
    """Every array member the state of ``trainer`` holds, with its current value."""
    out: dict[str, np.ndarray] = {}
    for tree in trainer.RESUME_TREES:
        for i, leaf in enumerate(jax.tree.leaves(getattr(trainer, tree))):
            out[f"{tree}.{i}"] = _host(leaf, trainer.devices.gather)
    replay = getattr(trainer, "replay", None)
    if replay is not None:
        for name in ("obs", "policy", "value"):
            out[f"replay.{name}"] = getattr(replay, name)[: replay.size]
    return out


def save_state(run_dir: Path, trainer: Any, loop: dict[str, Any]) -> Path:
    """Write the resume state of ``trainer`` and the run ``loop`` (atomically)."""
    path = state_path(run_dir, trainer.cfg.name)
    path.parent.mkdir(exist_ok=True)
    meta: dict[str, Any] = {
        "format": STATE_FORMAT,
        "algorithm": trainer.cfg.name,
        "counters": {k: int(getattr(trainer, k)) for k in trainer.RESUME_COUNTERS},
        "devices": trainer.devices.count,
        "loop": loop,
    }
    replay = getattr(trainer, "replay", None)
    if replay is not None:
        meta["replay"] = {"size": int(replay.size), "head": int(replay.head)}
    rng = getattr(trainer, "rng", None)
    if rng is not None:
        meta["numpy_rng"] = rng.bit_generator.state
    with atomic_path(path) as tmp, zipfile.ZipFile(tmp, "w", zipfile.ZIP_STORED) as zf:
        zf.writestr(STATE_JSON, json.dumps(meta))
        for name, arr in _expected(trainer).items():
            buf = io.BytesIO()
            np.lib.format.write_array(buf, np.asarray(arr, order="C"), allow_pickle=False)
            zf.writestr(f"{name}.npy", buf.getvalue())
    return path


def load_state(run_dir: Path, trainer: Any) -> dict[str, Any]:
    """Restore ``trainer`` (freshly built from the run's config) from the run folder's
    resume state; returns the run loop's state. A state that does not fit the trainer is
    refused with a :class:`ConfigError`."""
    path = state_path(run_dir, trainer.cfg.name)
    where = str(path)
    template = _expected(trainer)
    replay = getattr(trainer, "replay", None)
    try:
        zf = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError) as exc:
        raise ConfigError(f"{where}: not a resume state ({exc})") from None
    with zf:
        names = set(zf.namelist())
        if len(names) > MAX_MEMBERS or STATE_JSON not in names:
            raise ConfigError(f"{where}: not a resume state (no {STATE_JSON})")
        try:
            meta = json.loads(read_member(zf, STATE_JSON, MAX_JSON_BYTES, where, "a state has"))
        except (UnicodeDecodeError, ValueError):
            raise ConfigError(f"{where}: {STATE_JSON} is not JSON") from None
        if not isinstance(meta, dict):
            raise ConfigError(f"{where}: {STATE_JSON} must hold a JSON object")
        check_state_format(meta.get("format"), where)
        if meta.get("algorithm") != trainer.cfg.name:
            raise ConfigError(
                f"{where}: written by the {meta.get('algorithm')!r} trainer, not "
                f"{trainer.cfg.name!r}"
            )
        written_on = meta.get("devices", 1)
        if written_on != trainer.devices.count:
            raise ConfigError(
                f"{where}: written by a run on {written_on!r} device(s); this run has "
                f"{trainer.devices.count} (algorithm.devices: {trainer.cfg.devices!r}); "
                f"allowed: resume on {written_on!r} device(s)"
            )
        expected = {f"{k}.npy" for k in template} | {STATE_JSON}
        if names != expected:
            extra, missing = sorted(names - expected)[:5], sorted(expected - names)[:5]
            raise ConfigError(
                f"{where}: does not fit this config's trainer (unexpected: {extra}, "
                f"missing: {missing})"
            )
        arrays = {}
        for name, want in template.items():
            rows = None
            if name.startswith("replay.") and replay is not None:
                rows = int(meta.get("replay", {}).get("size", -1))
                if not 0 <= rows <= replay.capacity:
                    raise ConfigError(f"{where}: replay size {rows} is not in 0..{replay.capacity}")
            shape = want.shape if rows is None else (rows, *want.shape[1:])
            arrays[name] = _read(zf, name, shape, want.dtype, where)
    _restore(trainer, arrays, meta, where)
    loop = meta.get("loop")
    if not isinstance(loop, dict):
        raise ConfigError(f"{where}: no run loop state")
    return loop


def _read(zf: zipfile.ZipFile, name: str, shape: tuple, dtype: Any, where: str) -> np.ndarray:
    limit = np.dtype(dtype).itemsize * math.prod(shape) + NPY_HEADER_BYTES
    data = read_member(zf, f"{name}.npy", limit, where, f"{name} of shape {shape} needs")
    try:
        arr = np.lib.format.read_array(io.BytesIO(data), allow_pickle=False)
    except (ValueError, OSError, EOFError) as exc:
        raise ConfigError(f"{where}: {name} is not a .npy array ({exc})") from None
    if arr.dtype != dtype or arr.shape != tuple(shape):
        raise ConfigError(
            f"{where}: {name} is {arr.dtype}{list(arr.shape)}; this config's trainer "
            f"needs {np.dtype(dtype)}{list(shape)}"
        )
    return arr


def _restore(trainer: Any, arrays: dict[str, np.ndarray], meta: dict, where: str) -> None:
    for tree in trainer.RESUME_TREES:
        leaves, treedef = jax.tree.flatten(getattr(trainer, tree))
        new = []
        for i, leaf in enumerate(leaves):
            value = jnp.asarray(arrays[f"{tree}.{i}"])
            if _is_key(leaf):
                value = jax.random.wrap_key_data(value, impl=jax.random.key_impl(leaf))
            new.append(trainer.devices.place_like(value, leaf))
        setattr(trainer, tree, jax.tree.unflatten(treedef, new))
    counters = meta.get("counters", {})
    for name in trainer.RESUME_COUNTERS:
        value = counters.get(name) if isinstance(counters, dict) else None
        if not isinstance(value, int) or value < 0:
            raise ConfigError(f"{where}: counter {name} is {value!r}; expected a count")
        setattr(trainer, name, value)
    replay = getattr(trainer, "replay", None)
    if replay is not None:
        size = arrays["replay.obs"].shape[0]
        head = meta["replay"].get("head")
        if not isinstance(head, int) or not 0 <= head < replay.capacity:
            raise ConfigError(f"{where}: replay head {head!r} is not in 0..{replay.capacity - 1}")
        for name in ("obs", "policy", "value"):
            getattr(replay, name)[:size] = arrays[f"replay.{name}"]
        replay.size, replay.head = size, head
    rng = getattr(trainer, "rng", None)
    if rng is not None:
        try:
            rng.bit_generator.state = meta["numpy_rng"]
        except (KeyError, TypeError, ValueError):
            raise ConfigError(f"{where}: the numpy generator's state is not valid") from None
