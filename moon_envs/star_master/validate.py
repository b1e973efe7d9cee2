"""Checks of a Star Master position rebuilt from an untrusted snapshot.

Every problem is a :class:`ConfigError` naming the field and the allowed values. The core
has already checked that every field exists with the right kind (int, list, array dtype
and number of dimensions); this module checks shapes, ranges and consistency.
"""

from __future__ import annotations

import numpy as np

from moon_envs.core.game import ConfigError, check_int
from moon_envs.core.snapshot import quote
from moon_envs.star_master.config import DECAY_SEEDS, GOAL, STAR
from moon_envs.star_master.phases import (
    DRAW,
    END,
    FLIP,
    NAME,
    NOT_CHOSEN,
    PHASE_NAMES,
    RACE,
    SEED,
    SETUP,
    SWAP,
)
from moon_envs.star_master.position import StarMasterPosition


def _array(name: str, v: np.ndarray, shape: tuple[int, ...], low: int, high: int) -> None:
    if v.shape != shape:
        raise ConfigError(f"state.{name} must have shape {shape}, got {v.shape}")
    if v.size and (v.min() < low or v.max() > high):
        raise ConfigError(f"state.{name} holds {quote(v.tolist())}; allowed values: {low}..{high}")


def validate_state(st: StarMasterPosition) -> None:
    cfg = st.game.config
    n = cfg.num_players
    k = cfg.num_colours  # colours, cubes and slots
    check_int("state.phase", st.phase, 0, len(PHASE_NAMES) - 1)
    check_int("state.setup_index", st.setup_index, 0, k)
    check_int("state.turn", st.turn, 0, cfg.turn_cap)
    check_int("state.roller", st.roller, 0, n - 1)
    check_int("state.mover", st.mover, 0, n - 1)
    check_int("state.white", st.white, -1, STAR)
    if k <= st.white < STAR:
        raise ConfigError(
            f"state.white={st.white} is not allowed; allowed values: -1 (not rolled), "
            f"colours 0..{k - 1} (num_colours={k}) or {STAR} (star)"
        )
    check_int("state.black_star", st.black_star, 0, 0 if cfg.children else 1)
    check_int("state.target", st.target, -1, k - 1)
    check_int("state.found_slot", st.found_slot, -1, k - 1)
    check_int("state.race_next", st.race_next, 0, n)
    seed_high = DECAY_SEEDS - 1 if cfg.memory == "decay" else -1
    check_int("state.seed", st.seed, -1, seed_high)
    _array("layout", st.layout, (k,), -1, k - 1)
    _array("pawns", st.pawns, (n, k), 0, 1)
    _array("held", st.held, (n,), 0, GOAL)
    _array("views", st.views, (n, 3, k), -1, k - 1)
    if not np.array_equal(st.held, st.pawns.sum(axis=1)):
        raise ConfigError("state.held must count each seat's pawns (state.pawns summed per seat)")
    _array("memory", st.memory, (n, k), -1, k - 1)
    _array("win_map", st.win_map, (n, k), -1, k - 1)
    _array("win_perm", st.win_perm, (n, k), 0, k - 1)
    _array("race_choice", st.race_choice, (n,), NOT_CHOSEN, k - 1)
    _array("last_race", st.last_race, (n,), NOT_CHOSEN, k - 1)
    _array("last_flip", st.last_flip, (4,), -1, k - 1)
    _array("in_window", st.in_window, (n, 2), 0, 1)
    check_int("state.last_seat", st.last_seat, -1, n - 1)
    check_int("state.last_action", st.last_action, -1, st.game.actions.pass_)
    if st.last_phase not in (-1, NAME, FLIP, SWAP, RACE) or isinstance(st.last_phase, bool):
        raise ConfigError(
            f"state.last_phase={quote(st.last_phase)} is not allowed; allowed values: -1 (no "
            f"decision yet) or {[NAME, FLIP, SWAP, RACE]} (name, flip, swap, race)"
        )
    if (st.last_seat < 0) != (st.last_action < 0) or (st.last_seat < 0) != (st.last_phase < 0):
        raise ConfigError("state.last_seat, last_action and last_phase must all be -1 or none")
    if st.in_window[:, 0].any() and st.last_flip[0] < 0:
        raise ConfigError("state.in_window marks a last flip but state.last_flip holds none")
    if st.in_window[:, 1].any() and st.last_race[0] == NOT_CHOSEN:
        raise ConfigError("state.in_window marks a last race but state.last_race holds none")
    for p in np.flatnonzero(st.in_window[:, 0]):
        if not (st.win_map[p] == st.last_flip[2]).any():
            raise ConfigError(
                f"state.in_window[{p}]: the last flip lies in the window but state.win_map[{p}] "
                "does not show its colour"
            )
    placed = st.layout[: st.setup_index]
    if st.phase != SETUP and st.setup_index != k:
        raise ConfigError(f"state.setup_index must be {k} after set-up")
    if len(set(placed.tolist())) != placed.size or (placed < 0).any():
        raise ConfigError(f"state.layout {placed.tolist()} must hold distinct colours 0..{k - 1}")
    if (st.layout[st.setup_index :] != -1).any():
        raise ConfigError("state.layout: slots not yet placed must be -1")
    for p in range(n):
        if sorted(st.win_perm[p].tolist()) != list(range(k)):
            raise ConfigError(f"state.win_perm[{p}] must be a permutation of 0..{k - 1}")
    if st.setup_index == k:
        for name in ("memory", "win_map"):
            arr = getattr(st, name)
            if ((arr >= 0) & (arr != st.layout[None, :])).any():
                raise ConfigError(f"state.{name}: known slots must match state.layout")
    if cfg.memory == "none" and (st.memory != -1).any():
        raise ConfigError("state.memory must be all -1 with memory='none'")
    if not isinstance(st.winners_list, list) or not all(
        isinstance(w, int) and not isinstance(w, bool) and 0 <= w < n for w in st.winners_list
    ):
        raise ConfigError(f"state.winners_list must be a list of seats 0..{n - 1}")
    if (st.pawns.sum(axis=1) > GOAL).any():
        raise ConfigError(
            f"state.pawns: a player holds at most {GOAL} colours (the game ends there)"
        )
    ph = st.phase
    if ph == FLIP and st.target < 0:
        raise ConfigError(f"state.target must be a colour 0..{k - 1} in the flip phase")
    if ph == SWAP and st.found_slot < 0:
        raise ConfigError(f"state.found_slot must be a slot 0..{k - 1} in the swap phase")
    if ph == NAME and st.white != STAR:
        raise ConfigError(f"state.white must be {STAR} (star) in the name phase")
    if ph == RACE and (
        st.race_next >= n
        or int((st.race_choice != NOT_CHOSEN).sum()) != st.race_next
        or st.white in (-1, STAR)
    ):
        raise ConfigError("state.race_choice / race_next / white disagree with the race phase")
    if ph == DRAW and len(st._grabbers()) < 2:
        raise ConfigError("state.race_choice: a race draw needs at least two grabbers")
    if ph == END:
        return
    if st.winners_list:
        raise ConfigError("state.winners_list must be empty before the end")
    if ph in (SETUP, SEED) and st.turn != 0:
        raise ConfigError("state.turn must be 0 during set-up")
    if ph == SEED and cfg.memory != "decay":
        raise ConfigError("state.phase 'seed' exists only with memory='decay'")
    if ph not in (SETUP, SEED) and cfg.memory == "decay" and st.seed < 0:
        raise ConfigError("state.seed must be drawn (0..1023) after set-up with memory='decay'")
