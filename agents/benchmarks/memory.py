"""Resident memory over thousands of games: every env must stay flat after warm-up.

Each env plays ``--games`` uniformly random games through its AEC API in a fresh process
(one env object, ``reset`` between games, as a training worker does), printing the
resident set size (RSS, from ``/proc/self/statm``) at ten checkpoints. The growth after
warm-up is the largest RSS at or after the first checkpoint minus the RSS at it::

    python -m moon_agents.benchmarks.memory --games 5000
    python -m moon_agents.benchmarks.memory moonwakers_v1 --games 2000

Target: under 3 MB of growth after warm-up for every env.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections.abc import Callable, Sequence

TARGET_MB = 3.0

_CHILD = """
import json, sys
import numpy as np
import moon_envs
env_id, games, points = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
def rss_mb():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096 / 1e6
env = moon_envs.make(env_id)
rng = np.random.default_rng(0)
curve = []
for g in range(games):
    env.reset(seed=g)
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
        else:
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    if (g + 1) % max(1, games // points) == 0:
        curve.append([g + 1, round(rss_mb(), 2)])
print(json.dumps(curve))
"""


def rss_curve(env_id: str, games: int, points: int = 10) -> list[tuple[int, float]]:
    """``(games played, RSS in MB)`` at ``points`` checkpoints, from a fresh process."""
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, env_id, str(games), str(points)],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"{env_id}: the memory probe failed:\n{done.stderr[-2000:]}")
    return [tuple(p) for p in json.loads(done.stdout)]


def growth_after_warmup(curve: Sequence[tuple[int, float]]) -> float:
    """Largest RSS at or after the first checkpoint, minus the RSS there (MB)."""
    return max(rss for _, rss in curve) - curve[0][1]


def main(argv: Sequence[str] | None = None, out: Callable[[str], None] = print) -> int:
    import moon_envs

    parser = argparse.ArgumentParser(
        prog="python -m moon_agents.benchmarks.memory", description=__doc__.split("\n")[0]
    )
    parser.add_argument("envs", nargs="*", metavar="ENV", help="env ids (default: all)")
    parser.add_argument("--games", type=int, default=5000, help="games per env")
    args = parser.parse_args(argv)
    worst = 0.0
    for env_id in args.envs or moon_envs.list_envs():
        curve = rss_curve(env_id, args.games)
        growth = growth_after_warmup(curve)
        worst = max(worst, growth)
        points = "  ".join(f"{g}:{rss:.1f}" for g, rss in curve)
        out(f"{env_id:<20} growth after warm-up {growth:5.1f} MB   RSS (games:MB) {points}")
    out(f"worst growth {worst:.1f} MB (target < {TARGET_MB} MB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
