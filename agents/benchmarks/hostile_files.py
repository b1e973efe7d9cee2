"""Time and peak memory to refuse hostile policy files (zip bombs and their kin).

Each case is built in a temporary folder and loaded in a fresh Python process, which
reports the seconds ``load_policy`` took to refuse it and how far its peak resident
memory rose above its peak just before the call (``ru_maxrss``, after torch and sb3
are imported). The shipped Jupiter
policy is loaded the same way for scale. Target: every refusal within 1 s and under
100 MB of extra memory::

    python -m moon_agents.benchmarks.hostile_files
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Callable
from pathlib import Path

MiB = 1 << 20

_PROBE = """
import json, resource, sys, time
from moon_agents.checkpoint import load_policy
import torch, sb3_contrib  # imported before the baseline, as in any program that loads
def rss():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
base = rss()
start = time.perf_counter()
try:
    load_policy(sys.argv[1])
    outcome = "loaded"
except Exception as exc:
    outcome = type(exc).__name__ + ": " + str(exc)[:90]
seconds = time.perf_counter() - start
print(json.dumps({"seconds": seconds, "extra": rss() - base, "outcome": outcome}))
"""


def _weights_member(path: Path, weights: bytes, compress: int) -> None:
    from moon_agents.checkpoint import SIDECAR, WEIGHTS
    from moon_agents.zoo import TRAINED_DIR

    with zipfile.ZipFile(TRAINED_DIR / "jupiter.zip") as zf:
        sidecar = zf.read(SIDECAR)
    with zipfile.ZipFile(path, "w", compress) as zf:
        zf.writestr(SIDECAR, sidecar)
        zf.writestr(WEIGHTS, weights)


def _bomb(size: int) -> Callable[[Path], None]:
    return lambda path: _weights_member(path, bytes(size), zipfile.ZIP_DEFLATED)


def _inner_bomb(path: Path) -> None:
    inner = io.BytesIO()
    with zipfile.ZipFile(inner, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("archive/data.pkl", bytes(256 * MiB))
    _weights_member(path, inner.getvalue(), zipfile.ZIP_STORED)


def _many_members(path: Path) -> None:
    with zipfile.ZipFile(path, "w") as zf:
        for i in range(20_000):
            zf.writestr(f"m{i}", b"")


def _big_sidecar(path: Path) -> None:
    from moon_agents.checkpoint import SIDECAR, WEIGHTS

    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr(SIDECAR, json.dumps({"pad": " " * (512 * MiB)}))
        zf.writestr(WEIGHTS, b"")


def _shipped(path: Path) -> None:
    from moon_agents.zoo import TRAINED_DIR

    path.write_bytes((TRAINED_DIR / "jupiter.zip").read_bytes())


CASES: dict[str, Callable[[Path], None]] = {
    "policy.pth inflating to 1 GiB": _bomb(1 << 30),
    "policy.pth inflating to 256 MiB": _bomb(256 * MiB),
    "torch archive with a 256 MiB deflated record": _inner_bomb,
    "20,000 members": _many_members,
    "sidecar JSON inflating to 512 MiB": _big_sidecar,
    "the shipped Jupiter policy (for scale)": _shipped,
}


def run(out: Callable[[str], None] = print) -> list[dict]:
    """Build and load every case; print and return one row per case."""
    rows = []
    out(f"{'case':<46}{'file':>10}{'seconds':>9}{'extra MB':>10}  outcome")
    with tempfile.TemporaryDirectory() as tmp:
        for name, build in CASES.items():
            path = Path(tmp) / "case.zip"
            build(path)
            done = subprocess.run(
                [sys.executable, "-c", _PROBE, str(path)], capture_output=True, text=True
            )
            if done.returncode != 0:
                raise RuntimeError(f"{name}: the probe failed:\n{done.stderr[-2000:]}")
            row = {"case": name, "file_bytes": path.stat().st_size, **json.loads(done.stdout)}
            rows.append(row)
            out(
                f"{name:<46}{row['file_bytes'] / 1e6:>8.2f}MB{row['seconds']:>9.3f}"
                f"{row['extra'] / 1e6:>10.1f}  {row['outcome']}"
            )
            path.unlink()
    return rows


if __name__ == "__main__":
    run()
