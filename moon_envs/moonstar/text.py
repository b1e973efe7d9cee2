"""Moonstar rules, move names and the text board.

A part of :class:`~moon_envs.moonstar.state.MoonstarState`, which combines one mixin
per phase; the fields it reads and writes are documented there.
"""

from __future__ import annotations

import numpy as np

from moon_envs.moonstar.constants import (
    direction_name,
)
from moon_envs.moonstar.layout import MoonstarLayout
from moon_envs.moonstar.variants import (
    MIN_BID,
    NUM_STARS,
)


class TextViews:
    """Move names and the text board."""

    game: MoonstarLayout

    # ---- text ----------------------------------------------------------------------------
    def action_to_string(self, action: int) -> str:
        g = self.game
        a = int(action)
        if 0 <= a < NUM_STARS:
            what = {"planet": "planet", "moon": "moon", "favourite": "red planet"}.get(
                self.phase, "star"
            )
            return f"{what} on star {a}"
        if g.a_bid <= a < g.a_pass:
            return f"bid {a - g.a_bid + MIN_BID}"
        if a == g.a_pass:
            return "pass"
        if a == g.a_challenge:
            return "challenge"
        if g.a_menu <= a < g.a_bet:
            return f"rules: menu entry {a - g.a_menu}"
        if g.a_bet <= a < g.a_move:
            failed, k = divmod(a - g.a_bet, g.num_stakes)
            outcome = "failed" if failed else "made"
            return f"side bet {g.config.bet_fractions[k]:g} of score on {outcome}"
        if g.a_move <= a < g.spec.num_actions:
            m, d, k = g.decode_move(a)
            face = int(self.dice[d]) if d < len(self.dice) else 0
            way = direction_name(k, self.rules.movement)
            return f"moon {m} with die {d} (face {face}) {way}"
        raise ValueError(f"action {a} is out of range 0..{g.spec.num_actions - 1}")

    def action_to_public_string(self, action: int, observer: int) -> str:
        """A side bet (Game 11) is sealed: another player learns only that a bet was made."""
        g = self.game
        if g.a_bet <= int(action) < g.a_move and observer != self._current_player():
            return "a sealed side bet"
        return self.action_to_string(action)

    def bet_text(self, seat: int, viewer: int | None) -> str:
        """``seat``'s Game 11 side bet as ``viewer`` may know it (``None``: the spectator,
        who sees every bet): ``sealed`` until all have bet, unless it is the viewer's."""
        side = int(self.bet_side[seat])
        if side < 0:
            if seat == self.excluded and not self.game.config.excluded_side_bets:
                return "excluded"
            return "to bet" if self.phase == "bets" else "no bet"
        if viewer is not None and not self.bets_visible(viewer, seat):
            return "sealed"
        k = int(self.bet_idx[seat])
        if k == 0:
            return "no bet"
        stake = int(self.bet_stake[seat])
        fraction = self.game.config.bet_fractions[k]
        points = "point" if stake == 1 else "points"
        return f"{fraction:g} of score ({stake} {points}) on {'failed' if side else 'made'}"

    def to_string(self, player: int | None = None) -> str:
        """The text board as ``player`` may know it (``None``: the spectator's, ``str()``):
        the same for every seat but Game 11's side bets, each seat's own shown to it and
        the others' sealed until all have bet."""
        if player is not None and not 0 <= player < self.game.n:
            raise ValueError(f"player must be in 0..{self.game.n - 1}, got {player}")
        return self._text(player)

    def __str__(self) -> str:
        return self._text(None)

    def _text(self, viewer: int | None) -> str:
        g = self.game
        r = self.rules
        lines = [
            (
                f"Moonstar round {self.round_no} ({self.phase}), "
                f"organizer player_{self.organizer}, "
                f"scoring {r.scoring}, movement {r.movement}, target {g.config.target}"
            )
        ]
        planet_value, moon_star, moon_moved = self.planet_value, self.moon_star, self.moon_moved
        for s in range(NUM_STARS):
            planet = f"P{int(planet_value[s]):<2}" if planet_value[s] else "   "
            red = "R" if s == self.red_star else " "
            moons = [str(m) for m in range(g.max_moons) if moon_star[m] == s and not moon_moved[m]]
            moved = [str(m) for m in range(g.max_moons) if moon_star[m] == s and moon_moved[m]]
            lines.append(
                f"  star {s:>2} {planet}{red} moons [{' '.join(moons)}]"
                + (f" moved [{' '.join(moved)}]" if moved else "")
            )
        faces, die_used = self.dice, self.die_used
        dice = [
            f"{int(faces[d])}" + ("*" if die_used[d] else "")
            for d in range(g.max_dice)
            if faces[d] > 0
        ]
        lines.append(f"dice: {' '.join(dice) or '-'}   (* = used)")
        bid = (
            f"high bid {self.high_bid} by player_{self.bidder}"
            if self.bidder >= 0
            else "no bid yet"
        )
        ch = [f"player_{s}" for s in np.flatnonzero(self.challengers)]
        lines.append(bid + (f", challenged by {', '.join(ch)}" if ch else ""))
        if self.phase == "play":
            lines.append(f"round total {self.round_total}, moves {self.moves_done}/{r.num_moves}")
        if r.side_bets and self.phase in ("bets", "play"):
            bets = (f"player_{x} {self.bet_text(x, viewer)}" for x in range(g.n))
            lines.append("side bets: " + ", ".join(bets))
        cp = self._current_player()
        for s in range(g.n):
            mark = "*" if cp == s else " "
            ex = " (excluded)" if s == self.excluded else ""
            ex += " (sits out)" if s == self.sitting_out else ""
            lines.append(f"{mark} player_{s}: {int(self.points[s])}{ex}")
        if self.phase == "over":
            lines.append(self.result_text())
        if self.last_action:
            lines.append(f"last: {self.last_action}")
        return "\n".join(lines)
