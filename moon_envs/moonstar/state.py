"""Moonstar's position: the state, assembled from one mixin per phase of the round.

``setup`` (first organizer, menu, planets, moons, roll) → ``auction`` (bids, challenges,
side bets) → ``play`` (the high bidder's moves) → ``settlement`` (made or failed, scores,
exclusion, end); ``observation`` and ``text`` are the views, ``snapshot`` the checks of a
position rebuilt from a snapshot. This module holds the fields, the phase bookkeeping and
the protocol hooks that dispatch to the phases. The mixins and this module read the game
as a :class:`~moon_envs.moonstar.layout.MoonstarLayout` (the action ids and observation
offsets); :class:`~moon_envs.moonstar.rules.MoonstarGame` builds on it and names this
class as its state class, so nothing here imports the game's module.
"""

from __future__ import annotations

import math
from array import array
from typing import Any

import numpy as np

from moon_envs.core.game import CHANCE, TERMINAL, State
from moon_envs.core.state_io import ArrayField, fill, new_array
from moon_envs.moonstar import solver
from moon_envs.moonstar.auction import AuctionPhase
from moon_envs.moonstar.constants import PENDING_BEST, PHASE_INDEX
from moon_envs.moonstar.layout import MoonstarLayout
from moon_envs.moonstar.observation import Observations
from moon_envs.moonstar.play import PlayPhase
from moon_envs.moonstar.settlement import Settlement
from moon_envs.moonstar.snapshot import SnapshotChecks
from moon_envs.moonstar.setup import SetupPhase
from moon_envs.moonstar.text import TextViews
from moon_envs.moonstar.variants import NUM_STARS, RoundRules


INT8 = np.dtype(np.int8)


class MoonstarState(
    SetupPhase, AuctionPhase, PlayPhase, Settlement, Observations, TextViews, SnapshotChecks, State
):
    """A Moonstar position. Public fields (read-only for users):

    ``phase`` (one of ``PHASES``), ``organizer``, ``rules_idx`` (index in
    ``game.rounds``), ``round_no``, ``excluded`` (seat barred from this round after a
    failed bid, or -1), ``sitting_out`` (the organizer barred from bidding after a round
    nobody bid on, under ``no_bid_reading="organizer_sits_out"``, or -1),
    ``planet_value[star]`` (0: none), ``red_star``, ``moon_star[m]`` (-1: not on the
    board; Game 8 removes the moons of a broken chain), ``moon_moved[m]``, ``dice[d]``
    (0: absent), ``die_used[d]``, ``high_bid``,
    ``bidder``, ``to_move`` (the seat to speak in the auction; ``CHANCE`` while
    ``auction_order="random"`` draws it), ``passed[seat]`` (passed or challenged since the
    last bid), ``challengers[seat]``, ``bet_side[seat]`` (-1 none yet, 0 made, 1 failed),
    ``bet_stake[seat]``, ``round_total`` (the player of the round's points so far),
    ``points[seat]``, ``best_total`` (solver optimum of the round, -1 unknown).

    Derived fields kept up to date move by move (checked against a from-scratch
    computation in the tests): ``board`` (the seat-independent part of the observation,
    see :meth:`board_features`), ``play_block`` (the move part of the mask, see
    :meth:`build_play_block`), ``moons_on_star`` (during setup) and ``to_act``.

    The array fields read as numpy arrays and are kept as Python arrays (``_points``,
    ``_board``, ...), which the rules read and write entry by entry far faster and a
    clone copies far faster (see :class:`~moon_envs.core.state_io.ArrayField`).
    """

    game: MoonstarLayout
    points = ArrayField("int64")
    planet_value = ArrayField("int16")
    moon_star = ArrayField("int8")
    moon_moved = ArrayField("bool")
    dice = ArrayField("int8")
    die_used = ArrayField("bool")
    passed = ArrayField("bool")
    challengers = ArrayField("bool")
    bet_side = ArrayField("int8")
    bet_idx = ArrayField("int8")
    bet_stake = ArrayField("int64")
    landed = ArrayField("int8")
    board = ArrayField("float32")
    moons_on_star = ArrayField("int8")
    play_block = ArrayField("int8", shape=lambda g: (g.max_moons, g.max_dice, g.num_dirs))

    def __init__(self, game: MoonstarLayout) -> None:
        super().__init__(game)
        cfg = game.config
        n = game.n
        self.points = np.zeros(n, dtype=np.int64)
        self.organizer = 0
        self.rules_idx = 0
        self.round_no = 0
        self.excluded = -1
        self.pending_excluded = -1
        self.sitting_out = -1
        self.planet_value = np.zeros(NUM_STARS, dtype=np.int16)
        self.planets_to_place: list[int] = []
        self.red_star = -1
        self.moon_star = np.full(game.max_moons, -1, dtype=np.int8)
        self.moon_moved = np.zeros(game.max_moons, dtype=bool)
        self.moons_placed = 0
        self.dice = np.zeros(game.max_dice, dtype=np.int8)
        self.die_used = np.zeros(game.max_dice, dtype=bool)
        self.high_bid = 0
        self.bidder = -1
        self.to_move = 0
        self.passes = 0
        self.passed = np.zeros(n, dtype=bool)
        self.challengers = np.zeros(n, dtype=bool)
        self.bet_side = np.full(n, -1, dtype=np.int8)
        self.bet_idx = np.zeros(n, dtype=np.int8)
        self.bet_stake = np.zeros(n, dtype=np.int64)
        self.bet_turn = -1
        self.moves_done = 0
        self.round_total = 0
        self.chain_star = -1
        self.chain_len = 0
        self.landed = np.zeros(NUM_STARS, dtype=np.int8)
        self.best_total = -1
        self.report: dict[str, Any] | None = None
        self.last_action = ""
        self.board = np.zeros(game.board_len, dtype=np.float32)
        self.board[game.t_round + 5] = math.tanh(cfg.target / 200.0)
        self.board[game.t_rules : game.t_rules + 10] = game.rule_features[0]
        self.moons_on_star = np.zeros(NUM_STARS, dtype=np.int8)
        self.play_block = np.zeros((game.max_moons, game.max_dice, game.num_dirs), dtype=np.int8)
        if cfg.first_organizer == "roll":
            self._set_phase("first")
        else:
            self.organizer = int(cfg.first_organizer)
            self._start_round()
        self.to_act = self._compute_player()

    # ---- helpers ---------------------------------------------------------------------
    @property
    def rules(self) -> RoundRules:
        """The rules of the current round."""
        return self.game.rounds[self.rules_idx]

    def _set_phase(self, phase: str) -> None:
        b = self._board
        g = self.game
        old = getattr(self, "phase", None)
        if old is not None:
            b[g.t_phase + PHASE_INDEX[old]] = 0.0
        b[g.t_phase + PHASE_INDEX[phase]] = 1.0
        self.phase = phase
        if phase == "planet" or phase == "moon":
            b[g.t_round + 4] = (self.rules.num_moons - self.moons_placed) / 15.0
        else:
            b[g.t_round + 4] = 0.0
        if phase == "menu" and g.menu_size:
            fill(b, 0.0, g.t_menu, g.t_menu + g.menu_size)
            b[g.t_rules : g.t_rules + 10] = g.rule_feature_arrays[self.rules_idx]

    # ---- protocol hooks ----------------------------------------------------------------
    def _current_player(self) -> int:
        return self.to_act

    def _compute_player(self) -> int:
        ph = self.phase
        if ph == "auction":
            return self.to_move
        if ph == "play" or ph == "favourite":
            return self.bidder
        if ph == "planet" or ph == "moon":
            return self.organizer if self.game.config.setup == "organizer" else CHANCE
        if ph == "bets":
            return self.bet_turn
        if ph == "menu":
            return self.organizer
        if ph == "over":
            return TERMINAL
        return CHANCE

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        ph = self.phase
        if ph == "roll":
            return self.game.roll_outcomes[self.rules.num_dice]  # shared: never written
        if ph == "first":
            # each seat rolls four dice, ties re-rolled among the tied: by symmetry every
            # seat is equally likely to become the first organizer
            n = self.game.n
            return [(s, 1.0 / n) for s in range(n)]
        if ph == "auction":  # auction_order="random": who speaks next
            speakers = self.speakers()
            return [(s, 1.0 / len(speakers)) for s in speakers]
        free = [s for s, ok in enumerate(self._star_mask_bytes()) if ok]
        return [(s, 1.0 / len(free)) for s in free]

    def _legal_mask(self) -> np.ndarray:
        return new_array(self._mask_bytes(), INT8)

    def _is_legal(self, action: int) -> bool:
        mask = self._mask_bytes()
        return 0 <= action < len(mask) and mask[action] == 1

    def _mask_bytes(self) -> bytes:
        """The legal-action mask, one byte per action (kept until the next action)."""
        mask = getattr(self, "_cache_mask", None)
        if mask is not None:
            return mask
        g = self.game
        ph = self.phase
        if ph == "auction":
            p = self.to_move
            challenge = self.rules.challenges and self.bidder >= 0 and not self._challengers[p]
            mask = g.auction_mask(self.high_bid, bool(challenge))
        elif ph == "play":
            mask = g.no_actions_before_moves + self._play_block.tobytes()
        elif ph == "bets":
            m = bytearray(g.spec.num_actions)
            m[g.a_bet : g.a_bet + g.num_stakes] = b"\1" * g.num_stakes
            if self.bet_turn != self.bidder or g.config.bidder_bets == "any":
                m[g.a_bet + g.num_stakes + 1 : g.a_bet + 2 * g.num_stakes] = b"\1" * (
                    g.num_stakes - 1
                )
            mask = bytes(m)
        elif ph == "menu":
            m = bytearray(g.spec.num_actions)
            m[g.a_menu : g.a_menu + g.menu_size] = b"\1" * g.menu_size
            mask = bytes(m)
        else:  # planet, moon, favourite
            mask = self._star_mask_bytes() + g.no_actions_after_stars
        self._cache_mask = mask
        return mask

    def _apply(self, action: int) -> None:
        self._cache_mask = None
        if self.to_act >= 0:
            self.report = None
        self._dispatch(action)
        self.to_act = self._compute_player()

    def _dispatch(self, action: int) -> None:
        ph = self.phase
        g = self.game
        if ph == "auction":
            if self.to_move == CHANCE:  # auction_order="random": the speaker drawn
                self.to_move = action
                self.last_action = f"player_{action} speaks"
            else:
                self._auction_action(self.to_move, action)
        elif ph == "play":
            self._move(action)
        elif ph == "roll":
            self._roll(action)
        elif ph == "planet":
            self._place_planet(action)
        elif ph == "moon":
            self._place_moon(action)
        elif ph == "bets":
            self._bet_action(self.bet_turn, action)
        elif ph == "favourite":
            self.red_star = action
            self._board[action * 5 + 1] = 1.0
            self.last_action = f"player_{self.bidder} puts the red planet on star {action}"
            if self.rules.side_bets:
                self._begin_bets()
            else:
                self._begin_play()
        elif ph == "menu":
            self.rules_idx = action - g.a_menu
            self.last_action = f"player_{self.organizer} chooses menu entry {self.rules_idx}"
            self._begin_setup()
        elif ph == "first":
            self.organizer = action
            self.last_action = f"player_{action} organizes the first round"
            self._start_round()

    def clone(self) -> MoonstarState:
        """An independent copy, field by field (the search's hot path): a copy of every
        Python array (changed in place by the rules) and of the list of planets to place;
        every other field is immutable or replaced whole (the cached mask, the round
        report, the core's reward bookkeeping), so the copy shares it."""
        new = object.__new__(MoonstarState)
        d = dict(self.__dict__)  # a plain dict: see State.clone
        # (an array's __copy__ is its cheapest copy: no slice to build)
        d["_points"] = self._points.__copy__()
        d["_planet_value"] = self._planet_value.__copy__()
        d["_moon_star"] = self._moon_star.__copy__()
        d["_moon_moved"] = self._moon_moved.__copy__()
        d["_dice"] = self._dice.__copy__()
        d["_die_used"] = self._die_used.__copy__()
        d["_passed"] = self._passed.__copy__()
        d["_challengers"] = self._challengers.__copy__()
        d["_bet_side"] = self._bet_side.__copy__()
        d["_bet_idx"] = self._bet_idx.__copy__()
        d["_bet_stake"] = self._bet_stake.__copy__()
        d["_landed"] = self._landed.__copy__()
        d["_board"] = self._board.__copy__()
        d["_moons_on_star"] = self._moons_on_star.__copy__()
        d["_play_block"] = self._play_block.__copy__()
        d["planets_to_place"] = self.planets_to_place[:]
        new.__dict__ = d
        return new

    def _is_chance_outcome(self, outcome: int) -> bool:
        if self.phase == "roll":  # ids 0..k-1 of the sorted multisets
            return 0 <= outcome < len(self.game.roll_faces[self.rules.num_dice])
        return any(o == outcome for o, _ in self._chance_outcomes())

    def _scores(self) -> array:
        return self._points

    def _winners(self) -> list[int]:
        points = self._points.tolist()
        best = max(points)
        top = [s for s, p in enumerate(points) if p == best]
        if len(top) > 1 and self.game.config.ties == "none":
            return []  # a tie at the top is nobody's win
        return top

    def info(self) -> dict[str, Any]:
        """At the end of a round: ``{"round_report": {...}}`` with the bid, the achieved and
        best totals, the regret (best - achieved) and every seat's score change."""
        self._resolve_best()
        return {"round_report": dict(self.report)} if self.report else {}

    @property
    def best_total(self) -> int:
        """The exact optimum of the round under way (-1: not known yet), solved on first
        read; the rules themselves read the stored value (-2 while it is pending)."""
        if self.__dict__["best_total"] == PENDING_BEST:
            self._resolve_best()
        return self.__dict__["best_total"]

    @best_total.setter
    def best_total(self, value: int) -> None:
        self.__dict__["best_total"] = value

    def _resolve_best(self) -> None:
        """Solve the round optimum the auction left pending (``solver_info``): fill
        ``best_total`` while its round is on, and the round report's best and regret.
        Lazy, so that playing rounds nobody reads a report of (a search) costs no solve;
        what ``info()`` and ``to_dict()`` show is the same as if it were solved at once."""
        pending = self.__dict__.pop("_pending_best", None)
        if pending is None:
            return
        best = solver.solve(self._auction_end_situation(*pending), with_plan=False).total
        if self.__dict__["best_total"] == PENDING_BEST:
            self.__dict__["best_total"] = best
        rep = self.report
        if rep and not rep["no_bid"] and rep["best_total"] is None:
            self.report = {**rep, "best_total": best, "regret": best - rep["achieved"]}

    # ---- hidden information ------------------------------------------------------------
    def resample(self, player: int, rng: np.random.Generator) -> MoonstarState:
        """A copy in which the sealed side bets of the others are redrawn at random."""
        st = self.clone()
        if self.phase != "bets":
            return st
        g = self.game
        fr = g.config.bet_fractions
        for s in range(g.n):
            if s == player or self.bet_side[s] < 0:
                continue
            made_only = s == self.bidder and g.config.bidder_bets == "made_only"
            side = 0 if made_only else int(rng.integers(2))
            k = int(rng.integers(g.num_stakes if side == 0 else g.num_stakes - 1)) + side
            st.bet_side[s] = side
            st.bet_idx[s] = k
            st.bet_stake[s] = math.floor(fr[k] * max(0, int(self.points[s])) + 1e-9)
        st._cache_mask = None
        return st

    # ---- serialisation (drop caches) -------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        self._resolve_best()
        d = super().to_dict()
        d["state"].pop("_cache_mask", None)
        return d
