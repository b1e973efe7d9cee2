"""Where one engine decision's time goes, part by part, for every game.

    python -m moon_agents.benchmarks.engine_breakdown [--decisions N] [--repeats R] [ENV ...]

``moon-envs bench`` reports engine decisions per second (the loop of
:func:`moon_agents.benchmarks.engine_speed.engine_decisions`). This splits that loop's
time per decision into its parts, each timed on its own:

1. Random games are played with the bench loop's seeded choices, and every step is
   recorded: a deep copy of the position before it (its cached mask, if any, not yet
   built), and the action or chance outcome taken.
2. Each part is timed over the recorded steps, in blocks, on fresh deep copies of the
   recorded positions (made outside the timed block: deep, so that no memo a game keeps
   in a structure its ``clone()`` shares is filled by one block and found by the next),
   and the block's time is divided by its steps; the loop that runs a block is timed
   empty and taken off. Each block runs ``repeats`` times and the fastest is kept (the
   usual way to read a micro-benchmark on a busy machine: noise only ever adds time).

The parts, in microseconds per decision (player action), each timed directly:

* ``loop``: the bench loop's own work: ``current_player()`` once per step,
  ``nonzero()`` of the mask and the uniform pick;
* ``mask_rules``: the game's ``_legal_mask()``; ``mask_core``: the core's
  ``legal_actions_mask()`` around it (timed with ``_legal_mask`` answering a mask built
  beforehand);
* ``apply_rules``: the game's ``_apply(a)``; ``apply_core``: the core's
  ``apply_action(a)`` around it, with the mask already built as in the loop (timed with
  ``_apply`` doing nothing): the legality check (the game's ``_is_legal``), the score
  record, the move count and the end-of-game check;
* ``chance``: ``chance_outcomes()``, the draw and ``apply_chance_outcome()``, per chance
  step, times the chance steps per decision.

``sum`` adds the parts; ``measured`` is the bench loop's own figure in the same run, for
comparison: the loop runs with the garbage collector on, and its positions are warm in
the processor's caches, so the two differ by the machine's noise and a little more.
"""

from __future__ import annotations

import argparse
import copy
import gc
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from moon_agents.benchmarks.engine_speed import _pick, engine_decisions

PARTS = ("loop", "mask_rules", "mask_core", "apply_rules", "apply_core", "chance")


@dataclass
class Recording:
    """The recorded steps of seeded random games: positions before player actions (with
    the action taken) and before chance outcomes (with the outcome and the uniform)."""

    decisions: list[tuple[Any, int, float]]
    chances: list[tuple[Any, int, float]]


def record(game: Any, decisions: int, seed: int = 0) -> Recording:
    """Play random games of ``game`` as the bench loop does until ``decisions`` player
    actions are recorded."""
    from moon_envs.core.game import CHANCE, TERMINAL

    rng = np.random.default_rng(seed)
    rec = Recording([], [])
    state = game.new_initial_state()
    while len(rec.decisions) < decisions:
        player = state.current_player()
        u = float(rng.random())
        if player == TERMINAL:
            state = game.new_initial_state()
        elif player == CHANCE:
            outcome = _pick(state.chance_outcomes(), u)
            rec.chances.append((copy.deepcopy(state), outcome, u))
            state.apply_chance_outcome(outcome)
        else:
            before = copy.deepcopy(state)
            legal = state.legal_actions_mask().nonzero()[0]
            action = int(legal[int(u * legal.shape[0])])
            rec.decisions.append((before, action, u))
            state.apply_action(action)
    return rec


def _timed(block: Callable[[list], None], items: list) -> float:
    """Seconds one run of ``block(items)`` takes, with the garbage collector off while it
    runs (as :mod:`timeit` does: the fresh copies around the block would otherwise
    trigger collections inside it)."""
    gc.disable()
    try:
        start = time.perf_counter_ns()
        block(items)
        return (time.perf_counter_ns() - start) * 1e-9
    finally:
        gc.enable()


def _fresh(steps: list[tuple[Any, int, float]], masked: bool, stub: str = "") -> list:
    """New copies of the recorded positions, with their mask built when ``masked``, and
    with the rules' ``_apply`` (``stub="apply"``) doing nothing or ``_legal_mask``
    (``stub="mask"``) answering a mask built beforehand, to time the core around them."""
    out = []
    for state, action, u in steps:
        fresh = copy.deepcopy(state)
        if masked or stub == "mask":
            mask = fresh.legal_actions_mask()
            if stub == "mask":
                fresh._legal_mask = lambda m=mask: m
        if stub == "apply":
            fresh._apply = _nothing
        out.append((fresh, action, u))
    return out


def _nothing(action: int) -> None:
    """A rules step that changes nothing (see :func:`_fresh`)."""


def _empty(items: list) -> None:
    for _state, _action, _u in items:
        pass


def _player(items: list) -> None:
    for state, _action, _u in items:
        state.current_player()


def _pick_from_mask(items: list) -> None:
    for mask, _action, u in items:
        legal = mask.nonzero()[0]
        int(legal[int(u * legal.shape[0])])


def _mask(items: list) -> None:
    for state, _action, _u in items:
        state.legal_actions_mask()


def _mask_rules(items: list) -> None:
    for state, _action, _u in items:
        state._legal_mask()


def _apply(items: list) -> None:
    for state, action, _u in items:
        state.apply_action(action)


def _apply_rules(items: list) -> None:
    for state, action, _u in items:
        state._apply(action)


def _chance(items: list) -> None:
    for state, _outcome, u in items:
        state.apply_chance_outcome(_pick(state.chance_outcomes(), u))


def breakdown(game: Any, decisions: int = 2000, repeats: int = 5, seed: int = 0) -> dict:
    """Microseconds per decision of each part (:data:`PARTS`), ``sum``, ``measured`` (the
    bench loop in the same run) and ``chance_per_decision``, for ``game``."""
    rec = record(game, decisions, seed)
    n = len(rec.decisions)

    def per_step(
        block: Callable[[list], None], items: list, fresh: bool, masked: bool, stub: str = ""
    ) -> float:
        seconds = []
        for _ in range(repeats):  # fresh copies for every run of a block that changes them
            batch = _fresh(items, masked, stub) if fresh else items
            seconds.append(_timed(block, batch) - _timed(_empty, batch))
        return max(min(seconds), 0.0) / max(len(items), 1) * 1e6

    masks = [(copy.deepcopy(s).legal_actions_mask(), a, u) for s, a, u in rec.decisions]
    out = {
        "loop": per_step(_player, rec.decisions, True, False)
        + per_step(_pick_from_mask, masks, False, False),
        "mask_rules": per_step(_mask_rules, rec.decisions, True, False),
        "mask_core": per_step(_mask, rec.decisions, True, False, "mask"),
        "apply_rules": per_step(_apply_rules, rec.decisions, True, True),
        "apply_core": per_step(_apply, rec.decisions, True, True, "apply"),
    }
    chance_per_decision = len(rec.chances) / n
    chance_each = per_step(_chance, rec.chances, True, False) if rec.chances else 0.0
    out["chance"] = chance_each * chance_per_decision
    out["loop"] += per_step(_player, rec.chances, True, False) * chance_per_decision
    out["sum"] = sum(out[part] for part in PARTS)
    out["measured"] = 1e6 / engine_decisions(game, 1.0, seed=seed).rate
    out["chance_per_decision"] = chance_per_decision
    return out


def table(rows: dict[str, dict]) -> str:
    """A Markdown table of :func:`breakdown` results per env id."""
    head = (
        "| env | measured µs/decision | sum of parts | loop | mask: rules | mask: core | "
        "apply: rules | apply: core | chance (steps per decision) |\n"
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
    )
    lines = [head]
    for env_id, r in rows.items():
        cells = [f"{r[k]:.2f}" for k in ("measured", "sum", *PARTS[:-1])]
        chance = f"{r['chance']:.2f} ({r['chance_per_decision']:.2f})"
        lines.append(f"| {env_id} | {' | '.join(cells)} | {chance} |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    import moon_envs

    parser = argparse.ArgumentParser(
        prog="python -m moon_agents.benchmarks.engine_breakdown", description=__doc__.split("\n")[0]
    )
    parser.add_argument("envs", nargs="*", help="env ids (default: every registered env)")
    parser.add_argument("--decisions", type=int, default=2000, help="recorded decisions per game")
    parser.add_argument("--repeats", type=int, default=5, help="runs of each block; fastest kept")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    if args.decisions < 1 or args.repeats < 1:
        parser.error("--decisions and --repeats must be at least 1")
    ids = args.envs or moon_envs.list_envs()
    unknown = sorted(set(ids) - set(moon_envs.list_envs()))
    if unknown:
        parser.error(f"unknown env id(s) {unknown}; allowed: {moon_envs.list_envs()}")
    rows = {}
    for env_id in ids:
        game = moon_envs.make(env_id).game
        rows[env_id] = breakdown(game, args.decisions, args.repeats, args.seed)
    print(table(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
