"""The JAX twin of Moon Harvesters (``moon_harvesters_v0``): the Python engine's game as
pure ``jnp`` code.

:class:`MoonHarvestersTwin` plays exactly :mod:`moon_envs.moon_harvesters`' game: the same
action ids (``0..K-1`` take a kind, ``K`` take a crater, ``K+1+cell`` a crater,
``K+1+cells + slot*cells + cell`` a harvester, ``K+1+9*cells + cell`` a deposit), the same
observations, scores and rewards, for every parameter of
:class:`~moon_envs.moon_harvesters.config.HarvestersConfig` (every player count, grid,
shape set and house rule). The game has no chance: ``init`` ignores its key. Build it
with ``moon_envs.jax.make("moon_harvesters_v0", **params)``; the API is
:class:`~moon_envs.jax.env.JaxEnv`'s.

The position is a :class:`HarvestersX` of small fixed-shape arrays: the fields of the
Python ``HarvestersState``, with the board as row words (one ``uint32`` per grid row and
plane). The engine's "still fits" flags are recomputed from those words after each
action by :mod:`~moon_envs.jax.moon_harvesters.board`, and the observation and the mask
are unpacked from words, in one pass each. An action is applied to every
field at once, each update masked by the phase, then the engine's turn order
(``turns.TurnPhases``: next auction bidder, next crater holder, the turn's deposits, the
next seat that can place, the end) is resolved in one pass of ``jnp.where``.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from moon_envs.core.game import TERMINAL
from moon_envs.jax import bit_streams
from moon_envs.jax.env import JaxEnv, _select
from moon_envs.jax.state import State
from moon_envs.jax.moon_harvesters import board
from moon_envs.jax.moon_harvesters.position import HarvestersX
from moon_envs.jax.moon_harvesters.tables import (
    AUCTION,
    CRATERS,
    DEPOSITS,
    OVER,
    PLACE,
    build_tables,
)
from moon_envs.moon_harvesters.rules import HarvestersGame
from moon_envs.moon_harvesters.shapes import MAX_ORIENTATIONS

Array = jax.Array


def _rotated(values: Array, start: Array) -> Array:
    """``values[(start + j) % n]`` for ``j = 0..n-1``, as a masked sum (a gather of a few
    entries costs more than this under ``vmap`` on the CPU)."""
    n = values.shape[0]
    seat = jnp.arange(n, dtype=jnp.int32)
    pick = seat[None, :] == (start + seat[:, None]) % n
    return jnp.sum(jnp.where(pick, values[None, :], 0), axis=1, dtype=values.dtype)


def _rotated_rows(words: Array, start: Array) -> Array:
    """``words[(start + j) % n]`` for ``j = 0..n-1`` (``words``: ``[n, rows]``), as a
    masked sum."""
    n = words.shape[0]
    seat = jnp.arange(n, dtype=jnp.int32)
    pick = seat[None, :] == (start + seat[:, None]) % n
    picked = jnp.where(pick[:, :, None], words[None, :, :], np.uint32(0))
    return jnp.sum(picked, axis=1, dtype=words.dtype)


def _end_to_end(parts: list[Array]) -> Array:
    """``jnp.concatenate(parts)`` of short vectors, as a sum of zero-padded copies (exact:
    each entry is one part's value plus zeros). XLA fuses it into one loop, where
    concatenating copies every short part into every lane's row one at a time."""
    total, start, out = sum(p.shape[0] for p in parts), 0, None
    for part in parts:
        padded = jnp.pad(part, (start, total - start - part.shape[0]))
        out = padded if out is None else out + padded
        start += part.shape[0]
    return out


def _at(values: Array, index: Array) -> Array:
    """``values[index]`` as a masked sum (no gather)."""
    pick = jnp.arange(values.shape[0]) == index
    return jnp.sum(jnp.where(pick, values, 0), dtype=values.dtype)


def _first_from(flags: Array, start: Array) -> tuple[Array, Array]:
    """``(found, seat)``: the first seat ``start, start + 1, ...`` (mod ``n``) whose flag
    is set."""
    n = flags.shape[0]
    hits = _rotated(flags, start)
    step = jnp.min(jnp.where(hits, jnp.arange(n, dtype=jnp.int32), n))
    return step < n, (start + step) % n


class MoonHarvestersTwin(JaxEnv):
    """Moon Harvesters as a batched, jittable :class:`~moon_envs.jax.env.JaxEnv` (see the
    module docstring). ``self.tables`` holds the static
    :class:`~moon_envs.jax.moon_harvesters.tables.HarvesterTables`."""

    game_class = HarvestersGame

    def __init__(self, env_id: str, game: HarvestersGame, reward_mode: str = "win") -> None:
        super().__init__(env_id, game, reward_mode)
        self.tables = build_tables(game)
        self._start: State | None = None  # the first position's arrays, built on first use

    def init(self, key: Array) -> State:
        """A new game (pgx's ``init``). The game has no chance, so every game starts from
        the same position: :meth:`initial_state`, computed once (outside any trace) and
        returned as constants, which a batch restarting finished lanes selects for free.
        ``key`` is accepted for pgx's API and not read."""
        if self._start is None:
            with jax.ensure_compile_time_eval():
                self._start = jax.tree.map(np.asarray, self.initial_state())
        return jax.tree.map(jnp.asarray, self._start)

    def _step_unchecked(self, state: State, action: Array, key: Array | None) -> State:
        """The base class's ``step`` in one pass (the game has no chance, so ``key`` is not
        read): the new board is selected with the old one where the action is illegal or
        the game was already over, and its "still fits" words, computed from it once, serve
        both the turn order and the mask; the rest of the position is selected the same way,
        then observed and masked once.

        A finished game's view and mask are rebuilt from its position (all ``True``, and
        ``current_player``'s view, which is what the twin stored there) instead of read
        back: that saves reading both, every step, in every lane. The result equals the
        base class's leaf by leaf on every state the twin returns
        (``tests/jax/test_moon_harvesters_fast_step.py``)."""
        n, num_actions = self.num_players, self.num_actions
        action = jnp.asarray(action, jnp.int32)
        index = jnp.clip(action, 0, num_actions - 1)
        player, done = state.current_player, state.terminated
        at_seat = (player >= 0) & (player < n) & ~state.is_chance
        legal = at_seat & (action >= 0) & (action < num_actions)
        legal = legal & state.legal_action_mask[index]
        before = state._x
        moved = legal & ~done
        played, counts, due_left = self._play(before, index)
        words = jnp.where(moved, played.board, before.board)
        free = board.anchors(self.tables, words)
        after = self._advance(played, counts, before.player, before.phase, due_left, free)
        kept = _select(moved, after, before)
        blamed = jnp.arange(n) == jnp.where(at_seat, player, -1)
        penalty = jnp.where(blamed, -1.0, 0.0).astype(jnp.float32)
        rewards = jnp.where(legal, self._rewards(before, after), penalty)
        rewards = jnp.where(done, 0.0, rewards).astype(jnp.float32)
        over = ~moved | (kept.phase == OVER)  # ended by this action, by bad input, or before
        seat = jnp.where((player >= 0) & (player < n), player, 0)
        observer = jnp.where(over, seat, kept.player).astype(jnp.int32)
        return State(
            current_player=jnp.where(done, player, observer),
            observation=self._observe(kept, observer),
            legal_action_mask=self._mask_of(kept, free, over),
            rewards=rewards,
            terminated=over,
            truncated=done & state.truncated,
            is_chance=done & state.is_chance,
            _step_count=jnp.where(done, state._step_count, state._step_count + 1),
            _x=kept,
            env_id=self.id,
        )

    # ---- position ------------------------------------------------------------------------
    def _initial_x(self) -> HarvestersX:
        t = self.tables
        n = t.n
        return HarvestersX.of(
            board=jnp.zeros((n + 2, t.rows), jnp.uint32),
            piece=jnp.full((t.cells,), -1, jnp.int16),
            kind_of=jnp.full((n,), -1, jnp.int32),
            on_offer=jnp.ones((t.kinds,), jnp.bool_),
            crater_pool=jnp.int32(t.num_craters),
            craters_held=jnp.zeros((n,), jnp.int32),
            placed=jnp.zeros((n,), jnp.int32),
            collected=jnp.zeros((n,), jnp.int32),
            supply=jnp.int32(t.num_deposits),
            phase=jnp.int32(AUCTION),
            player=jnp.int32(0),
            due=jnp.int32(0),
            passes=jnp.int32(0),
        )

    def _player(self, x: HarvestersX) -> Array:
        return jnp.where(x.phase == OVER, jnp.int32(TERMINAL), x.player)

    # ---- legal moves ---------------------------------------------------------------------
    def _legal_mask(self, x: HarvestersX) -> Array:
        free = board.anchors(self.tables, x.board)
        return self._mask_of(x, free, jnp.bool_(False))

    def _mask_of(self, x: HarvestersX, free: Array, over: Array) -> Array:
        """The legal mask of ``x``, whose "still fits" words are ``free``; all ``True``
        where ``over``. The three cell blocks (craters, placements, deposits) are built as
        row words, each kept in its own phase only, and unpacked together."""
        t = self.tables
        phase = x.phase
        full = np.uint32(t.col_mask)
        place = board.kind_words(t, free, _at(x.kind_of, x.player))
        words = jnp.concatenate(
            [(~x.board[t.n] & full)[None], place, board.deposit_room(t, x.board)[None]]
        )
        block_phase = np.array([CRATERS] + [PLACE] * MAX_ORIENTATIONS + [DEPOSITS])[:, None]
        words = jnp.where(over, full, jnp.where(block_phase == phase, words, np.uint32(0)))
        auction = jnp.concatenate([x.on_offer, (x.crater_pool > 0)[None]])
        auction = over | (auction & (phase == AUCTION))
        stream = bit_streams.after_bits(auction, bit_streams.chunks_of(words.reshape(-1), t.cols))
        return bit_streams.unpack_chunks(stream, t.num_actions)

    # ---- one action ----------------------------------------------------------------------
    def _apply_action_x(self, x: HarvestersX, action: Array) -> HarvestersX:
        """The engine's ``_apply``: the phase's update, then the turn order."""
        played, counts, due_left = self._play(x, action)
        free = board.anchors(self.tables, played.board)
        return self._advance(played, counts, x.player, x.phase, due_left, free)

    def _play(self, x: HarvestersX, action: Array) -> tuple[HarvestersX, dict, Array]:
        """The phase's update of ``_apply``: ``x`` with the action applied to its array
        leaves, its new integer fields but the turn's, and the deposits still due."""
        t = self.tables
        n = t.n
        p, phase = x.player, x.phase
        in_auction, in_craters = phase == AUCTION, phase == CRATERS
        in_place, in_deposits = phase == PLACE, phase == DEPOSITS
        me = jnp.arange(n, dtype=jnp.int32) == p
        none = np.uint32(0)

        # auction: take a kind (leaving the auction) or a crater
        takes_kind = in_auction & (action < t.kinds)
        takes_crater = in_auction & (action == t.kinds)
        kind_of = jnp.where(me & takes_kind, action, x.kind_of)
        on_offer = x.on_offer & ~(takes_kind & (jnp.arange(t.kinds) == action))
        crater_pool = x.crater_pool - takes_crater.astype(jnp.int32)
        held = x.craters_held + (me & takes_crater) - (me & in_craters)
        # craters: put one on a cell
        crater_at = board.cell_words(t, action - t.crater_base)
        crater = x.board[n] | jnp.where(in_craters, crater_at, none)
        # place: a harvester collects the deposits it covers
        covered = board.covered_words(t, _at(x.kind_of, p), action - t.place_base)
        covered = jnp.where(in_place, covered, none)
        gain = board.count_bits(covered & x.board[n + 1])
        owners = x.board[:n] | jnp.where(me[:, None], covered[None, :], none)
        number = jnp.sum(x.placed, dtype=jnp.int32).astype(jnp.int16)
        piece = jnp.where(board.unpack_rows(t, covered), number, x.piece)
        placed = x.placed + (me & in_place)
        collected = x.collected + jnp.where(me, gain, 0)
        # deposits: one from the supply
        dropped = jnp.where(in_deposits, board.cell_words(t, action - t.deposit_base), none)
        deposit = (x.board[n + 1] & ~covered) | dropped
        supply = x.supply - in_deposits.astype(jnp.int32)
        due_left = x.due - in_deposits.astype(jnp.int32)
        words = jnp.concatenate([owners, crater[None], deposit[None]])
        new = x._replace(board=words, piece=piece, on_offer=on_offer)
        counts = dict(kind_of=kind_of, crater_pool=crater_pool, craters_held=held)
        counts.update(placed=placed, collected=collected, supply=supply)
        return new, counts, due_left

    def _advance(
        self, x: HarvestersX, counts: dict, p: Array, phase: Array, due_left: Array,
        free: Array,
    ) -> HarvestersX:  # fmt: skip
        """Who moves next, in which phase, after seat ``p`` acted in ``phase`` (``x`` has
        the action applied to its array leaves, ``counts`` holds its new integer fields
        but the turn's, ``free`` its "still fits" words): ``turns.TurnPhases``'
        ``_auction`` tail, ``_start_craters``, ``_start_first_deposits``,
        ``_start_deposits`` and ``_next_turn``."""
        t = self.tables
        n = t.n
        in_auction, in_craters = phase == AUCTION, phase == CRATERS
        in_place, in_deposits = phase == PLACE, phase == DEPOSITS
        # the auction goes on with the next seat still in it (p itself last)
        bidder_found, bidder = _first_from(counts["kind_of"] < 0, p + 1)
        auction_done = in_auction & ~bidder_found
        # crater holders place one each, in seat order from player_0 after the auction
        start = jnp.where(in_auction, 0, (p + 1) % n)
        holder_found, holder = _first_from(counts["craters_held"] > 0, start)
        craters_next = (auction_done | in_craters) & holder_found
        first_deposits = (auction_done | in_craters) & ~holder_found
        # a turn's deposits: the opening ones (player_0) or after a placement
        starts_deposits = first_deposits | in_place
        count = jnp.where(first_deposits, t.first_deposits, t.deposits_per_turn)
        mover = jnp.where(first_deposits, 0, p)
        room = jnp.minimum(counts["supply"], board.count_bits(board.deposit_room(t, x.board)))
        if t.fewer:
            due = jnp.minimum(count, room)
        else:
            due = jnp.where(count <= room, count, 0)
        deposits_next = (starts_deposits & (due > 0)) | (in_deposits & (due_left > 0))
        due = jnp.where(in_deposits, due_left, due)
        # otherwise the next seat that can place moves; nobody can: the game is over
        fits = board.kinds_that_fit(free)
        took = counts["kind_of"][:, None] == jnp.arange(t.kinds)[None, :]  # no gather of fits[kind]
        can_place = (counts["placed"] < t.pieces) & jnp.any(took & fits[None, :], axis=1)
        placer_found, placer = _first_from(can_place, mover + 1)

        new_phase = jnp.select(
            [in_auction & bidder_found, craters_next, deposits_next, placer_found],
            [AUCTION, CRATERS, DEPOSITS, PLACE],
            OVER,
        ).astype(jnp.int32)
        new_player = jnp.select(
            [in_auction & bidder_found, craters_next, deposits_next, placer_found],
            [bidder, holder, mover, placer],
            mover,
        ).astype(jnp.int32)
        due = jnp.where(deposits_next, due, 0).astype(jnp.int32)
        # handing the turn on, every seat skipped (all n when nobody can place) passed
        next_turn = ~(in_auction & bidder_found) & ~craters_next & ~deposits_next
        skipped = jnp.where(placer_found, (placer - mover - 1) % n, n)
        passes = x.passes + jnp.where(next_turn, skipped, 0).astype(jnp.int32)
        return x.with_ints(phase=new_phase, player=new_player, due=due, passes=passes, **counts)

    # ---- views and results ---------------------------------------------------------------
    def _observe(self, x: HarvestersX, player: Array) -> Array:
        """The engine's ``_build_observation(player)`` (seats rotated so "me" is first)."""
        t = self.tables
        n, k = t.n, t.kinds
        seats = _rotated_rows(x.board[:n], player)
        words = jnp.concatenate([seats, x.board[n:]]).reshape(-1)
        kinds = _rotated(x.kind_of, player)[:, None] == jnp.arange(k)[None, :]
        f32 = jnp.float32
        numbers = [
            1.0 - _rotated(x.placed, player).astype(f32) / t.pieces,
            (x.supply / f32(t.supply_scale)).astype(f32)[None],
            _rotated(x.collected, player).astype(f32) / f32(t.supply_scale),
            (jnp.arange(4) == x.phase).astype(f32),
            kinds.reshape(-1).astype(f32),
            x.on_offer.astype(f32),
            (x.crater_pool / f32(t.crater_scale)).astype(f32)[None],
            _rotated(x.craters_held, player).astype(f32) / f32(t.crater_scale),
            (x.due / f32(t.due_scale)).astype(f32)[None],
        ]
        planes = bit_streams.unpack_chunks(bit_streams.chunks_of(words, t.cols), (n + 2) * t.cells)
        return jnp.concatenate([planes.astype(f32), _end_to_end(numbers)])

    def _scores(self, x: HarvestersX) -> Array:
        return x.collected.astype(jnp.float32)

    def _winners(self, x: HarvestersX) -> Array:
        """Most deposits; a tie goes to fewer harvesters placed; a remaining tie is shared
        (``ties="shared"``) or nobody wins (``ties="none"``)."""
        tied = x.collected == jnp.max(x.collected)
        fewest = jnp.min(jnp.where(tied, x.placed, jnp.iinfo(jnp.int32).max))
        winners = tied & (x.placed == fewest)
        if not self.tables.shared_ties:
            winners = winners & (jnp.sum(winners) == 1)
        return winners
