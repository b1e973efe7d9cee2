"""MaskablePPO checkpoints that load without running anything from the file.

A checkpoint is the ``.zip`` that sb3's ``model.save`` writes, plus one entry the trainer
adds, ``moon_envs_policy.json``: the policy's architecture and spaces as plain JSON
(:func:`save_checkpoint`). :func:`load_policy` reads only that entry (with ``json``) and
the weights ``policy.pth`` (with ``torch.load(..., weights_only=True)``, which loads
tensors and refuses any other object), then builds the network from the JSON. It never
reads sb3's ``data`` entry, whose ``:serialized:`` values are cloudpickle payloads that
run code when sb3 loads them.

Checkpoints without the JSON entry (written by ``model.save`` directly, or by other
programs) are refused. If you trust such a file, load it with sb3 itself: agent spec
``ppo-trusted:PATH`` or ``PolicyAgent.load(path, trusted=True)`` -- trusted files only,
since sb3 unpickles them.
"""

from __future__ import annotations

import io
import json
import math
import zipfile
import zlib
from itertools import pairwise
from pathlib import Path
from typing import Any

import numpy as np

from moon_agents.weights_files import (
    MAX_HIDDEN_LAYERS,
    MAX_HIDDEN_WIDTH,
    check_torch_archive,
    open_zip,
    parameter_cap,
    parse_json,
    read_member,
    strip_ansi,
    weights_limit,
)
from moon_envs.core.game import ConfigError
from moon_envs.core.snapshot import quote

SIDECAR = "moon_envs_policy.json"
"""Name of the JSON entry that describes the policy inside a checkpoint zip."""
WEIGHTS = "policy.pth"
FORMAT = "moon-envs-maskable-ppo-policy"
VERSION = 1
MAX_JSON_BYTES = 1 << 20
MAX_LAYERS = 32
MAX_WIDTH = 1 << 16
MAX_INPUTS = 1 << 20
MAX_PARAMETERS = 50_000_000
"""Most parameters of any policy, whatever its env; a policy zip also keeps to
:func:`~moon_agents.weights_files.parameter_cap` of its observation size and actions, and
to :data:`~moon_agents.weights_files.MAX_HIDDEN_LAYERS` hidden layers of at most
:data:`~moon_agents.weights_files.MAX_HIDDEN_WIDTH`."""
ACTIVATIONS = ("tanh", "relu", "elu", "leaky_relu", "gelu", "silu")
_TORCH_ACTIVATIONS = {
    "tanh": "Tanh",
    "relu": "ReLU",
    "elu": "ELU",
    "leaky_relu": "LeakyReLU",
    "gelu": "GELU",
    "silu": "SiLU",
}


def checkpoint_path(path: str | Path) -> Path:
    """``path``, or ``path`` + ``.zip`` where only that exists (as sb3 does); anything but
    a regular file is refused, saying what the path is."""
    p = Path(path)
    if not p.exists() and p.suffix != ".zip" and p.with_suffix(".zip").exists():
        p = p.with_suffix(".zip")
    expected = "expected a checkpoint .zip file written by moon-envs train (agent spec 'ppo:PATH')"
    if p.is_dir():
        raise ConfigError(
            f"checkpoint {quote(str(path))} is a folder; {expected}; an RLlib model folder "
            f"is loaded with 'rllib:PATH'"
        )
    if p.exists() and not p.is_file():
        raise ConfigError(
            f"checkpoint {quote(str(path))} is not a regular file (a FIFO, socket or device); "
            f"{expected}"
        )
    if not p.is_file():
        raise ConfigError(f"checkpoint {quote(str(path))} does not exist; {expected}")
    return p


# ---- saving -----------------------------------------------------------------------------------


def save_checkpoint(model: Any, path: str | Path) -> Path:
    """``model.save(path)`` plus the JSON entry that lets :func:`load_policy` load it safely.

    Returns the path written (sb3 adds ``.zip`` when ``path`` has no suffix).
    """
    meta = policy_description(model.policy)
    model.save(str(path))
    p = Path(path)
    if p.suffix != ".zip":
        p = Path(f"{p}.zip")
    with zipfile.ZipFile(p, "a") as zf:
        zf.writestr(SIDECAR, json.dumps(meta, indent=2))
    return p


def export_policy(src: str | Path, dst: str | Path) -> Path:
    """Copy the two entries :func:`load_policy` reads (the JSON description and the
    weights) from checkpoint ``src`` into a new, compressed zip ``dst``: the smallest file
    an agent spec ``ppo:PATH`` plays from (no optimizer state, nothing pickled). The
    weights are checked by loading ``src`` first."""
    p = checkpoint_path(src)
    load_policy(p)  # refuse anything that would not load
    out = Path(dst)
    out.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(p) as zin, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zout:
        for entry in (SIDECAR, WEIGHTS):
            zout.writestr(entry, zin.read(entry))
    return out


def policy_description(policy: Any) -> dict[str, Any]:
    """The JSON description of a ``MaskableActorCriticPolicy`` (architecture and spaces)."""
    import torch
    from gymnasium import spaces
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
    from stable_baselines3.common.torch_layers import FlattenExtractor

    params = policy._get_constructor_parameters()
    obs, act = policy.observation_space, policy.action_space
    names = {getattr(torch.nn, v): k for k, v in _TORCH_ACTIVATIONS.items()}
    if (
        type(policy) is not MaskableActorCriticPolicy
        or params["features_extractor_class"] is not FlattenExtractor
        or params["activation_fn"] not in names
        or not isinstance(obs, spaces.Box)
        or not isinstance(act, spaces.Discrete)
    ):
        raise ConfigError(
            "only MaskableActorCriticPolicy MLPs on a Box observation and a Discrete action "
            f"space, with an activation in {list(ACTIVATIONS)}, can be saved as a safe checkpoint"
        )
    return {
        "format": FORMAT,
        "version": VERSION,
        "observation_shape": [int(n) for n in obs.shape],
        "observation_low": _bound(obs.low),
        "observation_high": _bound(obs.high),
        "num_actions": int(act.n),
        "net_arch": params["net_arch"],
        "activation": names[params["activation_fn"]],
        "share_features_extractor": bool(policy.share_features_extractor),
    }


def _bound(values: np.ndarray) -> float | list[float]:
    flat = np.asarray(values, dtype=np.float64).ravel()
    return float(flat[0]) if flat.size and (flat == flat[0]).all() else flat.tolist()


# ---- loading ----------------------------------------------------------------------------------


def read_description(path: str | Path) -> dict[str, Any]:
    """The checked JSON description of checkpoint ``path`` (its architecture and spaces),
    read without torch and without reading the weights: callers compare it with the env
    before :func:`load_policy` builds anything."""
    p = checkpoint_path(path)
    zf = open_zip(p, str(p), "a checkpoint zip")
    try:
        with zf:
            if SIDECAR not in set(zf.namelist()):
                raise ConfigError(f"{p}: no {SIDECAR} entry, so the policy cannot be loaded")
            return _checked(_read_json(zf, p), str(p))
    except (zipfile.BadZipFile, OSError, EOFError, zlib.error, NotImplementedError) as exc:
        raise ConfigError(
            f"{p}: not a checkpoint zip ({quote(strip_ansi(str(exc)), 120)})"
        ) from None


def load_policy(path: str | Path) -> Any:
    """The policy of a checkpoint written by :func:`save_checkpoint`, without unpickling.

    Raises :class:`ConfigError` for a file that is not such a checkpoint (no JSON entry, a
    bad description, weights that are more than tensors or do not fit the description).
    """
    import torch

    p = checkpoint_path(path)
    trusted_hint = (
        "if you trust this file, load it with the agent spec 'ppo-trusted:PATH' "
        "(trusted files only: loading it runs code stored in it)"
    )
    zf = open_zip(p, str(p), "a checkpoint zip")
    try:
        with zf:
            names = set(zf.namelist())
            if SIDECAR not in names:
                raise ConfigError(
                    f"{p}: no {SIDECAR} entry, so the policy cannot be loaded without "
                    f"unpickling; {trusted_hint}"
                )
            if WEIGHTS not in names:
                raise ConfigError(f"{p}: no {WEIGHTS} entry (the policy's weights)")
            meta = _read_json(zf, p)
            m = _checked(meta, str(p))  # the described network, whose size bounds the weights
            size = int(np.prod(m["observation_shape"]))
            limit = weights_limit(_parameter_count(size, m["net_arch"], m["num_actions"]))
            raw = read_member(zf, WEIGHTS, limit, str(p))
    except (zipfile.BadZipFile, OSError, EOFError, zlib.error, NotImplementedError) as exc:
        raise ConfigError(
            f"{p}: not a checkpoint zip ({quote(strip_ansi(str(exc)), 120)})"
        ) from None
    check_torch_archive(raw, limit, f"{p}: {WEIGHTS}")
    try:
        weights = torch.load(io.BytesIO(raw), map_location="cpu", weights_only=True)
    except Exception as exc:  # weights_only refuses objects; any failure here is a bad file
        raise ConfigError(
            f"{p}: {WEIGHTS} holds something other than tensors and was refused "
            f"({quote(_reason(exc), 160)}); {trusted_hint}"
        ) from None
    policy = build_policy(meta, where=str(p))
    try:
        policy.load_state_dict(weights, strict=True)
    except (RuntimeError, TypeError, AttributeError) as exc:
        raise ConfigError(
            f"{p}: the weights do not fit the described network "
            f"({quote(strip_ansi(str(exc)), 200)})"
        ) from None
    policy.set_training_mode(False)
    return policy


def _reason(exc: Exception) -> str:
    """The line of torch's message that says what was refused, without colour escapes
    (not its advice to load with ``weights_only=False``)."""
    lines = [line.strip() for line in strip_ansi(str(exc)).splitlines() if line.strip()]
    specific = [line for line in lines if "nsupported" in line or "Unpickler" in line]
    return (specific or lines or [type(exc).__name__])[0]


def _read_json(zf: zipfile.ZipFile, p: Path) -> dict[str, Any]:
    raw = read_member(zf, SIDECAR, MAX_JSON_BYTES, str(p), "a policy description has")
    meta = parse_json(raw, f"{p}: {SIDECAR}")
    if not isinstance(meta, dict):
        raise ConfigError(f"{p}: {SIDECAR} must hold a JSON object")
    return meta


def build_policy(meta: dict[str, Any], where: str = "checkpoint") -> Any:
    """A fresh ``MaskableActorCriticPolicy`` from a checked :func:`policy_description`.

    Building it does not move torch's global random generator.
    """
    import torch
    from gymnasium import spaces
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

    m = _checked(meta, where)
    obs_space = spaces.Box(
        low=np.broadcast_to(np.asarray(m["observation_low"], np.float32), m["observation_shape"]),
        high=np.broadcast_to(np.asarray(m["observation_high"], np.float32), m["observation_shape"]),
        dtype=np.float32,
    )
    with torch.random.fork_rng(devices=[]):
        policy = MaskableActorCriticPolicy(
            observation_space=obs_space,
            action_space=spaces.Discrete(m["num_actions"]),
            lr_schedule=lambda _: 0.0,
            net_arch=m["net_arch"],
            activation_fn=getattr(torch.nn, _TORCH_ACTIVATIONS[m["activation"]]),
            share_features_extractor=m["share_features_extractor"],
            ortho_init=False,  # the weights are loaded over it: sb3's QR init is wasted time
        )
    return policy.to("cpu")


def _checked(meta: dict[str, Any], where: str) -> dict[str, Any]:
    keys = {
        "format",
        "version",
        "observation_shape",
        "observation_low",
        "observation_high",
        "num_actions",
        "net_arch",
        "activation",
        "share_features_extractor",
    }
    if set(meta) != keys:
        raise ConfigError(
            f"{where}: {SIDECAR} must have exactly the fields {sorted(keys)}, "
            f"got {quote(sorted(map(str, meta)), 200)}"
        )
    if meta["format"] != FORMAT or meta["version"] != VERSION:
        raise ConfigError(
            f"{where}: {SIDECAR} is format {quote(meta['format'])} version "
            f"{quote(meta['version'])}; this version of moon-envs reads {FORMAT!r} {VERSION}"
        )
    shape = meta["observation_shape"]
    if not _ints(shape, 1, MAX_INPUTS) or not 1 <= len(shape) <= 8 or np.prod(shape) > MAX_INPUTS:
        raise ConfigError(f"{where}: observation_shape={quote(shape)} is not a valid shape")
    size = int(np.prod(shape))
    for name in ("observation_low", "observation_high"):
        bound = meta[name]
        ok = _number(bound) or (
            isinstance(bound, list) and len(bound) == size and all(map(_number, bound))
        )
        if not ok:
            raise ConfigError(f"{where}: {name} must be a number or {size} numbers")
    if not _ints([meta["num_actions"]], 1, MAX_WIDTH * 16):
        raise ConfigError(f"{where}: num_actions={quote(meta['num_actions'])} is not allowed")
    arch = meta["net_arch"]
    parts = list(arch.values()) if isinstance(arch, dict) else [arch]
    layers_ok = all(
        isinstance(x, list) and len(x) <= MAX_HIDDEN_LAYERS and _ints(x, 1, MAX_HIDDEN_WIDTH)
        for x in parts
    )
    if (isinstance(arch, dict) and set(arch) != {"pi", "vf"}) or not layers_ok:
        raise ConfigError(
            f"{where}: net_arch={quote(arch)} must be a list of layer sizes or "
            f"{{'pi': [...], 'vf': [...]}} (at most {MAX_HIDDEN_LAYERS} layers of "
            f"1..{MAX_HIDDEN_WIDTH})"
        )
    n_params = _parameter_count(size, arch, meta["num_actions"])
    cap = min(MAX_PARAMETERS, parameter_cap(size, meta["num_actions"], mlps=2))
    if n_params > cap:
        raise ConfigError(
            f"{where}: net_arch={quote(arch)} makes {n_params:,} parameters; allowed: at "
            f"most {cap:,} for {size} inputs and {meta['num_actions']} actions"
        )
    if meta["activation"] not in ACTIVATIONS:
        raise ConfigError(
            f"{where}: activation={quote(meta['activation'])} is not allowed; "
            f"allowed: {list(ACTIVATIONS)}"
        )
    if not isinstance(meta["share_features_extractor"], bool):
        raise ConfigError(f"{where}: share_features_extractor must be true or false")
    return meta


def _parameter_count(inputs: int, arch: list[int] | dict[str, list[int]], actions: int) -> int:
    """Weights and biases of the actor and critic MLPs and their heads."""
    total = 0
    heads = (("pi", actions), ("vf", 1))
    for key, outputs in heads:
        layers = arch[key] if isinstance(arch, dict) else arch
        dims = [inputs, *layers, outputs]
        total += sum((a + 1) * b for a, b in pairwise(dims))
    return total


def _ints(values: Any, low: int, high: int) -> bool:
    return isinstance(values, list) and all(type(v) is int and low <= v <= high for v in values)


def _number(v: Any) -> bool:
    """An int or a float (infinite bounds allowed, NaN not)."""
    if type(v) is int:
        return abs(v) < 2**63
    return type(v) is float and not math.isnan(v)
