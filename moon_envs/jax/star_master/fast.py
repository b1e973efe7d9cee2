"""Star Master's twin, the fast ``init`` and ``step``: the same states as the generic ones
of :class:`~moon_envs.jax.env.JaxEnv`, in one pass each.

XLA on the CPU fuses elementwise work into every consumer, so a per-lane value read by
each element of the observation (the new position, the legality of the action, the seat
to move) is recomputed for every element unless it is computed into memory first
(:func:`~moon_envs.jax.jupiter_arrays.computed_once`): both functions compute the new
position once, then the seat to move, then the observation and the mask that read them.

Checked state by state against the generic ones in
``tests/jax/test_star_master_fast_paths.py``.
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp

from moon_envs.core.game import CHANCE, TERMINAL
from moon_envs.jax.env import _select
from moon_envs.jax.jupiter_arrays import computed_once as once
from moon_envs.jax.star_master import bit_views, chance, rules, views
from moon_envs.jax.state import State

Array = jax.Array


def computed_once(tree: Any) -> Any:
    """``tree`` unchanged, computed into memory once before its readers
    (:func:`~moon_envs.jax.jupiter_arrays.computed_once`), all its leaves packed into one
    int32 array on the way, so that it is one pass rather than one per leaf."""
    leaves, treedef = jax.tree.flatten(tree)
    flat = jnp.concatenate([_as_int32(leaf).ravel() for leaf in leaves])
    flat = once(flat)
    out, at = [], 0
    for leaf in leaves:
        part = flat[at : at + leaf.size].reshape(leaf.shape)
        out.append(_from_int32(part, leaf.dtype))
        at += leaf.size
    return jax.tree.unflatten(treedef, out)


def _as_int32(leaf: Array) -> Array:
    if leaf.dtype == jnp.float32 or leaf.dtype == jnp.uint32:
        return jax.lax.bitcast_convert_type(leaf, jnp.int32)
    return leaf.astype(jnp.int32)


def _from_int32(part: Array, dtype: Any) -> Array:
    if dtype == jnp.float32 or dtype == jnp.uint32:
        return jax.lax.bitcast_convert_type(part, dtype)
    return part.astype(dtype)


def init(env: Any, key: Array) -> State:
    """``env._wrap(chance.start(t, chance.init_words(key)), 0, zero rewards, 0)``: a new
    game always starts with seat 0 (the first roller) to name, flip or race."""
    t = env.tables
    x = computed_once(chance.start(t, computed_once(chance.init_words(key))))
    seat = jnp.int32(0)
    return State(
        current_player=seat,
        observation=bit_views.observe(t, x, seat),
        legal_action_mask=bit_views.legal_mask(t, x),
        rewards=env._zero_rewards(),
        terminated=jnp.bool_(False),
        truncated=jnp.bool_(False),
        is_chance=jnp.bool_(False),
        _step_count=jnp.int32(0),
        _x=x,
        env_id=env.id,
    )


def step(env: Any, state: State, action: Array, key: Array) -> State:
    """The base class's ``_step_unchecked`` (``_guarded`` around the action and
    ``env._resolve_x``) in one pass: after a player's action the set-up is never pending,
    so only :func:`~moon_envs.jax.star_master.chance.resolve`'s draws are made."""
    t = env.tables
    n, num = t.n, t.num
    action = jnp.asarray(action, jnp.int32)
    index = jnp.clip(action, 0, num - 1)
    player = state.current_player
    in_seat = (player >= 0) & (player < n)
    at_seat = in_seat & ~state.is_chance
    listed = jnp.any(state.legal_action_mask & (jnp.arange(num) == index))
    legal = at_seat & (action >= 0) & (action < num) & listed
    before = state._x
    words = computed_once(chance.step_words(key))
    after = chance.resolve(t, rules.apply_action(t, before, index), words)
    blamed = jnp.arange(n) == jnp.where(at_seat, player, -1)
    penalty = jnp.where(blamed, -1.0, 0.0).astype(jnp.float32)
    rewards = jnp.where(legal, env._rewards(before, after), penalty).astype(jnp.float32)
    kept, legal, rewards = computed_once((_select(legal, after, before), legal, rewards))
    # the base class's ``_wrap(after, seat, ..., ended=~legal, kept=kept)``: ``kept`` is
    # ``after`` wherever ``_wrap`` reads ``after`` unmasked by ``ended``
    to_move = jnp.where(legal, views.player(t, kept), TERMINAL)
    terminated, is_chance = to_move == TERMINAL, to_move == CHANCE
    observer = jnp.where(to_move >= 0, to_move, jnp.where(in_seat, player, 0)).astype(jnp.int32)
    observer, terminated, is_chance = computed_once((observer, terminated, is_chance))
    mask = jnp.where(terminated, True, jnp.where(is_chance, False, bit_views.legal_mask(t, kept)))
    out = State(
        current_player=jnp.where(is_chance, jnp.int32(CHANCE), observer),
        observation=bit_views.observe(t, kept, observer),
        legal_action_mask=mask,
        rewards=rewards,
        terminated=terminated,
        truncated=jnp.bool_(False),
        is_chance=is_chance,
        _step_count=jnp.asarray(state._step_count + 1, jnp.int32),
        _x=kept,
        env_id=env.id,
    )
    return _select(state.terminated, state.replace(rewards=env._zero_rewards()), out)
