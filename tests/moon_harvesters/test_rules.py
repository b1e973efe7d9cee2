"""The Moon Harvesters rules engine on hand-built positions and against brute force."""

from __future__ import annotations

import json

import numpy as np
import pytest

from moon_envs import ConfigError, IllegalActionError
from moon_envs.core.game import TERMINAL
from moon_envs.moon_harvesters.rules import (
    AUCTION,
    CRATERS,
    DEPOSITS,
    OVER,
    PLACE,
    HarvestersGame,
    HarvestersState,
)


def setup(game: HarvestersGame, kinds=None, crater_takers=(), crater_cells=()) -> HarvestersState:
    """Run the auction: seats in ``crater_takers`` take a crater first (in that order of
    turns), then everyone takes ``kinds[seat]``; craters go on ``crater_cells`` in order."""
    s = game.new_initial_state()
    n = game.config.num_players
    kinds = list(range(n)) if kinds is None else list(kinds)
    takers = list(crater_takers)
    while s.phase == AUCTION:
        p = s.current_player()
        if takers and takers[0] == p:
            takers.pop(0)
            s.apply_action(game.crater_take_action)
        else:
            s.apply_action(game.kind_action(kinds[p]))
    for cell in crater_cells:
        assert s.phase == CRATERS
        s.apply_action(game.crater_action(cell))
    return s


def cell(game, name: str) -> int:
    col = "ABCDEFGHIJKLMNOP".index(name[0])
    return (int(name[1:]) - 1) * game.cols + col


def find_action(state, kind: int, cells: set[int]) -> int:
    """The placement action of ``kind`` covering exactly ``cells`` (must exist)."""
    g = state.game
    foot = g.fp.cells[kind]
    for p in range(g.per_kind):
        if g.fp.in_bounds[kind * g.per_kind + p] and set(foot[p].tolist()) == cells:
            return g.place_base + p
    raise AssertionError(f"no placement of kind {kind} covers {sorted(cells)}")


# ---- brute-force reference --------------------------------------------------------------------


def brute_force_placements(state: HarvestersState, seat: int) -> np.ndarray:
    """Placement block of the mask for ``seat``, checked cell by cell."""
    g = state.game
    rows, cols = g.rows, g.cols
    out = np.zeros(g.per_kind, dtype=np.int8)
    kind = g.kinds[int(state.kind_of[seat])]
    block = state.crater if g.config.craters_block else np.zeros(g.num_cells, dtype=bool)
    for slot, orient in enumerate(kind.orientations):
        for anchor in range(g.num_cells):
            ar, ac = divmod(anchor, cols)
            ok = True
            for dr, dc in orient:
                r, c = ar + dr, ac + dc
                if r >= rows or c >= cols:
                    ok = False
                    break
                x = r * cols + c
                if state.owner[x] >= 0 or block[x]:
                    ok = False
                    break
            out[slot * g.num_cells + anchor] = ok
    return out


@pytest.mark.parametrize(
    "params",
    [
        {"num_players": 2},
        {"num_players": 4},
        {"num_players": 3, "craters_block": False},
        {"num_players": 2, "shapes": ["I", "T", "##/#."], "rows": 7, "cols": 9},
    ],
    ids=["2p", "4p", "3p-craters-pass", "custom"],
)
def test_placement_mask_matches_brute_force_on_random_boards(params):
    game = HarvestersGame(**params)
    rng = np.random.default_rng(11)
    checked = 0
    for _ in range(12):
        s = game.new_initial_state()
        stop = rng.integers(5, 200)
        while not s.is_terminal() and s.move_number < stop:
            mask = s.legal_actions_mask()
            if s.phase == PLACE:
                p = s.current_player()
                want = brute_force_placements(s, p)
                got = mask[game.place_base : game.deposit_base]
                assert np.array_equal(got, want)
                assert not mask[: game.place_base].any() and not mask[game.deposit_base :].any()
                # and for every other seat, through its "still fits" block
                for q in range(game.config.num_players):
                    k = int(s.kind_of[q]) * game.per_kind
                    assert np.array_equal(
                        s.fits[k : k + game.per_kind], brute_force_placements(s, q)
                    )
                checked += 1
            legal = np.flatnonzero(mask)
            s.apply_action(int(legal[rng.integers(legal.size)]))
    assert checked > 100


# ---- auction and craters ------------------------------------------------------------------------


def test_auction_kind_leaves_and_craters_run_out():
    g = HarvestersGame(num_players=2)
    s = g.new_initial_state()
    assert s.phase == AUCTION and s.current_player() == 0
    assert s.legal_actions() == [0, 1, 2]  # kinds L, X and a crater
    s.apply_action(g.crater_take_action)  # p0 crater
    assert s.current_player() == 1
    s.apply_action(g.kind_action(0))  # p1 takes L and leaves
    assert s.current_player() == 0
    assert s.legal_actions() == [1, 2]
    s.apply_action(g.crater_take_action)  # p0 alone keeps taking craters
    assert s.current_player() == 0
    s.apply_action(g.crater_take_action)
    assert s.crater_pool == 0
    assert s.legal_actions() == [1]  # craters ran out: must take the kind
    with pytest.raises(IllegalActionError):
        s.apply_action(g.crater_take_action)
    with pytest.raises(IllegalActionError):
        s.apply_action(g.kind_action(0))  # L is gone
    s.apply_action(g.kind_action(1))
    assert list(s.kind_of) == [1, 0]
    assert list(s.craters_held) == [3, 0]
    assert s.phase == CRATERS and s.current_player() == 0


def test_crater_placement_order_and_blocking():
    g = HarvestersGame(num_players=3)
    # turns: p0 crater, p1 crater, p2 kind 2, p0 crater, p1 kind 1, p0 kind 0
    s = setup(g, kinds=[0, 1, 2], crater_takers=[0, 1, 0])
    assert list(s.craters_held) == [2, 1, 0]
    order = []
    while s.phase == CRATERS:
        order.append(s.current_player())
        legal = s.legal_actions()
        assert all(g.crater_base <= a < g.place_base for a in legal)
        assert len(legal) == g.num_cells - int(s.crater.sum())
        s.apply_action(g.crater_action(len(order) - 1))
    assert order == [0, 1, 0]
    assert s.crater[:3].all() and s.crater.sum() == 3
    # placements over a crater no longer fit for any kind
    for k in range(g.num_kinds):
        flags = s.fits[k * g.per_kind : (k + 1) * g.per_kind]
        for p in np.flatnonzero(g.fp.in_bounds[k * g.per_kind : (k + 1) * g.per_kind]):
            assert flags[p] == (not set(g.fp.cells[k][p].tolist()) & {0, 1, 2})
    assert s.phase == DEPOSITS and s.current_player() == 0 and s.deposits_due == 2
    legal = s.legal_actions()
    assert all(a - g.deposit_base not in (0, 1, 2) for a in legal)  # no deposit on a crater


def test_craters_can_be_passable():
    g = HarvestersGame(num_players=2, craters_block=False)
    s = setup(g, kinds=[0, 1], crater_takers=[0], crater_cells=[13])  # crater on B2
    assert s.fits[: 2 * g.per_kind].sum() == g.fp.in_bounds[: 2 * g.per_kind].sum()
    assert not s.legal_actions_mask()[g.deposit_action(13)]  # craters take no deposits
    s.apply_action(g.deposit_action(5))
    s.apply_action(g.deposit_action(6))
    assert s.phase == PLACE and s.current_player() == 1
    s.apply_action(find_action(s, 1, {1, 12, 13, 14, 25}))  # X centred on the crater
    assert s.owner[13] == 1 and s.crater[13]
    assert s.phase == DEPOSITS

    blocking = setup(
        HarvestersGame(num_players=2), kinds=[0, 1], crater_takers=[0], crater_cells=[13]
    )
    blocking.apply_action(g.deposit_action(5))
    blocking.apply_action(g.deposit_action(6))
    with pytest.raises(IllegalActionError):
        blocking.apply_action(find_action(blocking, 1, {1, 12, 13, 14, 25}))


def test_no_craters_taken_goes_straight_to_first_deposits():
    g = HarvestersGame(num_players=4)
    s = setup(g, kinds=[3, 2, 1, 0])
    assert s.phase == DEPOSITS and s.current_player() == 0
    assert s.crater_pool == 3 and not s.crater.any()  # untaken craters are unused
    s.apply_action(g.deposit_action(10))
    assert s.phase == DEPOSITS and s.current_player() == 0
    s.apply_action(g.deposit_action(11))
    assert s.phase == PLACE and s.current_player() == 1
    assert s.supply == 78


# ---- turns and scoring ---------------------------------------------------------------------------


def test_placement_collects_covered_deposits_then_two_deposits():
    g = HarvestersGame(num_players=2)
    s = setup(g, kinds=[0, 1])
    a1, b1, b2 = cell(g, "A1"), cell(g, "B2"), cell(g, "B3")
    s.apply_action(g.deposit_action(b1))
    s.apply_action(g.deposit_action(b2))
    assert s.current_player() == 1
    x = {cell(g, c) for c in ("B1", "A2", "B2", "C2", "B3")}
    before = s.clone()
    s.apply_action(find_action(s, 1, x))
    assert int(s.collected[1]) == 2 and int(s.placed[1]) == 1
    assert not s.deposit[[b1, b2]].any()
    assert all(s.owner[c] == 1 for c in x)
    assert s.rewards("score").tolist() == [0.0, 2.0]
    assert s.phase == DEPOSITS and s.current_player() == 1 and s.deposits_due == 2
    # deposits: not on a harvester, crater or deposit
    mask = s.legal_actions_mask()[g.deposit_base :]
    assert np.array_equal(mask.astype(bool), s.free_cells())
    with pytest.raises(IllegalActionError):
        s.apply_action(g.deposit_action(cell(g, "B2")))
    s.apply_action(g.deposit_action(a1))
    s.apply_action(g.deposit_action(cell(g, "L12")))
    assert s.phase == PLACE and s.current_player() == 0
    assert s.supply == 76
    assert s.deposit.sum() + s.collected.sum() + s.supply == 80
    # overlapping harvesters are illegal
    with pytest.raises(IllegalActionError):
        s.apply_action(find_action(s, 0, {cell(g, c) for c in ("B1", "B2", "B3", "B4", "C4")}))
    assert before.owner.sum() == -g.num_cells  # the clone did not move


def test_fewer_deposits_when_supply_runs_out():
    g = HarvestersGame(num_players=2, num_deposits=3)
    s = setup(g, kinds=[0, 1])
    s.apply_action(g.deposit_action(0))
    s.apply_action(g.deposit_action(1))
    s.apply_action(find_action(s, 1, {c + 60 for c in (1, 12, 13, 14, 25)}))
    assert s.phase == DEPOSITS and s.deposits_due == 1  # one deposit left in the supply
    s.apply_action(g.deposit_action(100))
    assert s.supply == 0 and s.phase == PLACE and s.current_player() == 0
    s.apply_action(find_action(s, 0, {cell(g, c) for c in ("A1", "A2", "A3", "A4", "B4")}))
    assert int(s.collected[0]) == 1
    assert s.phase == PLACE and s.current_player() == 1  # no deposit phase: supply empty


def tiny_game(**kw) -> HarvestersGame:
    """3x3 grid, a monomino kind and a domino kind, no craters."""
    params = {"num_players": 2, "shapes": "M=#,D=##", "rows": 3, "cols": 3, "num_craters": 0}
    return HarvestersGame(**{**params, **kw})


def test_automatic_pass_and_end_when_nobody_can_place():
    g = tiny_game(first_deposits=0, deposits_per_turn=0)
    s = setup(g, kinds=[0, 1])  # p0 monomino, p1 domino
    assert s.phase == PLACE and s.current_player() == 1
    # p1 fills the board so that only single cells remain: dominoes on A1-B1, C1-C2, A2-A3
    dom = [{0, 1}, {2, 5}, {3, 6}]
    mono = [4, 7, 8]
    s.apply_action(find_action(s, 1, dom[0]))
    s.apply_action(find_action(s, 0, {mono[0]}))
    s.apply_action(find_action(s, 1, dom[1]))
    assert s.current_player() == 0
    s.apply_action(find_action(s, 0, {mono[1]}))  # B3 taken: only A2-A3 fits for p1
    s.apply_action(find_action(s, 1, dom[2]))
    assert not s.can_place(1) and s.can_place(0)
    assert s.current_player() == 0
    passes = s.passes
    s.apply_action(find_action(s, 0, {mono[2]}))  # p1 passes automatically ...
    assert s.is_terminal() and s.phase == OVER  # ... then nobody can place
    assert s.passes > passes
    assert s.current_player() == TERMINAL
    assert not s.legal_actions_mask().any()


def test_player_who_cannot_place_is_skipped_while_others_play_on():
    g = tiny_game(first_deposits=0, deposits_per_turn=0, pieces_per_kind=1)
    s = setup(g, kinds=[1, 0])  # p0 domino, p1 monomino, one piece each
    s.apply_action(find_action(s, 0, {4}))  # p1's only monomino
    assert s.current_player() == 0
    s.apply_action(find_action(s, 1, {0, 1}))
    assert s.is_terminal()  # both are out of pieces
    assert list(s.placed) == [1, 1]


def _finish(s: HarvestersState, collected, placed) -> HarvestersState:
    s.collected[:] = collected
    s.placed[:] = placed
    s.phase = OVER
    return s


def test_winner_and_tie_rules():
    g = HarvestersGame(num_players=3)
    s = g.new_initial_state()
    assert _finish(s.clone(), [5, 9, 2], [4, 4, 4]).winners() == [1]
    # tied on deposits: fewer harvesters placed wins
    tied = _finish(s.clone(), [9, 9, 2], [5, 4, 3])
    assert tied.winners() == [1]
    assert tied.returns().tolist() == [-0.5, 1.0, -0.5]
    # tied on both: a shared win
    draw = _finish(s.clone(), [9, 9, 2], [4, 4, 3])
    assert draw.winners() == [0, 1]
    assert draw.returns().tolist() == [0.5, 0.5, -1.0]
    everyone = _finish(s.clone(), [3, 3, 3], [2, 2, 2])
    assert everyone.returns().tolist() == [0.0, 0.0, 0.0]
    assert np.isclose(tied.returns().sum(), 0.0)


# ---- invariants, config, snapshots ---------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 3, 4])
def test_random_games_keep_invariants(n):
    g = HarvestersGame(num_players=n)
    rng = np.random.default_rng(n)
    for _ in range(10):
        s = g.new_initial_state()
        while not s.is_terminal():
            legal = s.legal_actions()
            assert legal, "empty mask for the player to move"
            s.apply_action(legal[rng.integers(len(legal))])
            assert s.deposit.sum() + s.collected.sum() + s.supply == 80
            assert (s.placed <= 10).all()
            assert not (s.deposit & ((s.owner >= 0) | s.crater)).any()
            if g.config.craters_block:
                assert not (s.crater & (s.owner >= 0)).any()
            assert (np.bincount(s.piece[s.piece >= 0]) == 5).all()  # no overlaps
        assert s.move_number <= g.spec.max_game_length
        for q in range(n):
            assert not s.can_place(q)
            assert s.placed[q] == 10 or not brute_force_placements(s, q).any()
        assert (s.owner >= 0).sum() == 5 * s.placed.sum()


def test_observation_is_the_reference_view_at_every_step():
    g = HarvestersGame(num_players=3)
    rng = np.random.default_rng(3)
    s = g.new_initial_state()
    while not s.is_terminal():
        for p in range(3):
            obs = s.observation(p)
            assert obs.dtype == np.float32 and obs.shape == g.spec.observation_shape
            assert np.array_equal(obs, s._build_observation(p))
            assert obs.min() >= 0.0 and obs.max() <= 1.0
        legal = s.legal_actions()
        s.apply_action(legal[rng.integers(len(legal))])


def test_observation_planes_are_from_the_observer_view():
    g = HarvestersGame(num_players=3)
    s = setup(g)
    for c in (0, 1):
        s.apply_action(g.deposit_action(c))
    s.apply_action(find_action(s, 1, {c + 50 for c in (1, 16, 17, 18, 33)}))  # X of p1
    c = g.num_cells
    o1, o0, o2 = s.observation(1), s.observation(0), s.observation(2)
    assert o1[:c].sum() == 5 and o1[c : 3 * c].sum() == 0  # p1's own plane first
    assert o0[c : 2 * c].sum() == 5  # for p0, p1 is the next seat
    assert o2[2 * c : 3 * c].sum() == 5  # for p2, p1 is two seats on
    assert o0[4 * c : 5 * c].sum() == 2  # deposits plane


@pytest.mark.parametrize(
    "params,field",
    [
        ({"num_players": 5}, "num_players"),
        ({"num_players": 3, "shapes": ["L", "X"]}, "shapes"),
        ({"shapes": ["L", "#.#"]}, "shapes[1]"),
        ({"shapes": ["L", ""]}, "shapes[1]"),
        ({"shapes": ["L", "I"], "rows": 4, "cols": 4}, "does not fit"),
        ({"shapes": 3}, "shapes"),
        ({"rows": 2}, "rows"),
        ({"pieces_per_kind": 0}, "pieces_per_kind"),
        ({"num_deposits": -1}, "num_deposits"),
        ({"craters_block": 1}, "craters_block"),
        ({"colour": 1}, "colour"),
    ],
)
def test_bad_config_raises(params, field):
    with pytest.raises(ConfigError, match=field.replace("[", r"\[").replace("]", r"\]")):
        HarvestersGame(**params)


def test_spec_sizes():
    g2, g4 = HarvestersGame(num_players=2), HarvestersGame(num_players=4)
    assert g2.spec.num_actions == 2 + 1 + 144 * 10
    assert g4.spec.num_actions == 4 + 1 + 192 * 10
    assert g4.deposit_base - g4.place_base == 1536
    assert g2.spec.observation_shape == (595,)
    assert g4.spec.observation_shape == (1191,)
    assert g2.spec.max_game_length == 2 + 6 + 20 + 80


def test_snapshots_round_trip():
    g = HarvestersGame(num_players=4, shapes="L,X,U,P")
    rng = np.random.default_rng(5)
    s = g.new_initial_state()
    for _ in range(60):
        legal = s.legal_actions()
        s.apply_action(legal[rng.integers(len(legal))])
    data = json.loads(json.dumps(s.to_dict()))
    back = HarvestersState.from_dict(data)
    assert back == s
    assert np.array_equal(back.legal_actions_mask(), s.legal_actions_mask())
    assert np.array_equal(back.observation(2), s.observation(2))
    twin = s.clone()
    legal = twin.legal_actions()
    twin.apply_action(legal[0])
    assert twin != s and back == s


def test_action_strings():
    g = HarvestersGame(num_players=2)
    s = g.new_initial_state()
    assert s.action_to_string(0) == "take harvester kind L"
    assert s.action_to_string(2) == "take a crater"
    assert s.action_to_string(g.crater_action(13)) == "crater on B2"
    assert s.action_to_string(g.place_action(3, 0)) == "harvester orientation 3 at A1"
    assert s.action_to_string(g.deposit_action(143)) == "deposit on L12"
    with pytest.raises(ValueError):
        s.action_to_string(g.spec.num_actions)
    text = str(setup(g))
    assert "kind L" in text and "phase: deposits" in text
