"""A twin's position as the Python engine's state, and back (Jupiter).

``to_python(env, state)`` gives the Python ``State`` of one twin position (its game is
``env.game``, so the Python engine plays on, renders it or explains it);
``from_python(env, py_state)`` gives the twin ``State`` of a Python position, ready for
``env.step``. Both keep everything the rules read: the board, the pieces in hand, the
scores, the seat to move, the stage, the die waiting to be placed and the move count.
A transition's data is not part of a position: the twin state from ``from_python`` has
zero ``rewards``, and the Python state from ``to_python`` has no last move
(``last_action`` is empty, and its score and win rewards start from this position).

Both run outside ``jit`` on one concrete position and refuse anything else with a
:class:`~moon_envs.ConfigError` naming it: a batch, a position the Python engine cannot
hold (one that bad input ended in the twin), a state of another game or config. The
Python state is checked by its own ``validate`` before it is returned.
"""

from __future__ import annotations

import weakref
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from moon_envs.core.game import ConfigError
from moon_envs.jax import inputs
from moon_envs.jax.env import JaxEnv
from moon_envs.jax.state import State
from moon_envs.jupiter.config import STAGES

_CONVERTIBLE = ("jupiter_v0",)
_OVER = STAGES.index("over")
_WRAP: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # env -> jitted state of x


def to_python(env: JaxEnv, state: State) -> Any:
    """The Python engine's state of the single twin position ``state`` (see the module
    docstring)."""
    _check_env(env)
    if not inputs.is_concrete(state):
        raise ConfigError("state must hold concrete values: call to_python outside jax.jit")
    inputs.check_state(env, state, single=True)
    x = jax.tree.map(np.asarray, state._x)
    if bool(state.terminated) and int(x.stage) != _OVER:
        raise ConfigError(
            "state was ended by bad input (an illegal action or outcome), which the Python "
            "engine has no position for; allowed: a state reached by legal play"
        )
    py = env.game.new_initial_state()
    py.cell = x.cell
    py.empty_cells = int((x.cell == 0).sum())
    py.probes_left = x.probes_left
    py.dice_left = int(x.dice_left)
    py.points = x.points
    py.player = int(x.player)
    py.rolled = int(x.rolled)
    py.stage = STAGES[int(x.stage)]
    py.move_number = int(state._step_count)
    py.validate()
    return py


def from_python(env: JaxEnv, py_state: Any) -> State:
    """The twin state of the Python position ``py_state`` (see the module docstring)."""
    _check_env(env)
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
    x = type(env._initial_x())(
        cell=jnp.asarray(py_state.cell, jnp.int8),
        probes_left=jnp.asarray(py_state.probes_left, jnp.int32),
        dice_left=jnp.int32(py_state.dice_left),
        points=jnp.asarray(py_state.points, jnp.int32),
        player=jnp.int32(py_state.player),
        rolled=jnp.int32(py_state.rolled),
        stage=jnp.int32(STAGES.index(py_state.stage)),
    )
    if env not in _WRAP:  # one compile per twin, not one per call
        _WRAP[env] = jax.jit(lambda x, steps: env._wrap(x, x.player, env._zero_rewards(), steps))
    return _WRAP[env](x, jnp.int32(py_state.move_number))


def _check_env(env: JaxEnv) -> None:
    if getattr(env, "id", None) not in _CONVERTIBLE:
        raise ConfigError(
            f"env {getattr(env, 'id', env)!r} has no conversion to Python states; "
            f"allowed: the twins of {list(_CONVERTIBLE)}"
        )
