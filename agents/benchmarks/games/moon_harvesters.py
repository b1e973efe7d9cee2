"""Moon Harvesters measurements for ``moon-envs bench``, and the random-vs-greedy tournament.

:func:`run` measures the 4-player 12x16 game (the 1,536-entry placement block): the AEC
env under random play beside connect_four_v3 (the generic table runs the 2-player
default), then the rules core alone: random play, random play with a ``clone()`` every 4
actions (the search loop of :func:`moon_agents.benchmarks.games.jupiter.search_loop`), the
placement-mask build, the observation and a greedy decision. :func:`tournament` plays
seat-rotating games of the greedy agent against random agents through
:mod:`moon_agents.evaluation.tournament`.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from moon_envs.core.view import AgentView
from moon_envs.moon_harvesters.rules import PLACE, HarvestersGame, HarvestersState


def _random_game(game: HarvestersGame, rng: np.random.Generator) -> tuple[int, int]:
    """Play one uniformly random game on the rules core; return (actions, placements)."""
    s = game.new_initial_state()
    actions = 0
    while not s.is_terminal():
        legal = np.flatnonzero(s.legal_actions_mask())
        s.apply_action(int(legal[rng.integers(legal.size)]))
        actions += 1
    return actions, int(s.placed.sum())


def _place_states(
    game: HarvestersGame, count: int, rng: np.random.Generator
) -> list[HarvestersState]:
    """Snapshots of positions where a harvester is to be placed, from random games."""
    out: list[HarvestersState] = []
    while len(out) < count:
        s = game.new_initial_state()
        while not s.is_terminal() and len(out) < count:
            if s.phase == PLACE:
                out.append(s.clone())
            legal = np.flatnonzero(s.legal_actions_mask())
            s.apply_action(int(legal[rng.integers(legal.size)]))
    return out


def _per_call(fn, items: list[Any], seconds: float) -> float:
    """Mean seconds per ``fn(item)``, cycling over ``items`` for about ``seconds``."""
    calls = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for item in items:
            fn(item)
        calls += len(items)
        if time.perf_counter() >= deadline:
            break
    return (time.perf_counter() - start) / calls


def run(seconds: float = 3.0) -> list[tuple[str, float, str]]:
    """Rules-core figures on the 4-player game; about ``seconds`` in all."""
    from moon_agents.benchmarks.games.jupiter import search_loop
    from moon_agents.heuristics.moon_harvesters import HarvestersGreedyAgent

    game = HarvestersGame(num_players=4)
    rng = np.random.default_rng(0)
    share = max(0.05, seconds / 7)

    actions = placements = 0
    start = time.perf_counter()
    while time.perf_counter() - start < 2 * share:
        a, p = _random_game(game, rng)
        actions += a
        placements += p
    elapsed = time.perf_counter() - start

    states = _place_states(game, 200, rng)
    mask_s = _per_call(lambda s: s._build_mask(), states, share)
    obs_s = _per_call(lambda s: s.observation(s.player), states, share / 2)
    greedy = HarvestersGreedyAgent(seed=0)
    views = [AgentView.of(s) for s in states[:50]]
    greedy_s = _per_call(greedy.act, views, share / 2)
    rows = _env_rows(share)
    search = search_loop(game, share)
    return [
        *rows,
        ("rules core random play (4p)", actions / elapsed, "actions/s"),
        ("rules core, clone every 4 actions (4p)", search, "actions/s"),
        ("rules core harvester placements (4p)", placements / elapsed, "placements/s"),
        ("placement mask, 1,536 entries (4p)", mask_s * 1e6, "us"),
        ("observation, 1,191 floats (4p)", obs_s * 1e6, "us"),
        ("greedy agent decision (4p)", greedy_s * 1e3, "ms"),
    ]


def _env_rows(seconds: float) -> list[tuple[str, float, str]]:
    """The AEC env with 4 players (the generic table runs the 2-player default), beside
    connect_four_v3 in the same loop, in interleaved rounds, when PettingZoo's classic
    games are installed."""
    import moon_envs
    from moon_agents.benchmarks.speed import random_play, reference_factory

    four = moon_envs.make("moon_harvesters_v0", num_players=4)
    factory = reference_factory()
    ref = factory() if factory is not None else None
    rounds = 3
    steps = {"four": 0.0, "ref": 0.0}
    elapsed = {"four": 0.0, "ref": 0.0}
    for r in range(rounds):
        for key, env in (("four", four), ("ref", ref)):
            if env is None:
                continue
            row = random_play(env, seconds / rounds, seed=r)
            steps[key] += row.steps
            elapsed[key] += row.seconds
    four_rate = steps["four"] / elapsed["four"]
    rows = [("env random play, 4 players", four_rate, "agent-steps/s")]
    if ref is not None:
        ratio = four_rate / (steps["ref"] / elapsed["ref"])
        rows.append(("env 4 players / connect_four_v3", ratio, "x"))
    return rows


def tournament(num_players: int, games: int, seed: int = 0) -> Any:
    """Greedy (one seat) against random agents (the other seats), seats rotated.

    Returns an :class:`moon_agents.evaluation.tournament.TournamentResult` (``.table()`` for
    Markdown).
    """
    from moon_agents.evaluation.tournament import tournament as play

    specs = ["greedy"] + ["random"] * (num_players - 1)
    return play(
        "moon_harvesters_v0", specs, games, seed=seed, env_params={"num_players": num_players}
    )


if __name__ == "__main__":  # pragma: no cover - manual use
    import sys

    for metric, value, unit in run(float(sys.argv[1]) if len(sys.argv) > 1 else 3.0):
        print(f"{metric:<40} {value:>12,.3f} {unit}")
