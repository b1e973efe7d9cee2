"""The Game / State protocol every moon-envs rules engine implements.

A *game* is a pure rules engine, split the OpenSpiel way:

* :class:`Game` holds the immutable rules: a frozen, validated config dataclass and a
  :class:`GameSpec` (sizes, bounds, flags) that generic code and tests can check.
* :class:`State` is one position. It is mutated only through :meth:`State.apply_action`,
  which validates first and changes nothing when it raises :class:`IllegalActionError`.

Random events are explicit *chance nodes*: ``current_player() == CHANCE`` and
``chance_outcomes()`` lists ``(outcome, probability)`` pairs. Chance outcomes live in their
own integer space (``0 .. spec.max_chance_outcomes - 1``), separate from player actions.

A subclass of :class:`State` implements the ``_``-prefixed hooks (``_current_player``,
``_legal_mask``, ``_apply``, ``_observation``, ...); the public methods here add the
validation and the reward bookkeeping once for every game, and
:class:`~moon_envs.core.state_io.PositionData` the cloning, snapshots and checks of a
position. The constants and :class:`GameSpec` live in :mod:`moon_envs.core.spec`, the
parameter checks in :mod:`moon_envs.core.checks`; all are importable from here.
"""

from __future__ import annotations

import dataclasses
from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np

from moon_envs.core.checks import (
    action_index,
    check_bool,
    check_choice,
    check_int,
    config_from_kwargs,
)
from moon_envs.core.errors import ConfigError, IllegalActionError
from moon_envs.core.info_fields import Field
from moon_envs.core.snapshot import encode as _encode
from moon_envs.core.snapshot import quote
from moon_envs.core.spec import CHANCE, REWARD_MODES, TERMINAL, GameSpec
from moon_envs.core.state_io import PositionData

__all__ = [  # the protocol and, for the games' imports, the constants and checks beside it
    "CHANCE",
    "REWARD_MODES",
    "TERMINAL",
    "ConfigError",
    "Game",
    "GameSpec",
    "IllegalActionError",
    "State",
    "action_index",
    "check_bool",
    "check_choice",
    "check_int",
    "config_from_kwargs",
]

# ----------------------------------------------------------------------------------------
# Game
# ----------------------------------------------------------------------------------------


class Game(ABC):
    """Immutable rules of one game: a validated config plus its :class:`GameSpec`.

    Subclasses set ``config_class`` and ``state_class`` and implement :meth:`_make_spec`.
    ``Game(**params)`` or ``Game(config)`` both work; unknown or bad params raise
    :class:`ConfigError`.
    """

    config_class: ClassVar[type]
    state_class: ClassVar[type[State]]

    def __init__(self, config: Any = None, **params: Any) -> None:
        if config is None:
            config = config_from_kwargs(self.config_class, params)
        elif params:
            raise ConfigError("pass either a config object or keyword parameters, not both")
        elif isinstance(config, Mapping):
            config = config_from_kwargs(self.config_class, config)
        elif not isinstance(config, self.config_class):
            raise ConfigError(
                f"config must be a {self.config_class.__name__} or a mapping, "
                f"got {type(config).__name__}"
            )
        self.config = config
        self.spec: GameSpec = self._make_spec()

    @abstractmethod
    def _make_spec(self) -> GameSpec:
        """Return the GameSpec for ``self.config``."""

    def new_initial_state(self) -> State:
        """The position before the first action (may be a chance node)."""
        return self.state_class(self)

    def state_from_dict(self, data: Mapping[str, Any]) -> State:
        """Rebuild a state of this game from :meth:`State.to_dict` output."""
        return self.state_class.from_dict(data, game=self)

    @property
    def num_players(self) -> int:
        return self.spec.num_players

    @property
    def num_actions(self) -> int:
        return self.spec.num_actions

    def info_fields(self) -> list[Field]:
        """The numeric form of this game's infos (see :mod:`moon_envs.core.info_fields`): one
        :class:`Field` per value that ``State.info()`` / ``info_for()`` can hold; none here."""
        return []

    def params(self) -> dict[str, Any]:
        """The config as a plain dict (JSON-friendly)."""
        return _encode(dataclasses.asdict(self.config))

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other.config == self.config  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash((type(self).__name__, self.config))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.config!r})"

    def __deepcopy__(self, memo: dict) -> Game:
        """The game itself: it is immutable, so copies of envs and states share it."""
        return self


# ----------------------------------------------------------------------------------------
# State
# ----------------------------------------------------------------------------------------


class State(PositionData, ABC):
    """One position of a game.

    Public API (the same for every game):
        current_player, legal_actions_mask, legal_actions, chance_outcomes, apply_action,
        is_terminal, scores, winners, returns, rewards, observation, info, clone,
        to_dict / from_dict, resample, action_to_string, action_to_public_string, __str__.

    Subclass hooks: ``_current_player``, ``_legal_mask``, ``_apply``, ``_observation``,
    ``_scores``, ``_winners`` and, for chance games, ``_chance_outcomes``. Subclasses keep all
    position data in instance attributes of JSON-friendly types (ints, floats, bools,
    str, None, lists, tuples, dicts with str keys, numpy arrays) so that clone and
    serialisation work without extra code; ``game`` is shared, never copied.
    """

    game: Game

    def __init__(self, game: Game) -> None:
        self.game = game
        self._scores_record: tuple | np.ndarray | None = None  # see _scores_before
        self._last_win_delta: np.ndarray | None = None  # set only by the game-ending action
        self.move_number = 0  # player actions applied so far

    @classmethod
    def _game_class(cls) -> type[Game]:
        """The :class:`Game` subclass whose ``state_class`` is this class."""
        pending = Game.__subclasses__()
        while pending:
            game_class = pending.pop()
            if getattr(game_class, "state_class", None) is cls:
                return game_class
            pending += game_class.__subclasses__()
        raise TypeError(f"no Game class declares state_class={cls.__name__}")

    # ---- hooks --------------------------------------------------------------------------
    @abstractmethod
    def _current_player(self) -> int: ...

    @abstractmethod
    def _legal_mask(self) -> np.ndarray:
        """int8 array of length num_actions; only called at a player node."""

    @abstractmethod
    def _apply(self, action: int) -> None:
        """Apply an already-validated player action or chance outcome."""

    @abstractmethod
    def _observation(self, player: int) -> np.ndarray: ...

    @abstractmethod
    def _scores(self) -> np.ndarray:
        """Game score per seat, current value (may be the live internal array)."""

    @abstractmethod
    def _winners(self) -> list[int]:
        """Winning seats; only called at a terminal state."""

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        """The chance node's outcomes; may be a list the game shares (never written)."""
        raise NotImplementedError(f"{type(self).__name__} has no chance nodes")

    def _is_chance_outcome(self, outcome: int) -> bool:
        """Whether ``outcome`` is possible at this chance node (override where the outcome
        list is long and its ids are known without building it)."""
        return any(o == outcome for o, _ in self._chance_outcomes())

    def _is_legal(self, action: int) -> bool:
        """Whether ``action`` is legal for the player to move (override to skip the mask)."""
        mask = self._legal_mask()
        return 0 <= action < mask.shape[0] and bool(mask[action])

    # ---- public protocol ---------------------------------------------------------------
    def current_player(self) -> int:
        """Seat to act, :data:`CHANCE`, or :data:`TERMINAL`."""
        return self._current_player()

    def is_terminal(self) -> bool:
        return self._current_player() == TERMINAL

    def is_chance_node(self) -> bool:
        return self._current_player() == CHANCE

    def legal_actions_mask(self) -> np.ndarray:
        """int8 mask over ``Discrete(num_actions)``; all zeros at chance and terminal nodes."""
        if self._current_player() < 0:
            return np.zeros(self.game.spec.num_actions, dtype=np.int8)
        return self._legal_mask()

    def legal_actions(self) -> list[int]:
        return np.flatnonzero(self.legal_actions_mask()).tolist()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``(outcome, probability)`` pairs at a chance node; ``[]`` elsewhere."""
        if self._current_player() != CHANCE:
            return []
        return list(self._chance_outcomes())

    def apply_action(self, action: int) -> None:
        """Apply a player action or a chance outcome.

        Raises :class:`IllegalActionError` (naming the action and the legal choices) and
        changes nothing when the action is not legal here.
        """
        player = self._current_player()
        a = action if type(action) is int else action_index(action, self.game.spec.num_actions)
        if player >= 0:
            if not self._is_legal(a):
                legal = np.flatnonzero(self._legal_mask()).tolist()
                shown = legal if len(legal) <= 200 else [*legal[:200], "..."]
                raise IllegalActionError(
                    f"action {quote(a)} ({self._describe(a)}) is illegal for player {player}; "
                    f"legal actions: {shown}"
                )
        elif player == CHANCE:
            if not self._is_chance_outcome(a):
                outcomes = [o for o, _ in self._chance_outcomes()]
                shown = outcomes if len(outcomes) <= 50 else [*outcomes[:50], "..."]
                raise IllegalActionError(
                    f"chance outcome {quote(a)} is not possible here; possible outcomes: {shown}"
                )
        else:
            raise IllegalActionError(f"the game is over; action {quote(a)} cannot be applied")
        self._apply_checked(a, player)

    def apply_chance_outcome(self, outcome: int) -> None:
        """Apply an outcome taken from :meth:`chance_outcomes` without re-checking it
        (for samplers that drew it from that very list)."""
        self._apply_checked(outcome if type(outcome) is int else int(outcome), CHANCE)

    def _apply_checked(self, a: int, player: int) -> None:
        s = self._scores()  # recorded for the score reward (see _scores_before)
        if type(s) is list or type(s) is tuple:
            self._scores_record = tuple(s)
        else:  # a numpy or Python array
            self._scores_record = tuple(s.tolist())
        self._apply(a)
        if player >= 0:
            self.move_number += 1
        if self._current_player() == TERMINAL:  # the game just ended: the one win reward
            self._last_win_delta = self.returns("win")
        elif self._last_win_delta is not None:
            self._last_win_delta = None

    def _describe(self, a: int) -> str:
        try:
            return self.action_to_string(a)
        except Exception:  # describing must never mask the real error
            return "out of range"

    def scores(self) -> np.ndarray:
        """Current game score per seat (float64 copy)."""
        return np.array(self._scores(), dtype=np.float64)

    def winners(self) -> list[int]:
        """Winning seats (ties share the win); ``[]`` before the end."""
        if not self.is_terminal():
            return []
        return list(self._winners())

    def result_text(self) -> str:
        """The result line of a finished game's text view: ``game over, winner(s):
        player_0`` (ties list every winner) or ``game over, tied: no winner``."""
        winners = self._winners()
        if not winners:
            return "game over, tied: no winner"
        return "game over, winner(s): " + ", ".join(f"player_{w}" for w in winners)

    def returns(self, mode: str = "win") -> np.ndarray:
        """Per-seat return so far.

        ``"win"``: zero until the end; then the winners share +1 and the others share -1
        (all zero if everyone wins). ``"score"``: the game score.
        """
        if mode == "score":
            return self.scores()
        if mode != "win":
            raise ConfigError(
                f"reward_mode={quote(mode)} is not allowed; allowed values: {list(REWARD_MODES)}"
            )
        n = self.game.spec.num_players
        win = self._winners() if self._current_player() == TERMINAL else ()
        if not 0 < len(win) < n:
            return np.zeros(n, dtype=np.float64)
        won, lost = 1.0 / len(win), -1.0 / (n - len(win))
        winners = set(win)
        return np.array([won if s in winners else lost for s in range(n)], dtype=np.float64)

    def rewards(self, mode: str = "win") -> np.ndarray:
        """Per-seat reward produced by the last :meth:`apply_action` (player or chance)."""
        if mode == "score":
            if self._scores_before is None:
                return np.zeros(self.game.spec.num_players, dtype=np.float64)
            return np.asarray(self._scores(), dtype=np.float64) - self._scores_before
        if mode != "win":
            raise ConfigError(
                f"reward_mode={quote(mode)} is not allowed; allowed values: {list(REWARD_MODES)}"
            )
        if self._last_win_delta is None:
            return np.zeros(self.game.spec.num_players, dtype=np.float64)
        return self._last_win_delta.copy()

    def _rewards_or_none(self, mode: str) -> np.ndarray | None:
        """:meth:`rewards` for the env's hot path: ``None`` where they are known to be all
        zero without building them (``"win"`` mode before the end)."""
        if mode == "win" and self._last_win_delta is None:
            return None
        return self.rewards(mode)

    def observation(self, player: int) -> np.ndarray:
        """What ``player`` may know, as a float32 array of ``spec.observation_shape``,
        laid out from ``player``'s own point of view (own features first)."""
        if not 0 <= player < self.game.spec.num_players:
            raise ValueError(f"player must be in 0..{self.game.spec.num_players - 1}, got {player}")
        return self._observation(player)

    def global_state(self) -> np.ndarray:
        """The full-information state of the position, as a float32 vector of
        ``spec.global_state_shape`` (PettingZoo's ``env.state()``, for centralised critics).

        Default layout, for perfect-information games: seat 0's observation (flattened),
        then a one-hot of who is to move (``num_players`` seats, then one entry for the
        game being over; all zero at a chance node). A hidden-information game overrides
        :meth:`_global_state` so that everything hidden from any seat is included.
        """
        return self._global_state()

    def _global_state(self) -> np.ndarray:
        if self.game.spec.hidden_information:
            raise NotImplementedError(
                f"{type(self).__name__} hides information and must define _global_state()"
            )
        n = self.game.spec.num_players
        out = np.zeros(self.game.spec.global_state_shape, dtype=np.float32)
        obs = self._observation(0).ravel()
        out[: obs.shape[0]] = obs
        player = self._current_player()
        if player >= 0:
            out[obs.shape[0] + player] = 1.0
        elif player == TERMINAL:
            out[obs.shape[0] + n] = 1.0
        return out

    def to_string(self, player: int | None = None) -> str:
        """The position as text: the spectator's full view (``player=None``, the same as
        ``str(state)``), or what seat ``player`` may know. Perfect-information games show
        everyone the same board; hidden-information games override this."""
        if player is not None and not 0 <= player < self.game.spec.num_players:
            raise ValueError(f"player must be in 0..{self.game.spec.num_players - 1}, got {player}")
        return str(self)

    def info(self) -> dict[str, Any]:
        """Public facts about the last transition (e.g. end-of-round reports). Default: ``{}``."""
        return {}

    def info_for(self, player: int) -> dict[str, Any]:
        """The info the env gives seat ``player`` (its ``infos[agent]``). Default: :meth:`info`,
        the same for every seat; a game where what a seat may know of past events differs
        per seat (e.g. a memory window) overrides it, returning a new dict on each call."""
        return self.info()

    def action_to_string(self, action: int) -> str:
        """Human-readable name of a player action (subclasses override)."""
        return str(int(action))

    def action_to_public_string(self, action: int, observer: int) -> str:
        """What ``observer`` learns when the player to move takes ``action`` (call it before
        applying the action). The full name for perfect-information games and for the
        mover's own actions; hidden-information games override it to hide sealed choices."""
        return self.action_to_string(action)

    def resample(self, player: int, rng: np.random.Generator) -> State:
        """A state consistent with everything ``player`` knows (a determinisation).

        Perfect-information games return a clone; hidden-information games override.
        """
        return self.clone()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} move={self.move_number} player={self.current_player()}>"
