"""Star Master's rules engine: :class:`StarMasterGame` and :class:`StarMasterState`.

A turn, as ``docs/rules.md`` (section "Star Master") reads the published rules: the dice
are rolled (one chance node over white face x black face). White colour ``c`` with a blank
black die: the roller flips one slot (or passes if they own ``c``, unless the competition
rule applies); found: they gain ``c`` and swap that cube with another slot; missed: the cube
goes back (and, under the competition rule, an owned ``c`` is lost). White star: the roller
names a colour they lack, then flips. White colour with a black star: a race; every seat
from the roller on chooses, sealed, to grab a slot or abstain; a chance node draws the
winner among the grabbers, who flips the grabbed slot: ``c`` gains ``c`` (unless owned)
and swaps; a miss loses the pawn of the flipped colour, if owned. The first player holding
6 colours wins at once.

The game (:class:`StarMasterGame`, its chance tables and masks) is here; the parameters
and action layout are in ``config``, the phases in ``phases``, the position in ``state``,
built from ``turns`` (the course of a turn) and ``views`` (observations, infos, text).
"""

from __future__ import annotations

import numpy as np

from moon_envs.core.game import Game, GameSpec
from moon_envs.star_master import observation as obs
from moon_envs.star_master.config import (
    DECAY_SEEDS,
    FLIP0,
    NUM_ACTIONS,
    NUM_COLOURS,
    NUM_SLOTS,
    PASS,
    SWAP0,
    StarMasterConfig,
)
from moon_envs.star_master.phases import (
    ABSTAIN,
    DRAW,
    END,
    FLIP,
    NAME,
    NOT_CHOSEN,
    PHASE_NAMES,
    RACE,
    ROLL,
    SEED,
    SETUP,
    SWAP,
)


class StarMasterGame(Game):
    """Star Master with the parameters of :class:`StarMasterConfig`."""

    config_class = StarMasterConfig

    def _make_spec(self) -> GameSpec:
        c = self.config
        n = c.num_players
        # chance tables, built once
        probs = np.zeros(2 * (NUM_COLOURS + 1))
        for w in c.white_faces:
            for b in c.black_faces:
                probs[2 * w + (0 if c.children else b)] += 1.0
        probs /= probs.sum()
        self.dice_outcomes = [(o, float(p)) for o, p in enumerate(probs) if p > 0]
        self.seed_outcomes = [(o, 1.0 / DECAY_SEEDS) for o in range(DECAY_SEEDS)]
        self.layout = obs.ObservationLayout(n)
        self.masks = _Masks()
        self.turn_cap = c.turn_cap
        # read on the hot path of every step
        self.seats = n
        self.must_search = c.must_search
        self.remembers = c.memory != "none"
        self.decays = c.memory == "decay"
        per_turn = max(n + 1, 3)
        return GameSpec(
            name="star_master",
            num_players=n,
            num_actions=NUM_ACTIONS,
            observation_shape=(self.layout.size,),
            max_game_length=c.turn_cap * per_turn,
            has_chance=True,
            hidden_information=True,
            max_chance_outcomes=DECAY_SEEDS if c.memory == "decay" else 2 * (NUM_COLOURS + 1),
            state_shape=(self.layout.global_size,),
        )


class _Masks:
    """Precomputed legal-action masks."""

    def __init__(self) -> None:
        self.flip = _mask(range(FLIP0, FLIP0 + NUM_SLOTS))
        self.flip_or_pass = _mask([*range(FLIP0, FLIP0 + NUM_SLOTS), PASS])
        self.swap = [
            _mask([SWAP0 + t for t in range(NUM_SLOTS) if t != s]) for s in range(NUM_SLOTS)
        ]


def _mask(actions) -> np.ndarray:
    m = np.zeros(NUM_ACTIONS, dtype=np.int8)
    m[list(actions)] = 1
    return m


from moon_envs.star_master.state import StarMasterState  # noqa: E402  (the state needs the game's module)

StarMasterGame.state_class = StarMasterState

__all__ = [
    "ABSTAIN",
    "DRAW",
    "END",
    "FLIP",
    "NAME",
    "NOT_CHOSEN",
    "PHASE_NAMES",
    "RACE",
    "ROLL",
    "SEED",
    "SETUP",
    "SWAP",
    "StarMasterGame",
    "StarMasterState",
]
