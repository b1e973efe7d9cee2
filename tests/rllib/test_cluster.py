"""Training on a Ray cluster that is already running, joined by its address (``ray.address``),
as users do on a real cluster (``ray start --head`` on the head machine, docs/rllib.md):
the run folder is written and the cluster outlives the run."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

pytest.importorskip("ray.rllib")

import yaml

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("", 0))
        return sock.getsockname()[1]


def _start_head(port: int, temp_dir: Path) -> tuple[subprocess.Popen, str]:
    """``ray start --head --block`` (as on a cluster's head machine); its address. Its own
    ``--temp-dir`` keeps the address it records away from other tests' local Ray."""
    ray_cli = Path(sys.executable).with_name("ray")
    head = subprocess.Popen(
        [str(ray_cli), "start", "--head", "--block", f"--port={port}", "--num-cpus=2",
         "--include-dashboard=false", "--disable-usage-stats", f"--temp-dir={temp_dir}"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )  # fmt: skip
    for line in head.stdout:  # "Local node IP: 10.0.0.5" comes before the block
        if "Local node IP:" in line:
            return head, f"{line.rsplit(':', 1)[1].strip()}:{port}"
    raise AssertionError("ray start printed no node IP")


def test_a_run_joins_a_running_cluster_by_address(tmp_path):
    temp_dir = Path(tempfile.mkdtemp(prefix="ray_", dir="/tmp"))  # short: Ray's sockets
    head, address = _start_head(_free_port(), temp_dir)
    try:
        config = yaml.safe_load((ROOT / "configs" / "jupiter_rllib.yaml").read_text())
        config["budget"] = {"total_timesteps": 150, "wall_clock_minutes": None}
        config["algorithm"].update(train_batch_size=128, minibatch_size=64, num_epochs=1)
        config["algorithm"]["net_arch"] = [16]
        config["ray"] = {"address": address, "num_env_runners": 1, "num_envs_per_env_runner": 2}
        config["eval"] = {"every_timesteps": 0, "games": 2, "opponents": ["random"]}
        config["checkpoints"] = {"every_timesteps": 0}
        config["opponents"]["snapshots"]["every_timesteps"] = 100
        config["output"] = {"progress_bar": False, "tensorboard": False, "plot": False}
        path = tmp_path / "cluster.yaml"
        path.write_text(yaml.safe_dump(config))
        argv = ["-m", "moon_agents.cli", "train", str(path), "--out", str(tmp_path / "runs")]
        done = subprocess.run(
            [sys.executable, *argv], cwd=ROOT, capture_output=True, text=True, timeout=600
        )
        assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
        run = tmp_path / "runs" / "jupiter_rllib_seed0"
        summary = json.loads((run / "summary.json").read_text())
        assert summary["ray_address"] == address and summary["timesteps"] >= 150
        assert (run / "model" / "model.json").is_file()
        assert head.poll() is None, "the run must leave the cluster running"
    finally:
        head.terminate()  # a blocked `ray start` stops the processes it started
        try:
            head.wait(timeout=60)
        except subprocess.TimeoutExpired:
            head.kill()
        shutil.rmtree(temp_dir, ignore_errors=True)
