"""Moonstar rules, the auction.

Bids, passes and Game 10's challenges; the round nobody bids on; Game 11's sealed
side bets taken one seat at a time.

A part of :class:`~moon_envs.moonstar.state.MoonstarState`, which combines one mixin
per phase; the fields it reads and writes are documented there.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING


from moon_envs.moonstar import solver
from moon_envs.moonstar.constants import (
    NO_BID_BONUS,
)
from moon_envs.moonstar.variants import (
    MAX_BID,
    MIN_BID,
)

if TYPE_CHECKING:
    from moon_envs.moonstar.rules import MoonstarGame


class AuctionPhase:
    """The auction, the no-bid round and the sealed side bets."""

    game: MoonstarGame

    def _next_eligible(self, seat: int) -> int:
        n = self.game.n
        for k in range(1, n + 1):
            q = (seat + k) % n
            if q != self.excluded:
                return q
        return seat  # pragma: no cover - at most one seat is excluded

    def _auction_action(self, p: int, action: int) -> None:
        g = self.game
        n_elig = g.n - (1 if self.excluded >= 0 else 0)
        if action == g.a_pass or action == g.a_challenge:
            self.passes += 1
            if action == g.a_challenge:
                self.challengers[p] = True
                self.last_action = f"player_{p} challenges {self.high_bid}"
            else:
                self.last_action = f"player_{p} passes"
        else:
            self.high_bid = action - g.a_bid + MIN_BID
            self.bidder = p
            self.passes = 0
            self.challengers[:] = False
            self.last_action = f"player_{p} bids {self.high_bid}"
            if self.high_bid == MAX_BID:
                self.board[g.t_high] = 1.0
                self.board[g.t_passes] = 0.0
                self._end_auction()
                return
        b = self.board
        b[g.t_high] = self.high_bid / MAX_BID
        b[g.t_passes] = self.passes / g.n
        if self.bidder < 0 and self.passes >= n_elig:
            self._no_bid()
            return
        if self.bidder >= 0 and self.passes >= n_elig - 1:
            self._end_auction()
            return
        self.to_move = self._next_eligible(p)

    def _no_bid(self) -> None:
        o = self.organizer
        self.points[o] += NO_BID_BONUS
        self.report = {
            "round": self.round_no,
            "organizer": o,
            "no_bid": True,
            "score_changes": [NO_BID_BONUS if s == o else 0 for s in range(self.game.n)],
        }
        self.last_action = f"nobody bids: player_{o} +{NO_BID_BONUS}, new setup"
        self._end_round(rotate=False)

    def _end_auction(self) -> None:
        r = self.rules
        if self.game.config.solver_info:
            self.best_total = solver.solve(
                self.situation(choose_red=r.favourite_star), with_plan=False
            ).total
        if r.favourite_star:
            self._set_phase("favourite")
        elif r.side_bets:
            self._begin_bets()
        else:
            self._begin_play()

    def _begin_bets(self) -> None:
        self._set_phase("bets")
        self.bet_turn = self.bidder

    def _bet_action(self, p: int, action: int) -> None:
        g = self.game
        x = action - g.a_bet
        failed, k = divmod(x, g.num_stakes)
        frac = g.config.bet_fractions[k]
        self.bet_side[p] = failed
        self.bet_idx[p] = k
        self.bet_stake[p] = math.floor(frac * max(0, int(self.points[p])) + 1e-9)
        self.last_action = f"player_{p} bets"
        nxt = (p + 1) % g.n
        if nxt == self.bidder:
            self.bet_turn = -1
            self._begin_play()
        else:
            self.bet_turn = nxt
