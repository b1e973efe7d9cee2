"""Test-session set-up: one JAX compilation cache for the whole run.

The JAX trainers and twins are compiled again by every test that builds one, with the
same shapes (the shrunk configs, the docs' commands, repeated runs). A persistent cache
in a folder this session creates lets the later compiles load the first one's result;
the folder is removed at exit. Nothing changes where jax is not installed.

The longest test files are collected first, so that ``pytest -n N --dist loadfile`` starts
them while the short ones remain to fill the other workers, instead of ending the run
with one worker busy on a long file and the others idle.
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


LONGEST_FIRST = (  # the files that take a minute or more of one worker on the 2-core machine
    "tests/test_docs_commands.py",
    "tests/integrations/test_open_spiel.py",
    "tests/agents/test_jax_ppo.py",
    "tests/agents/test_jax_devices.py",
    "tests/agents/test_az_no_peek.py",
    "tests/jax/test_moonstar_twin.py",
    "tests/agents/test_shipped_configs.py",
    "tests/agents/test_resume.py",
    "tests/agents/test_jax_alphazero.py",
    "tests/jax/test_star_master_twin.py",
    "tests/agents/test_jax_bench.py",
    "tests/agents/test_mctx_agent.py",
    "tests/agents/test_mctx_other_games.py",
)


def pytest_collection_modifyitems(session, config, items) -> None:
    """Put the :data:`LONGEST_FIRST` files first, in that order (stable otherwise)."""
    rank = {name: i for i, name in enumerate(LONGEST_FIRST)}

    def key(item) -> int:
        path = item.nodeid.split("::", 1)[0]
        return rank.get(path, len(rank))

    items.sort(key=key)
