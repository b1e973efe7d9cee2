"""The JAX twin of Jupiter (``jupiter_v0``): the Python engine's game as pure ``jnp`` code.

:class:`JupiterTwin` plays exactly :mod:`moon_envs.jupiter`'s game: the same board, action
ids (``0..cells-1`` place a probe, ``cells..2*cells-1`` put the rolled die, ``2*cells``
take a die and roll it), chance outcome ids (the first player ``0..n-1``; a roll ``f`` is
pips ``f + 1``), observations (with or without ``line_features``), scores and rewards, for
every parameter of :class:`~moon_envs.jupiter.config.JupiterConfig`. Build it with
``moon_envs.jax.make("jupiter_v0", **params)``; the API is :class:`~moon_envs.jax.env.JaxEnv`'s.

The position is a :class:`JupiterX` of small fixed-shape arrays (the cell codes are the
Python engine's ``JupiterState.cell``: 0 empty, 1..6 a die showing that face, ``7 + s`` a
probe of seat ``s``). Everything the rules read of the config (the board's size, the dice
values of ``black_moons``, ``stuck_player``, ``ties``, ``line_features``) is a static
Python value, folded into the compiled code: each parameter set is its own compile.
"""

from __future__ import annotations

from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

from moon_envs.core.game import CHANCE, TERMINAL
from moon_envs.jax.env import JaxEnv, _select
from moon_envs.jax.jupiter_arrays import computed_once, pick, rotate, seats_from
from moon_envs.jax.random_words import random_words
from moon_envs.jax.state import State
from moon_envs.jupiter.config import NUM_FACES, PROBE
from moon_envs.jupiter.rules import JupiterGame

Array = jax.Array

# stages, as small integers (the Python engine's ``JupiterState.stage`` strings)
START, MOVE, ROLLING, ROLLED, OVER = 0, 1, 2, 3, 4


class JupiterX(NamedTuple):
    """One Jupiter position (the fields of the Python ``JupiterState``).

    Attributes:
        cell: int8 ``[cells]``, what lies on each cell: 0 empty, 1..6 a die showing that
            face, ``7 + s`` a probe of seat ``s``.
        probes_left: int32 ``[n]``, probes each seat still holds.
        dice_left: int32, dice not yet taken.
        points: int32 ``[n]``, the scores.
        player: int32, the seat to move (or that moved, at a chance node).
        rolled: int32, the die waiting to be placed (0: none).
        stage: int32, ``START`` (first player to draw), ``MOVE``, ``ROLLING`` (a die to
            roll), ``ROLLED`` (a die to place) or ``OVER``.
    """

    cell: Array
    probes_left: Array
    dice_left: Array
    points: Array
    player: Array
    rolled: Array
    stage: Array


class JupiterTwin(JaxEnv):
    """Jupiter as a batched, jittable JAX environment; see the module docstring.

    Every parameter of the Python config is supported (none raises ``ConfigError``), and
    the env's ``reward_mode`` (``"win"`` or ``"score"``).
    """

    game_class = JupiterGame

    def __init__(self, env_id: str, game: JupiterGame, reward_mode: str = "win") -> None:
        super().__init__(env_id, game, reward_mode)
        cfg = self.config
        n = cfg.num_players
        self.n = n
        self.cells = game.num_cells
        rows, cols = np.divmod(np.arange(self.cells), game.cols)
        self._rows = rows.astype(np.int32)
        self._cols = cols.astype(np.int32)
        self.num_channels = n + NUM_FACES + 1  # observation channels per cell

    # ---- the position --------------------------------------------------------------------
    def _initial_x(self) -> JupiterX:
        cfg = self.config
        return JupiterX(
            cell=jnp.zeros((self.cells,), jnp.int8),
            probes_left=jnp.full((self.n,), cfg.num_probes, jnp.int32),
            dice_left=jnp.int32(cfg.num_dice),
            points=jnp.zeros((self.n,), jnp.int32),
            player=jnp.int32(0),
            rolled=jnp.int32(0),
            stage=jnp.int32(START if cfg.random_first_player else MOVE),
        )

    def _player(self, x: JupiterX) -> Array:
        to_move = (x.stage == MOVE) | (x.stage == ROLLED)
        return jnp.where(to_move, x.player, jnp.where(x.stage == OVER, TERMINAL, CHANCE)).astype(
            jnp.int32
        )

    def _legal_mask(self, x: JupiterX) -> Array:
        empty = x.cell == 0
        rolled = x.stage == ROLLED
        probe = empty & ~rolled & (pick(x.probes_left, x.player) > 0)
        die = empty & rolled
        roll = ~rolled & (x.dice_left > 0)
        return jnp.concatenate([probe, die, roll[None]])

    # ---- pgx's init and step, without the generic layers -------------------------------------
    def init(self, key: Array) -> State:
        """A new game (pgx's ``init``): the first player drawn with ``key`` as the explicit
        layer draws it. Every seat sees the same empty board and may play the same
        actions, so the observation and the mask are constants whoever starts."""
        x = self._initial_x()
        first = self._sample_chance(x, key) if self.config.random_first_player else x.player
        with jax.ensure_compile_time_eval():
            start = self._initial_x()._replace(stage=jnp.int32(MOVE))
            observation = np.asarray(self._observe(start, jnp.int32(0)))
            mask = np.asarray(self._legal_mask(start))
        return State(
            current_player=first,
            observation=jnp.asarray(observation),
            legal_action_mask=jnp.asarray(mask),
            rewards=self._zero_rewards(),
            terminated=jnp.bool_(False),
            truncated=jnp.bool_(False),
            is_chance=jnp.bool_(False),
            _step_count=jnp.int32(0),
            _x=x._replace(player=first, stage=jnp.int32(MOVE)),
            env_id=self.id,
        )

    def _step_unchecked(self, state: State, action: Array, key: Array | None) -> State:
        """The base class's ``step`` in one pass: the action and the roll it causes (a die
        taken is rolled at once with ``key``, the draw :meth:`_resolve_x` makes), the
        legality read by a compare instead of a gather, one observation. The same state
        as the base class's for every input (``tests/jax/test_jupiter_fast_step.py``)."""
        n, num_actions = self.n, self.num_actions
        action = jnp.asarray(action, jnp.int32)
        index = jnp.clip(action, 0, num_actions - 1)
        player = state.current_player
        in_seat = (player >= 0) & (player < n)
        listed = jnp.any(state.legal_action_mask & (jnp.arange(num_actions) == index))
        legal = in_seat & ~state.is_chance & (action >= 0) & (action < num_actions) & listed
        before = state._x
        placed = self._apply_action_x(before, index)
        face = self._sample_chance(placed, key)
        rolled = placed.stage == ROLLING
        after = placed._replace(
            rolled=jnp.where(rolled, face + 1, placed.rolled),
            stage=jnp.where(rolled, ROLLED, placed.stage).astype(jnp.int32),
        )
        seat = jnp.where(in_seat, player, 0)
        blamed = jnp.arange(n) == jnp.where(in_seat & ~state.is_chance, player, -1)
        penalty = jnp.where(blamed, -1.0, 0.0).astype(jnp.float32)
        kept, legal = computed_once((_select(legal, after, before), legal))
        # the base class's ``_wrap(after, seat, ..., ended=~legal, kept=kept)``: ``kept`` is
        # ``after`` wherever ``_wrap`` reads ``after`` unmasked by ``ended``
        to_move = jnp.where(legal, self._player(kept), TERMINAL)
        terminated, is_chance = to_move == TERMINAL, to_move == CHANCE
        observer = jnp.where(to_move >= 0, to_move, seat).astype(jnp.int32)
        observer, terminated, is_chance = computed_once((observer, terminated, is_chance))
        mask = jnp.where(terminated, True, jnp.where(is_chance, False, self._legal_mask(kept)))
        out = State(
            current_player=jnp.where(is_chance, jnp.int32(CHANCE), observer),
            observation=self._observe(kept, observer),
            legal_action_mask=mask,
            rewards=jnp.where(legal, self._rewards(before, after), penalty).astype(jnp.float32),
            terminated=terminated,
            truncated=jnp.bool_(False),
            is_chance=is_chance,
            _step_count=jnp.asarray(state._step_count + 1, jnp.int32),
            _x=kept,
            env_id=self.id,
        )
        return _select(state.terminated, state.replace(rewards=self._zero_rewards()), out)

    # ---- chance ----------------------------------------------------------------------------
    def _chance_probs(self, x: JupiterX) -> Array:
        k = np.arange(self.num_chance_outcomes)
        first = np.where(k < self.n, 1.0 / self.n, 0.0).astype(np.float32)
        roll = np.where(k < NUM_FACES, 1.0 / NUM_FACES, 0.0).astype(np.float32)
        return jnp.where(x.stage == START, first, jnp.where(x.stage == ROLLING, roll, 0.0)).astype(
            jnp.float32
        )

    def _sample_chance(self, x: JupiterX, key: Array) -> Array:
        """A uniform draw: a seat at the start, a face (0..5) for a roll.

        One 32-bit draw (``randint`` would hash the key three times); taking its top 24
        bits modulo 4, 5 or 6 biases an outcome by less than ``1e-6``.
        """
        high = jnp.where(x.stage == START, self.n, NUM_FACES).astype(jnp.uint32)
        bits = random_words(key, 1)[0] >> 8
        return (bits % high).astype(jnp.int32)

    def _resolve_x(self, x: JupiterX, key: Array) -> JupiterX:
        """Resolve the pending chance event, if any, with ``key``.

        In Jupiter an action causes at most one chance event (taking a die: its roll) and
        a chance event never causes another (the first player, a roll), so one
        conditional draw replaces the base class's ``while_loop``, which costs far more
        under ``vmap`` on the CPU. The optimisation barrier makes XLA compute the new
        position once, rather than fuse (and repeat) it into every element of the
        observation and the mask that read it.
        """
        drawn = self._apply_chance_x(x, self._sample_chance(x, key))
        out = jax.tree.map(lambda a, b: jnp.where(self._player(x) == CHANCE, a, b), drawn, x)
        return jax.lax.optimization_barrier(out)

    def _apply_chance_x(self, x: JupiterX, outcome: Array) -> JupiterX:
        start = x.stage == START
        return x._replace(
            player=jnp.where(start, outcome, x.player),
            rolled=jnp.where(start, x.rolled, outcome + 1),
            stage=jnp.where(start, MOVE, ROLLED).astype(jnp.int32),
        )

    # ---- a player's action ---------------------------------------------------------------
    def _apply_action_x(self, x: JupiterX, action: Array) -> JupiterX:
        """A legal action of the player to move (the Python ``_apply``): take a die (a roll
        is then pending), or place a probe or the rolled die, score it and pass the turn.
        All three are computed and the action's own result is selected."""
        cfg, n, c = self.config, self.n, self.cells
        is_roll = action == 2 * c
        is_probe = action < c
        is_die = ~is_roll & ~is_probe
        target = jnp.where(is_probe, action, action - c)
        here = jnp.arange(c) == target
        # cells sharing the target's row or column (the target itself is empty)
        cols = self.game.cols
        line = (self._rows == target // cols) | (self._cols == target % cols)
        code = x.cell.astype(jnp.int32)
        seats = jnp.arange(n)
        gain = jnp.sum(jnp.where(line, self._value(code), 0))
        probes_in_line = jnp.sum(
            (line[None, :] & (code[None, :] == PROBE + seats[:, None])).astype(jnp.int32),
            axis=1,
        )
        die_value = self._value(x.rolled)
        me = seats == x.player
        delta = jnp.where(
            is_probe, jnp.where(me, gain, 0), jnp.where(is_die, die_value * probes_in_line, 0)
        )
        points = x.points + delta
        if cfg.black_moons:
            points = jnp.maximum(points, 0)
        new_code = jnp.where(is_probe, PROBE + x.player, x.rolled).astype(jnp.int8)
        cell = jnp.where(here & ~is_roll, new_code, x.cell)
        probes_left = x.probes_left - (me & is_probe).astype(jnp.int32)
        dice_left = x.dice_left - is_roll.astype(jnp.int32)
        placed = x._replace(
            cell=cell,
            probes_left=probes_left,
            dice_left=dice_left,
            points=points,
            rolled=jnp.where(is_die, 0, x.rolled),
        )
        player, stage = self._next_turn(placed)
        return placed._replace(
            player=jnp.where(is_roll, x.player, player),
            stage=jnp.where(is_roll, ROLLING, stage).astype(jnp.int32),
        )

    def _value(self, code: Array) -> Array:
        """The signed pips of cell codes (0 for an empty cell or a probe): 3 and 4 count
        negative with ``black_moons``."""
        pips = jnp.where(code <= NUM_FACES, code, 0)
        if self.config.black_moons:
            pips = jnp.where((code == 3) | (code == 4), -code, pips)
        return pips

    def _next_turn(self, x: JupiterX) -> tuple[Array, Array]:
        """The seat and stage after a placement (the Python ``_next_turn``)."""
        n = self.n
        full = jnp.all(x.cell != 0)
        following = (x.player + 1) % n
        if self.config.stuck_player == "end":
            can = (x.dice_left > 0) | (pick(x.probes_left, following) > 0)
            player = following
        else:
            # the first seat after the mover (the mover itself last) holding a probe
            distance = (jnp.arange(n) - following) % n
            nearest = jnp.min(jnp.where(x.probes_left > 0, distance, n))
            can = (x.dice_left > 0) | (nearest < n)
            player = jnp.where(x.dice_left > 0, following, (following + nearest) % n)
        over = full | ~can
        return (
            jnp.where(over, x.player, player).astype(jnp.int32),
            jnp.where(over, OVER, MOVE).astype(jnp.int32),
        )

    # ---- results ---------------------------------------------------------------------------
    def _scores(self, x: JupiterX) -> Array:
        return x.points

    def _winners(self, x: JupiterX) -> Array:
        best = x.points == jnp.max(x.points)
        if self.config.ties == "none":
            best = best & (jnp.sum(best.astype(jnp.int32)) == 1)
        return best

    # ---- observation -------------------------------------------------------------------------
    def _observe(self, x: JupiterX, player: Array) -> Array:
        """The Python ``observation(player)``: a one-hot per cell, then the counts, the die
        in hand, the scores and the variant flags, then (``line_features``) three numbers
        per cell; seats are rotated so that ``player`` comes first.

        Each part is built by compares and masked sums over the few seats, in its own
        layout, with no gather and no product; each cell's channel (the ``i``-th seat from
        ``player``'s probe, then faces 1..6, then empty) is computed once per cell, then
        compared with every channel number."""
        cfg, n = self.config, self.n
        ahead = seats_from(player, n)  # ahead[i]: the i-th seat from ``player``
        code = x.cell.astype(jnp.int32)
        channel = jnp.where(
            code >= PROBE,
            (code - PROBE - player) % n,
            jnp.where(code == 0, n + NUM_FACES, n + code - 1),
        )
        channel = computed_once(channel)
        onehot = (channel[:, None] == jnp.arange(self.num_channels)).astype(jnp.float32)
        points = rotate(x.points, ahead).astype(jnp.float32)
        others = jnp.max(points[1:])
        tail = [
            rotate(x.probes_left, ahead).astype(jnp.float32) / cfg.num_probes,
            (x.dice_left.astype(jnp.float32) / cfg.num_dice)[None],
            (x.rolled == jnp.arange(1, NUM_FACES + 1)).astype(jnp.float32),
            jnp.tanh(points / 50.0),
            jnp.tanh((points[0] - others) / 20.0)[None],
            jnp.array([float(cfg.black_moons), float(cfg.expanding_universe)], jnp.float32),
        ]
        parts = [onehot.reshape(-1), *tail]
        if cfg.line_features:
            parts.append(self._line_features(x, player))
        return jnp.concatenate(parts)

    def _line_features(self, x: JupiterX, player: Array) -> Array:
        """Per cell, cell-major: a probe's gain there now / 36 (clipped to ±1), my probes
        and the others' probes sharing its row or column / their numbers.

        The sums over a cell's row and column (the cell itself left out) are the row's sum
        plus the column's, less twice the cell's own value, in exact integers."""
        cfg = self.config
        shape = (self.game.rows, self.game.cols)
        code = x.cell.astype(jnp.int32)
        mine = code == PROBE + player
        per_cell = (
            jnp.stack([self._value(code), mine, (code >= PROBE) & ~mine], axis=-1)
            .astype(jnp.int32)
            .reshape(*shape, 3)
        )
        sums = (
            (
                jnp.sum(per_cell, axis=1, keepdims=True)
                + jnp.sum(per_cell, axis=0, keepdims=True)
                - 2 * per_cell
            )
            .reshape(-1, 3)
            .astype(jnp.float32)
        )
        feats = jnp.stack(
            [
                jnp.clip(sums[:, 0] / 36.0, -1.0, 1.0),
                sums[:, 1] / cfg.num_probes,
                sums[:, 2] / (cfg.num_probes * (cfg.num_players - 1)),
            ],
            axis=1,
        )
        return feats.reshape(-1)

    # ---- symmetries --------------------------------------------------------------------------
    def random_symmetry(self, key: Array) -> tuple[Array, Array]:
        """A uniformly drawn symmetry of the rules, as gathers ``(obs_index, action_index)``.

        Scoring reads only which cells share a row or a column, so any permutation of the
        rows, any of the columns and, on a square board, the transpose map a position to
        one that plays the same (4! x 4! x 2 = 1,152 symmetries with two players). In the
        mapped position cell ``j`` holds what cell ``P[j]`` held; its observation is
        ``observation[obs_index]`` and its policy ``policy[action_index]``.
        """
        rows, cols = self.game.rows, self.game.cols
        k_r, k_c, k_t = jax.random.split(key, 3)
        rp = jax.random.permutation(k_r, rows)
        cp = jax.random.permutation(k_c, cols)
        r, c = jnp.asarray(self._rows), jnp.asarray(self._cols)
        plain = rp[r] * cols + cp[c]
        if rows == cols:
            transposed = rp[c] * cols + cp[r]
            perm = jnp.where(jax.random.bernoulli(k_t), transposed, plain)
        else:
            perm = plain
        channels = jnp.arange(self.num_channels)
        board = (perm[:, None] * self.num_channels + channels[None, :]).reshape(-1)
        tail_start = self.cells * self.num_channels
        size = int(np.prod(self.observation_shape))
        parts = [board]
        if self.config.line_features:
            tail_end = size - 3 * self.cells
            lines = (tail_end + perm[:, None] * 3 + jnp.arange(3)[None, :]).reshape(-1)
            parts += [jnp.arange(tail_start, tail_end), lines]
        else:
            parts.append(jnp.arange(tail_start, size))
        actions = jnp.concatenate([perm, self.cells + perm, jnp.array([2 * self.cells])])
        return jnp.concatenate(parts).astype(jnp.int32), actions.astype(jnp.int32)


__all__ = ["JupiterTwin", "JupiterX"]
