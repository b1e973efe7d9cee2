"""The agent ladder: a round-robin tournament where every pair of agents meets head to head.

::

    from moon_agents.evaluation.ladder.run import run_ladder
    result = run_ladder("jupiter_v0", {"random": "random", "greedy": "greedy",
                                       "mcts-50": "mcts:simulations=50"}, games=500)
    print(result.markdown())       # ranking and pairwise table
    result.save("ladder_out")      # ladder.md, ladder.json, games.csv, ladder.png

**Pairings.** Every unordered pair of agents ``(a, b)`` plays ``games`` games. Game ``i``
of every pairing uses env seed ``seed + i`` (the same dice and deals for every pairing,
which makes pairings easier to compare) and seats rotated: in a 2-player game ``a`` sits
first in even games and ``b`` in odd ones; with more seats the two agents alternate round
the table, the order rotated by one seat per game.

**Openings.** On a chance-free game the first plies of each game are drawn at random
(:mod:`moon_agents.evaluation.openings`; by default ``random-opening:6`` there, none on
games with chance), the same opening for both seat orders: games ``i`` with the same
``i // #line-ups`` share it.

**Scores.** A game is split into pairwise results between seats of the two agents (the
winner beats the non-winner, equal results are ties worth half; see
:func:`moon_agents.evaluation.results.pairwise_results`). Only **distinct games** count
(each game keyed by its seats and full history, :mod:`moon_agents.evaluation.distinct`;
a game played again is counted once). A pairing's win rate is ``a``'s share of the
distinct games' results with a Wilson 95% interval, split by first and second mover; the
Elo ratings are one Bradley–Terry fit over every pairing's distinct results (mean 1500,
see :mod:`moon_agents.evaluation.ratings`).

**Chunks, workers and the cache.** A pairing is played in chunks of
:data:`CHUNK_GAMES` games; each chunk builds its two agents afresh, seeded from the
pairing and the chunk, so a ladder gives the same games whatever the number of worker
processes (``workers``). Finished pairings are stored in ``<out>/pairings/`` with what
they were played with (env, parameters, seed, games, both specs and a hash of every model
file a spec names); a later run with the same settings reuses them, so adding an agent to
a ladder plays only the new pairings. Pass ``fresh=True`` to replay everything.
"""

from __future__ import annotations

import itertools
import json
import re
import zlib
from collections.abc import Callable, Mapping
from dataclasses import asdict
from pathlib import Path
from typing import Any

from moon_agents.evaluation.distinct import play_recorded
from moon_agents.evaluation.ladder.cache import (
    cache_key,
    read_cache,
    record_from_dict,
    spec_fingerprint,
)
from moon_agents.evaluation.ladder.report import LadderResult
from moon_agents.evaluation.openings import opening_rng, resolve_opening, rotation_seed
from moon_agents.evaluation.results import GameRecord
from moon_agents.evaluation.tournament import lineups
from moon_agents.paths import claim_output_folder
from moon_agents.seating import setup_game
from moon_envs.core.game import ConfigError
from moon_envs.core.snapshot import quote

__all__ = ["CHUNK_GAMES", "LadderResult", "pairing_seats", "run_ladder", "spec_fingerprint"]

CHUNK_GAMES = 50
"""Games per chunk: the unit of work of one worker, with its own freshly seeded agents."""
_LABEL = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.+-]{0,39}$")


def pairing_seats(game_index: int, num_seats: int) -> tuple[int, ...]:
    """Which of the two agents (0 = a, 1 = b) sits in each seat in game ``game_index``."""
    ups = lineups(2, num_seats)
    return ups[game_index % len(ups)]


def _agent_seed(seed: int, label: str, other: str, chunk: int) -> int:
    return (seed * 1_000_003 + zlib.crc32(f"{label}|{other}|{chunk}".encode())) % 2**31


def play_chunk(
    env_id: str,
    env_params: Mapping[str, Any],
    seed: int,
    pair: tuple[tuple[str, str], tuple[str, str]],
    start: int,
    stop: int,
    chunk: int,
    on_game: Callable[[], None] | None = None,
    opening_plies: int = 0,
) -> list[dict[str, Any]]:
    """Games ``start..stop-1`` of one pairing ``((label_a, spec_a), (label_b, spec_b))``,
    as :class:`GameRecord` dicts (seat names are the labels), each opened by
    ``opening_plies`` random plies; ``on_game()`` is called after every game."""
    from moon_agents.zoo import make_agent
    from moon_envs import make

    env = make(env_id, **dict(env_params))
    game = env.game.spec.name
    (la, sa), (lb, sb) = pair
    agents = [
        make_agent(sa, game, seed=_agent_seed(seed, la, lb, chunk), name=la),
        make_agent(sb, game, seed=_agent_seed(seed, lb, la, chunk), name=lb),
    ]
    _one_thread()  # after the agents: loading a policy is what imports torch
    labels = (la, lb)
    seats_n = env.game.spec.num_players
    records = []
    rotation = len(lineups(2, seats_n))
    for i in range(start, stop):
        who = pairing_seats(i, seats_n)
        clock: tuple[list[int], list[float]] = ([0] * seats_n, [0.0] * seats_n)
        seats = tuple(labels[w] for w in who)
        rng = opening_rng(rotation_seed(seed, i, rotation)) if opening_plies else None
        g = play_recorded(
            env, [agents[w] for w in who], seed + i, clock, opening_plies, rng, seats
        )
        rec = GameRecord(
            i,
            seed + i,
            seats,
            tuple(g.scores),
            tuple(g.winners),
            g.length,
            *map(tuple, clock),
            g.key,
            g.first_mover,
            tuple(g.opening),
        )
        records.append(asdict(rec))
        if on_game is not None:
            on_game()
    env.close()
    return records


def _one_thread() -> None:
    """Worker processes share the machine: one torch thread each (when torch is loaded)."""
    import sys

    torch = sys.modules.get("torch")
    if torch is not None:
        torch.set_num_threads(1)


def check_agents(agents: Mapping[str, str]) -> list[tuple[str, str]]:
    """The ``label -> spec`` mapping as pairs, after checking the labels."""
    if len(agents) < 2:
        raise ConfigError(f"a ladder needs at least 2 agents, got {len(agents)}")
    for label, spec in agents.items():
        if not isinstance(label, str) or not _LABEL.match(label):
            raise ConfigError(
                f"agent label {quote(label)} is not allowed; allowed: 1-40 letters, digits "
                "and _ . + - (starting with a letter or digit)"
            )
        if not isinstance(spec, str) or not spec:
            raise ConfigError(f"agent {label!r}: the spec must be a non-empty string")
    return list(agents.items())


def run_ladder(
    env_id: str,
    agents: Mapping[str, str],
    games: int = 500,
    seed: int = 0,
    env_params: Mapping[str, Any] | None = None,
    out_dir: str | Path | None = None,
    workers: int = 1,
    fresh: bool = False,
    progress: Callable[[int, int], None] | None = None,
    note: Callable[[str], None] | None = None,
    opening: Any = None,
) -> LadderResult:
    """Play every pairing of ``agents`` (``label -> agent spec``) ``games`` times.

    Args:
        env_id: a registered env id.
        agents: at least two agents, labelled (labels name them in tables and files).
        games: games per pairing (500 for the published ladders).
        seed: game ``i`` of each pairing uses env seed ``seed + i``.
        env_params: parameters for ``moon_envs.make``; trained agents add those they were
            trained with (:mod:`moon_agents.seating`; ``result.notes`` says which).
        out_dir: where pairings are cached and the results written (``None``: nowhere).
        workers: processes playing chunks side by side (the results do not depend on it).
        fresh: ignore cached pairings.
        progress: called with ``(games done, games in all)`` before the first game and
            after every game, counted over every pairing still to play (cached ones are
            not); with ``workers > 1`` the workers' games are counted as they finish.
        note: called with each note on parameters set for trained agents, before any game.
        opening: the opening protocol: ``None``/``"auto"`` (6 random plies on a
            chance-free game, none with chance), ``"none"`` or a number of plies
            (:func:`moon_agents.evaluation.openings.resolve_opening`).
    """
    from moon_agents.zoo import make_agent

    if not isinstance(games, int) or games < 1:
        raise ConfigError(f"games={quote(games)} is not allowed; allowed: an integer >= 1")
    if not isinstance(workers, int) or workers < 1:
        raise ConfigError(f"workers={quote(workers)} is not allowed; allowed: an integer >= 1")
    pairs_of = check_agents(agents)
    # bad ids, parameters, specs and unreadable models fail here, before any game; the
    # parameters trained agents need are added (or refused when they conflict)
    setup = setup_game(
        env_id,
        env_params,
        lambda game: [make_agent(spec, game, seed=0, name=label) for label, spec in pairs_of],
    )
    params = setup.params
    game = setup.env.game.spec.name
    has_chance = setup.env.game.spec.has_chance
    setup.env.close()
    protocol = resolve_opening(opening, has_chance)
    for line in setup.notes if note else ():
        note(line)
    if out_dir is not None:  # a folder of the user's is never written into
        out_dir = claim_output_folder("out_dir", str(out_dir), "ladder")
    cache_dir = Path(out_dir) / "pairings" if out_dir is not None else None
    results: dict[tuple[str, str], list[GameRecord]] = {}
    todo: list[tuple[int, tuple, int, int, int]] = []
    pairs = list(itertools.combinations(pairs_of, 2))
    for k, (a, b) in enumerate(pairs):
        cached = None
        if cache_dir is not None and not fresh:
            key = cache_key(env_id, params, seed, games, a, b, game, protocol.name)
            cached = read_cache(cache_dir / f"{a[0]}__{b[0]}.json", key)
        if cached is not None:
            results[(a[0], b[0])] = cached
            continue
        for c, start in enumerate(range(0, games, CHUNK_GAMES)):
            todo.append((k, (a, b), start, min(games, start + CHUNK_GAMES), c))
    chunks_left = {k: sum(1 for t in todo if t[0] == k) for k in range(len(pairs))}
    played: dict[int, list[dict[str, Any]]] = {k: [] for k in range(len(pairs))}

    def finished(k: int, records: list[dict[str, Any]]) -> None:
        """Keep a chunk's games; once a pairing is complete, store it in the cache."""
        played[k].extend(records)
        chunks_left[k] -= 1
        if chunks_left[k]:
            return
        a, b = pairs[k]
        games_ab = [record_from_dict(r) for r in sorted(played[k], key=lambda r: r["game"])]
        results[(a[0], b[0])] = games_ab
        if cache_dir is not None:
            cache_dir.mkdir(parents=True, exist_ok=True)
            key = cache_key(env_id, params, seed, games, a, b, game, protocol.name)
            body = {"key": key, "games": [asdict(r) for r in games_ab]}
            (cache_dir / f"{a[0]}__{b[0]}.json").write_text(json.dumps(body))

    _run_chunks(env_id, params, seed, todo, workers, finished, progress, protocol.plies)
    results = {(a[0], b[0]): results[(a[0], b[0])] for a, b in pairs}  # in pairing order
    result = LadderResult.build(env_id, params, seed, games, pairs_of, results)
    result.opening = protocol.name
    result.notes = list(setup.notes)
    if out_dir is not None:
        result.save(out_dir)
    return result


def _run_chunks(
    env_id: str,
    params: dict[str, Any],
    seed: int,
    todo: list[tuple[int, tuple, int, int, int]],
    workers: int,
    finished: Callable[[int, list[dict[str, Any]]], None],
    progress: Callable[[int, int], None] | None,
    opening_plies: int = 0,
) -> None:
    """Play the chunks in ``todo`` (in this process, or in ``workers`` processes), handing
    each chunk's games to ``finished(pairing index, games)`` and reporting every game to
    ``progress(games done, games in all)``."""
    total = sum(stop - start for _, _, start, stop, _ in todo)
    done = 0

    def tick(n: int = 1) -> None:
        nonlocal done
        done += n
        if progress:
            progress(min(done, total), total)

    if todo and progress:
        progress(0, total)
    if workers == 1 or len(todo) <= 1:
        for k, pair, start, stop, c in todo:
            finished(
                k, play_chunk(env_id, params, seed, pair, start, stop, c, tick, opening_plies)
            )
        return
    import multiprocessing
    import queue
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

    ctx = multiprocessing.get_context("spawn")  # no torch thread pools inherited by fork
    games_played = ctx.Queue()  # one item per game, put by the workers as games end

    def drain(wait_s: float = 0.0) -> None:
        """Count the games reported so far (waiting up to ``wait_s`` for each one)."""
        while done < total:
            try:
                tick(games_played.get(timeout=wait_s) if wait_s else games_played.get_nowait())
            except queue.Empty:
                return

    with ProcessPoolExecutor(
        max_workers=workers,
        mp_context=ctx,
        initializer=_count_games_in,
        initargs=(games_played,),
    ) as pool:
        futures = {
            pool.submit(
                _worker_chunk, env_id, params, seed, pair, start, stop, c, opening_plies
            ): k
            for (k, pair, start, stop, c) in todo
        }
        pending = set(futures)
        while pending:
            ready, pending = wait(pending, timeout=0.5, return_when=FIRST_COMPLETED)
            drain()
            for fut in ready:
                finished(futures[fut], fut.result())
        drain(wait_s=5.0)  # the last games' items, so that no worker waits to flush them


_GAMES_PLAYED: Any = None
"""In a worker process: the queue each finished game is reported on."""


def _count_games_in(games_played: Any) -> None:
    global _GAMES_PLAYED
    _GAMES_PLAYED = games_played


def _worker_chunk(*args: Any) -> list[dict[str, Any]]:
    """:func:`play_chunk` in a worker process, each game reported on the queue."""
    *head, opening_plies = args
    return play_chunk(*head, on_game=lambda: _GAMES_PLAYED.put(1), opening_plies=opening_plies)
