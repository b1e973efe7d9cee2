"""Checks of a Moonstar position rebuilt from an untrusted snapshot (``State.validate``).

The core has already checked that the snapshot holds exactly the fields of a position,
each of the right kind (int, list, array dtype and rank). Here every field is checked for
its shape and range, the enums for their allowed values, and the position for
consistency: the derived fields (the observation board, the move mask, the player to
move) must equal what the position implies, so a snapshot cannot smuggle in a board that
disagrees with its pieces. A failed check raises :class:`~moon_envs.core.game.ConfigError`
naming the field and what is allowed.

A part of :class:`~moon_envs.moonstar.state.MoonstarState`, which combines one mixin
per phase; the fields it checks are documented there.
"""

from __future__ import annotations

import numpy as np

from moon_envs.core.game import ConfigError, check_choice, check_int
from moon_envs.core.snapshot import quote
from moon_envs.moonstar.constants import PHASES
from moon_envs.moonstar.layout import MoonstarLayout
from moon_envs.moonstar.variants import MAX_BID, MAX_MOONS_PER_STAR, MIN_BID, NUM_STARS


def _shape(field: str, value: np.ndarray, shape: tuple[int, ...]) -> None:
    if value.shape != shape:
        raise ConfigError(f"{field} must have shape {shape}, got {value.shape}")


def _range(field: str, value: np.ndarray, low: int, high: int) -> None:
    bad = np.flatnonzero((value < low) | (value > high))
    if bad.size:
        i = int(bad[0])
        v = int(value.flat[i])
        raise ConfigError(f"{field}[{i}]={v} is out of range; allowed: {low}..{high}")


NO_BID_REPORT = ("round", "organizer", "no_bid", "score_changes")
ROUND_REPORT = (
    "round",
    "organizer",
    "no_bid",
    "bidder",
    "bid",
    "achieved",
    "made",
    "best_total",
    "regret",
    "rules",
    "challengers",
    "side_bets",
    "score_changes",
)


def _int(field: str, value: object, low: int, high: int, none_ok: bool = False) -> None:
    if value is None and none_ok:
        return
    check_int(field, value, low, high)


def _int_list(field: str, value: object, size: int, low: int, high: int) -> None:
    if not isinstance(value, list) or len(value) != size:
        raise ConfigError(f"{field} must be a list of {size} integers, got {quote(value)}")
    for i, v in enumerate(value):
        check_int(f"{field}[{i}]", v, low, high)


class SnapshotChecks:
    """The checks of a position rebuilt from a snapshot (the ``State.validate`` hook)."""

    game: MoonstarLayout

    def check_held_info(self, info: dict, field: str) -> None:
        """An info the env still holds from an earlier step: ``{"round_report": REPORT}``,
        the report checked as :meth:`_check_report` checks the position's own."""
        if set(info) != {"round_report"}:
            raise ConfigError(
                f"{field} has keys {quote(sorted(map(str, info)), 120)}; the only info "
                "Moonstar gives is {'round_report': REPORT}"
            )
        self._check_report(info["round_report"], f"{field}.round_report")

    def _check_report(self, rep: object, where: str) -> None:
        """A round report (the position's ``report``, ``info()["round_report"]``): a
        mapping with exactly the keys of a no-bid round or of a played round, each of its
        type and range."""
        if not isinstance(rep, dict):
            own = "null or " if where == "report" else ""  # the position's own may be unset
            raise ConfigError(f"{where} must be {own}a round report mapping, got {quote(rep)}")
        g = self.game
        n = g.n
        big = 10**9
        keys = NO_BID_REPORT if rep.get("no_bid") is True else ROUND_REPORT
        if set(rep) != set(keys):
            raise ConfigError(
                f"{where} has keys {quote(sorted(map(str, rep)), 200)}; a "
                f"{'no-bid' if keys is NO_BID_REPORT else 'played'} round's report has {list(keys)}"
            )
        _int(f"{where}.round", rep["round"], 1, g.config.max_rounds)
        _int(f"{where}.organizer", rep["organizer"], 0, n - 1)
        _int_list(f"{where}.score_changes", rep["score_changes"], n, -big, big)
        if keys is NO_BID_REPORT:
            return
        if rep["no_bid"] is not False or not isinstance(rep["made"], bool):
            raise ConfigError(
                f"{where}.no_bid and {where}.made must be true or false, got "
                f"{quote(rep['no_bid'])} and {quote(rep['made'])}"
            )
        _int(f"{where}.bidder", rep["bidder"], 0, n - 1)
        _int(f"{where}.bid", rep["bid"], MIN_BID, MAX_BID)
        _int(f"{where}.achieved", rep["achieved"], 0, big)
        _int(f"{where}.best_total", rep["best_total"], 0, big, none_ok=True)
        _int(f"{where}.regret", rep["regret"], 0, big, none_ok=True)
        _int(f"{where}.rules", rep["rules"], 0, len(g.rounds) - 1)
        _int_list(f"{where}.side_bets", rep["side_bets"], n, -big, big)
        challengers = rep["challengers"]
        if not isinstance(challengers, list) or len(challengers) > n:
            raise ConfigError(f"{where}.challengers must list seats, got {quote(challengers)}")
        for i, seat in enumerate(challengers):
            check_int(f"{where}.challengers[{i}]", seat, 0, n - 1)

    def _check_barred(self) -> None:
        """From the auction to the side bets, a seat barred from the round's auction
        (``excluded`` or ``sitting_out``) is neither the high bidder nor the seat to speak,
        and an excluded seat takes no side bet unless ``excluded_side_bets`` (otherwise
        the bets never come back to the bidder). Between rounds (Game 12's menu) the last
        round's bidder may be the seat the next round excludes."""
        if self.phase not in ("auction", "favourite", "bets"):
            return
        barred = f"(excluded={self.excluded}, sitting_out={self.sitting_out})"
        if self.bidder >= 0 and self.barred(self.bidder):
            raise ConfigError(f"bidder={self.bidder} is barred from bidding this round {barred}")
        if self.phase == "auction" and self.to_move >= 0 and self.barred(self.to_move):
            raise ConfigError(f"to_move={self.to_move} is barred from bidding this round {barred}")
        if self.phase == "bets" and not self.game.config.excluded_side_bets:
            if self.bet_turn < 0 or self.bet_turn == self.excluded:
                raise ConfigError(
                    f"bet_turn={self.bet_turn} is not a seat that bets this round {barred}"
                )

    def _validate(self) -> None:
        """Raise :class:`ConfigError` unless this is a position Moonstar can reach."""
        g = self.game
        n = g.n
        cfg = g.config
        check_choice("phase", self.phase, PHASES)
        check_int("rules_idx", self.rules_idx, 0, len(g.rounds) - 1)
        r = self.rules
        check_int("organizer", self.organizer, 0, n - 1)
        check_int("round_no", self.round_no, 0, cfg.max_rounds)
        for field in ("excluded", "pending_excluded", "sitting_out", "bidder", "bet_turn"):
            check_int(field, getattr(self, field), -1, n - 1)
        drawing = cfg.auction_order == "random" and self.phase == "auction"
        check_int("to_move", self.to_move, -1 if drawing else 0, n - 1)
        _shape("points", self.points, (n,))
        _shape("planet_value", self.planet_value, (NUM_STARS,))
        _range("planet_value", self.planet_value, 0, 50)
        check_int("red_star", self.red_star, -1, NUM_STARS - 1)
        if self.red_star >= 0 and self.planet_value[self.red_star] == 0:
            raise ConfigError(f"red_star={self.red_star} is on a star without a planet")
        for field, size in (("moon_star", g.max_moons), ("moon_moved", g.max_moons)):
            _shape(field, getattr(self, field), (size,))
        _range("moon_star", self.moon_star, -1, NUM_STARS - 1)
        # between rounds (Game 12's menu, the end) the last round's pieces are still on the
        # board under the next round's rules: check round sizes against the largest round
        live = self.phase not in ("first", "menu", "over")
        most_moves = max(rr.num_moves for rr in g.rounds)
        check_int("moons_placed", self.moons_placed, 0, r.num_moons if live else g.max_moons)
        for field in ("dice", "die_used"):
            _shape(field, getattr(self, field), (g.max_dice,))
        _range("dice", self.dice, 0, 6)
        if (self.die_used & (self.dice == 0)).any():
            raise ConfigError("die_used marks a die that is not on the table (dice == 0)")
        if self.high_bid != 0:
            check_int("high_bid", self.high_bid, MIN_BID, MAX_BID)
        if (self.bidder >= 0) != (self.high_bid > 0):
            raise ConfigError(f"bidder={self.bidder} disagrees with high_bid={self.high_bid}")
        self._check_barred()
        for field in ("passed", "challengers", "bet_side", "bet_idx", "bet_stake"):
            _shape(field, getattr(self, field), (n,))
        if self.passes != int(self.passed.sum()) or (self.bidder >= 0 and self.passed[self.bidder]):
            raise ConfigError(
                f"passes={self.passes} disagrees with passed={self.passed.tolist()} "
                f"(the seats that passed since the last bid, never the high bidder)"
            )
        _range("bet_side", self.bet_side, -1, 1)
        _range("bet_idx", self.bet_idx, 0, max(0, g.num_stakes - 1))
        _range("bet_stake", self.bet_stake, 0, 10**9)
        check_int("moves_done", self.moves_done, 0, r.num_moves if live else most_moves)
        moves = self.moves_done
        if int(self.die_used.sum()) != moves or int(self.moon_moved.sum()) != moves:
            raise ConfigError(
                f"moves_done={self.moves_done} disagrees with the dice used "
                f"({int(self.die_used.sum())}) and the moons moved ({int(self.moon_moved.sum())})"
            )
        off_board = self.moon_moved & (self.moon_star < 0)
        if off_board.any() and live and r.scoring != "chains":
            raise ConfigError("a moved moon is off the board, which only Game 8's chains allow")
        check_int("round_total", self.round_total, 0, 10**6)
        check_int("best_total", self.best_total, -1, 10**6)
        check_int("chain_star", self.chain_star, -1, NUM_STARS - 1)
        check_int("chain_len", self.chain_len, 0, g.max_moons)
        _shape("landed", self.landed, (NUM_STARS,))
        _range("landed", self.landed, 0, g.max_moons)
        _shape("moons_on_star", self.moons_on_star, (NUM_STARS,))
        _range("moons_on_star", self.moons_on_star, 0, MAX_MOONS_PER_STAR)
        if not isinstance(self.planets_to_place, list) or any(
            not isinstance(v, int) or not 1 <= v <= 50 for v in self.planets_to_place
        ):
            raise ConfigError("planets_to_place must list planet values 1..50")
        if self.report is not None:
            self._check_report(self.report, "report")
        _shape("board", self.board, (g.board_len,))
        # at a player's turn the board must equal its from-scratch value (chance nodes are
        # passed through at once and may hold a board still being updated)
        at_turn = self._compute_player() >= 0
        if at_turn and not np.allclose(self.board, self.board_features(), atol=1e-5):
            raise ConfigError("board disagrees with the position (it is derived from the pieces)")
        _shape("play_block", self.play_block, (g.max_moons, g.max_dice, g.num_dirs))
        if self.phase == "play" and not np.array_equal(self.play_block, self.build_play_block()):
            raise ConfigError("play_block disagrees with the moons and dice left to play")
        if self.to_act != self._compute_player():
            raise ConfigError(
                f"to_act={quote(self.to_act)} disagrees with the phase {self.phase!r}"
            )
