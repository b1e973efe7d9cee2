"""An ``rllib:`` model folder's weights are checked against the network its model.json
describes before torch reads them: oversized or compressed weight files are refused."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import pytest

pytest.importorskip("ray")

from moon_agents.training.rllib.agent import MODEL_JSON, STATE_FILE, RllibAgent
from moon_envs import ConfigError

MiB = 1 << 20


def _folder(tmp_path: Path, state: bytes) -> Path:
    (tmp_path / MODEL_JSON).write_text(json.dumps({"env_id": "jupiter_v0", "net_arch": [8]}))
    (tmp_path / STATE_FILE).write_bytes(state)
    return tmp_path


def test_weights_far_larger_than_the_network_are_refused_unread(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as err:
        RllibAgent.load(_folder(tmp_path, bytes(64 * MiB)))
    assert STATE_FILE in str(err.value) and "needs at most" in str(err.value)


def test_a_weights_archive_with_compressed_records_is_refused(tmp_path: Path) -> None:
    inner = io.BytesIO()
    with zipfile.ZipFile(inner, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("archive/data.pkl", bytes(16 * MiB))  # packs into ~16 KB
    with pytest.raises(ConfigError) as err:
        RllibAgent.load(_folder(tmp_path, inner.getvalue()))
    assert "compressed records" in str(err.value)
