"""One agent's tournament totals: what was played, and the estimates over distinct games.

Two kinds of number sit side by side (see :mod:`moon_agents.evaluation.tournament`):

* **counts of what was played**, over every game: ``games``, ``wins``, ``ties``,
  ``losses``, ``by_seat`` (games per seat) and the time per move;
* **estimates**, over the distinct games (:func:`moon_agents.evaluation.distinct.distinct_games`,
  each counted once with its outcome): the win rate, its Wilson 95% interval, the mean
  score, and the split by mover (``first``: games in which one of the agent's seats made
  the game's first decision; ``second``: the others, i.e. every later mover in games of
  more than 2 players).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from moon_agents.evaluation.ratings import ELO_MEAN, wilson_interval

__all__ = ["AgentStats", "MoverSplit", "game_points", "tally"]


@dataclass
class MoverSplit:
    """Distinct games, points and score sum of an agent in one mover position."""

    games: int = 0
    points: float = 0.0
    score_sum: float = 0.0

    @property
    def win_rate(self) -> float:
        return self.points / self.games if self.games else 0.0

    @property
    def ci(self) -> tuple[float, float]:
        return wilson_interval(self.points, self.games)

    def add(self, points: float, score: float) -> None:
        self.games += 1
        self.points += points
        self.score_sum += score

    def row(self) -> dict[str, Any]:
        lo, hi = self.ci
        return {
            "games": self.games,
            "win_rate": round(self.win_rate, 4),
            "ci_low": round(lo, 4),
            "ci_high": round(hi, 4),
            "mean_score": round(self.score_sum / self.games, 3) if self.games else 0.0,
        }

    def cell(self) -> str:
        """``rate (n)`` for a table; ``-`` without games."""
        return f"{self.win_rate:.3f} ({self.games})" if self.games else "-"


@dataclass
class AgentStats:
    """One agent's tournament totals (see the module docstring for which games count)."""

    name: str
    games: int = 0
    wins: int = 0
    ties: int = 0
    losses: int = 0
    points: float = 0.0  # over distinct games
    score_sum: float = 0.0  # over distinct games
    elo: float = ELO_MEAN
    decisions: int = 0
    seconds: float = 0.0
    by_seat: list[int] = field(default_factory=list)  # games played in seat 0, 1, ...
    distinct: int = 0
    played_points: float = 0.0  # over every game played
    first: MoverSplit = field(default_factory=MoverSplit)
    second: MoverSplit = field(default_factory=MoverSplit)

    @property
    def win_rate(self) -> float:
        """Points per distinct game."""
        return self.points / self.distinct if self.distinct else 0.0

    @property
    def ci(self) -> tuple[float, float]:
        """Wilson 95% interval of :attr:`win_rate`, over the distinct games."""
        return wilson_interval(self.points, self.distinct)

    @property
    def mean_score(self) -> float:
        return self.score_sum / self.distinct if self.distinct else 0.0

    @property
    def ms_per_move(self) -> float:
        """Mean wall time of one of its decisions, in milliseconds (0 if none timed)."""
        return 1000.0 * self.seconds / self.decisions if self.decisions else 0.0

    def row(self) -> dict[str, Any]:
        lo, hi = self.ci
        return {
            "agent": self.name,
            "games": self.games,
            "wins": self.wins,
            "ties": self.ties,
            "losses": self.losses,
            "win_rate": round(self.win_rate, 4),
            "ci_low": round(lo, 4),
            "ci_high": round(hi, 4),
            "mean_score": round(self.mean_score, 3),
            "elo": round(self.elo, 1),
            "ms_per_move": round(self.ms_per_move, 3),
            "games_by_seat": list(self.by_seat),
            "distinct_games": self.distinct,
            "played_win_rate": round(self.played_points / self.games, 4) if self.games else 0.0,
            "first_mover": self.first.row(),
            "second_mover": self.second.row(),
        }


def game_points(g: Any, name: str) -> tuple[float, str]:
    """``name``'s points in game ``g`` (1 alone, ``k/w`` for ``k`` of ``w`` winning seats,
    0 for none) and the outcome (``"win"``, ``"tie"`` or ``"loss"``)."""
    winners = set(g.winners)
    won = [s for s, n in enumerate(g.seats) if n == name and s in winners]
    if not won:
        return 0.0, "loss"
    if len(won) == len(winners):
        return 1.0, "win"
    return len(won) / len(winners), "tie"


def tally(agents: Sequence[str], games: Sequence[Any], distinct: Sequence[Any]) -> dict:
    """Every agent's :class:`AgentStats` from all ``games`` and their ``distinct`` ones."""
    seats_n = max((len(g.seats) for g in games), default=0)
    stats = {a: AgentStats(a, by_seat=[0] * seats_n) for a in agents}
    for g in games:
        for seat, name in enumerate(g.seats):
            stats[name].by_seat[seat] += 1
        for name in dict.fromkeys(g.seats):
            st = stats[name]
            mine = [s for s, n in enumerate(g.seats) if n == name]
            st.games += 1
            if g.decisions:
                st.decisions += sum(g.decisions[s] for s in mine)
                st.seconds += sum(g.seconds[s] for s in mine)
            points, outcome = game_points(g, name)
            st.played_points += points
            if outcome == "win":
                st.wins += 1
            elif outcome == "tie":
                st.ties += 1
            else:
                st.losses += 1
    for g in distinct:
        first = getattr(g, "first_mover", -1)
        for name in dict.fromkeys(g.seats):
            st = stats[name]
            mine = [s for s, n in enumerate(g.seats) if n == name]
            points, _ = game_points(g, name)
            score = float(np.mean([g.scores[s] for s in mine]))
            st.distinct += 1
            st.points += points
            st.score_sum += score
            if first >= 0:
                (st.first if first in mine else st.second).add(points, score)
    return stats
