"""Checks of a Moon Harvesters position rebuilt from an untrusted snapshot (``State.validate``).

The snapshot must hold exactly the fields of a position (no unknown, none missing). Every
field of :class:`~moon_envs.moon_harvesters.state.HarvestersState` is checked for
its type, dtype, shape and range, then the position for consistency: deposits and craters
are conserved, each seat's cells match its harvesters, the kinds taken and on offer agree,
the "still fits" flags and the observation equal their recomputation, and the phase
agrees with who is to move (the player to move always has a legal action). A failed check
raises :class:`~moon_envs.core.game.ConfigError` naming the field and what is allowed.
"""

from __future__ import annotations

import numpy as np

from moon_envs.core.checks import check_array, check_range
from moon_envs.core.checks import check_position_fields as check_fields
from moon_envs.core.game import ConfigError, check_choice, check_int
from moon_envs.core.snapshot import quote
from moon_envs.moon_harvesters.constants import ALL_PHASES, AUCTION, CRATERS, DEPOSITS, PLACE
from moon_envs.moon_harvesters.protocols import HarvestersPosition


def validate_state(state: HarvestersPosition) -> None:
    """Raise :class:`ConfigError` unless ``state`` is a consistent Moon Harvesters position."""
    check_fields(state)
    g = state.game
    cfg = g.config
    n, c, k = cfg.num_players, g.num_cells, g.num_kinds
    check_choice("phase", state.phase, ALL_PHASES)
    check_int("player", state.player, 0, n - 1)
    owner = check_array("owner", state.owner, (c,), "int8")
    check_range("owner", owner, -1, n - 1)
    piece = check_array("piece", state.piece, (c,), "int16")
    crater = check_array("crater", state.crater, (c,), "bool")
    deposit = check_array("deposit", state.deposit, (c,), "bool")
    kind_of = check_array("kind_of", state.kind_of, (n,), "int8")
    check_range("kind_of", kind_of, -1, k - 1)
    on_offer = check_array("on_offer", state.on_offer, (k,), "bool")
    check_int("crater_pool", state.crater_pool, 0, cfg.num_craters)
    held = check_array("craters_held", state.craters_held, (n,), "int16")
    check_range("craters_held", held, 0, cfg.num_craters)
    placed = check_array("placed", state.placed, (n,), "int16")
    check_range("placed", placed, 0, cfg.pieces_per_kind)
    collected = check_array("collected", state.collected, (n,), "int64")
    check_range("collected", collected, 0, cfg.num_deposits)
    check_int("supply", state.supply, 0, cfg.num_deposits)
    check_int("deposits_due", state.deposits_due, 0, max(cfg.deposits_per_turn, cfg.first_deposits))
    check_int("passes", state.passes, 0)
    check_int("move_number", state.move_number, 0)
    if not isinstance(state.last_action, str):
        raise ConfigError(f"last_action must be a string, got {type(state.last_action)}")
    check_array("fits", state.fits, g.fp.in_bounds.shape, "bool")
    check_array("feat", state.feat, g.spec.observation_shape, "float32")

    # pieces and tokens
    taken = kind_of[kind_of >= 0].tolist()
    if len(set(taken)) != len(taken):
        raise ConfigError(f"kind_of={kind_of.tolist()}: each kind is taken by one seat at most")
    if any(on_offer[x] for x in taken) or any(not on_offer[x] for x in range(k) if x not in taken):
        raise ConfigError(
            f"on_offer={on_offer.tolist()} disagrees with kind_of={kind_of.tolist()}: "
            f"a kind is on offer exactly when no seat has taken it"
        )
    craters = state.crater_pool + int(held.sum()) + int(crater.sum())
    if craters != cfg.num_craters:
        raise ConfigError(
            f"crater_pool={state.crater_pool}, craters_held={held.tolist()} and "
            f"{int(crater.sum())} crater(s) on the board make {craters}; "
            f"they must make num_craters={cfg.num_craters}"
        )
    deposits = state.supply + int(deposit.sum()) + int(collected.sum())
    if deposits != cfg.num_deposits:
        raise ConfigError(
            f"supply={state.supply}, {int(deposit.sum())} deposit(s) on the board and "
            f"collected={collected.tolist()} make {deposits}; they must make "
            f"num_deposits={cfg.num_deposits}"
        )
    if (deposit & (owner >= 0)).any():
        raise ConfigError("deposit: a deposit may not lie under a harvester")
    if cfg.craters_block_deposits and (deposit & crater).any():
        raise ConfigError("deposit: a deposit may not lie on a crater (craters_block_deposits)")
    if cfg.craters_block and (crater & (owner >= 0)).any():
        raise ConfigError("owner: a harvester may not cover a crater (craters_block)")
    _check_harvesters(state, owner, piece, kind_of, placed)

    # derived fields
    blocked = (owner >= 0) | (crater if cfg.craters_block else False)
    fits = g.fp.in_bounds.copy()
    fits[g.fp.cover[np.flatnonzero(blocked)]] = False
    if not np.array_equal(fits, state.fits):
        raise ConfigError("fits disagrees with the harvesters and craters on the board")

    # phase and player to move
    p = state.player
    phase_ok = {
        AUCTION: kind_of[p] < 0,
        CRATERS: held[p] > 0 and (kind_of >= 0).all(),
        PLACE: state.can_place(p) and not held.any(),
        DEPOSITS: 0 < state.deposits_due <= min(state.supply, int(state.free_cells().sum())),
    }
    if not phase_ok.get(state.phase, True):
        raise ConfigError(
            f"phase={quote(state.phase)} with player={p}: that player has no legal action "
            f"(or the phase does not fit the position)"
        )
    if (state.deposits_due > 0) != (state.phase == DEPOSITS):
        raise ConfigError(
            f"deposits_due={quote(state.deposits_due)} with phase={quote(state.phase)}: "
            "deposits are due "
            f"exactly in phase {DEPOSITS!r}"
        )
    if not np.array_equal(state._build_observation(0), state.feat):
        raise ConfigError("feat (player_0's observation) disagrees with the position")
    for key in ("_scores_before", "_last_win_delta"):
        value = getattr(state, key, None)
        if value is not None:
            check_array(key, value, (n,), "float64")


def _check_harvesters(state, owner, piece, kind_of, placed) -> None:
    """Each seat covers ``placed * size`` cells; pieces are numbered 0.. in placement order."""
    g = state.game
    total = int(placed.sum())
    check_range("piece", piece, -1, max(total - 1, -1))
    if not np.array_equal(piece >= 0, owner >= 0):
        raise ConfigError(
            "piece and owner disagree: a cell has a piece exactly when it has an owner"
        )
    for seat in range(g.config.num_players):
        if placed[seat] and kind_of[seat] < 0:
            raise ConfigError(f"placed[{seat}]={int(placed[seat])} but the seat holds no kind")
        size = g.kinds[int(kind_of[seat])].size if kind_of[seat] >= 0 else 0
        cells = int((owner == seat).sum())
        if cells != int(placed[seat]) * size:
            raise ConfigError(
                f"owner: seat {seat} covers {cells} cell(s); placed[{seat}]={int(placed[seat])} "
                f"harvesters of {size} cells make {int(placed[seat]) * size}"
            )
    ids = piece[piece >= 0]
    counts = np.bincount(ids, minlength=total) if total else np.zeros(0, dtype=np.int64)
    for i in range(total):
        owners = set(owner[piece == i].tolist())
        if len(owners) != 1 or counts[i] != g.kinds[int(kind_of[owners.pop()])].size:
            raise ConfigError(f"piece: harvester {i} does not cover one seat's kind's cells")
