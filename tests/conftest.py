"""Test-session set-up: one JAX compilation cache for the whole run.

The JAX trainers and twins are compiled again by every test that builds one, with the
same shapes (the shrunk configs, the docs' commands, repeated runs). A persistent cache
in a folder this session creates lets the later compiles load the first one's result;
the folder is removed at exit. Nothing changes where jax is not installed.
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

