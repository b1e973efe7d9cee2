"""``moon-envs bench``: the speed of every env, beside peers measured in the same run.

Four measurements per env, each beside its peers (see docs/benchmarks.md):

* **AEC random play** (:func:`random_play`): *agent-steps per second*, decisions made by
  uniformly random agents (a legal action drawn from the mask with one seeded generator)
  in a plain AEC loop, resets included. Every env, PettingZoo's ``connect_four_v3``
  included, runs the same loop and the same action-choice code in the same process, so
  the ratio (env / connect_four) compares like with like. moon-envs envs are built with
  ``moon_envs.make(env_id)`` and connect_four with ``connect_four_v3.env()`` (its default
  wrappers on, as users get it).
* **Rules engine** (:mod:`moon_agents.benchmarks.engine_speed`): random decisions per
  second on the rules engine (legal actions + ``apply_action``, chance outcomes sampled)
  and the mean ``clone()`` time of positions from random play, beside OpenSpiel's C++
  ``connect_four`` and Python ``tic_tac_toe`` in the same loops.
* **MCTS**: simulations per second of the zoo's ``mcts`` agent on positions from random
  play, beside OpenSpiel's ``MCTSBot`` on ``connect_four``.
* **Search cost** (:func:`search_cost`): random actions applied to the rules core with a
  ``clone()`` every :data:`CLONE_EVERY` actions, as a tree search does.

Each measurement runs ``seconds``; a *run* measures every env and peer once, and
``repeats`` runs follow one another, so that a change of machine load hits all of them
alike; the tables show medians (:mod:`moon_agents.benchmarks.bench_report`).

After the tables, every game with a module ``moon_agents.benchmarks.games.<game>``
defining ``run(seconds)`` adds its own rows (see :mod:`moon_agents.benchmarks.games`).

connect_four_v3 needs PettingZoo's classic games, ``pip install "moon-envs[bench]"``, and
the OpenSpiel peers ``pip install "moon-envs[openspiel]"``; without them their columns
read n/a.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

REFERENCE = "connect_four_v3"
CLONE_EVERY = 4
INSTALL_HINT = 'connect_four_v3 needs PettingZoo\'s classic games: pip install "moon-envs[bench]"'


@dataclass(frozen=True)
class BenchRow:
    """One env's measurement."""

    env: str
    steps: int
    games: int
    seconds: float

    @property
    def steps_per_s(self) -> float:
        return self.steps / self.seconds if self.seconds > 0 else 0.0

    @property
    def games_per_s(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else 0.0


def random_play(env: Any, seconds: float, seed: int = 0) -> BenchRow:
    """Play uniformly random games on the AEC ``env`` for about ``seconds``; count decisions.

    The same code runs for every env: read the acting agent's mask from ``env.last()``,
    draw a legal action (uniforms pre-drawn in blocks from one seeded generator),
    ``env.step`` it; ``step(None)`` for agents that are done; reset when no agent is left.
    The clock is read every 64 loop turns.
    """
    rng = np.random.default_rng(seed)
    uniforms = rng.random(4096).tolist()  # drawn in bulk so the loop's own cost stays small
    steps = games = 0
    env.reset(seed=seed)
    start = time.perf_counter()
    deadline = start + seconds
    turn = 0
    while True:
        if not env.agents:
            games += 1
            env.reset()
        obs, _, termination, truncation, _ = env.last()
        if termination or truncation:
            env.step(None)
        else:
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[int(uniforms[steps & 4095] * legal.size)]))
            steps += 1
            if steps & 4095 == 0:
                uniforms = rng.random(4096).tolist()
        turn += 1
        if turn & 63 == 0 and time.perf_counter() >= deadline:
            break
    return BenchRow(
        getattr(env, "metadata", {}).get("name", "?"), steps, games, time.perf_counter() - start
    )


def search_cost(game: Any, seconds: float, seed: int = 0) -> BenchRow:
    """Random actions per second on the rules core of ``game``, cloning every
    :data:`CLONE_EVERY` actions (the clone replaces the state being played).

    Player actions (a legal one drawn uniformly from the mask) and chance outcomes (drawn
    with their probabilities) both count as actions; a finished game restarts from
    ``game.new_initial_state()``. The clock is read every 64 actions.
    """
    from moon_envs.core.game import CHANCE, TERMINAL

    rng = np.random.default_rng(seed)
    uniforms = rng.random(4096).tolist()
    state = game.new_initial_state()
    steps = games = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        player = state.current_player()
        if player == TERMINAL:
            games += 1
            state = game.new_initial_state()
            continue
        u = uniforms[steps & 4095]
        if player == CHANCE:
            outcomes = state.chance_outcomes()
            acc, pick = 0.0, outcomes[-1][0]
            for o, p in outcomes:
                acc += p
                if u < acc:
                    pick = o
                    break
            state.apply_chance_outcome(pick)
        else:
            legal = state.legal_actions_mask().nonzero()[0]
            state.apply_action(int(legal[int(u * legal.shape[0])]))
        steps += 1
        if steps % CLONE_EVERY == 0:
            state = state.clone()
        if steps & 4095 == 0:
            uniforms = rng.random(4096).tolist()
        if steps & 63 == 0 and time.perf_counter() >= deadline:
            break
    return BenchRow(game.spec.name, steps, games, time.perf_counter() - start)


def reference_factory() -> Callable[[], Any] | None:
    """``connect_four_v3.env`` if PettingZoo's classic games are installed, else None."""
    import warnings

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)  # PettingZoo's old import path
            from pettingzoo.classic import connect_four_v3
    except ImportError:
        return None
    return connect_four_v3.env


def open_spiel_factory() -> Callable[[], dict[str, Any] | None]:
    """The loader of the OpenSpiel peer games (a seam for tests that hide OpenSpiel)."""
    from moon_agents.benchmarks.engine_speed import open_spiel_games

    return open_spiel_games


Task = Callable[[float, int], dict[str, float]]  # (seconds, seed) -> {metric: value}


def _tasks(
    envs: dict[str, Any], games: dict[str, Any], spiel: dict[str, Any] | None, seed: int
) -> list[tuple[str, str, Task]]:
    """Every (kind, row, measurement) of one run, in order: AEC, engine, clone, MCTS,
    search cost; a measurement takes ``(seconds, run seed)`` and returns ``{metric: value}``.
    Positions for clone() and MCTS are sampled here, once."""
    from moon_agents.benchmarks import engine_speed as es
    from moon_agents.benchmarks.bench_report import C4_OS, MCTS_BOT

    def aec(env: Any) -> Task:
        def measure(seconds: float, s: int) -> dict[str, float]:
            row = random_play(env, seconds, seed=s)
            return {"aec_steps_per_s": row.steps_per_s, "aec_games_per_s": row.games_per_s}

        return measure

    tasks: list[tuple[str, str, Task]] = [("AEC", name, aec(env)) for name, env in envs.items()]
    engines: list[tuple[str, Any, Callable[..., Any]]] = [
        (name, game, es.engine_decisions) for name, game in games.items()
    ]
    engines += [(name, game, es.spiel_decisions) for name, game in (spiel or {}).items()]
    positions = {name: es.sample_positions(game, seed=seed) for name, game, _ in engines}
    for name, game, loop in engines:
        tasks.append(
            ("engine", name, lambda t, s, g=game, f=loop: {
                "engine_decisions_per_s": f(g, t, seed=s).rate})
        )  # fmt: skip
    for name, _, _ in engines:
        tasks.append(
            ("clone", name, lambda t, s, p=positions[name]: {
                "clone_us": es.clone_cost(p, t).micros_each})
        )  # fmt: skip
    for name, game in games.items():
        found = es.search_positions(positions[name])
        if not found:  # no sampled position offers a choice: nothing to search
            continue
        tasks.append(
            ("MCTS", name, lambda t, s, g=game, p=found: {
                "mcts_simulations_per_s": es.mcts_simulations(g, p, t, seed=s).rate})
        )  # fmt: skip
    if spiel is not None:
        found = es.search_positions(positions[C4_OS])
        tasks.append(
            ("MCTS", MCTS_BOT, lambda t, s, g=spiel[C4_OS], p=found: {
                "mcts_simulations_per_s": es.mcts_bot_simulations(g, p, t, seed=s).rate})
        )  # fmt: skip
    for name, game in games.items():
        tasks.append(
            ("search cost", name, lambda t, s, g=game: {
                "search_cost_actions_per_s": search_cost(g, t, seed=s).steps_per_s})
        )  # fmt: skip
    return tasks


def _extra_runs(games: dict[str, Any]) -> dict[str, Callable[[float], Any]]:
    """Game name -> the ``run(seconds)`` of its ``moon_agents.benchmarks.games`` module, for
    the measured games that have one."""
    runs = {}
    for game in dict.fromkeys(g.spec.name for g in games.values()):
        try:
            module = importlib.import_module(f"moon_agents.benchmarks.games.{game}")
        except ModuleNotFoundError as exc:
            if exc.name == f"moon_agents.benchmarks.games.{game}":
                continue
            raise
        run = getattr(module, "run", None)
        if run is not None:
            runs[game] = run
    return runs


def run_bench(
    env_ids: Sequence[str] | None = None,
    seconds: float = 1.0,
    seed: int = 0,
    out: Callable[[str], None] = print,
    repeats: int = 3,
    progress: Callable[[int, int, str], None] | None = None,
    json_path: str | None = None,
) -> dict[str, Any]:
    """Measure ``env_ids`` (default: every registered env) and the peers; print the tables.

    Every measurement runs about ``seconds``; ``repeats`` runs each measure every env and
    peer once, one run after the other; the tables show medians. ``progress`` (if given)
    is called with ``(measurements done, measurements in all, what is under way)``
    before each measurement (a run's measurement of one env or peer, or one game's extra
    measurements; warm-ups are not counted) and with ``""`` at the end (a
    :class:`moon_agents.progress.CountBar` draws it). With ``json_path``,
    the returned figures are also written there (its folder must exist).

    Returns ``{"settings", "machine", "metrics", "extra", "skipped", "notes"}``, with
    ``metrics[metric]["rows"][row] = {"median", "runs", "ratios"}``
    (see :mod:`moon_agents.benchmarks.bench_report`). An env whose module is not
    available is skipped with a note.
    """
    import moon_envs
    from moon_agents.benchmarks import bench_report as br
    from moon_agents.benchmarks.engine_speed import MCTS_MOVE_SHARE, OPEN_SPIEL_HINT

    if repeats < 1 or seconds <= 0:
        raise ValueError(f"repeats {repeats} and seconds {seconds}: need repeats >= 1, seconds > 0")
    if json_path is not None:
        br.check_json_path(json_path)
    ids = list(env_ids) if env_ids else moon_envs.list_envs()
    for env_id in ids:
        moon_envs.get_entry(env_id)  # an unknown id lists the valid ones
    notes: list[str] = []
    ref_factory = reference_factory()
    if ref_factory is None:
        notes.append(f"{INSTALL_HINT}; its columns read n/a.")
    spiel = open_spiel_factory()()
    if spiel is None:
        notes.append(f"{OPEN_SPIEL_HINT}; their columns read n/a.")
    for note in notes:
        out(f"note: {note}")

    skipped: dict[str, str] = {}
    factories: list[tuple[str, Callable[[], Any]]] = [
        (env_id, lambda e=env_id: moon_envs.make(e)) for env_id in ids
    ]
    if ref_factory is not None:
        factories.append((REFERENCE, ref_factory))
    envs: dict[str, Any] = {}
    for name, factory in factories:
        try:
            envs[name] = factory()
        except ImportError as exc:
            skipped[name] = f"not available ({exc})"
    games = {name: env.game for name, env in envs.items() if hasattr(env, "game")}

    extras = _extra_runs(games)
    total = 0  # measurements in all, known once the tasks are

    def report(done: int, text: str) -> None:
        if progress:
            progress(done, total, text)

    report(0, "sampling positions from random play")
    tasks = _tasks(envs, games, spiel, seed)
    total = repeats * len(tasks) + len(extras)
    results = br.Results()
    warm = min(0.1, seconds / 10)
    for kind, name, measure in tasks:  # warm-up: imports, caches, first-call costs
        report(0, f"warm-up, {kind} {name}")
        measure(warm, seed)
    for r in range(repeats):  # a run measures everything once; runs follow one another
        for i, (kind, name, measure) in enumerate(tasks):
            report(r * len(tasks) + i, f"run {r + 1}/{repeats}, {kind} {name}")
            for metric, value in measure(seconds, seed + r).items():
                results.add(metric, name, value)
    for env in envs.values():
        env.close()

    mcts_note = (
        f"zoo spec mcts: UCT, random rollouts, at most 200 simulations a move and "
        f"{MCTS_MOVE_SHARE:g} of the time; MCTSBot: 200 a move"
    )
    br.print_tables(results, list(games), seconds, repeats, out, mcts_note)
    for name, why in skipped.items():
        out(f"{name:<22} skipped: {why}")

    extra: dict[str, list[dict[str, Any]]] = {}
    for n, (game, run) in enumerate(extras.items()):
        report(repeats * len(tasks) + n, f"{game} extra measurements")
        rows = list(run(seconds))
        extra[game] = [{"metric": m, "value": v, "unit": u} for m, v, u in rows]
        out(f"\n{game} extra measurements")
        for metric, value, unit in rows:
            out(f"  {metric:<40} {value:>12,.3f} {unit}")
    report(total, "")
    data = {
        "settings": {"envs": list(games), "seconds": seconds, "repeats": repeats, "seed": seed},
        "machine": br.machine_info(),
        "metrics": results.as_json(),
        "extra": extra,
        "skipped": skipped,
        "notes": notes,
    }
    if json_path is not None:
        written = br.write_json(json_path, data)
        out(f"\nfigures written to {written}")
    return data
