"""Random openings for the games a JAX trainer plays (``algorithm.opening_plies``).

A game of Moon Harvesters has no chance node: from the standard start, two deterministic
players always play the same game, and a network trained only from it may meet nothing
else. The evaluation protocol varies games by a few uniformly random opening plies
(:mod:`moon_agents.evaluation.openings`); training can start its games the same way.

:func:`random_opening` plays ``plies`` uniformly random legal moves in every game of a
batch of twin states, keeping a game at the position before a move that would end it
(so no game starts finished). ``jax_ppo`` draws one such bank of openings per rollout
(``plies`` batched steps, against the rollout's ``num_steps``), and a game restarted
during the rollout starts from its lane's opening.
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp

from moon_agents.training.jax.alphazero import select_games


def random_opening(twin: Any, states: Any, plies: int, key: jax.Array) -> Any:
    """``states`` (a batch) after ``plies`` uniformly random legal moves each; a move that
    would end a game is not played (that game keeps its position)."""
    if plies == 0:
        return states

    def ply(_: Any, carry: tuple[Any, jax.Array]) -> tuple[Any, jax.Array]:
        games, key = carry
        key, k_act, k_step = jax.random.split(key, 3)
        legal = games.legal_action_mask
        action = jax.random.categorical(k_act, jnp.where(legal, 0.0, -jnp.inf))
        nxt = jax.vmap(twin.step)(games, action, jax.random.split(k_step, legal.shape[0]))
        return select_games(nxt.terminated | games.terminated, games, nxt), key

    return jax.lax.fori_loop(0, plies, ply, (states, key))[0]
