"""A stalemate (nobody can ever score again): found, told in the text view and by
``moon-envs play`` in one line, and ended by the [HOUSE] ``end_when_stalemated``."""

from __future__ import annotations

import io

import pytest

from moon_agents.cli.main import main
from moon_agents.play.stalemate import StalemateRun
from moon_envs.core.game import ConfigError
from moon_envs.moonwakers.config import MoonwakersConfig
from moon_envs.moonwakers.stalemate import STALEMATE_TEXT, stalemated
from tests.moonwakers.positions import A, blank, lay, map_card, of_kind, run, show
from tests.moonwakers.test_human import FirstLegalInput


def _combo(s, name: str) -> int:
    return s.cards.combo_names.index(name)


def held_everything(n: int = 2, **params):
    """Every terrain card mapped: seat 0 the cards of terrain C, H and N, seat 1 those of
    O, P and S; H2O and CO2 face up, which neither can pay. The claims of round 1."""
    s = blank(n, **params)
    for c in list(s.pile):
        map_card(s, 0 if "CHNOPS"[s.cards.element_of[c]] in "CHN" else 1, c)
    show(s, 0, _combo(s, "H2O"))
    show(s, 1, _combo(s, "CO2"))
    run(s, ("claims_start", {}))
    return s


def _pass_claims(s) -> None:
    for _ in range(s.n):
        assert s.legal_actions() == [A.PASS]
        s.apply_action(A.PASS)


def test_a_position_where_no_card_can_move_and_nothing_is_affordable_is_a_stalemate():
    assert stalemated(held_everything())
    assert held_everything().stalemate_reason() == STALEMATE_TEXT


@pytest.mark.parametrize("change", ["pile", "table", "labo", "affordable"])
def test_anything_that_can_still_move_is_no_stalemate(change):
    s = held_everything()
    o_card = next(c for c in s.mapped[1] if s.cards.element_of[c] == "CHNOPS".index("O"))
    s.mapped[1].remove(o_card)
    if change == "pile":
        s.pile.append(o_card)
    elif change == "table":
        s.pile.append(o_card)
        lay(s, 0, o_card)  # laid from the pile
    elif change == "labo":
        s.mapped[1].append(o_card)
        labo = of_kind(s, "labo")[0]
        owner = next(x for x in range(2) if labo in s.mapped[x])
        s.mapped[owner].remove(labo)
        s.hand[owner].append(labo)
    else:  # seat 0 (C, H, N) gets an O: it can pay H2O
        s.mapped[0].append(o_card)
    assert not stalemated(s)


def test_by_default_a_stalemate_plays_on_to_the_round_cap():
    s = held_everything(max_rounds=3)
    _pass_claims(s)
    assert not s.is_terminal() and s.round == 2
    assert "stalemate: " + STALEMATE_TEXT in str(s) and "max_rounds=3" in str(s)
    assert "stalemate" not in s.to_string(0)  # a seat cannot tell: hidden cards may decide
    while not s.is_terminal():
        s.apply_action(s.legal_actions()[0])  # SCAN / PROTECTION, then claims that pass
    assert s.round == 3 and list(s.scores()) == [0, 0]


def test_end_when_stalemated_ends_the_game_with_the_round():
    s = held_everything(end_when_stalemated=True)
    assert "the game ends with this round" in str(s)
    _pass_claims(s)
    assert s.is_terminal() and s.round == 1
    assert "stalemate: " not in str(s)  # the game is over: no stalemate line


def test_end_when_stalemated_keeps_a_game_that_can_still_change():
    s = held_everything(end_when_stalemated=True)
    s.pile.append(s.mapped[1].pop())
    s.forget_memos()
    _pass_claims(s)
    assert not s.is_terminal() and s.round == 2


def test_end_when_stalemated_must_be_a_bool():
    assert MoonwakersConfig().end_when_stalemated is False
    with pytest.raises(ConfigError, match="end_when_stalemated"):
        MoonwakersConfig(end_when_stalemated="yes")


def test_stalemate_run_counts_moves_and_names_the_rounds():
    run_ = StalemateRun()
    live, stuck = blank(2), held_everything()
    assert not run_.take(live) and run_.summary() == []
    for r in (41, 41, 42, 100):
        stuck.round = r
        assert run_.take(stuck)
    assert run_.summary() == [
        f"== rounds 41-100 (4 moves not shown): nobody could score any more: {STALEMATE_TEXT}"
    ]
    assert run_.summary() == []  # a new run starts


def test_play_tells_the_empty_rounds_of_a_stalemate_in_one_line():
    """A random six-player game that runs the terrain pile dry and plays on to the cap."""
    out = io.StringIO()
    argv = ["play", "moonwakers_v1", "--seed", "3", "--render", "none"]
    argv += ["--param", "num_players=6", "--param", "max_rounds=60"]
    assert main(argv, stdin=io.StringIO(), stdout=out) == 0
    text = out.getvalue()
    summary = [line for line in text.splitlines() if "nobody could score any more" in line]
    assert len(summary) == 1, text[-3000:]
    assert summary[0].startswith("== rounds ") and "-60 (" in summary[0]
    first = int(summary[0].split()[2].split("-")[0])
    claims = [line for line in text.splitlines() if line.startswith("  claims: ")]
    assert len(claims) <= first  # one per round before it, and the last move's: not 60
    assert "== game over after round 60" in text


def test_a_person_playing_a_seat_is_not_told_of_a_stalemate():
    """A seat cannot always tell a stalemate (hidden cards may decide it): with --human
    every move is told."""
    out = io.StringIO()
    argv = ["play", "moonwakers_v1", "--seed", "3", "--render", "none", "--human", "0"]
    argv += ["--param", "num_players=6", "--param", "max_rounds=30"]
    assert main(argv, stdin=FirstLegalInput(400), stdout=out) == 0
    text = out.getvalue()
    assert "nobody could score any more" not in text and "stalemate" not in text
    claims = [line for line in text.splitlines() if line.startswith("  claims: ")]
    assert len(claims) == 30 and "== game over after round 30" in text  # every round told
