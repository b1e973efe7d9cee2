from __future__ import annotations

import subprocess
import sys

import pytest

import moon_envs
from moon_agents.heuristics.jupiter import GreedyAgent
from moon_envs.core import opponents
from moon_envs.core.game import ConfigError


def test_make_single_agent_accepts_agent_names() -> None:
    env = moon_envs.make_single_agent("jupiter_v0", opponents=["greedy", "random"])
    assert isinstance(env.opponents[0], GreedyAgent)
    assert repr(env.opponents[1]) == "UniformRandom"
    _, info = env.reset(seed=0)
    done, steps = False, 0
    while not done:
        action = int(info["action_mask"].nonzero()[0][0])
        _, _, done, _, info = env.step(action)
        steps += 1
    assert "winners" in info and steps > 0
    env.set_opponents("greedy")
    assert isinstance(env.opponents[0], GreedyAgent) and len(env.opponents) == 1
    env.add_opponent("random")
    assert len(env.opponents) == 2


def test_unknown_names_and_non_agents_are_config_errors() -> None:
    with pytest.raises(ConfigError, match=r"unknown agent 'bogus' for game 'jupiter'; allowed"):
        moon_envs.make_single_agent("jupiter_v0", opponents=["bogus"])
    with pytest.raises(ConfigError, match="neither an agent name"):
        moon_envs.make_single_agent("jupiter_v0", opponents=[42])


def test_names_need_the_agents_package(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "moon_agents.zoo", None)  # as if agents were not installed
    with pytest.raises(
        ConfigError, match=r"'greedy'.*need an agent factory.*register_agent_factory"
    ):
        moon_envs.make_single_agent("jupiter_v0", opponents=["greedy"])
    env = moon_envs.make_single_agent("jupiter_v0", opponents=["random"])  # needs nothing
    assert repr(env.opponents[0]) == "UniformRandom"


def test_the_core_does_not_import_agents() -> None:
    code = (
        "import moon_envs, sys; moon_envs.make_single_agent('jupiter_v0'); "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('agents', 'moon_agents')))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


@pytest.fixture
def no_registered_factory():
    opponents.register_agent_factory(None)
    yield
    opponents.register_agent_factory(None)


def test_names_resolve_through_the_installed_entry_point_without_importing_agents() -> None:
    code = (
        "import sys, moon_envs\n"
        "before = 'moon_agents' in sys.modules\n"
        "env = moon_envs.make_single_agent('jupiter_v0', opponents=['greedy'])\n"
        "print(before, type(env.opponents[0]).__module__, type(env.opponents[0]).__name__)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "moon_agents.heuristics.jupiter", "GreedyAgent"]


def test_a_registered_factory_wins_and_gets_spec_game_and_seed(no_registered_factory) -> None:
    calls = []

    class Fixed:
        def act(self, view):
            return int(view.action_mask.nonzero()[0][0])

    def factory(spec, game, seed):
        calls.append((spec, game, seed))
        return Fixed()

    moon_envs.register_agent_factory(factory)
    env = moon_envs.make_single_agent("jupiter_v0", opponents=["random", "mine", "other"])
    assert calls == [("mine", "jupiter", 1), ("other", "jupiter", 2)]
    env.reset(seed=0)
    env.step(int(env.action_masks().nonzero()[0][0]))  # the pool plays


def test_a_factory_must_be_callable(no_registered_factory) -> None:
    with pytest.raises(ConfigError, match="factory must be callable"):
        moon_envs.register_agent_factory("greedy")
    assert opponents.agent_factory() is not None  # the entry point, unchanged
