"""Check that each JAX twin plays exactly the Python engine's game, with real agents.

Games are recorded in the Python engine with random and heuristic agents (seats rotated,
so every agent plays every seat) and replayed in the twin, step by step (see
:mod:`moon_envs.jax.equivalence`)::

    python -m moon_agents.evaluation.jax_equivalence --games 1000            # every set
    python -m moon_agents.evaluation.jax_equivalence --env jupiter_v0 \\
        --param num_players=3 --games 200 --agents random,greedy

Exit status 1 if any difference is found; each one is printed with the game, the step,
the field and both values.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from moon_agents.base import start_game
from moon_agents.zoo import make_agent
from moon_envs.core.game import Game, State
from moon_envs.core.view import AgentView
from moon_envs.jax.equivalence import EquivalenceReport, Policy, check, random_policy

# the documented parameter sets checked by default (every player count, every variant)
PARAMETER_SETS: dict[str, list[dict[str, Any]]] = {
    "jupiter_v0": [
        {"num_players": 2},
        {"num_players": 3},
        {"num_players": 4},
        {"num_players": 2, "black_moons": True},
        {"num_players": 2, "expanding_universe": True},
        {"num_players": 2, "stuck_player": "end"},
        {"num_players": 2, "ties": "none"},
        {"num_players": 2, "line_features": True},
        {"num_players": 2, "random_first_player": False},
        {"num_players": 2, "expanding_universe": True, "stuck_player": "end"},
        {"num_players": 3, "num_probes": 2, "num_dice": 12, "stuck_player": "end"},
        {
            "num_players": 4,
            "black_moons": True,
            "expanding_universe": True,
            "line_features": True,
            "ties": "none",
        },
    ],
    "moon_harvesters_v0": [
        {"num_players": 2},
        {"num_players": 3},
        {"num_players": 4},
        {"num_players": 2, "craters_block": False},
        {"num_players": 2, "craters_block_deposits": False},
        {"num_players": 2, "deposits_when_short": "none", "num_deposits": 25},
        {"num_players": 2, "ties": "none"},
        {
            "num_players": 2,
            "rows": 8,
            "cols": 10,
            "shapes": ["I", "T", "##/##", "#"],
            "pieces_per_kind": 12,
            "num_craters": 5,
            "deposits_per_turn": 3,
            "first_deposits": 0,
        },
        {"num_players": 4, "rows": 16, "cols": 16, "shapes": "F,I,L,N,P,T,U,V"},
    ],
    "star_master_v0": [
        {"num_players": 1},
        {"num_players": 1, "solitaire": True},
        {"num_players": 1, "solitaire": True, "solitaire_turns": 30},
        {"num_players": 2},
        {"num_players": 3},
        {"num_players": 4},
        {"num_players": 5},
        {"num_players": 6},
        {"num_players": 2, "memory": "perfect"},
        {"num_players": 2, "memory": "decay"},
        {"num_players": 2, "memory": "decay", "forget_prob": 0.5},
        {"num_players": 2, "competition": True},
        {"num_players": 2, "children": True},
        {"num_players": 2, "num_colours": 6},
        {"num_players": 2, "white_faces": [0, 1, 2, 9, 9, 9], "black_faces": [1, 0, 0]},
        {"num_players": 2, "race_winner": "seat_order"},
        {"num_players": 2, "max_turns": 20},
        {"num_players": 2, "max_turns": 20, "turn_limit": "nobody"},
    ],
    "moonstar_v1": [
        *({"game": g} for g in range(1, 13)),
        *({"num_players": n} for n in (2, 3, 5, 6, 7, 8)),
    ],
    "moonwakers_v1": [
        {"num_players": 2},
        {
            "num_players": 3,
            "ability_duel": False,
            "shield_abilities": False,
            "setup_hand": "keep",
            "scan_targets": "table",
            "purchases_per_round": 3,
        },
        {
            "num_players": 4,
            "ionic_storm_draws": "act",
            "infrared_storm_replaces": "two",
            "free_card": "discard",
            "cancelled_shelter": "loss",
            "max_rounds": 40,
        },
        {
            "num_players": 6,
            "response_windows": "holders",
            "shortcut_when": "every",
            "permutation_when": "own",
            "pile": "ordered",
            "claims": "open",
            "game_end": "choice",
            "end_when_stalemated": True,
        },
    ],
}
HEURISTIC = {
    "jupiter_v0": "greedy",
    "star_master_v0": "memory",
    "moon_harvesters_v0": "greedy",
    "moonstar_v1": "heuristic",
    "moonwakers_v1": "heuristic",
}


def agent_policy(spec: str, game: Game, seat: int, seed: int) -> Policy:
    """The zoo agent ``spec`` as a recording policy for ``seat`` of a new game."""
    if spec == "random":
        return random_policy
    agent = make_agent(spec, game.spec.name, seed=seed)
    start_game(agent, game, seat)

    def policy(state: State, rng: np.random.Generator) -> int:
        return int(agent.act(AgentView.of(state)))

    return policy


def rotating_lineups(env_id: str, game: Game, agents: Sequence[str], seed: int = 0) -> Any:
    """A function of the game number giving each seat its policy: game ``g`` seats
    ``agents[(g + seat) % len(agents)]`` in ``seat``."""

    def lineup(g: int) -> list[Policy]:
        n = game.spec.num_players
        return [agent_policy(agents[(g + s) % len(agents)], game, s, seed + g) for s in range(n)]

    return lineup


def check_with_agents(
    env_id: str,
    params: dict[str, Any],
    games: int,
    agents: Sequence[str] | None = None,
    seed: int = 0,
    batch: int = 64,
    reward_mode: str = "win",
) -> EquivalenceReport:
    """:func:`moon_envs.jax.equivalence.check` with zoo agents (default: random and the
    game's heuristic)."""
    import moon_envs

    game = moon_envs.make(env_id, **params).game
    agents = list(agents or ["random", HEURISTIC[env_id]])
    return check(
        env_id,
        params,
        rotating_lineups(env_id, game, agents, seed),
        games,
        seed=seed,
        batch=batch,
        reward_mode=reward_mode,
    )


def _parse_params(items: Sequence[str]) -> dict[str, Any]:
    import json

    out: dict[str, Any] = {}
    for item in items:
        name, sep, text = item.partition("=")
        if not sep:
            raise SystemExit(f"--param takes NAME=VALUE, got {item!r}")
        try:
            out[name] = json.loads(text)
        except json.JSONDecodeError:
            out[name] = text
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m moon_agents.evaluation.jax_equivalence", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--env", help="one environment id (default: every twin)")
    parser.add_argument("--param", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--games", type=int, default=100, help="games per parameter set")
    parser.add_argument("--agents", help="comma-separated zoo agents (default: random + heuristic)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--reward-mode", default="win", choices=["win", "score"])
    args = parser.parse_args(argv)
    if args.env and args.param:
        sets = {args.env: [_parse_params(args.param)]}
    elif args.env:
        sets = {args.env: PARAMETER_SETS.get(args.env, [{}])}
    else:
        sets = PARAMETER_SETS
    agents = args.agents.split(",") if args.agents else None
    failed = False
    for env_id, param_sets in sets.items():
        for params in param_sets:
            start = time.perf_counter()
            report = check_with_agents(
                env_id, params, args.games, agents, args.seed, reward_mode=args.reward_mode
            )
            seconds = time.perf_counter() - start
            print(
                f"{env_id} {params}: {report.games} games, {report.events:,} events compared, "
                f"{len(report.problems)} differences ({seconds:.1f} s)",
                flush=True,
            )
            for problem in report.problems:
                print("  " + problem)
            failed |= not report.ok
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
