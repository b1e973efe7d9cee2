"""Tournaments between any agents: win rates with confidence intervals, Elo ratings, plots.

::

    from agents.evaluate import tournament
    result = tournament("jupiter_v0", ["random", "greedy", "ppo:runs/x/model.zip"], games=200)
    print(result.table())          # Markdown table
    result.save("eval_out")        # results.csv, results.json, games.csv, table.md, win_rates.png

**Seating.** With ``k`` agents in an ``n``-player game the *line-ups* are every ordered
choice of ``n`` distinct agents (all seat permutations when ``k == n``); with fewer agents
than seats the line-ups are the ``n`` rotations of the agents repeated to fill the table.
Game ``g`` uses line-up ``g mod #line-ups`` and env seed ``seed + g``, so seats are
rotated evenly and a tournament is reproducible.

**Win rate.** An agent scores 1 for a game it wins alone, ``1/w`` for a win shared by
``w`` seats, 0 for a loss; its win rate is the mean over its games, with a Wilson 95%
score interval.

**Elo.** Every game is split into pairwise results between seats of different agents
(the winner beats the non-winner; between two winners or two non-winners the higher
score wins; equal is a tie, worth half). A Bradley–Terry model is fitted to those
results by the minorisation–maximisation iteration (Hunter 2004) and reported on the
Elo scale, ``400 log10(strength)``, shifted so that the mean rating is 1500. A prior of
``prior_ties`` virtual ties per pair keeps ratings finite when an agent wins everything.
"""

from __future__ import annotations

import csv
import itertools
import json
import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from agents.base import start_game
from moon_envs.core.game import ConfigError

ELO_MEAN = 1500.0


# ---- statistics -----------------------------------------------------------------------------


def wilson_interval(successes: float, trials: int, z: float = 1.959964) -> tuple[float, float]:
    """Wilson score interval for a proportion (95% by default); ``(0, 1)`` for no trials."""
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    denom = 1.0 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    lo = 0.0 if successes <= 0 else max(0.0, centre - half)
    hi = 1.0 if successes >= trials else min(1.0, centre + half)
    return lo, hi


def fit_elo(
    names: Sequence[str],
    results: Sequence[tuple[str, str, float]],
    prior_ties: float = 1.0,
    iterations: int = 10_000,
    tol: float = 1e-10,
) -> dict[str, float]:
    """Bradley–Terry ratings on the Elo scale from pairwise ``(a, b, score_of_a)`` results.

    ``score_of_a`` is 1 (a won), 0.5 (tie) or 0 (b won). ``prior_ties`` virtual ties are
    added to every pair that met. Ratings have mean :data:`ELO_MEAN`; a 400-point gap
    means 10:1 odds.
    """
    index = {n: i for i, n in enumerate(names)}
    k = len(names)
    wins = np.zeros((k, k))  # wins[i, j]: points of i against j
    for a, b, s in results:
        i, j = index[a], index[b]
        if i == j:
            continue
        wins[i, j] += s
        wins[j, i] += 1.0 - s
    games = wins + wins.T
    met = games > 0
    wins = wins + np.where(met, prior_ties / 2.0, 0.0)
    games = wins + wins.T
    total_wins = wins.sum(axis=1)
    gamma = np.ones(k)
    for _ in range(iterations):
        denom = (games / (gamma[:, None] + gamma[None, :])).sum(axis=1)
        new = np.where(denom > 0, total_wins / np.where(denom > 0, denom, 1.0), gamma)
        new = np.where(new > 0, new, 1e-12)
        new = new / math.exp(np.mean(np.log(new)))
        if np.max(np.abs(np.log(new) - np.log(gamma))) < tol:
            gamma = new
            break
        gamma = new
    elo = 400.0 * np.log10(gamma)
    elo = elo - elo.mean() + ELO_MEAN
    return {n: float(elo[index[n]]) for n in names}


# ---- records ------------------------------------------------------------------------------


@dataclass(frozen=True)
class GameRecord:
    """One finished game: who sat where, the final scores and the winning seats."""

    game: int
    seed: int
    seats: tuple[str, ...]
    scores: tuple[float, ...]
    winners: tuple[int, ...]
    length: int


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

    @property
    def win_rate(self) -> float:
        return self.points / self.games if self.games else 0.0

    @property
    def ci(self) -> tuple[float, float]:
        return wilson_interval(self.points, self.games)

    @property
    def mean_score(self) -> float:
        return self.score_sum / self.games if self.games else 0.0

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

    @classmethod
    def from_games(
        cls,
        env_id: str,
        agents: Sequence[str],
        games: Sequence[GameRecord],
        env_params: dict[str, Any] | None = None,
        seed: int = 0,
        prior_ties: float = 1.0,
    ) -> TournamentResult:
        """Compute the per-agent statistics and Elo ratings of finished games."""
        stats = {a: AgentStats(a) for a in agents}
        pairs: list[tuple[str, str, float]] = []
        for g in games:
            winners = set(g.winners)
            for name in dict.fromkeys(g.seats):
                st = stats[name]
                mine = [s for s, n in enumerate(g.seats) if n == name]
                st.games += 1
                st.score_sum += float(np.mean([g.scores[s] for s in mine]))
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
        return cls(env_id, list(agents), list(games), dict(env_params or {}), seed, stats)

    # ---- views ---------------------------------------------------------------------------
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
        """A Markdown table: games, W/T/L, win rate with its 95% interval, mean score, Elo."""
        head = "| Agent | Games | W | T | L | Win rate | 95% CI | Mean score | Elo |"
        sep = "|---|---:|---:|---:|---:|---:|---|---:|---:|"
        lines = [head, sep]
        for r in self.rows():
            lines.append(
                f"| {r['agent']} | {r['games']} | {r['wins']} | {r['ties']} | {r['losses']} | "
                f"{r['win_rate']:.3f} | [{r['ci_low']:.3f}, {r['ci_high']:.3f}] | "
                f"{r['mean_score']:.2f} | {r['elo']:.0f} |"
            )
        return "\n".join(lines)

    # ---- writers ---------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {
            "env_id": self.env_id,
            "env_params": self.env_params,
            "seed": self.seed,
            "num_games": len(self.games),
            "agents": self.rows(),
            "pairwise": self.pairwise(),
            "games": [asdict(g) for g in self.games],
        }

    def write_csv(self, path: str | Path) -> None:
        rows = self.rows()
        with open(path, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0]))
            w.writeheader()
            w.writerows(rows)

    def write_games_csv(self, path: str | Path) -> None:
        with open(path, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["game", "seed", "seats", "scores", "winners", "length"])
            for g in self.games:
                w.writerow(
                    [
                        g.game,
                        g.seed,
                        " ".join(g.seats),
                        " ".join(f"{s:g}" for s in g.scores),
                        " ".join(map(str, g.winners)),
                        g.length,
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
        """Write results.csv, results.json, games.csv, table.md and (if ``plot``) win_rates.png."""
        out = Path(out_dir)
        out.mkdir(parents=True, exist_ok=True)
        self.write_csv(out / "results.csv")
        self.write_games_csv(out / "games.csv")
        (out / "results.json").write_text(json.dumps(self.to_json(), indent=2))
        (out / "table.md").write_text(self.table() + "\n")
        if plot:
            try:
                self.plot(out / "win_rates.png")
            except ImportError:
                pass  # matplotlib is optional (pip install "moon-envs[train]")
        return out


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


# ---- playing ----------------------------------------------------------------------------------


def lineups(num_agents: int, num_seats: int) -> list[tuple[int, ...]]:
    """Seat assignments (agent index per seat) that rotate every agent through every seat."""
    if num_agents >= num_seats:
        return list(itertools.permutations(range(num_agents), num_seats))
    filled = [i % num_agents for i in range(num_seats)]
    return [tuple(filled[(s + r) % num_seats] for s in range(num_seats)) for r in range(num_seats)]


def play_game(
    env: Any, agents: Sequence[Any], seed: int | None = None
) -> tuple[list[float], list[int], int]:
    """Play one game of the AEC ``env`` with ``agents[seat]`` in each seat.

    Returns the final scores, the winning seats and the number of player decisions.
    """
    env.reset(seed=seed)
    seat_of = {a: i for i, a in enumerate(env.possible_agents)}
    for seat, player in enumerate(agents):
        start_game(player, env.game, seat)
    steps = 0
    while env.agents:
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
            continue
        view = env.agent_view(agent)
        player = agents[seat_of[agent]]
        action = player.act(view) if hasattr(player, "act") else player(view)
        env.step(int(action))
        steps += 1
        if env.game_state.is_terminal():
            break
    state = env.game_state
    return [float(s) for s in state.scores()], list(state.winners()), steps


def build_agents(specs: Sequence[Any], game: str, seed: int = 0) -> tuple[list[Any], list[str]]:
    """Agents from specs (strings for :func:`agents.zoo.make_agent`, or agent objects).

    Names are made unique (``random``, ``random#2``); agent ``i`` is seeded ``seed + i``.
    """
    from agents.zoo import make_agent

    built, names = [], []
    for i, spec in enumerate(specs):
        base = spec if isinstance(spec, str) else getattr(spec, "name", f"agent{i}")
        name, n = base, 2
        while name in names:
            name, n = f"{base}#{n}", n + 1
        agent = make_agent(spec, game, seed=seed + i, name=name) if isinstance(spec, str) else spec
        built.append(agent)
        names.append(name)
    return built, names


def tournament(
    env_id: str,
    agent_specs: Sequence[Any],
    games: int,
    seed: int = 0,
    env_params: dict[str, Any] | None = None,
    out_dir: str | Path | None = None,
    progress: bool = False,
    prior_ties: float = 1.0,
) -> TournamentResult:
    """Play ``games`` games of ``env_id`` between ``agent_specs``, seats rotated.

    Args:
        env_id: a registered id (``moon_envs.list_envs()``).
        agent_specs: at least two agents: specs such as ``"random"``, ``"greedy"``,
            ``"ppo:PATH"``, or objects with ``act(view)``.
        games: number of games (use a multiple of the number of line-ups for exact balance).
        seed: game ``g`` is played with env seed ``seed + g``; agents are seeded from it too.
        env_params: parameters for ``moon_envs.make``.
        out_dir: if given, :meth:`TournamentResult.save` writes the results there.
        progress: show a tqdm progress bar (if tqdm is installed and stderr is a terminal).
    """
    from moon_envs import make

    if len(agent_specs) < 2:
        raise ConfigError(f"a tournament needs at least 2 agents, got {len(agent_specs)}")
    if games < 1:
        raise ConfigError(f"games={games} is out of range; allowed: 1..")
    params = dict(env_params or {})
    env = make(env_id, **params)
    game_name = env.game.spec.name
    agents, names = build_agents(agent_specs, game_name, seed=seed)
    ups = lineups(len(agents), env.game.spec.num_players)
    records = []
    it: Any = range(games)
    if progress:
        try:
            from tqdm import tqdm

            it = tqdm(it, desc=f"{env_id} tournament", unit="game", disable=None)
        except ImportError:
            pass
    for g in it:
        up = ups[g % len(ups)]
        scores, winners, length = play_game(env, [agents[i] for i in up], seed=seed + g)
        records.append(
            GameRecord(
                g, seed + g, tuple(names[i] for i in up), tuple(scores), tuple(winners), length
            )
        )
    env.close()
    result = TournamentResult.from_games(
        env_id, names, records, params, seed, prior_ties=prior_ties
    )
    if out_dir is not None:
        result.save(out_dir)
    return result


def evaluate_against(
    env_id: str,
    agent: Any,
    opponent: Any,
    games: int,
    seed: int = 0,
    env_params: dict[str, Any] | None = None,
) -> tuple[float, float, float]:
    """``agent``'s win rate and Wilson 95% interval against ``opponent`` (seats rotated)."""
    result = tournament(env_id, [agent, opponent], games, seed=seed, env_params=env_params)
    name = result.agents[0]
    lo, hi = result.stats[name].ci
    return result.win_rate(name), lo, hi
