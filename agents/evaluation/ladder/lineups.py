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

A shipped agent that needs an extra this install lacks (the MaskablePPO policies need
the ``train`` extra: torch and sb3-contrib) is left out of :func:`ladder_plan`'s lineup,
with the reason in :attr:`LadderPlan.skipped`, so the rest of the ladder still plays.
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass, field, replace
from typing import Any

from moon_envs.core.game import ConfigError


@dataclass(frozen=True)
class LadderPlan:
    """One game's ladder: env parameters, ``label -> agent spec``, and ``label -> why``
    for the agents left out because this install cannot run them."""

    env_params: dict[str, Any]
    agents: dict[str, str]
    skipped: dict[str, str] = field(default_factory=dict)


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
            "trained-ppo": "trained-ppo",
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
            "trained-ppo": "trained-ppo",
        },
    ),
}


TRAIN_EXTRA = ("torch", "sb3_contrib")
"""The modules a shipped MaskablePPO policy (``GAME.zip``) needs: the ``train`` extra."""


def missing_extra(spec: str, game: str) -> str | None:
    """Why the agent ``spec`` cannot play ``game`` (a ``GameSpec.name``) in this install, or
    None: a shipped MaskablePPO policy (``trained`` where the game has no ``.npz`` network,
    ``trained-ppo``) needs the ``train`` extra."""
    if spec not in ("trained", "trained-ppo"):
        return None
    from moon_agents.zoo import trained_model

    path = trained_model(game, spec)
    if path is None or path.suffix != ".zip":
        return None
    missing = [m for m in TRAIN_EXTRA if importlib.util.find_spec(m) is None]
    if not missing:
        return None
    return (
        f"it is the MaskablePPO policy agents/trained/{path.name}, which needs "
        f'{" and ".join(missing)}; install them with: pip install "moon-envs[train]"'
    )


def ladder_plan(env_id: str) -> LadderPlan:
    """The published ladder of ``env_id``, less the agents this install cannot run (named
    with the reason in ``skipped``); unknown ids name the allowed ones."""
    plan = LADDERS.get(env_id)
    if plan is None:
        raise ConfigError(
            f"no published ladder for {env_id!r}; allowed: {sorted(LADDERS)} "
            "(or name the agents yourself with --agent LABEL=SPEC)"
        )
    from moon_envs import make

    env = make(env_id, **plan.env_params)
    game = env.game.spec.name
    env.close()
    reasons = {label: missing_extra(spec, game) for label, spec in plan.agents.items()}
    skipped = {label: why for label, why in reasons.items() if why}
    agents = {label: spec for label, spec in plan.agents.items() if label not in skipped}
    return replace(plan, agents=agents, skipped=skipped)
