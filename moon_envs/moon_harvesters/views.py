"""Moon Harvesters rules, the views of a position: observation, move names, text board.

A part of :class:`~moon_envs.moon_harvesters.state.HarvestersState`, which combines this
mixin with the phases of play; the fields it reads are documented there.
"""

from __future__ import annotations

import numpy as np

from moon_envs.moon_harvesters.constants import AUCTION, COLUMN_LETTERS, DEPOSITS, OVER, PHASES
from moon_envs.moon_harvesters.protocols import HarvestersTables


class Views:
    """What a seat observes, the names of the moves and the text board."""

    game: HarvestersTables

    # ---- observation ---------------------------------------------------------------------------
    def _observation(self, player: int) -> np.ndarray:
        # ``feat`` is the seat-0 view, kept up to date by each action; a gather reorders it
        return self.feat[self.game.obs_perm[player]]

    def _build_observation(self, player: int) -> np.ndarray:
        """The observation built from scratch (the reference ``feat`` must always equal)."""
        g = self.game
        cfg = g.config
        n, c, k = cfg.num_players, g.num_cells, g.num_kinds
        out = np.empty(g.spec.observation_shape[0], dtype=np.float32)
        order = g._seat_order[player]
        # planes: own harvesters, opponents in seat order after me, craters, deposits
        np.equal(self.owner[None, :], order[:, None], out=g._plane_buf)
        out[: n * c] = g._plane_buf.ravel()
        out[n * c : (n + 1) * c] = self.crater
        out[(n + 1) * c : (n + 2) * c] = self.deposit
        i = (n + 2) * c
        out[i : i + n] = 1.0 - self.placed[order] / cfg.pieces_per_kind
        i += n
        out[i] = self.supply / max(1, cfg.num_deposits)
        out[i + 1 : i + 1 + n] = self.collected[order] / max(1, cfg.num_deposits)
        i += 1 + n
        out[i : i + len(PHASES)] = 0.0
        if self.phase in PHASES:
            out[i + PHASES.index(self.phase)] = 1.0
        i += len(PHASES)
        kinds = self.kind_of[order]
        out[i : i + n * k] = g._eye_kind[np.where(kinds >= 0, kinds, k)].ravel()
        i += n * k
        out[i : i + k] = self.on_offer
        i += k
        out[i] = self.crater_pool / max(1, cfg.num_craters)
        out[i + 1 : i + 1 + n] = self.craters_held[order] / max(1, cfg.num_craters)
        out[i + 1 + n] = self.deposits_due / max(1, cfg.deposits_per_turn, cfg.first_deposits)
        return out

    # ---- text --------------------------------------------------------------------------------
    def action_to_string(self, action: int) -> str:
        g = self.game
        a = int(action)
        if 0 <= a < g.num_kinds:
            return f"take harvester kind {g.kinds[a].name}"
        if a == g.num_kinds:
            return "take a crater"
        if g.crater_base <= a < g.place_base:
            return f"crater on {g.cell_name(a - g.crater_base)}"
        if g.place_base <= a < g.deposit_base:
            slot, anchor = divmod(a - g.place_base, g.num_cells)
            return f"harvester orientation {slot} at {g.cell_name(anchor)}"
        if g.deposit_base <= a < g.spec.num_actions:
            return f"deposit on {g.cell_name(a - g.deposit_base)}"
        raise ValueError(f"action {a} is out of range 0..{g.spec.num_actions - 1}")

    def _cell_text(self, cell: int) -> str:
        owner = self._owner[cell]
        if owner >= 0:
            return "abcd"[owner]
        if self._crater[cell]:
            return "@" if self._deposit[cell] else "O"
        return "*" if self._deposit[cell] else "."

    def board_lines(self) -> list[str]:
        """The grid as text: one line per row, and under each row but the last a line of
        ``|`` joining cells of one harvester; ``-`` joins them within a row. Two harvesters
        of one player side by side stay two pieces (``a a`` and not ``a-a``)."""
        g = self.game
        cols = g.cols
        piece = self._piece
        lines = ["    " + " ".join(COLUMN_LETTERS[c] for c in range(cols))]
        for r in range(g.rows):
            row = r * cols
            text = self._cell_text(row)
            for cell in range(row + 1, row + cols):
                joined = piece[cell] >= 0 and piece[cell] == piece[cell - 1]
                text += ("-" if joined else " ") + self._cell_text(cell)
            lines.append(f"{r + 1:>3} {text}")
            if r + 1 < g.rows:
                below = (
                    "|" if piece[cell] >= 0 and piece[cell] == piece[cell + cols] else " "
                    for cell in range(row, row + cols)
                )
                lines.append(("    " + " ".join(below)).rstrip())
        return lines

    def __str__(self) -> str:
        g = self.game
        lines = self.board_lines()
        legend = "harvesters a..d = player_0..3, one harvester's cells joined by - and |"
        legend += "; O crater; * deposit"
        if not g.config.craters_block_deposits:
            legend += "; @ deposit on a crater"
        lines.append(legend)
        for s in range(g.config.num_players):
            mark = "*" if self._current_player() == s else " "
            k = self._kind_of[s]
            kind = g.kinds[k].name if k >= 0 else "-"
            held = self._craters_held[s]
            lines.append(
                f"{mark} player_{s} ({'abcd'[s]}) kind {kind}: {self._collected[s]:>2} "
                f"deposits, {self._placed[s]}/{g.config.pieces_per_kind} placed"
                + (f", {held} crater{'s' if held > 1 else ''} to place" if held else "")
            )
        status = f"phase: {self.phase}; supply: {self.supply}"
        if self.phase == AUCTION:
            offer = [g.kinds[k].name for k, on in enumerate(self._on_offer) if on]
            pool = self.crater_pool
            status += f"; on offer: {offer} and {pool} crater{'' if pool == 1 else 's'}"
        if self.phase == DEPOSITS:
            status += f"; deposits to place: {self.deposits_due}"
        if self.phase == OVER:
            status += "; " + self.result_text()
        lines.append(status)
        if self.last_action:
            lines.append(f"last: {self.last_action}")
        return "\n".join(lines)
