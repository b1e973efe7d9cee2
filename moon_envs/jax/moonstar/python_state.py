"""Moonstar's twin position as the Python engine's state, and back.

The game-specific half of :mod:`moon_envs.jax.python_states`, which checks its inputs
first: ``to_python`` receives one concrete, checked twin position, ``from_python`` a
validated Python state of the twin's own config.

The fields map one to one (the twin's phase integers are the indices of the engine's
``PHASES``), except three:

* the planets still to place: the engine lists them (``planets_to_place``, highest
  first), the twin counts those placed (``planets_placed``; 7 before a round's set-up);
* the engine's caches, rebuilt from the pieces by ``to_python``: ``board`` (the
  observation's seat-independent part), ``play_block`` (during play; zeros otherwise,
  where no rule reads it), ``moons_on_star`` (the unmoved moons on each star: the set-up's
  counts, which only the placing of moons reads) and the player to move;
* the round's optimum for the ``info`` report (``best_total``, with ``solver_info``): the
  twin does not keep it. ``to_python`` leaves it to be solved from the position while no
  move is made yet (auction over, as the engine does), and unknown (``-1``, a report
  without ``best_total``) once moons have moved, since the board the auction ended on is
  gone by then.

A transition's data is not part of a position: ``to_python`` gives no round report and
an empty ``last_action``; a chance node or a finished game from ``from_python`` shows the
view of the high bidder if any (the player of the round moves last), else of the
organizer (who placed the last piece under ``setup="organizer"``).
"""

from __future__ import annotations

import weakref
from typing import Any

import jax
import numpy as np

from moon_envs.core.game import ConfigError
from moon_envs.jax.env import JaxEnv
from moon_envs.jax.moonstar.arrays import SCALARS, MoonstarX
from moon_envs.jax.moonstar.tables import BETS, FAVOURITE, FIRST, MENU, OVER, PLAY
from moon_envs.jax.state import State
from moon_envs.moonstar.constants import PENDING_BEST, PHASES
from moon_envs.moonstar.variants import NUM_STARS

_WRAP: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # env -> jitted state of x
_NONE_TO_PLACE = 7  # the twin's planets_placed before a round's set-up
_INT32 = np.iinfo(np.int32)
_ARRAYS = (
    "points", "planet_value", "landed", "moon_star", "moon_moved", "dice", "die_used",
    "passed", "challengers", "bet_side", "bet_idx", "bet_stake",
)  # fmt: skip
_BOOLS = ("moon_moved", "die_used", "passed", "challengers")


def _planets_in_order(env: JaxEnv, rules_idx: int) -> list[int]:
    """The planets of round rule set ``rules_idx`` in placing order (highest first)."""
    return sorted(env.game.rounds[rules_idx].planets, reverse=True)


def to_python(env: JaxEnv, state: State) -> Any:
    """The Python state of one Moonstar twin position."""
    x = jax.tree.map(np.asarray, state._x)
    s = {name: int(x.scalars[i]) for i, name in enumerate(SCALARS)}
    if bool(state.terminated) and s["phase"] != OVER:
        raise ConfigError(
            "state was ended by bad input (an illegal action or outcome), which the Python "
            "engine has no position for; allowed: a state reached by legal play"
        )
    py = env.game.new_initial_state()
    for name in _ARRAYS:
        setattr(py, name, getattr(x, name))
    for name in SCALARS:
        if name not in ("phase", "planets_placed"):
            setattr(py, name, s[name])
    py.phase = PHASES[s["phase"]]
    py.planets_to_place = _planets_in_order(env, s["rules_idx"])[s["planets_placed"] :]
    unmoved = py.moon_star[(py.moon_star >= 0) & ~py.moon_moved]
    py.moons_on_star = np.bincount(unmoved, minlength=NUM_STARS)
    g = env.game
    play = s["phase"] == PLAY
    block = py.build_play_block() if play else np.zeros(py.play_block.shape, np.int8)
    py.play_block = block
    py.board = py.board_features()
    py.report, py.last_action = None, ""
    py.best_total = -1
    solved_later = s["phase"] in (FAVOURITE, BETS, PLAY) and s["moves_done"] == 0
    if g.config.solver_info and solved_later and s["bidder"] >= 0:
        # as the engine leaves it at the end of the auction: solved when first read
        py.best_total = PENDING_BEST
        py._pending_best = (
            py.rules,
            py.moon_star.tolist(),
            py.dice.tolist(),
            py.planet_value.tolist(),
        )
    py._cache_mask = None
    py.to_act = py._compute_player()
    py.move_number = int(state._step_count)
    return py


def _refuse_unrepresentable(env: JaxEnv, py: Any) -> None:
    """Raise naming the field of a valid Python position the twin cannot hold."""
    order = _planets_in_order(env, py.rules_idx)
    left = list(py.planets_to_place)
    if left and left != order[len(order) - len(left) :]:
        raise ConfigError(
            f"planets_to_place={left} is not the end of the round's planets in placing "
            f"order {order}: the twin keeps only how many are placed; allowed: a suffix of "
            f"{order}"
        )
    for name in ("points", "bet_stake"):
        values = np.asarray(getattr(py, name))
        bad = np.flatnonzero((values < _INT32.min) | (values > _INT32.max))
        if bad.size:
            i = int(bad[0])
            raise ConfigError(
                f"{name}[{i}]={int(values[i])} is out of the twin's int32 range; "
                f"allowed: {_INT32.min}..{_INT32.max}"
            )
    if py.phase in ("planet", "moon"):
        counts = np.bincount(py.moon_star[py.moon_star >= 0], minlength=NUM_STARS)
        if not np.array_equal(counts, py.moons_on_star):
            raise ConfigError(
                f"moons_on_star={py.moons_on_star.tolist()} disagrees with moon_star="
                f"{py.moon_star.tolist()}: the twin counts the moons from their stars; "
                f"allowed: the count of moons on each star"
            )


def from_python(env: JaxEnv, py_state: Any) -> State:
    """The twin state of one Moonstar Python position."""
    _refuse_unrepresentable(env, py_state)
    phase = PHASES.index(py_state.phase)
    order = _planets_in_order(env, py_state.rules_idx)
    if phase in (FIRST, MENU):
        placed = _NONE_TO_PLACE
    else:
        placed = len(order) - len(py_state.planets_to_place)
    scalars = {"phase": phase, "planets_placed": placed}
    scalars.update((k, getattr(py_state, k)) for k in SCALARS if k not in scalars)
    # numpy leaves: the jitted wrap takes them as they are, with no eager jnp dispatch
    x = MoonstarX(
        scalars=np.array([int(scalars[name]) for name in SCALARS], np.int32),
        **{
            name: np.asarray(getattr(py_state, name), bool if name in _BOOLS else np.int32)
            for name in _ARRAYS
        },
    )
    if env not in _WRAP:  # one compile per twin, not one per call
        _WRAP[env] = jax.jit(
            lambda x, seat, steps: env._wrap(x, seat, env._zero_rewards(), steps)
        )
    bidder = py_state.bidder
    seat = bidder if bidder >= 0 else py_state.organizer
    return _WRAP[env](x, np.int32(seat), np.int32(py_state.move_number))

