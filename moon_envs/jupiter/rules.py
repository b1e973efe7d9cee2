"""Jupiter rules engine (RULES.md §4; Reiner Knizia, Spielbox 1993).

Board: 4 rows × 4/5/6 columns for 2/3/4 players (6 columns with ``expanding_universe``).
Cells are numbered row-major: ``cell = row * cols + col``.

Actions (one flat space of ``2 * cells + 1``):

* ``0 .. cells-1``            place one of your probes on ``cell``;
* ``cells .. 2*cells-1``      put the die you just rolled on ``cell - cells``;
* ``2*cells``                 take a die and roll it (then a chance node draws 1..6).

A player with no probes must roll; with no dice left must place; with neither is skipped
[HOUSE]. The game ends when every cell is occupied or (expanding universe) when every
probe and die has been used.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from moon_envs.core.game import (
    CHANCE,
    TERMINAL,
    Game,
    GameSpec,
    State,
    check_bool,
    check_int,
)

ROWS = 4
COLS_BY_PLAYERS = {2: 4, 3: 5, 4: 6}
FULL_COLS = 6
NUM_FACES = 6

# stages
_START, _MOVE, _ROLLING, _ROLLED, _OVER = "start", "move", "rolling", "rolled", "over"


@dataclass(frozen=True)
class JupiterConfig:
    """Parameters of Jupiter.

    Attributes:
        num_players: 2, 3 or 4.
        black_moons: variant 1, dice showing 3 or 4 count negative; a score never goes
            below 0 (clamped after each placement).
        expanding_universe: variant 2, the full 6×4 board with 2 or 3 players; play until
            every probe and die is used.
        num_probes: probes per player (6 in the published game).
        num_dice: shared dice (6 in the published game).
        random_first_player: the first player is drawn at random (a chance node) as the
            rules say; ``False`` makes seat 0 start.
    """

    num_players: int = 2
    black_moons: bool = False
    expanding_universe: bool = False
    num_probes: int = 6
    num_dice: int = 6
    random_first_player: bool = True

    def __post_init__(self) -> None:
        check_int("num_players", self.num_players, 2, 4)
        check_bool("black_moons", self.black_moons)
        check_bool("expanding_universe", self.expanding_universe)
        check_int("num_probes", self.num_probes, 1, 12)
        check_int("num_dice", self.num_dice, 1, 12)
        check_bool("random_first_player", self.random_first_player)


class JupiterGame(Game):
    """Jupiter's immutable rules; see :class:`JupiterConfig` for the parameters."""

    config_class = JupiterConfig

    def __init__(self, config: JupiterConfig | None = None, **params) -> None:
        super().__init__(config, **params)
        cfg = self.config
        self.rows = ROWS
        self.cols = FULL_COLS if cfg.expanding_universe else COLS_BY_PLAYERS[cfg.num_players]
        self.num_cells = self.rows * self.cols
        rr, cc = np.divmod(np.arange(self.num_cells), self.cols)
        same_line = (rr[:, None] == rr[None, :]) | (cc[:, None] == cc[None, :])
        np.fill_diagonal(same_line, False)
        self.lines = same_line  # lines[c] = cells sharing a row or column with c
        # signed value of each face 0..6 (0 = no die)
        signed = np.arange(NUM_FACES + 1, dtype=np.int64)
        if cfg.black_moons:
            signed[3], signed[4] = -3, -4
        self.face_value = signed
        n = cfg.num_players
        self.num_channels = n + NUM_FACES + 1  # probe per seat, die face one-hot, empty
        self._eye = np.eye(self.num_channels, dtype=np.float32)

    def _make_spec(self) -> GameSpec:
        cfg = self.config
        cols = FULL_COLS if cfg.expanding_universe else COLS_BY_PLAYERS[cfg.num_players]
        cells = ROWS * cols
        n = cfg.num_players
        obs_len = cells * (n + NUM_FACES + 1) + n + 1 + NUM_FACES + n + 1 + 2
        return GameSpec(
            name="jupiter",
            num_players=n,
            num_actions=2 * cells + 1,
            observation_shape=(obs_len,),
            max_game_length=n * cfg.num_probes + 2 * cfg.num_dice,
            has_chance=True,
            hidden_information=False,
            max_chance_outcomes=max(NUM_FACES, n),
            observation_low=-1.0,
            observation_high=1.0,
        )

    # action ids
    @property
    def roll_action(self) -> int:
        return 2 * self.num_cells

    def probe_action(self, cell: int) -> int:
        return cell

    def die_action(self, cell: int) -> int:
        return self.num_cells + cell

    def cell_name(self, cell: int) -> str:
        r, c = divmod(cell, self.cols)
        return f"{'ABCDEF'[c]}{r + 1}"


class JupiterState(State):
    """A Jupiter position. Fields (all public, read-only for users):

    ``owner[cell]`` seat of the probe there or -1; ``die[cell]`` pips 1..6 there or 0;
    ``probes_left[seat]``; ``dice_left``; ``points[seat]`` (integer scores);
    ``player`` the seat to move; ``stage``; ``rolled`` the die waiting to be placed (0: none).
    """

    game: JupiterGame

    def __init__(self, game: JupiterGame) -> None:
        super().__init__(game)
        cfg = game.config
        n = cfg.num_players
        self.owner = np.full(game.num_cells, -1, dtype=np.int8)
        self.die = np.zeros(game.num_cells, dtype=np.int8)
        self.probes_left = np.full(n, cfg.num_probes, dtype=np.int16)
        self.dice_left = cfg.num_dice
        self.points = np.zeros(n, dtype=np.int64)
        self.player = 0
        self.rolled = 0
        self.stage = _START if cfg.random_first_player else _MOVE
        self.last_action = ""

    # ---- protocol hooks ------------------------------------------------------------------
    def _current_player(self) -> int:
        stage = self.stage
        if stage == _MOVE or stage == _ROLLED:
            return self.player
        if stage == _OVER:
            return TERMINAL
        return CHANCE

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        if self.stage == _START:
            n = self.game.config.num_players
            return [(s, 1.0 / n) for s in range(n)]
        return [(f, 1.0 / NUM_FACES) for f in range(NUM_FACES)]  # outcome f = pips f+1

    def _legal_mask(self) -> np.ndarray:
        g = self.game
        c = g.num_cells
        mask = np.zeros(2 * c + 1, dtype=np.int8)
        empty = self.owner < 0
        empty &= self.die == 0
        if self.stage == _ROLLED:
            mask[c : 2 * c] = empty
        else:
            if self.probes_left[self.player] > 0:
                mask[:c] = empty
            if self.dice_left > 0:
                mask[2 * c] = 1
        return mask

    def _apply(self, action: int) -> None:
        g = self.game
        stage = self.stage
        if stage == _START:
            self.player = action
            self.stage = _MOVE
            self.last_action = f"player_{action} starts"
            return
        if stage == _ROLLING:
            self.rolled = action + 1
            self.stage = _ROLLED
            self.last_action = f"player_{self.player} rolls a {self.rolled}"
            return
        c = g.num_cells
        p = self.player
        if action == 2 * c:  # roll
            self.dice_left -= 1
            self.stage = _ROLLING
            self.last_action = f"player_{p} takes a die"
            return
        if action < c:  # place a probe
            cell = action
            gain = int(g.face_value[self.die[g.lines[cell]]].sum())
            self.owner[cell] = p
            self.probes_left[p] -= 1
            self.points[p] += gain
            self.last_action = f"player_{p} probes {g.cell_name(cell)} (+{gain})"
        else:  # place the rolled die
            cell = action - c
            value = int(g.face_value[self.rolled])
            self.die[cell] = self.rolled
            owners = self.owner[g.lines[cell]]
            counts = np.bincount(owners[owners >= 0], minlength=g.config.num_players)
            self.points += counts * value
            self.last_action = f"player_{p} puts the {self.rolled} on {g.cell_name(cell)}"
            self.rolled = 0
        if g.config.black_moons:
            np.maximum(self.points, 0, out=self.points)
        self._next_turn()

    def _next_turn(self) -> None:
        g = self.game
        n = g.config.num_players
        self.stage = _MOVE
        if not ((self.owner < 0) & (self.die == 0)).any():
            self.stage = _OVER
            return
        for k in range(1, n + 1):
            q = (self.player + k) % n
            if self.probes_left[q] > 0 or self.dice_left > 0:
                self.player = q
                return
        self.stage = _OVER  # nobody holds a probe and no die is left

    def _scores(self) -> np.ndarray:
        return self.points.astype(np.float64)

    def _winners(self) -> list[int]:
        best = self.points.max()
        return np.flatnonzero(self.points == best).tolist()

    def _observation(self, player: int) -> np.ndarray:
        g = self.game
        n = g.config.num_players
        # channel per cell: probe of seat (player+k) -> k; die f -> n+f-1; empty -> n+6
        rel_owner = (self.owner.astype(np.int16) - player) % n
        ch = np.where(
            self.owner >= 0, rel_owner, np.where(self.die > 0, n + self.die - 1, n + NUM_FACES)
        )
        board = g._eye[ch].ravel()
        order = (np.arange(n) + player) % n
        pts = self.points[order].astype(np.float32)
        others = np.delete(pts, 0)
        lead = pts[0] - others.max()
        rolled = np.zeros(NUM_FACES, dtype=np.float32)
        if self.rolled:
            rolled[self.rolled - 1] = 1.0
        tail = np.concatenate(
            [
                self.probes_left[order] / g.config.num_probes,
                [self.dice_left / g.config.num_dice],
                rolled,
                np.tanh(pts / 50.0),
                [np.tanh(lead / 20.0)],
                [float(g.config.black_moons), float(g.config.expanding_universe)],
            ]
        ).astype(np.float32)
        return np.concatenate([board, tail])

    # ---- text --------------------------------------------------------------------------------
    def action_to_string(self, action: int) -> str:
        g = self.game
        c = g.num_cells
        a = int(action)
        if a == 2 * c:
            return "roll a die"
        if 0 <= a < c:
            return f"probe {g.cell_name(a)}"
        if c <= a < 2 * c:
            return f"die on {g.cell_name(a - c)}"
        raise ValueError(f"action {a} is out of range 0..{2 * c}")

    def __str__(self) -> str:
        g = self.game
        letters = "abcd"
        lines = ["    " + " ".join(f"{'ABCDEF'[c]:>2}" for c in range(g.cols))]
        for r in range(g.rows):
            row = []
            for c in range(g.cols):
                cell = r * g.cols + c
                if self.owner[cell] >= 0:
                    row.append(f"{letters[self.owner[cell]]:>2}")
                elif self.die[cell]:
                    row.append(f"{self.die[cell]:>2}")
                else:
                    row.append(" .")
            lines.append(f"{r + 1:>3} " + " ".join(row))
        lines.append("probes a..d = player_0..3; digits = dice")
        for s in range(g.config.num_players):
            mark = "*" if (self._current_player() == s) else " "
            lines.append(
                f"{mark} player_{s} ({letters[s]}): {int(self.points[s]):>3} points, "
                f"{int(self.probes_left[s])} probes left"
            )
        status = f"dice left: {self.dice_left}"
        if self.rolled:
            status += f"; die to place: {self.rolled}"
        if self.stage == _OVER:
            status += f"; game over, winner(s): {', '.join(f'player_{w}' for w in self._winners())}"
        lines.append(status)
        if self.last_action:
            lines.append(f"last: {self.last_action}")
        return "\n".join(lines)


JupiterGame.state_class = JupiterState
