"""Moonstar's immutable rules tables: the action ids, the observation offsets, the roll.

:class:`MoonstarLayout` is the part of :class:`~moon_envs.moonstar.rules.MoonstarGame`
that the position reads: the sizes of the round (most moons, dice, directions, stakes),
the action ids and their encoding (documented on ``MoonstarGame``), the offsets of the
observation's parts, the rule features of each round, and the roll's chance outcomes
(the sorted multisets of faces with their probabilities). The phase modules of the state
type their ``game`` against it; ``MoonstarGame`` adds the state class.
"""

from __future__ import annotations

import math
from array import array

import numpy as np

from moon_envs.core.game import Game, GameSpec
from moon_envs.moonstar import solver
from moon_envs.moonstar.constants import (
    NUM_BIDS,
    OPTIMUM_FEATURES,
    PHASES,
)
from moon_envs.moonstar.variants import MIN_BID, NUM_STARS, MoonstarConfig, RoundRules


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


class MoonstarLayout(Game):
    """Moonstar's rules tables, computed once from the config: the action ids (encoding on
    :class:`~moon_envs.moonstar.rules.MoonstarGame`), the observation offsets, the rule
    features and the roll's chance outcomes."""

    config_class = MoonstarConfig
    config: MoonstarConfig

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
        # who passed since the last bid, seen only when chance draws the speakers
        self.passed_len = n if cfg.auction_order == "random" else 0
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
            + self.passed_len
            + OPTIMUM_FEATURES * cfg.round_optimum
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
        # the seat-dependent part of the observation, all zeros (float32, a Python array)
        self.zero_seat_part = array(
            "f", bytes(4 * (9 * n + 1 + self.passed_len + OPTIMUM_FEATURES * cfg.round_optimum))
        )
        self.moon_base = NUM_STARS * 5
        self.dice_base = self.moon_base + 14 * self.max_moons
        self.face_base = self.dice_base + 2 * self.max_dice
        self.rule_features = [_rule_features(r) for r in self.rounds]
        self.rule_feature_arrays = [array("f", v.tobytes()) for v in self.rule_features]
        self._score_cache: dict[tuple[bytes, int], array] = {}
        self._auction_masks: dict[tuple[int, bool], bytes] = {}
        # the state's Python arrays hold float32 board entries: a step added to or taken
        # from one is rounded to float32 first, so that the sum is numpy's float32 sum
        self.die_share = float(np.float32(1.0 / self.max_dice))  # a face's count / max dice
        # zero runs for the Python arrays and the byte masks
        self.no_moons = array("b", bytes(self.max_moons))
        self.no_moves = array("b", bytes(self.max_dice * self.num_dirs))
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
        # the byte masks' zero runs: every action before the moves, every one after the stars
        self.no_actions_before_moves = bytes(self.a_move)
        self.no_actions_after_stars = bytes(num_actions - NUM_STARS)
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

    def auction_mask(self, high_bid: int, challenge: bool) -> bytes:
        """The auction's mask, one byte per action (shared): bids above ``high_bid``,
        pass, and the challenge if allowed."""
        key = (high_bid, challenge)
        mask = self._auction_masks.get(key)
        if mask is None:
            m = bytearray(self.spec.num_actions)
            low = self.bid_action(max(MIN_BID, high_bid + 1))
            m[low : self.a_pass + 1] = b"\1" * (self.a_pass + 1 - low)  # the bids, pass
            if challenge:
                m[self.a_challenge] = 1
            mask = self._auction_masks[key] = bytes(m)
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
    v[3] = {"exact": 0.0, "double_half": 1.0, "double_double": 0.5}[r.movement]
    v[4] = r.favourite_star
    v[5] = r.challenges
    v[6] = r.side_bets
    v[7] = r.num_moons / 15.0
    v[8] = r.num_dice / 11.0
    v[9] = (r.move_budget or 0) / 15.0
    return v
