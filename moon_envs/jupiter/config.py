"""Jupiter's board constants, the stages of a turn, and the validated :class:`JupiterConfig`.

Every bad value raises :class:`~moon_envs.core.game.ConfigError` naming the field and the
allowed values. The rules engine that reads the config is :mod:`moon_envs.jupiter.rules`.
"""

from __future__ import annotations

from dataclasses import dataclass

from moon_envs.core.game import check_bool, check_choice, check_int

ROWS = 4
COLS_BY_PLAYERS = {2: 4, 3: 5, 4: 6}
FULL_COLS = 6
NUM_FACES = 6
EMPTY = 0
PROBE = 7  # cell code of seat s's probe is PROBE + s
LINE_FEATURES = 3  # per cell, with line_features: probe gain, my probes, others' probes

# stages
_START, _MOVE, _ROLLING, _ROLLED, _OVER = "start", "move", "rolling", "rolled", "over"
STAGES = (_START, _MOVE, _ROLLING, _ROLLED, _OVER)
"""Every value of ``JupiterState.stage``."""

STUCK_PLAYER_RULES = ("skip", "end")
"""Values of ``stuck_player``: what happens when the player due to move has neither a
probe nor a die to take."""
TIE_RULES = ("shared", "none")
"""Values of ``ties``: who wins when several players share the best score."""


@dataclass(frozen=True)
class JupiterConfig:
    """Parameters of Jupiter.

    Attributes:
        num_players: 2, 3 or 4.
        black_moons: variant 1, dice showing 3 or 4 count negative; a score never goes
            below 0 (clamped after each placement).
        expanding_universe: variant 2, the full 6×4 board with 2 or 3 players; play until
            every probe and die is used.
        num_probes: probes per player (6 in the published game).
        num_dice: shared dice (6 in the published game).
        random_first_player: the first player is drawn at random (a chance node) as the
            rules say; ``False`` makes seat 0 start.
        stuck_player: [HOUSE] the rules say nothing of a player who has no probe left when
            no die is left either. ``"skip"`` (default): that player is passed over and
            the others play on until the end condition; ``"end"``: the game ends as soon
            as the player due to move is in that case.
        ties: [HOUSE] the rules name the player furthest along the track as the winner and
            say nothing of ties. ``"shared"`` (default): every player with the best score
            wins; ``"none"``: a tie for the best score leaves no winner (every return 0).
        line_features: append three features per cell to the observation, computed from
            the board (nothing new is revealed): the pips a probe placed there would score
            now (/ 36), and how many of my probes and of the others' probes share its row
            or column (/ probes per player, / probes of all others), so that a small
            network need not learn row and column sums. The shipped trained agent uses
            them, though docs/ladder.md measured no gain from them. Default False: the
            observation is the board alone.
    """

    num_players: int = 2
    black_moons: bool = False
    expanding_universe: bool = False
    num_probes: int = 6
    num_dice: int = 6
    random_first_player: bool = True
    stuck_player: str = "skip"
    ties: str = "shared"
    line_features: bool = False

    def __post_init__(self) -> None:
        check_int("num_players", self.num_players, 2, 4)
        check_bool("black_moons", self.black_moons)
        check_bool("expanding_universe", self.expanding_universe)
        check_int("num_probes", self.num_probes, 1, 12)
        check_int("num_dice", self.num_dice, 1, 12)
        check_bool("random_first_player", self.random_first_player)
        check_choice("stuck_player", self.stuck_player, STUCK_PLAYER_RULES)
        check_choice("ties", self.ties, TIE_RULES)
        check_bool("line_features", self.line_features)
