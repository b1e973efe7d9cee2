"""Landing values: each legal move's immediate points, read from the seat's observation
alone, equal the points the rules give that move, in numpy and in jax.numpy."""

from __future__ import annotations

import numpy as np
import pytest

from moon_envs.moonstar.landing import SCALE, landing_values, num_landing_values
from moon_envs.moonstar.rules import MoonstarGame
from tests.moonstar.test_rules import MOONS, PLANETS, set_round, start, win_auction


def gains(state) -> dict[int, int | None]:
    """Every legal move's points, by playing it on a clone (None for a move that ends the
    round: the round's total is settled and reset then)."""
    out = {}
    for a in np.flatnonzero(state.legal_actions_mask()).tolist():
        after = state.clone()
        after.apply_action(a)
        ends = after.phase != "play" or after.round_no != state.round_no
        out[a] = None if ends else after.round_total - state.round_total
    return out


def agree(got: dict[int, int], want: dict[int, int | None]) -> bool:
    """The same legal moves, and the same points wherever the rules keep the round."""
    return got.keys() == want.keys() and all(
        want[a] is None or want[a] == got[a] for a in got
    )


def values(state) -> np.ndarray:
    seat = state.current_player()
    return landing_values(state.game, state.observation(seat), state.legal_actions_mask())


def test_game1_moves_score_the_landing_planet_or_one() -> None:
    g, st = start(n=2, game=1)
    set_round(st, PLANETS, MOONS, [1, 2, 3, 4, 5, 6, 6])
    win_auction(st, 1, 5)
    v = values(st)
    assert v.shape == (num_landing_values(g),) == (g.max_moons * g.max_dice * 2,)
    # moon 0 on star 1: a 5 lands clockwise on star 6 (a 10), counter-clockwise on star 8
    d5 = st.dice.tolist().index(5)
    assert v[g.move_action(0, d5, 0) - g.a_move] == pytest.approx(10 / SCALE)
    assert v[g.move_action(0, d5, 1) - g.a_move] == pytest.approx(1 / SCALE)
    got = {g.a_move + i: round(float(x) * SCALE) for i, x in enumerate(v) if x}
    assert got == gains(st)  # every legal move, and nothing else


def test_game6_red_planet_doubles_and_game9_moves_go_double_or_half() -> None:
    _g, st = start(game=6)
    set_round(st, PLANETS, MOONS, [1, 2, 3, 4, 5, 6, 6])
    win_auction(st, 2, 5)
    st.apply_action(3)  # the red planet: the 5 on star 3
    g = st.game
    got = {g.a_move + i: round(float(x) * SCALE) for i, x in enumerate(values(st)) if x}
    d1 = st.dice.tolist().index(1)
    assert got == gains(st) and got[g.move_action(2, d1, 1)] == 10  # star 4 -> 3: 5 doubled
    _g, st = start(game=9)
    set_round(st, PLANETS, MOONS, [1, 2, 3, 4, 5, 6, 6])
    win_auction(st, 2, 5)
    g = st.game
    got = {g.a_move + i: round(float(x) * SCALE) for i, x in enumerate(values(st)) if x}
    assert got == gains(st) and g.num_dirs == 4


def test_outside_play_every_value_is_zero() -> None:
    _g, st = start(n=2, game=1)
    set_round(st, PLANETS, MOONS, [1, 1, 2, 2, 3, 3, 4])
    assert st.phase == "auction" and not values(st).any()


@pytest.mark.parametrize(
    "params",
    [{"game": 1}, {"game": 6}, {"game": 9, "num_players": 3}, {"movement": "double_double"}],
    ids=["game1", "game6", "game9", "double_double"],
)
def test_random_games_give_the_rules_points_in_numpy_and_jax(params) -> None:
    jnp = pytest.importorskip("jax.numpy")
    g = MoonstarGame(**{"num_players": 2, "setup": "random", **params})
    rng = np.random.default_rng(7)
    observations, masks, wanted = [], [], []
    for seed in range(2):
        st = g.new_initial_state()
        st_rng = np.random.default_rng(seed)
        while not st.is_terminal() and len(wanted) < 40 * (seed + 1):
            if st.is_chance_node():
                outcomes, probs = zip(*st.chance_outcomes())
                st.apply_action(int(st_rng.choice(outcomes, p=probs)))
                continue
            mask = st.legal_actions_mask()
            if st.phase == "play" and st.rules.scoring == "planets":
                v = values(st)
                got = {g.a_move + i: round(float(x) * SCALE) for i, x in enumerate(v) if x}
                assert agree(got, gains(st))
                observations.append(st.observation(st.current_player()))
                masks.append(mask)
                wanted.append(v)
            st.apply_action(int(rng.choice(np.flatnonzero(mask))))
    assert len(wanted) > 30
    obs, mask = jnp.asarray(np.stack(observations)), jnp.asarray(np.stack(masks))
    batch = landing_values(g, obs, mask, jnp)
    np.testing.assert_array_equal(np.asarray(batch), np.stack(wanted))
