"""Every info field numeric and fixed-shape, for learners that store infos as arrays.

The environments' ``infos`` are written for people and the CLI: Moon Harvesters names its
phase and describes the last move in words, Star Master's ``last_flip`` and ``last_race``
are ``None`` until something happened and a dict or a list after, Moonstar's round report
appears at the end of the first round. Libraries that turn infos into tensors or buffers
(TorchRL's ``PettingZooWrapper``, Tianshou's ``PettingZooEnv`` with a replay buffer) need
the same keys, shapes and dtypes at every step. :func:`numeric_infos` wraps an env so that
its infos are exactly that::

    import moon_envs
    from moon_envs.integrations.numeric_infos import numeric_infos

    env = numeric_infos(moon_envs.make("star_master_v0", num_players=3))
    env.reset(seed=0)
    env.infos["player_0"]        # {"turn": array(0), ..., "last_race": array([-2, -2, -2])}
    env.info_space("player_0")   # a gymnasium Dict of int64 Boxes: the keys and shapes

The wrapped env's own infos, text included, stay at ``env.unwrapped.infos``; the default
``moon_envs.make`` is unchanged.

The conversion, field by field (:data:`LAYOUTS` per environment id):

* every value is an ``int64`` numpy array, a scalar (shape ``()``) or one entry per seat
  (shape ``(num_players,)``), present from ``reset()`` on;
* a nested field ``a`` -> ``b`` becomes the key ``a_b`` (``last_flip_seat``,
  ``round_report_score_changes``);
* ``True`` / ``False`` are 1 / 0; a value not there yet (``None``, a report not given yet)
  is -1 for a scalar and, for a per-seat vector, 0 (score changes, side bets), or
  Star Master's ``-2`` for ``last_race`` (no choice revealed, as in the game's own arrays);
* a word becomes its index in a fixed list (Moon Harvesters' ``phase``: 0 auction,
  1 craters, 2 place, 3 deposits, 4 over; an agent name: its seat);
* a list of seats (Moonstar's ``challengers``) becomes 0 / 1 per seat;
* Moon Harvesters' ``last_action`` (a sentence) becomes the index of the last player
  action this wrapper applied (-1 before the first, and after ``set_state``);
* with ``illegal_action="penalize"``, ``illegal_action_agent`` (the offender's seat) and
  ``illegal_action_action`` are there at every step, -1 until an illegal action ends the game.

Jupiter's infos are empty, and stay so. An info field with no entry in the layout is a
``ValueError`` naming it, so a change to a game's infos cannot go unnoticed here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo.utils.wrappers import BaseWrapper

from moon_envs.core.aec import MoonAECEnv
from moon_envs.core.game import ConfigError, Game
from moon_envs.moon_harvesters.constants import ALL_PHASES
from moon_envs.star_master.phases import NOT_CHOSEN

_BIG = np.iinfo(np.int64).max


@dataclass(frozen=True)
class Field:
    """One numeric info entry, read from ``path`` of the raw info.

    Attributes:
        path: the keys leading to the raw value (``("last_flip", "seat")``).
        size: ``None`` for a scalar, else the length of a per-seat vector.
        missing: the value (every entry of it) while the raw info has nothing there.
        codes: for a word, the words in index order.
        seat_set: the raw value is a list of seats, shown as 0 / 1 per seat.
    """

    path: tuple[str, ...]
    size: int | None = None
    missing: int = -1
    codes: tuple[str, ...] | None = None
    seat_set: bool = False

    @property
    def key(self) -> str:
        return "_".join(self.path)

    @property
    def space(self) -> spaces.Box:
        shape = () if self.size is None else (self.size,)
        return spaces.Box(-_BIG - 1, _BIG, shape=shape, dtype=np.int64)

    def encode(self, value: Any) -> np.ndarray:
        """The raw ``value`` (``None`` when absent) as this field's array."""
        shape = () if self.size is None else (self.size,)
        if value is None or (self.codes is not None and value == ""):
            return np.full(shape, self.missing, dtype=np.int64)
        if self.codes is not None:
            if value not in self.codes:
                raise ValueError(f"info field {self.key}={value!r}; known values: {self.codes}")
            return np.array(self.codes.index(value), dtype=np.int64)
        if self.seat_set:
            out = np.zeros(shape, dtype=np.int64)
            out[list(value)] = 1
            return out
        out = np.asarray(value, dtype=np.int64)
        if out.shape != shape:
            raise ValueError(f"info field {self.key} has shape {out.shape}; expected {shape}")
        return out


def _star_master(game: Game) -> list[Field]:
    n = game.spec.num_players
    flip = [Field(("last_flip", k)) for k in ("seat", "slot", "colour", "found")]
    scalars = [Field((k,)) for k in ("turn", "roller", "white", "black_star")]
    return [*scalars, *flip, Field(("last_race",), n, NOT_CHOSEN)]


def _moonstar(game: Game) -> list[Field]:
    n = game.spec.num_players
    scalars = ("round", "organizer", "no_bid", "bidder", "bid", "achieved", "made", "best_total")
    return [
        *(Field(("round_report", k)) for k in (*scalars, "regret", "rules")),
        Field(("round_report", "challengers"), n, 0, seat_set=True),
        Field(("round_report", "side_bets"), n, 0),
        Field(("round_report", "score_changes"), n, 0),
    ]


def _moon_harvesters(game: Game) -> list[Field]:
    return [Field(("phase",), codes=ALL_PHASES), Field(("last_action",))]


def _moonwakers(game: Game) -> list[Field]:
    return [Field(("round",)), Field(("points",), game.spec.num_players, 0)]


LAYOUTS: dict[str, Callable[[Game], list[Field]]] = {
    "jupiter_v0": lambda game: [],
    "moonstar_v1": _moonstar,
    "moon_harvesters_v0": _moon_harvesters,
    "star_master_v0": _star_master,
    "moonwakers_v1": _moonwakers,
}
"""Environment id -> the numeric fields of its infos, given the game (its seat count)."""

_TRACKED = {("moon_harvesters_v0", "last_action")}
"""Text fields shown as the index of the last action the wrapper applied."""


class NumericInfosWrapper(BaseWrapper):
    """A moon-envs AEC env whose ``infos`` hold only fixed-shape ``int64`` arrays (see the
    module documentation); :meth:`info_space` describes them. Everything else passes
    through to the wrapped env; its own infos stay at ``env.unwrapped.infos``."""

    def __init__(self, env: Any) -> None:
        super().__init__(env)
        base = getattr(env, "unwrapped", env)
        if not isinstance(base, MoonAECEnv):
            raise ConfigError(
                f"numeric_infos wraps a moon-envs AEC env, got {type(base).__name__}; build "
                "one with moon_envs.make(env_id, ...)"
            )
        name = base.metadata["name"]
        if name not in LAYOUTS:
            raise ConfigError(f"numeric_infos has no layout for {name}; known: {sorted(LAYOUTS)}")
        self._name = name
        self._fields = LAYOUTS[name](base.game)
        if base.illegal_action == "penalize":
            self._fields += [
                Field(("illegal_action", "agent"), codes=tuple(base.possible_agents)),
                Field(("illegal_action", "action")),
            ]
        self._paths = {f.path[:i] for f in self._fields for i in range(1, len(f.path) + 1)}
        space = spaces.Dict({f.key: f.space for f in self._fields})
        self.info_spaces = {a: space for a in base.possible_agents}
        self._last_action = -1

    def info_space(self, agent: str) -> spaces.Dict:
        """The keys, shapes and dtype of ``agent``'s infos (the same for every seat)."""
        return self.info_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        self.env.reset(seed=seed, options=options)
        self._last_action = -1
        self._convert()

    def step(self, action: Any) -> None:
        base = self.env.unwrapped
        mover = base.agent_selection if base.agents else None
        playing = mover is not None and not (base.terminations[mover] or base.truncations[mover])
        self.env.step(action)
        if playing and "illegal_action" not in base.infos.get(mover, {}):
            self._last_action = int(action)
        self._convert()

    def set_state(self, snapshot: Any) -> None:
        """The wrapped env's ``set_state``; the infos follow (a tracked last action is
        not in a snapshot: -1)."""
        self.env.set_state(snapshot)
        self._last_action = -1
        self._convert()

    def _convert(self) -> None:
        self.infos = {a: self.numeric(info) for a, info in self.env.unwrapped.infos.items()}

    def numeric(self, info: dict[str, Any]) -> dict[str, np.ndarray]:
        """One agent's raw ``info`` as its numeric info."""
        unknown = [".".join(p) for p in _paths(info) if p not in self._paths]
        if unknown:
            known = sorted(f.key for f in self._fields)
            raise ValueError(
                f"info field(s) {unknown} of {self._name} have no numeric form; known: {known}"
            )
        out = {}
        for f in self._fields:
            if (self._name, f.key) in _TRACKED:
                out[f.key] = np.array(self._last_action, dtype=np.int64)
                continue
            value = info.get(f.path[0])
            for k in f.path[1:]:
                value = None if value is None else value.get(k)
            out[f.key] = f.encode(value)
        return out


def _paths(info: dict[str, Any], prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """The paths of the values in a (nested) raw info."""
    out = []
    for k, v in info.items():
        out += _paths(v, (*prefix, k)) if isinstance(v, dict) else [(*prefix, k)]
    return out


def numeric_infos(env: Any) -> NumericInfosWrapper:
    """``env`` (a moon-envs AEC env, possibly wrapped) with numeric, fixed-shape infos."""
    return NumericInfosWrapper(env)
