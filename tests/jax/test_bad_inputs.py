"""What the JAX twins do with input that cannot happen in a game.

Outside ``jit`` (known values) a bad action, outcome or state is refused with an error
naming it; under ``jit`` the game ends the documented way and never reaches a position
that cannot happen. Each twin is compiled once per function (default parameters).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

jax = pytest.importorskip("jax")

import jax.numpy as jnp  # noqa: E402

import moon_envs.jax as mj  # noqa: E402
from moon_envs import ConfigError, IllegalActionError  # noqa: E402
from moon_envs.jax.inputs import check_action_call  # noqa: E402

ACTION_TWINS = ["jupiter_v0", "star_master_v0"]  # both have chance nodes to act at
CHANCE_TWINS = ["jupiter_v0", "star_master_v0", "moonstar_v1"]  # every twin with chance
KEY = jax.random.PRNGKey(0)


@dataclass
class Twin:
    """A twin, its jitted functions and two real positions: a chance node and a seat to
    move (with one legal and one illegal in-range action there)."""

    env: mj.JaxEnv
    act: Any  # jax.jit(env.apply_action)
    chance: Any  # jax.jit(env.apply_chance)
    at_chance: mj.State
    at_seat: mj.State
    legal: int
    illegal: int


_TWINS: dict[str, Twin] = {}


def _twin(env_id: str) -> Twin:
    if env_id not in _TWINS:
        env = mj.make(env_id)
        chance = jax.jit(env.apply_chance)
        at_chance = env.initial_state()
        assert bool(at_chance.is_chance)
        state = at_chance
        while bool(state.is_chance):  # the likeliest outcomes until a seat is to move
            state = chance(state, jnp.argmax(env.chance_probs(state)).astype(jnp.int32))
        mask = np.asarray(state.legal_action_mask)
        _TWINS[env_id] = Twin(
            env=env,
            act=jax.jit(env.apply_action),
            chance=chance,
            at_chance=at_chance,
            at_seat=state,
            legal=int(np.flatnonzero(mask)[0]),
            illegal=int(np.flatnonzero(~mask)[0]),
        )
    return _TWINS[env_id]


def _call(env: mj.JaxEnv, name: str) -> Any:
    """``env.step`` (with a key) or ``env.apply_action``, as ``f(state, action)``."""
    if name == "step":
        return lambda state, action: env.step(state, action, KEY)
    return env.apply_action


def _assert_ended_at_a_seat(env: mj.JaxEnv, out: mj.State, rewards: list[float]) -> None:
    """The game is over, with ``rewards``, at a position that can happen."""
    assert bool(out.terminated) and not bool(out.is_chance)
    assert 0 <= int(out.current_player) < env.num_players
    assert bool(np.asarray(out.legal_action_mask).all())
    np.testing.assert_array_equal(np.asarray(out.rewards), np.asarray(rewards, np.float32))
    env.check_state(out)  # the ended state is itself a position the checks accept


# ---- outside jit: refused ---------------------------------------------------------------


@pytest.mark.parametrize("call", ["step", "apply_action"])
@pytest.mark.parametrize("env_id", ACTION_TWINS)
def test_actions_that_are_not_integers_in_range_are_refused(env_id: str, call: str) -> None:
    t = _twin(env_id)
    n, a = t.env.num_actions, t.legal
    allowed = f"0..{n - 1}"
    bad = [
        (a + 0.7, "float"),
        (float(a), "float"),
        (str(a), "str"),
        (True, "bool"),
        (np.bool_(True), "bool"),
        (np.float32(a), "float32"),
        (jnp.asarray(a, jnp.float32), "float32"),
        (jnp.asarray(True), "bool"),
    ]
    for value, word in bad:
        with pytest.raises(IllegalActionError, match=allowed) as err:
            _call(t.env, call)(t.at_seat, value)
        assert "action must be an integer" in str(err.value) and word in str(err.value)
    for value in [np.int64(2**32 + a), n, -1, 10**30, np.uint64(2**63)]:
        with pytest.raises(IllegalActionError, match=f"action={int(value)} is out of range"):
            _call(t.env, call)(t.at_seat, value)
    with pytest.raises(IllegalActionError, match=r"one integer, got shape \(1,\)"):
        _call(t.env, call)(t.at_seat, [a])


@pytest.mark.parametrize("call", ["step", "apply_action"])
@pytest.mark.parametrize("env_id", ACTION_TWINS)
def test_acting_at_a_chance_node_is_refused(env_id: str, call: str) -> None:
    t = _twin(env_id)
    with pytest.raises(IllegalActionError, match=f"{call} needs a player to move.*chance node"):
        _call(t.env, call)(t.at_chance, 0)


@pytest.mark.parametrize("env_id", ACTION_TWINS)
def test_states_that_are_not_positions_are_refused(env_id: str) -> None:
    t = _twin(env_id)
    env, n = t.env, t.env.num_players
    seat = int(t.at_seat.current_player)
    broken = {
        "current_player=7": t.at_seat.replace(current_player=jnp.int32(7)),
        "current_player=-3": t.at_seat.replace(current_player=jnp.int32(-3)),
        "is_chance=True": t.at_seat.replace(is_chance=jnp.bool_(True)),  # a seat, yet chance
        "is_chance=False": t.at_chance.replace(is_chance=jnp.bool_(False)),
    }
    for words, state in broken.items():
        for call in (
            lambda s: env.step(s, t.legal, KEY),
            lambda s: env.apply_action(s, t.legal),
            lambda s: env.apply_chance(s, 0),
            lambda s: env.resolve_chance(s, KEY),
        ):
            with pytest.raises(ConfigError, match=f"not a position of {env_id}") as err:
                call(state)
            assert words in str(err.value) and f"0..{n - 1}" in str(err.value)
    # a seat that is not the one the position says is to move
    other = t.at_seat.replace(current_player=jnp.int32((seat + 1) % n))
    with pytest.raises(ConfigError, match=f"player {seat} is to move"):
        env.step(other, t.legal, KEY)
    # a batch where one position is expected
    batch = jax.tree.map(lambda leaf: jnp.stack([leaf, leaf]), t.at_seat)
    with pytest.raises(ConfigError, match=r"one position, got a batch of shape \(2,\)"):
        env.apply_action(batch, jnp.asarray([t.legal, t.legal]))


@pytest.mark.parametrize("env_id", CHANCE_TWINS)
def test_impossible_chance_outcomes_are_refused(env_id: str) -> None:
    t = _twin(env_id)
    env, size = t.env, t.env.num_chance_outcomes
    probs = np.asarray(env.chance_probs(t.at_chance))
    zero = int(np.flatnonzero(probs == 0)[0])
    possible = np.flatnonzero(probs > 0).tolist()
    with pytest.raises(IllegalActionError, match=f"outcome={zero} has probability 0") as err:
        env.apply_chance(t.at_chance, zero)
    assert str(possible[:5])[:-1] in str(err.value)  # the possible outcomes are listed
    for value in [size, 10**6, -1, np.int64(2**32)]:
        with pytest.raises(IllegalActionError, match=f"outcome={int(value)} is out of range"):
            env.apply_chance(t.at_chance, value)
    for value in [1.0, True, "0", jnp.asarray(0.0)]:
        words = rf"outcome must be an integer in 0\.\.{size - 1}"
        with pytest.raises(IllegalActionError, match=words):
            env.apply_chance(t.at_chance, value)
    with pytest.raises(IllegalActionError, match="apply_chance needs a pending chance event"):
        env.apply_chance(t.at_seat, possible[0])
    over = t.at_seat.replace(terminated=jnp.bool_(True))  # as an illegal action ends it
    with pytest.raises(IllegalActionError, match="the game is over"):
        env.apply_chance(over, possible[0])


def test_an_illegal_action_in_range_loses_outside_jit_as_under_it() -> None:
    """An in-range illegal action is a move that loses (pgx and the Python env's
    ``illegal_action="penalize"``), with or without jit: it is not refused."""
    t = _twin("jupiter_v0")
    eager = t.env.apply_action(t.at_seat, t.illegal)
    jitted = t.act(t.at_seat, jnp.int32(t.illegal))
    expected = np.zeros(2, np.float32)
    expected[int(t.at_seat.current_player)] = -1.0
    for out in (eager, jitted):
        _assert_ended_at_a_seat(t.env, out, expected.tolist())
        assert int(out.current_player) == int(t.at_seat.current_player)


def test_every_integer_type_is_accepted() -> None:
    t = _twin("jupiter_v0")
    a = t.legal
    for value in [a, np.int64(a), np.uint8(a), np.int32(a), jnp.int32(a), np.asarray(a)]:
        check_action_call(t.env, t.at_seat, value, "step")  # no error
    eager = t.env.apply_action(t.at_seat, np.uint8(a))
    jitted = t.act(t.at_seat, jnp.int32(a))
    for x, y in zip(jax.tree.leaves(eager), jax.tree.leaves(jitted)):
        np.testing.assert_allclose(np.asarray(x), np.asarray(y), rtol=1e-6)


def test_a_batch_is_checked_lane_by_lane() -> None:
    t = _twin("jupiter_v0")
    env = t.env
    seats = jax.tree.map(lambda leaf: jnp.stack([leaf] * 3), t.at_seat)
    chances = jax.tree.map(lambda leaf: jnp.stack([leaf] * 3), t.at_chance)
    env.check_state(seats)
    env.check_action(seats, jnp.asarray([t.legal, t.illegal, t.legal]))  # illegal: it loses
    env.check_outcome(chances, jnp.asarray([0, 1, 0]))
    with pytest.raises(IllegalActionError, match=r"action\[2\]=99 is out of range"):
        env.check_action(seats, jnp.asarray([t.legal, t.legal, 99]))
    with pytest.raises(IllegalActionError, match=r"outcome\[1\]=2 has probability 0"):
        env.check_outcome(chances, jnp.asarray([0, 2, 1]))
    with pytest.raises(IllegalActionError, match=r"state\[0\] is a chance node"):
        env.check_action(chances, jnp.asarray([0, 0, 0]))
    cp = seats.current_player.at[1].set(7)
    with pytest.raises(ConfigError, match=r"state\[1\] is not a position.*current_player=7"):
        env.check_state(seats.replace(current_player=cp))


# ---- under jit: the game ends, at a position that can happen ----------------------------


@pytest.mark.parametrize("env_id", ACTION_TWINS)
def test_under_jit_an_illegal_or_out_of_range_action_costs_its_player(env_id: str) -> None:
    t = _twin(env_id)
    seat = int(t.at_seat.current_player)
    expected = [-1.0 if p == seat else 0.0 for p in range(t.env.num_players)]
    for action in [t.illegal, t.env.num_actions, t.env.num_actions + 5, -1, 2**31 - 1]:
        out = t.act(t.at_seat, jnp.int32(action))
        _assert_ended_at_a_seat(t.env, out, expected)
        assert int(out.current_player) == seat


@pytest.mark.parametrize("env_id", ACTION_TWINS)
def test_under_jit_an_action_at_a_chance_node_ends_the_game_with_no_reward(env_id: str) -> None:
    t = _twin(env_id)
    out = t.act(t.at_chance, jnp.int32(0))
    _assert_ended_at_a_seat(t.env, out, [0.0] * t.env.num_players)
    view = t.env.observe(t.at_chance, out.current_player)  # the observation is its seat's
    np.testing.assert_allclose(np.asarray(out.observation), np.asarray(view))


def test_a_game_ended_at_a_chance_node_stays_over() -> None:
    """The chance event left pending is dead: resolving it does not bring the game back."""
    t = _twin("jupiter_v0")
    out = t.env.resolve_chance(t.act(t.at_chance, jnp.int32(0)), KEY)
    _assert_ended_at_a_seat(t.env, out, [0.0] * t.env.num_players)


@pytest.mark.parametrize("env_id", ACTION_TWINS)
def test_under_jit_a_state_with_no_seat_to_move_ends_with_no_reward(env_id: str) -> None:
    t = _twin(env_id)
    for player in (7, -3):
        state = t.at_seat.replace(current_player=jnp.int32(player))
        out = t.act(state, jnp.int32(t.legal))
        _assert_ended_at_a_seat(t.env, out, [0.0] * t.env.num_players)


@pytest.mark.parametrize("env_id", CHANCE_TWINS)
def test_under_jit_an_impossible_outcome_ends_the_game_with_no_reward(env_id: str) -> None:
    t = _twin(env_id)
    env, size = t.env, t.env.num_chance_outcomes
    probs = np.asarray(env.chance_probs(t.at_chance))
    zero = int(np.flatnonzero(probs == 0)[0])
    for outcome in [size, 10**6, -1, zero]:
        out = t.chance(t.at_chance, jnp.int32(outcome))
        _assert_ended_at_a_seat(env, out, [0.0] * env.num_players)
    # no chance event pending: any outcome is impossible
    out = t.chance(t.at_seat, jnp.int32(int(np.argmax(probs))))
    _assert_ended_at_a_seat(env, out, [0.0] * env.num_players)
    assert int(out.current_player) == int(t.at_seat.current_player)
    # a possible outcome still plays on
    ok = t.chance(t.at_chance, jnp.int32(int(np.argmax(probs))))
    assert not bool(ok.terminated)
    env.check_state(ok)


def test_under_jit_and_vmap_each_lane_goes_its_own_way() -> None:
    t = _twin("jupiter_v0")
    env = t.env
    chances = jax.tree.map(lambda leaf: jnp.stack([leaf] * 3), t.at_chance)
    out = jax.jit(jax.vmap(env.apply_chance))(chances, jnp.asarray([0, 6, 2], jnp.int32))
    assert np.asarray(out.terminated).tolist() == [False, True, True]
    assert np.asarray(out.current_player).tolist()[0] == 0  # outcome 0: seat 0 starts
    assert bool((np.asarray(out.current_player) >= 0).all())
    np.testing.assert_array_equal(np.asarray(out.rewards), 0.0)
    env.check_state(out)


def test_under_jit_a_non_integer_action_is_refused_while_tracing() -> None:
    t = _twin("jupiter_v0")
    step = jax.jit(t.env.step)
    for value in [3.5, jnp.asarray(3.0), jnp.asarray(True)]:
        with pytest.raises(IllegalActionError, match=r"action must be an integer in 0\.\.32"):
            step(t.at_seat, value, KEY)
