"""A stalemate told in one line: the moves made once nobody can score any more.

A game's position may say that nobody can ever score again with a method
``stalemate_reason() -> str`` (the reason, ``""`` while someone still can), e.g.
Moonwakers with every terrain card held and no COMBINATION card affordable, whose rounds
then play on, empty, to the round cap. ``moon-envs play`` (a spectator's view: a seat
cannot always tell a stalemate, hidden cards may decide it) does not print those moves
one by one: :class:`StalemateRun` takes them in and tells them as one line once the run
ends (at the end of the game)::

    == rounds 41-100 (480 moves not shown): nobody could score any more: no terrain card
    left to draw and nobody can pay a COMBINATION card
"""

from __future__ import annotations

from typing import Any


def stalemate_reason(state: Any) -> str:
    """``state.stalemate_reason()`` where the game has it, else ``""``."""
    reason = getattr(state, "stalemate_reason", None)
    return reason() if callable(reason) else ""


class StalemateRun:
    """The moves of a stalemate, counted instead of printed."""

    def __init__(self) -> None:
        self.moves = 0
        self.reason = ""
        self.rounds: list[Any] = []

    def take(self, before: Any) -> bool:
        """Count the move about to be made from ``before`` if it is made in a stalemate;
        whether it was (then it need not be printed)."""
        reason = stalemate_reason(before)
        if not reason:
            return False
        self.moves += 1
        self.reason = reason
        round_no = getattr(before, "round", None)
        if round_no is not None and round_no not in self.rounds:
            self.rounds.append(round_no)
        return True

    def summary(self) -> list[str]:
        """The line telling the moves counted so far (none when there are none); starts a
        new run."""
        if not self.moves:
            return []
        moves = f"{self.moves} move{'s' if self.moves != 1 else ''} not shown"
        if len(self.rounds) > 1:
            where = f"rounds {self.rounds[0]}-{self.rounds[-1]} ({moves})"
        elif self.rounds:
            where = f"round {self.rounds[0]} ({moves})"
        else:
            where = moves
        line = f"== {where}: nobody could score any more: {self.reason}"
        self.__init__()
        return [line]
