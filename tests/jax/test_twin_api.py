"""The twins' front door: ids, parameters and errors, and a core that never needs jax."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

pytest.importorskip("jax")

import moon_envs.jax as mj
from moon_envs import ConfigError

BLOCK_JAX = textwrap.dedent(
    """
    import importlib.abc, sys

    class NoJax(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path, target=None):
            if name == "jax" or name.startswith(("jax.", "jaxlib")):
                raise ImportError(f"No module named {name!r} (blocked by the test)")
            return None

    sys.meta_path.insert(0, NoJax())
    """
)


def _run(code: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", BLOCK_JAX + textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_core_imports_and_plays_without_jax() -> None:
    done = _run(
        """
        import moon_envs
        for env_id in moon_envs.list_envs():
            env = moon_envs.make(env_id)
            env.reset(seed=0)
        assert not any(m == "jax" or m.startswith("jax.") for m in sys.modules), "jax imported"
        print("ok")
        """
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


def test_moon_envs_jax_without_jax_says_what_to_install() -> None:
    done = _run("import moon_envs.jax")
    assert done.returncode != 0
    assert "pip install 'moon-envs[jax]'" in done.stderr


def test_the_twins_are_listed() -> None:
    assert mj.list_twins() == [
        "jupiter_v0",
        "moon_harvesters_v0",
        "moonstar_v1",
        "moonwakers_v1",
        "star_master_v0",
    ]


@pytest.mark.parametrize(
    ("env_id", "params", "words"),
    [
        ("moonwakers_v1", {"num_players": 7}, ["num_players"]),
        ("chess_v6", {}, ["unknown environment id 'chess_v6'", "jupiter_v0"]),
        ("jupiter_v0", {"num_player": 3}, ["unknown parameter(s) ['num_player']", "num_players"]),
        ("jupiter_v0", {"num_players": 9}, ["num_players"]),
        ("jupiter_v0", {"render_mode": "ansi"}, ["render_mode='ansi'", "Allowed values: [None]"]),
        ("jupiter_v0", {"render_seat": 0}, ["render_seat=0", "Allowed values: [None]"]),
        ("jupiter_v0", {"illegal_action": "raise"}, ["illegal_action='raise'", "['penalize']"]),
        ("jupiter_v0", {"reward_mode": "elo"}, ["reward_mode='elo'", "'win', 'score'"]),
    ],
)
def test_bad_ids_and_parameters_are_named(env_id: str, params: dict, words: list[str]) -> None:
    with pytest.raises(ConfigError) as err:
        mj.make(env_id, **params)
    for word in words:
        assert word in str(err.value)


@pytest.mark.parametrize(
    "env_id", ["jupiter_v0", "star_master_v0", "moon_harvesters_v0", "moonstar_v1"]
)
def test_a_twin_reports_the_python_engines_sizes(env_id: str) -> None:
    import moon_envs

    twin = mj.make(env_id)
    spec = moon_envs.make(env_id).game.spec
    assert twin.id == env_id and twin.version == env_id.rsplit("_", 1)[1]
    assert twin.num_players == spec.num_players
    assert twin.num_actions == spec.num_actions
    assert twin.observation_shape == tuple(spec.observation_shape)
    assert twin.num_chance_outcomes == spec.max_chance_outcomes
