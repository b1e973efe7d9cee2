"""The published ladders: for each game, the env parameters and the agents that meet.

Each game's ladder pits random play, every heuristic, MCTS at two budgets, the shipped
trained policy (``trained``, see :mod:`moon_agents.zoo`) and, for Moonstar, the solver-backed
oracle against one another, 2 players. The MCTS budgets differ per game: a simulation
costs a few moves in Jupiter and hundreds in Moonwakers, so the long games search with
``horizon``-limited rollouts (valued by the score gained) and fewer simulations, keeping a
500-games-per-pairing ladder within about half an hour on two cores.

``env_params`` are those the trained policy was trained with (its observation must
match): Jupiter's ``line_features``, Moonstar's ``round_optimum`` and Star Master's
``memory="perfect"`` change only what the observation shows, not the game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from moon_envs.core.game import ConfigError


@dataclass(frozen=True)
class LadderPlan:
    """One game's ladder: env parameters and ``label -> agent spec``."""

    env_params: dict[str, Any]
    agents: dict[str, str]


LADDERS: dict[str, LadderPlan] = {
    "jupiter_v0": LadderPlan(
        {"num_players": 2, "line_features": True},
        {
            "random": "random",
            "greedy": "greedy",
            "mcts-50": "mcts:simulations=50",
            "mcts-200": "mcts:simulations=200",
            "trained": "trained",
            "trained-ppo": "trained-ppo",
        },
    ),
    "moonstar_v1": LadderPlan(
        {"game": 1, "num_players": 2, "solver_info": False, "round_optimum": True},
        {
            "random": "random",
            "heuristic": "heuristic",
            "mcts-10": "mcts:simulations=10,horizon=10",
            "mcts-40": "mcts:simulations=40,horizon=10",
            "trained": "trained",
            "trained-ppo": "trained-ppo",
            "oracle": "oracle",
        },
    ),
    "moon_harvesters_v0": LadderPlan(
        {"num_players": 2},
        {
            "random": "random",
            "greedy": "greedy",
            "mcts-25": "mcts:simulations=25,horizon=6",
            "mcts-100": "mcts:simulations=100,horizon=6",
            "trained": "trained",
        },
    ),
    "star_master_v0": LadderPlan(
        {"num_players": 2, "memory": "perfect"},
        {
            "random": "random",
            "memory3": "memory3",
            "memory": "memory",
            "mcts-10": "mcts:simulations=10,horizon=10",
            "mcts-40": "mcts:simulations=40,horizon=10",
            "trained": "trained",
            "trained-ppo": "trained-ppo",
        },
    ),
    "moonwakers_v1": LadderPlan(
        {"num_players": 2},
        {
            "random": "random",
            "heuristic": "heuristic",
            "mcts-5": "mcts:simulations=5,horizon=8",
            "mcts-20": "mcts:simulations=20,horizon=8",
            "trained": "trained",
        },
    ),
}


def ladder_plan(env_id: str) -> LadderPlan:
    """The published ladder of ``env_id``; unknown ids name the allowed ones."""
    plan = LADDERS.get(env_id)
    if plan is None:
        raise ConfigError(
            f"no published ladder for {env_id!r}; allowed: {sorted(LADDERS)} "
            "(or name the agents yourself with --agent LABEL=SPEC)"
        )
    return plan
