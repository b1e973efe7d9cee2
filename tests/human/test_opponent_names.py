from __future__ import annotations

import subprocess
import sys

import pytest

import moon_envs
from agents.heuristics.jupiter import GreedyAgent
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
    monkeypatch.setitem(sys.modules, "agents.zoo", None)  # as if agents were not installed
    with pytest.raises(ConfigError, match="need the agents package"):
        moon_envs.make_single_agent("jupiter_v0", opponents=["greedy"])
    env = moon_envs.make_single_agent("jupiter_v0", opponents=["random"])  # needs nothing
    assert repr(env.opponents[0]) == "UniformRandom"


def test_the_core_does_not_import_agents() -> None:
    code = (
        "import moon_envs, sys; moon_envs.make_single_agent('jupiter_v0'); "
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'agents'))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
