"""Resuming a run folder: which folders may be resumed, with which config.

``moon-envs train --resume RUN`` (or ``train(config, resume=RUN)``) continues a run from
the resume state its trainer last wrote in ``RUN/resume/`` (the SB3 trainer's
``state.json``, the JAX trainers' ``state.npz``). Before anything is written, the folder
is checked here:

* it must be a run folder: a real folder carrying :data:`~moon_agents.paths.RUN_MARKER`
  with a ``config.yaml`` and a resume state; anything else is refused and left untouched;
* the config must be the one the folder was written with, except the fields in
  :data:`RESUMABLE_FIELDS` (a budget that may be extended, where the folder lives, the
  progress bar); a difference is refused naming each field and both values;
* the moon-envs version that wrote it must not be newer than this one, and the resume
  state's format must be this one's (:data:`STATE_FORMAT`); other package versions that
  differ from ``versions.json`` are reported with a warning (the run continues, but the
  rows it appends may differ from those of an uninterrupted run).

:func:`resume_config` is the config a resumed run uses (the folder's own, with
overrides), :func:`check_resumable` the whole check. A folder that passes has the
temporary files of writes a kill cut short removed (:func:`remove_partial_writes`).
"""

from __future__ import annotations

import json
import re
import warnings
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from moon_agents.paths import RUN_MARKER, is_marked
from moon_envs.core.game import ConfigError
from moon_envs.core.snapshot import quote

RESUME_DIR = "resume"
"""The folder, inside a run folder, that holds the resume state."""
STATE_FILES = ("state.json", "state.npz")
"""The SB3 trainer's resume state and the JAX trainers'."""
STATE_FORMAT = 1
"""Version of the resume state's layout; a state of another version is refused."""
RESUMABLE_FIELDS = (
    "budget.total_timesteps",
    "budget.wall_clock_minutes",
    "budget.stop_at_timesteps",
    "output.dir",
    "output.run_name",
    "output.overwrite",
    "output.progress_bar",
)
"""Config fields that may differ between a run folder and the run resuming it: the budget
(extended to train longer), where the folder is (it may have been moved) and the
progress bar. Every other field must be equal."""
MAX_STATE_JSON_BYTES = 64 << 20
"""Largest ``state.json`` read (metrics rows and counters take far less)."""


def state_path(run_dir: Path, algorithm: str) -> Path:
    """Where the resume state of a run of ``algorithm`` lives."""
    name = "state.json" if algorithm not in ("alphazero", "jax_ppo") else "state.npz"
    return Path(run_dir) / RESUME_DIR / name


def check_run_folder(run_dir: str | Path) -> Path:
    """``run_dir`` as a path, if it is a run folder that holds a resume state; else a
    :class:`ConfigError` saying what it lacks (the folder is left untouched)."""
    run = Path(run_dir).expanduser()
    where = f"--resume {quote(str(run_dir))}"
    if run.is_symlink() or not run.is_dir():
        what = "a link" if run.is_symlink() else ("missing" if not run.exists() else "a file")
        raise ConfigError(
            f"{where}: it is {what}; allowed: a run folder written by moon-envs train"
        )
    if not is_marked(run):
        raise ConfigError(
            f"{where}: not a run folder (it has no {RUN_MARKER}); it is left untouched. "
            f"Allowed: a folder written by moon-envs train"
        )
    if not (run / "config.yaml").is_file():
        raise ConfigError(f"{where}: the run folder has no config.yaml; it cannot be resumed")
    if not any((run / RESUME_DIR / name).is_file() for name in STATE_FILES):
        raise ConfigError(
            f"{where}: the run folder has no resume state ({RESUME_DIR}/state.json or "
            f"{RESUME_DIR}/state.npz): it was written by a version without resume, or "
            f"stopped before its first checkpoint; it cannot be resumed"
        )
    return run


def resume_config(run_dir: str | Path, overrides: Mapping[str, Any] | None = None) -> Any:
    """The config of run folder ``run_dir`` (its ``config.yaml``) with dotted
    ``overrides``, e.g. ``{"budget.total_timesteps": 200_000}``; only
    :data:`RESUMABLE_FIELDS` may be overridden."""
    from moon_agents.training.config import load_config

    run = check_run_folder(run_dir)
    for dotted in overrides or {}:
        if dotted not in RESUMABLE_FIELDS:
            raise ConfigError(
                f"{dotted}: a resumed run keeps its folder's value; allowed overrides: "
                f"{list(RESUMABLE_FIELDS)}"
            )
    return load_config(run / "config.yaml", overrides)


def check_resumable(run_dir: str | Path, config: Any) -> Path:
    """The run folder ``run_dir``, once it passes every check of the module docstring for
    a run of ``config``; a :class:`ConfigError` naming the first problem otherwise."""
    from moon_agents.training.config import load_config

    run = check_run_folder(run_dir)
    stored = load_config(run / "config.yaml")
    differences = config_differences(stored.to_dict(), config.to_dict())
    if differences:
        raise ConfigError(
            f"--resume {run}: the config differs from the one the run folder was written "
            f"with: {'; '.join(differences)}. Only {list(RESUMABLE_FIELDS)} may change"
        )
    if not state_path(run, config.algorithm.name).is_file():
        raise ConfigError(
            f"--resume {run}: no {state_path(run, config.algorithm.name).name} for the "
            f"{config.algorithm.name} trainer in {RESUME_DIR}/; it cannot be resumed"
        )
    _check_versions(run)
    remove_partial_writes(run)
    return run


_PARTIAL = re.compile(r"^\.(?P<name>.+)\.[a-z0-9_]{8}(?P<suffix>\.[A-Za-z0-9]+)?$")


def remove_partial_writes(run: Path) -> list[Path]:
    """Remove the temporary files that :func:`~moon_agents.training.run_folder.atomic_path`
    leaves when a run is killed while writing: ``.<file>.<8 characters><suffix>`` beside a
    file of the run folder (its top, ``checkpoints/`` and ``resume/``); nothing else."""
    removed = []
    for folder in (run, run / "checkpoints", run / RESUME_DIR):
        if not folder.is_dir() or folder.is_symlink():
            continue
        for path in folder.iterdir():
            m = _PARTIAL.match(path.name)
            if (
                m
                and path.is_file()
                and not path.is_symlink()
                and (m["suffix"] or "") == Path(m["name"]).suffix
            ):
                path.unlink()
                removed.append(path)
    return removed


def config_differences(stored: Mapping[str, Any], given: Mapping[str, Any]) -> list[str]:
    """``field: folder X, given Y`` for every dotted field that differs, except
    :data:`RESUMABLE_FIELDS`."""
    folder, now = _flatten(stored), _flatten(given)
    out = []
    for key in sorted(set(folder) | set(now)):
        if key in RESUMABLE_FIELDS or folder.get(key) == now.get(key):
            continue
        out.append(f"{key}: folder {quote(folder.get(key))}, given {quote(now.get(key))}")
    return out


def _flatten(data: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in data.items():
        dotted = f"{prefix}{key}"
        if isinstance(value, Mapping) and value:
            out.update(_flatten(value, f"{dotted}."))
        else:
            out[dotted] = value
    return out


def _check_versions(run: Path) -> None:
    """Refuse a folder a newer moon-envs wrote; warn about other packages that differ."""
    from packaging.version import InvalidVersion, Version

    from moon_agents.training.run_folder import package_versions

    try:
        then = json.loads((run / "versions.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        raise ConfigError(
            f"--resume {run}: versions.json is missing or not JSON, so the version that "
            f"wrote the folder is unknown; it cannot be resumed"
        ) from None
    if not isinstance(then, dict):
        raise ConfigError(f"--resume {run}: versions.json must hold a JSON object")
    now = package_versions(tuple(k for k in then if k not in ("python", "platform")))
    wrote, here = str(then.get("moon-envs")), now["moon-envs"]
    try:
        newer = Version(wrote) > Version(here)
    except InvalidVersion:
        newer = wrote != here
    if newer:
        raise ConfigError(
            f"--resume {run}: the run folder was written by moon-envs {wrote}, newer than "
            f"this moon-envs {here}; resume it with moon-envs {wrote} or later"
        )
    changed = [
        f"{k} {then[k]} -> {now[k]}"
        for k in sorted(then)
        if k not in ("platform",) and k in now and str(then[k]) != now[k]
    ]
    if changed:
        warnings.warn(
            f"resuming {run} with other package versions than it was started with "
            f"({', '.join(changed)}): the rows it appends may differ from those of an "
            f"uninterrupted run",
            RuntimeWarning,
            stacklevel=3,
        )


def check_state_format(found: Any, where: str) -> None:
    """Refuse a resume state written in another layout than :data:`STATE_FORMAT`."""
    if found != STATE_FORMAT:
        raise ConfigError(
            f"{where}: resume state format {quote(found)}; this moon-envs reads format "
            f"{STATE_FORMAT}; resume it with the moon-envs version that wrote it"
        )


def read_state_json(path: Path) -> dict[str, Any]:
    """A ``state.json`` (at most :data:`MAX_STATE_JSON_BYTES`) as a dict."""
    where = str(path)
    if path.stat().st_size > MAX_STATE_JSON_BYTES:
        raise ConfigError(f"{where}: larger than {MAX_STATE_JSON_BYTES:,} bytes; refused")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise ConfigError(f"{where}: not a JSON resume state") from None
    if not isinstance(data, dict):
        raise ConfigError(f"{where}: a resume state must hold a JSON object")
    check_state_format(data.get("format"), where)
    return data
