"""Weight files that would force memory are refused before anything large is allocated.

Each file is small and built here; none of the arrays it declares is ever made. Python's
allocations while loading are measured with ``tracemalloc``.
"""

from __future__ import annotations

import io
import json
import time
import tracemalloc
import zipfile
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from moon_agents.net_weights import DESCRIPTION, array_shapes, load_net
from moon_agents.zoo import TRAINED_DIR, agent_from_spec
from moon_envs import ConfigError

MiB = 1 << 20
SHIPPED_NET = TRAINED_DIR / "jupiter.npz"


def _description() -> dict:
    with zipfile.ZipFile(SHIPPED_NET) as zf:
        return json.loads(zf.read(DESCRIPTION))


def _npy(shape: tuple, data: bytes = b"", descr: str = "<f4") -> bytes:
    """A ``.npy`` header declaring ``shape``, followed by ``data`` (none by default)."""
    buf = io.BytesIO()
    header = {"descr": descr, "fortran_order": False, "shape": shape}
    np.lib.format.write_array_header_1_0(buf, header)
    return buf.getvalue() + data


def _net_file(
    path: Path, description: dict | bytes, shapes: dict | None = None, **declared: tuple
) -> Path:
    """A network file: ``description`` and one header per array of ``shapes`` (those of
    the description by default), each declaring its own shape, or the one in
    ``declared`` (``trunk_0_weight=...`` for ``trunk.0.weight``), with real data for
    the small arrays only."""
    raw = description if isinstance(description, bytes) else json.dumps(description).encode()
    if shapes is None:
        d = description
        shapes = array_shapes(d["observation_size"], d["num_actions"], d["hidden"])
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr(DESCRIPTION, raw)
        for name, shape in shapes.items():
            shape = declared.get(name.replace(".", "_"), shape)
            size = int(np.prod(shape))
            data = bytes(4 * size) if size <= 1 << 16 else b""
            zf.writestr(f"{name}.npy", _npy(shape, data))
    return path


def _refused(load: Callable[[], object], *words: str) -> tuple[str, int]:
    """The message of the ConfigError ``load`` raises (it must contain every word) and the
    peak of Python allocations while it ran."""
    tracemalloc.start()
    try:
        with pytest.raises(ConfigError) as err:
            load()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    message = str(err.value)
    for word in words:
        assert word in message, message
    return message, peak


@pytest.mark.parametrize("shape", [(2**40,), (2**31,), (256, 2**40)])
def test_an_array_header_declaring_a_huge_shape_is_refused_without_allocating(tmp_path, shape):
    path = _net_file(tmp_path / "huge.npz", _description(), trunk_0_weight=shape)
    assert path.stat().st_size < 64 * 1024
    message, peak = _refused(lambda: load_net(path), "huge.npz", "trunk.0.weight", "[256, 206]")
    assert str(list(shape)) in message
    assert peak < 4 * MiB
    _refused(lambda: agent_from_spec(f"az:{path}", "jupiter", 0), "trunk.0.weight", "[256, 206]")


def test_an_array_header_of_another_dtype_or_order_is_refused(tmp_path):
    d = _description()
    shapes = array_shapes(d["observation_size"], d["num_actions"], d["hidden"])
    path = tmp_path / "f8.npz"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr(DESCRIPTION, json.dumps(d))
        for name, shape in shapes.items():
            zf.writestr(f"{name}.npy", _npy(shape, descr="<f8" if name == "value.bias" else "<f4"))
    _refused(lambda: load_net(path), "value.bias", "float64", "expected float32[1]")


def test_a_deeply_nested_description_is_refused_naming_the_depth(tmp_path):
    d = _description()
    shapes = array_shapes(d["observation_size"], d["num_actions"], d["hidden"])
    path = _net_file(tmp_path / "deep.npz", b"[" * 60_000, shapes)
    _refused(lambda: load_net(path), "deep.npz", DESCRIPTION, "nested more than 32 levels")


def test_an_observation_size_the_env_does_not_have_is_refused_before_any_array(tmp_path):
    d = {**_description(), "observation_size": 65536}
    path = _net_file(tmp_path / "wide.npz", d)  # headers only: reading data would fail
    assert path.stat().st_size < 64 * 1024
    message, peak = _refused(
        lambda: load_net(path), "wide.npz", "observation_size", "65536", "jupiter_v0", "206"
    )
    assert "array" not in message
    assert peak < 4 * MiB
    _refused(lambda: agent_from_spec(f"az:{path}", "jupiter", 0), "observation_size")


def test_a_network_past_the_width_or_the_envs_parameter_cap_is_refused(tmp_path):
    wide = _net_file(tmp_path / "wide.npz", {**_description(), "hidden": [4400, 4400]})
    _refused(lambda: load_net(wide), "'hidden'", "1..4096")
    big = _net_file(tmp_path / "big.npz", {**_description(), "hidden": [4096, 4096, 4096]})
    _refused(lambda: load_net(big), "parameters", "206 inputs and 33 actions")


def test_the_shipped_networks_still_load():
    for game in ("jupiter", "moonstar", "moon_harvesters", "star_master"):
        arrays, description = load_net(TRAINED_DIR / f"{game}.npz")
        inputs = description.get("input_size", description["observation_size"])
        assert arrays["trunk.0.weight"].shape == (description["hidden"][0], inputs)


# ---- MaskablePPO policy zips -----------------------------------------------------------------


def _policy_zip(tmp_path: Path, **changes) -> Path:
    from moon_agents.checkpoint import SIDECAR, WEIGHTS

    shipped = TRAINED_DIR / "jupiter.zip"
    with zipfile.ZipFile(shipped) as zf:
        meta = json.loads(zf.read(SIDECAR))
        weights = zf.read(WEIGHTS)
    out = tmp_path / "policy.zip"
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr(SIDECAR, json.dumps({**meta, **changes}))
        zf.writestr(WEIGHTS, weights)
    out.with_name("policy.zip.json").write_bytes(
        shipped.with_name("jupiter.zip.json").read_bytes()
    )
    return out


@pytest.mark.parametrize(
    "arch, words",
    [([4400, 4400], ["net_arch", "1..4096"]), ([3000, 3000], ["parameters", "206 inputs"])],
)
def test_a_policy_declaring_a_huge_network_is_refused_before_it_is_built(tmp_path, arch, words):
    pytest.importorskip("sb3_contrib")
    from moon_agents.checkpoint import load_policy

    import torch  # noqa: F401 - imported before the clock starts, as any loader has

    path = _policy_zip(tmp_path, net_arch=arch)
    start = time.perf_counter()
    _, peak = _refused(lambda: load_policy(path), *words)
    assert time.perf_counter() - start < 5
    assert peak < 4 * MiB


def test_a_deeply_nested_policy_description_is_refused_naming_the_depth(tmp_path):
    pytest.importorskip("sb3_contrib")
    from moon_agents.checkpoint import SIDECAR, load_policy

    path = tmp_path / "deep.zip"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr(SIDECAR, "[" * 60_000)
        zf.writestr("policy.pth", b"")
    _refused(lambda: load_policy(path), SIDECAR, "nested more than 32 levels")
