"""The Moon Harvesters twin plays exactly the Python engine's game.

Three parameter sets cover every player count, a non-default board, custom shapes and
every house rule's non-default value (each set is one compile, so they are few); one env
object per set is cached so that its compiled functions are reused.
"""

from __future__ import annotations

import numpy as np
import pytest

jax = pytest.importorskip("jax")

import jax.numpy as jnp  # noqa: E402

import moon_envs  # noqa: E402
import moon_envs.jax as mj  # noqa: E402
from moon_agents.evaluation.jax_equivalence import check_with_agents  # noqa: E402
from moon_envs.core.game import ConfigError  # noqa: E402
from moon_envs.jax.moon_harvesters import board  # noqa: E402
from moon_envs.jax.moon_harvesters.tables import build_tables  # noqa: E402

ENV = "moon_harvesters_v0"
SETS = {
    "2p_rules": (
        {
            "num_players": 2,
            "craters_block": False,
            "deposits_when_short": "none",
            "num_deposits": 25,
            "ties": "none",
        },
        "win",
    ),
    "3p_board": (
        {"num_players": 3, "rows": 9, "cols": 11, "craters_block_deposits": False},
        "win",
    ),
    "4p_shapes": (
        {
            "num_players": 4,
            "rows": 10,
            "cols": 16,
            "shapes": ["I", "T", "##/##", "#", "W"],
            "pieces_per_kind": 6,
            "num_craters": 5,
            "deposits_per_turn": 3,
            "first_deposits": 0,
        },
        "score",
    ),
}
_ENVS: dict[str, object] = {}


def twin(name: str):
    """The cached twin of parameter set ``name``."""
    if name not in _ENVS:
        params, reward_mode = SETS[name]
        _ENVS[name] = mj.make(ENV, reward_mode=reward_mode, **params)
    return _ENVS[name]


@pytest.mark.parametrize("name", list(SETS))
def test_replays_the_python_engine(name: str) -> None:
    params, reward_mode = SETS[name]
    report = check_with_agents(ENV, params, games=8, seed=3, reward_mode=reward_mode)
    assert report.ok, report.problems
    assert report.events > 0


def test_batched_random_games_end_with_the_python_returns() -> None:
    """``jit(vmap(init))`` and ``jit(vmap(step))`` play random games to the end; the game
    has no chance, so every lane starts from the same position whatever its key."""
    env = twin("2p_rules")
    params, reward_mode = SETS["2p_rules"]
    batch, rng = 6, np.random.default_rng(0)
    init, step = jax.jit(jax.vmap(env.init)), jax.jit(jax.vmap(env.step))
    keys = jax.random.split(jax.random.PRNGKey(0), batch)
    state = init(keys)
    game = moon_envs.make(ENV, **params).game
    start = game.new_initial_state()
    for leaf in jax.tree.leaves(state):
        assert (np.asarray(leaf) == np.asarray(leaf)[:1]).all()
    assert not bool(state.is_chance.any()) and not bool(state.current_player.any())
    np.testing.assert_allclose(np.asarray(state.observation[0]), start.observation(0), atol=1e-6)
    totals = np.zeros((batch, env.num_players), np.float32)
    actions: list[list[int]] = [[] for _ in range(batch)]
    for _ in range(env.spec.max_game_length + 1):
        if bool(state.terminated.all()):
            break
        mask = np.asarray(state.legal_action_mask)
        chosen = np.argmax(rng.random(mask.shape) * mask, axis=1).astype(np.int32)
        for g in np.flatnonzero(~np.asarray(state.terminated)):
            actions[g].append(int(chosen[g]))
        state = step(state, jnp.asarray(chosen), keys)
        totals += np.asarray(state.rewards)
    assert bool(state.terminated.all())
    for g in range(batch):
        py = game.new_initial_state()
        for a in actions[g]:
            py.apply_action(a)
        assert py.is_terminal()
        np.testing.assert_allclose(totals[g], py.returns(reward_mode), atol=1e-6)
        assert abs(totals[g].sum()) < 1e-6  # the winners' +1 and the losers' -1 cancel


def test_every_parameter_is_expressible_and_bad_values_are_named() -> None:
    biggest = {"num_players": 4, "rows": 16, "cols": 16, "shapes": "F,I,L,N,P,T,U,V"}
    env = mj.make(ENV, **biggest)
    assert env.num_actions == 8 + 1 + 10 * 256
    with pytest.raises(ConfigError, match="rows"):
        mj.make(ENV, rows=17)
    with pytest.raises(ConfigError, match="deposits_when_short"):
        mj.make(ENV, deposits_when_short="some")


@pytest.mark.parametrize(
    "params",
    [
        {"num_players": 4, "rows": 16, "cols": 16, "shapes": "F,I,L,N,P,T,U,V"},
        {"rows": 3, "cols": 16, "shapes": ["#", "################"]},
        {"rows": 5, "cols": 3, "shapes": ["#/#/#/#/#", "##/#."], "craters_block": False},
    ],
)
def test_bitboard_placements_match_the_python_footprints(params: dict) -> None:
    """The hot path: every placement of every kind on random boards (16 columns fill the
    words' low half; a 16-cell row shape reaches bit 15)."""
    game = moon_envs.make(ENV, **params).game
    t = build_tables(game)
    fp, per_kind, rng = game.fp, game.per_kind, np.random.default_rng(1)

    @jax.jit
    def placements(owner, crater):
        words = board.pack_board(t, owner, crater, jnp.zeros_like(crater))
        free = board.anchors(t, words)
        masks = [board.unpack_placements(t, free[k]) for k in range(t.kinds)]
        return jnp.stack(masks), board.kinds_that_fit(free), free

    for density in (0.0, 0.05, 0.2, 0.6):
        owner = np.where(rng.random(game.num_cells) < density, 0, -1).astype(np.int8)
        crater = rng.random(game.num_cells) < density / 2
        blocked = (owner >= 0) | (crater if game.config.craters_block else False)
        fits = fp.in_bounds.copy()
        fits[fp.cover[np.flatnonzero(blocked)]] = False
        got, fit_any, free = placements(owner, crater)
        if density == 0.0:  # the first state's words, packed in numpy from the footprints
            exists = fp.in_bounds[: t.kinds * per_kind].reshape(t.kinds, 8, t.rows, t.cols)
            weights = np.uint32(1) << np.arange(t.cols, dtype=np.uint32)
            packed = (exists.astype(np.uint32) * weights).sum(axis=-1, dtype=np.uint32)
            np.testing.assert_array_equal(np.asarray(free), packed)
        for k in range(t.kinds):
            expected = fits[k * per_kind : (k + 1) * per_kind]
            np.testing.assert_array_equal(np.asarray(got[k]), expected)
            assert bool(fit_any[k]) == bool(expected.any())


def test_covered_cells() -> None:
    """A placement covers exactly its footprint's cells (the Python ``fp.cells``), and
    the mover's kind is picked from the packed words without a gather."""
    game = moon_envs.make(ENV, num_players=3).game
    t = build_tables(game)
    covered = jax.jit(lambda k, p: board.covered_cells(t, k, p))
    for kind in range(t.kinds):
        exists = np.flatnonzero(game.fp.in_bounds[kind * game.per_kind :][: game.per_kind])
        for placement in exists[::41]:
            got = np.flatnonzero(np.asarray(covered(kind, int(placement))))
            assert got.tolist() == sorted(game.fp.cells[kind][placement].tolist())
    free = np.arange(t.kinds * 8 * t.rows, dtype=np.uint32).reshape(t.kinds, 8, t.rows)
    for kind in range(t.kinds):
        np.testing.assert_array_equal(np.asarray(board.kind_words(t, free, kind)), free[kind])
