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
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile

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
