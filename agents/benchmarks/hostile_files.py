"""Time and peak memory to refuse hostile weight files (zip bombs and their kin).

Each case is built in a temporary folder and loaded in a fresh Python process, which
reports the seconds the loader took to refuse it (``load_policy`` for policy zips,
``load_net`` for ``.npz`` network files) and how far its peak resident memory rose above
its peak just before the call (``ru_maxrss``, after torch and sb3 are imported). The
shipped Jupiter policy and network are loaded the same way for scale. Target: every
refusal within 1 s and under 100 MB of extra memory::

    python -m moon_agents.benchmarks.hostile_files
"""

from __future__ import annotations

import io
import json
import math
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
from moon_agents.net_weights import load_net
import torch, sb3_contrib  # imported before the baseline, as in any program that loads
def rss():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
base = rss()
start = time.perf_counter()
try:
    (load_net if sys.argv[1].endswith(".npz") else load_policy)(sys.argv[1])
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


def _shipped(name: str) -> Callable[[Path], None]:
    def build(path: Path) -> None:
        from moon_agents.zoo import TRAINED_DIR

        path.write_bytes((TRAINED_DIR / name).read_bytes())

    return build


def _policy_meta(**changes: object) -> Callable[[Path], None]:
    """The shipped Jupiter policy with its description changed."""

    def build(path: Path) -> None:
        from moon_agents.checkpoint import SIDECAR, WEIGHTS
        from moon_agents.zoo import TRAINED_DIR

        with zipfile.ZipFile(TRAINED_DIR / "jupiter.zip") as zf:
            meta, weights = json.loads(zf.read(SIDECAR)), zf.read(WEIGHTS)
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
            zf.writestr(SIDECAR, json.dumps({**meta, **changes}))
            zf.writestr(WEIGHTS, weights)

    return build


def _deep_sidecar(path: Path) -> None:
    from moon_agents.checkpoint import SIDECAR, WEIGHTS

    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr(SIDECAR, "[" * 60_000)
        zf.writestr(WEIGHTS, b"")


def _net(description: bytes | None = None, **changes: object) -> Callable[[Path], None]:
    """The shipped Jupiter network's description (changed by ``changes``, or replaced by
    ``description``) with ``.npy`` headers only, each declaring the shape the
    description implies unless ``changes`` names another for ``trunk.0.weight``."""

    def build(path: Path) -> None:
        import numpy as np

        from moon_agents.net_weights import DESCRIPTION, array_shapes
        from moon_agents.zoo import TRAINED_DIR

        with zipfile.ZipFile(TRAINED_DIR / "jupiter.npz") as zf:
            d = json.loads(zf.read(DESCRIPTION))
        header_shape = changes.get("trunk.0.weight")
        d.update({k: v for k, v in changes.items() if k != "trunk.0.weight"})
        shapes = array_shapes(d["observation_size"], d["num_actions"], d["hidden"])
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
            zf.writestr(DESCRIPTION, description or json.dumps(d).encode())
            for name, shape in shapes.items():
                shape = header_shape if name == "trunk.0.weight" and header_shape else shape
                buf = io.BytesIO()
                header = {"descr": "<f4", "fortran_order": False, "shape": tuple(shape)}
                np.lib.format.write_array_header_1_0(buf, header)
                size = math.prod(shape)
                zf.writestr(f"{name}.npy", buf.getvalue() + bytes(4 * size * (size < 1 << 20)))

    return build


CASES: dict[str, tuple[str, Callable[[Path], None]]] = {
    "policy.pth inflating to 1 GiB": ("zip", _bomb(1 << 30)),
    "policy.pth inflating to 256 MiB": ("zip", _bomb(256 * MiB)),
    "torch archive with a 256 MiB deflated record": ("zip", _inner_bomb),
    "20,000 members": ("zip", _many_members),
    "sidecar JSON inflating to 512 MiB": ("zip", _big_sidecar),
    "sidecar JSON of 60,000 '['": ("zip", _deep_sidecar),
    "policy net_arch [4400, 4400] (45.7M params)": ("zip", _policy_meta(net_arch=[4400, 4400])),
    "policy net_arch [3000, 3000] (19.4M params)": ("zip", _policy_meta(net_arch=[3000, 3000])),
    "the shipped Jupiter policy (for scale)": ("zip", _shipped("jupiter.zip")),
    "npz: header declaring 2**40 values": ("npz", _net(**{"trunk.0.weight": (2**40,)})),
    "npz: header declaring 2**31 values": ("npz", _net(**{"trunk.0.weight": (2**31,)})),
    "npz: description of 60,000 '['": ("npz", _net(b"[" * 60_000)),
    "npz: observation_size 65536": ("npz", _net(observation_size=65536)),
    "npz: hidden [4096, 4096, 4096]": ("npz", _net(hidden=[4096, 4096, 4096])),
    "the shipped Jupiter network (for scale)": ("npz", _shipped("jupiter.npz")),
}


def run(out: Callable[[str], None] = print) -> list[dict]:
    """Build and load every case; print and return one row per case."""
    rows = []
    out(f"{'case':<46}{'file':>10}{'seconds':>9}{'extra MB':>10}  outcome")
    with tempfile.TemporaryDirectory() as tmp:
        for name, (suffix, build) in CASES.items():
            path = Path(tmp) / f"case.{suffix}"
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
