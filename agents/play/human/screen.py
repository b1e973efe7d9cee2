"""Where ``moon-envs play`` writes: a screen redrawn in place, or a plain log.

* :class:`PlainLog`, when the output is not a terminal (a pipe, a file, a test) or with
  ``--log``: every line once, in order, as it happens, to read back or grep.
* :class:`TerminalScreen`, when the output is a terminal or with ``--tty``: each board is
  drawn over the previous one (:data:`CLEAR`: cursor home, clear the screen), with the
  title above it and the latest lines below it, so a game does not scroll thousands of
  lines. With ``forget=True`` (a seat whose memory forgets, as in Star Master's memory
  modes ``"none"`` and ``"decay"``) every redraw also clears the scrollback
  (:data:`CLEAR_SCROLLBACK`) and the lines kept below the board start again at each of the
  person's decisions, so nothing they were shown earlier can be scrolled back to.

Both wrap lines longer than ``width`` columns (:func:`wrap`); ``None`` leaves them whole
(a log piped to another program).
"""

from __future__ import annotations

import shutil
import textwrap
from typing import TextIO

CLEAR = "\x1b[H\x1b[2J"
"""ANSI: cursor to the top-left corner, clear the screen."""
CLEAR_SCROLLBACK = "\x1b[3J"
"""ANSI (xterm and most terminals): clear the scrollback."""
ROOM_FOR_PROMPT = 3
"""Lines a redraw leaves free at the bottom of the screen (a prompt, a typed move)."""


def wrap(text: str, width: int | None) -> list[str]:
    """The lines of ``text``, each cut at spaces into lines of at most ``width``
    characters; a continuation is indented two spaces more than the line it continues.
    A word longer than ``width`` is split."""
    lines = text.split("\n")
    if width is None:
        return lines
    out: list[str] = []
    for line in lines:
        if len(line) <= width:
            out.append(line)
            continue
        indent = line[: len(line) - len(line.lstrip())]
        more = indent + "  " if len(indent) + 2 <= width // 2 else ""
        out += textwrap.wrap(line, width, subsequent_indent=more, break_on_hyphens=False)
    return out


class PlainLog:
    """Every line once, in order (module docstring).

    Args:
        out: the stream written to.
        width: the column lines wrap at; ``None``: lines stay whole.
    """

    terminal = False

    def __init__(self, out: TextIO, width: int | None = None) -> None:
        self.out = out
        self.width = width

    def show(self, text: str) -> None:
        """Print ``text`` (wrapped)."""
        for line in wrap(text, self.width):
            print(line, file=self.out)
        self.out.flush()

    def say(self, text: str) -> None:
        """Print a line of the game's story (a move, a roll)."""
        self.show(text)

    def board(self, text: str) -> None:
        """Print the board."""
        self.show(text)

    def decision(self) -> None:
        """The person at the terminal is about to choose a move."""


class TerminalScreen(PlainLog):
    """Each board drawn over the previous one (module docstring).

    Args:
        out: the terminal's stream.
        width, height: the terminal's size in columns and lines.
        title: the line drawn above every board (who plays whom).
        forget: clear the scrollback at every redraw, and the lines kept below the board at
            every decision of the person.
    """

    terminal = True

    def __init__(
        self, out: TextIO, width: int, height: int, title: str = "", forget: bool = False
    ) -> None:
        super().__init__(out, width)
        self.height = height
        self.title = title
        self.forget = forget
        self.recent: list[str] = []

    def say(self, text: str) -> None:
        lines = wrap(text, self.width)
        self.recent = (self.recent + lines)[-self.height :]
        self.show(text)

    def board(self, text: str) -> None:
        """Clear the screen (and the scrollback with ``forget``), then draw the title, the
        board and as many of the latest lines as the screen has room for."""
        top = wrap(self.title, self.width) + wrap(text, self.width)
        room = max(0, self.height - len(top) - 1 - ROOM_FOR_PROMPT)
        kept = self.recent[-room:] if room else []
        self.out.write((CLEAR_SCROLLBACK if self.forget else "") + CLEAR)
        print("\n".join(top + (["", *kept] if kept else [])), file=self.out)
        self.out.flush()

    def decision(self) -> None:
        if self.forget:
            self.recent = []


def is_terminal(stream: TextIO) -> bool:
    """Whether ``stream`` is a terminal (``False`` for a stream without ``isatty`` or a
    closed one)."""
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def open_screen(
    out: TextIO,
    mode: str = "auto",
    width: int | None = None,
    title: str = "",
    forget: bool = False,
) -> PlainLog:
    """The screen ``moon-envs play`` writes ``out`` through.

    Args:
        mode: ``"auto"`` (a :class:`TerminalScreen` when ``out`` is a terminal, else a
            :class:`PlainLog`), ``"tty"`` or ``"log"`` (that one, whatever ``out`` is).
        width: the column lines wrap at; ``None``: the terminal's width
            (``shutil.get_terminal_size``) when ``out`` is a terminal or ``mode="tty"``,
            else lines stay whole.
        title, forget: see :class:`TerminalScreen`.
    """
    if mode not in ("auto", "tty", "log"):
        raise ValueError(f"mode={mode!r}; allowed: 'auto', 'tty', 'log'")
    terminal = mode == "tty" or (mode == "auto" and is_terminal(out))
    size = shutil.get_terminal_size()
    if width is None and (terminal or is_terminal(out)):
        width = size.columns
    if terminal:
        return TerminalScreen(out, width or size.columns, size.lines, title, forget)
    return PlainLog(out, width)
