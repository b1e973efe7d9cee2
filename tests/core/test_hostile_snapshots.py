"""A 2 MB string planted in any field of any game's snapshot is refused, in bounded memory.

For every env, a mid-game snapshot is taken; then, one field at a time, every value in it
(every scalar, and the first element of every encoded array) is replaced by a string of
two million characters, and ``set_state`` must refuse it with a :class:`ConfigError`
naming the field, leaving the env as it was. Python memory is traced: building any large
array from such a value would show. Time targets live in
``moon_agents.benchmarks.hostile_snapshots``.
"""

from __future__ import annotations

import tracemalloc

import pytest

import moon_envs
from moon_agents.benchmarks.hostile_snapshots import mid_game, plant_sites, planted
from moon_envs import ConfigError

HOSTILE = "a" * 2_000_000
MiB = 1 << 20


@pytest.mark.parametrize("env_id", moon_envs.list_envs())
def test_a_huge_string_in_any_field_is_refused_in_bounded_memory(env_id: str) -> None:
    env = mid_game(env_id)
    snapshot = env.get_state()
    before = env.get_state()
    sites = list(plant_sites(snapshot))
    assert len(sites) > 20
    accepted, peaks = [], []
    for path in sites:
        bad = planted(snapshot, path, HOSTILE)
        tracemalloc.start()
        try:
            env.set_state(bad)
            accepted.append(path)
        except ConfigError as err:
            assert len(str(err)) < 400, str(err)[:400]
        finally:
            peaks.append(tracemalloc.get_traced_memory()[1])
            tracemalloc.stop()
    assert not accepted, f"accepted with a 2 MB string at {accepted[:5]}"
    assert max(peaks) < 24 * MiB, f"peak {max(peaks) / MiB:.0f} MiB"
    assert env.get_state() == before  # every refusal left the env untouched
