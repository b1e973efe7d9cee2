"""Recorded random Moonstar games: the fixture that pins the rules' behaviour (see
:mod:`tests.recorded`). Regenerate (only when a change of behaviour is intended, saying
why in the commit): ``PYTHONPATH=. python -m tests.moonstar.recorded_games``.
"""

from __future__ import annotations

from pathlib import Path

from moon_envs.moonstar.rules import MoonstarGame
from tests.recorded import Recording

CONFIGS = [
    *({"game": g, "num_players": 3, "max_rounds": 6} for g in range(1, 13)),
    {"game": 1, "num_players": 2, "max_rounds": 8},
    {"game": 10, "num_players": 5, "max_rounds": 6},
    {"game": 11, "num_players": 4, "max_rounds": 6, "setup": "random"},
    {"game": 6, "num_players": 3, "max_rounds": 6, "move_budget": 4},
    {"game": 3, "num_players": 3, "max_rounds": 6, "round_optimum": True},  # observation
    {"game": 7, "num_players": 4, "max_rounds": 6, "solver_info": False},  # info
]

RECORDING = Recording(
    MoonstarGame,
    CONFIGS,
    games_per_config=5,
    data=Path(__file__).parent / "data" / "recorded_games.json",
    info_every_step=True,
)

if __name__ == "__main__":
    RECORDING.write()
