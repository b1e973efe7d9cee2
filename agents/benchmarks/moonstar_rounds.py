"""How two agents' Moonstar rounds go: auctions won, bids against the round optimum, made.

Moonstar Game 1 with the ladder's parameters (2 players, ``round_optimum`` in the
observation). For every round an agent wins the auction of, it records its bid, the
round's optimum (the exact solver's best total once the dice are rolled, before the
first moon moves) and the total its play reached; seats alternate from game to game.
This is how docs/training.md measures how far a trained agent stays from the oracle:
whether it loses rounds in the auction (bidding) or on the board (play).

    python -m moon_agents.benchmarks.moonstar_rounds --agents trained heuristic --games 100
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import dataclass

import moon_envs
from moon_agents.base import start_game
from moon_agents.zoo import make_agent
from moon_envs.moonstar import solver

LADDER_PARAMS = {"game": 1, "num_players": 2, "solver_info": False, "round_optimum": True}


@dataclass
class RoundStats:
    """One agent's totals over the games played."""

    games: int = 0
    wins: float = 0.0
    score: float = 0.0
    auctions_won: int = 0
    made: int = 0
    bid_minus_optimum: float = 0.0
    short_of_optimum: float = 0.0

    def row(self, name: str) -> str:
        per = max(self.auctions_won, 1)
        return (
            f"| {name} | {self.wins / self.games:.3f} | {self.score / self.games:.1f} | "
            f"{self.auctions_won / self.games:.2f} | {self.made / per:.3f} | "
            f"{self.bid_minus_optimum / per:+.1f} | {self.short_of_optimum / per:.1f} |"
        )


def round_stats(specs: Sequence[str], games: int, seed: int = 0) -> dict[str, RoundStats]:
    """Play ``games`` games between the two agent specs; each one's :class:`RoundStats`."""
    if len(specs) != 2 or specs[0] == specs[1]:
        raise ValueError(f"--agents: two different agent specs, got {list(specs)}")
    env = moon_envs.make("moonstar_v1", **LADDER_PARAMS)
    stats = {spec: RoundStats() for spec in specs}
    for g in range(games):
        seated = list(specs) if g % 2 == 0 else list(reversed(specs))
        agents = [make_agent(s, "moonstar", seed=seed + 2 * g + i) for i, s in enumerate(seated)]
        _play(env, agents, seated, seed + g, stats)
    return stats


def _play(env, agents, seated: list[str], seed: int, stats: dict[str, RoundStats]) -> None:
    env.reset(seed=seed)
    for seat, agent in enumerate(agents):
        start_game(agent, env.game, seat)
    seen, optimum, optimum_round = None, 0, -1
    while env.agents:
        name = env.agent_selection
        if env.terminations[name] or env.truncations[name]:
            env.step(None)
            continue
        state = env.game_state
        if state.phase == "play" and state.moves_done == 0 and optimum_round != state.round_no:
            optimum_round = state.round_no
            optimum = solver.solve(state.situation(), with_plan=False).total
        seat = env.possible_agents.index(name)
        env.step(int(agents[seat].act(env.agent_view(name))))
        report = env.game_state.report
        if report is not None and report is not seen:
            seen = report
            if not report["no_bid"]:
                s = stats[seated[report["bidder"]]]
                s.auctions_won += 1
                s.made += bool(report["made"])
                s.bid_minus_optimum += report["bid"] - optimum
                s.short_of_optimum += optimum - report["achieved"]
        if env.game_state.is_terminal():
            break
    final = env.game_state
    winners = final.winners()
    for seat, score in enumerate(final.scores()):
        s = stats[seated[seat]]
        s.games += 1
        s.score += float(score)
        s.wins += (1.0 / len(winners)) if seat in winners else 0.0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--agents", nargs=2, required=True, metavar="SPEC")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error(f"--games: at least 1, got {args.games}")
    stats = round_stats(args.agents, args.games, args.seed)
    print(f"moonstar_v1 Game 1, 2 players, {args.games} games, seats alternating")
    print(
        "| agent | win rate | mean score | auctions won a game | of those, made "
        "| bid - optimum | total short of the optimum |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|")
    for spec, s in stats.items():
        print(s.row(spec))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
