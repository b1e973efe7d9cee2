"""Moonstar rules, the end of a round.

The bid made or failed, challenges and side bets settled, exclusion, the end of the game.

A part of :class:`~moon_envs.moonstar.state.MoonstarState`, which combines one mixin
per phase; the fields it reads and writes are documented there.
"""

from __future__ import annotations

from moon_envs.core.state_io import fill
from moon_envs.moonstar.constants import (
    CHALLENGE_STAKE,
    FAIL_BONUS,
    MOON_SHARE,
)
from moon_envs.moonstar.layout import MoonstarLayout


class Settlement:
    """The end of a round: made or failed, stakes settled, exclusion, end."""

    game: MoonstarLayout

    def _settle(self) -> None:
        g = self.game
        n = g.n
        points = self._points
        before = points.tolist()
        # moons without a die (Game 3, timer) leave the board; unused dice are discarded
        b = self._board
        if self.chain_star >= 0:
            b[self.chain_star * 5 + 4] = 0.0
        stars = self._moon_star.tolist()
        moved = self._moon_moved.tolist()
        for m, s in enumerate(stars):
            if s >= 0 and not moved[m]:
                self._moon_star[m] = -1
                b[s * 5 + 2] -= MOON_SHARE
                row = g.moon_base + 14 * m
                fill(b, 0.0, row, row + 14)
        used = self._die_used.tolist()
        for d, face in enumerate(self._dice.tolist()):
            if face and not used[d]:
                self._dice[d] = 0
                b[g.dice_base + d] = 0.0
                b[g.dice_base + g.max_dice + d] = 0.0
                b[g.face_base + face - 1] -= g.die_share
        b, bid = self.bidder, self.high_bid
        made = self.round_total >= bid
        challengers = [s for s, c in enumerate(self._challengers) if c]
        challenged = bool(challengers)
        if made:
            points[b] += bid + (CHALLENGE_STAKE if challenged else 0)
            for s in challengers:
                points[s] -= CHALLENGE_STAKE
        else:
            if challenged:
                points[b] -= CHALLENGE_STAKE
            others = self.game.config.challenge_fail_bonus if challenged else FAIL_BONUS
            for s in range(n):
                if s != b:
                    points[s] += CHALLENGE_STAKE if s in challengers else others
            self.pending_excluded = b
        bets = [0] * n
        if self.rules.side_bets:
            for s, stake in enumerate(self._bet_stake.tolist()):
                if stake > 0:
                    won = (self._bet_side[s] == 0) == made
                    bets[s] = stake if won else -stake
                    points[s] += bets[s]
        best = self.__dict__["best_total"]  # not the property: a pending optimum stays unsolved
        self.report = {
            "round": self.round_no,
            "organizer": self.organizer,
            "no_bid": False,
            "bidder": b,
            "bid": bid,
            "achieved": self.round_total,
            "made": made,
            "best_total": best if best >= 0 else None,
            "regret": (best - self.round_total) if best >= 0 else None,
            "rules": self.rules_idx,
            "challengers": challengers,
            "side_bets": bets,
            "score_changes": [p - q for p, q in zip(points.tolist(), before)],
        }
        self._end_round(rotate=True)

    def _end_round(self, rotate: bool, sitting_out: int = -1) -> None:
        cfg = self.game.config
        if max(self._points) >= cfg.target or self.round_no >= cfg.max_rounds:
            self._set_phase("over")
            return
        if rotate:
            self.organizer = (self.organizer + 1) % self.game.n
        self._start_round(sitting_out)
