"""The JAX twin base class: pgx's ``init/step`` over an explicit chance layer.

A twin is a :class:`JaxEnv` subclass that implements the rules once, as pure ``jnp``
functions of its own arrays ``x`` (a NamedTuple); this class turns them into the public
API, the same for every twin:

* ``init(key)``, ``step(state, action, key=None)``: pgx's API. ``step`` applies the
  action, then samples every chance event it causes with ``key``; a twin without chance
  needs no key, and a twin with chance refuses a missing one with a ``TypeError`` naming
  ``key``. A terminated state steps to itself with zero rewards. An illegal action ends
  the game: its player gets ``-1``, the others ``0`` (the Python env's
  ``illegal_action="penalize"``).
* ``initial_state()``, ``chance_probs(state)``, ``apply_chance(state, outcome)``,
  ``apply_action(state, action)``: the same game with chance under the caller's control.
  Outcome ids are the Python engine's ``chance_outcomes()`` ids.
* ``observe(state, player_id=None)``: the view of the player to move, or of any seat;
  ``resample(state, player, key)``: a position consistent with everything ``player``
  knows (a determinisation for search).

Every function is pure, has fixed shapes and works under ``jax.jit`` and ``jax.vmap``.

Bad input (see ``docs/jax.md``, "Bad input"): outside ``jit``, with known values, an
action or outcome that is not an integer or out of range, an outcome with probability 0,
an action at a chance node, an outcome where none is pending and a state that is not a
position raise a ``ValueError`` subclass before anything is computed
(:mod:`moon_envs.jax.inputs`). Under ``jit`` nothing can raise: an illegal or
out-of-range action ends the game with ``-1`` for its player; an action at a chance node,
an impossible outcome or a state whose ``current_player`` is no seat ends it with zero
rewards. Either way ``current_player`` stays a seat (or ``-1`` at a chance node).

Hooks a twin implements (all on one unbatched ``x``; seats are int32 scalars):
``_initial_x()``, ``_player(x)`` (a seat, ``CHANCE`` or ``TERMINAL``), ``_legal_mask(x)``
(bool, only read at a player node), ``_apply_action_x(x, a)``, ``_observe(x, player)``,
``_scores(x)``, ``_winners(x)`` (bool per seat, read once the game is over), and for a
chance game ``_chance_probs(x)`` and ``_apply_chance_x(x, outcome)``. A twin may override
``_sample_chance`` (for speed) and ``_resample_x`` (hidden information).
"""

from __future__ import annotations

from typing import Any, ClassVar

import jax
import jax.numpy as jnp

from moon_envs.core.checks import check_choice
from moon_envs.core.game import CHANCE, TERMINAL, ConfigError, Game
from moon_envs.core.snapshot import quote
from moon_envs.core.spec import REWARD_MODES
from moon_envs.jax import inputs
from moon_envs.jax.random_words import split_key
from moon_envs.jax.state import State

Array = jax.Array
ILLEGAL_ACTION_MODES = ("penalize",)


class JaxEnv:
    """A batched, jittable twin of one moon-envs game (see the module docstring).

    Attributes:
        id: the environment id, the same as ``moon_envs.make``'s (e.g. ``"jupiter_v0"``).
        game: the Python engine's :class:`~moon_envs.core.game.Game` with the same
            parameters (its validated ``config`` and ``spec`` are the twin's).
        reward_mode: ``"win"`` or ``"score"``, as in the Python env.
    """

    game_class: ClassVar[type[Game]]

    def __init__(self, env_id: str, game: Game, reward_mode: str = "win") -> None:
        self.id = env_id
        self.game = game
        self.config = game.config
        self.spec = game.spec
        self.reward_mode = reward_mode

    # ---- pgx's properties ------------------------------------------------------------
    @property
    def version(self) -> str:
        return self.id.rsplit("_", 1)[-1]

    @property
    def num_players(self) -> int:
        return self.spec.num_players

    @property
    def num_actions(self) -> int:
        return self.spec.num_actions

    @property
    def observation_shape(self) -> tuple[int, ...]:
        return tuple(self.spec.observation_shape)

    @property
    def num_chance_outcomes(self) -> int:
        """Size of :meth:`chance_probs` (0 for a game without chance)."""
        return self.spec.max_chance_outcomes

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.id} {self.config}>"

    # ---- hooks -------------------------------------------------------------------------
    def _initial_x(self) -> Any:
        raise NotImplementedError

    def _player(self, x: Any) -> Array:
        raise NotImplementedError

    def _legal_mask(self, x: Any) -> Array:
        raise NotImplementedError

    def _apply_action_x(self, x: Any, action: Array) -> Any:
        raise NotImplementedError

    def _observe(self, x: Any, player: Array) -> Array:
        raise NotImplementedError

    def _scores(self, x: Any) -> Array:
        raise NotImplementedError

    def _winners(self, x: Any) -> Array:
        raise NotImplementedError

    def _chance_probs(self, x: Any) -> Array:
        return jnp.zeros((max(self.num_chance_outcomes, 1),), jnp.float32)

    def _apply_chance_x(self, x: Any, outcome: Array) -> Any:
        return x

    def _sample_chance(self, x: Any, key: Array) -> Array:
        """An outcome drawn from :meth:`_chance_probs` (twins may draw it more cheaply)."""
        return jax.random.categorical(key, jnp.log(self._chance_probs(x)))

    def _resample_x(self, x: Any, player: Array, key: Array) -> Any:
        return x  # perfect information: nothing is unknown

    # ---- the explicit layer --------------------------------------------------------------
    def initial_state(self) -> State:
        """The position before any chance event (the Python ``new_initial_state()``)."""
        x = self._initial_x()
        return self._wrap(x, jnp.int32(0), self._zero_rewards(), jnp.int32(0))

    def chance_probs(self, state: State) -> Array:
        """float32 ``[num_chance_outcomes]``: each outcome's probability at a chance node,
        all zero elsewhere."""
        probs = self._chance_probs(state._x)
        return jnp.where(state.is_chance, probs, jnp.zeros_like(probs))

    def apply_chance(self, state: State, outcome: Array) -> State:
        """Resolve the pending chance event with ``outcome`` (an id with non-zero
        probability in :meth:`chance_probs`). A finished game is returned with zero
        rewards; under ``jit`` an impossible outcome (out of range, probability 0, or no
        chance event pending) ends the game with zero rewards, and outside ``jit`` it
        raises :class:`~moon_envs.IllegalActionError`."""
        inputs.check_outcome_call(self, state, outcome)
        outcome = jnp.asarray(outcome, jnp.int32)
        size = self.num_chance_outcomes
        index = jnp.clip(outcome, 0, max(size, 1) - 1)
        possible = (
            state.is_chance
            & (outcome >= 0)
            & (outcome < size)
            & (self._chance_probs(state._x)[index] > 0)
        )
        x = self._apply_chance_x(state._x, index)
        out = self._moved_or_ended(
            state, possible, x, self._rewards(state._x, x), self._zero_rewards(), state._step_count
        )
        return _select(state.terminated, state.replace(rewards=self._zero_rewards()), out)

    def apply_action(self, state: State, action: Array) -> State:
        """A player's action, with no chance resolved afterwards."""
        inputs.check_action_call(self, state, action, "apply_action")
        return self._guarded(state, action, lambda x, a: self._apply_action_x(x, a))

    def resolve_chance(self, state: State, key: Array) -> State:
        """Sample chance events with ``key`` until a player is to move or the game ends.
        A finished game is returned with zero rewards (even one that bad input ended at a
        chance node)."""
        if inputs.is_concrete(state):
            inputs.check_state(self, state, single=True)
        x = self._resolve_x(state._x, key)
        out = self._wrap(x, state.current_player, self._rewards(state._x, x), state._step_count)
        return _select(state.terminated, state.replace(rewards=self._zero_rewards()), out)

    # ---- checks of a batch before a jitted call --------------------------------------
    def check_state(self, state: State) -> None:
        """Raise :class:`~moon_envs.ConfigError` naming the first lane of ``state`` (one
        position or a batch) that is not a position of this twin."""
        inputs.check_state(self, state)

    def check_action(self, state: State, action: Array) -> None:
        """Raise naming the first bad lane unless ``action`` (one per lane of ``state``)
        is an integer in ``0..num_actions - 1`` at a player node; what ``step`` checks
        outside ``jit``. An illegal action in range passes: it is a move that loses."""
        inputs.check_action_call(self, state, action, "step", single=False)

    def check_outcome(self, state: State, outcome: Array) -> None:
        """Raise naming the first bad lane unless ``outcome`` (one per lane of ``state``)
        has a non-zero probability at a chance node; what ``apply_chance`` checks outside
        ``jit``."""
        inputs.check_outcome_call(self, state, outcome, single=False)

    # ---- pgx's API ---------------------------------------------------------------------
    def init(self, key: Array) -> State:
        """A new game with its set-up chance resolved with ``key``."""
        state = self.initial_state()
        x = self._resolve_x(state._x, key)
        return self._wrap(x, jnp.int32(0), self._zero_rewards(), jnp.int32(0))

    def step(self, state: State, action: Array, key: Array | None = None) -> State:
        """``action`` by the player to move, then the chance events it causes, sampled with
        ``key``; ``rewards`` cover all of them. Bad input: see the module docstring.

        As in pgx, ``key`` may be left out where the game has no chance events
        (``env.spec.has_chance`` is false); a game with chance refuses a missing key with
        a ``TypeError`` naming it, before anything is computed (pgx asserts the same for
        its stochastic games)."""
        if key is None and self.spec.has_chance:
            raise TypeError(
                f"step() of {self.id} needs key: the game has chance events, sampled with it; "
                f"call env.step(state, action, key) with a jax.random key"
            )
        inputs.check_action_call(self, state, action, "step")
        return self._step_unchecked(state, action, key)

    def scores(self, state: State) -> Array:
        """Every seat's score ``[num_players]`` in ``state`` (the Python ``State.scores``)."""
        return self._scores(state._x)

    def observe(self, state: State, player_id: Array | None = None) -> Array:
        """What seat ``player_id`` may know, laid out as the Python engine's
        ``observation(player)``. Without ``player_id`` (pgx's ``observe(state)``): the view
        of ``state.current_player``, which is ``state.observation``; at a chance node,
        where no seat is to move, that is the view of the seat that moved last."""
        if player_id is not None:
            return self._observe(state._x, jnp.asarray(player_id, jnp.int32))
        player = jnp.asarray(state.current_player, jnp.int32)
        view = self._observe(state._x, jnp.maximum(player, 0))
        return jnp.where(player >= 0, view, state.observation)

    def resample(self, state: State, player: Array, key: Array) -> State:
        """A position consistent with everything ``player`` knows, the unknown redrawn
        with ``key`` (the state itself in a perfect-information game)."""
        x = self._resample_x(state._x, jnp.asarray(player, jnp.int32), key)
        return self._wrap(x, state.current_player, state.rewards, state._step_count)

    # ---- plumbing ------------------------------------------------------------------------
    def _step_unchecked(self, state: State, action: Array, key: Array | None) -> State:
        """``step`` once its arguments are checked: the action, then its chance events.
        A twin may override it with a faster equivalent (tested step by step against this
        one)."""
        return self._guarded(
            state, action, lambda x, a: self._resolve_x(self._apply_action_x(x, a), key)
        )

    def _guarded(self, state: State, action: Array, apply: Any) -> State:
        """Apply ``apply(x, action)`` at a player node. An illegal or out-of-range action
        ends the game with -1 for its player; an action at a chance node, or in a state
        whose ``current_player`` is no seat, ends it with zero rewards (there is no mover
        to blame). A finished game is left as it is, with zero rewards."""
        action = jnp.asarray(action, jnp.int32)
        index = jnp.clip(action, 0, self.num_actions - 1)
        player = state.current_player
        at_seat = (player >= 0) & (player < self.num_players) & ~state.is_chance
        legal = at_seat & (action >= 0) & (action < self.num_actions)
        legal = legal & state.legal_action_mask[index]
        x = apply(state._x, index)
        blamed = jnp.arange(self.num_players) == jnp.where(at_seat, player, -1)
        penalty = jnp.where(blamed, -1.0, 0.0).astype(jnp.float32)
        out = self._moved_or_ended(
            state, legal, x, self._rewards(state._x, x), penalty, state._step_count + 1
        )
        return _select(state.terminated, state.replace(rewards=self._zero_rewards()), out)

    def _moved_or_ended(
        self, state: State, ok: Array, x: Any, rewards: Array, penalty: Array, steps: Array
    ) -> State:
        """The state of ``x`` (reached from ``state`` with ``rewards``) where ``ok``; else
        ``state``'s position, the game ended with ``penalty``. One observation either way,
        of a seat: the mover's (seat 0 at a chance node or for a seat out of range)."""
        player = state.current_player
        seat = jnp.where((player >= 0) & (player < self.num_players), player, 0)
        kept = _select(ok, x, state._x)
        return self._wrap(x, seat, jnp.where(ok, rewards, penalty), steps, ended=~ok, kept=kept)

    def _resolve_x(self, x: Any, key: Array) -> Any:
        if not self.spec.has_chance:
            return x

        def pending(carry: tuple[Any, Array]) -> Array:
            return self._player(carry[0]) == CHANCE

        def resolve_one(carry: tuple[Any, Array]) -> tuple[Any, Array]:
            x, key = carry
            key, sub = split_key(key)
            return self._apply_chance_x(x, self._sample_chance(x, sub)), key

        return jax.lax.while_loop(pending, resolve_one, (x, key))[0]

    def _wrap(
        self,
        x: Any,
        previous_player: Array,
        rewards: Array,
        step_count: Array,
        ended: Array | bool = False,
        kept: Any = None,
    ) -> State:
        """The public :class:`State` of ``x``; ``previous_player`` is the seat whose view a
        chance node or a finished game shows. ``ended``: the game is over whatever ``x``
        says (bad input ended it) and ``previous_player`` is its seat. ``kept``: the
        arrays the state holds and observes, where they are not ``x`` (the position before
        the bad input); the player and mask are read from ``x`` either way, so that
        compiled code computes them once, shared with the rewards."""
        kept = x if kept is None else kept
        player = jnp.where(ended, TERMINAL, self._player(x))
        terminated = player == TERMINAL
        is_chance = player == CHANCE
        seat = jnp.where(player >= 0, player, jnp.maximum(previous_player, 0)).astype(jnp.int32)
        mask = jnp.where(
            terminated,
            True,
            jnp.where(is_chance, False, self._legal_mask(x).astype(jnp.bool_)),
        )
        return State(
            current_player=jnp.where(is_chance, jnp.int32(CHANCE), seat),
            observation=self._observe(kept, seat),
            legal_action_mask=mask,
            rewards=rewards.astype(jnp.float32),
            terminated=terminated,
            truncated=jnp.bool_(False),
            is_chance=is_chance,
            _step_count=jnp.asarray(step_count, jnp.int32),
            _x=kept,
            env_id=self.id,
        )

    def _zero_rewards(self) -> Array:
        return jnp.zeros((self.num_players,), jnp.float32)

    def _rewards(self, before: Any, after: Any) -> Array:
        """The reward of going from ``before`` to ``after`` under ``reward_mode``."""
        if self.reward_mode == "score":
            return (self._scores(after) - self._scores(before)).astype(jnp.float32)
        ended = (self._player(after) == TERMINAL) & (self._player(before) != TERMINAL)
        return jnp.where(ended, self.win_returns(self._winners(after)), 0.0).astype(jnp.float32)

    def win_returns(self, winners: Array) -> Array:
        """``"win"`` returns from a winners mask: the winners share +1, the others share
        -1; all zero if everyone or no one wins (the Python ``returns("win")``)."""
        n = self.num_players
        k = jnp.sum(winners.astype(jnp.int32))
        share_win = 1.0 / jnp.maximum(k, 1)
        share_loss = -1.0 / jnp.maximum(n - k, 1)
        out = jnp.where(winners, share_win, share_loss)
        return jnp.where((k > 0) & (k < n), out, 0.0).astype(jnp.float32)


def _select(pred: Array, on_true: Any, on_false: Any) -> Any:
    """``on_true`` where ``pred`` else ``on_false``, leaf by leaf (both already computed)."""
    return jax.tree.map(lambda a, b: jnp.where(pred, a, b), on_true, on_false)


def check_env_params(env_id: str, params: dict[str, Any]) -> str:
    """Check the env-level parameters a twin accepts and return its ``reward_mode``.

    A twin draws nothing and raises nothing inside ``jit``: ``render_mode`` and
    ``render_seat`` must be unset and ``illegal_action`` can only be ``"penalize"``.
    """
    for name in ("render_mode", "render_seat"):
        if params.get(name) is not None:
            raise ConfigError(
                f"{name}={quote(params[name])} is not available in the JAX twin of {env_id}: "
                f"twins do not render; replay the actions in moon_envs.make({env_id!r}) "
                f"to render a game. Allowed values: [None]"
            )
    illegal = params.get("illegal_action", "penalize")
    if illegal not in ILLEGAL_ACTION_MODES:
        raise ConfigError(
            f"illegal_action={quote(illegal)} is not available in the JAX twin of {env_id}: "
            f"code under jax.jit cannot raise, so an illegal action ends the game with -1 "
            f"for its player. Allowed values: {list(ILLEGAL_ACTION_MODES)}"
        )
    reward_mode = params.get("reward_mode", "win")
    check_choice("reward_mode", reward_mode, REWARD_MODES)
    return reward_mode
