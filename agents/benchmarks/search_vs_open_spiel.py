"""Our MCTS against OpenSpiel's Python ``MCTSBot`` on our games, at equal simulation budgets.

::

    PYTHONPATH=. python -m moon_agents.benchmarks.search_vs_open_spiel            # default cases
    PYTHONPATH=. python -m moon_agents.benchmarks.search_vs_open_spiel \\
        --env jupiter_v0 --simulations 100 --games 40

Both sides play the same games through :mod:`moon_envs.integrations.open_spiel`: the
game loop runs on the OpenSpiel state; ``MCTSBot`` (UCT constant ``c``, one random
rollout per leaf, ``solve=False``) searches OpenSpiel clones of it, and
:class:`~moon_agents.search.MCTSAgent` (same ``c``, same number of simulations, random
rollouts) searches from ``AgentView.of(state.moon_state, seat)``. Our agent takes one
seat, rotated game by game, and ``MCTSBot`` every other seat.

Printed per case: each side's win rate per seat (a shared win counts ``1/w``) with a
Wilson 95% interval, and each side's simulations per second (simulations done /
seconds spent choosing moves; a move with one legal action is not searched by our
agent and is not counted), with their ratio. Perfect-information games only:
``MCTSBot`` searches the true state.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from moon_agents.evaluation.tournament import wilson_interval
from moon_agents.search import MCTSAgent
from moon_envs.core.view import AgentView

DEFAULT_CASES = [
    ("jupiter_v0", {}, 50, 200),
    ("moonstar_v1", {"game": 1, "num_players": 3, "max_rounds": 1}, 20, 300),
    ("moon_harvesters_v0", {}, 20, 100),
]


@dataclass
class Side:
    """One side's tally: points (wins, 1/w for shared), seat-games, simulations, seconds."""

    points: float = 0.0
    seat_games: int = 0
    simulations: int = 0
    seconds: float = 0.0

    def win_rate(self) -> tuple[float, float, float]:
        lo, hi = wilson_interval(self.points, self.seat_games)
        return self.points / max(1, self.seat_games), lo, hi

    @property
    def sims_per_s(self) -> float:
        return self.simulations / self.seconds if self.seconds > 0 else 0.0


def play_case(
    env_id: str, params: dict[str, Any], simulations: int, games: int, c: float, seed: int
) -> tuple[Side, Side]:
    """Play ``games`` games of ``env_id``; return (ours, OpenSpiel's) tallies."""
    from open_spiel.python.algorithms import mcts

    from moon_envs.integrations.open_spiel import load_game

    game = load_game(env_id, **params)
    if game.get_type().information != game.get_type().Information.PERFECT_INFORMATION:
        raise ValueError(f"{env_id} {params} hides information; MCTSBot would search the truth")
    n = game.num_players()
    ours, theirs = Side(), Side()
    for g in range(games):
        rs = np.random.RandomState(seed + g)
        bot = mcts.MCTSBot(
            game, c, simulations, mcts.RandomRolloutEvaluator(1, rs), random_state=rs, solve=False
        )
        agent = MCTSAgent(seed=seed + g, simulations=simulations, c=c)
        our_seat = g % n
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(int(rs.choice(outcomes, p=np.array(probs) / sum(probs))))
                continue
            seat = state.current_player()
            t0 = time.perf_counter()
            if seat == our_seat:
                action = agent.act(AgentView.of(state.moon_state, seat))
                if agent.last.simulations:
                    ours.seconds += time.perf_counter() - t0
                    ours.simulations += agent.last.simulations
            else:
                action = bot.step(state)
                theirs.seconds += time.perf_counter() - t0
                theirs.simulations += simulations
            state.apply_action(int(action))
        winners = state.moon_state.winners()
        share = 1.0 / len(winners) if winners else 0.0
        for s in range(n):
            side = ours if s == our_seat else theirs
            side.seat_games += 1
            side.points += share if s in winners else 0.0
    return ours, theirs


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--env", help="one env id (default: the default cases)")
    p.add_argument("--param", action="append", default=[], metavar="KEY=VALUE")
    p.add_argument("--simulations", type=int, default=50)
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--c", type=float, default=1.4)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    if args.env:
        params = dict(kv.split("=", 1) for kv in args.param)
        cases = [(args.env, params, args.simulations, args.games)]  # typed by load_game
    else:
        cases = DEFAULT_CASES
    print(
        f"ours = moon_agents.search.MCTSAgent, open_spiel = open_spiel MCTSBot; c={args.c}, "
        "random rollouts, equal simulations per move"
    )
    header = (
        f"{'case':<44} {'sims':>5} {'games':>5} {'ours win (95% CI)':>24} "
        f"{'open_spiel win (95% CI)':>26} {'ours sims/s':>11} {'os sims/s':>10} {'x':>6}"
    )
    print(header)
    for env_id, params, sims, games in cases:
        ours, theirs = play_case(env_id, params, sims, games, args.c, args.seed)
        case = env_id + (" " + ",".join(f"{k}={v}" for k, v in params.items()) if params else "")
        ratio = ours.sims_per_s / theirs.sims_per_s if theirs.sims_per_s else float("nan")
        print(
            f"{case:<44} {sims:>5} {games:>5} {_fmt(ours):>24} {_fmt(theirs):>26} "
            f"{ours.sims_per_s:>11,.0f} {theirs.sims_per_s:>10,.0f} {ratio:>6.2f}",
            flush=True,
        )
    return 0


def _fmt(side: Side) -> str:
    w, lo, hi = side.win_rate()
    return f"{w:.3f} [{lo:.3f}, {hi:.3f}]"


if __name__ == "__main__":
    raise SystemExit(main())
