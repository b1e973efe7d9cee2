"""Moon Harvesters' twin position as the Python engine's state, and back.

The game-specific half of :mod:`moon_envs.jax.python_states`, which checks its inputs
first: ``to_python`` receives one concrete, checked twin position, ``from_python`` a
validated Python state of the twin's own config.

The fields map one to one (the twin's phase integers are the indices of the engine's
``ALL_PHASES``), the board's cells through its row words; the engine's ``fits`` flags are
the twin's "still fits" words (:func:`~moon_envs.jax.moon_harvesters.board.anchors`)
unpacked kind by kind. The engine's seat-0 observation ``feat`` is
rebuilt from the fields, and its caches by its own ``validate``.
"""

from __future__ import annotations

import weakref
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from moon_envs.core.game import ConfigError
from moon_envs.jax.env import JaxEnv
from moon_envs.jax.moon_harvesters import board
from moon_envs.jax.moon_harvesters.tables import OVER
from moon_envs.jax.moon_harvesters.twin import HarvestersX
from moon_envs.jax.state import State
from moon_envs.moon_harvesters.constants import ALL_PHASES

_WRAP: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # env -> jitted state of x


def to_python(env: JaxEnv, state: State) -> Any:
    """The Python state of one Moon Harvesters twin position."""
    x = jax.tree.map(np.asarray, state._x)
    if bool(state.terminated) and int(x.phase) != OVER:
        raise ConfigError(
            "state was ended by bad input (an illegal action), which the Python engine has "
            "no position for; allowed: a state reached by legal play"
        )
    t = env.tables
    py = env.game.new_initial_state()
    owner, crater, deposit = (np.asarray(a) for a in board.board_cells(t, x.board))
    py.owner = owner
    py.piece = x.piece
    py.crater = crater
    py.deposit = deposit
    flags = [board.unpack_placements(t, words) for words in board.anchors(t, x.board)]
    py.fits = np.concatenate([np.asarray(f) for f in flags] + [np.zeros(1, bool)])
    py.kind_of = x.kind_of
    py.on_offer = x.on_offer
    py.crater_pool = int(x.crater_pool)
    py.craters_held = x.craters_held
    py.placed = x.placed
    py.collected = x.collected
    py.supply = int(x.supply)
    py.phase = ALL_PHASES[int(x.phase)]
    py.player = int(x.player)
    py.deposits_due = int(x.due)
    py.passes = int(x.passes)
    py.move_number = int(state._step_count)
    py.feat = py._build_observation(0)
    return py


def from_python(env: JaxEnv, py_state: Any) -> State:
    """The twin state of one Moon Harvesters Python position."""
    t = env.tables
    cells = (np.asarray(py_state.owner), py_state.crater, py_state.deposit)
    x = HarvestersX.of(
        board=board.pack_board(t, *cells),
        piece=jnp.asarray(py_state.piece, jnp.int16),
        kind_of=jnp.asarray(py_state.kind_of, jnp.int32),
        on_offer=jnp.asarray(py_state.on_offer, jnp.bool_),
        crater_pool=jnp.int32(py_state.crater_pool),
        craters_held=jnp.asarray(py_state.craters_held, jnp.int32),
        placed=jnp.asarray(py_state.placed, jnp.int32),
        collected=jnp.asarray(py_state.collected, jnp.int32),
        supply=jnp.int32(py_state.supply),
        phase=jnp.int32(ALL_PHASES.index(py_state.phase)),
        player=jnp.int32(py_state.player),
        due=jnp.int32(py_state.deposits_due),
        passes=jnp.int32(py_state.passes),
    )
    if env not in _WRAP:  # one compile per twin, not one per call
        _WRAP[env] = jax.jit(lambda x, steps: env._wrap(x, x.player, env._zero_rewards(), steps))
    return _WRAP[env](x, jnp.int32(py_state.move_number))
