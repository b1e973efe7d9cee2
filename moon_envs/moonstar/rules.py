"""Moonstar rules engine (RULES.md §1; Alex Randolph, Avalon Hill 1981), Games 1–12.

A round: (Game 12: the organizer picks the round's rules) → setup (planets, then moons) →
the dice rolled (one chance node over sorted multisets of faces) → ascending auction →
(Game 6: red planet) → (Game 11: sealed side bets) → the high bidder moves the moons, one
atomic action per moon → scoring and settlement → next organizer. The parameters are in
:class:`~moon_envs.moonstar.variants.MoonstarConfig`; the action encoding is in
:class:`MoonstarGame` and on the documentation page (``moon_envs.moonstar.env``).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from moon_envs.core.game import CHANCE, TERMINAL, Game, GameSpec, State
from moon_envs.moonstar import solver
from moon_envs.moonstar.variants import (
    MAX_BID,
    MAX_MOONS_PER_STAR,
    MAX_PLANET_VALUE,
    MIN_BID,
    NUM_STARS,
    MoonstarConfig,
    RoundRules,
)

NUM_BIDS = MAX_BID - MIN_BID + 1
NO_BID_BONUS = 20
FAIL_BONUS = 10
CHALLENGE_STAKE = 25
PHASES = ("first", "menu", "planet", "moon", "roll", "auction", "favourite", "bets", "play", "over")
DIRECTION_NAMES = ("cw", "ccw", "cw x2", "ccw half")
_PHASE_INDEX = {p: i for i, p in enumerate(PHASES)}


def _multisets(k: int) -> list[tuple[int, ...]]:
    """Sorted tuples of ``k`` die faces (1..6)."""
    import itertools

    return list(itertools.combinations_with_replacement(range(1, 7), k))


def _multiset_probability(faces: tuple[int, ...]) -> float:
    """Probability that ``len(faces)`` fair dice show exactly this multiset."""
    k = len(faces)
    p = math.factorial(k) / 6.0**k
    for f in set(faces):
        p /= math.factorial(faces.count(f))
    return p


class MoonstarGame(Game):
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

    config_class = MoonstarConfig

    def __init__(self, config: MoonstarConfig | None = None, **params: Any) -> None:
        super().__init__(config, **params)

    def _make_spec(self) -> GameSpec:
        cfg: MoonstarConfig = self.config
        self.rounds: tuple[RoundRules, ...] = cfg.round_rules
        self.n = n = cfg.num_players
        self.max_moons = max(r.num_moons for r in self.rounds)
        self.max_dice = max(r.num_dice for r in self.rounds)
        self.num_dirs = max(solver.num_directions(r.movement) for r in self.rounds)
        self.any_bets = any(r.side_bets for r in self.rounds)
        self.num_stakes = len(cfg.bet_fractions) if self.any_bets else 0
        self.menu_size = len(cfg.dealer_menu)
        self.a_bid = NUM_STARS
        self.a_pass = self.a_bid + NUM_BIDS
        self.a_challenge = self.a_pass + 1
        self.a_menu = self.a_challenge + 1
        self.a_bet = self.a_menu + self.menu_size
        self.a_move = self.a_bet + 2 * self.num_stakes
        num_actions = self.a_move + self.max_moons * self.max_dice * self.num_dirs
        self.orders = [np.array([(p + k) % n for k in range(n)]) for p in range(n)]
        self.obs_len = (
            NUM_STARS * 5
            + self.max_moons * 14
            + self.max_dice * 2
            + 6
            + 2
            + 9 * n
            + 1
            + len(PHASES)
            + 10
            + self.menu_size
            + 7
        )
        per_round = (
            1
            + 6
            + max(r.num_moons for r in self.rounds)
            + NUM_BIDS
            + (NUM_BIDS + 1) * (n - 1)
            + 1  # auction
            + 1
            + n
            + max(r.num_moves for r in self.rounds)
        )
        # seat-independent part kept by the state (``board``): stars, moons, dice, then the
        # common tail; the seat-dependent part follows in the observation
        self.stars_len = NUM_STARS * 5 + self.max_moons * 14 + self.max_dice * 2 + 6
        self.t_high = self.stars_len
        self.t_passes = self.t_high + 1
        self.t_phase = self.t_passes + 1
        self.t_rules = self.t_phase + len(PHASES)
        self.t_menu = self.t_rules + 10
        self.t_round = self.t_menu + self.menu_size  # 7 scalars
        self.board_len = self.t_round + 7
        self.zero_seat_part = np.zeros(9 * n + 1, dtype=np.float32)
        self.moon_base = NUM_STARS * 5
        self.dice_base = self.moon_base + 14 * self.max_moons
        self.face_base = self.dice_base + 2 * self.max_dice
        self.rule_features = [_rule_features(r) for r in self.rounds]
        self._score_cache: dict[tuple[bytes, int], np.ndarray] = {}
        self._auction_masks: dict[tuple[int, bool], np.ndarray] = {}
        # the roll of all dice is one chance node: its outcomes are the sorted multisets of
        # faces, most likely first, with their multinomial probabilities
        self.roll_faces: dict[int, list[tuple[int, ...]]] = {}
        self.roll_outcomes: dict[int, list[tuple[int, float]]] = {}
        self._roll_index: dict[tuple[int, ...], int] = {}
        for nd in sorted({r.num_dice for r in self.rounds}):
            table = [(_multiset_probability(c), c) for c in _multisets(nd)]
            table.sort(key=lambda pc: (-pc[0], pc[1]))
            self.roll_faces[nd] = [c for _, c in table]
            self.roll_outcomes[nd] = [(i, p) for i, (p, _) in enumerate(table)]
            self._roll_index.update({c: i for i, (_, c) in enumerate(table)})
        self.move_ids = self.a_move + np.arange(
            self.max_moons * self.max_dice * self.num_dirs
        ).reshape(self.max_moons, self.max_dice, self.num_dirs)
        return GameSpec(
            name="moonstar",
            num_players=n,
            num_actions=num_actions,
            observation_shape=(self.obs_len,),
            max_game_length=per_round * cfg.max_rounds,
            has_chance=True,
            hidden_information=self.any_bets,
            max_chance_outcomes=max(NUM_STARS, n, max(len(v) for v in self.roll_outcomes.values())),
            observation_low=-1.0,
            observation_high=1.0,
        )

    # ---- action ids -------------------------------------------------------------------
    def bid_action(self, bid: int) -> int:
        """Action id of a bid (2..70)."""
        return self.a_bid + bid - MIN_BID

    def bet_action(self, failed: bool, stake: int) -> int:
        """Action id of a side bet: stake index ``stake`` on "failed" (True) or "made"."""
        return self.a_bet + (self.num_stakes if failed else 0) + stake

    def move_action(self, moon: int, die: int, direction: int) -> int:
        """Action id of "move moon ``moon`` with die ``die`` in ``direction``"."""
        return self.a_move + (moon * self.max_dice + die) * self.num_dirs + direction

    def auction_mask(self, high_bid: int, challenge: bool) -> np.ndarray:
        """The auction's mask (read-only, shared): bids above ``high_bid``, pass, and the
        challenge if allowed."""
        key = (high_bid, challenge)
        mask = self._auction_masks.get(key)
        if mask is None:
            mask = np.zeros(self.spec.num_actions, dtype=np.int8)
            mask[self.bid_action(max(MIN_BID, high_bid + 1)) : self.a_pass] = 1
            mask[self.a_pass] = 1
            if challenge:
                mask[self.a_challenge] = 1
            mask.flags.writeable = False
            self._auction_masks[key] = mask
        return mask

    def roll_outcome(self, faces: list[int] | tuple[int, ...]) -> int:
        """The chance outcome of the roll showing ``faces`` (any order)."""
        return self._roll_index[tuple(sorted(int(f) for f in faces))]

    def decode_move(self, action: int) -> tuple[int, int, int]:
        """(moon, die, direction) of a move action."""
        x = action - self.a_move
        md, k = divmod(x, self.num_dirs)
        m, d = divmod(md, self.max_dice)
        return m, d, k


def _rule_features(r: RoundRules) -> np.ndarray:
    v = np.zeros(10, dtype=np.float32)
    v[("planets", "squares", "chains").index(r.scoring)] = 1.0
    v[3] = r.movement == "double_half"
    v[4] = r.favourite_star
    v[5] = r.challenges
    v[6] = r.side_bets
    v[7] = r.num_moons / 15.0
    v[8] = r.num_dice / 11.0
    v[9] = (r.move_budget or 0) / 15.0
    return v


class MoonstarState(State):
    """A Moonstar position. Public fields (read-only for users):

    ``phase`` (one of ``PHASES``), ``organizer``, ``rules_idx`` (index in
    ``game.rounds``), ``round_no``, ``excluded`` (seat barred from this round's auction or
    -1), ``planet_value[star]`` (0: none), ``red_star``, ``moon_star[m]`` (-1: not on the
    board), ``moon_moved[m]``, ``dice[d]`` (0: absent), ``die_used[d]``, ``high_bid``,
    ``bidder``, ``challengers[seat]``, ``bet_side[seat]`` (-1 none yet, 0 made, 1 failed),
    ``bet_stake[seat]``, ``round_total`` (the player of the round's points so far),
    ``points[seat]``, ``best_total`` (solver optimum of the round, -1 unknown).

    Derived fields kept up to date move by move (checked against a from-scratch
    computation in the tests): ``board`` (the seat-independent part of the observation,
    see :meth:`board_features`), ``play_block`` (the move part of the mask, see
    :meth:`build_play_block`), ``moons_on_star`` (during setup) and ``to_act``.
    """

    game: MoonstarGame

    def __init__(self, game: MoonstarGame) -> None:
        super().__init__(game)
        cfg = game.config
        n = game.n
        self.points = np.zeros(n, dtype=np.int64)
        self.organizer = 0
        self.rules_idx = 0
        self.round_no = 0
        self.excluded = -1
        self.pending_excluded = -1
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

    def _next_eligible(self, seat: int) -> int:
        n = self.game.n
        for k in range(1, n + 1):
            q = (seat + k) % n
            if q != self.excluded:
                return q
        return seat  # pragma: no cover - at most one seat is excluded

    def _set_phase(self, phase: str) -> None:
        b = self.board
        g = self.game
        old = getattr(self, "phase", None)
        if old is not None:
            b[g.t_phase + _PHASE_INDEX[old]] = 0.0
        b[g.t_phase + _PHASE_INDEX[phase]] = 1.0
        self.phase = phase
        if phase == "planet" or phase == "moon":
            b[g.t_round + 4] = (self.rules.num_moons - self.moons_placed) / 15.0
        else:
            b[g.t_round + 4] = 0.0
        if phase == "menu" and g.menu_size:
            b[g.t_menu : g.t_menu + g.menu_size] = 0.0
            b[g.t_rules : g.t_rules + 10] = g.rule_features[self.rules_idx]

    # ---- round flow --------------------------------------------------------------------
    def _start_round(self) -> None:
        self.round_no += 1
        self.board[self.game.t_round + 6] = min(1.0, self.round_no / self.game.config.max_rounds)
        self.excluded = self.pending_excluded
        self.pending_excluded = -1
        self.rules_idx = 0
        if self.game.menu_size:
            self._set_phase("menu")
        else:
            self._begin_setup()

    def _begin_setup(self) -> None:
        r = self.rules
        self.planet_value[:] = 0
        self.planets_to_place = sorted(r.planets, reverse=True)
        self.red_star = -1
        self.moon_star[:] = -1
        self.moon_moved[:] = False
        self.moons_placed = 0
        self.dice[:] = 0
        self.die_used[:] = False
        self.high_bid, self.bidder, self.passes = 0, -1, 0
        self.challengers[:] = False
        self.bet_side[:] = -1
        self.bet_idx[:] = 0
        self.bet_stake[:] = 0
        self.bet_turn = -1
        self.moves_done = 0
        self.round_total = 0
        self.chain_star, self.chain_len = -1, 0
        self.landed[:] = 0
        self.best_total = -1
        g = self.game
        b = self.board
        b[: g.stars_len] = 0.0
        b[g.t_high] = b[g.t_passes] = 0.0
        b[g.t_rules : g.t_rules + 10] = g.rule_features[self.rules_idx]
        if g.menu_size:
            b[g.t_menu : g.t_menu + g.menu_size] = 0.0
            b[g.t_menu + self.rules_idx] = 1.0
        b[g.t_round : g.t_round + 3] = 0.0
        b[g.t_round + 3] = (
            self.planets_to_place[0] / MAX_PLANET_VALUE if self.planets_to_place else 0.0
        )
        self.moons_on_star[:] = 0
        self._set_phase("planet" if self.planets_to_place else "moon")

    def _place_planet(self, star: int) -> None:
        self.planet_value[star] = self.planets_to_place.pop(0)
        self.board[star * 5] = self.planet_value[star] / MAX_PLANET_VALUE
        nxt = self.planets_to_place[0] / MAX_PLANET_VALUE if self.planets_to_place else 0.0
        self.board[self.game.t_round + 3] = nxt
        self.last_action = f"planet {self.planet_value[star]} on star {star}"
        if not self.planets_to_place:
            self._set_phase("moon")

    def _place_moon(self, star: int) -> None:
        m = self.moons_placed
        self.moon_star[m] = star
        self.moons_on_star[star] += 1
        b = self.board
        b[star * 5 + 2] += 1.0 / 15.0
        row = self.game.moon_base + 14 * m
        b[row + star] = 1.0
        b[row + 13] = 1.0
        b[self.game.t_round + 4] = (self.rules.num_moons - m - 1) / 15.0
        self.last_action = f"moon {self.moons_placed} on star {star}"
        self.moons_placed += 1
        if self.moons_placed == self.rules.num_moons:
            self._set_phase("roll")

    def _roll(self, outcome: int) -> None:
        nd = self.rules.num_dice
        faces = self.game.roll_faces[nd][outcome]
        self.dice[:nd] = faces
        self.last_action = "dice: " + " ".join(map(str, faces))
        g = self.game
        b = self.board
        b[g.dice_base : g.dice_base + g.max_dice] = self.dice / 6.0
        b[g.dice_base + g.max_dice : g.dice_base + g.max_dice + nd] = 1.0
        b[g.face_base : g.face_base + 6] = np.bincount(self.dice[:nd] - 1, minlength=6) / g.max_dice
        self._set_phase("auction")
        self.to_move = self._next_eligible(self.organizer)

    def situation(self, choose_red: bool | None = None) -> solver.Situation:
        """The current play situation for :mod:`moon_envs.moonstar.solver` (unmoved moons and
        free dice; moon and die indices of a plan index these lists, see ``situation_index``)."""
        moons, dice = self.situation_index()
        r = self.rules
        if choose_red is None:
            choose_red = r.favourite_star and self.red_star < 0
        stars, faces = self.moon_star.tolist(), self.dice.tolist()
        return solver.Situation(
            moon_stars=tuple(stars[m] for m in moons),
            dice=tuple(faces[d] for d in dice),
            star_values=tuple(self.planet_value.tolist()),
            scoring=r.scoring,
            movement=r.movement,
            red_star=self.red_star if self.red_star >= 0 else None,
            choose_red=choose_red,
            max_moves=r.num_moves - self.moves_done,
            landed=tuple(self.landed.tolist()),
            chain_star=self.chain_star,
            chain_len=self.chain_len,
        )

    def situation_index(self) -> tuple[list[int], list[int]]:
        """(moon ids, die ids) of the unmoved moons on the board and the free dice."""
        stars, moved = self.moon_star.tolist(), self.moon_moved.tolist()
        faces, used = self.dice.tolist(), self.die_used.tolist()
        moons = [m for m, s in enumerate(stars) if s >= 0 and not moved[m]]
        dice = [d for d, f in enumerate(faces) if f and not used[d]]
        return moons, dice

    def _begin_play(self) -> None:
        self._set_phase("play")
        self.play_block = self.build_play_block()

    def build_play_block(self) -> np.ndarray:
        """The move part of the mask as an (moons, dice, directions) int8 block, from scratch
        (kept up to date move by move in ``play_block``): every unmoved moon with the first
        free die of each face (equal dice are interchangeable) in each allowed direction."""
        g = self.game
        block = np.zeros((g.max_moons, g.max_dice, g.num_dirs), dtype=np.int8)
        firsts: dict[int, int] = {}
        used = self.die_used.tolist()
        for d, face in enumerate(self.dice.tolist()):
            if face and not used[d] and face not in firsts:
                firsts[face] = d
        moons = np.flatnonzero((self.moon_star >= 0) & ~self.moon_moved)
        nd = solver.num_directions(self.rules.movement)
        block[moons[:, None], list(firsts.values()), :nd] = 1
        return block

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

    def _move(self, action: int) -> None:
        g = self.game
        m, d, k = g.decode_move(action)
        face = int(self.dice[d])
        s0 = int(self.moon_star[m])
        t = (s0 + solver.displacement(face, k)) % NUM_STARS
        self.moon_star[m] = t
        b = self.board
        b[s0 * 5 + 2] -= 1.0 / 15.0
        b[t * 5 + 3] += 1.0 / 15.0
        row = g.moon_base + 14 * m
        b[row + s0] = 0.0
        b[row + t] = 1.0
        b[row + 12] = 1.0
        b[g.dice_base + g.max_dice + d] = 0.0
        b[g.face_base + face - 1] -= 1.0 / g.max_dice
        self.moon_moved[m] = True
        self.die_used[d] = True
        self.landed[t] += 1
        blk = self.play_block
        if d + 1 < g.max_dice and self.dice[d + 1] == face:  # the next die of this face
            blk[:, d + 1] = blk[:, d]  # is offered to the same moons
        blk[:, d] = 0
        blk[m] = 0
        r = self.rules
        if r.scoring == "planets":
            gained = int(self.planet_value[t]) or 1
            if t == self.red_star:
                gained *= 2
        elif r.scoring == "squares":
            gained = 2 * int(self.landed[t]) - 1
        else:
            if self.chain_star >= 0:
                b[self.chain_star * 5 + 4] = 0.0
            self.chain_len = self.chain_len + 1 if t == self.chain_star else 1
            self.chain_star = t
            b[t * 5 + 4] = 1.0
            b[g.t_round + 2] = self.chain_len / 15.0
            gained = self.chain_len
        self.round_total += gained
        self.moves_done += 1
        b[g.t_round] = math.tanh(self.round_total / 50.0)
        b[g.t_round + 1] = self.moves_done / 15.0
        self.last_action = f"moon {m} with die {face} {DIRECTION_NAMES[k]} to star {t} (+{gained})"
        if self.moves_done == r.num_moves:
            self._settle()

    def _settle(self) -> None:
        g = self.game
        n = g.n
        before = self.points.copy()
        # moons without a die (Game 3, timer) leave the board; unused dice are discarded
        b = self.board
        if self.chain_star >= 0:
            b[self.chain_star * 5 + 4] = 0.0
        stars = self.moon_star.tolist()
        moved = self.moon_moved.tolist()
        for m, s in enumerate(stars):
            if s >= 0 and not moved[m]:
                self.moon_star[m] = -1
                b[s * 5 + 2] -= 1.0 / 15.0
                row = g.moon_base + 14 * m
                b[row : row + 14] = 0.0
        used = self.die_used.tolist()
        for d, face in enumerate(self.dice.tolist()):
            if face and not used[d]:
                self.dice[d] = 0
                b[g.dice_base + d] = 0.0
                b[g.dice_base + g.max_dice + d] = 0.0
                b[g.face_base + face - 1] -= 1.0 / g.max_dice
        b, bid = self.bidder, self.high_bid
        made = self.round_total >= bid
        challenged = bool(self.challengers.any())
        if made:
            self.points[b] += bid + (CHALLENGE_STAKE if challenged else 0)
            self.points[self.challengers] -= CHALLENGE_STAKE
        else:
            if challenged:
                self.points[b] -= CHALLENGE_STAKE
            for s in range(n):
                if s != b:
                    self.points[s] += CHALLENGE_STAKE if self.challengers[s] else FAIL_BONUS
            self.pending_excluded = b
        bets = [0] * n
        if self.rules.side_bets:
            for s in range(n):
                if self.bet_stake[s] > 0:
                    won = (self.bet_side[s] == 0) == made
                    bets[s] = int(self.bet_stake[s] if won else -self.bet_stake[s])
                    self.points[s] += bets[s]
        best = self.best_total
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
            "challengers": np.flatnonzero(self.challengers).tolist(),
            "side_bets": bets,
            "score_changes": (self.points - before).tolist(),
        }
        self._end_round(rotate=True)

    def _end_round(self, rotate: bool) -> None:
        cfg = self.game.config
        if self.points.max() >= cfg.target or self.round_no >= cfg.max_rounds:
            self._set_phase("over")
            return
        if rotate:
            self.organizer = (self.organizer + 1) % self.game.n
        self._start_round()

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
            return list(self.game.roll_outcomes[self.rules.num_dice])
        if ph == "first":
            # each seat rolls four dice, ties re-rolled among the tied: by symmetry every
            # seat is equally likely to become the first organizer
            n = self.game.n
            return [(s, 1.0 / n) for s in range(n)]
        free = np.flatnonzero(self._star_mask()).tolist()
        return [(s, 1.0 / len(free)) for s in free]

    def _star_mask(self) -> np.ndarray:
        if self.phase == "planet":
            return (self.planet_value == 0).astype(np.int8)
        if self.phase == "moon":
            return self.moons_on_star < MAX_MOONS_PER_STAR
        return (self.planet_value > 0).astype(np.int8)  # favourite star

    def _legal_mask(self) -> np.ndarray:
        cached = getattr(self, "_cache_mask", None)
        if cached is not None:
            return cached.copy()
        g = self.game
        ph = self.phase
        if ph == "auction":
            p = self.to_move
            challenge = self.rules.challenges and self.bidder >= 0 and not self.challengers[p]
            mask = g.auction_mask(self.high_bid, bool(challenge))
            self._cache_mask = mask
            return mask.copy()
        mask = np.zeros(g.spec.num_actions, dtype=np.int8)
        if ph == "play":
            mask[g.a_move :] = self.play_block.ravel()
        elif ph == "bets":
            mask[g.a_bet : g.a_bet + g.num_stakes] = 1
            if self.bet_turn != self.bidder:
                mask[g.a_bet + g.num_stakes + 1 : g.a_bet + 2 * g.num_stakes] = 1
        elif ph == "menu":
            mask[g.a_menu : g.a_menu + g.menu_size] = 1
        else:  # planet, moon, favourite
            mask[:NUM_STARS] = self._star_mask()
        self._cache_mask = mask
        return mask.copy()

    def _is_legal(self, action: int) -> bool:
        mask = getattr(self, "_cache_mask", None)
        if mask is None:
            self._legal_mask()
            mask = self._cache_mask
        return 0 <= action < mask.shape[0] and bool(mask[action])

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
            self.board[action * 5 + 1] = 1.0
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

    def _scores(self) -> np.ndarray:
        return self.points

    def _winners(self) -> list[int]:
        return np.flatnonzero(self.points == self.points.max()).tolist()

    def info(self) -> dict[str, Any]:
        """At the end of a round: ``{"round_report": {...}}`` with the bid, the achieved and
        best totals, the regret (best - achieved) and every seat's score change."""
        return {"round_report": dict(self.report)} if self.report else {}

    def bets_visible(self, player: int, seat: int) -> bool:
        """Whether ``player`` may see ``seat``'s side bet (sealed until all have bet)."""
        return seat == player or self.phase != "bets"

    def board_features(self) -> np.ndarray:
        """The seat-independent part of the observation, computed from scratch (the state
        keeps it up to date incrementally in ``board``)."""
        g = self.game
        M, D = g.max_moons, g.max_dice
        out = np.zeros(g.board_len, dtype=np.float32)
        on = self.moon_star >= 0
        unmoved = on & ~self.moon_moved
        st = out[: NUM_STARS * 5].reshape(NUM_STARS, 5)
        st[:, 0] = self.planet_value / MAX_PLANET_VALUE
        if self.red_star >= 0:
            st[self.red_star, 1] = 1.0
        st[:, 2] = np.bincount(self.moon_star[unmoved], minlength=NUM_STARS) / 15.0
        st[:, 3] = self.landed / 15.0
        if self.phase == "play" and self.chain_star >= 0:
            st[self.chain_star, 4] = 1.0
        mo = out[g.moon_base : g.dice_base].reshape(M, 14)
        idx = np.flatnonzero(on)
        mo[idx, self.moon_star[idx]] = 1.0
        mo[:, 12] = self.moon_moved & on
        mo[:, 13] = on
        free = (self.dice > 0) & ~self.die_used
        if self.phase != "roll":
            out[g.dice_base : g.dice_base + D] = self.dice / 6.0
            out[g.dice_base + D : g.dice_base + 2 * D] = free
            if free.any():
                out[g.face_base : g.face_base + 6] = (
                    np.bincount(self.dice[free] - 1, minlength=6) / D
                )
        out[g.t_high] = self.high_bid / MAX_BID
        out[g.t_passes] = self.passes / g.n
        out[g.t_phase + _PHASE_INDEX[self.phase]] = 1.0
        out[g.t_rules : g.t_rules + 10] = g.rule_features[self.rules_idx]
        if g.menu_size and self.phase != "menu":
            out[g.t_menu + self.rules_idx] = 1.0
        r = self.rules
        i = g.t_round
        out[i] = math.tanh(self.round_total / 50.0)
        out[i + 1] = self.moves_done / 15.0
        out[i + 2] = self.chain_len / 15.0
        if self.planets_to_place:
            out[i + 3] = self.planets_to_place[0] / MAX_PLANET_VALUE
        if self.phase == "planet" or self.phase == "moon":
            out[i + 4] = (r.num_moons - self.moons_placed) / 15.0
        out[i + 5] = math.tanh(g.config.target / 200.0)
        out[i + 6] = min(1.0, self.round_no / g.config.max_rounds)
        return out

    def _score_features(self, player: int) -> np.ndarray:
        """``tanh(score / 100)`` per seat (me first) and ``tanh(lead / 50)``, memoised."""
        cache = self.game._score_cache
        key = (self.points.tobytes(), player)
        v = cache.get(key)
        if v is None:
            n = self.game.n
            pts = self.points.tolist()
            v = np.empty(n + 1, dtype=np.float32)
            best_other = max(pts[s] for s in range(n) if s != player)
            for s in range(n):
                v[(s - player) % n] = math.tanh(pts[s] / 100.0)
            v[n] = math.tanh((pts[player] - best_other) / 50.0)
            if len(cache) > 20_000:
                cache.clear()
            cache[key] = v
        return v

    def _observation(self, player: int) -> np.ndarray:
        g = self.game
        n = g.n
        out = np.concatenate((self.board, g.zero_seat_part))
        i = g.board_len
        if self.bidder >= 0:
            out[i + (self.bidder - player) % n] = 1.0
            if self.rules.challenges:
                out[i + n : i + 2 * n] = self.challengers[g.orders[player]]
        if self.excluded >= 0:
            out[i + 2 * n + (self.excluded - player) % n] = 1.0
        out[i + 3 * n + (self.organizer - player) % n] = 1.0
        cp = self.to_act
        if cp >= 0:
            out[i + 4 * n + (cp - player) % n] = 1.0
        i += 5 * n
        if g.any_bets and (self.phase == "bets" or self.phase == "play"):
            sealed = self.phase == "bets"
            for s in range(n):
                if self.bet_side[s] >= 0 and (not sealed or s == player):
                    k = (s - player) % n
                    out[i + k] = 1.0 - self.bet_side[s]
                    out[i + n + k] = float(self.bet_side[s])
                    out[i + 2 * n + k] = self.bet_idx[s] / max(1, g.num_stakes - 1)
        i += 3 * n
        out[i : i + n + 1] = self._score_features(player)
        return out

    def _global_state(self) -> np.ndarray:
        """Seat 0's observation with every sealed side bet shown, then who is to move."""
        g = self.game
        n = g.n
        obs = self._observation(0)
        if g.any_bets and self.phase == "bets":
            i = g.board_len + 5 * n
            for s in range(n):
                if self.bet_side[s] >= 0:
                    obs[i + s] = 1.0 - self.bet_side[s]
                    obs[i + n + s] = float(self.bet_side[s])
                    obs[i + 2 * n + s] = self.bet_idx[s] / max(1, g.num_stakes - 1)
        out = np.zeros(g.spec.global_state_shape, dtype=np.float32)
        out[: obs.shape[0]] = obs
        player = self._current_player()
        if player >= 0:
            out[obs.shape[0] + player] = 1.0
        elif player == TERMINAL:
            out[obs.shape[0] + n] = 1.0
        return out

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
            side = 0 if s == self.bidder else int(rng.integers(2))
            k = int(rng.integers(g.num_stakes if side == 0 else g.num_stakes - 1)) + side
            st.bet_side[s] = side
            st.bet_idx[s] = k
            st.bet_stake[s] = math.floor(fr[k] * max(0, int(self.points[s])) + 1e-9)
        st._cache_mask = None
        return st

    # ---- serialisation (drop caches) -------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        d = super().to_dict()
        d["state"].pop("_cache_mask", None)
        return d

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
            return f"moon {m} with die {d} ({face}) {DIRECTION_NAMES[k]}"
        raise ValueError(f"action {a} is out of range 0..{g.spec.num_actions - 1}")

    def action_to_public_string(self, action: int, observer: int) -> str:
        """A side bet (Game 11) is sealed: another player learns only that a bet was made."""
        g = self.game
        if g.a_bet <= int(action) < g.a_move and observer != self._current_player():
            return "a sealed side bet"
        return self.action_to_string(action)

    def __str__(self) -> str:
        g = self.game
        r = self.rules
        lines = [
            (
                f"Moonstar round {self.round_no} ({self.phase}), "
                f"organizer player_{self.organizer}, "
                f"scoring {r.scoring}, movement {r.movement}, target {g.config.target}"
            )
        ]
        for s in range(NUM_STARS):
            planet = f"P{int(self.planet_value[s]):<2}" if self.planet_value[s] else "   "
            red = "R" if s == self.red_star else " "
            moons = [
                str(m)
                for m in range(g.max_moons)
                if self.moon_star[m] == s and not self.moon_moved[m]
            ]
            moved = [
                str(m) for m in range(g.max_moons) if self.moon_star[m] == s and self.moon_moved[m]
            ]
            lines.append(
                f"  star {s:>2} {planet}{red} moons [{' '.join(moons)}]"
                + (f" moved [{' '.join(moved)}]" if moved else "")
            )
        dice = [
            f"{int(self.dice[d])}" + ("*" if self.die_used[d] else "")
            for d in range(g.max_dice)
            if self.dice[d] > 0
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
        cp = self._current_player()
        for s in range(g.n):
            mark = "*" if cp == s else " "
            ex = " (excluded)" if s == self.excluded else ""
            lines.append(f"{mark} player_{s}: {int(self.points[s])}{ex}")
        if self.phase == "over":
            lines.append(
                "game over, winner(s): " + ", ".join(f"player_{w}" for w in self._winners())
            )
        if self.last_action:
            lines.append(f"last: {self.last_action}")
        return "\n".join(lines)


MoonstarGame.state_class = MoonstarState
