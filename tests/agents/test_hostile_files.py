"""Policy files are refused in bounded memory whatever they hold: zip bombs, inner
archives that inflate, too many members, and paths that are not files.

Memory is measured with ``tracemalloc`` (Python allocations, which is where an inflated
member would land); time targets live in ``moon_agents.benchmarks.hostile_files``.
"""

from __future__ import annotations

import io
import json
import os
import tracemalloc
import zipfile
from pathlib import Path

import pytest

pytest.importorskip("sb3_contrib")

from moon_agents.checkpoint import SIDECAR, WEIGHTS, load_policy
from moon_agents.weights_files import strip_ansi
from moon_agents.zoo import TRAINED_DIR
from moon_envs import ConfigError

SHIPPED = TRAINED_DIR / "jupiter.zip"
MiB = 1 << 20


def _with_weights(tmp_path: Path, weights: bytes, compress: int = zipfile.ZIP_DEFLATED) -> Path:
    """The shipped Jupiter policy with its weights member replaced."""
    with zipfile.ZipFile(SHIPPED) as zf:
        sidecar = zf.read(SIDECAR)
    out = tmp_path / "hostile.zip"
    with zipfile.ZipFile(out, "w", compress) as zf:
        zf.writestr(SIDECAR, sidecar)
        zf.writestr(WEIGHTS, weights)
    return out


def _refusal(path: Path) -> tuple[str, int]:
    """The ConfigError message of loading ``path`` and the peak of Python memory (bytes)."""
    tracemalloc.start()
    try:
        with pytest.raises(ConfigError) as err:
            load_policy(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return str(err.value), peak


def test_a_zip_bomb_is_refused_before_it_inflates(tmp_path: Path) -> None:
    bomb = _with_weights(tmp_path, bytes(256 * MiB))
    assert bomb.stat().st_size < 1 * MiB  # 256 MiB of zeros packs into a few hundred KB
    message, peak = _refusal(bomb)
    assert "declares 268,435,456 bytes" in message and "needs at most" in message
    assert peak < 16 * MiB


def test_an_inner_archive_with_compressed_records_is_refused(tmp_path: Path) -> None:
    inner = io.BytesIO()
    with zipfile.ZipFile(inner, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("archive/data.pkl", bytes(64 * MiB))  # torch never compresses records
    inner_bytes = inner.getvalue()
    message, peak = _refusal(_with_weights(tmp_path, inner_bytes, zipfile.ZIP_STORED))
    assert "compressed records" in message
    assert peak < 16 * MiB


def test_weights_larger_than_the_described_network_are_refused(tmp_path: Path) -> None:
    inner = io.BytesIO()
    with zipfile.ZipFile(inner, "w", zipfile.ZIP_STORED) as zf:
        zf.writestr("archive/data/0", bytes(2 * MiB))  # 2 MiB stored; Jupiter's net is ~1 MB
    message, _ = _refusal(_with_weights(tmp_path, inner.getvalue(), zipfile.ZIP_STORED))
    assert "needs at most" in message


def test_too_many_members_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "many.zip"
    with zipfile.ZipFile(path, "w") as zf:
        for i in range(500):
            zf.writestr(f"m{i}", b"")
    message, _ = _refusal(path)
    assert "500 members" in message and "at most 64" in message


def test_the_shipped_policy_still_loads() -> None:
    assert load_policy(SHIPPED) is not None


def test_a_folder_is_named_as_a_folder(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as err:
        load_policy(tmp_path)
    assert "is a folder" in str(err.value) and "does not exist" not in str(err.value)
    assert "rllib:PATH" in str(err.value)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_is_named_and_never_opened(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.zip"
    os.mkfifo(fifo)
    with pytest.raises(ConfigError) as err:
        load_policy(fifo)  # opening a FIFO for reading would block forever
    assert "not a regular file" in str(err.value) and "FIFO" in str(err.value)


def test_colour_escapes_from_torch_never_reach_the_user(tmp_path: Path, monkeypatch) -> None:
    import torch

    def coloured(*args, **kwargs):
        raise RuntimeError(
            "\x1b[1mWeights only load failed.\x1b[0m Re-running with weights_only=False will "
            "likely succeed\n\x1b[31mUnsupported global: GLOBAL os.system\x1b[0m"
        )

    monkeypatch.setattr(torch, "load", coloured)
    with zipfile.ZipFile(SHIPPED) as zf:
        weights = zf.read(WEIGHTS)
    with pytest.raises(ConfigError) as err:
        load_policy(_with_weights(tmp_path, weights))
    message = str(err.value)
    assert "\x1b" not in message
    assert "Unsupported global: GLOBAL os.system" in message  # the reason, not the advice
    assert "weights_only=False" not in message


def test_strip_ansi() -> None:
    assert strip_ansi("\x1b[1;31mred\x1b[0m plain") == "red plain"


def test_the_sidecar_is_read_with_a_cap(tmp_path: Path) -> None:
    path = tmp_path / "big_json.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr(SIDECAR, json.dumps({"pad": " " * (8 * MiB)}))
        zf.writestr(WEIGHTS, b"")
    message, peak = _refusal(path)
    assert SIDECAR in message and "declares" in message
    assert peak < 4 * MiB


def test_a_config_path_says_what_it_is(tmp_path: Path) -> None:
    from moon_agents.training.config import load_config

    with pytest.raises(ConfigError) as err:
        load_config(tmp_path)
    assert "is a folder; expected a YAML config file" in str(err.value)
    with pytest.raises(ConfigError) as err:
        load_config(tmp_path / "missing.yaml")
    assert "does not exist" in str(err.value)
    if hasattr(os, "mkfifo"):
        os.mkfifo(tmp_path / "pipe.yaml")
        with pytest.raises(ConfigError) as err:
            load_config(tmp_path / "pipe.yaml")
        assert "not a regular file (a FIFO" in str(err.value)
