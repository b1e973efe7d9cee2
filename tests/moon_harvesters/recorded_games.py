"""Recorded random Moon Harvesters games: the fixture that pins the rules' behaviour (see
:mod:`tests.recorded`). Regenerate (only when a change of behaviour is intended, saying
why in the commit): ``PYTHONPATH=. python -m tests.moon_harvesters.recorded_games``.
"""

from __future__ import annotations

from pathlib import Path

from moon_envs.moon_harvesters.rules import HarvestersGame
from tests.recorded import Recording

CONFIGS = [
    {"num_players": 2},
    {"num_players": 3},
    {"num_players": 4},
    {"num_players": 2, "craters_block": False},
    {"num_players": 2, "rows": 6, "cols": 6, "pieces_per_kind": 4},
    {"num_players": 3, "num_deposits": 12},
    {"num_players": 4, "num_craters": 0},
    {"num_players": 2, "shapes": ["T", "I", "##/##"]},
    {"num_players": 2, "rows": 5, "cols": 5, "deposits_per_turn": 3, "first_deposits": 4},
    {"num_players": 4, "num_deposits": 30, "num_craters": 6, "craters_block": False},
]

RECORDING = Recording(
    HarvestersGame,
    CONFIGS,
    games_per_config=20,
    data=Path(__file__).parent / "data" / "recorded_games.json",
)

if __name__ == "__main__":
    RECORDING.write()
