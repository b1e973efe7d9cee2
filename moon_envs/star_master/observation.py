"""Observation and global-state vectors of Star Master (layouts documented in ``env.py``).

Everything is precomputed per player count and colour count in :class:`ObservationLayout`,
so encoding a seat's view is a handful of numpy writes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from moon_envs.star_master.config import NUM_COLOURS

if TYPE_CHECKING:
    from moon_envs.star_master.rules import StarMasterState

# phase -> its entry of the phase one-hot (name, flip, swap, race), -1 for the others
_PHASE_SLOT = (-1, -1, -1, 0, 1, 2, 3, -1, -1)
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


def encode(state: StarMasterState, p: int) -> np.ndarray:
    """Seat ``p``'s observation (see the env's documentation for the layout)."""
    L = state.game.layout
    o = np.zeros(L.size, dtype=np.float32)
    views = state.views[p]
    o[L.board + views.ravel()] = 1.0
    pawns = state.pawns
    if p:  # p's pawns first, then clockwise
        split = L.pawns + L.k * (L.n - p)
        o[L.pawns : split] = pawns[p:].ravel()
        o[split : L.white] = pawns[:p].ravel()
    else:
        o[L.pawns : L.white] = pawns.ravel()
    white = state.white
    if white >= 0:
        o[L.white + min(white, L.k)] = 1.0  # the star (9) is the block's last entry
        if state.black_star:
            o[L.black] = 1.0
    slot = _PHASE_SLOT[state.phase]
    if slot >= 0:
        o[L.phase + slot] = 1.0
    sought = state.target
    if sought >= 0:
        o[L.target + sought] = 1.0
    else:
        sought = white
    if state.found_slot >= 0:
        o[L.found + state.found_slot] = 1.0
    if 0 <= sought < L.k:
        # the one slot holding the sought colour, if the window or the memory shows it
        # (both always agree with the layout where they know)
        where = state.layout.tolist().index(sought)
        if views[0, where] >= 0 or views[2, where] >= 0:
            o[L.match + where] = 1.0
    o[L.roller + (state.roller - p) % L.n] = 1.0
    o[L.turn] = state.turn / state.game.turn_cap
    return o


def encode_global(state: StarMasterState) -> np.ndarray:
    """Everything: the true layout, every seat's pawns, memory, window and sealed race
    choice, the dice, the phase and the player to move."""
    L = state.game.layout
    n = L.n
    g = np.zeros(L.global_size, dtype=np.float32)
    g[L.g_layout + state.layout] = 1.0
    g[L.g_pawns : L.g_white] = state.pawns.ravel()
    if state.white >= 0:
        g[L.g_white + min(state.white, L.k)] = 1.0
    g[L.g_black] = state.black_star
    g[L.g_phase + state.phase] = 1.0
    if state.target >= 0:
        g[L.g_target + state.target] = 1.0
    if state.found_slot >= 0:
        g[L.g_found + state.found_slot] = 1.0
    g[L.g_race + np.arange(n) * L.race_block + state.race_choice + 2] = 1.0
    g[L.g_mem + L.g_seat_slots + state.memory] = 1.0
    g[L.g_win + L.g_seat_slots + state.win_map] = 1.0
    g[L.g_perm + L.g_seat_perm + state.win_perm] = 1.0
    player = state.current_player()
    g[L.g_move + (player if player >= 0 else n)] = 1.0 if player != -1 else 0.0
    g[L.g_turn] = state.turn / state.game.turn_cap
    return g
