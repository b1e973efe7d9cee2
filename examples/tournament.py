"""A tournament between Jupiter agents: win rates with 95% intervals and Elo ratings.

    python examples/tournament.py [ppo:runs/jupiter_ppo_seed0/model.zip ...]

Any agent spec works: ``random``, ``greedy``, ``ppo:PATH``; or pass agent objects with
``act(view)`` to :func:`moon_agents.evaluation.tournament.tournament`. Every game seats two
of the agents (``seating="round_robin"`` at ``num_players=2``; by default each agent would
take a seat of one game, as ``moon-envs eval --agents`` does). For two agents it is
``moon-envs eval jupiter_v0 --agents random greedy --games 200 --out runs/tournament``.
"""

import sys

from moon_agents.evaluation.tournament import tournament
from moon_agents.random_agent import RandomAgent

agents = ["greedy", "random", RandomAgent(seed=7, name="another_random"), *sys.argv[1:]]
result = tournament(
    "jupiter_v0",
    agents,
    games=180,
    seed=0,
    env_params={"num_players": 2},
    out_dir="runs/tournament",
    seating="round_robin",
)

print(result)
print("\npairwise point share (row against column):")
for a, row in result.pairwise().items():
    print(f"  {a:<16} " + "  ".join(f"{b}: {v:.2f}" for b, v in row.items()))
print("\nfiles in runs/tournament: results.csv, results.json, games.csv, table.md, win_rates.png")
