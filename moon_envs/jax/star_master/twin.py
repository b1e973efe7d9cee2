"""Star Master's JAX twin: :class:`StarMasterTwin`, the hooks of
:class:`~moon_envs.jax.env.JaxEnv` over :class:`~moon_envs.jax.star_master.tables.SMx`.

The rules are in ``rules`` (actions and chance outcomes), the views in ``views`` (whose
move, mask, observation, chance probabilities), the determinisation in ``determinise``
and the decay-mode hash in ``forget``. Every parameter of
:class:`~moon_envs.star_master.config.StarMasterConfig` and every player count (1 to 6)
is supported.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp

from moon_envs.core.game import Game
from moon_envs.jax.env import JaxEnv
from moon_envs.jax.star_master import chance, determinise, fast, rules, views
from moon_envs.jax.star_master.tables import SMx, Tables, initial_x
from moon_envs.jax.state import State
from moon_envs.star_master.rules import StarMasterGame

Array = jax.Array


class StarMasterTwin(JaxEnv):
    """Star Master (``star_master_v0``) in JAX; build it with
    ``moon_envs.jax.make("star_master_v0", **params)``.

    Alone at the table (``num_players=1``, solitaire or not) a finished game returns
    ``+1`` for holding 6 colours and ``-1`` otherwise, as the Python engine does.
    """

    game_class = StarMasterGame

    def __init__(self, env_id: str, game: Game, reward_mode: str = "win") -> None:
        super().__init__(env_id, game, reward_mode)
        self.tables = Tables(self.config)

    # ---- hooks -----------------------------------------------------------------------------
    def _initial_x(self) -> SMx:
        return initial_x(self.tables)

    def _player(self, x: SMx) -> Array:
        return views.player(self.tables, x)

    def _legal_mask(self, x: SMx) -> Array:
        return views.legal_mask(self.tables, x)

    def _apply_action_x(self, x: SMx, action: Array) -> SMx:
        return rules.apply_action(self.tables, x, action)

    def _chance_probs(self, x: SMx) -> Array:
        return chance.chance_probs(self.tables, x)

    def _apply_chance_x(self, x: SMx, outcome: Array) -> SMx:
        return rules.apply_chance(self.tables, x, outcome)

    def _observe(self, x: SMx, player: Array) -> Array:
        return views.observe(self.tables, x, player)

    def _scores(self, x: SMx) -> Array:
        return jnp.sum(x.pawns, axis=1, dtype=jnp.int32).astype(jnp.float32)

    def _winners(self, x: SMx) -> Array:
        return x.winners

    def _resample_x(self, x: SMx, player: Array, key: Array) -> SMx:
        return determinise.resample(self.tables, x, player, key)

    # ---- one player -----------------------------------------------------------------------
    def win_returns(self, winners: Array) -> Array:
        """As the base class, except alone at the table: ``+1`` for a win, else ``-1``."""
        if self.num_players == 1:
            return jnp.where(winners, 1.0, -1.0).astype(jnp.float32)
        return super().win_returns(winners)

    # ---- chance without a loop, the fast init and step --------------------------------------
    def init(self, key: Array) -> State:
        """A new game (pgx's ``init``), its set-up chance drawn with ``key`` in one pass
        (:func:`~moon_envs.jax.star_master.chance.start`: the same distribution as the
        explicit layer's draws, without a loop); built by
        :func:`~moon_envs.jax.star_master.fast.init`, the state
        ``self._wrap(start(key), ...)`` would be."""
        return fast.init(self, key)

    def _step_unchecked(self, state: State, action: Array, key: Array | None) -> State:
        """The base class's step (the action, then :meth:`_resolve_x`) in one pass:
        :func:`~moon_envs.jax.star_master.fast.step`."""
        return fast.step(self, state, action, key)

    def _resolve_x(self, x: SMx, key: Array) -> SMx:
        """Chance without the base class's general loop: the set-up's draws, if pending
        (only from :meth:`initial_state`), in a loop of their own
        (:func:`~moon_envs.jax.star_master.chance.set_up`, with a key folded from
        ``key``); then the chance an action causes, a race draw and a roll, in one pass
        (:func:`~moon_envs.jax.star_master.chance.resolve`, from
        :func:`~moon_envs.jax.star_master.chance.step_words` of ``key``)."""
        x = chance.set_up(self.tables, x, jax.random.fold_in(key, 1))
        return chance.resolve(self.tables, x, chance.step_words(key))
