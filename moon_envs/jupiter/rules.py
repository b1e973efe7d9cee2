"""Jupiter rules engine (Reiner Knizia, Spielbox 1993; rules: docs/rules.md).

Board: 4 rows × 4/5/6 columns for 2/3/4 players (6 columns with ``expanding_universe``).
Cells are numbered row-major: ``cell = row * cols + col``.

Actions (one flat space of ``2 * cells + 1``):

* ``0 .. cells-1``            place one of your probes on ``cell``;
* ``cells .. 2*cells-1``      put the die you just rolled on ``cell - cells``;
* ``2*cells``                 take a die and roll it (then a chance node draws 1..6).

A player with no probes must roll; with no dice left must place; with neither is skipped
or ends the game (``stuck_player`` [HOUSE]). The game ends when every cell is occupied or
(expanding universe) when every probe and die has been used. Ties are shared or leave no
winner (``ties`` [HOUSE]).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from moon_envs.core.game import (
    CHANCE,
    TERMINAL,
    Game,
    GameSpec,
    State,
    check_bool,
    check_choice,
    check_int,
)
from moon_envs.jupiter.snapshot import validate_state

ROWS = 4
COLS_BY_PLAYERS = {2: 4, 3: 5, 4: 6}
FULL_COLS = 6
NUM_FACES = 6
EMPTY = 0
PROBE = 7  # cell code of seat s's probe is PROBE + s

# stages
_START, _MOVE, _ROLLING, _ROLLED, _OVER = "start", "move", "rolling", "rolled", "over"
STAGES = (_START, _MOVE, _ROLLING, _ROLLED, _OVER)
"""Every value of ``JupiterState.stage``."""

STUCK_PLAYER_RULES = ("skip", "end")
"""Values of ``stuck_player``: what happens when the player due to move has neither a
probe nor a die to take."""
TIE_RULES = ("shared", "none")
"""Values of ``ties``: who wins when several players share the best score."""


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
        stuck_player: [HOUSE] the rules say nothing of a player who has no probe left when
            no die is left either. ``"skip"`` (default): that player is passed over and
            the others play on until the end condition; ``"end"``: the game ends as soon
            as the player due to move is in that case.
        ties: [HOUSE] the rules name the player furthest along the track as the winner and
            say nothing of ties. ``"shared"`` (default): every player with the best score
            wins; ``"none"``: a tie for the best score leaves no winner (every return 0).
    """

    num_players: int = 2
    black_moons: bool = False
    expanding_universe: bool = False
    num_probes: int = 6
    num_dice: int = 6
    random_first_player: bool = True
    stuck_player: str = "skip"
    ties: str = "shared"

    def __post_init__(self) -> None:
        check_int("num_players", self.num_players, 2, 4)
        check_bool("black_moons", self.black_moons)
        check_bool("expanding_universe", self.expanding_universe)
        check_int("num_probes", self.num_probes, 1, 12)
        check_int("num_dice", self.num_dice, 1, 12)
        check_bool("random_first_player", self.random_first_player)
        check_choice("stuck_player", self.stuck_player, STUCK_PLAYER_RULES)
        check_choice("ties", self.ties, TIE_RULES)


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
        self.lines = same_line  # lines[c, d]: cells c and d share a row or a column
        self.line_cells = [np.flatnonzero(row) for row in same_line]
        n = cfg.num_players
        # Cell codes (State.cell): 0 empty, 1..6 a die with that face, PROBE + s a probe of seat s.
        codes = PROBE + n
        signed = np.zeros(codes, dtype=np.int64)
        signed[1 : NUM_FACES + 1] = np.arange(1, NUM_FACES + 1)
        if cfg.black_moons:
            signed[3], signed[4] = -3, -4
        self.face_value = signed[: NUM_FACES + 1]  # signed value of faces 0..6 (0 = no die)
        self.code_value = signed  # signed die value of each cell code (0 for probes, empty)
        self.code_value_list = signed.tolist()
        self.code_owner = np.full(codes, -1, dtype=np.int8)
        self.code_owner[PROBE:] = np.arange(n)
        # observation channel of each code, per observer: probes rotated so "me" is 0
        self.num_channels = n + NUM_FACES + 1  # probe per seat, die face one-hot, empty
        lut = np.empty((n, codes), dtype=np.int64)
        for p in range(n):
            lut[p, EMPTY] = n + NUM_FACES
            lut[p, 1 : NUM_FACES + 1] = n + np.arange(NUM_FACES)
            lut[p, PROBE:] = (np.arange(n) - p) % n
        # flat index of the one-hot entry of each (observer, code, cell)
        base = np.arange(self.num_cells) * self.num_channels
        # onehot_index[p][c * codes + code]: where observer p's 1 goes for cell c holding code
        self.onehot_index = (lut[:, None, :] + base[None, :, None]).reshape(n, -1)
        self.cell_offset = np.arange(self.num_cells) * codes
        self.first_player_outcomes = [(s, 1.0 / n) for s in range(n)]
        self.face_outcomes = [(f, 1.0 / NUM_FACES) for f in range(NUM_FACES)]  # f -> pips f+1
        self.obs_len = self.spec.observation_shape[0]

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

    ``cell[c]`` what lies on cell c: 0 empty, 1..6 a die with that face, ``PROBE + s`` a probe
    of seat s (``owner`` and ``die`` give the same as per-cell arrays);
    ``probes_left[seat]``; ``dice_left``; ``points[seat]`` (integer scores);
    ``player`` the seat to move; ``stage``; ``rolled`` the die waiting to be placed (0: none).
    """

    game: JupiterGame

    def __init__(self, game: JupiterGame) -> None:
        super().__init__(game)
        cfg = game.config
        n = cfg.num_players
        self.cell = np.zeros(game.num_cells, dtype=np.int8)
        self.empty_cells = game.num_cells
        self.probes_left = np.full(n, cfg.num_probes, dtype=np.int16)
        self.dice_left = cfg.num_dice
        self.points = np.zeros(n, dtype=np.int64)
        self.player = 0
        self.rolled = 0
        self.stage = _START if cfg.random_first_player else _MOVE
        self.last_action: tuple = ()  # (kind, seat, value, cell) of the last event, for text

    def clone(self) -> JupiterState:
        """An independent copy, field by field (the same result as the generic
        :meth:`State.clone`, several times faster: search clones constantly)."""
        new = object.__new__(type(self))
        d = self.__dict__.copy()
        d["cell"] = self.cell.copy()
        d["probes_left"] = self.probes_left.copy()
        d["points"] = self.points.copy()
        for key in ("_scores_before", "_last_win_delta"):
            value = d.get(key)
            if value is not None:
                d[key] = value.copy()
        new.__dict__ = d
        return new

    def _validate(self) -> None:
        validate_state(self)

    @property
    def owner(self) -> np.ndarray:
        """Seat of the probe on each cell, -1 where there is none."""
        return self.game.code_owner[self.cell]

    @property
    def die(self) -> np.ndarray:
        """Face of the die on each cell, 0 where there is none."""
        return np.where((self.cell >= 1) & (self.cell <= NUM_FACES), self.cell, 0).astype(np.int8)

    def place(self, cell: int, seat: int | None = None, face: int | None = None) -> None:
        """Put a probe of ``seat`` or a die ``face`` on ``cell`` without scoring (for
        building positions by hand, e.g. in tests)."""
        if (seat is None) == (face is None):
            raise ValueError("give exactly one of seat or face")
        if self.cell[cell] == EMPTY:
            self.empty_cells -= 1
        self.cell[cell] = PROBE + seat if seat is not None else face

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
            return list(self.game.first_player_outcomes)
        return list(self.game.face_outcomes)  # outcome f = pips f + 1

    def _legal_mask(self) -> np.ndarray:
        g = self.game
        c = g.num_cells
        mask = np.zeros(2 * c + 1, dtype=np.int8)
        empty = self.cell == EMPTY
        if self.stage == _ROLLED:
            mask[c : 2 * c] = empty
        else:
            if self.probes_left[self.player] > 0:
                mask[:c] = empty
            if self.dice_left > 0:
                mask[2 * c] = 1
        return mask

    def _is_legal(self, action: int) -> bool:
        c = self.game.num_cells
        if self.stage == _ROLLED:
            return c <= action < 2 * c and self.cell[action - c] == EMPTY
        if 0 <= action < c:
            return self.probes_left[self.player] > 0 and self.cell[action] == EMPTY
        return action == 2 * c and self.dice_left > 0

    def _apply(self, action: int) -> None:
        g = self.game
        stage = self.stage
        if stage == _START:
            self.player = action
            self.stage = _MOVE
            self.last_action = ("start", action, 0, -1)
            return
        if stage == _ROLLING:
            self.rolled = action + 1
            self.stage = _ROLLED
            self.last_action = ("roll", self.player, self.rolled, -1)
            return
        c = g.num_cells
        p = self.player
        if action == 2 * c:  # roll
            self.dice_left -= 1
            self.stage = _ROLLING
            self.last_action = ("take", p, 0, -1)
            return
        if action < c:  # place a probe
            cell = action
            value = g.code_value_list
            gain = sum([value[x] for x in self.cell[g.line_cells[cell]].tolist()])
            self.cell[cell] = PROBE + p
            self.probes_left[p] -= 1
            self.points[p] += gain
            self.last_action = ("probe", p, gain, cell)
        else:  # place the rolled die
            cell = action - c
            value = int(g.face_value[self.rolled])
            self.cell[cell] = self.rolled
            points = self.points
            for code in self.cell[g.line_cells[cell]].tolist():
                if code >= PROBE:
                    points[code - PROBE] += value
            self.last_action = ("die", p, self.rolled, cell)
            self.rolled = 0
        if g.config.black_moons:
            np.maximum(self.points, 0, out=self.points)
        self._next_turn()

    def _next_turn(self) -> None:
        g = self.game
        n = g.config.num_players
        self.stage = _MOVE
        self.empty_cells -= 1
        if self.empty_cells == 0:
            self.stage = _OVER
            return
        if self.dice_left > 0:
            self.player = (self.player + 1) % n
            return
        if g.config.stuck_player == "end":
            q = (self.player + 1) % n
            if self.probes_left[q] > 0:
                self.player = q
            else:
                self.stage = _OVER  # the player due to move can do nothing
            return
        for k in range(1, n + 1):
            q = (self.player + k) % n
            if self.probes_left[q] > 0:
                self.player = q
                return
        self.stage = _OVER  # nobody holds a probe and no die is left

    def _scores(self) -> np.ndarray:
        return self.points

    def _winners(self) -> list[int]:
        best = self.points.max()
        winners = np.flatnonzero(self.points == best).tolist()
        if len(winners) > 1 and self.game.config.ties == "none":
            return []
        return winners

    def _observation(self, player: int) -> np.ndarray:
        g = self.game
        cfg = g.config
        n = cfg.num_players
        out = np.zeros(g.obs_len, dtype=np.float32)
        cells = g.num_cells
        out[g.onehot_index[player].take(g.cell_offset + self.cell)] = 1.0
        k = cells * g.num_channels
        pts = self.points.tolist()
        left = self.probes_left.tolist()
        order = [(player + i) % n for i in range(n)]
        tail = [left[q] / cfg.num_probes for q in order]
        tail.append(self.dice_left / cfg.num_dice)
        tail += [0.0] * NUM_FACES
        if self.rolled:
            tail[n + self.rolled] = 1.0
        tail += [math.tanh(pts[q] / 50.0) for q in order]
        tail.append(math.tanh((pts[player] - max(pts[q] for q in order[1:])) / 20.0))
        tail.append(float(cfg.black_moons))
        tail.append(float(cfg.expanding_universe))
        out[k:] = tail
        return out

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

    def describe_event(self, event: tuple) -> str:
        """Text of a ``last_action`` tuple."""
        kind, p, value, cell = event
        where = self.game.cell_name(cell) if cell >= 0 else ""
        return {
            "start": f"player_{p} starts",
            "take": f"player_{p} takes a die",
            "roll": f"player_{p} rolls a {value}",
            "probe": f"player_{p} probes {where} ({value:+d})",
            "die": f"player_{p} puts the {value} on {where}",
        }[kind]

    def __str__(self) -> str:
        g = self.game
        letters = "abcd"
        owner, die = self.owner, self.die
        lines = ["    " + " ".join(f"{'ABCDEF'[c]:>2}" for c in range(g.cols))]
        for r in range(g.rows):
            row = []
            for c in range(g.cols):
                cell = r * g.cols + c
                if owner[cell] >= 0:
                    row.append(f"{letters[owner[cell]]:>2}")
                elif die[cell]:
                    row.append(f"{die[cell]:>2}")
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
            winners = self._winners()
            if winners:
                status += f"; game over, winner(s): {', '.join(f'player_{w}' for w in winners)}"
            else:
                status += "; game over, tied: no winner"
        lines.append(status)
        if self.last_action:
            lines.append(f"last: {self.describe_event(self.last_action)}")
        return "\n".join(lines)


JupiterGame.state_class = JupiterState
