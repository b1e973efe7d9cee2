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

from moon_agents.evaluation.ratings import ELO_MEAN, fit_elo, wilson_interval


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


@dataclass
class AgentStats:
    """One agent's tournament totals."""

    name: str
    games: int = 0
    wins: int = 0
    ties: int = 0
    losses: int = 0
    points: float = 0.0
    score_sum: float = 0.0
    elo: float = ELO_MEAN
    decisions: int = 0
    seconds: float = 0.0
    by_seat: list[int] = field(default_factory=list)  # games played in seat 0, 1, ...

    @property
    def win_rate(self) -> float:
        return self.points / self.games if self.games else 0.0

    @property
    def ci(self) -> tuple[float, float]:
        return wilson_interval(self.points, self.games)

    @property
    def mean_score(self) -> float:
        return self.score_sum / self.games if self.games else 0.0

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
        }


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
    ) -> TournamentResult:
        """Compute the per-agent statistics and Elo ratings of finished games."""
        seats_n = max((len(g.seats) for g in games), default=0)
        stats = {a: AgentStats(a, by_seat=[0] * seats_n) for a in agents}
        pairs: list[tuple[str, str, float]] = []
        for g in games:
            winners = set(g.winners)
            for seat, name in enumerate(g.seats):
                stats[name].by_seat[seat] += 1
            for name in dict.fromkeys(g.seats):
                st = stats[name]
                mine = [s for s, n in enumerate(g.seats) if n == name]
                st.games += 1
                st.score_sum += float(np.mean([g.scores[s] for s in mine]))
                if g.decisions:
                    st.decisions += sum(g.decisions[s] for s in mine)
                    st.seconds += sum(g.seconds[s] for s in mine)
                won = [s for s in mine if s in winners]
                if not won:
                    st.losses += 1
                elif len(winners) == len(won):
                    st.wins += 1
                    st.points += 1.0
                else:
                    st.ties += 1
                    st.points += len(won) / len(winners)
            pairs.extend(pairwise_results(g))
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
        )

    # ---- views ---------------------------------------------------------------------------
    def summary(self) -> str:
        """One line: env, parameters, player count, games and seed."""
        params = f" {self.env_params}" if self.env_params else ""
        return (
            f"{self.env_id}{params}: {self.num_players} players, {len(self.games)} games, "
            f"seats rotated, seed {self.seed}"
        )

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
        """The :meth:`summary` line, the :meth:`seating_lines` and the :meth:`table`."""
        return "\n".join([self.summary(), *self.seating_lines(), "", self.table()])

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
        """``m[a][b]``: a's share of points in its pairwise results against b."""
        pts: dict[tuple[str, str], list[float]] = {}
        for g in self.games:
            for a, b, s in pairwise_results(g):
                pts.setdefault((a, b), []).append(s)
                pts.setdefault((b, a), []).append(1.0 - s)
        return {
            a: {b: round(float(np.mean(pts[(a, b)])), 4) for b in self.agents if (a, b) in pts}
            for a in self.agents
        }

    def table(self) -> str:
        """A Markdown table: games, W/T/L, win rate with its 95% interval, mean score, Elo,
        and the mean time per move of each agent."""
        head = "| Agent | Games | W | T | L | Win rate | 95% CI | Mean score | Elo | ms/move |"
        sep = "|---|---:|---:|---:|---:|---:|---|---:|---:|---:|"
        lines = [head, sep]
        for r in self.rows():
            lines.append(
                f"| {r['agent']} | {r['games']} | {r['wins']} | {r['ties']} | {r['losses']} | "
                f"{r['win_rate']:.3f} | [{r['ci_low']:.3f}, {r['ci_high']:.3f}] | "
                f"{r['mean_score']:.2f} | {r['elo']:.0f} | {_ms(r['ms_per_move'])} |"
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
            "num_games": len(self.games),
            "agents": self.rows(),
            "pairwise": self.pairwise(),
            "games": [asdict(g) for g in self.games],
        }

    def write_csv(self, path: str | Path) -> None:
        """One row per agent; ``games_by_seat`` is its games in seat 0, 1, ... (space
        separated), beside the player count."""
        rows = [
            {
                **r,
                "num_players": self.num_players,
                "games_by_seat": " ".join(map(str, r["games_by_seat"])),
            }
            for r in self.rows()
        ]
        with open(path, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0]))
            w.writeheader()
            w.writerows(rows)

    def write_games_csv(self, path: str | Path) -> None:
        """One row per game: ``seats`` names the agent in seat 0, 1, ... in order."""
        with open(path, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow([*GAME_COLUMNS, "ms_per_move", "num_players"])
            for g in self.games:
                w.writerow(
                    [
                        *game_columns(g),
                        " ".join(
                            f"{1000 * t / n:.3g}" if n else "-"
                            for n, t in zip(g.decisions, g.seconds)
                        ),
                        len(g.seats),
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
        ax.set_title(f"{self.env_id}: {len(self.games)} games")
        fig.tight_layout()
        fig.savefig(path, dpi=100)
        plt.close(fig)

    def save(self, out_dir: str | Path, plot: bool = True) -> Path:
        """Write results.csv, results.json, games.csv, table.md (the :meth:`report`) and (if
        ``plot``) win_rates.png."""
        out = Path(out_dir)
        out.mkdir(parents=True, exist_ok=True)
        self.write_csv(out / "results.csv")
        self.write_games_csv(out / "games.csv")
        (out / "results.json").write_text(json.dumps(self.to_json(), indent=2))
        (out / "table.md").write_text(self.report() + "\n")
        if plot:
            try:
                self.plot(out / "win_rates.png")
            except ImportError:
                pass  # matplotlib is optional (pip install "moon-envs[train]")
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
