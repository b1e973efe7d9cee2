"""Star Master's behaviour under every recorded configuration is unchanged (see
:mod:`tests.star_master.recorded_games`)."""

from __future__ import annotations

import pytest

from tests.recorded import check_coverage, check_replays
from tests.star_master.recorded_games import RECORDING


def test_the_fixture_covers_every_configuration():
    check_coverage(RECORDING)


@pytest.mark.parametrize("index", range(len(RECORDING.configs)))
def test_recorded_games_replay_identically(index):
    check_replays(RECORDING, index)
