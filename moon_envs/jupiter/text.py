"""Jupiter rules, the text of a position: move names, event descriptions, the text board.

A part of :class:`~moon_envs.jupiter.state.JupiterState`, which combines this mixin with
the rules of play; the fields it reads are documented there.
"""

from __future__ import annotations

from moon_envs.jupiter.config import _OVER
from moon_envs.jupiter.protocols import JupiterTables


def _plural(count: int, word: str) -> str:
    """``word`` for a count of 1 (or -1), else ``word + "s"``."""
    return word if abs(count) == 1 else word + "s"


class TextViews:
    """Move names, event descriptions and the text board."""

    game: JupiterTables

    # ---- text --------------------------------------------------------------------------------
    def action_to_string(self, action: int) -> str:
        g = self.game
        c = g.num_cells
        a = int(action)
        if a == 2 * c:
            return "roll a die"
        if 0 <= a < c:
            return f"probe {g.cell_name(a)}"
        if c <= a < 2 * c:
            return f"die on {g.cell_name(a - c)}"
        raise ValueError(f"action {a} is out of range 0..{2 * c}")

    def describe_event(self, event: tuple) -> str:
        """Text of a ``last_action`` tuple."""
        kind, p, value, cell = event
        where = self.game.cell_name(cell) if cell >= 0 else ""
        return {
            "start": f"player_{p} starts",
            "take": f"player_{p} takes a die",
            "roll": f"player_{p} rolls a {value}",
            "probe": f"player_{p} probes {where} ({value:+d})",
            "die": f"player_{p} puts the {value} on {where}",
        }[kind]

    def __str__(self) -> str:
        g = self.game
        letters = "abcd"
        owner, die = self.owner, self.die
        lines = ["    " + " ".join(f"{'ABCDEF'[c]:>2}" for c in range(g.cols))]
        for r in range(g.rows):
            row = []
            for c in range(g.cols):
                cell = r * g.cols + c
                if owner[cell] >= 0:
                    row.append(f"{letters[owner[cell]]:>2}")
                elif die[cell]:
                    row.append(f"{die[cell]:>2}")
                else:
                    row.append(" .")
            lines.append(f"{r + 1:>3} " + " ".join(row))
        lines.append("probes a..d = player_0..3; digits = dice")
        for s in range(g.config.num_players):
            mark = "*" if (self._current_player() == s) else " "
            points, probes = int(self.points[s]), int(self.probes_left[s])
            lines.append(
                f"{mark} player_{s} ({letters[s]}): {points:>3} {_plural(points, 'point')}, "
                f"{probes} {_plural(probes, 'probe')} left"
            )
        status = f"dice left: {self.dice_left}"
        if self.rolled:
            status += f"; die to place: {self.rolled}"
        if self.stage == _OVER:
            status += "; " + self.result_text()
        lines.append(status)
        if self.last_action:
            lines.append(f"last: {self.describe_event(self.last_action)}")
        return "\n".join(lines)
