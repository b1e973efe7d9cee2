"""Moonstar rules engine (Alex Randolph, Avalon Hill 1981), Games 1–12: the game and its actions.

A round: (Game 12: the organizer picks the round's rules) → setup (planets, then moons) →
the dice rolled (one chance node over sorted multisets of faces) → ascending auction →
(Game 6: red planet) → (Game 11: sealed side bets) → the high bidder moves the moons, one
atomic action per moon → scoring and settlement → next organizer. The parameters are in
:class:`~moon_envs.moonstar.variants.MoonstarConfig`; the action encoding is in
:class:`MoonstarGame` and on the documentation page (``moon_envs.moonstar.env``); the rules
as implemented are in ``docs/rules.md``.

The modules import one way, each only from those below it: this one (the game) →
``state`` (the position, :class:`MoonstarState`) → one module per phase (``setup``,
``auction``, ``play``, ``settlement``), the views (``observation``, ``text``) and the
snapshot checks (``snapshot``), each a mixin of the state → ``layout`` (the action ids,
observation offsets and roll tables the phases read, the base of :class:`MoonstarGame`)
→ ``solver`` → ``constants`` and ``variants`` (the config).
"""

from __future__ import annotations

from typing import Any

from moon_envs.core.info_fields import Field

from moon_envs.moonstar.constants import (
    CHALLENGE_STAKE,
    DIRECTION_NAMES,
    FAIL_BONUS,
    NO_BID_BONUS,
    NUM_BIDS,
    PHASES,
)
from moon_envs.moonstar.layout import MoonstarLayout
from moon_envs.moonstar.state import MoonstarState
from moon_envs.moonstar.variants import MoonstarConfig


class MoonstarGame(MoonstarLayout):
    """Moonstar's immutable rules and action layout.

    Actions (one flat ``Discrete(num_actions)``):

    * ``0..11``: a star (place the next planet, place the next moon, or Game 6's red planet);
    * ``12..80``: bid ``action - 10`` (2..70);
    * ``81``: pass; ``82``: challenge the high bid (Game 10);
    * ``83 .. 83+len(menu)-1``: Game 12, the organizer picks menu entry ``action - 83``;
    * ``bet_base + k`` / ``bet_base + F + k``: Game 11, bet stake ``k`` on "made" / "failed"
      (``F`` = number of stakes; ``made 0`` is "no bet"; no block without side bets);
    * ``move_base + (m * D + d) * K + k``: move moon ``m`` with die ``d`` in direction ``k``
      (``D`` = most dice, ``K`` = 2, or 4 with Game 9: 0 cw d, 1 ccw d, 2 cw 2d, 3 ccw d//2).
    """

    state_class = MoonstarState

    def __init__(self, config: MoonstarConfig | None = None, **params: Any) -> None:
        super().__init__(config, **params)

    def info_fields(self) -> list[Field]:
        """The last round's report (-1, or 0 per seat, before the first round ends)."""
        n = self.spec.num_players
        scalars = ("round", "organizer", "no_bid", "bidder", "bid", "achieved", "made")
        return [
            *(Field(("round_report", k)) for k in (*scalars, "best_total", "regret", "rules")),
            Field(("round_report", "challengers"), n, 0, seat_set=True),
            Field(("round_report", "side_bets"), n, 0),
            Field(("round_report", "score_changes"), n, 0),
        ]


__all__ = [
    "CHALLENGE_STAKE",
    "DIRECTION_NAMES",
    "FAIL_BONUS",
    "NO_BID_BONUS",
    "NUM_BIDS",
    "PHASES",
    "MoonstarGame",
    "MoonstarState",
]
