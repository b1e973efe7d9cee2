"""Star Master's parameters, constants and action encoding.

With ``k = num_colours`` colours (and so ``k`` cubes on ``k`` slots) the actions form one
flat ``Discrete(3k + 1)`` space (see :mod:`moon_envs.star_master.env` and
:class:`ActionIds`): ``0..k-1`` flip (or, in a race, grab) slot ``a``; ``k..2k-1`` swap the
found cube with slot ``a - k``; ``2k..3k-1`` name colour ``a - 2k``; ``3k`` pass (or, in a
race, abstain). With the default 9 colours: ``Discrete(28)``, ``0..8``, ``9..17``,
``18..26`` and ``27`` (the module constants below).
"""

from __future__ import annotations

from dataclasses import dataclass

from moon_envs.core.game import ConfigError, check_bool, check_choice, check_int
from moon_envs.core.snapshot import quote

COLOUR_NAMES = ("red", "orange", "yellow", "green", "cyan", "blue", "purple", "pink", "brown")
GOAL = 6
NUM_COLOURS = 9  # the default colour count (``num_colours``), hence of cubes and slots
NUM_SLOTS = NUM_COLOURS
MIN_COLOURS, MAX_COLOURS = GOAL, len(COLOUR_NAMES)  # the goal needs 6 colours to exist
STAR = 9  # the white die's star face (whatever the colour count)

# the action ids with the default 9 colours (ActionIds gives them for any count)
FLIP0, SWAP0, NAME0, PASS = 0, 9, 18, 27
NUM_ACTIONS = 28

MEMORY_MODES = ("none", "perfect", "decay")
RACE_WINNER_RULES = ("random", "seat_order")
TURN_LIMIT_RULES = ("most_colours", "nobody")
DECAY_SEEDS = 1024  # outcomes of the set-up chance node that seeds forgetting (decay mode)


class ActionIds:
    """The action ids with ``k`` colours: flip / grab ``0..k-1`` (``flip0`` = 0), swap
    ``swap0 = k``.., name ``name0 = 2k``.., ``pass_ = 3k`` (pass / abstain), ``num = 3k + 1``
    actions in all."""

    __slots__ = ("flip0", "k", "name0", "num", "pass_", "swap0")

    def __init__(self, k: int) -> None:
        self.k = k
        self.flip0, self.swap0, self.name0, self.pass_ = 0, k, 2 * k, 3 * k
        self.num = 3 * k + 1


def default_white_faces(num_colours: int) -> tuple[int, ...]:
    """One face per colour and one star: ``(0, 1, ..., num_colours - 1, 9)``."""
    return (*range(num_colours), STAR)


@dataclass(frozen=True)
class StarMasterConfig:
    """Parameters of Star Master.

    Attributes:
        num_players: 1 to 6.
        memory: what a seat's observation remembers for it: ``"none"`` (default; only the
            public events since the seat's last decision, and the layout in its first
            observation), ``"perfect"`` (also the last seen colour of every slot) or
            ``"decay"`` (like perfect, but every remembered slot is forgotten with
            probability ``forget_prob`` at the start of each turn).
        forget_prob: the probability, drawn afresh at the start of every turn for each seat
            and each remembered slot independently, that the seat forgets that slot
            (``memory="decay"`` only), 0..1, default 0.1.
        competition: variant: a player must search even for a colour they own (no pass)
            and loses it on a miss.
        children: variant: no black die (no race) and cubes never move (no swap).
        solitaire: variant: 1 player, ``solitaire_turns`` turns, competition rule; the
            player wins by holding 6 colours within the turns. A 1-player game without it
            plays the chosen rules alone up to ``max_turns``; it too is won only by holding
            6 colours (at the cap a lone player loses, whatever ``turn_limit``).
        solitaire_turns: turns of the solitaire (12 in the rules).
        num_colours: [HOUSE] colours in play, 6..9 (default 9): as many cubes on as many
            slots, one cube per colour, and a pawn of each colour per player. The goal stays
            6 different colours (with 6 colours: all of them).
        white_faces: [HOUSE] faces of the white die, each a colour 0..num_colours-1 or 9
            (star); default (``None``) one face per colour and one star, uniform (with 9
            colours: 0, 1, ..., 8, 9). A config holds the faces in full.
        black_faces: [HOUSE] faces of the black die, 1 = star, 0 = blank; default two
            stars of six.
        race_winner: [HOUSE] who wins a race among several grabbers: ``"random"``
            (default, a uniform chance node: the rules' "fastest hand") or
            ``"seat_order"`` (the first grabber from the roller on, clockwise).
        max_turns: [HOUSE] turn cap so that every game ends (default 300).
        turn_limit: [HOUSE] result at the cap: ``"most_colours"`` (default: the players
            holding the most colours share the win, with 2 or more players, if they hold
            at least one; nobody wins when nobody holds a colour) or ``"nobody"`` (no
            winner).
    """

    num_players: int = 2
    memory: str = "none"
    forget_prob: float = 0.1
    competition: bool = False
    children: bool = False
    solitaire: bool = False
    solitaire_turns: int = 12
    num_colours: int = NUM_COLOURS
    white_faces: tuple[int, ...] | None = None
    black_faces: tuple[int, ...] = (1, 1, 0, 0, 0, 0)
    race_winner: str = "random"
    max_turns: int = 300
    turn_limit: str = "most_colours"

    def __post_init__(self) -> None:
        for field in ("white_faces", "black_faces"):
            if isinstance(getattr(self, field), list):  # from YAML / JSON
                object.__setattr__(self, field, tuple(getattr(self, field)))
        check_int("num_players", self.num_players, 1, 6)
        check_choice("memory", self.memory, MEMORY_MODES)
        if isinstance(self.forget_prob, bool) or not isinstance(self.forget_prob, (int, float)):
            raise ConfigError(
                f"forget_prob must be a number in 0..1, got {quote(self.forget_prob)}"
            )
        if not 0 <= self.forget_prob <= 1:  # compared as given: float(10**5000) overflows
            raise ConfigError(
                f"forget_prob={quote(self.forget_prob)} is out of range; allowed: 0..1"
            )
        check_bool("competition", self.competition)
        check_bool("children", self.children)
        check_bool("solitaire", self.solitaire)
        check_int("solitaire_turns", self.solitaire_turns, 1, 1000)
        if self.solitaire and self.num_players != 1:
            raise ConfigError(
                f"solitaire=True needs num_players=1, got num_players={self.num_players}"
            )
        check_int("num_colours", self.num_colours, MIN_COLOURS, MAX_COLOURS)
        if self.white_faces is None:
            object.__setattr__(self, "white_faces", default_white_faces(self.num_colours))
        k = self.num_colours
        white = f"colours 0..{k - 1} (num_colours={k}) or {STAR} (star)"
        _check_faces("white_faces", self.white_faces, (*range(k), STAR), white)
        _check_faces("black_faces", self.black_faces, (0, 1), "0 (blank) or 1 (star)")
        check_choice("race_winner", self.race_winner, RACE_WINNER_RULES)
        check_int("max_turns", self.max_turns, 1, 100_000)
        check_choice("turn_limit", self.turn_limit, TURN_LIMIT_RULES)

    @property
    def must_search(self) -> bool:
        """The competition rule applies (competition or solitaire)."""
        return self.competition or self.solitaire

    @property
    def turn_cap(self) -> int:
        return self.solitaire_turns if self.solitaire else self.max_turns


def _check_faces(field: str, faces: object, values: tuple[int, ...], allowed: str) -> None:
    if not isinstance(faces, (tuple, list)) or not 1 <= len(faces) <= 100:
        raise ConfigError(f"{field} must be a list of 1..100 faces, got {quote(faces)}")
    for f in faces:
        if isinstance(f, bool) or not isinstance(f, int) or f not in values:
            raise ConfigError(f"{field} has face {quote(f)}; allowed faces: {allowed}")
