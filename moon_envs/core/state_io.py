"""Copying, serialising and checking positions: the part of :class:`State` that treats a
position as data.

:class:`PositionData` is a mixin of :class:`moon_envs.core.game.State`: ``clone()``,
``copy``/``deepcopy``, ``to_dict()`` / ``from_dict()`` (JSON snapshots, safe on untrusted
data: see :mod:`moon_envs.core.snapshot`), ``validate()`` and equality by snapshot.

This module sits below :mod:`moon_envs.core.game`: it knows a game only through
:class:`GameLike` (what a position needs of its rules) and asks the state class for its
game class through :meth:`PositionData._game_class`, which ``State`` implements.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any, ClassVar, Protocol, TypeVar

import numpy as np

from moon_envs.core.checks import check_int
from moon_envs.core.errors import ConfigError
from moon_envs.core.snapshot import check_fields, check_like, check_same_config, quote
from moon_envs.core.snapshot import decode as _decode
from moon_envs.core.snapshot import encode as _encode
from moon_envs.core.spec import CHANCE, TERMINAL, GameSpec

S = TypeVar("S", bound="PositionData")


class GameLike(Protocol):
    """What a position needs of its game (:class:`moon_envs.core.game.Game` provides it)."""

    spec: GameSpec
    state_class: ClassVar[type]

    def params(self) -> dict[str, Any]: ...

    def new_initial_state(self) -> Any: ...


class PositionData:
    """Copy, snapshot and validation methods of a position (see the module docstring)."""

    game: GameLike
    move_number: int

    def validate(self) -> None:
        """Check a position rebuilt from untrusted data (``from_dict`` of a user's snapshot).

        Raises :class:`ConfigError` naming the field and the allowed values when a field
        cannot belong to a position of this game (wrong type, shape, range or enum
        value). The core checks its own fields, then the game's :meth:`_validate`, then
        that the position can be played: a valid player to move, a legal-action mask with
        a legal action, chance outcomes that sum to 1, observations of the right shape.
        """
        n = self.game.spec.num_players
        check_int("state.move_number", self.move_number, 0, self.game.spec.max_game_length)
        for name in ("_scores_before", "_last_win_delta"):
            v = getattr(self, name)
            if v is not None and not (
                isinstance(v, np.ndarray)
                and v.dtype == np.float64
                and v.shape == (n,)
                and np.isfinite(v).all()
            ):
                raise ConfigError(
                    f"state.{name} must be null or {n} finite float64 values, got {quote(v)}"
                )
        try:
            self._validate()
            self._check_playable()
            self._check_last_win_delta()
        except ConfigError:
            raise
        except Exception as exc:  # whatever a hook trips over, reported as a bad snapshot
            raise ConfigError(
                f"the snapshot's position cannot be played: {type(exc).__name__}: "
                f"{quote(str(exc), 200)}"
            ) from None

    def _validate(self) -> None:
        """Game-specific checks for :meth:`validate`; the default accepts everything."""

    def check_held_info(self, info: dict[str, Any], field: str) -> None:
        """Check an info an env snapshot holds for a seat whose position has no info of its
        own (the env keeps the last info it gave); raise :class:`ConfigError` naming
        ``field`` when the game could not have given it. Default: any mapping of snapshot
        data (games whose infos carry values of their own check them)."""

    def _check_last_win_delta(self) -> None:
        """``_last_win_delta`` (the game-ending reward) is derived: it must be null, or the
        finished position's ``"win"`` returns."""
        delta = self._last_win_delta
        if delta is None:
            return
        if not self.is_terminal() or not np.allclose(delta, self.returns("win")):
            raise ConfigError(
                "state._last_win_delta must be null, or the finished position's win returns "
                f"{self.returns('win').tolist() if self.is_terminal() else '(not finished)'}; "
                f"got {quote(delta.tolist())}"
            )

    def _check_playable(self) -> None:
        spec = self.game.spec
        n = spec.num_players
        player = self._current_player()
        seat_or_node = isinstance(player, (int, np.integer)) and TERMINAL <= player < n
        if not seat_or_node:
            raise ConfigError(
                f"the position's player to move is {quote(player)}; allowed: 0..{n - 1}, "
                f"CHANCE ({CHANCE}) or TERMINAL ({TERMINAL})"
            )
        if player >= 0:
            mask = self._legal_mask()
            if not (isinstance(mask, np.ndarray) and mask.shape == (spec.num_actions,)):
                raise ConfigError(f"the position's legal-action mask is malformed: {quote(mask)}")
            if not mask.any():
                raise ConfigError(f"player {player} is to move but has no legal action")
        elif player == CHANCE:
            outcomes = self._chance_outcomes()
            total = sum(p for _, p in outcomes)
            if not outcomes or abs(total - 1.0) > 1e-6:
                raise ConfigError(f"malformed chance outcomes at this position: {quote(outcomes)}")
        else:
            self._winners()
        for seat in range(n):
            obs = self._observation(seat)
            if obs.shape != tuple(spec.observation_shape):
                raise ConfigError(
                    f"seat {seat}'s observation has shape {obs.shape}, not {spec.observation_shape}"
                )

    # ---- copy / serialise ----------------------------------------------------------------
    def clone(self: S) -> S:
        """An independent copy; ``game`` is shared (it is immutable)."""
        new = object.__new__(type(self))
        d = new.__dict__
        for k, v in self.__dict__.items():
            if k == "game":
                d[k] = v
            elif isinstance(v, np.ndarray):
                d[k] = v.copy()
            elif isinstance(v, (list, dict, set)):
                d[k] = copy.deepcopy(v)
            else:
                d[k] = v
        return new

    def __copy__(self: S) -> S:
        return self.clone()

    def __deepcopy__(self: S, memo: dict) -> S:
        new = self.clone()
        new.game = memo.get(id(self.game), self.game)  # keep sharing the copied env's game
        return new

    def to_dict(self) -> dict[str, Any]:
        """A JSON-serialisable snapshot: game name, config and every position field."""
        fields = {k: _encode(v) for k, v in self.__dict__.items() if k != "game"}
        return {"game": self.game.spec.name, "config": self.game.params(), "state": fields}

    @classmethod
    def from_dict(cls: type[S], data: Mapping[str, Any], game: GameLike | None = None) -> S:
        """Inverse of :meth:`to_dict`, safe on untrusted data.

        Without ``game`` it is rebuilt from ``data["config"]``; with one, the snapshot's
        config must equal the game's. The fields must be exactly those of a position of
        this game, each of the same kind as in a fresh initial state (arrays: the same
        dtype and number of dimensions); then :meth:`validate` runs. Any problem raises
        :class:`ConfigError` naming the field (see :mod:`moon_envs.core.snapshot`).
        """
        check_fields("snapshot", {"game": 0, "config": 0, "state": 0}, data)
        if game is None:
            config = _decode(data["config"], "config")
            if not isinstance(config, dict):
                raise ConfigError(f"config must be a mapping, got {type(config).__name__}")
            try:
                game = cls._game_class()(config)
            except ConfigError:
                raise
            except (TypeError, ValueError) as exc:  # a config dataclass refusing a value
                raise ConfigError(f"config: {quote(str(exc), 200)}") from None
        else:
            check_same_config(game.params(), data["config"])
        if data["game"] != game.spec.name:
            raise ConfigError(
                f"the snapshot is of game {quote(data['game'])}, not {game.spec.name!r}"
            )
        if not issubclass(game.state_class, cls):
            raise ConfigError(f"{cls.__name__} cannot hold a position of {game!r}")
        new = game.new_initial_state()  # caches left out of snapshots start fresh
        expected = new.to_dict()["state"]
        check_fields("state", expected, data["state"])
        fields = _decode(data["state"], "state")
        for name in expected:
            check_like(f"state.{name}", new.__dict__.get(name), fields[name])
        new.__dict__.update(fields)
        new.validate()
        return new

    @classmethod
    def _game_class(cls) -> type:
        """The game class whose ``state_class`` is this class (``State`` implements it)."""
        raise NotImplementedError(f"{cls.__name__} does not name its game class")

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return other.game == self.game and self.to_dict() == other.to_dict()  # type: ignore[union-attr]

    __hash__ = None  # type: ignore[assignment]
