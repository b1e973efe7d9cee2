"""``moon-envs play`` on a terminal (each board drawn over the last) and as a plain log
(pipes, files): escape codes, wrapping at the width, and Star Master's scrollback."""

from __future__ import annotations

import io

from moon_agents.cli.main import main
from moon_agents.play.human.screen import (
    CLEAR,
    CLEAR_SCROLLBACK,
    ROOM_FOR_PROMPT,
    TerminalScreen,
    wrap,
)

MOONSTAR_3 = ["play", "moonstar_v1", "--agents", "random", "random", "random",
              "--param", "max_rounds=1", "--seed", "2"]  # fmt: skip
STAR_MASTER = ["play", "star_master_v0", "--human", "0", "--agents", "random",
               "--param", "max_turns=8", "--seed", "1"]  # fmt: skip


class Terminal(io.StringIO):
    """A stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


class FirstLegalMove(io.StringIO):
    """Types the number of the first legal move listed on ``screen``."""

    def __init__(self, screen: io.StringIO) -> None:
        super().__init__()
        self.screen = screen

    def readline(self, *args: object) -> str:
        text = self.screen.getvalue()
        listed = text[text.rfind("Legal moves:") :].splitlines()[1]
        return listed.split(":")[0].strip() + "\n"


def test_wrap_cuts_lines_at_the_width_and_indents_what_follows() -> None:
    text = "  player_0 (random): " + "moon 3 on star 5 " * 8
    lines = wrap(text, 30)
    assert len(lines) > 3 and all(len(line) <= 30 for line in lines)
    assert lines[0].startswith("  player_0") and all(x.startswith("    ") for x in lines[1:])
    assert " ".join(x.strip() for x in lines) == text.strip()
    assert wrap("x" * 50, 20) == ["x" * 20, "  " + "x" * 18, "  " + "x" * 12]
    assert wrap("a long line\nb", None) == ["a long line", "b"]


def test_a_terminal_redraws_each_board_in_place_within_the_width(monkeypatch) -> None:
    monkeypatch.setenv("LINES", "40")
    log = io.StringIO()
    assert main(MOONSTAR_3, stdout=log) == 0
    plain = log.getvalue().splitlines()
    out = Terminal()
    assert main([*MOONSTAR_3, "--width", "60"], stdout=out) == 0
    text = out.getvalue()
    frames = text.split(CLEAR)[1:]
    moves = sum(line.startswith("player_") and "(random): " in line for line in plain)
    assert len(frames) == moves + 1  # the opening board, then one per move
    assert len(plain) > 3 * 40  # the log scrolls page after page ...
    for frame in frames:  # ... each frame of the screen fits it (and the next move's lines)
        lines = frame.splitlines()
        assert lines[0].startswith("moonstar_v1: player_0 (random) vs")
        assert len(lines) <= 40 - ROOM_FOR_PROMPT + 8
    assert all(len(line) <= 60 for line in text.replace(CLEAR, "").splitlines())
    assert CLEAR_SCROLLBACK not in text  # a spectator has nothing to forget
    assert "final scores:" in frames[-1] and "winner(s): " in frames[-1]


def test_a_log_has_no_escape_codes_and_wraps_only_when_asked(monkeypatch) -> None:
    log = io.StringIO()
    assert main(MOONSTAR_3, stdout=log) == 0  # piped: a log, lines whole
    assert "\x1b" not in log.getvalue()
    assert max(len(line) for line in log.getvalue().splitlines()) > 60
    narrow = io.StringIO()
    assert main([*MOONSTAR_3, "--width", "60"], stdout=narrow) == 0
    assert "\x1b" not in narrow.getvalue()
    assert max(len(line) for line in narrow.getvalue().splitlines()) <= 60
    monkeypatch.setenv("COLUMNS", "70")
    terminal = Terminal()
    assert main([*MOONSTAR_3, "--log"], stdout=terminal) == 0  # a log, even on a terminal
    assert "\x1b" not in terminal.getvalue()
    assert max(len(line) for line in terminal.getvalue().splitlines()) <= 70  # its width
    forced = io.StringIO()
    assert main([*MOONSTAR_3, "--tty"], stdout=forced) == 0
    assert forced.getvalue().count(CLEAR) > 10


def test_too_narrow_a_width_is_refused(capsys) -> None:
    assert main([*MOONSTAR_3, "--width", "5"], stdout=io.StringIO()) == 2
    assert "--width 5: too narrow; allowed: 20 or more" in capsys.readouterr().err


def test_star_master_memory_modes_clear_the_scrollback_on_a_terminal() -> None:
    for memory, forgets in (("none", True), ("decay", True), ("perfect", False)):
        out = Terminal()
        argv = [*STAR_MASTER, "--param", f"memory={memory}", "--width", "80"]
        main(argv, stdin=FirstLegalMove(out), stdout=out)
        text = out.getvalue()
        assert text.count(CLEAR) > 3 and "Your move (player_0)." in text
        assert text.count(CLEAR_SCROLLBACK + CLEAR) == (text.count(CLEAR) if forgets else 0)
    log = io.StringIO()  # a log keeps every line: the scrollback is the user's
    main([*STAR_MASTER, "--param", "memory=none"], stdin=FirstLegalMove(log), stdout=log)
    assert "\x1b" not in log.getvalue()


def test_lines_under_the_board_start_again_at_each_decision_when_the_seat_forgets() -> None:
    for forget in (True, False):
        out = io.StringIO()
        screen = TerminalScreen(out, 80, 24, "star_master_v0: ...", forget=forget)
        screen.say("player_1 (random): flips slot 3: red, found: gains red")
        screen.board("slots: 0:? 1:? 2:?")
        screen.decision()  # the person chooses, then their move is told
        screen.say("player_0 (human): flips slot 4: blue, a miss")
        out.seek(0)
        out.truncate()
        screen.board("slots: 0:? 1:? 2:?")
        frame = out.getvalue()
        assert frame.startswith((CLEAR_SCROLLBACK if forget else "") + CLEAR)
        assert "slot 4: blue" in frame
        assert ("slot 3: red" in frame) is not forget
