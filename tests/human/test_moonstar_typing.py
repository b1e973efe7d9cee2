"""Moonstar moves typed as the legend shows them, on real positions, and bids by amount."""

from __future__ import annotations

import io
import re

import pytest

from moon_agents.play.human import HumanAgent, hooks_for, narrate, parse_move
from moon_agents.play.human.parsing import MoveError
from moon_envs.core.view import AgentView
from moon_envs.moonstar.constants import direction_name
from tests.human.helpers import legal, play_until

HOOKS = hooks_for("moonstar")
LONG = {"cw": "clockwise", "ccw": "counterclockwise", "cw x2": "clockwise twice",
        "ccw half": "counterclockwise half", "ccw x2": "anticlockwise x2"}  # fmt: skip


def _in_play(state) -> bool:
    return state.phase == "play" and state.current_player() >= 0


def _typed(state, text: str) -> int:
    names = {a: HOOKS.move_name(state, a) for a in legal(state)}
    return parse_move(HOOKS.aliases(state, text), names)


@pytest.mark.parametrize("movement", ["exact", "double_half", "double_double"])
def test_every_legend_style_input_names_its_move(movement: str) -> None:
    state = play_until("moonstar_v1", _in_play, seed=3, num_players=3, movement=movement)
    acts = legal(state)
    assert len(acts) == (56 if movement == "exact" else 112)  # 7 moons, 4 faces, 2 or 4 ways
    before = state.to_string(None)
    for a in acts:
        m, d, k = state.game.decode_move(a)
        face = int(state.dice[d])
        way = direction_name(k, movement)
        for text in (
            f"moon {m} die {d} {way}",  # the legend's own form
            f"moon {m} with die {d} (face {face}) {LONG[way]}",
            f"Moon {m} with a {face} {way}",
            f"moon {m} face {face} {LONG[way]}",
        ):
            assert _typed(state, text) == a, text
    assert state.to_string(None) == before


def test_a_die_of_the_same_face_means_the_same_move() -> None:
    state = play_until("moonstar_v1", _in_play, seed=3, num_players=3)
    assert [int(f) for f in state.dice[:4]] == [1, 1, 1, 1]  # the rules offer die 0 of these
    a = _typed(state, "moon 2 die 3 cw")
    assert state.game.decode_move(a) == (2, 0, 0)


def test_illegal_typed_moves_say_why() -> None:
    state = play_until("moonstar_v1", _in_play, seed=3, num_players=3)
    cases = {
        "moon 0 die 9 cw": r"there is no die 9; the dice: die 0 \(face 1\), die 1",
        "moon 9 die 0 cw": "there is no moon 9",
        "moon 0 face 2 cw": r"no unused die shows 2; unused faces: \[1, 3, 4, 6\]",
        "moon 0 die 4 (face 5) cw": "die 4 shows 3, not 5",
        "moon 0 die 0 cw x2": r"not a direction this round \(movement exact\); allowed: cw, ccw",
    }
    for text, reason in cases.items():
        with pytest.raises(MoveError, match=reason) as err:
            _typed(state, text)
        if "direction" not in reason:  # every wrong moon move lists nearby legal moves
            assert err.value.suggestions and all(": moon " in m for m in err.value.suggestions)
    with pytest.raises(MoveError) as err:
        _typed(state, "moon 0 face 2 cw")
    assert err.value.suggestions[0].split(": ")[1].startswith("moon 0 ")  # that moon first
    moved = state.clone()
    moved.apply_action(_typed(state, "moon 0 die 4 cw"))
    assert _in_play(moved)
    with pytest.raises(MoveError, match="moon 0 has already moved"):
        _typed(moved, "moon 0 die 5 cw")
    with pytest.raises(MoveError, match=r"die 4 \(face 3\) is already used"):
        _typed(moved, "moon 1 die 4 cw")


def test_a_die_is_named_the_same_way_in_names_narration_and_the_last_line() -> None:
    """``die D (face F)``: D is the die's index, F its face, in every text."""
    state = play_until("moonstar_v1", _in_play, seed=3, num_players=3)
    a = next(a for a in legal(state) if state.game.decode_move(a)[1] == 5)  # die 5 shows 4
    m, d, k = state.game.decode_move(a)
    face = int(state.dice[d])
    assert (d, face) == (5, 4)
    after = state.clone()
    after.apply_action(a)
    named = f"die {d} (face {face})"
    assert state.action_to_string(a) == f"moon {m} with {named} {direction_name(k, 'exact')}"
    assert named in narrate(state, a, after, None)[0]
    assert named in HOOKS.move_name(state, a)
    assert re.fullmatch(rf"moon {m} with {re.escape(named)} cw to star \d+ \(\+\d+\)",
                        after.last_action)  # fmt: skip
    assert f"last: {after.last_action}" in after.to_string(None)


def _auction():
    state = play_until("moonstar_v1", lambda s: s.phase == "auction", seed=3, num_players=3)
    assert state.current_player() >= 0 and state.high_bid == 0 and len(legal(state)) == 70
    return state


def test_a_bare_number_in_the_auction_is_a_bid_amount() -> None:
    state = _auction()
    g = state.game
    assert g.bid_action(30) == 40  # move number 40 is "bid 30": 40 must not mean that
    assert _typed(state, "40") == g.bid_action(40)
    assert _typed(state, "bid 40") == g.bid_action(40)
    assert _typed(state, "#40") == 40  # an explicit move number
    assert _typed(state, "pass") == g.a_pass
    with pytest.raises(MoveError, match=r"a bid of 75 is not allowed \(bids go from 2 to 70"):
        _typed(state, "75")
    state.apply_action(g.bid_action(35))
    with pytest.raises(MoveError, match=r"a bid of 30 is not allowed \(a bid must be above "
                                        r"the high bid 35; legal bids: 36\.\.70"):  # fmt: skip
        _typed(state, "30")


def test_a_person_bids_by_amount_at_the_terminal() -> None:
    state = _auction()
    out = io.StringIO()
    agent = HumanAgent(io.StringIO("75\n45\n"), out)
    assert agent.act(AgentView.of(state)) == state.game.bid_action(45)
    text = out.getvalue()
    assert "auction: type a bid amount ('45' bids 45), 'pass', or '#N'" in text
    assert "a bid of 75 is not allowed" in text
