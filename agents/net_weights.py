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

A network that reads fixed features after the observation (:mod:`moon_agents.input_features`)
adds ``"input_features": ["landing_values"]`` and ``"input_size"`` (the observation's size
plus the features'); its first layer reads ``input_size`` values.

:func:`save_net` writes one (atomically, through a temporary file), :func:`load_net`
reads one in bounded time and memory, with numpy alone and without unpickling:

1. the description (at most :data:`MAX_DESCRIPTION_BYTES`, nested at most
   :data:`~moon_agents.weights_files.MAX_JSON_DEPTH` levels) is read and checked: its
   ``observation_size`` and ``num_actions`` must be those of the env it names (built
   from ``env_id`` and ``game_config``), its hidden layers at most
   :data:`~moon_agents.weights_files.MAX_HIDDEN_LAYERS` of at most
   :data:`~moon_agents.weights_files.MAX_HIDDEN_WIDTH`, its parameters at most
   :func:`~moon_agents.weights_files.parameter_cap` of that env;
2. the architecture fixes every array's name, dtype and shape; each ``.npy`` header is
   read (numpy's header readers, no data) and checked against it, all of them before any
   array's data is read;
3. each array's data is read, capped at its known size (a zip bomb is cut off there).

Anything else (unknown or missing arrays, another dtype or shape, NaN weights, an
oversized network) is refused with a :class:`~moon_envs.core.game.ConfigError` naming
the file, the field or array and what was expected.
"""

from __future__ import annotations

import io
import itertools
import json
import math
import os
import tempfile
import zipfile
import zlib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from moon_agents.weights_files import (
    MAX_HIDDEN_LAYERS,
    MAX_HIDDEN_WIDTH,
    open_zip,
    parameter_cap,
    parse_json,
    read_member,
)
from moon_envs.core.game import ConfigError
from moon_envs.core.snapshot import quote

FORMAT = "moon-envs-net"
VERSION = 1
DESCRIPTION = "description.json"
TRAINED_DIR = Path(__file__).parent / "trained"
"""Where the shipped trained agents live, per game (``GameSpec.name``): ``<game>.npz``
(a network trained on the JAX twin) and ``<game>.zip`` (a MaskablePPO policy).
Defined here, at the bottom of the agents' imports, so the zoo and the JAX modules that
read the shipped networks share it without importing each other."""
MAX_DESCRIPTION_BYTES = 1 << 16
MAX_LAYERS = MAX_HIDDEN_LAYERS
MAX_WIDTH = MAX_HIDDEN_WIDTH
MAX_INPUTS = 1 << 16
MAX_ACTIONS = 1 << 16
MAX_PARAMETERS = 50_000_000
"""Most parameters of any network file, whatever its env (see also :func:`parameter_cap`)."""
MAX_NPY_HEADER = 1024
"""Longest ``.npy`` header read (numpy writes 128 bytes for these arrays)."""
_FLOAT32 = np.dtype("<f4")
ACTIVATIONS = ("relu", "tanh", "gelu", "silu")
ALGORITHMS = ("alphazero", "jax_ppo", "imitation")


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


def load_net(
    path: str | Path, expect: Mapping[str, Any] | None = None
) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """The arrays and description of the weight file ``path`` (see the module docstring).

    ``expect`` maps description fields (``env_id``, ``observation_size``, ``hidden``...)
    to the values the caller needs; a file with others is refused, naming the field,
    before any array is read."""
    p = Path(path)
    where = f"weights file {quote(str(path))}"
    if p.is_dir() or (p.exists() and not p.is_file()):
        raise ConfigError(f"{where} is not a regular file; expected an .npz written by a trainer")
    if not p.is_file():
        raise ConfigError(f"{where} does not exist")
    with open_zip(p, where, "a weights file (.npz)") as zf:
        try:
            return _load(zf, where, expect or {})
        except (zipfile.BadZipFile, OSError, EOFError, zlib.error, NotImplementedError) as exc:
            raise ConfigError(f"{where}: not a readable .npz ({quote(str(exc), 120)})") from None


def _load(
    zf: zipfile.ZipFile, where: str, expect: Mapping[str, Any]
) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    names = set(zf.namelist())
    if DESCRIPTION not in names:
        raise ConfigError(f"{where}: no {DESCRIPTION}; this is not a moon-envs network file")
    raw = read_member(zf, DESCRIPTION, MAX_DESCRIPTION_BYTES, where, "a description needs")
    description = parse_json(raw, f"{where}: {DESCRIPTION}")
    shapes = check_description(description, where)
    for field, value in expect.items():
        if description.get(field) != value:
            raise ConfigError(
                f"{where} has {field}={quote(description.get(field))}, expected "
                f"{field}={quote(value)}; allowed: a network file written for that"
            )
    check_env_sizes(description, where)
    expected = {f"{k}.npy" for k in shapes} | {DESCRIPTION}
    if names != expected:
        extra, missing = sorted(names - expected)[:5], sorted(expected - names)[:5]
        raise ConfigError(
            f"{where}: its arrays do not match the architecture it describes "
            f"(unexpected: {extra}, missing: {missing})"
        )
    for name, shape in shapes.items():  # every header, before any array's data
        with zf.open(f"{name}.npy") as f:
            _read_header(f, name, shape, where)
    arrays = {k: _read_array(zf, k, shape, where) for k, shape in shapes.items()}
    return arrays, description


def check_env_sizes(description: dict[str, Any], where: str) -> None:
    """Refuse a checked description whose ``observation_size`` or ``num_actions`` are not
    those of the env it names (``env_id`` built with ``game_config``)."""
    import moon_envs

    env_id = description["env_id"]
    if env_id not in moon_envs.list_envs():
        raise ConfigError(
            f"{where}: description field 'env_id' is {quote(env_id)}; allowed: "
            f"{moon_envs.list_envs()}"
        )
    try:
        env = moon_envs.make(env_id, **description["game_config"])
    except (ValueError, TypeError) as exc:  # ConfigError is a ValueError
        raise ConfigError(
            f"{where}: description field 'game_config': {quote(str(exc), 200)}"
        ) from None
    spec = env.game.spec
    if "input_features" in description:
        from moon_agents.input_features import check_features, features_size

        names = check_features(description["input_features"], spec.name, where)
        wanted = math.prod(spec.observation_shape) + features_size(names, env.game)
        if description["input_size"] != wanted:
            raise ConfigError(
                f"{where}: description field 'input_size' is {description['input_size']}, but "
                f"{env_id}'s observation and {names} make {wanted}; allowed: {wanted}"
            )
    env.close()
    for field, value in (
        ("observation_size", math.prod(spec.observation_shape)),
        ("num_actions", spec.num_actions),
    ):
        if description[field] != value:
            raise ConfigError(
                f"{where}: description field {field!r} is {description[field]}, but "
                f"{env_id} with its game_config has {value}; allowed: {value}"
            )


def _read_header(f: Any, name: str, shape: tuple, where: str) -> None:
    """Read and check the ``.npy`` header of array ``name`` from ``f`` (no data)."""
    fmt = np.lib.format
    try:
        version = fmt.read_magic(f)
        reader = {(1, 0): fmt.read_array_header_1_0, (2, 0): fmt.read_array_header_2_0}
        if version not in reader:
            raise ValueError(f"format version {version}; allowed: 1.0 or 2.0")
        got, fortran, dtype = reader[version](f, max_header_size=MAX_NPY_HEADER)
    except (ValueError, SyntaxError, TypeError, OSError, EOFError) as exc:
        raise ConfigError(
            f"{where}: array {name} has no valid .npy header ({quote(str(exc), 120)})"
        ) from None
    if dtype != _FLOAT32 or tuple(got) != shape or fortran:
        raise ConfigError(
            f"{where}: array {name} declares {dtype}{list(got)}"
            f"{' in Fortran order' if fortran else ''}; expected float32{list(shape)} "
            f"(little-endian, C order)"
        )


def _read_array(zf: zipfile.ZipFile, name: str, shape: tuple, where: str) -> np.ndarray:
    """The data of array ``name``, whose header :func:`_read_header` has checked."""
    nbytes = _FLOAT32.itemsize * math.prod(shape)
    info = zf.getinfo(f"{name}.npy")
    if info.file_size > nbytes + MAX_NPY_HEADER:
        raise ConfigError(
            f"{where}: {name}.npy declares {info.file_size:,} bytes; array {name} of shape "
            f"{shape} needs at most {nbytes + MAX_NPY_HEADER:,}"
        )
    with zf.open(info) as f:
        fmt = np.lib.format
        version = fmt.read_magic(f)
        reader = fmt.read_array_header_1_0 if version == (1, 0) else fmt.read_array_header_2_0
        reader(f, max_header_size=MAX_NPY_HEADER)
        data = f.read(nbytes + 1)  # at most one byte past the array: a bomb stops here
    if len(data) != nbytes:
        raise ConfigError(
            f"{where}: array {name} holds {'more' if len(data) > nbytes else len(data)} bytes "
            f"of data; expected float32{list(shape)} ({nbytes:,} bytes)"
        )
    arr = np.frombuffer(data, _FLOAT32).reshape(shape).astype(np.float32)
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
    inputs = obs
    if "input_features" in d or "input_size" in d:
        if not isinstance(d.get("input_features"), list):
            raise ConfigError(
                f"{where}: description field 'input_features' must list feature names "
                "when 'input_size' is given"
            )
        inputs = _count(d, "input_size", MAX_INPUTS, where)
        if inputs < obs:
            raise ConfigError(
                f"{where}: description field 'input_size' is {inputs}; allowed: at least "
                f"observation_size ({obs})"
            )
    shapes = array_shapes(inputs, actions, hidden)
    total = sum(math.prod(s) for s in shapes.values())
    cap = min(MAX_PARAMETERS, parameter_cap(inputs, actions))
    if total > cap:
        raise ConfigError(
            f"{where}: description field 'hidden' {hidden} makes {total:,} parameters; "
            f"allowed: at most {cap:,} for {obs} inputs and {actions} actions"
        )
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
