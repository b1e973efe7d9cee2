"""Weight files of the networks trained on the JAX twins: ``.npz`` plus a JSON description.

A file is a zip archive (numpy's ``.npz``) holding ``description.json`` and one ``.npy``
array per parameter. The description is plain JSON::

    {"format": "moon-envs-net", "version": 1,
     "algorithm": "alphazero",                 # or "jax_ppo"
     "env_id": "jupiter_v0", "game": "jupiter",
     "game_config": {"num_players": 2, "line_features": true, ...},
     "observation_size": 206, "num_actions": 33,
     "hidden": [256, 256], "activation": "relu",
     "training": {...}}                        # free-form facts about the run

:func:`save_net` writes one (atomically, through a temporary file), :func:`load_net`
reads one in bounded time and memory, with numpy alone and without unpickling: the
description is read first (at most :data:`MAX_DESCRIPTION_BYTES`), the architecture it
names fixes every array's name, shape and size, and each array is read with
``allow_pickle=False``, capped at its known size (a zip bomb is cut off at the cap).
Anything else (unknown or missing arrays, another dtype or shape, NaN weights, an
oversized network) is refused with a :class:`~moon_envs.core.game.ConfigError` naming
the file and the field.
"""

from __future__ import annotations

import io
import itertools
import json
import math
import os
import tempfile
import zipfile
from pathlib import Path
from typing import Any

import numpy as np

from moon_agents.weights_files import open_zip, read_member
from moon_envs.core.game import ConfigError
from moon_envs.core.snapshot import quote

FORMAT = "moon-envs-net"
VERSION = 1
DESCRIPTION = "description.json"
MAX_DESCRIPTION_BYTES = 1 << 16
MAX_LAYERS = 16
MAX_WIDTH = 1 << 14
MAX_INPUTS = 1 << 16
MAX_ACTIONS = 1 << 16
MAX_PARAMETERS = 50_000_000
NPY_HEADER_BYTES = 256
"""Room for a ``.npy`` header beside an array's raw float32 data."""
ACTIVATIONS = ("relu", "tanh", "gelu", "silu")
ALGORITHMS = ("alphazero", "jax_ppo")


def array_shapes(obs_size: int, num_actions: int, hidden: list[int]) -> dict[str, tuple]:
    """Every array's name and shape for this architecture (weights are ``[out, in]``)."""
    sizes = [obs_size, *hidden]
    shapes: dict[str, tuple] = {}
    for i, (a, b) in enumerate(itertools.pairwise(sizes)):
        shapes[f"trunk.{i}.weight"] = (b, a)
        shapes[f"trunk.{i}.bias"] = (b,)
    shapes["policy.weight"] = (num_actions, sizes[-1])
    shapes["policy.bias"] = (num_actions,)
    shapes["value.weight"] = (1, sizes[-1])
    shapes["value.bias"] = (1,)
    return shapes


def save_net(path: str | Path, arrays: dict[str, np.ndarray], description: dict[str, Any]) -> Path:
    """Write ``arrays`` and ``description`` (checked as :func:`load_net` would) to
    ``path``; an existing file is replaced only once the new one is complete."""
    path = Path(path)
    description = {"format": FORMAT, "version": VERSION, **description}
    shapes = check_description(description, str(path))
    got = {k: tuple(np.shape(v)) for k, v in arrays.items()}
    if got != shapes:
        raise ConfigError(f"{path}: the arrays {sorted(got)} do not match the description")
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as raw, zipfile.ZipFile(raw, "w", zipfile.ZIP_DEFLATED) as zf:
            zf.writestr(DESCRIPTION, json.dumps(description, indent=1, sort_keys=True))
            for name in shapes:
                buf = io.BytesIO()
                np.lib.format.write_array(buf, np.asarray(arrays[name], np.float32))
                zf.writestr(f"{name}.npy", buf.getvalue())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def load_net(path: str | Path) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """The arrays and description of the weight file ``path`` (see the module docstring)."""
    p = Path(path)
    where = f"weights file {quote(str(path))}"
    if p.is_dir() or (p.exists() and not p.is_file()):
        raise ConfigError(f"{where} is not a regular file; expected an .npz written by a trainer")
    if not p.is_file():
        raise ConfigError(f"{where} does not exist")
    with open_zip(p, where, "a weights file (.npz)") as zf:
        names = set(zf.namelist())
        if DESCRIPTION not in names:
            raise ConfigError(f"{where}: no {DESCRIPTION}; this is not a moon-envs network file")
        raw = read_member(zf, DESCRIPTION, MAX_DESCRIPTION_BYTES, where, "a description needs")
        try:
            description = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise ConfigError(f"{where}: {DESCRIPTION} is not JSON ({exc})") from None
        shapes = check_description(description, where)
        expected = {f"{k}.npy" for k in shapes} | {DESCRIPTION}
        if names != expected:
            extra, missing = sorted(names - expected)[:5], sorted(expected - names)[:5]
            raise ConfigError(
                f"{where}: its arrays do not match the architecture it describes "
                f"(unexpected: {extra}, missing: {missing})"
            )
        arrays = {k: _read_array(zf, k, shape, where) for k, shape in shapes.items()}
    return arrays, description


def _read_array(zf: zipfile.ZipFile, name: str, shape: tuple, where: str) -> np.ndarray:
    limit = 4 * math.prod(shape) + NPY_HEADER_BYTES
    data = read_member(zf, f"{name}.npy", limit, where, f"array {name} of shape {shape} needs")
    try:
        arr = np.lib.format.read_array(io.BytesIO(data), allow_pickle=False)
    except (ValueError, OSError, EOFError) as exc:
        raise ConfigError(f"{where}: array {name} is not a .npy array ({exc})") from None
    if arr.dtype != np.float32 or arr.shape != shape:
        raise ConfigError(
            f"{where}: array {name} is {arr.dtype}{list(arr.shape)}; expected float32{list(shape)}"
        )
    if not np.isfinite(arr).all():
        raise ConfigError(f"{where}: array {name} holds NaN or infinite values")
    return arr


def check_description(d: Any, where: str) -> dict[str, tuple]:
    """Check a description's fields; return the arrays' shapes it implies."""
    if not isinstance(d, dict):
        raise ConfigError(f"{where}: the description must be a JSON object")
    if d.get("format") != FORMAT:
        raise ConfigError(f"{where}: format {quote(d.get('format'))}; expected {FORMAT!r}")
    if d.get("version") != VERSION:
        raise ConfigError(
            f"{where}: version {quote(d.get('version'))}; this reader reads {VERSION}"
        )
    _choice(d, "algorithm", ALGORITHMS, where)
    _choice(d, "activation", ACTIVATIONS, where)
    for key in ("env_id", "game"):
        if not isinstance(d.get(key), str) or not d[key]:
            raise ConfigError(f"{where}: description field {key!r} must be a non-empty string")
    if not isinstance(d.get("game_config"), dict):
        raise ConfigError(f"{where}: description field 'game_config' must be an object")
    obs = _count(d, "observation_size", MAX_INPUTS, where)
    actions = _count(d, "num_actions", MAX_ACTIONS, where)
    hidden = d.get("hidden")
    if (
        not isinstance(hidden, list)
        or not 1 <= len(hidden) <= MAX_LAYERS
        or not all(type(h) is int and 1 <= h <= MAX_WIDTH for h in hidden)
    ):
        raise ConfigError(
            f"{where}: description field 'hidden' must list 1..{MAX_LAYERS} layer sizes "
            f"in 1..{MAX_WIDTH}, got {quote(hidden)}"
        )
    shapes = array_shapes(obs, actions, hidden)
    total = sum(math.prod(s) for s in shapes.values())
    if total > MAX_PARAMETERS:
        raise ConfigError(f"{where}: {total:,} parameters; allowed: at most {MAX_PARAMETERS:,}")
    return shapes


def _choice(d: dict, key: str, allowed: tuple, where: str) -> None:
    if d.get(key) not in allowed:
        raise ConfigError(
            f"{where}: description field {key!r} is {quote(d.get(key))}; allowed: {list(allowed)}"
        )


def _count(d: dict, key: str, limit: int, where: str) -> int:
    value = d.get(key)
    if type(value) is not int or not 1 <= value <= limit:
        raise ConfigError(
            f"{where}: description field {key!r} must be an integer in 1..{limit}, "
            f"got {quote(value)}"
        )
    return value
