"""Checks of a Jupiter position rebuilt from an untrusted snapshot (``State.validate``).

The snapshot must hold exactly the fields of a position (no unknown, none missing). Every
field of :class:`~moon_envs.jupiter.state.JupiterState` is checked for its type,
dtype, shape and range, then the position for consistency: pieces are conserved (probes
on the board plus probes in hand make ``num_probes`` per seat; dice on the board, in hand
and rolling make ``num_dice``), the stage agrees with the die waiting to be placed, and
the player to move has a legal action. A failed check raises
:class:`~moon_envs.core.game.ConfigError` naming the field and what is allowed.
"""

from __future__ import annotations

from typing import Any

from moon_envs.core.checks import check_array, check_range
from moon_envs.core.checks import check_position_fields as check_fields
from moon_envs.core.game import ConfigError, check_choice, check_int
from moon_envs.core.snapshot import quote
from moon_envs.jupiter.config import (
    _MOVE,
    _OVER,
    _ROLLED,
    _ROLLING,
    _START,
    NUM_FACES,
    PROBE,
    STAGES,
)
from moon_envs.jupiter.protocols import JupiterPosition

EVENT_KINDS = ("start", "take", "roll", "probe", "die")
"""First entries of a ``last_action`` event tuple."""


def validate_state(state: JupiterPosition) -> None:
    """Raise :class:`ConfigError` unless ``state`` is a consistent Jupiter position."""
    check_fields(state)
    g = state.game
    cfg = g.config
    n, cells = cfg.num_players, g.num_cells
    check_choice("stage", state.stage, STAGES)
    cell = check_array("cell", state.cell, (cells,), "int8")
    check_range("cell", cell, 0, PROBE + n - 1)
    if ((cell > NUM_FACES) & (cell < PROBE)).any():
        raise ConfigError(
            f"cell holds {sorted(set(cell[(cell > NUM_FACES) & (cell < PROBE)].tolist()))}; "
            f"allowed codes: 0 (empty), 1..{NUM_FACES} (a die), "
            f"{PROBE}..{PROBE + n - 1} (a probe of seat code - {PROBE})"
        )
    check_int("empty_cells", state.empty_cells, 0, cells)
    if state.empty_cells != int((cell == 0).sum()):
        raise ConfigError(
            f"empty_cells={state.empty_cells} disagrees with cell, which has "
            f"{int((cell == 0).sum())} empty cells"
        )
    probes_left = check_array("probes_left", state.probes_left, (n,), "int16")
    check_range("probes_left", probes_left, 0, cfg.num_probes)
    check_int("dice_left", state.dice_left, 0, cfg.num_dice)
    points = check_array("points", state.points, (n,), "int64")
    check_range("points", points, 0)
    check_int("player", state.player, 0, n - 1)
    check_int("rolled", state.rolled, 0, NUM_FACES)
    check_int("move_number", state.move_number, 0)

    if (state.rolled != 0) != (state.stage == _ROLLED):
        raise ConfigError(
            f"rolled={quote(state.rolled)} with stage={quote(state.stage)}: a die waits to "
            "be placed "
            f"(rolled 1..{NUM_FACES}) exactly in stage {_ROLLED!r}"
        )
    for seat in range(n):
        on_board = int((cell == PROBE + seat).sum())
        if on_board + int(probes_left[seat]) != cfg.num_probes:
            raise ConfigError(
                f"probes_left[{seat}]={int(probes_left[seat])} with {on_board} probe(s) on the "
                f"board; together they must make num_probes={cfg.num_probes}"
            )
    in_play = int(state.stage in (_ROLLING, _ROLLED))
    dice_on_board = int(((cell >= 1) & (cell <= NUM_FACES)).sum())
    if dice_on_board + state.dice_left + in_play != cfg.num_dice:
        raise ConfigError(
            f"dice_left={state.dice_left} with {dice_on_board} die/dice on the board and "
            f"{in_play} in hand; together they must make num_dice={cfg.num_dice}"
        )
    if state.stage == _START and (not cfg.random_first_player or state.empty_cells != cells):
        raise ConfigError(
            f"stage={_START!r} is allowed only on an empty board with random_first_player"
        )
    if state.stage != _OVER and state.empty_cells == 0:
        raise ConfigError(
            f"the board is full, so stage must be {_OVER!r}, got {quote(state.stage)}"
        )
    if state.stage == _MOVE and probes_left[state.player] == 0 and state.dice_left == 0:
        raise ConfigError(
            f"player={state.player} is to move with no probe and no die left; "
            f"allowed: a player who can move"
        )
    _check_event(state.last_action, n, cells)
    for key in ("_scores_before", "_last_win_delta"):
        value = getattr(state, key, None)
        if value is not None:
            check_array(key, value, (n,), "float64")


def _check_event(event: Any, n: int, cells: int) -> None:
    if event == ():
        return
    if not isinstance(event, tuple) or len(event) != 4:
        raise ConfigError(
            f"last_action must be () or a (kind, seat, value, cell) tuple, got {quote(event)}"
        )
    kind, seat, value, cell = event
    check_choice("last_action[0]", kind, EVENT_KINDS)
    check_int("last_action[1]", seat, 0, n - 1)
    check_int("last_action[2]", value)
    check_int("last_action[3]", cell, -1, cells - 1)
