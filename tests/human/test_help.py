"""``help`` (or ``h``, ``?``) at a person's move: every game's goal, a turn, and how to type
moves, in at most 15 lines of an 80-column terminal."""

from __future__ import annotations

import io

import pytest

from moon_agents.cli.main import main
from moon_agents.play.human import hooks_for, parse_move
from moon_envs.star_master.phases import FLIP
from tests.human.helpers import SMALL, legal, play_until

GOALS = {  # env id -> words of its goal that the help must hold
    "jupiter_v0": "Goal: the highest score",
    "moonstar_v1": "Goal: 200 points first",
    "moon_harvesters_v0": "Goal: collect the most deposits",
    "star_master_v0": "Goal: be the first to hold 6 colours",
    "moonwakers_v1": "Goal: the most COMBINATION points",
}
PROMPT = "move (help, moves, board, q)> "


def help_shown(env_id: str, word: str) -> list[str]:
    """The lines ``word`` prints at seat 0's first move of a game on an 80-column screen."""
    out = io.StringIO()
    params = dict(SMALL[env_id])
    others = ["random"] * (params.pop("num_players", 2) - 1)  # the agents set the count
    argv = ["play", env_id, "--human", "0", "--agents", *others, "--render", "none",
            "--width", "80", "--seed", "0"]  # fmt: skip
    for key, value in params.items():
        argv += ["--param", f"{key}={value}"]
    assert main(argv, stdin=io.StringIO(f"{word}\nq\n"), stdout=out) == 1  # q: abandoned
    lines = out.getvalue().splitlines()
    start = lines.index(PROMPT + word) + 1
    end = next(i for i in range(start, len(lines)) if lines[i].startswith(PROMPT))
    return lines[start:end]


@pytest.mark.parametrize("env_id", list(GOALS))
def test_help_gives_the_goal_a_turn_and_typing_in_15_lines(env_id: str) -> None:
    shown = help_shown(env_id, "help")
    assert 6 <= len(shown) <= 15, shown
    assert all(len(line) <= 80 for line in shown)
    text = " ".join(shown)
    assert GOALS[env_id] in text, text
    assert "'moves' lists the legal moves" in text and "'q' quits" in text
    assert text.count("'") >= 8  # moves to type, quoted
    assert help_shown(env_id, "?") == shown
    assert help_shown(env_id, "h") == shown


EXAMPLES = {  # env id, a position, the typed example of its help -> the move it names
    "jupiter_v0": (lambda s: s.current_player() >= 0, "B2"),  # the first move: B2 is free
    "moon_harvesters_v0": (lambda s: s.phase == "auction", "take a crater"),
    "star_master_v0": (lambda s: s.current_player() >= 0 and s.phase == FLIP, "flip 3"),
    "moonwakers_v1": (
        lambda s: s.current_player() >= 0 and s.tasks[0]["t"] == "option",
        "option PROTECTION",
    ),
    "moonstar_v1": (lambda s: s.phase == "auction" and s.current_player() >= 0, "pass"),
}


@pytest.mark.parametrize("env_id", list(EXAMPLES))
def test_an_example_of_the_help_is_a_legal_move(env_id: str) -> None:
    stop, typed = EXAMPLES[env_id]
    state = play_until(env_id, stop, seed=0, **SMALL[env_id])
    hooks = hooks_for(state.game.spec.name)
    assert f"'{typed}'" in hooks.legend(state, state.current_player())
    names = {a: hooks.move_name(state, a) for a in legal(state)}
    action = parse_move(hooks.aliases(state, typed), names)
    assert action in names
