"""Test-session set-up: one JAX compilation cache for the whole run, and the worker count
of ``-n auto``.

The JAX trainers and twins are compiled again by every test that builds one, with the
same shapes (the shrunk configs, the docs' commands, repeated runs). A persistent cache
in a folder this session creates lets the later compiles load the first one's result;
the folder is removed at exit. Nothing changes where jax is not installed.

The tests compile with XLA's expensive optimisations off (``jax_disable_most_optimizations``,
unless ``JAX_DISABLE_MOST_OPTIMIZATIONS`` is already set): most of the suite's JAX time
is compiling small programs that then run for milliseconds, and the switch cut that CPU
time by 9-17% on the JAX test files. The programs compute the same results; only the
last digits of float sums may differ, which the tests' tolerances allow.

``pytest -n auto`` (the README's test command) starts one worker more than the machine
has cores: part of the suite waits rather than computes (subprocesses starting, a Ray
cluster, a headless browser, the 2-device runs), and with one worker per core the two
cores of the CI machine were busy only about 85% of the time.

The test files are handed to the workers longest first (``--dist loadfile`` keeps each
file on one worker): the files of ``LONGEST_FILES``, which took the most time in a full
run (JAX compiles, training runs, the docs' commands), then the others by their number of
tests, most first. pytest-xdist's own order is by number of tests alone, which left
heavy files of two or three tests for the end, with one worker running while the other
core idled for minutes.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from collections import Counter

import pytest

if "JAX_COMPILATION_CACHE_DIR" not in os.environ:
    _CACHE = tempfile.mkdtemp(prefix="moon-envs-jax-cache-")
    os.environ["JAX_COMPILATION_CACHE_DIR"] = _CACHE
    os.environ.setdefault("JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS", "0")
    os.environ.setdefault("JAX_PERSISTENT_CACHE_MIN_ENTRY_SIZE_BYTES", "0")
    atexit.register(shutil.rmtree, _CACHE, ignore_errors=True)
os.environ.setdefault("JAX_DISABLE_MOST_OPTIMIZATIONS", "1")


def pytest_xdist_auto_num_workers(config: object) -> int:
    """Workers for ``-n auto``: the cores plus one (see the module docstring)."""
    return (os.cpu_count() or 1) + 1


LONGEST_FILES = (
    "tests/test_docs_commands.py",
    "tests/jax/test_moonwakers_twin.py",
    "tests/agents/test_jax_ppo.py",
    "tests/rllib/test_train.py",
    "tests/jax/test_moonstar_twin.py",
    "tests/agents/test_jax_alphazero.py",
    "tests/agents/test_shipped_configs.py",
    "tests/agents/test_jax_devices.py",
    "tests/jax/test_moonwakers_resample.py",
    "tests/agents/test_az_no_peek.py",
    "tests/rllib/test_cluster.py",
    "tests/jax/test_star_master_twin.py",
    "tests/jax/test_bit_streams.py",
    "tests/agents/test_resume.py",
    "tests/agents/test_moon_harvesters_jax_greedy.py",
    "tests/jax/test_star_master_fast_paths.py",
    "tests/moonwakers/test_fuzz.py",
    "tests/jax/test_pgx_conventions.py",
    "tests/jax/test_jupiter_fast_step.py",
    "tests/jax/test_moon_harvesters_twin.py",
    "tests/human/test_moonstar_typing.py",
    "tests/jax/test_moon_harvesters_python_state.py",
    "tests/jax/test_moonstar_fast_paths.py",
    "tests/jax/test_docs_jax.py",
    "tests/core/test_snapshot_mutations.py",
    "tests/agents/test_exploit.py",
    "tests/human/test_replay.py",
    "tests/agents/test_jax_init_from.py",
    "tests/integrations/test_ecosystem.py",
    "tests/jax/test_jupiter_symmetries.py",
)
"""The test files that took longest in a full run (``pytest --durations``), longest first:
the workers start them first (see the module docstring)."""


def pytest_configure(config: pytest.Config) -> None:
    """Keep the order of :func:`pytest_collection_modifyitems` under ``--dist loadfile``
    (pytest-xdist would reorder the files by their number of tests)."""
    if hasattr(config.option, "loadscopereorder"):
        config.option.loadscopereorder = False


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The files of ``LONGEST_FILES`` first, in that order, then the others by their number
    of tests, most first; the tests of a file keep their order."""
    rank = {path: i for i, path in enumerate(LONGEST_FILES)}
    counts = Counter(_file_of(item) for item in items)
    items.sort(key=lambda item: (rank.get(_file_of(item), len(rank)), -counts[_file_of(item)]))


def _file_of(item: pytest.Item) -> str:
    return item.nodeid.split("::", 1)[0]
