"""Moonstar's fixed numbers and names, shared by the rules' phase modules."""

from __future__ import annotations

import numpy as np

from moon_envs.moonstar.variants import MAX_BID, MIN_BID

NUM_BIDS = MAX_BID - MIN_BID + 1
NO_BID_BONUS = 20
FAIL_BONUS = 10
CHALLENGE_STAKE = 25
PENDING_BEST = -2  # best_total while the round's optimum waits to be solved (auction.py)
PHASES = ("first", "menu", "planet", "moon", "roll", "auction", "favourite", "bets", "play", "over")
DIRECTION_NAMES = ("cw", "ccw", "cw x2", "ccw half")
PHASE_INDEX = {p: i for i, p in enumerate(PHASES)}
MOON_SHARE = float(np.float32(1.0 / 15.0))
"""One moon's step in the board's per-star moon counts (1/15). The board is float32 and
the state keeps it as a Python array: a step rounded to float32 first gives the sum
numpy's float32 arithmetic gives (the exact sum of two float32 numbers rounded once)."""
OPTIMUM_FEATURES = 2
"""Observation entries added by ``round_optimum``: the round's best total / 70, a flag."""
OPTIMUM_PHASES = ("auction", "favourite", "bets")
"""Phases in which ``round_optimum`` shows the round's best total (dice rolled, no move)."""


def direction_name(direction: int, movement: str) -> str:
    """The name of move direction ``direction`` under the round's ``movement``."""
    if direction == 3 and movement == "double_double":
        return "ccw x2"
    return DIRECTION_NAMES[direction]
