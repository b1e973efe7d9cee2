"""The JAX twin of Moonstar (Games 1-12) plays exactly the Python engine's game.

Equivalence on recorded games (random and heuristic agents) over a few parameter sets,
batched random play to the end under ``jit(vmap)``, the parameter the twin cannot
express, and Game 11's hidden side bets (resampling and observations).
"""

from __future__ import annotations

import pytest

jax = pytest.importorskip("jax")

import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402

import moon_envs.jax as mj  # noqa: E402
from moon_agents.evaluation.jax_equivalence import check_with_agents  # noqa: E402
from moon_envs.core.game import ConfigError  # noqa: E402
from moon_envs.jax.moonstar.tables import BETS  # noqa: E402

ENV = "moonstar_v1"
_TWINS: dict[tuple, object] = {}


def twin(**params):
    """One twin per parameter set, so that its compiled functions are reused."""
    key = tuple(sorted(params.items()))
    if key not in _TWINS:
        _TWINS[key] = mj.make(ENV, **params)
    return _TWINS[key]


# each set is its own compile of the replay (about 13 s of CPU), so the sets are few and
# each adds what the others lack: Game 1 at its default 4 seats, Game 11's side bets at 3,
# Game 8's chains at 3, and Game 12's menu (Game 1's rules among its entries) at 2 seats
EQUIVALENCE_SETS = [
    ({"num_players": 4}, 6),
    ({"game": 11, "num_players": 3}, 6),
    ({"game": 8, "num_players": 3, "chain_members": "all"}, 4),
    (
        {
            "game": 12,
            "num_players": 2,
            "setup": "random",
            "auction_order": "random",
            "no_bid_reading": "organizer_sits_out",
            "max_rounds": 6,
        },
        4,
    ),
]


@pytest.mark.parametrize("params,games", EQUIVALENCE_SETS, ids=lambda v: str(v))
def test_equivalence_with_agents(params, games):
    report = check_with_agents(ENV, params, games, batch=games)
    assert report.events > 0
    assert report.ok, report.problems


def _random_games(env, batch: int, seed: int, steps: int = 600):
    """Play ``batch`` random games under ``jit(vmap)`` to the end: the summed rewards of
    each game, and the side-bet positions seen on the way (Game 11)."""
    init = jax.jit(jax.vmap(env.init))
    step = jax.jit(jax.vmap(env.step))
    state = init(jax.random.split(jax.random.PRNGKey(seed), batch))
    total = np.zeros((batch, env.num_players), np.float32)
    key = jax.random.PRNGKey(seed + 1)
    bets = []
    for _ in range(steps):
        if bool(state.terminated.all()):
            break
        x = state._x
        found = (np.asarray(x.phase) == BETS) & (np.asarray(x.bet_side) >= 0).any(axis=1)
        if found.any() and len(bets) < 4:
            i = int(np.flatnonzero(found)[0])
            bets.append(jax.tree.map(lambda a, i=i: a[i], state))
        key, k_act, k_step = jax.random.split(key, 3)
        logits = jnp.where(state.legal_action_mask, 0.0, -jnp.inf)
        action = jax.random.categorical(k_act, logits, axis=-1)
        state = step(state, action, jax.random.split(k_step, batch))
        total += np.asarray(state.rewards)
    assert bool(state.terminated.all())
    return total, bets


_GAME11 = {"game": 11, "num_players": 3, "target": 60, "max_rounds": 4}
_RUNS: dict = {}


def _game11_run():
    if "g11" not in _RUNS:
        _RUNS["g11"] = _random_games(twin(**_GAME11), batch=32, seed=0)
    return _RUNS["g11"]


def test_batched_random_games_end_with_the_python_rewards():
    total, _ = _game11_run()
    # "win" rewards, as the Python env's: the winners share +1 and the others share -1
    # (a sum of 0), or every seat gets 0 when all tie at the top
    assert np.all(np.abs(total.sum(axis=1)) < 1e-5)
    assert np.all(np.abs(total) <= 1.0 + 1e-6)


def test_round_optimum_with_squares_is_a_config_error():
    with pytest.raises(ConfigError, match="round_optimum"):
        mj.make(ENV, game=7, round_optimum=True)


def test_game11_resample_keeps_the_observers_view():
    env = twin(**_GAME11)
    _, bets = _game11_run()
    assert bets, "no side-bet position reached"
    resample = jax.jit(jax.vmap(env.resample, in_axes=(None, None, 0)))
    changed = False
    for state in bets:
        me = state.current_player  # the seat to bet: the view state.observation shows
        new = resample(state, me, jax.random.split(jax.random.PRNGKey(0), 16))
        obs, mask = np.asarray(new.observation), np.asarray(new.legal_action_mask)
        assert np.array_equal(obs, np.broadcast_to(np.asarray(state.observation), obs.shape))
        assert np.array_equal(
            mask, np.broadcast_to(np.asarray(state.legal_action_mask), mask.shape)
        )
        placed = np.asarray(state._x.bet_side) >= 0
        assert np.array_equal(np.asarray(new._x.bet_side) >= 0, np.broadcast_to(placed, (16, 3)))
        mine = np.arange(3) == int(me)
        for f in ("bet_side", "bet_idx", "bet_stake"):
            old, got = np.asarray(getattr(state._x, f)), np.asarray(getattr(new._x, f))
            assert np.array_equal(got[:, mine], np.broadcast_to(old[mine], (16, 1)))
            changed |= not np.array_equal(got, np.broadcast_to(old, got.shape))
    assert changed, "resampling never redrew another seat's sealed bet"


def test_game11_hidden_bets_do_not_change_the_view():
    env = twin(**_GAME11)
    _, bets = _game11_run()
    view = jax.jit(lambda s, p: (env.observe(s, p), env._legal_mask(s._x)))
    for state in bets:
        me = int(state.current_player)
        x = state._x
        others = (np.arange(3) != me) & (np.asarray(x.bet_side) >= 0)
        flipped = x._replace(
            bet_side=jnp.where(others, 1 - x.bet_side, x.bet_side),
            bet_idx=jnp.where(others, 1, x.bet_idx),
            bet_stake=jnp.where(others, x.bet_stake + 7, x.bet_stake),
        )
        a, b = view(state, me), view(state.replace(_x=flipped), me)
        assert np.array_equal(np.asarray(a[0]), np.asarray(b[0]))
        assert np.array_equal(np.asarray(a[1]), np.asarray(b[1]))
