"""The Moonwakers twin (``moonwakers_v1``): the Python engine's game as pure ``jnp`` code,
over the explicit chance layer of :class:`~moon_envs.jax.env.JaxEnv`.

:class:`MoonwakersTwin` plays :mod:`moon_envs.moonwakers`' game: the same action ids,
chance outcome ids (a terrain card, a COMBINATION card, a character, a d12 roll),
observations, scores and rewards, for every parameter of
:class:`~moon_envs.moonwakers.config.MoonwakersConfig` (2-6 players, every house rule, a
custom card file). The position is an :class:`~moon_envs.jax.moonwakers.position.MWx`;
a decision or a chance outcome is applied by
:mod:`~moon_envs.jax.moonwakers.advance`, which then runs the task queue on to the next
decision or chance node.

``resample`` is :mod:`~moon_envs.jax.moonwakers.determinise`'s; Python positions convert
both ways with :mod:`moon_envs.jax.python_states`.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp

from moon_envs.core.game import CHANCE, TERMINAL
from moon_envs.jax.env import JaxEnv
from moon_envs.jax.moonwakers import advance, chance, determinise, legal, observe
from moon_envs.jax.moonwakers.position import MWx
from moon_envs.jax.state import State
from moon_envs.jax.moonwakers.python_state import position_of
from moon_envs.jax.random_words import random_words
from moon_envs.jax.moonwakers.tables import BOUGHT, build_tables
from moon_envs.moonwakers.game import MoonwakersGame

Array = jax.Array


class MoonwakersTwin(JaxEnv):
    """Moonwakers SEED in JAX (see the module docstring)."""

    game_class = MoonwakersGame

    def __init__(self, env_id: str, game: MoonwakersGame, reward_mode: str = "win") -> None:
        super().__init__(env_id, game, reward_mode)
        self.tables = build_tables(game)
        self._start = jax.tree.map(jnp.asarray, position_of(self.tables, game.new_initial_state()))

    def _initial_x(self) -> MWx:
        return self._start

    def init(self, key: Array) -> State:
        """A new game with its set-up chance resolved with ``key``: the base class's
        ``init``, its set-up run by cheaper passes
        (:func:`~moon_envs.jax.moonwakers.advance.resolve_setup`), with the same outcomes."""
        x = advance.resolve_setup(self.tables, self._start, key)
        return self._wrap(x, jnp.int32(0), self._zero_rewards(), jnp.int32(0))

    def _player(self, x: MWx) -> Array:
        row, what = advance.step_kind(x)
        return jnp.where(
            what < 0, TERMINAL, jnp.where(what == advance.CHANCE_STEP, CHANCE, row[1])
        ).astype(jnp.int32)

    def _legal_mask(self, x: MWx) -> Array:
        return legal.legal_mask(self.tables, x)

    def _apply_action_x(self, x: MWx, action: Array) -> MWx:
        return advance.apply_action(self.tables, x, action)

    def _chance_probs(self, x: MWx) -> Array:
        return chance.outcome_probs(self.tables, x)

    def _apply_chance_x(self, x: MWx, outcome: Array) -> MWx:
        return advance.apply_chance(self.tables, x, outcome)

    def _sample_chance(self, x: MWx, key: Array) -> Array:
        """A uniform draw among the possible outcomes (every chance node of the game is
        uniform), from one random word of ``key``."""
        return advance.uniform_pick(self._chance_probs(x) > 0, random_words(key, 1)[0])

    def _resolve_x(self, x: MWx, key: Array) -> MWx:
        """The base class's chance loop fused with the queue's passes
        (:func:`~moon_envs.jax.moonwakers.advance.resolve`): the same outcomes."""
        return advance.resolve(self.tables, x, key)

    def _observe(self, x: MWx, player: Array) -> Array:
        return observe.observe(self.tables, x, player)

    def _scores(self, x: MWx) -> Array:
        return x.score.astype(jnp.float32)

    def _winners(self, x: MWx) -> Array:
        """Most points; ties broken by more COMBINATION cards, then shared."""
        bought = jnp.sum(
            (x.combo_place == BOUGHT)[None, :]
            & (x.combo_owner[None, :] == jnp.arange(self.num_players)[:, None]),
            axis=1,
        )
        key = x.score * 64 + bought
        return key == jnp.max(key)

    def _resample_x(self, x: MWx, player: Array, key: Array) -> MWx:
        return determinise.resample(self.tables, x, player, key)
