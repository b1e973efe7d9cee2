"""Shared helpers for the test suite: random play through the AEC loop and the rules core."""

from __future__ import annotations

import numpy as np

from moon_envs.core.game import CHANCE, State


def random_legal(mask: np.ndarray, rng: np.random.Generator) -> int:
    legal = np.flatnonzero(mask)
    assert legal.size > 0, "the agent to move has an all-zero mask"
    return int(legal[rng.integers(legal.size)])


def play_env(env, seed: int, max_steps: int = 100_000) -> list:
    """Play one random game through ``agent_iter``; return the list of (agent, action)."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    trace = []
    for steps, agent in enumerate(env.agent_iter()):
        assert steps < max_steps, "game did not end"
        obs, _, term, trunc, _ = env.last()
        action = None if term or trunc else random_legal(obs["action_mask"], rng)
        trace.append((agent, action))
        env.step(action)
    return trace


def step_state(state: State, rng: np.random.Generator) -> int:
    """Apply one random legal move or chance outcome to ``state``; return it."""
    if state.current_player() == CHANCE:
        outcomes, probs = zip(*state.chance_outcomes())
        a = int(outcomes[rng.choice(len(outcomes), p=np.array(probs) / sum(probs))])
    else:
        a = random_legal(state.legal_actions_mask(), rng)
    state.apply_action(a)
    return a


def play_to_end(state: State, rng: np.random.Generator, limit: int = 100_000) -> list[int]:
    """Random play from ``state`` to the end; returns the actions taken."""
    actions = []
    while not state.is_terminal():
        actions.append(step_state(state, rng))
        assert len(actions) < limit, "game did not end"
    return actions


def assert_same_states(fast, generic, where: str) -> None:
    """Two twin states (a fast path's and the generic one's) equal leaf by leaf: the same
    tree, dtypes, shapes and values; a difference names ``where`` and the leaf."""
    import jax

    assert jax.tree.structure(fast) == jax.tree.structure(generic), where
    for (path, a), b in zip(jax.tree_util.tree_leaves_with_path(fast), jax.tree.leaves(generic)):
        assert a.dtype == b.dtype and a.shape == b.shape, (where, path)
        np.testing.assert_array_equal(np.asarray(a), np.asarray(b), err_msg=f"{where} {path}")
