"""What a JAX-trainer run would allocate, estimated from its config and twin at validation.

:func:`budget_problems` refuses, before any run folder is made, a network above the
weight files' parameter cap (:data:`~moon_agents.net_weights.MAX_PARAMETERS`), a
Gumbel top-k (``max_considered_actions``) above the twin's action count, and a run
whose estimated arrays exceed :func:`~moon_agents.training.memory.memory_limit`. The
estimate adds up:

* ``alphazero``: the replay buffer (``replay_size`` x (observation + policy + value)
  float32 on the host), the search tree (``games`` x (``simulations`` + 1) nodes, each
  six ``num_actions`` arrays of children statistics and the twin's state; mctx's tree,
  counted twice for the copies a search loop keeps), mctx's sequential-halving visit
  schedule (``max_considered_actions`` + 1 rows of ``simulations`` entries, built as
  Python tuples when the search is traced), the self-play window (``unroll`` x
  ``games`` records, on the device and on the host), the network with its gradients and
  AdamW state, and the SGD batch's activations;
* ``imitation``: the kept positions (``max_positions`` x (observation float32, mask and
  target bytes), twice while a round joins them), the network with its Adam state and
  the SGD batch;
* ``jax_ppo``: the rollout window (``num_envs`` x ``num_steps`` records, three copies:
  the rollout, the flattened window and its shuffled minibatches), the network with its
  Adam state and the ``pool_size`` frozen snapshots, the snapshots' forward pass over
  the batch at each step, and a minibatch's activations.

Measured against a real run, the estimate comes within a small factor of the memory the
arrays take (docs/training.md); it leaves out the interpreter and compiled code.
"""

from __future__ import annotations

import math
from typing import Any

from moon_agents.net_weights import MAX_PARAMETERS
from moon_agents.training.memory import (
    FLOAT,
    MemoryPart,
    memory_problems,
    mlp_parameters,
    training_copies,
)

TREE_COPIES = 2
"""Copies of the search tree a search keeps at once (the loop's carry and its update)."""


def budget_problems(algorithm: Any, twin: Any) -> list[str]:
    """``field: why`` lines for a network over the parameter cap and a run that would not
    fit in memory (``algorithm`` a valid ``alphazero`` or ``jax_ppo`` section), and for
    ``alphazero`` a ``max_considered_actions`` above the twin's action count."""
    obs, actions = math.prod(twin.observation_shape), twin.num_actions
    params = mlp_parameters(obs, algorithm.hidden, [actions, 1])
    problems = []
    considered = getattr(algorithm, "max_considered_actions", 2)
    if considered > actions:
        problems.append(
            f"algorithm.max_considered_actions: {considered} is more than the "
            f"{actions} actions of the twin (the search never considers more than the "
            f"legal ones); allowed: 2..{actions}"
        )
    if params > MAX_PARAMETERS:
        problems.append(
            f"algorithm.hidden: the network would have {params:,} parameters ({obs} inputs, "
            f"hidden {algorithm.hidden}, {actions} actions); allowed: at most "
            f"{MAX_PARAMETERS:,}; use fewer or narrower layers"
        )
    if algorithm.name == "alphazero":
        parts = alphazero_parts(algorithm, obs, actions, state_bytes(twin), params)
    elif algorithm.name == "imitation":
        parts = imitation_parts(algorithm, obs, actions, params)
    else:
        parts = jax_ppo_parts(algorithm, obs, actions, state_bytes(twin), params)
    return problems + memory_problems(parts)


def state_bytes(twin: Any) -> int:
    """Bytes of one position of ``twin`` (traced abstractly: nothing is allocated)."""
    import jax

    shapes = jax.eval_shape(twin.init, jax.random.key(0))
    return sum(math.prod(x.shape) * x.dtype.itemsize for x in jax.tree.leaves(shapes))


def alphazero_parts(a: Any, obs: int, actions: int, state: int, params: int) -> list[MemoryPart]:
    """The large arrays of an ``alphazero`` run (see the module docstring)."""
    sample = obs + actions + 1
    nodes = a.games * (a.simulations + 1)
    per_node = 6 * actions * FLOAT + 5 * FLOAT + state
    window = a.unroll * a.games
    record = obs + actions + 5
    width = 2 * sum(a.hidden)
    table = (min(a.max_considered_actions, actions) + 1) * a.simulations
    return [
        MemoryPart(
            ("algorithm.replay_size",),
            f"replay buffer: replay_size {a.replay_size} x {sample} float32",
            a.replay_size * sample * FLOAT,
        ),
        MemoryPart(
            ("algorithm.simulations", "algorithm.games"),
            f"search tree: games*(simulations+1) {nodes} nodes x {per_node} bytes, "
            f"{TREE_COPIES} copies",
            TREE_COPIES * nodes * per_node,
        ),
        MemoryPart(
            ("algorithm.simulations", "algorithm.max_considered_actions"),
            f"visit schedule: (max_considered_actions+1)*simulations {table} entries, built "
            "in Python by mctx (about 16 bytes each)",
            16 * table,
        ),
        MemoryPart(
            ("algorithm.unroll", "algorithm.games"),
            f"self-play window: unroll*games {window} x {record} float32, device and host",
            2 * window * record * FLOAT,
        ),
        MemoryPart(
            ("algorithm.hidden",),
            f"network: {params:,} parameters with gradients and AdamW state",
            training_copies(params),
        ),
        MemoryPart(
            ("algorithm.batch_size",),
            f"SGD batch: batch_size {a.batch_size} x {sample + width} float32, 3 copies",
            3 * a.batch_size * (sample + width) * FLOAT,
        ),
    ]


def imitation_parts(a: Any, obs: int, actions: int, params: int) -> list[MemoryPart]:
    """The large arrays of an ``imitation`` run (see the module docstring)."""
    record = obs * FLOAT + 2 * actions + 1  # observation, mask and target (bool), outcome
    width = 2 * sum(a.hidden)
    return [
        MemoryPart(
            ("algorithm.max_positions",),
            f"kept positions: max_positions {a.max_positions} x {record} bytes, 2 copies "
            "(while a round's games join them)",
            2 * a.max_positions * record,
        ),
        MemoryPart(
            ("algorithm.hidden",),
            f"network: {params:,} parameters with gradients and Adam state",
            training_copies(params),
        ),
        MemoryPart(
            ("algorithm.batch_size",),
            f"SGD batch: batch_size {a.batch_size} x {2 * obs + actions + width} float32, "
            "3 copies",
            3 * a.batch_size * (2 * obs + actions + width) * FLOAT,
        ),
    ]


def jax_ppo_parts(a: Any, obs: int, actions: int, state: int, params: int) -> list[MemoryPart]:
    """The large arrays of a ``jax_ppo`` run (see the module docstring)."""
    window = a.num_envs * a.num_steps
    record = obs * FLOAT + actions + 12 * FLOAT  # observation, legal mask (bool), scalars
    slots = max(a.pool_size, 1)
    minibatch = window // a.num_minibatches
    width = 2 * sum(a.hidden)
    return [
        MemoryPart(
            ("algorithm.num_steps", "algorithm.num_envs"),
            f"rollout window: num_envs*num_steps {window} x {record} bytes, 3 copies",
            3 * window * record,
        ),
        MemoryPart(
            ("algorithm.hidden", "algorithm.pool_size"),
            f"network: {params:,} parameters with gradients, Adam state and {slots} "
            "pool snapshot(s)",
            training_copies(params) + slots * params * FLOAT,
        ),
        MemoryPart(
            ("algorithm.pool_size", "algorithm.num_envs"),
            f"snapshots' forward pass: pool_size*num_envs {slots * a.num_envs} x "
            f"{sum(a.hidden) + actions} float32",
            slots * a.num_envs * (sum(a.hidden) + actions) * FLOAT,
        ),
        MemoryPart(
            ("algorithm.num_minibatches",),
            f"minibatch: {minibatch} x {obs + actions + width} float32, 3 copies",
            3 * minibatch * (obs + actions + width) * FLOAT,
        ),
        MemoryPart(
            ("algorithm.num_envs",),
            f"games: num_envs {a.num_envs} x {state} bytes, 3 copies",
            3 * a.num_envs * state,
        ),
    ]
