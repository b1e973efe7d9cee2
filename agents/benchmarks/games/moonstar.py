"""Moonstar measurements for ``moon-envs bench``, and the random/heuristic/oracle tournament.

:func:`run` reports the rules core under random play (actions/s), the observation and mask
times, and the exact solver's time per situation (median and 95th percentile) for each
scoring rule and size: independent scoring (Game 1, 7 dice and 7 moons; then 9 and 11),
squares (Game 7) and chains (Game 8) with 7 moons (then 9). Situations are drawn the way
the game draws them: planets and moons placed uniformly at random, dice rolled.

:func:`tournament` plays seat-rotating 3-player games of the random, heuristic and oracle
agents through :mod:`moon_agents.evaluation.tournament` (win rates with Wilson intervals, Elo).
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from moon_envs.core.game import CHANCE
from moon_envs.moonstar import solver
from moon_envs.moonstar.rules import MoonstarGame

SOLVER_CASES = [
    ("independent (G1)", "planets", 7, 7),
    ("independent (G2)", "planets", 9, 9),
    ("independent (G2)", "planets", 11, 11),
    ("squares (G7)", "squares", 7, 7),
    ("squares (G7)", "squares", 9, 9),
    ("chains (G8)", "chains", 7, 7),
    ("chains (G8)", "chains", 9, 9),
]


def random_situation(
    rng: np.random.Generator, scoring: str, moons: int, dice: int, movement: str = "exact"
) -> solver.Situation:
    """A round as the game deals it: uniform planets (5, 5, 10, 10 with planet scoring) and
    moons (at most three per star), dice rolled."""
    values = [0] * 12
    if scoring == "planets":
        for s, v in zip(rng.choice(12, 4, replace=False).tolist(), (10, 10, 5, 5)):
            values[s] = v
    stars: list[int] = []
    while len(stars) < moons:
        s = int(rng.integers(12))
        if stars.count(s) < 3:
            stars.append(s)
    faces = sorted(int(x) for x in rng.integers(1, 7, dice))
    return solver.Situation(tuple(stars), tuple(faces), tuple(values), scoring, movement)


def solver_times(
    scoring: str, moons: int, dice: int, seconds: float, seed: int = 0
) -> tuple[float, float, int]:
    """(median s, 95th percentile s, count) of :func:`solver.solve` on random situations."""
    rng = np.random.default_rng(seed)
    times = []
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline or len(times) < 5:
        sit = random_situation(rng, scoring, moons, dice)
        t = time.perf_counter()
        solver.solve(sit)
        times.append(time.perf_counter() - t)
    arr = np.array(times)
    return float(np.median(arr)), float(np.percentile(arr, 95)), len(times)


def rules_core_speed(seconds: float, seed: int = 0, **params: Any) -> tuple[float, float, float]:
    """Random play on the rules core: (player actions/s, observation s, mask s)."""
    game = MoonstarGame(**params)
    rng = np.random.default_rng(seed)
    actions = 0
    obs_t = mask_t = 0.0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        st = game.new_initial_state()
        while not st.is_terminal():
            p = st.current_player()
            if p == CHANCE:
                outs = st.chance_outcomes()
                st.apply_action(outs[int(rng.integers(len(outs)))][0])
                continue
            t0 = time.perf_counter()
            mask = st.legal_actions_mask()
            t1 = time.perf_counter()
            st.observation(p)
            t2 = time.perf_counter()
            mask_t += t1 - t0
            obs_t += t2 - t1
            legal = np.flatnonzero(mask)
            st.apply_action(int(legal[rng.integers(legal.size)]))
            actions += 1
    elapsed = time.perf_counter() - start
    return actions / elapsed, obs_t / max(1, actions), mask_t / max(1, actions)


def run(seconds: float = 3.0) -> list[tuple[str, float, str]]:
    """Rules-core speed and solver times per situation; about ``2 * seconds`` in all."""
    share = max(0.1, seconds / (len(SOLVER_CASES) + 2))
    rate, obs_s, mask_s = rules_core_speed(2 * share)
    rows: list[tuple[str, float, str]] = [
        ("rules core random play (4p, G1)", rate, "actions/s"),
        ("observation (4p, G1)", obs_s * 1e6, "us"),
        ("legal mask (4p, G1)", mask_s * 1e6, "us"),
    ]
    for label, scoring, moons, dice in SOLVER_CASES:
        med, p95, _ = solver_times(scoring, moons, dice, share)
        rows.append((f"solver {label} {moons}x{dice} median", med * 1e3, "ms"))
        rows.append((f"solver {label} {moons}x{dice} p95", p95 * 1e3, "ms"))
    return rows


def tournament(games: int = 1000, seed: int = 0, num_players: int = 3, **env_params: Any) -> Any:
    """Random, heuristic and oracle agents, seats rotated over every line-up.

    Returns an :class:`moon_agents.evaluation.tournament.TournamentResult` (``.table()`` gives
    Markdown).
    """
    from moon_agents.evaluation.tournament import tournament as play

    params = {"num_players": num_players, **env_params}
    return play(
        "moonstar_v1", ["random", "heuristic", "oracle"], games, seed=seed, env_params=params
    )


if __name__ == "__main__":  # pragma: no cover - manual use
    import sys

    if len(sys.argv) > 1 and sys.argv[1] == "tournament":
        n = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
        game = int(sys.argv[3]) if len(sys.argv) > 3 else 1
        result = tournament(n, seed=0, game=game)
        print(result.table())
    else:
        for metric, value, unit in run(float(sys.argv[1]) if len(sys.argv) > 1 else 3.0):
            print(f"{metric:<44} {value:>12,.3f} {unit}")
