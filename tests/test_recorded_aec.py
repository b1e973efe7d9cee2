"""Every env's behaviour through the PettingZoo AEC API is unchanged under every recorded
parameter set (see :mod:`tests.recorded_aec`; regenerate only for an intended change of
behaviour: ``PYTHONPATH=. python -m tests.recorded_aec [game ...]``)."""

from __future__ import annotations

import pytest

import moon_envs
from tests.recorded_aec import RECORDINGS, check_coverage, check_replays

CASES = [(game, i) for game, rec in RECORDINGS.items() for i in range(len(rec.configs))]


def test_every_registered_env_is_recorded():
    assert sorted(r.env_id for r in RECORDINGS.values()) == moon_envs.list_envs()


@pytest.mark.parametrize("game", sorted(RECORDINGS))
def test_the_fixture_covers_every_configuration(game):
    check_coverage(RECORDINGS[game])


@pytest.mark.parametrize(("game", "index"), CASES, ids=[f"{g}-{i}" for g, i in CASES])
def test_recorded_aec_games_replay_identically(game, index):
    check_replays(RECORDINGS[game], index)
