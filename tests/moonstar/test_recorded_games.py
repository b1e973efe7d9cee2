"""Moonstar's behaviour under every recorded configuration is unchanged (see
:mod:`tests.moonstar.recorded_games`)."""

from __future__ import annotations

import json

import pytest

from moon_envs.moonstar.rules import MoonstarGame
from tests.moonstar.recorded_games import CONFIGS, DATA, GAMES_PER_CONFIG, digest

RECORDS = json.loads(DATA.read_text())


def test_the_fixture_covers_every_configuration():
    assert len(RECORDS) == len(CONFIGS) * GAMES_PER_CONFIG
    assert {json.dumps(r["params"], sort_keys=True) for r in RECORDS} == {
        json.dumps(c, sort_keys=True) for c in CONFIGS
    }


@pytest.mark.parametrize("index", range(len(CONFIGS)))
def test_recorded_games_replay_identically(index):
    records = [r for r in RECORDS if r["params"] == CONFIGS[index]]
    game = MoonstarGame(**CONFIGS[index])
    for record in records:
        assert digest(game, record["actions"]) == record["digest"], record["seed"]
        assert digest(game, record["actions"], copies=True) == record["digest"], record["seed"]
