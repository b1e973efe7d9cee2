"""Moves typed the way the rule books and the game's own text say them: ``pas`` (French
for pass), a Moonwakers card as the game prints it (``pay with Ice Field:C``), and
refusals that name what occupies a cell (``B2 is occupied by player_0's probe``)."""

from __future__ import annotations

import io
import re

import numpy as np
import pytest

from moon_agents.cli.main import main
from moon_agents.play.human import MoveError, hooks_for, parse_move
from tests.human.helpers import legal, play_until


def typed(state, text: str) -> int:
    """The legal action ``text`` names at ``state``, as a person at the terminal types it."""
    hooks = hooks_for(state.game.spec.name)
    names = {a: hooks.move_name(state, a) for a in legal(state)}
    return parse_move(hooks.aliases(state, text), names)


def test_pas_is_pass() -> None:
    names = {3: "probe A1", 70: "pass"}
    assert parse_move("pas", names) == parse_move("PAS", names) == parse_move("passe", names) == 70
    state = play_until("moonstar_v1", lambda s: s.phase == "auction" and s.current_player() >= 0,
                       num_players=3)  # fmt: skip
    assert state.action_to_string(typed(state, "pas")) == "pass"


def test_pas_through_the_command_line() -> None:
    out = io.StringIO()
    argv = ["play", "moonstar_v1", "--human", "0", "--agents", "random", "random",
            "--param", "max_rounds=1", "--render", "none", "--seed", "0"]  # fmt: skip
    main(argv, stdin=io.StringIO("pas\n" * 40 + "q\n"), stdout=out)
    assert "player_0 (human): pass" in out.getvalue()


def _paying() -> object:
    for seed in range(20):
        try:
            return play_until(
                "moonwakers_v1",
                lambda s: s.current_player() >= 0 and s.tasks and s.tasks[0]["t"] == "pay",
                seed=seed,
            )
        except AssertionError:
            continue
    raise AssertionError("no Moonwakers payment in 20 seeded games")


def test_moonwakers_cards_typed_as_the_game_prints_them() -> None:
    state = _paying()
    resolved = 0
    for a in legal(state):
        name = state.action_to_string(a)
        m = re.fullmatch(r"pay with hand card (.+)/(.+)", name)
        if not m:
            continue
        terrain, back = m.groups()  # as the narration prints it: "pays with Ice Field:C / C2"
        for text in (f"pay with {terrain}", f"PAY WITH {terrain} / {back}", f"{terrain}/{back}"):
            try:
                got = typed(state, text)
            except MoveError as exc:  # another card printed alike: listed to choose from
                assert any(name in s for s in exc.suggestions), exc
                continue
            assert state.action_to_string(got) == name, (text, name)
            resolved += 1
    assert resolved


def test_jupiter_names_what_occupies_a_cell() -> None:
    state = play_until("jupiter_v0", lambda s: s.current_player() >= 0)
    g = state.game
    b2 = g.cols + 1
    mover = state.current_player()
    state.apply_action(b2)  # a probe on B2
    while state.current_player() < 0:
        state.apply_action(int(state.chance_outcomes()[0][0]))
    for text in ("B2", "probe b2"):
        with pytest.raises(MoveError, match=f"^B2 is occupied by player_{mover}'s probe$") as err:
            typed(state, text)
        assert err.value.suggestions and all("B2" not in s for s in err.value.suggestions)
        near = err.value.suggestions[0]
        assert re.search(r"(A2|C2|B1|B3)$", near), near  # the nearest free cells first


def test_harvesters_name_what_occupies_a_cell() -> None:
    state = play_until("moon_harvesters_v0",
                       lambda s: s.phase == "deposits" and (np.asarray(s.owner) >= 0).any(),
                       seed=3, rows=6, cols=6, pieces_per_kind=3, num_deposits=12)  # fmt: skip
    g = state.game
    cell = int(np.flatnonzero(np.asarray(state.owner) >= 0)[0])
    owner = int(state.owner[cell])
    name = g.cell_name(cell)
    for text in (name, f"deposit on {name.lower()}"):
        with pytest.raises(MoveError, match=f"^{name} is occupied by player_{owner}'s harvester"):
            typed(state, text)


def test_harvesters_placement_says_which_cell_is_in_the_way() -> None:
    state = play_until("moon_harvesters_v0",
                       lambda s: s.phase == "place" and (np.asarray(s.owner) >= 0).any(),
                       seed=3, rows=6, cols=6, pieces_per_kind=3, num_deposits=12)  # fmt: skip
    g = state.game
    shape = g.kinds[int(state.kind_of[state.current_player()])]
    taken = int(np.flatnonzero(np.asarray(state.owner) >= 0)[0])
    owner = int(state.owner[taken])
    r, c = divmod(taken, g.cols)
    dr, dc = shape.orientations[0][0]  # the orientation's first cell lands on the taken one
    anchor = (r - dr) * g.cols + (c - dc)
    assert r >= dr and c >= dc
    text = f"{shape.name} 0 {g.cell_name(anchor)}"
    with pytest.raises(MoveError) as err:
        typed(state, text)
    assert re.search(rf"{g.cell_name(taken)}( and [A-F]\d|, [A-F]\d)*( is| are) occupied by "
                     rf"player_{owner}'s harvester", str(err.value)), err.value  # fmt: skip
    assert err.value.heading == "placements that fit"
    corner = g.num_cells - 1  # a piece anchored on the last cell leaves the board
    with pytest.raises(MoveError, match=r"it would leave the board \(A1\.\.F6\)"):
        typed(state, f"{shape.name} 0 {g.cell_name(corner)}")
