"""Tournaments between any agents: win rates with confidence intervals, Elo ratings, plots.

::

    from moon_agents.evaluation.tournament import tournament
    result = tournament("jupiter_v0", ["random", "greedy", "ppo:runs/x/model.zip"], games=200)
    print(result.table())          # Markdown table
    result.save("eval_out")        # results.csv, results.json, games.csv, table.md, win_rates.png

**Seating.** By default (``seating="one_per_seat"``, as ``moon-envs eval --agents``) every
agent has a seat: ``k`` agents play ``k``-player games (``num_players`` in ``env_params``
must then be ``k``), and the line-ups are every order of the agents round the table
(``k!``). With ``seating="round_robin"`` the player count is ``env_params``' (or the
env's default) and, with ``k`` agents at ``n`` seats, the line-ups are every ordered choice
of ``n`` distinct agents when ``k >= n``, else the ``n`` rotations of the agents repeated
to fill the table (a learner against one opponent in a 4-player game sits in two seats).
Game ``g`` uses line-up ``g mod #line-ups`` and env seed ``seed + g``, so seats are
rotated evenly and a tournament is reproducible. The result states the player count,
the rule and each agent's games in each seat.

**Env parameters.** Trained agents bring the parameters they were trained with
(:mod:`moon_agents.seating`): those not in ``env_params`` are set, with a note in
``result.notes``; a conflicting one is refused.

**Openings.** On a chance-free game two deterministic agents play one game per seat
order however many are asked for; the opening protocol
(:mod:`moon_agents.evaluation.openings`, ``opening=``) draws the first plies of each game
at random, the same for every seat order of a rotation (games ``g`` with the same
``g // #line-ups``). By default ``random-opening:6`` on chance-free games, none on games
with chance.

**Distinct games.** Every game has a key, a hash of the seats and of its full history
(player actions and chance outcomes, :mod:`moon_agents.evaluation.distinct`); games with
the same key are one game played again. Games, W/T/L and games per seat count every game
played; the win rates, their intervals, mean scores, mover splits and Elo count each
distinct game once, with its outcome. A replayed game of deterministic agents adds no
information, so counting it again would only narrow the interval; where games differ by
chance (dice, openings, stochastic agents) a repeat is rare and dropping it makes the
interval slightly wider, never narrower. The result says how many games were distinct.

**Win rate.** An agent scores 1 for a game it wins alone, ``1/w`` for a win shared by
``w`` seats, 0 for a loss; its win rate is the mean over its distinct games, with a
Wilson 95% score interval. The **mover split** gives the same over the distinct games in
which one of its seats made the game's first decision (first mover) and the others
(second mover; in games of more than 2 players, any later mover).

**Elo.** Every game is split into pairwise results between seats of different agents
(the winner beats the non-winner; between two winners or two non-winners the higher
score wins; equal is a tie, worth half). A Bradley–Terry model is fitted to those
results by the minorisation–maximisation iteration (Hunter 2004) and reported on the
Elo scale, ``400 log10(strength)``, shifted so that the mean rating is 1500. A prior of
``prior_ties`` virtual ties per pair keeps ratings finite when an agent wins everything.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from moon_agents.evaluation.distinct import play_recorded
from moon_agents.evaluation.openings import opening_rng, resolve_opening, rotation_seed
from moon_agents.evaluation.ratings import ELO_MEAN, fit_elo, wilson_interval
from moon_agents.evaluation.results import (
    AgentStats,
    GameRecord,
    TournamentResult,
    pairwise_results,
)
from moon_agents.progress import progress_bar
from moon_agents.seating import setup_game
from moon_envs.core.game import ConfigError

__all__ = [
    "ELO_MEAN",
    "AgentStats",
    "GameRecord",
    "TournamentResult",
    "build_agents",
    "evaluate_against",
    "fit_elo",
    "lineups",
    "pairwise_results",
    "play_game",
    "seating_text",
    "tournament",
    "wilson_interval",
]


# ---- playing ----------------------------------------------------------------------------------


SEATINGS = ("one_per_seat", "round_robin")
"""How a tournament seats its agents (see the module docstring)."""


def lineups(num_agents: int, num_seats: int) -> list[tuple[int, ...]]:
    """Seat assignments (agent index per seat) that rotate every agent through every seat."""
    if num_agents >= num_seats:
        return list(itertools.permutations(range(num_agents), num_seats))
    filled = [i % num_agents for i in range(num_seats)]
    return [tuple(filled[(s + r) % num_seats] for s in range(num_seats)) for r in range(num_seats)]


def play_game(
    env: Any,
    agents: Sequence[Any],
    seed: int | None = None,
    clock: tuple[list[int], list[float]] | None = None,
) -> tuple[list[float], list[int], int]:
    """Play one game of the AEC ``env`` with ``agents[seat]`` in each seat.

    Returns the final scores, the winning seats and the number of player decisions. With
    ``clock = (decisions, seconds)``, two lists with one entry per seat, each seat's
    number of decisions and the wall time its agent spent choosing them are added there.
    :func:`moon_agents.evaluation.distinct.play_recorded` plays it with an opening and
    returns the game's key and history too.
    """
    played = play_recorded(env, agents, seed, clock)
    return played.scores, played.winners, played.length


def seating_text(rule: str, num_agents: int, num_seats: int) -> str:
    """How the agents of a tournament sit, in words (see the module docstring)."""
    m = len(lineups(num_agents, num_seats))
    if rule == "one_per_seat":
        return (
            f"one agent per seat, seats rotated: game g plays seat order g mod {m} of all "
            f"{m} orders of the {num_agents} agents"
        )
    if num_agents >= num_seats:
        return (
            f"{num_seats} of the {num_agents} agents a game, seats rotated: game g plays "
            f"line-up g mod {m} of all {m} ordered choices"
        )
    return (
        f"the {num_agents} agents repeated round the table of {num_seats}, seats rotated: "
        f"game g plays rotation g mod {m}"
    )


def build_agents(specs: Sequence[Any], game: str, seed: int = 0) -> tuple[list[Any], list[str]]:
    """Agents from specs (strings for :func:`moon_agents.zoo.make_agent`, or agent objects).

    Names are made unique (``random``, ``random#2``); agent ``i`` is seeded ``seed + i``.
    """
    from moon_agents.zoo import make_agent

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
    progress: bool | None = False,
    prior_ties: float = 1.0,
    seating: str = "one_per_seat",
    note: Callable[[str], None] | None = None,
    fixed_env: str | None = None,
    opening: Any = None,
) -> TournamentResult:
    """Play ``games`` games of ``env_id`` between ``agent_specs``, seats rotated.

    Args:
        env_id: a registered id (``moon_envs.list_envs()``).
        agent_specs: at least two agents: specs such as ``"random"``, ``"greedy"``,
            ``"ppo:PATH"``, or objects with ``act(view)``; one per seat (their number is
            the player count) unless ``seating="round_robin"``.
        games: number of games (use a multiple of the number of line-ups for exact balance).
        seed: game ``g`` is played with env seed ``seed + g``; agents are seeded from it too.
        env_params: parameters for ``moon_envs.make``; trained agents add those they need.
        out_dir: if given, :meth:`TournamentResult.save` writes the results there.
        progress: a tqdm bar on stderr counting the games, with an ETA: ``True`` always,
            ``None`` when stderr is a terminal, ``False`` never (:mod:`moon_agents.progress`).
        seating: ``"one_per_seat"`` or ``"round_robin"`` (see the module docstring).
        note: called with each note on parameters set for trained agents, before any game
            (the notes are also in ``result.notes``).
        fixed_env: for a game that must stay as ``env_params`` make it, what it is (``"the
            training env"``): a trained agent needing other parameters is then refused.
        opening: the opening protocol: ``None``/``"auto"`` (6 random plies on a
            chance-free game, none with chance), ``"none"`` or a number of plies
            (:func:`moon_agents.evaluation.openings.resolve_opening`).
    """
    if seating not in SEATINGS:
        raise ConfigError(f"seating={seating!r} is not allowed; allowed: {list(SEATINGS)}")
    if len(agent_specs) < 2:
        raise ConfigError(f"a tournament needs at least 2 agents, got {len(agent_specs)}")
    if games < 1:
        raise ConfigError(f"games={games} is out of range; allowed: 1..")
    k = len(agent_specs)
    names: list[str] = []

    def build(game: str) -> list[Any]:
        built, unique = build_agents(agent_specs, game, seed=seed)
        names.extend(unique)
        return built

    setup = setup_game(
        env_id,
        env_params,
        build,
        seats=k if seating == "one_per_seat" else None,
        seats_text=f"{k} agents named",
        fixed_env=fixed_env,
    )
    env, agents = setup.env, setup.agents
    try:
        protocol = resolve_opening(opening, env.game.spec.has_chance)
    except ConfigError:
        env.close()
        raise
    for line in setup.notes if note else ():
        note(line)
    ups = lineups(len(agents), setup.num_players)
    records = []
    bar = progress_bar(progress, total=games, desc=f"{env_id} eval", unit="game")
    for g in range(games):
        up = ups[g % len(ups)]
        clock: tuple[list[int], list[float]] = ([0] * len(up), [0.0] * len(up))
        seats = tuple(names[i] for i in up)
        rng = opening_rng(rotation_seed(seed, g, len(ups))) if protocol.plies else None
        played = play_recorded(
            env, [agents[i] for i in up], seed + g, clock, protocol.plies, rng, seats
        )
        records.append(
            GameRecord(
                g,
                seed + g,
                seats,
                tuple(played.scores),
                tuple(played.winners),
                played.length,
                *map(tuple, clock),
                played.key,
                played.first_mover,
                tuple(played.opening),
            )
        )
        if bar is not None:
            bar.update()
    if bar is not None:
        bar.close()
    env.close()
    result = TournamentResult.from_games(
        env_id,
        names,
        records,
        setup.params,
        seed,
        prior_ties=prior_ties,
        seating=seating_text(seating, len(agents), setup.num_players),
        notes=setup.notes,
        opening=protocol.name,
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
    fixed_env: str | None = None,
    opening: Any = None,
) -> tuple[float, float, float]:
    """``agent``'s win rate and Wilson 95% interval against ``opponent`` (seats rotated;
    in a game of more than 2 players the two agents alternate round the table,
    ``seating="round_robin"``; ``fixed_env`` and ``opening`` as in :func:`tournament`;
    rate and interval over the distinct games)."""
    result = tournament(
        env_id,
        [agent, opponent],
        games,
        seed=seed,
        env_params=env_params,
        seating="round_robin",
        fixed_env=fixed_env,
        opening=opening,
    )
    name = result.agents[0]
    lo, hi = result.stats[name].ci
    return result.win_rate(name), lo, hi


def evaluate_learner(
    cfg: Any, learner: Any, name_of: Callable[[str], str]
) -> dict[str, tuple[float, float, float]]:
    """A trainer's evaluation: the learner's win rate and Wilson 95% interval against each
    of ``cfg.eval.opponents`` (``cfg.eval.games`` games, seats rotated, the run's
    evaluation seed), keyed by ``name_of(spec)``. The games are the training env's: an
    opponent trained with other parameters is refused, not given its own."""
    return {
        name_of(spec): evaluate_against(
            cfg.env.id,
            learner,
            spec,
            cfg.eval.games,
            seed=cfg.seed + 1_000_003,
            env_params=cfg.env.params,
            fixed_env="the training env",
        )
        for spec in cfg.eval.opponents
    }


def eval_columns(results: dict[str, tuple[float, float, float]]) -> dict[str, float]:
    """The metrics columns of :func:`evaluate_learner`'s results."""
    row: dict[str, float] = {}
    for key, (rate, lo, hi) in results.items():
        row[f"eval_{key}_win_rate"] = rate
        row[f"eval_{key}_ci_low"] = lo
        row[f"eval_{key}_ci_high"] = hi
    return row
