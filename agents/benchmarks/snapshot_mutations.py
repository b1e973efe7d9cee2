"""Mutation test of every field of every game's snapshot, with counts per game.

For each case (an env id and its parameters) seeded random games are played and
snapshots (``env.get_state()``) taken at given fractions of each game. Every leaf of a
snapshot (every int, float, bool, string and null, every mapping, list and tagged tuple,
every encoded array) receives the fixed mutations of
:func:`~moon_agents.benchmarks.snapshot_leaves.mutations` (numbers moved by one, made
huge, negative, non-finite or of another type; bools flipped; strings changed; fields
added or dropped; lists shortened, lengthened, reversed or emptied; the first, middle
and last elements of arrays changed, arrays retyped or reshaped; a set whose members do
not sort) and up to two transplants (the value the field holds in another snapshot of
the case). Each mutated snapshot goes to
``env.set_state``, with one of three outcomes:

* ``refused``: a :class:`~moon_envs.ConfigError` from a named check, the env untouched;
* ``consistent``: accepted, and the position plays on like one reached by legal play
  (:func:`check_consistent`): a re-snapshot restores into a second env to the identical
  snapshot, and both then play the same seeded random playout to the end, identically,
  never an empty mask for the agent to move, rewards finite, observations in their
  spaces, the game's own ``validate()`` passing every 64 steps;
* ``bad``, a bug: any other exception, a refusal that changed the env or that only an
  engine error raised (``validate()``'s "cannot be played"), or an accepted snapshot
  failing a check above.

``slowest s`` is the longest ``set_state`` call. The larger run walks every element of
every list (``--max-items`` limits it)::

    python -m moon_agents.benchmarks.snapshot_mutations --games 2 --positions 3
"""

from __future__ import annotations

import argparse
import copy
import json
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from moon_agents.benchmarks.snapshot_leaves import get, leaves, mutations, put, transplants

CASES: dict[str, tuple[str, dict[str, Any]]] = {
    "jupiter_v0": ("jupiter_v0", {}),
    "moonstar_v1 game=1": ("moonstar_v1", {"game": 1}),
    "moonstar_v1 game=6": ("moonstar_v1", {"game": 6}),
    "moonstar_v1 game=11": ("moonstar_v1", {"game": 11}),
    "moonstar_v1 game=12": ("moonstar_v1", {"game": 12}),
    "moon_harvesters_v0": ("moon_harvesters_v0", {}),
    "star_master_v0": ("star_master_v0", {}),
    "moonwakers_v1": ("moonwakers_v1", {}),
}
"""Cases of the benchmark: label -> (env id, ``make`` parameters)."""


@dataclass
class Counts:
    """Outcomes of one case (``slowest``: the longest ``set_state`` call, in seconds)."""

    positions: int = 0
    leaves: int = 0
    tried: int = 0
    refused: int = 0
    consistent: int = 0
    bad: list[str] = field(default_factory=list)
    slowest: float = 0.0
    seconds: float = 0.0


# ---- positions ---------------------------------------------------------------------------------


def positions(
    env_id: str, params: dict[str, Any], games: int, fractions: Sequence[float]
) -> list[dict[str, Any]]:
    """Snapshots of each of ``games`` seeded random games (seeds 0, 1, ...), taken at each
    of ``fractions`` (between 0 and 1) of the game's length, never at its first or final
    position."""
    import moon_envs

    env = moon_envs.make(env_id, **params)
    out = []
    for seed in range(games):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        trail = [env.get_state()]
        while env.agents:
            obs, _, term, trunc, _ = env.last()
            done = term or trunc
            env.step(None if done else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            trail.append(env.get_state())
        last = len(trail) - 2
        out += [trail[min(max(1, round(f * len(trail))), last)] for f in fractions]
    return out


# ---- consistency -------------------------------------------------------------------------------


def playout(env: Any, seed: int, validate_every: int = 64) -> list[int]:
    """A seeded random playout to the end; returns the actions taken. Raises
    ``AssertionError`` when the agent to move has an empty mask, a reward or observation
    is out of place, or the game does not end within its ``max_game_length`` steps (all
    agents counted); ``validate()`` runs every ``validate_every`` steps."""
    rng = np.random.default_rng(seed)
    spec = env.game.spec
    taken: list[int] = []
    limit = (spec.max_game_length + 2) * (spec.num_players + 1)
    while env.agents:
        assert len(taken) < limit, f"no end after {limit} steps"
        agent = env.agent_selection
        obs, reward, term, trunc, _ = env.last()
        assert math.isfinite(reward), f"reward {reward!r}"
        assert env.observation_space(agent).contains(obs), f"{agent}'s observation out of space"
        if term or trunc:
            env.step(None)
            taken.append(-1)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        assert legal.size, f"{agent} is to move with an empty mask"
        taken.append(int(rng.choice(legal)))
        env.step(taken[-1])
        if len(taken) % validate_every == 0 and env.agents:
            env.game_state.validate()
    assert all(math.isfinite(r) for r in env._cumulative_rewards.values())
    return taken


def check_consistent(env: Any, twin: Any, seed: int, played: set[str] | None = None) -> None:
    """Raise unless the position ``env`` holds plays on like a legal one (module doc);
    ``twin`` is a second env of the same parameters, overwritten. ``played`` holds the
    snapshots (without ``infos``, which do not change play) already played out with this
    ``seed``: a snapshot among them is only checked to restore identically."""
    first = env.get_state()
    twin.set_state(copy.deepcopy(first))
    assert twin.get_state() == first, "a re-snapshot does not restore to the same snapshot"
    if played is not None:
        key = json.dumps({k: v for k, v in first.items() if k != "infos"}, sort_keys=True)
        if key in played:
            return
        played.add(key)
    for action in playout(env, seed):  # the copy takes the same actions to the same end
        assert twin.agents, "the restored copies play differently"
        twin.step(None if action < 0 else action)
    assert not twin.agents, "the restored copies play differently"
    assert env.get_state() == twin.get_state(), "the restored copies end differently"


# ---- running -----------------------------------------------------------------------------------


HELD = ("game_state", "_np_random", "agents", "agent_selection", "_skip_agent_selection")
HELD += ("rewards", "_cumulative_rewards", "terminations", "truncations", "infos")
"""What ``set_state`` replaces: a refusal must leave every one of them in place."""
UNNAMED = "the snapshot's position cannot be played"
"""How ``validate()`` words a refusal by an engine error rather than by a named check."""


def _try(env: Any, twin: Any, bad: dict, seed: int, played: set[str], counts: Counts) -> None:
    """Hand one mutated snapshot ``bad`` to ``env.set_state`` and record the outcome."""
    from moon_envs import ConfigError

    held = [getattr(env, name) for name in HELD]
    began = time.perf_counter()
    try:
        env.set_state(bad)
    except ConfigError as err:
        counts.slowest = max(counts.slowest, time.perf_counter() - began)
        if any(a is not getattr(env, name) for a, name in zip(held, HELD)):
            raise AssertionError("refused, but the env changed") from None
        if str(err).startswith(UNNAMED):
            raise AssertionError(f"refused by an engine error: {str(err)[:160]}") from None
        counts.refused += 1
        return
    counts.slowest = max(counts.slowest, time.perf_counter() - began)
    try:
        check_consistent(env, twin, seed, played)
    except Exception as exc:
        raise AssertionError(f"accepted, then {type(exc).__name__}: {str(exc)[:160]}") from None
    counts.consistent += 1


def run_case(
    env_id: str,
    params: dict[str, Any],
    games: int = 1,
    fractions: Sequence[float] = (0.5,),
    max_items: int | None = None,
) -> Counts:
    """Mutate every leaf of every snapshot of one case (taken at ``fractions`` of each of
    ``games`` seeded random games); the counts and the bugs found."""
    import moon_envs

    start = time.perf_counter()
    env, twin = moon_envs.make(env_id, **params), moon_envs.make(env_id, **params)
    env.reset(seed=0)
    twin.reset(seed=0)
    snaps = positions(env_id, params, games, fractions)
    pristine = json.dumps(snaps)
    counts = Counts(positions=len(snaps))
    for k, snap in enumerate(snaps):
        others = snaps[k + 1 :] + snaps[:k]
        played: set[str] = set()
        for path in leaves(snap, max_items):
            value = get(snap, path)
            counts.leaves += 1
            for name, new in mutations(value) + transplants(path, value, others):
                counts.tried += 1
                try:
                    _try(env, twin, put(snap, path, new), k, played, counts)
                except Exception as exc:
                    what = str(exc) if isinstance(exc, AssertionError) else repr(exc)[:160]
                    counts.bad.append(f"{'.'.join(map(str, path))} {name}: {what}")
    if json.dumps(snaps) != pristine:
        counts.bad.append("set_state changed a snapshot it was given")
    counts.seconds = time.perf_counter() - start
    return counts


HEADER = (
    f"{'case':<22}{'positions':>10}{'leaves':>8}{'tried':>8}{'refused':>9}"
    f"{'consistent':>11}{'bad':>5}{'slowest s':>10}{'seconds':>9}"
)


def row(label: str, c: Counts) -> str:
    """One line of the table."""
    return (
        f"{label:<22}{c.positions:>10}{c.leaves:>8}{c.tried:>8}{c.refused:>9}"
        f"{c.consistent:>11}{len(c.bad):>5}{c.slowest:>10.3f}{c.seconds:>9.1f}"
    )


def main(argv: Sequence[str] | None = None, out: Callable[[str], None] = print) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m moon_agents.benchmarks.snapshot_mutations",
        description=__doc__.split("\n")[0],
    )
    parser.add_argument("cases", nargs="*", metavar="CASE", help=f"labels of {list(CASES)}")
    parser.add_argument("--games", type=int, default=2, help="seeded random games per case")
    parser.add_argument("--positions", type=int, default=3, help="snapshots per game")
    parser.add_argument(
        "--max-items", type=int, default=None, help="list entries walked into (default: all)"
    )
    args = parser.parse_args(argv)
    unknown = [c for c in args.cases if c not in CASES]
    if unknown:
        parser.error(f"unknown case {unknown[0]!r}; cases: {list(CASES)}")
    out(HEADER)
    bad = 0
    for label in args.cases or CASES:
        env_id, params = CASES[label]
        fractions = [(i + 1) / (args.positions + 1) for i in range(args.positions)]
        counts = run_case(env_id, params, args.games, fractions, args.max_items)
        out(row(label, counts))
        for line in counts.bad[:10]:
            out(f"    {line}")
        bad += len(counts.bad)
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
