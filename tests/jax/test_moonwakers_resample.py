"""The Moonwakers twin's ``resample``: what a seat knows is kept, what it cannot know is
redrawn under every rule it knows, and the result depends only on what it knows.

Positions come from random play of the Python engine (two seats; six seats with the
house rules that add constraints: an ordered pile, response windows for holders only,
set-up cards kept as dealt) and from hand-built positions of ``tests/moonwakers``.
"""

from __future__ import annotations

import pytest

pytest.importorskip("jax")

import jax
import jax.numpy as jnp
import numpy as np

import moon_envs
from moon_envs import ConfigError
from moon_envs.jax.moonwakers import legal, observe
from moon_envs.jax.moonwakers.python_state import position_of, python_state_of
from moon_envs.jax.moonwakers.twin import MoonwakersTwin
from moon_envs.jax.python_states import from_python, from_python_many, to_python
from tests.helpers import step_state
from tests.moonwakers.positions import A, blank, give, lay, of_kind, paying_a_claim, run
from tests.moonwakers.positions import seen_later_twins

CASES = {
    "two": {"num_players": 2},
    "six-house": {
        "num_players": 6,
        "pile": "ordered",
        "response_windows": "holders",
        "setup_hand": "keep",
        "claims": "sealed",
    },
}
_TWINS: dict[str, MoonwakersTwin] = {}


def _twin(case: str) -> MoonwakersTwin:
    if case not in _TWINS:
        game = moon_envs.make("moonwakers_v1", **CASES[case]).game
        _TWINS[case] = MoonwakersTwin("moonwakers_v1", game)
    return _TWINS[case]


_JITTED: dict[str, tuple] = {}


def _functions(case: str):
    """``(resample, observe, legal_mask)`` of ``case``'s twin, batched and compiled once."""
    if case not in _JITTED:
        t = _twin(case).tables
        _JITTED[case] = (
            jax.jit(jax.vmap(lambda x, p, k: _twin(case)._resample_x(x, p, k))),
            jax.jit(jax.vmap(lambda x, p: observe.observe(t, x, p))),
            jax.jit(jax.vmap(lambda x: legal.legal_mask(t, x))),
        )
    return _JITTED[case]


def _batch(twin: MoonwakersTwin, states: list) -> object:
    xs = [position_of(twin.tables, s) for s in states]
    return jax.tree.map(lambda *leaves: jnp.stack(leaves), *xs)


def _row(x, b: int):
    return jax.tree.map(lambda leaf: np.asarray(leaf[b]), x)


def _random_states(case: str, count: int = 16) -> list:
    game = _twin(case).game
    states = []
    for seed in range(count):
        rng = np.random.default_rng(1000 + seed)
        s = game.new_initial_state()
        for _ in range(15 + 17 * seed):
            if s.is_terminal():
                break
            step_state(s, rng)
        states.append(s)
    return states


def _resampled(case: str, states: list, seat: int, key: int):
    twin = _twin(case)
    resample, _, _ = _functions(case)
    keys = jax.random.split(jax.random.PRNGKey(key), len(states))
    return resample(_batch(twin, states), jnp.full(len(states), seat, jnp.int32), keys)


@pytest.mark.parametrize("case", sorted(CASES))
def test_resample_keeps_what_the_seat_knows_and_redraws_the_rest(case):
    twin = _twin(case)
    _, view, mask = _functions(case)
    states = _random_states(case)
    x = _batch(twin, states)
    moved = looked = sealed = 0
    for seat in range(twin.num_players):
        p = jnp.full(len(states), seat, jnp.int32)
        before = np.asarray(view(x, p))
        for key in range(2):
            new = _resampled(case, states, seat, 10 * seat + key)
            np.testing.assert_array_equal(np.asarray(view(new, p)), before)
            for b, s in enumerate(states):
                py = python_state_of(twin.game, twin.tables, _row(new, b))
                py.validate()
                np.testing.assert_array_equal(py.observation(seat), s.observation(seat))
                assert py.current_player() == s.current_player()
                if s.current_player() == seat:
                    np.testing.assert_array_equal(np.asarray(mask(new))[b], s.legal_actions_mask())
                moved += sum(a != b for a, b in zip(py.hand + py.mapped, s.hand + s.mapped))
                moved += py.table != s.table
                looked += py.known != s.known
                sealed += (py.option, py.claims, py.responses) != (s.option, s.claims, s.responses)
    # the hidden part is redrawn, so the checks above are not empty
    assert moved > 20 and looked > 20 and sealed > 0


def _fully_known(s) -> set[int]:
    return {c for c, k in enumerate(s.known) if k == s.all_seats}


@pytest.mark.parametrize("case", sorted(CASES))
def test_resample_depends_only_on_what_the_seat_knows(case):
    """Each position against a Python determinisation of it (the same view for the seat,
    other cards, looks and sealed choices): the same key gives the same position.

    A card every seat has looked at privately counts as known to all, as a public reveal
    does (the engines cannot tell the two apart), and decides which looks are kept; pairs
    whose cards known to all differ are left out, and counted."""
    twin = _twin(case)
    states = _random_states(case)
    compared = left_out = 0
    for seat in range(twin.num_players):
        rng = np.random.default_rng(seat)
        others = [s.resample(seat, rng) for s in states]
        one = _resampled(case, states, seat, seat)
        two = _resampled(case, others, seat, seat)
        for b, (s, o) in enumerate(zip(states, others)):
            if _fully_known(s) != _fully_known(o):
                left_out += 1
                continue
            a, c = _row(one, b), _row(two, b)
            differ = [f for f, u, v in zip(a._fields, a, c) if not np.array_equal(u, v)]
            assert differ == [], (b, seat, differ)
            compared += s.to_dict() != o.to_dict()
    assert compared >= 20 and left_out <= compared // 4


# ---- what it respects, on hand-built positions (two seats, the package's cards) -------------


def _deals(s, seat: int, draws: int = 64) -> list:
    """``draws`` resamples of ``s`` for ``seat``, as Python states."""
    twin = _twin("two")
    resample, _, _ = _functions("two")
    x = jax.tree.map(lambda leaf: jnp.stack([leaf] * draws), position_of(twin.tables, s))
    keys = jax.random.split(jax.random.PRNGKey(7), draws)
    new = resample(x, jnp.full(draws, seat, jnp.int32), keys)
    return [python_state_of(twin.game, twin.tables, _row(new, b)) for b in range(draws)]


def test_resample_never_deals_an_accident_or_a_storm_as_a_set_up_card():
    s = blank(2)
    card = give(s, 1, 2, public=False)  # Crystal Forest H: its face is shared by 1 and 8
    assert {s.cards.kind_name(c) for c in (1, 8)} == {"ionic_storm", "accident"}
    assert all(r.hand[1] == [card] for r in _deals(s, 0))


def test_resample_never_puts_a_card_seen_later_elsewhere_into_an_older_place():
    s, fresh = seen_later_twins()
    assert all(r.hand[1] == [4] for r in _deals(s, 0))
    assert {r.hand[1][0] for r in _deals(fresh, 0)} == {4, 10}


def test_resample_keeps_a_revealed_claim_and_a_payment_affordable():
    s, hidden = paying_a_claim()
    for r in _deals(s, 0):
        assert r.hand[1][0] == hidden  # never the SHELTER of the same face
        r.validate()  # the payment under way can be made


def test_resample_redraws_another_seats_look_and_keeps_ones_own():
    s = blank(2)
    for k in range(4):
        lay(s, k, of_kind(s, "elements")[k])
    s.option = [0, 0]
    run(s, ("peek", {"seat": 0}), ("peek", {"seat": 1}))
    s.apply_action(A.PEEK + 3)
    s.apply_action(A.PEEK + 0)
    looked = set()
    for r in _deals(s, 0):
        assert r.known[r.table[3]] & 1  # my own look stays
        looked.add(next((k for k in range(4) if r.known[r.table[k]] & 2), None))
    assert looked == {0, 1, 2, 3}


def test_python_positions_convert_through_the_public_functions():
    """``moon_envs.jax.python_states`` converts Moonwakers positions both ways: the twin
    state shows the engine's player, mask and view, and converts back to the position."""
    twin = _twin("two")
    for s in _random_states("two", count=6):
        state = from_python(twin, s)
        player = s.current_player()
        assert int(state.current_player) == player and int(state._step_count) == s.move_number
        if player >= 0:
            np.testing.assert_array_equal(state.legal_action_mask, s.legal_actions_mask() > 0)
            np.testing.assert_array_equal(state.observation, s.observation(player))
        back = to_python(twin, state)
        for got, want in zip(position_of(twin.tables, back), position_of(twin.tables, s)):
            np.testing.assert_array_equal(got, want)
        assert back.move_number == s.move_number


def test_many_positions_convert_in_one_batch_as_each_does_alone():
    """``from_python_many`` (one compiled call for a search's determinisations) gives, row
    by row, the state ``from_python`` gives of each position: every field, the view and
    the mask included."""
    twin = _twin("two")
    states = _random_states("two", count=6)
    many = from_python_many(twin, states)
    assert many.current_player.shape == (6,)
    for b, s in enumerate(states):
        one = from_python(twin, s)
        row = jax.tree.map(lambda leaf, b=b: np.asarray(leaf[b]), many)
        for got, want in zip(jax.tree.leaves(row), jax.tree.leaves(one)):
            np.testing.assert_array_equal(got, np.asarray(want))
    with pytest.raises(ConfigError, match="py_states must hold at least one"):
        from_python_many(twin, [])
    with pytest.raises(ConfigError, match="py_state must be a MoonwakersState"):
        from_python_many(twin, [states[0], "not a state"])
