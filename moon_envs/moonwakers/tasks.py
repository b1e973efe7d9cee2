"""The task queue behind a Moonwakers round.

A position holds a queue of pending *tasks* (small JSON-friendly dicts, ``task["t"]``
names the kind). The front task decides who acts:

* an **auto** task is a rules step with no choice; it runs at once and may push more
  tasks to the front of the queue;
* a **chance** task is a chance node (a die roll or a card drawn from a pile);
* a **decision** task belongs to ``task["seat"]``; it is skipped when it does not apply
  any more (e.g. a response window for a card the seat no longer holds).

Each phase module registers its handlers here with the decorators below, so that the
state class only runs the queue.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Task = dict[str, Any]

AUTO: dict[str, Callable] = {}
"""kind -> ``fn(state, task)``: run a rules step."""
CHANCE_OUTCOMES: dict[str, Callable] = {}
"""kind -> ``fn(state, task) -> list[(outcome, probability)]`` ([] means skip)."""
CHANCE_APPLY: dict[str, Callable] = {}
"""kind -> ``fn(state, task, outcome)``."""
LEGAL: dict[str, Callable] = {}
"""kind -> ``fn(state, task) -> list[int]`` of legal actions ([] means skip the task)."""
APPLY: dict[str, Callable] = {}
"""kind -> ``fn(state, task, action)``."""
DECISION_KINDS: list[str] = []
"""Decision kinds in registration order (the observation's phase one-hot)."""
STEP: dict[str, tuple[int, Callable]] = {}
"""kind -> (AUTO_STEP, fn) | (CHANCE_STEP, outcomes) | (DECISION_STEP, legal): one lookup
for the queue runner."""
AUTO_STEP, CHANCE_STEP, DECISION_STEP = 0, 1, 2


def auto(kind: str) -> Callable:
    def deco(fn: Callable) -> Callable:
        AUTO[kind] = fn
        STEP[kind] = (AUTO_STEP, fn)
        return fn

    return deco


def chance(kind: str, outcomes: Callable) -> Callable:
    def deco(fn: Callable) -> Callable:
        CHANCE_OUTCOMES[kind] = outcomes
        CHANCE_APPLY[kind] = fn
        STEP[kind] = (CHANCE_STEP, outcomes)
        return fn

    return deco


def decision(kind: str, legal: Callable) -> Callable:
    def deco(fn: Callable) -> Callable:
        LEGAL[kind] = legal
        APPLY[kind] = fn
        DECISION_KINDS.append(kind)
        STEP[kind] = (DECISION_STEP, legal)
        return fn

    return deco


def task(kind: str, **fields: Any) -> Task:
    """A new task of ``kind`` with ``fields``."""
    fields["t"] = kind
    return fields
