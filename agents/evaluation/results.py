"""Tournament results: one record per game, per-agent totals, tables, files and plots.

:class:`TournamentResult` is built by :func:`moon_agents.evaluation.tournament.tournament` (or from
finished games with :meth:`TournamentResult.from_games`); see
:mod:`moon_agents.evaluation.tournament` for how seats, win rates and Elo ratings are defined.
"""

from __future__ import annotations

import csv
import itertools
import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from moon_agents.evaluation.agent_stats import AgentStats, tally
from moon_agents.evaluation.distinct import distinct_games
from moon_agents.evaluation.ratings import fit_elo

__all__ = [
    "GAME_COLUMNS",
    "IDENTITY_COLUMNS",
    "AgentStats",
    "GameRecord",
    "TournamentResult",
    "pairwise_results",
]


@dataclass(frozen=True)
class GameRecord:
    """One finished game: who sat where, the final scores and the winning seats."""

    game: int
    seed: int
    seats: tuple[str, ...]
    scores: tuple[float, ...]
    winners: tuple[int, ...]
    length: int
    decisions: tuple[int, ...] = ()  # per seat: moves chosen by the seat's agent
    # per seat: wall time its agent spent choosing them (not part of the game's outcome)
    seconds: tuple[float, ...] = field(default=(), compare=False)
    key: str = ""  # hash of the seats and the full history ("": unknown, counted distinct)
    first_mover: int = -1  # the seat of the game's first decision (-1: unknown)
    opening: tuple[int, ...] = ()  # the moves of the random opening, if any


@dataclass
class TournamentResult:
    """Everything a tournament produced; build it with :func:`tournament` or :meth:`from_games`."""

    env_id: str
    agents: list[str]
    games: list[GameRecord]
    env_params: dict[str, Any] = field(default_factory=dict)
    seed: int = 0
    stats: dict[str, AgentStats] = field(default_factory=dict)
    seating: str = ""  # how the agents sat, in words (tournament.seating_text)
    notes: list[str] = field(default_factory=list)  # env parameters set for trained agents
    opening: str = "none"  # the opening protocol (moon_agents.evaluation.openings)
    written: list[str] = field(default_factory=list)  # the files the last save() wrote
    skipped: dict[str, str] = field(default_factory=dict)  # a file save() left out -> why

    @property
    def num_players(self) -> int:
        """Seats per game."""
        return len(self.games[0].seats) if self.games else len(self.agents)

    @classmethod
    def from_games(
        cls,
        env_id: str,
        agents: Sequence[str],
        games: Sequence[GameRecord],
        env_params: dict[str, Any] | None = None,
        seed: int = 0,
        prior_ties: float = 1.0,
        seating: str = "",
        notes: Sequence[str] = (),
        opening: str = "none",
    ) -> TournamentResult:
        """Compute the per-agent statistics and Elo ratings of finished games: counts over
        every game, win rates, intervals, mover splits and Elo over the distinct ones."""
        distinct = distinct_games(games)
        stats = tally(agents, games, distinct)
        pairs = [p for g in distinct for p in pairwise_results(g)]
        elo = fit_elo(list(agents), pairs, prior_ties=prior_ties)
        for name, rating in elo.items():
            stats[name].elo = rating
        return cls(
            env_id,
            list(agents),
            list(games),
            dict(env_params or {}),
            seed,
            stats,
            seating,
            list(notes),
            opening,
        )

    # ---- views ---------------------------------------------------------------------------
    def summary(self) -> str:
        """One line: env, parameters, player count, games and seed."""
        params = f" {self.env_params}" if self.env_params else ""
        return (
            f"{self.env_id}{params}: {self.num_players} players, {len(self.games)} games, "
            f"seats rotated, seed {self.seed}"
        )

    @property
    def distinct(self) -> int:
        """The number of distinct games (:mod:`moon_agents.evaluation.distinct`)."""
        return len(distinct_games(self.games))

    def protocol_lines(self) -> list[str]:
        """The opening protocol and the number of distinct games, in words."""
        opening = "none" if self.opening == "none" else self.opening
        return [
            f"Opening: {opening}.",
            f"Distinct games: {self.distinct} of {len(self.games)} (win rates, intervals, "
            "mover splits and Elo count each distinct game once).",
        ]

    def seating_lines(self) -> list[str]:
        """Who sat where: the rule, the first game's seats and each agent's games per seat."""
        lines = [f"Seating: {self.seating}." if self.seating else "Seating:"]
        if self.games:
            first = ", ".join(f"seat {i} {n}" for i, n in enumerate(self.games[0].seats))
            lines.append(f"Game 0: {first}.")
        per_seat = "; ".join(
            f"{a} {'/'.join(map(str, self.stats[a].by_seat))}" for a in self.agents
        )
        seats = "/".join(str(i) for i in range(self.num_players))
        lines.append(f"Games in seats {seats}: {per_seat}.")
        return lines

    def report(self) -> str:
        """The :meth:`summary` line, the :meth:`seating_lines`, the :meth:`protocol_lines`
        and the :meth:`table`."""
        lines = [self.summary(), *self.seating_lines(), *self.protocol_lines()]
        return "\n".join([*lines, "", self.table()])

    def __str__(self) -> str:
        """What ``print(result)`` shows: :meth:`report`."""
        return self.report()

    def __repr__(self) -> str:
        return f"<TournamentResult {self.summary()}; agents {self.agents}>"

    def _repr_markdown_(self) -> str:  # notebooks render the table
        return str(self)

    def rows(self) -> list[dict[str, Any]]:
        """One dict per agent, strongest (by Elo) first."""
        return [s.row() for s in sorted(self.stats.values(), key=lambda s: -s.elo)]

    def win_rate(self, agent: str) -> float:
        return self.stats[agent].win_rate

    def pairwise(self) -> dict[str, dict[str, float]]:
        """``m[a][b]``: a's share of points in its pairwise results against b (over the
        distinct games)."""
        pts: dict[tuple[str, str], list[float]] = {}
        for g in distinct_games(self.games):
            for a, b, s in pairwise_results(g):
                pts.setdefault((a, b), []).append(s)
                pts.setdefault((b, a), []).append(1.0 - s)
        return {
            a: {b: round(float(np.mean(pts[(a, b)])), 4) for b in self.agents if (a, b) in pts}
            for a in self.agents
        }

    def table(self) -> str:
        """A Markdown table: games played and W/T/L; then over the distinct games (their
        number in ``Distinct``) the win rate with its 95% interval, mean score and Elo; the
        mean time per move; and the win rate (distinct games) as first and second mover."""
        head = (
            "| Agent | Games | W | T | L | Win rate | 95% CI | Mean score | Elo | ms/move "
            "| Distinct | As 1st mover | As 2nd mover |"
        )
        sep = "|---|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|"
        lines = [head, sep]
        for r in self.rows():
            st = self.stats[r["agent"]]
            lines.append(
                f"| {r['agent']} | {r['games']} | {r['wins']} | {r['ties']} | {r['losses']} | "
                f"{r['win_rate']:.3f} | [{r['ci_low']:.3f}, {r['ci_high']:.3f}] | "
                f"{r['mean_score']:.2f} | {r['elo']:.0f} | {_ms(r['ms_per_move'])} | "
                f"{r['distinct_games']} | {st.first.cell()} | {st.second.cell()} |"
            )
        return "\n".join(lines)

    # ---- writers ---------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {
            "env_id": self.env_id,
            "env_params": self.env_params,
            "num_players": self.num_players,
            "seating": self.seating,
            "notes": list(self.notes),
            "seed": self.seed,
            "opening": self.opening,
            "num_games": len(self.games),
            "distinct_games": self.distinct,
            "agents": self.rows(),
            "pairwise": self.pairwise(),
            "games": [asdict(g) for g in self.games],
        }

    def write_csv(self, path: str | Path) -> None:
        """One row per agent; ``games_by_seat`` is its games in seat 0, 1, ... (space
        separated), beside the player count; the mover splits are flattened
        (``first_mover_win_rate``, ...)."""
        rows = []
        for r in self.rows():
            split = {
                f"{mover}_{k}": v for mover in ("first_mover", "second_mover")
                for k, v in r.pop(mover).items()
            }  # fmt: skip
            rows.append(
                {
                    **r,
                    "num_players": self.num_players,
                    "games_by_seat": " ".join(map(str, r["games_by_seat"])),
                    **split,
                }
            )
        with open(path, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0]))
            w.writeheader()
            w.writerows(rows)

    def write_games_csv(self, path: str | Path) -> None:
        """One row per game: ``seats`` names the agent in seat 0, 1, ... in order."""
        with open(path, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow([*GAME_COLUMNS, "ms_per_move", "num_players", *IDENTITY_COLUMNS])
            for g in self.games:
                w.writerow(
                    [
                        *game_columns(g),
                        " ".join(
                            f"{1000 * t / n:.3g}" if n else "-"
                            for n, t in zip(g.decisions, g.seconds)
                        ),
                        len(g.seats),
                        *identity_columns(g),
                    ]
                )

    def plot(self, path: str | Path) -> None:
        """Bar plot of win rates with their 95% intervals (needs matplotlib)."""
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        rows = self.rows()
        names = [r["agent"] for r in rows]
        rates = np.array([r["win_rate"] for r in rows])
        err = np.array(
            [
                [r["win_rate"] - r["ci_low"] for r in rows],
                [r["ci_high"] - r["win_rate"] for r in rows],
            ]
        )
        fig, ax = plt.subplots(figsize=(max(4.0, 1.2 * len(names) + 2), 3.5))
        ax.bar(range(len(names)), rates, yerr=err, capsize=4, color="#4c72b0")
        ax.set_xticks(range(len(names)), [f"{n}\nElo {r['elo']:.0f}" for n, r in zip(names, rows)])
        ax.set_ylim(0, 1)
        ax.set_ylabel("win rate (95% CI)")
        ax.set_title(f"{self.env_id}: {len(self.games)} games, {self.distinct} distinct")
        fig.tight_layout()
        fig.savefig(path, dpi=100)
        plt.close(fig)

    def save(self, out_dir: str | Path, plot: bool = True) -> Path:
        """Write results.csv, results.json, games.csv, table.md (the :meth:`report`) and (if
        ``plot`` and matplotlib imports) win_rates.png; ``written`` and ``skipped`` (a file
        left out -> why) say what happened."""
        out = Path(out_dir)
        out.mkdir(parents=True, exist_ok=True)
        self.write_csv(out / "results.csv")
        self.write_games_csv(out / "games.csv")
        (out / "results.json").write_text(json.dumps(self.to_json(), indent=2))
        (out / "table.md").write_text(self.report() + "\n")
        self.written = ["results.csv", "results.json", "games.csv", "table.md"]
        self.skipped = {}
        if plot:
            try:
                self.plot(out / "win_rates.png")
                self.written.append("win_rates.png")
            except ImportError as exc:  # matplotlib is optional
                self.skipped["win_rates.png"] = (
                    f"matplotlib cannot be imported ({exc}); "
                    'pip install "moon-envs[train]" to draw the plot'
                )
        return out


GAME_COLUMNS = ["game", "seed", "seats", "scores", "winners", "length"]
"""The columns :func:`game_columns` fills, for a games.csv header."""


def game_columns(g: GameRecord) -> list[Any]:
    """One game as the first columns of a games.csv row (see :data:`GAME_COLUMNS`)."""
    return [
        g.game,
        g.seed,
        " ".join(g.seats),
        " ".join(f"{s:g}" for s in g.scores),
        " ".join(map(str, g.winners)),
        g.length,
    ]


IDENTITY_COLUMNS = ["key", "first_mover", "opening"]
"""The games.csv columns after the others: the game's key (equal keys, the same game), the
seat of its first decision and its opening moves."""


def identity_columns(g: GameRecord) -> list[Any]:
    """A game's :data:`IDENTITY_COLUMNS`."""
    return [g.key, g.first_mover, " ".join(map(str, g.opening))]


def _ms(ms: float) -> str:
    """A time per move for the table: 3 significant figures, '-' when not timed."""
    return f"{ms:.3g}" if ms > 0 else "-"


def pairwise_results(g: GameRecord) -> list[tuple[str, str, float]]:
    """Pairwise ``(a, b, score_of_a)`` results between seats of different agents in a game."""
    winners = set(g.winners)
    out = []
    for i, j in itertools.combinations(range(len(g.seats)), 2):
        a, b = g.seats[i], g.seats[j]
        if a == b:
            continue
        wi, wj = i in winners, j in winners
        if wi != wj:
            s = 1.0 if wi else 0.0
        elif g.scores[i] != g.scores[j]:
            s = 1.0 if g.scores[i] > g.scores[j] else 0.0
        else:
            s = 0.5
        out.append((a, b, s))
    return out
