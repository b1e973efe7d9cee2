"""Star Master's twin position as the Python engine's state, and back.

The game-specific half of :mod:`moon_envs.jax.python_states`, which checks its inputs
first: ``to_python`` receives one concrete, checked twin position, ``from_python`` a
validated Python state of the twin's own config. The twin holds the full position
(the layout of hidden cubes, every seat's window, permutation and memory, the sealed
race choices and the forgetting seed), so the conversion is of the full state.

The Python engine's info-only records (``last_flip``, ``last_race``, ``in_window`` and
the last decision's seat, action and phase) are not part of the twin's position: no
mask, observation, reward or chance probability reads them. ``to_python`` leaves them
empty; ``from_python`` reads only the last deciding seat, whose view a chance node or a
finished game shows (seat 0 where there is none).
"""

from __future__ import annotations

import weakref
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from moon_envs.core.game import ConfigError
from moon_envs.jax.env import JaxEnv
from moon_envs.jax.star_master.tables import END, SMx
from moon_envs.jax.state import State

_WRAP: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # env -> jitted state of x


def to_python(env: JaxEnv, state: State) -> Any:
    """The Python state of one Star Master twin position."""
    x = jax.tree.map(np.asarray, state._x)
    if bool(state.terminated) and int(x.phase) != END:
        raise ConfigError(
            "state was ended by bad input (an illegal action or outcome), which the Python "
            "engine has no position for; allowed: a state reached by legal play"
        )
    py = env.game.new_initial_state()
    py.phase = int(x.phase)
    py.layout = x.layout.astype(np.int8)
    py.setup_index = int(x.setup_index)
    py.seed = int(x.seed)
    py.turn = int(x.turn)
    py.roller = int(x.roller)
    py.mover = int(x.mover)
    py.white = int(x.white)
    py.black_star = int(x.black)
    py.target = int(x.target)
    py.found_slot = int(x.found)
    py.race_choice = x.race_choice.astype(np.int8)
    py.race_next = int(x.race_next)
    py.pawns = x.pawns.astype(np.int8)
    py.held = x.pawns.sum(axis=1).astype(np.float64)
    py.views = np.stack([x.win, x.perm, x.mem], axis=1).astype(np.int64)
    py.winners_list = [int(p) for p in np.flatnonzero(x.winners)]
    py.move_number = int(state._step_count)
    return py


def from_python(env: JaxEnv, py_state: Any) -> State:
    """The twin state of one Star Master Python position."""
    i32 = jnp.int32
    views = np.asarray(py_state.views)
    winners = np.zeros(env.num_players, np.bool_)
    winners[list(py_state.winners_list)] = True
    x = SMx(
        phase=i32(py_state.phase),
        layout=jnp.asarray(py_state.layout, i32),
        setup_index=i32(py_state.setup_index),
        seed=i32(py_state.seed),
        turn=i32(py_state.turn),
        roller=i32(py_state.roller),
        mover=i32(py_state.mover),
        white=i32(py_state.white),
        black=i32(py_state.black_star),
        target=i32(py_state.target),
        found=i32(py_state.found_slot),
        race_choice=jnp.asarray(py_state.race_choice, i32),
        race_next=i32(py_state.race_next),
        pawns=jnp.asarray(py_state.pawns, jnp.bool_),
        win=jnp.asarray(views[:, 0], i32),
        perm=jnp.asarray(views[:, 1], i32),
        mem=jnp.asarray(views[:, 2], i32),
        winners=jnp.asarray(winners),
    )
    if env not in _WRAP:  # one compile per twin, not one per call
        _WRAP[env] = jax.jit(
            lambda x, seat, steps: env._wrap(x, seat, env._zero_rewards(), steps)
        )
    seat = i32(max(py_state.last_seat, 0))
    return _WRAP[env](x, seat, i32(py_state.move_number))
