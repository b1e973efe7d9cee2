"""The source distribution holds every file of the project that git tracks (or would: new
files it does not ignore): the packages, tests (with their recorded games), docs, configs,
examples, license, changelog and readme.

The sdist is built from a copy of those files, so the test leaves the checkout as it was;
files that tests and runs leave behind are planted in the copy and must stay out. Outside
a git checkout (an unpacked sdist) there is nothing to compare with: the test is skipped.
"""

from __future__ import annotations

import shutil
import subprocess
import tarfile
from pathlib import Path

import pytest

from tests.test_wheel import build

ROOT = Path(__file__).resolve().parent.parent
NOT_SHIPPED = {".gitignore", ".ci/run"}
"""Tracked files that only the repository needs."""
LEFT_BEHIND = [
    "tests/__pycache__/conftest.cpython-311.pyc",
    "agents/cli/__pycache__/main.cpython-311.pyc",
    "docs/ladder/jupiter_v0/pairings/random__greedy.json",
    "docs/ladder/jupiter_v0/games.csv",
    "docs/ladder/jupiter_v0/.moon-envs-run.json",
    "runs/jupiter_ppo_seed0/model.zip",
]
"""Files a checkout gathers that are not the project's (see .gitignore)."""


def tracked_files() -> list[str]:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: no list of tracked files to compare with")
    done = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.decode()
    return [name for name in done.split("\0") if name and (ROOT / name).is_file()]


@pytest.fixture(scope="module")
def sdist(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[str], set[str]]:
    pytest.importorskip("setuptools", reason="the dev extra (setuptools, wheel) builds it")
    files = tracked_files()
    src = tmp_path_factory.mktemp("src")
    for name in files:
        (src / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, src / name)
    for name in LEFT_BEHIND:  # what tests and runs leave in a checkout
        (src / name).parent.mkdir(parents=True, exist_ok=True)
        (src / name).write_text("left behind\n")
    path = build("build_sdist", src, tmp_path_factory.mktemp("dist"))
    with tarfile.open(path) as tar:
        names = {name.split("/", 1)[1] for name in tar.getnames() if "/" in name}
    return files, names


def test_every_tracked_file_is_in_the_sdist(sdist: tuple[list[str], set[str]]) -> None:
    files, names = sdist
    missing = [f for f in files if f not in names and f not in NOT_SHIPPED]
    assert not missing, missing
    for folder in ("tests/", "docs/", "configs/", "examples/"):
        assert any(n.startswith(folder) for n in names), folder
    for name in ("LICENSE", "CHANGELOG.md", "README.md", "MANIFEST.in", "setup.py"):
        assert name in names


def test_the_sdist_holds_nothing_a_run_leaves_behind(sdist: tuple[list[str], set[str]]) -> None:
    _, names = sdist
    assert not [n for n in LEFT_BEHIND if n in names]
    assert not [n for n in names if "__pycache__" in n or n.endswith(".pyc")]
