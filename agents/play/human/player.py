"""A person at the terminal as an agent: sees their seat's view, types moves by name."""

from __future__ import annotations

from typing import Any, TextIO

import numpy as np

from moon_agents.play.human.hooks import hooks_for
from moon_agents.play.human.parsing import MoveError, parse_move
from moon_agents.play.human.screen import PlainLog, is_terminal

LIST_AT_MOST = 30
"""Longer move lists are not printed unasked (type ``moves``)."""
HELP_WORDS = ("help", "h", "?")
"""What shows the game's help: its goal, a turn, and how to type moves."""


class InputEnded(Exception):
    """The input stream ended before the game did."""


class HumanAgent:
    """A person at the terminal: sees the board and the legal moves, types a move.

    A move is typed as its number, its name or enough words of it (see
    :mod:`moon_agents.play.human.parsing`); ``help`` (or ``h``, ``?``) shows the game's
    help (its goal, a turn, how to type moves), ``moves`` the legal moves, ``board`` the
    seat's view of the board, ``q`` quits (``KeyboardInterrupt``).

    Args:
        inp, out: where moves are read and the prompts written.
        name: the agent's name.
        screen: what writes ``out`` (:mod:`moon_agents.play.human.screen`); default a
            plain log with lines left whole.
    """

    def __init__(
        self, inp: TextIO, out: TextIO, name: str = "human", screen: PlainLog | None = None
    ) -> None:
        self.name = name
        self.inp = inp
        self.out = out
        self.screen = screen or PlainLog(out)

    def _say(self, text: str) -> None:
        if text:
            self.screen.show(text)

    def act(self, view: Any) -> int:
        # a determinisation consistent with what this seat knows: used only to name moves
        state = view.sample_state(np.random.default_rng(0))
        hooks = hooks_for(view.game.spec.name)
        legal = [int(a) for a in view.legal_actions]
        names = {a: hooks.move_name(state, a) for a in legal}
        self._say(f"\nYour move (player_{view.seat}).")
        self._say(hooks.pictures(state, view.seat))
        if len(legal) <= LIST_AT_MOST:
            self._list(names)
        else:
            self._say(f"{len(legal)} legal moves: type 'moves' to list them, 'help' for how.")
        while True:
            print("move (help, moves, board, q)> ", end="", file=self.out, flush=True)
            line = self.inp.readline()
            if not line:
                raise InputEnded("input ended before the game did")
            text = line.strip()
            if not is_terminal(self.inp):  # piped input: show what was typed, as a terminal does
                print(text, file=self.out)
            low = text.lower()
            if low in ("q", "quit", "exit"):
                raise KeyboardInterrupt
            if low in HELP_WORDS:
                self._say(hooks.legend(state, view.seat))
                continue
            if low in ("moves", "m", "list"):
                self._list(names)
                continue
            if low == "board":
                self._say(state.to_string(view.seat))
                continue
            try:
                return parse_move(hooks.aliases(state, text), names)
            except MoveError as exc:
                self._say(f"  {exc}")
                if exc.suggestions:
                    self._say(f"  {exc.heading}:")
                    for s in exc.suggestions:
                        self._say(f"    {s}")

    def _list(self, names: dict[int, str]) -> None:
        self._say("Legal moves:")
        for a, name in names.items():
            self._say(f"  {a:>4}: {name}")
