"""Jupiter measurements for ``moon-envs bench``: the rules core as a search sees it.

Search cost is clone + apply. :func:`search_loop` plays uniformly random legal actions
on a rules-core :class:`~moon_envs.core.game.State` through its public API only
(``legal_actions_mask`` / ``chance_outcomes`` / ``apply_action``), replacing the state by
``state.clone()`` every few actions, and counts applied actions (chance outcomes
included) per second. :func:`run` reports it for 2 and 4 players, beside the
agent-steps/s of PettingZoo's ``connect_four_v3`` measured in the same run as a yardstick
of the machine's speed.
"""

from __future__ import annotations

import time

import numpy as np

from moon_envs.core.game import CHANCE, Game


def search_loop(game: Game, seconds: float, clone_every: int = 4, seed: int = 0) -> float:
    """Random legal actions per second on ``game``'s rules core, with a ``clone()`` every
    ``clone_every`` actions and a fresh game whenever one ends."""
    rng = np.random.default_rng(seed)
    uniforms = rng.random(4096).tolist()
    state = game.new_initial_state()
    actions = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        if state.is_terminal():
            state = game.new_initial_state()
        u = uniforms[actions & 4095]
        if state.current_player() == CHANCE:
            for outcome, p in state.chance_outcomes():
                u -= p
                if u < 0:
                    break
            state.apply_action(outcome)
        else:
            legal = np.flatnonzero(state.legal_actions_mask())
            state.apply_action(int(legal[int(u * legal.size)]))
        actions += 1
        if actions % clone_every == 0:
            state = state.clone()
        if actions & 4095 == 0:
            uniforms = rng.random(4096).tolist()
            if time.perf_counter() >= deadline:
                break
    return actions / (time.perf_counter() - start)


def run(seconds: float = 3.0) -> list[tuple[str, float, str]]:
    """Rules-core search-loop rates (2 and 4 players) and the connect_four yardstick."""
    from moon_agents.benchmarks.speed import random_play, reference_factory
    from moon_envs.jupiter.rules import JupiterGame

    share = max(0.1, seconds / 3)
    rows = []
    for players in (2, 4):
        rate = search_loop(JupiterGame(num_players=players), share)
        rows.append((f"rules core, clone every 4 actions ({players}p)", rate, "actions/s"))
    factory = reference_factory()
    if factory is not None:
        ref = random_play(factory(), share)
        rows.append(("connect_four_v3 env (same run)", ref.steps_per_s, "agent-steps/s"))
        rows.append(("rules core 2p / connect_four_v3", rows[0][1] / ref.steps_per_s, "x"))
    return rows


if __name__ == "__main__":  # pragma: no cover - manual use
    import sys

    for metric, value, unit in run(float(sys.argv[1]) if len(sys.argv) > 1 else 3.0):
        print(f"{metric:<44} {value:>12,.3f} {unit}")
