"""A ladder's results: the ranking, the pairwise table, and the files and plot it writes.

Built by :func:`moon_agents.evaluation.ladder.run.run_ladder` (see there for how pairings are played
and scored). :meth:`LadderResult.markdown` gives the two tables docs/ladder.md shows;
:meth:`LadderResult.save` writes ``ladder.md``, ``ladder.json``, ``games.csv`` and ``ladder.png``
(Elo ratings beside a heat map of the pairwise win rates).
"""

from __future__ import annotations

import csv
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from moon_agents.evaluation.ratings import fit_elo, wilson_interval
from moon_agents.evaluation.distinct import distinct_games
from moon_agents.evaluation.results import (
    GAME_COLUMNS,
    IDENTITY_COLUMNS,
    GameRecord,
    game_columns,
    identity_columns,
    pairwise_results,
)


@dataclass(frozen=True)
class Pairing:
    """``a`` against ``b``. ``results``, ``a_wins``, ``ties`` and ``b_wins`` count the
    pairwise results of every game played; the rates count the distinct games' results
    (``distinct_results``, ``a`` scoring ``distinct_a_points``), split by whether one of
    ``a``'s seats made the game's first decision (``a_first``) or not (``a_second``), each
    a ``(results, a's points)`` pair."""

    a: str
    b: str
    results: int
    a_wins: int
    ties: int
    b_wins: int
    games: int = 0
    distinct: int = 0  # distinct games
    distinct_results: int = -1  # -1: as results (every game distinct)
    distinct_a_points: float = -1.0
    a_first: tuple[int, float] = (0, 0.0)
    a_second: tuple[int, float] = (0, 0.0)

    @property
    def a_points(self) -> float:
        return self.a_wins + 0.5 * self.ties

    @property
    def counted(self) -> tuple[int, float]:
        """The distinct results and ``a``'s points in them."""
        if self.distinct_results < 0:
            return self.results, self.a_points
        return self.distinct_results, self.distinct_a_points

    @property
    def a_rate(self) -> float:
        return self.rate_of(self.a)[0]

    def rate_of(self, agent: str) -> tuple[float, float, float]:
        """``agent``'s win rate in this pairing (distinct games) with its Wilson 95%
        interval."""
        n, a_points = self.counted
        points = a_points if agent == self.a else n - a_points
        lo, hi = wilson_interval(points, n)
        return points / n if n else 0.0, lo, hi

    def mover_split(self, agent: str) -> tuple[tuple[int, float], tuple[int, float]]:
        """``agent``'s ``(results, points)`` as first mover and as second mover."""
        if agent == self.a:
            return self.a_first, self.a_second
        (n1, p1), (n2, p2) = self.a_first, self.a_second
        return (n2, n2 - p2), (n1, n1 - p1)


def _rate_cell(split: tuple[int, float]) -> str:
    """``rate (n)`` for a table; ``-`` without results."""
    n, points = split
    return f"{points / n:.3f} ({n})" if n else "-"


def _split_json(split: tuple[int, float]) -> dict[str, Any]:
    n, points = split
    lo, hi = wilson_interval(points, n)
    rate = round(points / n, 4) if n else 0.0
    return {"results": n, "win_rate": rate, "ci_low": round(lo, 4), "ci_high": round(hi, 4)}


def tally_pairing(a: str, b: str, records: Sequence[GameRecord]) -> tuple[Pairing, list]:
    """A pairing's :class:`Pairing` and its distinct games' pairwise results."""
    wins = {1.0: 0, 0.5: 0, 0.0: 0}
    for g in records:
        for x, _, s in pairwise_results(g):
            wins[s if x == a else 1.0 - s] += 1
    distinct = distinct_games(records)
    counted: list[tuple[str, str, float]] = []
    split = {True: [0, 0.0], False: [0, 0.0]}
    for g in distinct:
        a_seats = {i for i, n in enumerate(g.seats) if n == a}
        for x, y, s in pairwise_results(g):
            counted.append((x, y, s))
            if g.first_mover >= 0:
                side = split[g.first_mover in a_seats]
                side[0] += 1
                side[1] += s if x == a else 1.0 - s
    n = sum(wins.values())
    pairing = Pairing(
        a,
        b,
        n,
        wins[1.0],
        wins[0.5],
        wins[0.0],
        len(records),
        len(distinct),
        len(counted),
        sum(s if x == a else 1.0 - s for x, _, s in counted),
        (split[True][0], split[True][1]),
        (split[False][0], split[False][1]),
    )
    return pairing, counted


@dataclass
class LadderResult:
    """Every pairing's games, the pairwise win rates and the Elo ratings of one ladder."""

    env_id: str
    env_params: dict[str, Any]
    seed: int
    games_per_pairing: int
    specs: dict[str, str]
    games: dict[tuple[str, str], list[GameRecord]]
    pairings: list[Pairing] = field(default_factory=list)
    elo: dict[str, float] = field(default_factory=dict)
    ms_per_move: dict[str, float] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)  # env parameters set for trained agents
    opening: str = "none"  # the opening protocol (moon_agents.evaluation.openings)
    written: list[str] = field(default_factory=list)  # the files the last save() wrote
    skipped: dict[str, str] = field(default_factory=dict)  # a file save() left out -> why

    @classmethod
    def build(
        cls,
        env_id: str,
        env_params: Mapping[str, Any],
        seed: int,
        games: int,
        agents: Sequence[tuple[str, str]],
        results: Mapping[tuple[str, str], list[GameRecord]],
    ) -> LadderResult:
        """Tally every pairing; Elo is fitted over the distinct games' results."""
        names = [label for label, _ in agents]
        pairings, pairs = [], []
        decisions = dict.fromkeys(names, 0)
        seconds = dict.fromkeys(names, 0.0)
        for (a, b), records in results.items():
            pairing, counted = tally_pairing(a, b, records)
            pairings.append(pairing)
            pairs.extend(counted)
            for g in records:
                for seat, who in enumerate(g.seats):
                    if g.decisions:
                        decisions[who] += g.decisions[seat]
                        seconds[who] += g.seconds[seat]
        ms = {n: 1000.0 * seconds[n] / decisions[n] if decisions[n] else 0.0 for n in names}
        return cls(
            env_id,
            dict(env_params),
            seed,
            games,
            dict(agents),
            dict(results),
            pairings,
            fit_elo(names, pairs),
            ms,
        )

    # ---- views ---------------------------------------------------------------------------
    @property
    def num_players(self) -> int:
        """Seats per game."""
        return next((len(r[0].seats) for r in self.games.values() if r), 2)

    def seating(self) -> str:
        """Who sat where, in words (see :mod:`moon_agents.evaluation.ladder.run`)."""
        n = self.num_players
        if n == 2:
            how = "the two agents of a pairing swap seats every game (the first named sits "
            how += "in seat 0 in even games)"
        else:
            how = f"the two agents of a pairing alternate round the table of {n} seats, the "
            how += "order rotated by one seat per game"
        return f"{n} players; {how}"

    def ranking(self) -> list[str]:
        """Agent labels, highest Elo first."""
        return sorted(self.specs, key=lambda n: -self.elo[n])

    def pairing(self, a: str, b: str) -> Pairing | None:
        for p in self.pairings:
            if {p.a, p.b} == {a, b}:
                return p
        return None

    def rate(self, a: str, b: str) -> tuple[float, float, float]:
        """``a``'s win rate against ``b`` with its Wilson 95% interval."""
        p = self.pairing(a, b)
        if p is None:
            raise KeyError(f"no pairing {a!r} - {b!r}")
        return p.rate_of(a)

    def overall(self, agent: str) -> tuple[float, float, float]:
        """``agent``'s win rate over all its pairings' distinct games, with its Wilson 95%
        interval."""
        points = results = 0.0
        for p in self.pairings:
            if agent in (p.a, p.b):
                n = p.counted[0]
                points += p.rate_of(agent)[0] * n
                results += n
        lo, hi = wilson_interval(points, int(results))
        return (points / results if results else 0.0), lo, hi

    def overall_movers(self, agent: str) -> tuple[tuple[int, float], tuple[int, float]]:
        """``agent``'s ``(results, points)`` over all its pairings' distinct games, as
        first mover and as second mover."""
        first, second = [0, 0.0], [0, 0.0]
        for p in self.pairings:
            if agent in (p.a, p.b):
                (n1, p1), (n2, p2) = p.mover_split(agent)
                first[0], first[1] = first[0] + n1, first[1] + p1
                second[0], second[1] = second[0] + n2, second[1] + p2
        return (first[0], first[1]), (second[0], second[1])

    def distinct(self) -> tuple[int, int]:
        """Distinct games and games played, over every pairing."""
        return sum(p.distinct for p in self.pairings), sum(p.games for p in self.pairings)

    def protocol(self) -> str:
        """The opening protocol and the distinct games, in words."""
        distinct, played = self.distinct()
        return (
            f"Opening: {self.opening}. Distinct games: {distinct} of {played} (win rates, "
            "intervals, mover splits and Elo count each distinct game once)."
        )

    def markdown(self) -> str:
        """The ranking table (with each agent's win rate as first and as second mover), the
        pairwise table (row agent's win rate against the column agent, 95% interval
        beside it) and the pairings table (games, distinct games, mover split)."""
        order = self.ranking()
        lines = [
            "| Rank | Agent | Spec | Elo | Win rate, all pairings | 95% CI | ms/move "
            "| As 1st mover | As 2nd mover |",
            "|---:|---|---|---:|---:|---|---:|---:|---:|",
        ]
        for rank, name in enumerate(order, 1):
            rate, lo, hi = self.overall(name)
            ms = self.ms_per_move[name]
            first, second = self.overall_movers(name)
            lines.append(
                f"| {rank} | {name} | `{self.specs[name]}` | {self.elo[name]:.0f} | {rate:.3f} | "
                f"[{lo:.3f}, {hi:.3f}] | {f'{ms:.3g}' if ms > 0 else '-'} | "
                f"{_rate_cell(first)} | {_rate_cell(second)} |"
            )
        lines += ["", "| row vs column | " + " | ".join(order) + " |"]
        lines.append("|---|" + "---:|" * len(order))
        for a in order:
            cells = []
            for b in order:
                if a == b:
                    cells.append("—")
                else:
                    rate, lo, hi = self.rate(a, b)
                    cells.append(f"{rate:.3f} [{lo:.3f}, {hi:.3f}]")
            lines.append(f"| **{a}** | " + " | ".join(cells) + " |")
        return "\n".join([*lines, "", *self.pairings_table()])

    def pairings_table(self) -> list[str]:
        """One row per pairing: games played, distinct games, and the first named agent's
        win rate (results counted) as first and as second mover."""
        lines = [
            "| Pairing | Games | Distinct | A's win rate | A as 1st mover | A as 2nd mover |",
            "|---|---:|---:|---:|---:|---:|",
        ]
        for p in self.pairings:
            first, second = p.mover_split(p.a)
            lines.append(
                f"| {p.a} vs {p.b} | {p.games} | {p.distinct} | {p.a_rate:.3f} | "
                f"{_rate_cell(first)} | {_rate_cell(second)} |"
            )
        return lines

    def to_json(self) -> dict[str, Any]:
        return {
            "env_id": self.env_id,
            "env_params": self.env_params,
            "num_players": self.num_players,
            "seating": self.seating(),
            "notes": list(self.notes),
            "seed": self.seed,
            "opening": self.opening,
            "games_per_pairing": self.games_per_pairing,
            "distinct_games": self.distinct()[0],
            "agents": [
                {
                    "label": n,
                    "spec": self.specs[n],
                    "elo": round(self.elo[n], 1),
                    "win_rate": round(self.overall(n)[0], 4),
                    "ci_low": round(self.overall(n)[1], 4),
                    "ci_high": round(self.overall(n)[2], 4),
                    "ms_per_move": round(self.ms_per_move[n], 3),
                    "first_mover": _split_json(self.overall_movers(n)[0]),
                    "second_mover": _split_json(self.overall_movers(n)[1]),
                }
                for n in self.ranking()
            ],
            "pairings": [
                {
                    "a": p.a,
                    "b": p.b,
                    "results": p.results,
                    "a_wins": p.a_wins,
                    "ties": p.ties,
                    "b_wins": p.b_wins,
                    "a_win_rate": round(p.a_rate, 4),
                    "ci_low": round(p.rate_of(p.a)[1], 4),
                    "ci_high": round(p.rate_of(p.a)[2], 4),
                    "games": p.games,
                    "distinct_games": p.distinct,
                    "distinct_results": p.counted[0],
                    "a_first_mover": _split_json(p.mover_split(p.a)[0]),
                    "a_second_mover": _split_json(p.mover_split(p.a)[1]),
                }
                for p in self.pairings
            ],
        }

    # ---- files ---------------------------------------------------------------------------
    def save(self, out_dir: str | Path, plot: bool = True) -> Path:
        """Write ladder.md, ladder.json, games.csv and (if ``plot`` and matplotlib is
        installed) ladder.png into ``out_dir``. :attr:`written` then names the files
        written, :attr:`skipped` the one left out and why (matplotlib missing)."""
        import json

        out = Path(out_dir)
        out.mkdir(parents=True, exist_ok=True)
        title = f"# {self.env_id} ladder: {self.games_per_pairing} games per pairing\n\n"
        seating = f"{self.seating()}.\n\n{self.protocol()}\n\n"
        (out / "ladder.md").write_text(title + seating + self.markdown() + "\n")
        (out / "ladder.json").write_text(json.dumps(self.to_json(), indent=2) + "\n")
        with open(out / "games.csv", "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["pairing", *GAME_COLUMNS, *IDENTITY_COLUMNS])
            for (a, b), records in self.games.items():
                w.writerows(
                    [f"{a} vs {b}", *game_columns(g), *identity_columns(g)] for g in records
                )
        self.written = ["ladder.md", "ladder.json", "games.csv"]
        self.skipped = {}
        if plot:
            try:
                self.plot(out / "ladder.png")
                self.written.append("ladder.png")
            except ImportError as exc:  # matplotlib is optional
                self.skipped["ladder.png"] = (
                    f"matplotlib cannot be imported ({exc}); "
                    'pip install "moon-envs[train]" to draw the plot'
                )
        return out

    def plot(self, path: str | Path) -> None:
        """Elo ratings (bars) beside the pairwise win rates (heat map, row vs column)."""
        from moon_agents.evaluation.ladder.plot import plot_ladder

        plot_ladder(self, path)
