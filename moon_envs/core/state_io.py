"""Copying, serialising and checking positions: the part of :class:`State` that treats a
position as data.

:class:`PositionData` is a mixin of :class:`moon_envs.core.game.State`: ``clone()``,
``copy``/``deepcopy``, ``to_dict()`` / ``from_dict()`` (JSON snapshots, safe on untrusted
data: see :mod:`moon_envs.core.snapshot`), ``validate()`` and equality by snapshot.
Beside it, for the games' rules: :class:`ArrayField` (an array field kept as a Python
``array.array``, shown as numpy), :func:`fill` and :func:`new_array`.

This module sits below :mod:`moon_envs.core.game`: it knows a game only through
:class:`GameLike` (what a position needs of its rules) and asks the state class for its
game class through :meth:`PositionData._game_class`, which ``State`` implements.
"""

from __future__ import annotations

import array
import copy
from collections.abc import Callable, Mapping
from typing import Any, ClassVar, Protocol, TypeVar

import numpy as np

from moon_envs.core.checks import check_int
from moon_envs.core.errors import ConfigError
from moon_envs.core.snapshot import check_fields, check_like, check_same_config, quote
from moon_envs.core.snapshot import decode as _decode
from moon_envs.core.snapshot import encode as _encode
from moon_envs.core.spec import CHANCE, TERMINAL, GameSpec

S = TypeVar("S", bound="PositionData")

_TYPECODES = {
    "bool": "b",
    "int8": "b",
    "int16": "h",
    "int32": "i",
    "int64": "q",
    "float32": "f",
    "float64": "d",
}


class ArrayField:
    """A position field of numbers kept as a flat Python ``array.array`` under ``_<name>``
    (one entry costs far less to read or write than a numpy array's, and the whole less to
    copy) that reads as a numpy array of ``dtype`` viewing it (of ``shape(game)`` if
    given): writing into the view changes the position; assigning the field stores a
    copy. Snapshots show the numpy array (see :attr:`PositionData._snapshot_names`).

    The rules work on ``_<name>`` directly. Its entries are Python numbers, so arithmetic
    on them is Python's: a ``float32`` field's entry is stored rounded to float32, but a
    sum computed from it is a float64 one (round the addend to float32 first where the
    result must equal numpy's float32 arithmetic)."""

    def __init__(self, dtype: str, shape: Callable[[Any], tuple[int, ...]] | None = None) -> None:
        self.dtype = np.dtype(dtype)
        self.typecode = _TYPECODES[dtype]
        self.shape = shape

    def __set_name__(self, owner: type, name: str) -> None:
        self.name, self.store = name, "_" + name
        owner._snapshot_names = {**owner._snapshot_names, self.store: name}

    def __get__(self, obj: Any, owner: type | None = None) -> Any:
        if obj is None:
            return self
        values = getattr(obj, self.store)
        view = np.ndarray((len(values),), self.dtype, values)
        return view if self.shape is None else view.reshape(self.shape(obj.game))

    def __set__(self, obj: Any, value: Any) -> None:
        data = np.ascontiguousarray(value, dtype=self.dtype).reshape(-1).tobytes()
        setattr(obj, self.store, array.array(self.typecode, data))


def new_array(data: bytes, dtype: np.dtype) -> np.ndarray:
    """A new writable 1-D numpy array of ``dtype`` holding ``data``: the cheapest way to hand
    out an array built as bytes (a mask, an observation); ``np.frombuffer`` costs more."""
    return np.ndarray((len(data) // dtype.itemsize,), dtype, bytearray(data))


def fill(values: array.array, value: float, start: int = 0, stop: int | None = None) -> None:
    """Set ``values[start:stop]`` (a Python array, e.g. an :class:`ArrayField`'s) to ``value``."""
    stop = len(values) if stop is None else stop
    key = (values.typecode, value, stop - start)
    run = _RUNS.get(key)
    if run is None:
        run = _RUNS[key] = array.array(values.typecode, (value,)) * (stop - start)
    values[start:stop] = run


_RUNS: dict[tuple[str, float, int], array.array] = {}  # fill's runs of one value, kept


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
    _scores_record: tuple | np.ndarray | None
    _snapshot_names: ClassVar[dict[str, str]] = {"_scores_record": "_scores_before"}
    """Fields a position stores in a form cheaper to work with than its snapshot's: the
    attribute's name → the snapshot's name for it, a property of the state that reads the
    field in the snapshot's form and whose setter takes that form (``_scores_before``
    below, :class:`ArrayField`)."""

    @property
    def _scores_before(self) -> np.ndarray | None:
        """The scores before the last applied action (None: nothing applied yet), as
        float64, for the score reward. Each action records them as a tuple (cheap to take,
        shared by clones) in ``_scores_record``, which snapshots show as this array."""
        record = self._scores_record
        if type(record) is tuple:
            return np.array(record, dtype=np.float64)
        return record

    @_scores_before.setter
    def _scores_before(self, value: np.ndarray | None) -> None:
        self._scores_record = value

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
        """An independent copy; ``game`` is shared (it is immutable).

        A game's own faster ``clone`` should give the copy a new plain dict (``new.__dict__
        = dict(self.__dict__)``, then the fields' copies), not ``self.__dict__.copy()``:
        under CPython 3.11 reading ``__dict__`` turns a new object's attributes into a
        "split" dict, which ``.copy()`` keeps and in which attribute access is a third
        slower, in the copy and in every copy of it.
        """
        new = object.__new__(type(self))
        d = {}
        for k, v in self.__dict__.items():
            if k == "game":
                d[k] = v
            elif isinstance(v, (np.ndarray, array.array)):
                d[k] = v.copy() if isinstance(v, np.ndarray) else v[:]
            elif isinstance(v, (list, dict, set)):
                d[k] = copy.deepcopy(v)
            else:
                d[k] = v
        new.__dict__ = d
        return new

    def __copy__(self: S) -> S:
        return self.clone()

    def __deepcopy__(self: S, memo: dict) -> S:
        new = self.clone()
        new.game = memo.get(id(self.game), self.game)  # keep sharing the copied env's game
        return new

    def to_dict(self) -> dict[str, Any]:
        """A JSON-serialisable snapshot: game name, config and every position field."""
        shown = self._snapshot_names
        fields = {
            shown.get(k, k): _encode(getattr(self, shown[k]) if k in shown else v)
            for k, v in self.__dict__.items()
            if k != "game"
        }
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
        if not isinstance(data["game"], str) or data["game"] != game.spec.name:
            raise ConfigError(
                f"the snapshot is of game {quote(data['game'])}, not {game.spec.name!r}"
            )
        if not issubclass(game.state_class, cls):
            raise ConfigError(f"{cls.__name__} cannot hold a position of {game!r}")
        new = game.new_initial_state()  # caches left out of snapshots start fresh
        expected = new.to_dict()["state"]
        check_fields("state", expected, data["state"])
        fields = _decode(data["state"], "state")
        shown = set(new._snapshot_names.values())
        d = new.__dict__.copy()
        for name in expected:
            template = getattr(new, name) if name in shown else d.get(name)
            check_like(f"state.{name}", template, fields[name])
        d.update({k: v for k, v in fields.items() if k not in shown})
        new.__dict__ = d  # a new plain dict keeps attribute access fast (see clone)
        for name in shown:  # stored through the property, in the position's own form
            setattr(new, name, fields[name])
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
