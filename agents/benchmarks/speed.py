"""Random-play speed of moon-envs environments beside PettingZoo's ``connect_four_v3``.

``moon-envs bench`` measures *agent-steps per second*: decisions made by uniformly random
agents (a legal action drawn from the mask with one seeded generator) in a plain AEC
loop, resets included. Every env, connect_four included, runs the same loop and the same
action-choice code in the same process, one after the other, so the ratio column
(env / connect_four) compares like with like. moon-envs envs are built with
``moon_envs.make(env_id)`` and connect_four with ``connect_four_v3.env()`` (its default
wrappers on, as users get it). The envs take turns in interleaved rounds, so a change of
machine load during the run affects all of them alike.

A second table measures the *search cost* of every env: random actions applied straight to
the rules core (``State.apply_action``, chance outcomes drawn with their probabilities)
with a ``clone()`` every :data:`CLONE_EVERY` actions, as a tree search does (see
:func:`search_cost`).

After the tables, every game with a module ``moon_agents.benchmarks.games.<game>``
defining ``run(seconds)`` adds its own rows (see :mod:`moon_agents.benchmarks.games`).

connect_four needs PettingZoo's classic extras: ``pip install "moon-envs[bench]"``.
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


def run_bench(
    env_ids: Sequence[str] | None = None,
    seconds: float = 3.0,
    seed: int = 0,
    out: Callable[[str], None] = print,
    rounds: int = 3,
) -> dict[str, Any]:
    """Measure ``env_ids`` (default: every registered env) and connect_four; print a table.

    Each env gets ``seconds`` in all, in ``rounds`` interleaved slices.

    Returns ``{"rows": [...], "ratios": {...}, "search_cost": {env: actions_per_s},
    "extra": {game: rows}, "skipped": {...}}``.
    An env whose module is not available is skipped with a note.
    """
    import moon_envs

    ids = list(env_ids) if env_ids else moon_envs.list_envs()
    for env_id in ids:
        moon_envs.get_entry(env_id)  # an unknown id lists the valid ones
    ref_factory = reference_factory()
    if ref_factory is None:
        out(f"note: {INSTALL_HINT}; measuring moon-envs only.")

    rows: dict[str, BenchRow] = {}
    games: dict[str, str] = {}
    skipped: dict[str, str] = {}
    factories: list[tuple[str, Callable[[], Any]]] = []
    for env_id in ids:
        factories.append((env_id, lambda e=env_id: moon_envs.make(e)))
    if ref_factory is not None:
        factories.append((REFERENCE, ref_factory))

    envs: dict[str, Any] = {}
    for name, factory in factories:
        try:
            envs[name] = factory()
        except ImportError as exc:
            skipped[name] = f"not available ({exc})"
            continue
        if hasattr(envs[name], "game"):
            games[name] = envs[name].game.spec.name
        random_play(envs[name], min(0.2, seconds / 10), seed=seed)  # warm-up
    # interleaved rounds, so that a change in machine load hits every env alike
    for r in range(rounds):
        for name, env in envs.items():
            part = random_play(env, seconds / rounds, seed=seed + r)
            prev = rows.get(name, BenchRow(name, 0, 0, 0.0))
            rows[name] = BenchRow(
                name, prev.steps + part.steps, prev.games + part.games, prev.seconds + part.seconds
            )
    search: dict[str, BenchRow] = {}
    for r in range(rounds):  # interleaved like the table above
        for name, env in envs.items():
            if name not in games:
                continue
            part = search_cost(env.game, seconds / rounds, seed=seed + r)
            prev = search.get(name, BenchRow(name, 0, 0, 0.0))
            search[name] = BenchRow(
                name, prev.steps + part.steps, prev.games + part.games, prev.seconds + part.seconds
            )
    for env in envs.values():
        env.close()

    ref = rows.get(REFERENCE)
    ratios = {
        n: (r.steps_per_s / ref.steps_per_s if ref else float("nan")) for n, r in rows.items()
    }
    out(
        f"random play, {seconds:g} s per env in {rounds} interleaved rounds, "
        "one process, same loop for all"
    )
    out(f"{'env':<22} {'agent-steps/s':>14} {'games/s':>10} {'x ' + REFERENCE:>20}")
    for name, r in rows.items():
        ratio = f"{ratios[name]:.2f}" if ref else "n/a"
        out(f"{name:<22} {r.steps_per_s:>14,.0f} {r.games_per_s:>10,.1f} {ratio:>20}")
    for name, why in skipped.items():
        out(f"{name:<22} skipped: {why}")

    out(
        f"\nsearch cost: rules-core random actions with a clone() every {CLONE_EVERY} "
        "(chance outcomes count as actions)"
    )
    out(f"{'env':<22} {'actions/s':>14} {'x ' + REFERENCE + ' agent-steps/s':>38}")
    for name, r in search.items():
        ratio = f"{r.steps_per_s / ref.steps_per_s:.2f}" if ref else "n/a"
        out(f"{name:<22} {r.steps_per_s:>14,.0f} {ratio:>38}")

    extra: dict[str, list[tuple[str, float, str]]] = {}
    for game in dict.fromkeys(games.values()):
        try:
            module = importlib.import_module(f"moon_agents.benchmarks.games.{game}")
        except ModuleNotFoundError as exc:
            if exc.name == f"moon_agents.benchmarks.games.{game}":
                continue
            raise
        run = getattr(module, "run", None)
        if run is None:
            continue
        extra[game] = list(run(seconds))
        out(f"\n{game} extra measurements")
        for metric, value, unit in extra[game]:
            out(f"  {metric:<40} {value:>12,.3f} {unit}")
    return {
        "rows": [
            {
                "env": r.env,
                "steps": r.steps,
                "games": r.games,
                "seconds": r.seconds,
                "steps_per_s": r.steps_per_s,
                "ratio": ratios[n],
            }
            for n, r in rows.items()
        ],
        "ratios": ratios,
        "search_cost": {n: r.steps_per_s for n, r in search.items()},
        "extra": extra,
        "skipped": skipped,
    }
