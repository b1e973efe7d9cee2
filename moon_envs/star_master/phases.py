"""Star Master's phases (the values of ``StarMasterState.phase``) and race choice markers."""

SETUP, SEED, ROLL, NAME, FLIP, SWAP, RACE, DRAW, END = range(9)
PHASE_NAMES = ("setup", "seed", "roll", "name", "flip", "swap", "race", "draw", "end")
NOT_CHOSEN, ABSTAIN = -2, -1
"""A seat's race choice: not made yet, or abstained (else the slot it grabs)."""
