"""The Moonwakers twin's first parts against the Python engine, position by position:
the fixed-shape position converts from the Python state and back to the same state, the
task queue's ring buffer keeps the engine's order, and the observation of every seat and
the legal mask of every decision are the engine's, entry for entry.

Positions come from random games (chance drawn by its probabilities). Two parameter sets
share the compiles: two seats with the defaults, and five with the house rules that change
what a window, a SHORTCUT, a PERMUTATION or the end of the game offers.
"""

from __future__ import annotations

from collections import Counter

import pytest

pytest.importorskip("jax")

import jax
import jax.numpy as jnp
import numpy as np

from moon_envs import ConfigError
from moon_envs.jax.moonwakers import queue
from moon_envs.jax.moonwakers.legal import legal_mask
from moon_envs.jax.moonwakers.observe import observe
from moon_envs.jax.moonwakers.python_state import position_of, python_state_of
from moon_envs.jax.moonwakers.pushes import Pushes, push
from moon_envs.jax.moonwakers.tables import build_tables
from moon_envs.moonwakers.config import MoonwakersConfig
from moon_envs.moonwakers.game import MoonwakersGame
from tests.jax.random_python_positions import random_python_positions

CONFIGS = {
    "two": {"num_players": 2},
    "five-house": {
        "num_players": 5,
        "response_windows": "holders",
        "shortcut_when": "every",
        "permutation_when": "own",
        "game_end": "choice",
        "claims": "open",
        "pile": "ordered",
        "purchases_per_round": 2,
        "max_rounds": 12,
    },
}
NOT_A_POSITION = ("last", "last_rolls", "move_number", "_scores_record", "_last_win_delta")


class _Env:
    def __init__(self, game: MoonwakersGame) -> None:
        self.game = game


@pytest.fixture(scope="module", params=sorted(CONFIGS))
def case(request):
    game = MoonwakersGame(MoonwakersConfig(**CONFIGS[request.param]))
    tables = build_tables(game)
    positions = random_python_positions(_Env(game), 240, seed=len(request.param))
    xs = [position_of(tables, py) for py in positions]
    batch = jax.tree.map(lambda *leaves: jnp.stack(leaves), *xs)
    return game, tables, positions, xs, batch


def _fields(py) -> dict:
    out = {k: v for k, v in py.__dict__.items() if k not in NOT_A_POSITION}
    out["combo_pile"] = sorted(out["combo_pile"])  # a set: the engine draws from it sorted
    return out


def test_position_round_trip(case):
    game, tables, positions, xs, _ = case
    for py, x in zip(positions, xs):
        back = python_state_of(game, tables, x)
        want, got = _fields(py), _fields(back)
        assert got.keys() == want.keys()
        assert {k for k in want if want[k] != got[k]} == set(), py.phase()
        back.validate()
    assert any(py.is_terminal() for py in positions)


def test_observation_is_the_engines(case):
    _, tables, positions, _, batch = case
    n = tables.n
    seats = jnp.arange(n)
    views = jax.jit(jax.vmap(jax.vmap(lambda x, p: observe(tables, x, p), (None, 0)), (0, None)))
    got = np.asarray(views(batch, seats))
    assert got.shape == (len(positions), n, tables.obs_size)
    for i, py in enumerate(positions):
        for p in range(n):
            np.testing.assert_array_equal(got[i, p], py.observation(p), err_msg=f"{i} {p}")


def test_legal_mask_is_the_engines(case):
    _, tables, positions, _, batch = case
    got = np.asarray(jax.jit(jax.vmap(lambda x: legal_mask(tables, x)))(batch))
    kinds = Counter()
    for i, py in enumerate(positions):
        if py.is_terminal() or py.is_chance_node():
            assert not got[i].any()
            continue
        kinds[py.phase()] += 1
        np.testing.assert_array_equal(got[i], py.legal_actions_mask().astype(bool), py.phase())
    assert {"option", "place", "reveal", "claim", "pay"} <= set(kinds), kinds


def test_queue_rows_decode_to_the_tasks():
    tasks = [
        {"t": "duel_end", "seats": [4, 0, 2], "then": {"t": "permute_won", "seat": 4, "target": 2}},
        {"t": "permute_won", "seat": 1, "target": 3, "winner": 3},
        {"t": "ability_go", "user": 1, "target": 0, "then": {"t": "shortcut_won", "seat": 1}},
        {"t": "draw", "dest": "table", "slot": 6},
        {"t": "draw", "dest": "ionic", "seat": 5},
        {"t": "roll", "seat": 2, "why": "accident", "card": -1},
        {"t": "roll", "seat": 2, "why": "duel"},
        {"t": "round_start", "first": True},
        {"t": "round_start"},
        {"t": "settle", "slot": 2, "seats": []},
        {"t": "claims_end", "before": 7},
    ]
    rows, head, size = queue.encode(tasks, 16)
    assert queue.decode(rows, head, size) == tasks
    assert queue.unpack_seats(queue.pack_seats([5, 3, 1, 0, 2, 4])) == [5, 3, 1, 0, 2, 4]


def test_queue_push_and_pop_keep_the_engines_order():
    game = MoonwakersGame(MoonwakersConfig(num_players=2))
    tables = build_tables(game)
    capacity = tables.queue_size
    rng = np.random.default_rng(3)
    model: list[int] = []
    x = position_of(tables, game.new_initial_state())
    x = x._replace(
        queue=jnp.full((capacity, 8), -1, jnp.int32), head=jnp.int32(5), size=jnp.int32(0)
    )

    def push_rows(x, values, flags):
        pushes = Pushes()
        for v, f in zip(values, flags):
            pushes.add(f, jnp.full(8, -1, jnp.int32).at[1].set(v))
        return push(x, pushes)

    push_jit = jax.jit(push_rows)
    serial = 0
    for _ in range(60):
        if model and rng.random() < 0.45:
            assert int(queue.front(x.queue, x.head)[1]) == model.pop(0)
            head, size = queue.pop(x.head, x.size, capacity)
            x = x._replace(head=head, size=size)
            continue
        flags = rng.random(4) < 0.6  # rows not flagged are left out, the others kept in order
        flags &= np.cumsum(flags) <= capacity - len(model)
        values = serial + np.arange(4)
        x = push_jit(x, jnp.asarray(values, jnp.int32), jnp.asarray(flags))
        model[0:0] = [int(v) for v, f in zip(values, flags) if f]
        serial += 4
        assert int(x.size) == len(model)
        got = [int(x.queue[(int(x.head) + i) % capacity, 1]) for i in range(len(model))]
        assert got == model


def test_a_position_past_the_twins_shapes_is_refused():
    game = MoonwakersGame(MoonwakersConfig(num_players=2))
    tables = build_tables(game)
    py = game.new_initial_state()
    py.tasks = py.tasks + [{"t": "end_round"}] * tables.queue_size
    with pytest.raises(ConfigError, match=r"py_state.tasks holds \d+ tasks.*at most 32"):
        position_of(tables, py)
