"""Moon Harvesters' phase names and the board's column letters, shared by the engine's modules."""

AUCTION, CRATERS, DEPOSITS, PLACE, OVER = "auction", "craters", "deposits", "place", "over"
PHASES = (AUCTION, CRATERS, PLACE, DEPOSITS)
"""Phases a player acts in, in the order of the observation's phase one-hot."""
ALL_PHASES = (*PHASES, OVER)
"""Every value of ``HarvestersState.phase``."""

COLUMN_LETTERS = "ABCDEFGHIJKLMNOP"
