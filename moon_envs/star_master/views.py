"""Star Master rules, the views of a position: observations, infos, move names, text.

What each seat may know: the observation and the full-information state (written here at
the offsets of :class:`~moon_envs.star_master.observation.ObservationLayout`; the layout
is documented in ``env.py``), the public facts of ``info`` and the seat's own
``info_for``, the names of the moves (a race choice stays sealed to the other seats) and
the text views (:mod:`moon_envs.star_master.text`).

A part of :class:`~moon_envs.star_master.state.StarMasterState`, which combines this
class with the course of a turn; both build on
:class:`~moon_envs.star_master.position.StarMasterPosition`, where the fields it reads
are documented.
"""

from __future__ import annotations

import numpy as np

from moon_envs.star_master.phases import NOT_CHOSEN, RACE
from moon_envs.star_master.position import StarMasterPosition
from moon_envs.star_master.text import action_name, text_view

# phase -> its entry of the phase one-hot (name, flip, swap, race), -1 for the others
_PHASE_SLOT = (-1, -1, -1, 0, 1, 2, 3, -1, -1)
FLOAT32, INT64, INT8 = np.dtype(np.float32), np.dtype(np.int64), np.dtype(np.int8)


class Views(StarMasterPosition):
    """Observations, infos, move names and text views of a position."""

    # ---- views ----------------------------------------------------------------------------
    def _observation(self, player: int) -> np.ndarray:
        """Seat ``player``'s observation (see the env's documentation for the layout)."""
        L = self.game.layout
        k, n = L.k, L.n
        o = np.zeros(L.size, dtype=FLOAT32)
        views = self._views
        first = 3 * k * player  # the seat's window map, permutation and memory, flat
        o[L.board + np.ndarray((3 * k,), INT64, views, 8 * first)] = 1.0
        # the seat's pawns first, then clockwise
        o.put(L.pawn_slots[player], np.ndarray((n * k,), INT8, self._pawns))
        one = memoryview(o)  # the single entries below: cheaper written through a memoryview
        white = self.white
        if white >= 0:
            one[L.white + min(white, k)] = 1.0  # the star (9) is the block's last entry
            if self.black_star:
                one[L.black] = 1.0
        slot = _PHASE_SLOT[self.phase]
        if slot >= 0:
            one[L.phase + slot] = 1.0
        sought = self.target
        if sought >= 0:
            one[L.target + sought] = 1.0
        else:
            sought = white
        if self.found_slot >= 0:
            one[L.found + self.found_slot] = 1.0
        if 0 <= sought < k:
            # the one slot holding the sought colour, if the window or the memory shows it
            # (both always agree with the layout where they know)
            where = self._layout.index(sought)
            if views[first + where] >= 0 or views[first + 2 * k + where] >= 0:
                one[L.match + where] = 1.0
        one[L.roller + (self.roller - player) % n] = 1.0
        one[L.turn] = self.turn / self.game.turn_cap
        return o

    def _global_state(self) -> np.ndarray:
        """Everything: the true layout, every seat's pawns, memory, window and sealed race
        choice, the dice, the phase and the player to move."""
        L = self.game.layout
        n = L.n
        g = np.zeros(L.global_size, dtype=np.float32)
        g[L.g_layout + self.layout] = 1.0
        g[L.g_pawns : L.g_white] = self.pawns.ravel()
        if self.white >= 0:
            g[L.g_white + min(self.white, L.k)] = 1.0
        g[L.g_black] = self.black_star
        g[L.g_phase + self.phase] = 1.0
        if self.target >= 0:
            g[L.g_target + self.target] = 1.0
        if self.found_slot >= 0:
            g[L.g_found + self.found_slot] = 1.0
        g[L.g_race + np.arange(n) * L.race_block + self.race_choice + 2] = 1.0
        g[L.g_mem + L.g_seat_slots + self.memory] = 1.0
        g[L.g_win + L.g_seat_slots + self.win_map] = 1.0
        g[L.g_perm + L.g_seat_perm + self.win_perm] = 1.0
        player = self.current_player()
        g[L.g_move + (player if player >= 0 else n)] = 1.0 if player != -1 else 0.0
        g[L.g_turn] = self.turn / self.game.turn_cap
        return g

    def info(self) -> dict:
        """The spectator's public facts: turn, roller, dice, the last flip and the last
        race's revealed choices (only once every seat has chosen). A seat's info in the env
        is :meth:`info_for`, which shows those two events only while they lie in the seat's
        window."""
        return self._info(self._last_flip[0] >= 0, self._last_race[0] != NOT_CHOSEN)

    def info_for(self, player: int) -> dict:
        """Seat ``player``'s info: as :meth:`info`, but ``last_flip`` and ``last_race`` are
        ``None`` once ``player`` has decided since they happened, exactly as its window of
        recent events forgets them (in every ``memory`` mode)."""
        window = self._in_window
        return self._info(window[2 * player], window[2 * player + 1])

    def _info(self, flip: object, race: object) -> dict:
        last_flip = None
        if flip:  # in a window only once a flip happened
            seat, slot, colour, found = self._last_flip
            last_flip = {"seat": seat, "slot": slot, "colour": colour, "found": bool(found)}
        return {
            "turn": self.turn,
            "roller": self.roller,
            "white": self.white,
            "black_star": self.black_star,
            "last_flip": last_flip,
            "last_race": self._last_race.tolist() if race else None,
        }

    def action_to_string(self, action: int) -> str:
        return action_name(self, int(action))

    def action_to_public_string(self, action: int, observer: int) -> str:
        """A race choice is sealed: other seats only learn that a choice was made."""
        seat = self._current_player()
        if self.phase == RACE and observer != seat:
            return f"player_{seat} makes a sealed race choice"
        return self.action_to_string(action)

    def to_string(self, player: int | None = None) -> str:
        if player is not None and not 0 <= player < self.game.spec.num_players:
            raise ValueError(f"player must be in 0..{self.game.spec.num_players - 1}, got {player}")
        return text_view(self, player)

    def __str__(self) -> str:
        return self.to_string(None)
