"""``auto_reset``: a step function that starts a new game wherever one ends.

The same convention as ``pgx.experimental.auto_reset``, so that a batched loop needs no
``jnp.where(state.terminated, fresh, state)`` of its own::

    step = mj.auto_reset(env.step, env.init)
    state = jax.jit(jax.vmap(step))(state, actions, keys)

``step(state, action, key)`` splits ``key`` in two: the first half goes to
``step_fn(state, action, ...)``, the second to ``init_fn`` wherever that step ended the
game. A lane whose game ended comes back as the *new* game's first position (its
``current_player``, ``observation`` and ``legal_action_mask`` are the new game's), with the
finished game's ``terminated``, ``truncated`` and ``rewards`` kept, so the caller still
sees the end and the final rewards. On the next call such a lane drops those flags and
rewards and plays ``action`` in the new game.

Feed it what it returned (or ``init``'s states): a state the plain ``env.step`` finished
would have its flags dropped while its position is over.
"""

from __future__ import annotations

from collections.abc import Callable

import jax
import jax.numpy as jnp

from moon_envs.jax.state import State

StepFn = Callable[[State, jax.Array, jax.Array], State]
InitFn = Callable[[jax.Array], State]


def auto_reset(step_fn: StepFn, init_fn: InitFn) -> Callable[..., State]:
    """``step_fn`` made to restart finished games with ``init_fn`` (see the module
    docstring). The result is ``step(state, action, key)``: ``key`` is required, since a
    new game's set-up is drawn with it."""

    def step(state: State, action: jax.Array, key: jax.Array | None = None) -> State:
        if key is None:
            raise TypeError(
                "the auto_reset step needs key: new games are set up with it; "
                "call step(state, action, key) with a jax.random key"
            )
        step_key, init_key = jax.random.split(key)
        ended = state.terminated | state.truncated
        restarted = state.replace(
            terminated=jnp.zeros_like(state.terminated),
            truncated=jnp.zeros_like(state.truncated),
            rewards=jnp.zeros_like(state.rewards),
        )
        state = jax.lax.cond(ended, lambda: restarted, lambda: state)
        state = step_fn(state, action, step_key)

        def new_game() -> State:
            return init_fn(init_key).replace(
                terminated=state.terminated, truncated=state.truncated, rewards=state.rewards
            )

        return jax.lax.cond(state.terminated | state.truncated, new_game, lambda: state)

    return step
