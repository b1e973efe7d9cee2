"""Time and peak memory to refuse a snapshot with a hostile value planted in one field.

For every env a mid-game snapshot is taken; then, one field at a time, every value in it
(every scalar, and the first element of every encoded array) is replaced by a hostile
value and handed to ``env.set_state``: a string of ``--mb`` million characters, a numpy
array of two strings (where a name was, numpy once answered "truth value ... is
ambiguous"), the int ``2**100000`` (once an ``OverflowError`` or Python's digit limit)
and a mapping of ``--keys`` keys. The table gives, per env and value, the fields tried,
how many were refused with a ``ConfigError``, how many escaped as another exception
(should be 0), and the slowest refusal and largest peak of Python memory
(``tracemalloc``) over all of them. Target: under 1 s and 100 MB each::

    python -m moon_agents.benchmarks.hostile_snapshots --mb 2 --keys 200000
"""

from __future__ import annotations

import argparse
import copy
import time
import tracemalloc
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np


def mid_game(env_id: str, moves: int = 12) -> Any:
    """``env_id`` after ``moves`` random actions from seed 3."""
    import moon_envs

    env = moon_envs.make(env_id)
    env.reset(seed=3)
    rng = np.random.default_rng(0)
    for _ in range(moves):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            break
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return env


def plant_sites(tree: Any, path: tuple = ()) -> Iterator[tuple]:
    """Paths to every scalar of a snapshot and to the first element of every encoded
    array (a list's first three entries stand for the rest)."""
    if isinstance(tree, dict):
        if "__ndarray__" in tree:
            data, inner = tree["__ndarray__"], (*path, "__ndarray__")
            while isinstance(data, list) and data:
                data, inner = data[0], (*inner, 0)
            yield inner
            return
        for key, value in tree.items():
            yield from plant_sites(value, (*path, key))
    elif isinstance(tree, list):
        for i, value in enumerate(tree[:3]):
            yield from plant_sites(value, (*path, i))
    else:
        yield path


def planted(snapshot: dict, path: tuple, value: Any) -> dict:
    """A copy of ``snapshot`` with ``value`` at ``path``."""
    out = copy.deepcopy(snapshot)
    node = out
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return out


def attack(env: Any, value: Any) -> list[dict[str, Any]]:
    """Plant ``value`` at every site of ``env``'s snapshot in turn; one row per site."""
    from moon_envs import ConfigError

    snapshot = env.get_state()
    rows = []
    for path in plant_sites(snapshot):
        bad = planted(snapshot, path, value)
        tracemalloc.start()
        start = time.perf_counter()
        try:
            env.set_state(bad)
            outcome = "accepted"
        except ConfigError as err:
            outcome = str(err)
        except Exception as err:  # a bug: counted in the "escaped" column
            outcome = f"escaped: {type(err).__name__}"
        seconds = time.perf_counter() - start
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        rows.append({"path": path, "seconds": seconds, "peak": peak, "outcome": outcome})
    return rows


def main(argv: Sequence[str] | None = None, out: Callable[[str], None] = print) -> int:
    import moon_envs

    parser = argparse.ArgumentParser(
        prog="python -m moon_agents.benchmarks.hostile_snapshots",
        description=__doc__.split("\n")[0],
    )
    parser.add_argument("envs", nargs="*", metavar="ENV", help="env ids (default: all)")
    parser.add_argument("--mb", type=float, default=2.0, help="million characters planted")
    parser.add_argument("--keys", type=int, default=200_000, help="keys of the planted mapping")
    args = parser.parse_args(argv)
    values = {
        f"str of {args.mb:g}M chars": "a" * int(args.mb * 1_000_000),
        "ndarray of 2 str": np.array(["player_0", "player_1"]),
        "int 2**100000": 2**100_000,
        f"dict of {args.keys:,} keys": {f"k{i}": i for i in range(args.keys)},
    }
    out(
        f"{'env':<20}{'value':<22}{'fields':>7}{'refused':>9}{'escaped':>9}"
        f"{'slowest s':>11}{'peak MB':>9}"
    )
    for env_id in args.envs or moon_envs.list_envs():
        env = mid_game(env_id)
        for label, value in values.items():
            rows = attack(env, value)
            escaped = [r for r in rows if r["outcome"].startswith("escaped: ")]
            refused = sum(r["outcome"] != "accepted" for r in rows) - len(escaped)
            slowest = max(r["seconds"] for r in rows)
            peak = max(r["peak"] for r in rows) / 1e6
            out(
                f"{env_id:<20}{label:<22}{len(rows):>7}{refused:>9}{len(escaped):>9}"
                f"{slowest:>11.3f}{peak:>9.1f}"
            )
            for r in escaped[:3]:
                out(f"    escaped at {'/'.join(map(str, r['path']))}: {r['outcome'][9:]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
