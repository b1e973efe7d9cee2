"""Recorded random Jupiter games: the fixture that pins the rules' behaviour (see
:mod:`tests.recorded`). Regenerate (only when a change of behaviour is intended, saying
why in the commit): ``PYTHONPATH=. python -m tests.jupiter.recorded_games``.
"""

from __future__ import annotations

from pathlib import Path

from moon_envs.jupiter.rules import JupiterGame
from tests.recorded import Recording

CONFIGS = [
    {"num_players": 2},
    {"num_players": 3},
    {"num_players": 4},
    {"num_players": 2, "black_moons": True},
    {"num_players": 3, "black_moons": True},
    {"num_players": 4, "black_moons": True},
    {"num_players": 2, "expanding_universe": True},
    {"num_players": 3, "expanding_universe": True, "black_moons": True},
    {"num_players": 2, "random_first_player": False, "num_probes": 3, "num_dice": 2},
    {"num_players": 4, "random_first_player": False, "num_probes": 2, "num_dice": 12},
    {"num_players": 3, "line_features": True},  # the observation variant
    {"num_players": 2, "ties": "none", "stuck_player": "end", "line_features": True},
]

RECORDING = Recording(
    JupiterGame,
    CONFIGS,
    games_per_config=20,
    data=Path(__file__).parent / "data" / "recorded_games.json",
)

if __name__ == "__main__":
    RECORDING.write()
