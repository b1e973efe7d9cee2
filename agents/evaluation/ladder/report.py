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
from moon_agents.evaluation.results import GAME_COLUMNS, GameRecord, game_columns, pairwise_results


@dataclass(frozen=True)
class Pairing:
    """``a`` against ``b``: ``a``'s points (wins, plus half of each tie) out of ``results``."""

    a: str
    b: str
    results: int
    a_wins: int
    ties: int
    b_wins: int

    @property
    def a_points(self) -> float:
        return self.a_wins + 0.5 * self.ties

    @property
    def a_rate(self) -> float:
        return self.a_points / self.results if self.results else 0.0

    def rate_of(self, agent: str) -> tuple[float, float, float]:
        """``agent``'s win rate in this pairing with its Wilson 95% interval."""
        points = self.a_points if agent == self.a else self.results - self.a_points
        lo, hi = wilson_interval(points, self.results)
        return points / self.results if self.results else 0.0, lo, hi


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
        names = [label for label, _ in agents]
        pairings, pairs = [], []
        decisions = dict.fromkeys(names, 0)
        seconds = dict.fromkeys(names, 0.0)
        for (a, b), records in results.items():
            wins = {1.0: 0, 0.5: 0, 0.0: 0}
            for g in records:
                for x, y, s in pairwise_results(g):
                    s_a = s if x == a else 1.0 - s
                    wins[s_a] += 1
                    pairs.append((x, y, s))
                for seat, who in enumerate(g.seats):
                    if g.decisions:
                        decisions[who] += g.decisions[seat]
                        seconds[who] += g.seconds[seat]
            n = sum(wins.values())
            pairings.append(Pairing(a, b, n, wins[1.0], wins[0.5], wins[0.0]))
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
        """``agent``'s win rate over all its pairings, with its Wilson 95% interval."""
        points = results = 0.0
        for p in self.pairings:
            if agent in (p.a, p.b):
                rate = p.rate_of(agent)[0]
                points += rate * p.results
                results += p.results
        lo, hi = wilson_interval(points, int(results))
        return (points / results if results else 0.0), lo, hi

    def markdown(self) -> str:
        """The ranking table, then the pairwise table (row agent's win rate against the
        column agent, 95% interval below)."""
        order = self.ranking()
        lines = [
            "| Rank | Agent | Spec | Elo | Win rate, all pairings | 95% CI | ms/move |",
            "|---:|---|---|---:|---:|---|---:|",
        ]
        for rank, name in enumerate(order, 1):
            rate, lo, hi = self.overall(name)
            ms = self.ms_per_move[name]
            lines.append(
                f"| {rank} | {name} | `{self.specs[name]}` | {self.elo[name]:.0f} | {rate:.3f} | "
                f"[{lo:.3f}, {hi:.3f}] | {f'{ms:.3g}' if ms > 0 else '-'} |"
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
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        return {
            "env_id": self.env_id,
            "env_params": self.env_params,
            "num_players": self.num_players,
            "seating": self.seating(),
            "notes": list(self.notes),
            "seed": self.seed,
            "games_per_pairing": self.games_per_pairing,
            "agents": [
                {
                    "label": n,
                    "spec": self.specs[n],
                    "elo": round(self.elo[n], 1),
                    "win_rate": round(self.overall(n)[0], 4),
                    "ci_low": round(self.overall(n)[1], 4),
                    "ci_high": round(self.overall(n)[2], 4),
                    "ms_per_move": round(self.ms_per_move[n], 3),
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
        seating = f"{self.seating()}.\n\n"
        (out / "ladder.md").write_text(title + seating + self.markdown() + "\n")
        (out / "ladder.json").write_text(json.dumps(self.to_json(), indent=2) + "\n")
        with open(out / "games.csv", "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["pairing", *GAME_COLUMNS])
            for (a, b), records in self.games.items():
                w.writerows([f"{a} vs {b}", *game_columns(g)] for g in records)
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
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        import numpy as np

        order = self.ranking()
        k = len(order)
        grid = np.full((k, k), np.nan)
        for i, a in enumerate(order):
            for j, b in enumerate(order):
                if a != b:
                    grid[i, j] = self.rate(a, b)[0]
        fig, (ax1, ax2) = plt.subplots(
            1, 2, figsize=(5 + 1.4 * k, 0.5 * k + 3), gridspec_kw={"width_ratios": [2, 3]}
        )
        elo = [self.elo[n] for n in order]
        ax1.barh(range(k), elo, color="#4c72b0")
        ax1.set_yticks(range(k), order)
        ax1.invert_yaxis()
        ax1.set_xlim(min(elo) - 100, max(elo) + 100)
        ax1.set_xlabel("Elo (Bradley–Terry, mean 1500)")
        for i, v in enumerate(elo):
            ax1.text(v, i, f" {v:.0f}", va="center", fontsize=8)
        im = ax2.imshow(grid, vmin=0, vmax=1, cmap="RdBu")
        ax2.set_xticks(range(k), order, rotation=35, ha="right")
        ax2.set_yticks(range(k), order)
        for i in range(k):
            for j in range(k):
                if i != j:
                    colour = "white" if abs(grid[i, j] - 0.5) > 0.3 else "black"
                    ax2.text(
                        j,
                        i,
                        f"{grid[i, j]:.2f}",
                        ha="center",
                        va="center",
                        fontsize=8,
                        color=colour,
                    )
        ax2.set_title("win rate, row vs column")
        fig.colorbar(im, ax=ax2, fraction=0.046)
        fig.suptitle(f"{self.env_id}: {self.games_per_pairing} games per pairing")
        fig.tight_layout()
        fig.savefig(path, dpi=100)
        plt.close(fig)
