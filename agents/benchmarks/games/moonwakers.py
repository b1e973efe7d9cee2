"""Moonwakers measurements for ``moon-envs bench``.

:func:`run` reports the rules core under random play (player actions per second, chance
nodes included in the time) for 2 and 6 players, the observation and mask times, the
cost of one determinisation (``resample``) and one heuristic decision, and the
6-player env beside connect_four_v3 (same loop, interleaved rounds).
"""

from __future__ import annotations

import time

import numpy as np

from moon_envs.core.game import CHANCE
from moon_envs.moonwakers.game import MoonwakersGame


def _random_states(game: MoonwakersGame, count: int, rng: np.random.Generator) -> list:
    """Decision points of random games (every 7th one, for variety)."""
    states = []
    while len(states) < count:
        s = game.new_initial_state()
        k = 0
        while not s.is_terminal() and len(states) < count:
            if s.current_player() == CHANCE:
                outs = s.chance_outcomes()
                s.apply_chance_outcome(outs[int(rng.integers(len(outs)))][0])
                continue
            k += 1
            if k % 7 == 0:
                states.append(s.clone())
            legal = s.legal_actions()
            s.apply_action(legal[int(rng.integers(len(legal)))])
    return states


def _core_rate(game: MoonwakersGame, seconds: float, rng: np.random.Generator) -> float:
    actions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.current_player() == CHANCE:
                outs = s.chance_outcomes()
                s.apply_chance_outcome(outs[int(rng.integers(len(outs)))][0])
            else:
                legal = s.legal_list()
                s.apply_action(legal[int(rng.integers(len(legal)))])
                actions += 1
    return actions / (time.perf_counter() - start)


def _per_call(fn, items, seconds: float) -> float:
    calls = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for x in items:
            fn(x)
        calls += len(items)
    return (time.perf_counter() - start) / calls


def run(seconds: float = 3.0) -> list[tuple[str, float, str]]:
    """Rules-core figures; about ``seconds`` in all."""
    from moon_agents.base import AgentView
    from moon_agents.heuristics.moonwakers import MoonwakersHeuristicAgent

    rng = np.random.default_rng(0)
    share = max(0.05, seconds / 8)
    two, six = MoonwakersGame(num_players=2), MoonwakersGame(num_players=6)
    states = _random_states(six, 200, rng)
    obs_s = _per_call(lambda s: s.observation(s.current_player()), states, share / 2)
    mask_s = _per_call(lambda s: s.legal_actions_mask(), states, share / 2)
    resample_s = _per_call(lambda s: s.resample(s.current_player(), rng), states, share / 2)
    agent = MoonwakersHeuristicAgent(seed=0)
    views = [AgentView.of(s) for s in states[:60]]
    agent_s = _per_call(agent.act, views, share / 2)
    return [
        *_env_rows(share * 2),
        ("rules core random play (2p)", _core_rate(two, share, rng), "actions/s"),
        ("rules core random play (6p)", _core_rate(six, share, rng), "actions/s"),
        (f"observation, {six.spec.observation_shape[0]} floats (6p)", obs_s * 1e6, "us"),
        (f"legal mask, {six.spec.num_actions} entries (6p)", mask_s * 1e6, "us"),
        ("resample (6p)", resample_s * 1e6, "us"),
        ("heuristic agent decision (6p)", agent_s * 1e3, "ms"),
    ]


def _env_rows(seconds: float) -> list[tuple[str, float, str]]:
    """The 6-player env beside connect_four_v3, in interleaved rounds (when PettingZoo's
    classic games are installed)."""
    import moon_envs
    from moon_agents.benchmarks.speed import random_play, reference_factory

    six = moon_envs.make("moonwakers_v1", num_players=6)
    factory = reference_factory()
    ref = factory() if factory is not None else None
    steps = {"six": 0.0, "ref": 0.0}
    elapsed = {"six": 0.0, "ref": 0.0}
    for r in range(3):
        for key, env in (("six", six), ("ref", ref)):
            if env is None:
                continue
            row = random_play(env, seconds / 3, seed=r)
            steps[key] += row.steps
            elapsed[key] += row.seconds
    rate = steps["six"] / elapsed["six"]
    rows = [("env random play, 6 players", rate, "agent-steps/s")]
    if ref is not None:
        rows.append(
            ("env 6 players / connect_four_v3", rate / (steps["ref"] / elapsed["ref"]), "x")
        )
    return rows


if __name__ == "__main__":  # pragma: no cover - manual use
    import sys

    for metric, value, unit in run(float(sys.argv[1]) if len(sys.argv) > 1 else 3.0):
        print(f"{metric:<40} {value:>12,.3f} {unit}")
