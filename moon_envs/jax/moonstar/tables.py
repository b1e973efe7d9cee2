"""Static tables of the Moonstar twin, computed once per parameter set from the Python game.

Everything here is plain numpy built at construction time from the Python engine's
:class:`~moon_envs.moonstar.rules.MoonstarGame` (its validated config, its round rule
sets and its action/observation layout); the jitted rules index these tables with traced
values. Nothing here is traced.

* per round rule set (Game 12's menu has up to 16; otherwise one): moon and dice counts,
  moves per round, planets in placing order, scoring, movement, Game 6/10/11 switches and
  the ten rule features of the observation;
* the roll: for each dice count used, the Python engine's outcome table (sorted multisets,
  likeliest first), their probabilities, and a lexicographic-rank table that turns a sorted
  roll back into its outcome id (to sample a roll cheaply);
* the displacement of a die face in each direction under each movement;
* Game 11's stakes ``floor(fraction * points + 1e-9)`` for every reachable score.
"""

from __future__ import annotations

import math
from math import comb

import numpy as np

from moon_envs.moonstar.constants import NUM_BIDS
from moon_envs.moonstar.situation import displacement
from moon_envs.moonstar.variants import NUM_STARS

SCORING_CODES = {"planets": 0, "squares": 1, "chains": 2}
MOVEMENT_CODES = {"exact": 0, "double_half": 1, "double_double": 2}
# phases, as in moon_envs.moonstar.constants.PHASES
FIRST, MENU, PLANET, MOON, ROLL, AUCTION, FAVOURITE, BETS, PLAY, OVER = range(10)
NUM_PHASES = 10


class MoonstarTables:
    """The static numbers of one parameter set (see the module docstring).

    Attributes mirror the Python layout (``a_bid``, ``a_move``, ``board_len``, ...) and add
    per-round arrays indexed by ``rules_idx`` and roll tables indexed by ``nd_idx[rules_idx]``.
    """

    def __init__(self, game) -> None:
        cfg = game.config
        self.cfg = cfg
        self.n = game.n
        self.M, self.D, self.K = game.max_moons, game.max_dice, game.num_dirs
        self.R = len(game.rounds)
        for name in (
            "a_bid", "a_pass", "a_challenge", "a_menu", "a_bet", "a_move", "menu_size",
            "num_stakes", "any_bets", "passed_len", "obs_len", "stars_len", "t_high",
            "t_passes", "t_phase", "t_rules", "t_menu", "t_round", "board_len",
            "moon_base", "dice_base", "face_base",
        ):  # fmt: skip
            setattr(self, name, getattr(game, name))
        self.num_actions = game.spec.num_actions
        self.num_bids = NUM_BIDS
        self.num_chance = game.spec.max_chance_outcomes
        rounds = game.rounds
        self.num_moons = np.array([r.num_moons for r in rounds], np.int32)
        self.num_dice = np.array([r.num_dice for r in rounds], np.int32)
        self.num_moves = np.array([r.num_moves for r in rounds], np.int32)
        self.num_planets = np.array([len(r.planets) for r in rounds], np.int32)
        self.planets = np.zeros((self.R, 7), np.int32)  # placing order (highest first), 0-padded
        for i, r in enumerate(rounds):
            p = sorted(r.planets, reverse=True)
            self.planets[i, : len(p)] = p
        self.scoring = np.array([SCORING_CODES[r.scoring] for r in rounds], np.int32)
        self.movement = np.array([MOVEMENT_CODES[r.movement] for r in rounds], np.int32)
        self.num_dirs = np.array([2 if r.movement == "exact" else 4 for r in rounds], np.int32)
        self.favourite = np.array([r.favourite_star for r in rounds], bool)
        self.challenges = np.array([r.challenges for r in rounds], bool)
        self.side_bets = np.array([r.side_bets for r in rounds], bool)
        self.rule_features = np.stack(game.rule_features).astype(np.float32)
        # which static switches occur at all (to leave unused rules out of the trace)
        self.uses = {
            "planets": bool((self.scoring == 0).any()),
            "squares": bool((self.scoring == 1).any()),
            "chains": bool((self.scoring == 2).any()),
            "favourite": bool(self.favourite.any()),
            "challenges": bool(self.challenges.any()),
            "side_bets": bool(self.side_bets.any()),
        }
        # displacement[movement, face, direction] (face 0 unused)
        self.displacement = np.zeros((3, 7, 4), np.int32)
        for name, code in MOVEMENT_CODES.items():
            for f in range(1, 7):
                for k in range(4):
                    self.displacement[code, f, k] = displacement(f, k, name)
        self._roll_tables(game)
        self._stake_table(cfg)

    def _roll_tables(self, game) -> None:
        """Outcome ids <-> sorted faces for every dice count of the rounds."""
        counts = sorted({int(x) for x in self.num_dice})
        self.roll_counts = counts
        self.nd_idx = np.array([counts.index(int(x)) for x in self.num_dice], np.int32)
        C, D = self.num_chance, self.D
        self.roll_faces = np.zeros((len(counts), C, D), np.int32)
        self.roll_probs = np.zeros((len(counts), C), np.float32)
        # rank_part[j, m, v]: multisets of size m with values 1..v-1 first (lex rank helper)
        self.rank_part = np.zeros((D + 1, 8), np.int32)
        for m in range(D + 1):
            for v in range(1, 8):
                self.rank_part[m, v] = sum(comb(m + 6 - u, m) for u in range(1, min(v, 7)))
        lex_max = max(comb(k + 5, k) for k in counts)
        self.lex_to_id = np.zeros((len(counts), lex_max), np.int32)
        for j, k in enumerate(counts):
            for i, faces in enumerate(game.roll_faces[k]):
                self.roll_faces[j, i, :k] = faces
                self.roll_probs[j, i] = game.roll_outcomes[k][i][1]
                self.lex_to_id[j, self.lex_rank(faces)] = i

    def lex_rank(self, faces) -> int:
        """Lexicographic rank of a sorted multiset of faces (numpy twin of the jnp code)."""
        k = len(faces)
        rank, prev = 0, 1
        for i, a in enumerate(faces):
            rank += self.rank_part[k - i - 1, a] - self.rank_part[k - i - 1, prev]
            prev = a
        return int(rank)

    def _stake_table(self, cfg) -> None:
        """stake[k, points] = floor(bet_fractions[k] * points + 1e-9), as the engine computes
        it; points at betting time are below the target (a round starts below it)."""
        fr = cfg.bet_fractions if self.any_bets else (0.0,)
        top = cfg.target + 1
        self.stakes = np.array(
            [[math.floor(f * p + 1e-9) for p in range(top)] for f in fr], np.int32
        )
        self.stake_top = top - 1


__all__ = ["NUM_STARS", "MoonstarTables"]
