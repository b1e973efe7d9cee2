"""Jupiter's twin position as the Python engine's state, and back.

The game-specific half of :mod:`moon_envs.jax.python_states`, which checks its inputs
first: ``to_python`` receives one concrete, checked twin position, ``from_python`` a
validated Python state of the twin's own config.
"""

from __future__ import annotations

import weakref
from typing import Any

import jax
import numpy as np

from moon_envs.core.game import ConfigError
from moon_envs.jax.env import JaxEnv
from moon_envs.jax.jupiter import JupiterX
from moon_envs.jax.state import State
from moon_envs.jupiter.config import STAGES

_OVER = STAGES.index("over")
_WRAP: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # env -> jitted state of x


def to_python(env: JaxEnv, state: State) -> Any:
    """The Python state of one Jupiter twin position."""
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
    return py


def from_python(env: JaxEnv, py_state: Any) -> State:
    """The twin state of one Jupiter Python position."""
    # numpy leaves: the jitted wrap takes them as they are, with no eager jnp dispatch
    x = JupiterX(
        cell=np.asarray(py_state.cell, np.int8),
        probes_left=np.asarray(py_state.probes_left, np.int32),
        dice_left=np.int32(py_state.dice_left),
        points=np.asarray(py_state.points, np.int32),
        player=np.int32(py_state.player),
        rolled=np.int32(py_state.rolled),
        stage=np.int32(STAGES.index(py_state.stage)),
    )
    if env not in _WRAP:  # one compile per twin, not one per call
        _WRAP[env] = jax.jit(lambda x, steps: env._wrap(x, x.player, env._zero_rewards(), steps))
    return _WRAP[env](x, np.int32(py_state.move_number))
