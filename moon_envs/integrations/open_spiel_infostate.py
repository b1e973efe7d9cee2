"""Perfect-recall information states for the OpenSpiel games that hide information.

A seat's *information state* is everything it has seen, in order (OpenSpiel's
perfect recall): its observations, its own actions, and what it was shown of the
other seats' actions. :class:`SeatHistories` records that for every seat as the game
is played (:mod:`moon_envs.integrations.open_spiel` feeds it each action), and
:class:`InfoStateObserver` reads it back through OpenSpiel's observer API, so that
``state.information_state_string(p)``, ``state.information_state_tensor(p)`` and
``make_py_observer(IIGObservationType(perfect_recall=True))`` work, and with them
OpenSpiel's imperfect-information algorithms (CFR, MCCFR, ISMCTS, exploitability)::

    from moon_envs.integrations.open_spiel import load_game
    from open_spiel.python.algorithms import outcome_sampling_mccfr

    game = load_game("star_master_v0", max_turns=10)
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    solver.iteration()

**String**: one line per event the seat saw, oldest first: ``obs i=v ...`` when its
observation (``State.observation(p)``) changed (the entries that changed, all of the
non-zero ones the first time; float32 values to 9 digits, which read back exactly),
``me <action>`` for its own action and ``player_q <what p saw>`` for another seat's
action (``State.action_to_public_string``: a sealed choice shows only that it was
made). Chance outcomes leave no line of their own: what the seat learns of them is in
its next observation. The string is lossless.

**Tensor**: ``max_rows`` rows of an observation and a one-hot own action (stored as two
blocks, every row's observation, then every row's action): a row for each
observation the seat saw (consecutive equal ones kept once), holding the action the
seat took while it was current (all zero if none); a seat acting twice on one
observation starts a second row with it. Unused rows are zero. The tensor therefore
keeps every observation and every own action in order; it leaves out other seats'
actions that changed nothing in the seat's observation (the string keeps them).
Its size is fixed per game config: ``max_rows`` is, by default,
``2 * spec.max_game_length + 2`` or the largest count whose tensor holds at most
:data:`TENSOR_BUDGET` floats, whichever is smaller (:func:`default_max_rows`); the
observer parameter ``{"max_rows": r}`` (1..:data:`MAX_ROWS`) sets it. A history with
more rows than that raises a ``ValueError`` naming ``max_rows`` rather than dropping
any. The game type declares the tensor (``provides_information_state_tensor``, and
with it ``information_state_tensor_shape``) for the configs whose default tensor holds
at most :data:`DECLARED_BUDGET` floats (short games, e.g. Star Master with
``max_turns=10``); for the others ``make_py_observer`` still gives it.

:func:`resample_from_infostate` gives ISMCTS its determinisations through the game's
own ``State.resample``, which draws a position consistent with the seat's current
observation (every game's own determiniser; with Star Master's ``memory="none"``
it does not use what the seat saw earlier). The resampled state keeps the recorded
histories, so the seat's information state is unchanged.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from moon_envs.core.game import ConfigError, State

TENSOR_BUDGET = 1 << 22
"""Floats in an information-state tensor by default at most (16 MiB of float32)."""
DECLARED_BUDGET = 1 << 16
"""The game type declares the tensor (``provides_information_state_tensor``) when its
default size is at most this many floats: OpenSpiel's tools (``random_sim_test``) then
read it at every state, which a larger one makes slow (0.5 s a read at 634,304 floats)."""
MAX_ROWS = 1 << 20
"""The largest ``max_rows`` an observer accepts."""


class _SeatRecord:
    """One seat's history: ``events`` (an observation array when the seat's observation
    changed, a string for an action it saw), ``lines`` (the events rendered so far, for
    the string; the rest are rendered when it is next asked for), and tensor rows
    ``(observation, action)`` (``action`` -1 until the seat acts on that observation)."""

    __slots__ = ("events", "last_obs", "lines", "lines_obs", "rows")

    def __init__(self, obs: np.ndarray) -> None:
        self.events: list[np.ndarray | str] = [obs]
        self.rows: list[tuple[np.ndarray, int]] = [(obs, -1)]
        self.last_obs = obs
        self.lines: list[str] = []
        self.lines_obs = np.zeros_like(obs)  # the last observation among the rendered

    def saw(self, obs: np.ndarray) -> None:
        if not np.array_equal(obs, self.last_obs):
            self.events.append(obs)
            self.rows.append((obs, -1))
            self.last_obs = obs

    def acted(self, action: int, text: str) -> None:
        self.events.append(f"me {text}")
        obs, taken = self.rows[-1]
        if taken < 0:
            self.rows[-1] = (obs, action)
        else:
            self.rows.append((obs, action))

    def string(self) -> str:
        for event in self.events[len(self.lines) :]:
            if isinstance(event, str):
                self.lines.append(event)
            else:
                self.lines.append(_obs_line(self.lines_obs, event))
                self.lines_obs = event
        return "\n".join(self.lines)

    def copy(self) -> _SeatRecord:
        out = _SeatRecord.__new__(_SeatRecord)
        out.events, out.rows, out.lines = list(self.events), list(self.rows), list(self.lines)
        out.last_obs, out.lines_obs = self.last_obs, self.lines_obs
        return out


def _obs_line(before: np.ndarray, after: np.ndarray) -> str:
    changed = np.flatnonzero(before != after)
    return "obs " + " ".join(f"{i}={after[i]:.9g}" for i in changed.tolist())


def _named(mover: int, text: str) -> str:
    """``text`` (what a seat saw of ``mover``'s action) led by the mover's name."""
    name = f"player_{mover}"
    return text if text.startswith(name + " ") else f"{name} {text}"


def _seat_obs(state: State, seat: int) -> np.ndarray:
    obs = np.array(state.observation(seat), dtype=np.float32).ravel()
    obs.flags.writeable = False  # shared between clones, never changed
    return obs


class SeatHistories:
    """Every seat's perfect-recall history of one game, recorded action by action:
    ``shown = histories.shown(state, action)`` before applying it, then
    ``histories.record(state, shown)``."""

    __slots__ = ("records",)

    def __init__(self, state: State) -> None:
        n = state.game.spec.num_players
        self.records = [_SeatRecord(_seat_obs(state, p)) for p in range(n)]

    @staticmethod
    def shown(state: State, action: int) -> tuple[int, int, list[str]] | None:
        """``(mover, action, lines)``: the line each seat gets for ``action``, a
        player's action about to be applied; ``None`` for a chance outcome (which shows
        nothing by itself)."""
        mover = state.current_player()
        if mover < 0:
            return None
        lines = [
            state.action_to_string(action)
            if p == mover
            else _named(mover, state.action_to_public_string(action, p))
            for p in range(state.game.spec.num_players)
        ]
        return mover, action, lines

    def record(self, state: State, shown: tuple[int, int, list[str]] | None) -> None:
        """Add the applied action (as :meth:`shown` gave it) and each seat's new
        observation."""
        for p, record in enumerate(self.records):
            if shown is not None:
                mover, action, lines = shown
                if p == mover:
                    record.acted(action, lines[p])
                else:
                    record.events.append(lines[p])
            record.saw(_seat_obs(state, p))

    def string(self, seat: int) -> str:
        """Seat ``seat``'s information-state string (module docstring)."""
        return self.records[seat].string()

    def rows(self, seat: int) -> list[tuple[np.ndarray, int]]:
        """Seat ``seat``'s tensor rows ``(observation, own action or -1)``, oldest first."""
        return self.records[seat].rows

    def __deepcopy__(self, memo: dict) -> SeatHistories:
        out = SeatHistories.__new__(SeatHistories)
        out.records = [r.copy() for r in self.records]
        return out


def default_max_rows(game: Any) -> int:
    """The default ``max_rows`` of ``game`` (a moon-envs :class:`~moon_envs.core.game.Game`):
    ``2 * spec.max_game_length + 2`` (room for an observation after each player action
    and after one chance event per action), at most :data:`TENSOR_BUDGET` floats."""
    spec = game.spec
    row = int(np.prod(spec.observation_shape)) + spec.num_actions
    return max(1, min(2 * spec.max_game_length + 2, TENSOR_BUDGET // row, MAX_ROWS))


def declares_tensor(game: Any) -> bool:
    """Whether ``game``'s OpenSpiel type declares the information-state tensor: its
    default size (:func:`default_max_rows` rows) is at most :data:`DECLARED_BUDGET`."""
    spec = game.spec
    row = int(np.prod(spec.observation_shape)) + spec.num_actions
    return default_max_rows(game) * row <= DECLARED_BUDGET


class InfoStateObserver:
    """OpenSpiel observer of a seat's perfect-recall information state: ``tensor`` (flat,
    ``max_rows * (observation size + num_actions)`` floats) and ``dict`` with its two
    consecutive blocks: ``"observations"`` ``(max_rows, observation size)``, then
    ``"actions"`` ``(max_rows, num_actions)`` (row ``i`` of each is the history's row
    ``i``); ``string_from`` the string (module docstring)."""

    def __init__(self, game: Any, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        max_rows = params.pop("max_rows", default_max_rows(game))
        if params:
            raise ValueError(
                f"observer parameters {sorted(params)} are not supported; allowed: max_rows"
            )
        if isinstance(max_rows, bool) or not isinstance(max_rows, (int, np.integer)):
            raise ConfigError(f"max_rows must be an int in 1..{MAX_ROWS}, got {max_rows!r}")
        if not 1 <= max_rows <= MAX_ROWS:
            raise ConfigError(f"max_rows={max_rows} is out of range; allowed: 1..{MAX_ROWS}")
        spec = game.spec
        obs_size = int(np.prod(spec.observation_shape))
        self.max_rows = int(max_rows)
        self.tensor = np.zeros(self.max_rows * (obs_size + spec.num_actions), np.float32)
        split = self.max_rows * obs_size  # the dict's views, in order, tile the tensor
        self.dict = {
            "observations": self.tensor[:split].reshape(self.max_rows, obs_size),
            "actions": self.tensor[split:].reshape(self.max_rows, spec.num_actions),
        }
        self._filled = 0  # rows written by the last set_from

    def set_from(self, state: Any, player: int) -> None:
        rows = state.seat_histories.rows(player)
        if len(rows) > self.max_rows:
            raise ValueError(
                f"player {player}'s history has {len(rows)} observation rows, more than the "
                f"tensor's max_rows={self.max_rows}; make the observer with "
                f"params={{'max_rows': {len(rows)}}} or more (up to {MAX_ROWS})"
            )
        observations, actions = self.dict["observations"], self.dict["actions"]
        observations[: self._filled] = 0.0
        actions[: self._filled] = 0.0
        for i, (obs, action) in enumerate(rows):
            observations[i] = obs
            if action >= 0:
                actions[i, action] = 1.0
        self._filled = len(rows)

    def string_from(self, state: Any, player: int) -> str:
        return state.seat_histories.string(player)


def make_info_state_observer(game: Any, iig_obs_type: Any, params: Any) -> InfoStateObserver:
    """The observer for ``IIGObservationType(perfect_recall=True)`` (public and the seat's
    private information, OpenSpiel's information state); other perfect-recall kinds are
    refused with a ``ValueError``."""
    import pyspiel

    if not iig_obs_type.public_info or (
        iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
    ):
        raise ValueError(
            f"{game.spec.name}: a perfect-recall observer gives the information state (public "
            "and the seat's own private information); allowed: "
            "IIGObservationType(perfect_recall=True) with public_info=True and "
            "private_info=PrivateInfoType.SINGLE_PLAYER"
        )
    return InfoStateObserver(game, params)


def resample_from_infostate(spiel_state: Any, player: int, sampler: Any = None) -> Any:
    """A copy of ``spiel_state`` (an OpenSpiel state of this adapter) whose position is the
    game's own determinisation for ``player`` (``State.resample``), seeded from
    ``sampler()`` (a number in [0, 1), e.g. ``pyspiel.UniformProbabilitySampler``) or
    at random; the recorded histories are kept."""
    seed = int(float(sampler()) * 2**53) if callable(sampler) else None
    out = spiel_state.clone()
    out.moon_state = spiel_state.moon_state.resample(player, np.random.default_rng(seed))
    return out
