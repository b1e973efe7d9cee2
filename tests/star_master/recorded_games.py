"""Recorded random Star Master games: the fixture that pins the rules' behaviour (see
:mod:`tests.recorded`). Regenerate (only when a change of behaviour is intended, saying
why in the commit): ``PYTHONPATH=. python -m tests.star_master.recorded_games``.
"""

from __future__ import annotations

from pathlib import Path

from moon_envs.star_master.rules import StarMasterGame
from tests.recorded import Recording

CONFIGS = [
    {"num_players": 2, "max_turns": 60},
    {"num_players": 3, "memory": "perfect", "max_turns": 60},
    {"num_players": 4, "memory": "decay", "forget_prob": 0.3, "max_turns": 60},
    {"num_players": 2, "competition": True, "max_turns": 60},
    {"num_players": 3, "children": True, "max_turns": 60},
    {"num_players": 1, "solitaire": True},
    {"num_players": 6, "race_winner": "seat_order", "max_turns": 60},
    {"num_players": 2, "turn_limit": "nobody", "black_faces": [1, 0, 0], "max_turns": 60},
    {"num_players": 2, "white_faces": [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9], "max_turns": 60},
]

RECORDING = Recording(
    StarMasterGame,
    CONFIGS,
    games_per_config=5,
    data=Path(__file__).parent / "data" / "recorded_games.json",
    info_every_step=True,
)

if __name__ == "__main__":
    RECORDING.write()
