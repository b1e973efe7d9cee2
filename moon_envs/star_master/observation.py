"""Layout of Star Master's observation and global-state vectors (documented in ``env.py``).

Every offset is precomputed per player count and colour count in :class:`ObservationLayout`,
so encoding a seat's view (:class:`~moon_envs.star_master.views.Views`) is a handful of
numpy writes, and an agent can read the blocks back by the same offsets.
"""

from __future__ import annotations

import numpy as np

from moon_envs.star_master.config import NUM_COLOURS

CH = NUM_COLOURS + 1  # colour channels per slot with the default 9 colours (``layout.ch``)


def fresh_window(k: int) -> np.ndarray:
    """A window right after a decision (``k`` slots): nothing shown, the identity."""
    return np.stack([np.full(k, -1), np.arange(k)]).astype(np.int64)


class ObservationLayout:
    """Offsets of every block of the observation and of the global state for ``n`` seats
    and ``k`` colours (so ``k`` slots; default 9)."""

    def __init__(self, n: int, k: int = NUM_COLOURS) -> None:
        self.n, self.k = n, k
        self.ch = ch = k + 1  # colour channels per slot: unknown, then the k colours
        slots = np.arange(k)
        self.identity = slots.astype(np.int64)  # the window permutation after a decision
        self.fresh_window = fresh_window(k)
        self.win = slots * ch + 1  # + colour (-1 = unknown -> channel 0)
        self.perm = ch * k + slots * k
        self.mem = self.perm[0] + k * k + slots * ch + 1
        self.board = np.concatenate([self.win, self.perm, self.mem])  # + views[p].ravel()
        self.pawns = int(self.mem[0] - 1 + k * ch)
        # per observer p: where each entry of pawns.ravel() goes (its seat rotated so that
        # p comes first, then clockwise)
        rotated = (np.arange(n)[None, :] - np.arange(n)[:, None]) % n  # [p, seat]
        self.pawn_slots = [self.pawns + (rotated[p, :, None] * k + slots).ravel() for p in range(n)]
        self.white = self.pawns + k * n  # k colours, then the star
        self.black = self.white + k + 1
        self.phase = self.black + 1
        self.target = self.phase + 4
        self.found = self.target + k
        self.match = self.found + k
        self.roller = self.match + k
        self.turn = self.roller + n
        self.size = self.turn + 1
        self.order = [np.array([(p + q) % n for q in range(n)]) for p in range(n)]
        # global state
        self.g_layout = slots * ch + 1
        self.g_pawns = k * ch
        self.g_white = self.g_pawns + k * n
        self.g_black = self.g_white + k + 1
        self.g_phase = self.g_black + 1
        self.g_target = self.g_phase + 9
        self.g_found = self.g_target + k
        self.race_block = k + 2  # per seat: not chosen, abstain, the k slots
        self.g_race = self.g_found + k  # n blocks of k + 2
        self.g_mem = self.g_race + self.race_block * n  # n blocks of k x (k + 1)
        self.g_win = self.g_mem + n * k * ch
        self.g_perm = self.g_win + n * k * ch  # n blocks of k x k
        self.g_turn = self.g_perm + n * k * k
        self.g_move = self.g_turn + 1  # n seats + terminal, last (as in the default layout)
        self.global_size = self.g_move + n + 1
        seat_slots = (np.arange(n)[:, None] * k + slots[None, :]) * ch + 1
        self.g_seat_slots = seat_slots
        self.g_seat_perm = (np.arange(n)[:, None] * k + slots[None, :]) * k
