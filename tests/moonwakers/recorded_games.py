"""Recorded random Moonwakers SEED games: the fixture that pins the rules' behaviour (see
:mod:`tests.recorded`). Regenerate (only when a change of behaviour is intended, saying
why in the commit): ``PYTHONPATH=. python -m tests.moonwakers.recorded_games``.
"""

from __future__ import annotations

from pathlib import Path

from moon_envs.moonwakers.game import MoonwakersGame
from tests.recorded import Recording

CONFIGS = [
    {"num_players": 2, "max_rounds": 12},
    {"num_players": 3, "max_rounds": 10},
    {"num_players": 6, "max_rounds": 6},
    {"num_players": 2, "max_rounds": 10, "pile": "ordered", "free_card": "discard"},
    {"num_players": 3, "max_rounds": 8, "claims": "open", "purchases_per_round": 2},
    {"num_players": 2, "max_rounds": 10, "setup_hand": "keep", "ionic_storm_draws": "act"},
    {
        "num_players": 4,
        "max_rounds": 8,
        "shortcut_when": "every",
        "permutation_when": "own",
        "ability_duel": False,
        "shield_abilities": False,
        "cancelled_shelter": "loss",
        "game_end": "choice",
        "response_windows": "holders",
        "scan_targets": "table",
    },
]

RECORDING = Recording(
    MoonwakersGame,
    CONFIGS,
    games_per_config=4,
    data=Path(__file__).parent / "data" / "recorded_games.json",
    info_every_step=True,
)

if __name__ == "__main__":
    RECORDING.write()
