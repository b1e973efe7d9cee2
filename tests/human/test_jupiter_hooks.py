"""Jupiter told so that a watcher with ``--render none`` can follow: who starts, each roll,
what each probe and die scores, and a legend."""

from __future__ import annotations

import io
import re

import numpy as np
import pytest

from moon_agents.cli.main import main
from moon_agents.play.human import hooks_for, narrate, narrate_chance
from tests.human.helpers import legal

HOOKS = hooks_for("jupiter")


@pytest.mark.parametrize("black_moons", [False, True])
def test_every_move_and_chance_event_is_told_with_its_score(black_moons: bool) -> None:
    import moon_envs

    game = moon_envs.make("jupiter_v0", num_players=3, black_moons=black_moons).game
    rng = np.random.default_rng(1)
    state = game.new_initial_state()
    seen = set()
    while not state.is_terminal():
        before = state.clone()
        if state.current_player() == -1:
            outcomes = state.chance_outcomes()
            state.apply_action(int(outcomes[rng.integers(len(outcomes))][0]))
            lines = narrate_chance(before, state, None)
            if before.stage == "start":
                assert lines == [f"player_{state.player} goes first (drawn at random)"]
            else:
                face = int(state.rolled)
                note = " (a black moon: it counts -" if black_moons and face in (3, 4) else ""
                assert lines[0].startswith(f"the die shows {face}{note}"), lines
            seen.add(before.stage)
            continue
        acts = legal(state)
        action = acts[rng.integers(len(acts))]
        state.apply_action(action)
        line = narrate(before, action, state, 1)
        assert line == narrate(before, action, state, None)  # nothing is hidden
        (text,) = line
        p = before.player
        cells = game.num_cells
        if action == game.roll_action:
            assert text == f"takes a die to roll ({state.dice_left} left)"
            seen.add("roll")
        elif action < cells:
            gain = int(state.points[p] - before.points[p])
            m = re.fullmatch(rf"probe {game.cell_name(action)}: ([+-]\d+) \((.*)\)", text)
            assert m and int(m.group(1)) == gain, text
            dice = {game.cell_name(int(c)): int(before.die[c])
                    for c in game.line_cells[action] if before.die[c]}  # fmt: skip
            if dice:
                assert m.group(2) == ", ".join(f"the {f} on {c}" for c, f in dice.items())
            else:
                assert m.group(2) == "no die in its row or column"
            seen.add("probe")
        else:
            cell, face = action - cells, int(before.rolled)
            assert text.startswith(f"puts the {face}")
            assert f" on {game.cell_name(cell)}: " in text
            for s in range(game.config.num_players):
                gain = int(state.points[s] - before.points[s])
                owns = any(before.owner[c] == s for c in game.line_cells[cell])
                assert (f"player_{s} {gain:+d} (probe" in text) == owns, (s, text)
            seen.add("die")
        assert narrate_chance(before, before, None) == []
    assert seen == {"start", "rolling", "roll", "probe", "die"}


def test_the_legend_explains_board_moves_and_scoring() -> None:
    import moon_envs

    state = moon_envs.make("jupiter_v0", black_moons=True).game.new_initial_state()
    text = HOOKS.legend(state, 0)
    assert "columns A..D, rows 1..4 (A1 top" in text and "D4 bottom right" in text
    assert "'roll'" in text and "'B2'" in text and "row and column" in text
    assert "a 3 or a 4 counts negative" in text


def test_a_watcher_without_a_board_can_follow_the_game() -> None:
    out = io.StringIO()
    argv = ["play", "jupiter_v0", "--agents", "random", "greedy", "--render", "none"]
    assert main(argv, stdout=out) == 0
    lines = out.getvalue().splitlines()
    assert re.fullmatch(r"player_[01] goes first \(drawn at random\)", lines[1])
    rolls = [i for i, ln in enumerate(lines) if ln.startswith("the die shows ")]
    assert rolls
    for i in rolls:  # a roll is told right after the die is taken, and placed next
        assert lines[i - 1].endswith("left)") and "takes a die to roll" in lines[i - 1]
        face = lines[i].split()[3]
        assert re.match(rf"player_\d \(\w+\): puts the {face}\b", lines[i + 1])
