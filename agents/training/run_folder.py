"""The run folder of a training run: its creation, the versions file, metrics and plot,
and :class:`TrainResult`, what a trainer returns about it.

:func:`make_run_dir` picks ``<output.dir>/<run name>`` (or a free ``_1``, ``_2`` ...),
:func:`package_versions` is ``versions.json``, :func:`write_metrics` writes
``metrics.csv`` and ``metrics.json`` and :func:`plot_learning_curve` draws
``learning_curve.png``; the layout of the whole folder is described in
:mod:`moon_agents.training.train`.

Every file of a run folder is written atomically (:func:`write_atomic`,
:func:`atomic_path`): into a temporary file in the same folder, then moved over the old
one with ``os.replace``, so a run killed at any moment leaves each file either as it was
or complete.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import math
import os
import platform
import shutil
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

from moon_agents.paths import mark, refuse_unmarked
from moon_agents.training.schema import ExperimentConfig

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


# ---- run folder ---------------------------------------------------------------------------


@dataclass
class TrainResult:
    """What a training run produced (:func:`moon_agents.training.train.train` and the
    RLlib trainer return it)."""

    run_dir: Path
    model_path: Path
    metrics: list[dict[str, Any]]
    timesteps: int
    elapsed_s: float
    snapshots: int | None = 0  # None: the trainer keeps no snapshot pool (alphazero)
    final_eval: dict[str, float] = field(default_factory=dict)
    interrupted: bool = False
    device: str = "cpu"


def make_run_dir(config: ExperimentConfig) -> Path:
    """Create the run folder: ``<dir>/<run name>``, or ``..._1``, ``..._2`` if it is taken.

    With ``output.overwrite`` the named folder is replaced, but only if ``moon-envs train``
    made it (it carries :data:`~moon_agents.paths.RUN_MARKER`); any other folder,
    file or link of that name is refused before anything is written. The new folder gets
    the marker.
    """
    base = Path(config.output.dir).expanduser() / config.run_name()
    run = base
    if config.output.overwrite and (run.exists() or run.is_symlink()):
        refuse_unmarked(run, "output.overwrite", "replace")
        shutil.rmtree(run)
    n = 1
    while run.is_symlink() or (run.exists() and (not run.is_dir() or any(run.iterdir()))):
        run = base.with_name(f"{base.name}_{n}")
        n += 1
    run.mkdir(parents=True, exist_ok=True)
    mark(run, "train")
    (run / "checkpoints").mkdir(exist_ok=True)
    return run


def package_versions(extra: tuple[str, ...] = ()) -> dict[str, str]:
    """Versions of Python, the platform and the packages a run depends on (plus
    ``extra`` ones)."""
    out = {"python": sys.version.split()[0], "platform": platform.platform()}
    for name in (*_VERSIONED, *extra):
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = "not installed"
    return out


# ---- writers ------------------------------------------------------------------------------


@contextlib.contextmanager
def atomic_path(path: str | Path) -> Iterator[Path]:
    """A temporary path beside ``path`` (same folder, same suffix) for a writer that
    takes a path; once the block ends without error it replaces ``path`` with
    ``os.replace``, else it is removed and ``path`` is left as it was."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=path.suffix)
    os.close(fd)
    os.chmod(tmp, 0o666 & ~_umask())  # mkstemp's file is private; the others' are not
    try:
        yield Path(tmp)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_atomic(path: str | Path, data: str | bytes) -> None:
    """Write ``data`` (text as UTF-8) to ``path`` atomically (:func:`atomic_path`)."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    with atomic_path(path) as tmp:
        with open(tmp, "wb") as f:
            f.write(raw)
            f.flush()
            os.fsync(f.fileno())


def write_metrics(metrics: list[dict[str, Any]], run_dir: Path) -> None:
    """metrics.csv and metrics.json (NaN written as empty / null), each atomically."""
    if not metrics:
        return
    columns = list(dict.fromkeys(k for row in metrics for k in row))
    text = io.StringIO(newline="")
    w = csv.DictWriter(text, fieldnames=columns)
    w.writeheader()
    for row in metrics:
        w.writerow({k: ("" if _isnan(v) else v) for k, v in row.items()})
    write_atomic(run_dir / "metrics.csv", text.getvalue())
    clean = [{k: (None if _isnan(v) else v) for k, v in row.items()} for row in metrics]
    write_atomic(run_dir / "metrics.json", json.dumps(clean, indent=1))


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
    with atomic_path(path) as tmp:
        fig.savefig(tmp, dpi=100)
    plt.close(fig)
