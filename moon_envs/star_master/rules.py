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

The game (:class:`StarMasterGame`, its chance tables and masks) is here, the top of the
rules engine: the parameters and action layout are in ``config``, the phases in
``phases`` (re-exported here), the state in ``state``: the position's fields, whose move
and legal moves (``position``), the course of a turn (``turns``), the views (``views``,
``text``), the snapshot check (``validate``) and the determinisation (``determinise``).
"""

from __future__ import annotations

from array import array

import numpy as np

from moon_envs.core.game import Game, GameSpec
from moon_envs.core.info_fields import Field
from moon_envs.star_master.config import (
    DECAY_SEEDS,
    NUM_COLOURS,
    STAR,
    ActionIds,
    StarMasterConfig,
)
from moon_envs.star_master.observation import ObservationLayout
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
from moon_envs.star_master.position import ActionMasks
from moon_envs.star_master.state import StarMasterState


class StarMasterGame(Game):
    """Star Master with the parameters of :class:`StarMasterConfig`."""

    config_class = StarMasterConfig
    state_class = StarMasterState

    def info_fields(self) -> list[Field]:
        """The turn, roller, the white and black stars' places, the last flip (-1 before
        one) and the last race's revealed choices (``NOT_CHOSEN`` before one)."""
        scalars = [Field((k,)) for k in ("turn", "roller", "white", "black_star")]
        flip = [Field(("last_flip", k)) for k in ("seat", "slot", "colour", "found")]
        return [*scalars, *flip, Field(("last_race",), self.spec.num_players, NOT_CHOSEN)]

    def _make_spec(self) -> GameSpec:
        c = self.config
        n = c.num_players
        # k colours, k cubes, k slots; the action ids follow k
        self.k = k = c.num_colours
        self.actions = ids = ActionIds(k)
        # chance tables, built once; a roll's outcome is 2 * white face + black star, the
        # white face a colour 0..k-1 or STAR (9, whatever k)
        probs = np.zeros(2 * (STAR + 1))
        for w in c.white_faces:
            for b in c.black_faces:
                probs[2 * w + (0 if c.children else b)] += 1.0
        probs /= probs.sum()
        self.dice_outcomes = [(o, float(p)) for o, p in enumerate(probs) if p > 0]
        self.seed_outcomes = [(o, 1.0 / DECAY_SEEDS) for o in range(DECAY_SEEDS)]
        self.layout = ObservationLayout(n, k)
        self.masks = ActionMasks(ids)
        self.orders = [[(r + q) % n for q in range(n)] for r in range(n)]  # from roller r on
        # a seat's window map and permutation right after its decision, as its views hold them
        self.fresh_window = array("q", self.layout.fresh_window.ravel().tolist())
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
            num_actions=ids.num,
            observation_shape=(self.layout.size,),
            max_game_length=c.turn_cap * per_turn,
            has_chance=True,
            hidden_information=True,
            max_chance_outcomes=DECAY_SEEDS if c.memory == "decay" else 2 * (STAR + 1),
            state_shape=(self.layout.global_size,),
        )

    def params(self) -> dict:
        """As :meth:`Game.params`, without ``num_colours`` at its default (9): a snapshot of
        a game with the default colours is the same as before the parameter existed, and
        such older snapshots still load."""
        out = super().params()
        if out["num_colours"] == NUM_COLOURS:
            del out["num_colours"]
        return out


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
