"""A twin's position as the Python engine's state, and back.

``to_python(env, state)`` gives the Python ``State`` of one twin position (its game is
``env.game``, so the Python engine plays on, renders it or explains it);
``from_python(env, py_state)`` gives the twin ``State`` of a Python position, ready for
``env.step``, and ``from_python_many(env, py_states)`` several, batched. Both ways keep
everything the rules read: the board, the pieces in hand, the scores, the seat to move,
the stage, the die waiting to be placed and the move count.
A transition's data is not part of a position: the twin state from ``from_python`` has
zero ``rewards``, and the Python state from ``to_python`` has no last move
(``last_action`` is empty, and its score and win rewards start from this position).

Each convertible twin has its own module, listed in ``CONVERTERS`` (env id -> module
with ``to_python(env, state)`` and ``from_python(env, py_state)``, and
``from_python_many(env, py_states)`` where it builds positions in numpy and computes a
batch's views in one compiled call); this module checks the inputs for all of them.

Both run outside ``jit`` on one concrete position and refuse anything else with a
:class:`~moon_envs.ConfigError` naming it: a batch, a position the Python engine cannot
hold (one that bad input ended in the twin), a state of another game or config. The
Python state is checked by its own ``validate`` before it is returned.
"""

from __future__ import annotations

import importlib
from typing import Any

import jax
import numpy as np

from moon_envs.core.game import ConfigError
from moon_envs.jax import inputs
from moon_envs.jax.env import JaxEnv
from moon_envs.jax.state import State

CONVERTERS = {
    "jupiter_v0": "moon_envs.jax.jupiter_python_state",
    "moon_harvesters_v0": "moon_envs.jax.moon_harvesters.python_state",
    "moonstar_v1": "moon_envs.jax.moonstar.python_state",
    "moonwakers_v1": "moon_envs.jax.moonwakers.python_state",
    "star_master_v0": "moon_envs.jax.star_master.python_state",
}
"""Env id -> the module converting that twin's positions."""


def to_python(env: JaxEnv, state: State) -> Any:
    """The Python engine's state of the single twin position ``state`` (see the module
    docstring)."""
    _check_env(env)
    if not inputs.is_concrete(state):
        raise ConfigError("state must hold concrete values: call to_python outside jax.jit")
    inputs.check_state(env, state, single=True)
    py = _converter(env).to_python(env, state)
    py.validate()
    return py


def from_python(env: JaxEnv, py_state: Any) -> State:
    """The twin state of the Python position ``py_state`` (see the module docstring)."""
    _check_env(env)
    _check_python_state(env, py_state)
    return _converter(env).from_python(env, py_state)


def _check_python_state(env: JaxEnv, py_state: Any) -> None:
    if not isinstance(py_state, env.game.state_class):
        raise ConfigError(
            f"py_state must be a {env.game.state_class.__name__} of {env.id}, got "
            f"{type(py_state).__name__}"
        )
    if py_state.game.params() != env.game.params():
        raise ConfigError(
            f"py_state's game has config {py_state.game.params()}, the twin "
            f"{env.game.params()}; allowed: a state of the twin's own config"
        )
    py_state.validate()


def from_python_many(env: JaxEnv, py_states: list[Any]) -> State:
    """The twin states of several Python positions, stacked on a leading axis in the
    list's order, each checked as :func:`from_python` checks one. A twin whose converter
    builds positions in numpy (``converts_many``: Moonwakers) computes them in one
    compiled call; the others convert each position and stack the results."""
    _check_env(env)
    py_states = list(py_states)
    if not py_states:
        raise ConfigError("py_states must hold at least one position, got none")
    for py_state in py_states:
        _check_python_state(env, py_state)
    converter = _converter(env)
    if converts_many(env):
        return converter.from_python_many(env, py_states)
    states = [converter.from_python(env, py_state) for py_state in py_states]
    return jax.tree.map(lambda *leaves: np.stack(leaves), *states)


def converts_many(env: JaxEnv) -> bool:
    """Whether ``env``'s converter batches :func:`from_python_many` in one compiled call
    (converting each position costs little more than checking it)."""
    _check_env(env)
    return hasattr(_converter(env), "from_python_many")


def _converter(env: JaxEnv) -> Any:
    return importlib.import_module(CONVERTERS[env.id])


def _check_env(env: JaxEnv) -> None:
    if getattr(env, "id", None) not in CONVERTERS:
        raise ConfigError(
            f"env {getattr(env, 'id', env)!r} has no conversion to Python states; "
            f"allowed: the twins of {sorted(CONVERTERS)}"
        )
