"""Moonstar rules, the auction.

Bids, passes and Game 10's challenges; the round nobody bids on; Game 11's sealed
side bets taken one seat at a time.

Who speaks (``auction_order``): ``"rotation"`` goes round the table from the organizer's
left; ``"random"`` lets chance draw every speaker uniformly among the seats that may bid,
have not passed since the last bid and do not hold the high bid (``to_move`` is
``CHANCE`` until the draw). Either way the auction ends once every other seat that may
bid has passed since the last bid.

A part of :class:`~moon_envs.moonstar.state.MoonstarState`, which combines one mixin
per phase; the fields it reads and writes are documented there.
"""

from __future__ import annotations

import math

from moon_envs.core.game import CHANCE
from moon_envs.core.state_io import fill
from moon_envs.moonstar.constants import (
    NO_BID_BONUS,
    PENDING_BEST,
)
from moon_envs.moonstar.layout import MoonstarLayout
from moon_envs.moonstar.variants import (
    MAX_BID,
    MIN_BID,
)


class AuctionPhase:
    """The auction, the no-bid round and the sealed side bets."""

    game: MoonstarLayout

    def barred(self, seat: int) -> bool:
        """Whether ``seat`` may not bid this round (excluded after a failed bid, or the
        organizer sitting out after a round nobody bid on under ``no_bid_reading=
        "organizer_sits_out"``)."""
        return seat == self.excluded or seat == self.sitting_out

    def eligible_bidders(self) -> int:
        """How many seats may bid this round."""
        return self.game.n - len({self.excluded, self.sitting_out} - {-1})

    def speakers(self) -> list[int]:
        """Seats that may still speak before the auction ends: allowed to bid, not passed
        since the last bid, not the high bidder."""
        passed = self._passed.tolist()
        return [
            s
            for s in range(self.game.n)
            if not self.barred(s) and not passed[s] and s != self.bidder
        ]

    def _first_speaker(self) -> int:
        if self.game.config.auction_order == "random":
            return CHANCE
        return self._next_eligible(self.organizer)

    def _next_eligible(self, seat: int) -> int:
        n = self.game.n
        for k in range(1, n + 1):
            q = (seat + k) % n
            if not self.barred(q):
                return q
        return seat  # nobody may bid: the caller ends the auction at once

    def _auction_action(self, p: int, action: int) -> None:
        g = self.game
        n_elig = self.eligible_bidders()
        if action == g.a_pass or action == g.a_challenge:
            self.passes += 1
            self._passed[p] = True
            if action == g.a_challenge:
                self._challengers[p] = True
                self.last_action = f"player_{p} challenges {self.high_bid}"
            else:
                self.last_action = f"player_{p} passes"
        else:
            self.high_bid = action - g.a_bid + MIN_BID
            self.bidder = p
            self.passes = 0
            fill(self._passed, False)
            fill(self._challengers, False)
            self.last_action = f"player_{p} bids {self.high_bid}"
            if self.high_bid == MAX_BID and not self.rules.challenges:
                # nothing can top 70; under Game 10 the others may still challenge it
                self._board[g.t_high] = 1.0
                self._board[g.t_passes] = 0.0
                self._end_auction()
                return
        b = self._board
        b[g.t_high] = self.high_bid / MAX_BID
        b[g.t_passes] = self.passes / g.n
        if self.bidder < 0 and self.passes >= n_elig:
            self._no_bid()
            return
        if self.bidder >= 0 and self.passes >= n_elig - 1:
            self._end_auction()
            return
        if g.config.auction_order == "random":
            self.to_move = CHANCE
        else:
            self.to_move = self._next_eligible(p)

    def _no_bid(self, forced: bool = False) -> None:
        """Nobody bid: the organizer's +20 and a new set-up. ``forced``: nobody could bid
        (every seat barred), which spends the exclusion whatever
        ``exclusion_after_no_bid`` says, so the game cannot stall."""
        cfg = self.game.config
        o = self.organizer
        bonus = NO_BID_BONUS if cfg.excluded_organizer_bonus or o != self.excluded else 0
        self._points[o] += bonus
        self.report = {
            "round": self.round_no,
            "organizer": o,
            "no_bid": True,
            "score_changes": [bonus if s == o else 0 for s in range(self.game.n)],
        }
        self.last_action = f"nobody bids: player_{o} +{bonus}, new setup"
        if cfg.exclusion_after_no_bid == "kept" and not forced:
            self.pending_excluded = self.excluded  # the void round does not count
        sits_out = cfg.no_bid_reading == "organizer_sits_out"
        self._end_round(rotate=False, sitting_out=o if sits_out else -1)

    def _end_auction(self) -> None:
        r = self.rules
        if self.game.config.solver_info:
            # solved when the round report is first read (``info()``, ``to_dict()``), not
            # here: a search playing thousands of rounds never reads it; what the solve
            # needs is kept as plain lists (see _auction_end_situation)
            self.best_total = PENDING_BEST
            stars, faces = self._moon_star.tolist(), self._dice.tolist()
            self._pending_best = (r, stars, faces, self._planet_value.tolist())
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
        self._bet_side[p] = failed
        self._bet_idx[p] = k
        self._bet_stake[p] = math.floor(frac * max(0, self._points[p]) + 1e-9)
        self.last_action = f"player_{p} bets"
        nxt = (p + 1) % g.n
        if nxt == self.excluded and not g.config.excluded_side_bets:
            nxt = (nxt + 1) % g.n  # barred from the round, side bets included
        if nxt == self.bidder:
            self.bet_turn = -1
            self._begin_play()
        else:
            self.bet_turn = nxt
