"""Positions of random Python games, for the twins' conversion tests."""

from __future__ import annotations

import numpy as np


def random_python_positions(env, count: int, seed: int, every: int = 1) -> list:
    """Every ``every``-th position of random Python games of ``env``'s game (chance nodes
    included, drawn by their probabilities) and every finished game's last position,
    until ``count`` positions and a finished game."""
    rng = np.random.default_rng(seed)
    state, out, moves = env.game.new_initial_state(), [], 0
    while len(out) < count or not out[-1].is_terminal():
        if state.is_terminal():
            out.append(state.clone())
            state = env.game.new_initial_state()
            continue
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=np.asarray(probs) / sum(probs))))
        else:
            state.apply_action(int(rng.choice(np.flatnonzero(state.legal_actions_mask()))))
        moves += 1
        if moves % every == 0 and len(out) < count:
            out.append(state.clone())
    return out
