"""Checks of what a JAX twin's functions are given: actions, chance outcomes and states.

A twin's ``step``, ``apply_action``, ``apply_chance`` and ``resolve_chance`` call these
checks on every input whose values are known, that is outside ``jax.jit`` and
``jax.vmap`` (a concrete array, not a tracer). A bad input raises a ``ValueError``
subclass naming the argument, the value and what is allowed, and nothing is computed:

* an action or an outcome that is not an integer (a float, a string, a bool, an array of a
  non-integer dtype) is :class:`~moon_envs.IllegalActionError`. The dtype is known even
  under ``jit``, so this one check also runs there, at trace time;
* an action outside ``0..num_actions - 1``, an outcome outside
  ``0..num_chance_outcomes - 1`` or with probability 0 in the position, an action at a
  chance node and an outcome where no chance event is pending are
  :class:`~moon_envs.IllegalActionError`;
* a state that is not a position of the twin (``current_player`` outside its seats, flags
  that contradict each other or the position in ``state._x``, a batch where one position
  is expected) is :class:`~moon_envs.ConfigError`.

Under ``jit`` the values are unknown and nothing here runs (the checks cost nothing in
compiled code); the twin then ends the game instead, as ``docs/jax.md`` describes. The
public ``JaxEnv.check_state`` / ``check_action`` / ``check_outcome`` run the same checks
on a whole batch, naming the lane, before it is handed to a jitted, vmapped call.
"""

from __future__ import annotations

from typing import Any

import jax
import numpy as np

from moon_envs.core.errors import ConfigError, IllegalActionError
from moon_envs.core.snapshot import quote
from moon_envs.core.spec import CHANCE, TERMINAL

def is_concrete(tree: Any) -> bool:
    """Whether every array in ``tree`` has known values (no ``jit`` or ``vmap`` tracer)."""
    return not any(isinstance(leaf, jax.core.Tracer) for leaf in jax.tree.leaves(tree))


def check_integer_type(field: str, value: Any, high: int) -> None:
    """Raise unless ``value`` is an integer (a Python int, a numpy integer, an array of an
    integer dtype). Reads only the type and dtype, so it also runs on tracers."""
    allowed = f"an integer in 0..{high - 1}" if high > 0 else "none (no value is allowed)"
    if isinstance(value, (str, bytes, bool, np.bool_)):
        raise IllegalActionError(
            f"{field} must be {allowed}, got {type(value).__name__} {quote(value)}"
        )
    if isinstance(value, int):
        return
    dtype = getattr(value, "dtype", None)
    if dtype is None:
        try:
            dtype = np.asarray(value).dtype
        except Exception:  # an object numpy cannot read is no integer either
            dtype = np.dtype(object)
    if np.dtype(dtype).kind not in "iu":
        if not hasattr(value, "dtype"):  # a Python float, list, ...
            got = f"{type(value).__name__} {quote(value)}"
        elif isinstance(value, jax.core.Tracer):  # under jit: only the dtype is known
            got = f"a traced array of dtype {dtype}"
        else:
            got = f"{type(value).__name__} of dtype {dtype} {quote(np.asarray(value))}"
        raise IllegalActionError(f"{field} must be {allowed}, got {got}")


def integer_values(field: str, value: Any, shape: tuple[int, ...], high: int) -> np.ndarray:
    """``value`` (already of an integer type) as a numpy array of ``shape``, every lane in
    ``0..high - 1``; otherwise raise naming the first bad lane."""
    if type(value) is int and not -(2**63) <= value < 2**63:
        raise IllegalActionError(f"{field}={quote(value)} is out of range; allowed: 0..{high - 1}")
    values = np.asarray(value)
    if values.shape != shape:
        what = "one integer" if shape == () else f"one integer per game, shape {shape}"
        raise IllegalActionError(f"{field} must be {what}, got shape {values.shape}")
    bad = (values < 0) | (values >= high)
    if bad.any():
        lane = tuple(int(i) for i in np.argwhere(bad)[0])
        allowed = f"0..{high - 1}" if high > 0 else "none (no value is allowed)"
        raise IllegalActionError(
            f"{field}{_lane(lane)}={int(values[lane])} is out of range; allowed: {allowed}"
        )
    return values


def check_state(env: Any, state: Any, single: bool = False) -> None:
    """Raise :class:`ConfigError` unless every position in ``state`` (one, or a batch with
    leading axes) is one the twin can reach. ``single``: refuse a batch."""
    current = np.asarray(state.current_player)
    chance = np.asarray(state.is_chance)
    over = np.asarray(state.terminated)
    if single and current.ndim:
        raise ConfigError(
            f"state must be one position, got a batch of shape {current.shape}; "
            f"use jax.vmap over the twin's function for a batch"
        )
    if chance.shape != current.shape or over.shape != current.shape:
        raise ConfigError(
            f"state.current_player, state.is_chance and state.terminated must have one shape, "
            f"got {current.shape}, {chance.shape} and {over.shape}"
        )
    n = env.num_players
    at_seat = (current >= 0) & (current < n) & ~chance
    at_chance = (current == CHANCE) & chance & ~over
    bad = ~(at_seat | at_chance)
    if bad.any():
        lane = tuple(int(i) for i in np.argwhere(bad)[0])
        raise ConfigError(
            f"state{_lane(lane)} is not a position of {env.id} with {n} players: "
            f"current_player={int(current[lane])}, is_chance={bool(chance[lane])}, "
            f"terminated={bool(over[lane])}; allowed: current_player in 0..{n - 1} with "
            f"is_chance=False, or current_player={CHANCE} with is_chance=True and "
            f"terminated=False"
        )
    to_move = np.asarray(_over_lanes(env._player, current.ndim)(state._x))
    # A game ended by an illegal action keeps its last position, so only a running game's
    # flags must agree with the position itself.
    wrong = ~over & (to_move != current)
    if wrong.any():
        lane = tuple(int(i) for i in np.argwhere(wrong)[0])
        raise ConfigError(
            f"state{_lane(lane)} contradicts its own position: current_player="
            f"{int(current[lane])} but in state._x {_describe_player(int(to_move[lane]))}; "
            f"keep the fields the twin returned together"
        )


def check_action_call(
    env: Any, state: Any, action: Any, call: str, single: bool = True
) -> None:
    """The checks of ``step`` / ``apply_action`` (``call``) on whatever is concrete;
    ``single=False`` takes a batch (one action per lane)."""
    check_integer_type("action", action, env.num_actions)
    state_known = is_concrete(state)
    if state_known:
        check_state(env, state, single=single)
    if is_concrete(action):
        integer_values("action", action, tuple(state.current_player.shape), env.num_actions)
        if state_known:
            check_player_to_move(state, call)


def check_player_to_move(state: Any, call: str) -> None:
    """Raise unless a player (not chance) is to move, or the game is over, in every lane."""
    chance = np.asarray(state.is_chance)
    if chance.any():
        lane = tuple(int(i) for i in np.argwhere(chance)[0])
        raise IllegalActionError(
            f"{call} needs a player to move, but state{_lane(lane)} is a chance node "
            f"(is_chance=True); resolve it with apply_chance(state, outcome) or "
            f"resolve_chance(state, key)"
        )


def check_outcome_call(env: Any, state: Any, outcome: Any, single: bool = True) -> None:
    """The checks of ``apply_chance`` on whatever is concrete; ``single=False`` takes a
    batch (one outcome per lane)."""
    size = env.num_chance_outcomes
    check_integer_type("outcome", outcome, size)
    state_known = is_concrete(state)
    if state_known:
        check_state(env, state, single=single)
    if not is_concrete(outcome):
        return
    shape = tuple(state.current_player.shape)
    if state_known:
        check_chance_pending(state)
    values = integer_values("outcome", outcome, shape, size)
    if state_known:
        check_possible(env, state, values)


def check_chance_pending(state: Any) -> None:
    """Raise unless a chance event is pending in every lane."""
    chance = np.asarray(state.is_chance)
    if not chance.all():
        lane = tuple(int(i) for i in np.argwhere(~chance)[0])
        if bool(np.asarray(state.terminated)[lane]):
            where = "the game is over (terminated=True)"
        else:
            where = f"player {int(np.asarray(state.current_player)[lane])} is to move"
        raise IllegalActionError(
            f"apply_chance needs a pending chance event (is_chance=True), but in "
            f"state{_lane(lane)} {where}; use step or apply_action for a player's action"
        )


def check_possible(env: Any, state: Any, outcomes: np.ndarray) -> None:
    """Raise unless each lane's outcome has a non-zero probability in its position."""
    probs = np.asarray(_over_lanes(env._chance_probs, outcomes.ndim)(state._x))
    chosen = np.take_along_axis(probs, outcomes[..., None].astype(np.int64), axis=-1)[..., 0]
    impossible = ~(chosen > 0)
    if impossible.any():
        lane = tuple(int(i) for i in np.argwhere(impossible)[0])
        possible = np.flatnonzero(probs[lane] > 0).tolist()
        shown = possible if len(possible) <= 50 else [*possible[:50], "..."]
        raise IllegalActionError(
            f"outcome{_lane(lane)}={int(outcomes[lane])} has probability 0 in this position; "
            f"possible outcomes: {shown} (see chance_probs(state))"
        )


def _over_lanes(fn: Any, batch_axes: int) -> Any:
    """``fn`` of one position, applied to every lane of ``batch_axes`` leading axes."""
    for _ in range(batch_axes):
        fn = jax.vmap(fn)
    return fn


def _lane(lane: tuple[int, ...]) -> str:
    """``[3]`` for lane 3 of a batch, nothing for a single position."""
    return f"[{', '.join(str(i) for i in lane)}]" if lane else ""


def _describe_player(player: int) -> str:
    if player == CHANCE:
        return "a chance event is pending"
    if player == TERMINAL:
        return "the game is over"
    return f"player {player} is to move"
