"""The wheel installs only the project's own top-level names, with everything they need.

The ``agents/`` folder installs as ``moon_agents``: a top-level ``agents`` would collide
with other distributions that install one (the OpenAI Agents SDK, PyPI's ``agents``),
each breaking the other on install or uninstall. The wheel is built from a copy of the
source, so the test leaves the checkout as it was.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SOURCES = [
    *("pyproject.toml", "setup.py", "MANIFEST.in", "README.md", "LICENSE"),
    *("moon_envs", "agents", "configs"),
]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> zipfile.ZipFile:
    pytest.importorskip("setuptools", reason="the dev extra (setuptools, wheel) builds it")
    src = tmp_path_factory.mktemp("src")
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, src / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(ROOT / name, src / name)
    return zipfile.ZipFile(build("build_wheel", src, tmp_path_factory.mktemp("dist")))


def build(hook: str, src: Path, out: Path) -> Path:
    """Run setuptools' build ``hook`` (``build_wheel``, ``build_sdist``) on the sources in
    ``src``, in a fresh interpreter; the file it writes in ``out``."""
    subprocess.run(
        [
            sys.executable,
            "-c",
            f"from setuptools import build_meta; build_meta.{hook}({str(out)!r})",
        ],
        cwd=src,
        check=True,
        capture_output=True,
    )
    (path,) = out.iterdir()
    return path


def test_only_the_projects_own_top_level_names(wheel: zipfile.ZipFile) -> None:
    top = {name.split("/")[0] for name in wheel.namelist()}
    dist_info = {t for t in top if t.endswith(".dist-info")}
    assert len(dist_info) == 1
    assert top - dist_info == {"moon_envs", "moon_agents"}
    (info,) = dist_info
    top_level = wheel.read(f"{info}/top_level.txt").decode().split()
    assert sorted(top_level) == ["moon_agents", "moon_envs"]


def test_every_agents_subpackage_and_the_shipped_policies_are_in(wheel: zipfile.ZipFile) -> None:
    names = set(wheel.namelist())
    for init in (ROOT / "agents").rglob("__init__.py"):
        rel = init.relative_to(ROOT / "agents").as_posix()
        assert f"moon_agents/{rel}" in names, rel
    for policy in [
        *(ROOT / "agents" / "trained").glob("*.zip"),
        *(ROOT / "agents" / "trained").glob("*.npz"),
        *(ROOT / "agents" / "trained").glob("*.zip.json"),  # the env each zip was trained on
    ]:
        assert f"moon_agents/trained/{policy.name}" in names
    assert any(n.startswith("moon_envs/moonwakers/data/") and n.endswith(".json") for n in names)


def test_every_config_is_shipped_where_the_installed_command_finds_it(
    wheel: zipfile.ZipFile, tmp_path: Path
) -> None:
    names = set(wheel.namelist())
    for path in sorted((ROOT / "configs").iterdir()):
        assert f"moon_agents/configs/{path.name}" in names, path.name
    wheel.extractall(tmp_path)  # installed as the wheel lays it out, outside the checkout
    code = "from moon_agents.cli.configs import configs_dir; print(configs_dir())"
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == str(tmp_path / "moon_agents" / "configs")


def test_the_command_and_the_agent_factory_are_declared(wheel: zipfile.ZipFile) -> None:
    (entry_points,) = [n for n in wheel.namelist() if n.endswith(".dist-info/entry_points.txt")]
    text = wheel.read(entry_points).decode()
    assert "moon-envs = moon_agents.cli.main:main" in text
    assert "[moon_envs.agent_factory]" in text
    assert "moon_agents = moon_agents.zoo:agent_from_spec" in text


def test_the_license_is_an_spdx_expression_with_its_text(wheel: zipfile.ZipFile) -> None:
    (metadata,) = [n for n in wheel.namelist() if n.endswith(".dist-info/METADATA")]
    text = wheel.read(metadata).decode()
    assert "License-Expression: MIT" in text.splitlines()
    assert "License-File: LICENSE" in text.splitlines()
    (license_file,) = [n for n in wheel.namelist() if n.endswith(".dist-info/licenses/LICENSE")]
    assert wheel.read(license_file).decode() == (ROOT / "LICENSE").read_text()
