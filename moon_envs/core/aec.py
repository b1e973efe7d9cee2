"""The one PettingZoo AEC adapter: any :class:`~moon_envs.core.game.Game` as an ``AECEnv``.

Every moon-envs environment is a subclass of :class:`MoonAECEnv` that only names its game
class, metadata and renderer. The adapter provides, for all of them:

* agents ``player_0 .. player_{n-1}`` (seat *i* is ``player_i``);
* observations ``{"observation": Box(float32), "action_mask": Box(int8)}``; the mask is
  all zeros for an agent that is not to move and after the game ends;
* chance nodes sampled with the env's own seeded ``numpy.random.Generator``
  (``reset(seed=...)``), never shown as a turn;
* rewards the AEC way: ``rewards`` for the last step, ``_cumulative_rewards`` read by
  ``last()``; ``reward_mode="win"`` (terminal +1 shared by the winners, -1 shared by the
  others) or ``"score"`` (each step's change of game score);
* ``illegal_action="raise"`` (default): :class:`IllegalActionError` naming the action, the
  agent and the legal actions, with the env untouched; ``"penalize"``: PettingZoo classic's
  behaviour (the offender gets -1, the others 0, and the game ends);
* ``render()`` in PettingZoo's ``render_mode`` (``"ansi"``, ``"human"``,
  ``"rgb_array"``) as the spectator sees the table, or with ``render_seat`` as that seat
  sees it (see :mod:`moon_envs.core.env_render`);
* ``state()`` / ``state_space``: PettingZoo's full-information global state;
  ``game_state`` is the rules engine's :class:`~moon_envs.core.game.State` itself;
* actions are integers: ints, numpy integers, 0-d integer arrays or integral floats;
  anything else (``0.7``, ``nan``, ``True``, ``"3"``, objects) is an
  :class:`IllegalActionError` in both modes, with the env untouched;
* PettingZoo's call order: ``step`` / ``last`` / ``observe`` / ``state`` / ``render`` /
  ``agent_iter`` before ``reset()``, and ``last()`` once every agent is done, raise
  :class:`CallOrderError` (a ``RuntimeError`` and, like PettingZoo's order-enforcing
  wrapper's errors, an ``AssertionError``); reading ``agents``, ``agent_selection``,
  ``rewards``, ``terminations``, ``truncations`` or ``infos`` before ``reset()`` raises
  :class:`NotResetError` (also an ``AttributeError``, as in that wrapper); ``step()`` once
  every agent is done only warns, as that wrapper does;
* ``get_state()`` / ``set_state()`` snapshots (JSON-friendly) and ``copy.deepcopy`` / pickle
  that keep the position mid-game, the random generator and PettingZoo's agent-selection
  bookkeeping included; a snapshot records the env's ``reward_mode`` and
  ``illegal_action`` and loads only into an env with the same ones. ``set_state`` treats
  a snapshot as untrusted input (see :mod:`moon_envs.core.snapshot`): other game or env
  parameters, unknown or missing fields, wrong kinds, dtypes or sizes and positions the
  game refuses are a :class:`ConfigError` naming the field, and the env is unchanged on
  any error.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils.env_logger import EnvLogger

from moon_envs.core.game import (
    CHANCE,
    REWARD_MODES,
    TERMINAL,
    Game,
    IllegalActionError,
    State,
    action_index,
    check_choice,
)
from moon_envs.core.snapshot import (
    quote,
)
from moon_envs.core.env_render import EnvRender, seat_of
from moon_envs.core.env_snapshots import EnvSnapshots
from moon_envs.core.errors import CallOrderError, NotResetError
from moon_envs.core.view import AgentView

__all__ = ["CallOrderError", "MoonAECEnv", "NotResetError"]

ILLEGAL_ACTION_MODES = ("raise", "penalize")
RENDER_MODES = ["human", "ansi", "rgb_array"]
ENV_PARAMS = ("render_mode", "render_seat", "reward_mode", "illegal_action")
"""Parameters taken by the adapter itself; every other keyword goes to the game."""


def _draw(outcomes: list[tuple[int, float]], u: float) -> int:
    """The outcome a uniform ``u`` in [0, 1) picks: the first whose running sum of
    probabilities exceeds ``u`` (the last if rounding leaves none). A long list seen again
    (one the game shares, as Moonstar's roll) is searched by bisection on its running sums,
    kept; a list made afresh each time is scanned."""
    if len(outcomes) > 32:
        kept = _RUNNING_SUMS.get(id(outcomes))
        if kept is not None and kept[0] is outcomes:
            sums = kept[1]
            if sums is None:  # seen twice: worth the sums
                acc, sums = 0.0, []
                for _, p in outcomes:
                    acc += p
                    sums.append(acc)
                _RUNNING_SUMS[id(outcomes)] = (outcomes, sums)
            i = bisect.bisect_right(sums, u)
            return outcomes[i if i < len(outcomes) else -1][0]
        if len(_RUNNING_SUMS) >= 64:  # lists made afresh are not kept for long
            _RUNNING_SUMS.clear()
        _RUNNING_SUMS[id(outcomes)] = (outcomes, None)
    acc = 0.0
    for o, p in outcomes:
        acc += p
        if u < acc:
            return o
    return outcomes[-1][0]


_RUNNING_SUMS: dict[int, tuple[list, list[float] | None]] = {}  # id -> (list, running sums)


class _SetByReset:
    """An episode attribute (``agents``, ``rewards``, ...) read before ``reset()``: a
    :class:`NotResetError`. ``reset()`` stores the real value on the instance, which then
    shadows this (non-data) descriptor, so reads after ``reset()`` cost nothing extra (a
    ``__getattr__`` on the class would slow every attribute read of the env)."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, obj: Any, owner: type | None = None) -> Any:
        if obj is None:
            return self
        raise NotResetError(f"reset() needs to be called before {self.name}.")


class MoonAECEnv(EnvSnapshots, EnvRender, AECEnv):
    """PettingZoo AEC environment over a moon-envs rules engine.

    Subclasses set ``game_class`` and ``metadata`` and may set ``rgb_renderer`` (a function
    ``(State, seat=None) -> HxWx3 uint8 array``). Keyword arguments other than
    ``render_mode``, ``render_seat``, ``reward_mode`` and ``illegal_action`` are the
    game's parameters.
    """

    game_class: ClassVar[type[Game]]
    agents = _SetByReset()
    agent_selection = _SetByReset()
    rewards = _SetByReset()
    terminations = _SetByReset()
    truncations = _SetByReset()
    infos = _SetByReset()
    _cumulative_rewards = _SetByReset()
    rgb_renderer: ClassVar[Callable[..., np.ndarray] | None] = None
    metadata: dict[str, Any] = {
        "render_modes": RENDER_MODES,
        "name": "moon_env",
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(
        self,
        render_mode: str | None = None,
        render_seat: int | str | None = None,
        reward_mode: str = "win",
        illegal_action: str = "raise",
        **game_params: Any,
    ) -> None:
        super().__init__()
        check_choice("render_mode", render_mode, [None, *self.metadata["render_modes"]])
        check_choice("reward_mode", reward_mode, REWARD_MODES)
        check_choice("illegal_action", illegal_action, ILLEGAL_ACTION_MODES)
        self.game: Game = self.game_class(**game_params)
        self.render_mode = render_mode
        self.reward_mode = reward_mode
        self.illegal_action = illegal_action

        spec = self.game.spec
        n = spec.num_players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        self.render_seat = seat_of("render_seat", render_seat, self.possible_agents)
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(
                    low=spec.observation_low,
                    high=spec.observation_high,
                    shape=spec.observation_shape,
                    dtype=np.float32,
                ),
                "action_mask": spaces.Box(0, 1, shape=(spec.num_actions,), dtype=np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(spec.num_actions) for a in self.possible_agents}
        low = min(float(spec.observation_low), 0.0)
        high = max(float(spec.observation_high), 1.0)
        self.state_space = spaces.Box(
            low=low, high=high, shape=spec.global_state_shape, dtype=np.float32
        )
        self._zero_mask = np.zeros(spec.num_actions, dtype=np.int8)
        self._np_random: np.random.Generator | None = None
        self._np_random_seed: int | None = None
        self.game_state: State | None = None
        # a game whose seats get different infos (State.info_for) is asked once per seat
        self._per_seat_info = self.game.state_class.info_for is not State.info_for

    @property
    def num_agents(self) -> int:
        """The number of live agents (``len(agents)``); a NotResetError before ``reset()``."""
        if "agents" not in self.__dict__:
            raise NotResetError("reset() needs to be called before num_agents.")
        return len(self.agents)

    def agent_iter(self, max_iter: int = 2**63) -> Any:
        """PettingZoo's agent iterator; a :class:`CallOrderError` before ``reset()``."""
        self._require_reset("agent_iter()")
        return super().agent_iter(max_iter)

    # ---- spaces ----------------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    @property
    def np_random(self) -> np.random.Generator:
        if self._np_random is None:
            self._np_random, self._np_random_seed = seeding.np_random()
        return self._np_random

    # ---- episode ---------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Start a new game. ``seed`` seeds the chance events of this and later games."""
        if seed is not None:
            self._np_random, self._np_random_seed = seeding.np_random(seed)
        self.game_state = self.game.new_initial_state()
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        gained, player = self._resolve_chance()
        if self.reward_mode == "score" and gained is not None:
            for a, r in zip(self.agents, gained):
                self._cumulative_rewards[a] = float(r)
        self._after_transition(-1, player)

    def step(self, action: Any) -> None:
        """Apply ``action`` for ``agent_selection`` (``None`` for an agent that is done).

        ``action`` must be an integer (an int, a numpy integer or 0-d integer array, or an
        integral float); anything else raises :class:`IllegalActionError` in both
        ``illegal_action`` modes, with the env untouched. Once every agent is done,
        ``step`` only warns, as PettingZoo's order-enforcing wrapper does.
        """
        if self.game_state is None:
            raise CallOrderError("reset() needs to be called before step().")
        if not self.agents:
            EnvLogger.warn_step_after_terminated_truncated()
            return
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self.game_state
        seat = self._seat[agent]
        if action is None:
            raise IllegalActionError(
                f"{agent} is to move and must choose an action; None is only accepted from "
                f"an agent whose game is over. Legal actions: {state.legal_actions()}"
            )
        if type(action) is not int:
            try:
                action = action_index(action, self.game.spec.num_actions)
            except IllegalActionError as err:
                raise IllegalActionError(f"{agent}: {err}") from None
        try:
            state.apply_action(action)  # validates first; raises with the state untouched
        except IllegalActionError as err:
            if self.illegal_action == "penalize":
                self._penalize(agent, action)
                return
            raise IllegalActionError(f"{agent}: {err}") from None
        self._cumulative_rewards[agent] = 0.0
        r = state._rewards_or_none(self.reward_mode)
        player = state._current_player()
        if player == CHANCE:
            more, player = self._resolve_chance()
            if more is not None:
                r = more if r is None else r + more
        if r is None:  # all zero: nothing to accumulate
            self.rewards = dict.fromkeys(self.possible_agents, 0.0)
        else:
            self.rewards = dict(zip(self.possible_agents, r.tolist()))
        self._after_transition(seat, player)
        if r is not None:
            self._accumulate_rewards()

    def _penalize(self, agent: str, action: int) -> None:
        for a in self.agents:
            self.rewards[a] = 0.0
            self.terminations[a] = True
            self.infos[a] = {**self.infos[a], "illegal_action": {"agent": agent, "action": action}}
        self._cumulative_rewards[agent] = 0.0
        self.rewards[agent] = -1.0
        self._accumulate_rewards()

    def _resolve_chance(self) -> tuple[np.ndarray | None, int]:
        """Sample chance nodes until a player is to move or the game ends.

        Returns the summed rewards of the chance steps (None if there were none) and the
        player to move then (a seat or :data:`TERMINAL`).
        """
        state = self.game_state
        total = None
        while (player := state._current_player()) == CHANCE:
            state.apply_chance_outcome(_draw(state._chance_outcomes(), self.np_random.random()))
            r = state._rewards_or_none(self.reward_mode)
            if r is not None:
                total = r if total is None else total + r
        return total, player

    def _after_transition(self, mover_seat: int, player: int) -> None:
        """Infos, terminations and the next agent after a step by ``mover_seat`` (-1: the
        reset) that left ``player`` to move."""
        state = self.game_state
        if not self._per_seat_info:  # the same info for every seat
            info = state.info()
            if info:
                for a in self.agents:
                    self.infos[a] = dict(info)
        else:
            seat = self._seat
            for a in self.agents:
                info = state.info_for(seat[a])
                if info:
                    self.infos[a] = info
        if player == TERMINAL:
            for a in self.agents:
                self.terminations[a] = True
            nxt = (mover_seat + 1) % len(self.possible_agents)
            self.agent_selection = self.possible_agents[nxt]
        else:
            self.agent_selection = self.possible_agents[player]

    # ---- observation -------------------------------------------------------------------------
    def observe(self, agent: str) -> dict[str, np.ndarray]:
        state = self.game_state
        if state is None:
            raise CallOrderError("reset() needs to be called before observe.")
        try:
            seat = self._seat[agent]
        except (KeyError, TypeError):
            raise ValueError(
                f"unknown agent {quote(agent)}; agents: {self.possible_agents}"
            ) from None
        # the rules' hooks directly: the seat is one of ours, and a seat to move has a mask
        if state._current_player() == seat:
            mask = state._legal_mask()
        else:
            mask = self._zero_mask.copy()
        return {"observation": state._observation(seat), "action_mask": mask}

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """Observation, cumulative reward, terminated, truncated and info of
        ``agent_selection`` (PettingZoo's ``last``); a :class:`CallOrderError` before
        ``reset()`` and once every agent is done (``env.agents`` is empty)."""
        if self.game_state is None:
            raise CallOrderError("reset() needs to be called before last().")
        agent = self.agent_selection
        if agent not in self.terminations:
            raise CallOrderError(
                "last() called after every agent is done (env.agents is empty); "
                "call reset() to start a new game"
            )
        return (
            self.observe(agent) if observe else None,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def state(self) -> np.ndarray:
        """PettingZoo's global state: the full-information position as a float32 vector in
        ``state_space`` (see :meth:`State.global_state`), for centralised critics. It shows
        what every seat hides, so never feed it to a decentralised policy."""
        self._require_reset("state")
        return self.game_state.global_state()

    def _require_reset(self, what: str) -> None:
        if self.game_state is None:
            raise CallOrderError(f"reset() needs to be called before {what}.")

    def action_mask(self, agent: str | None = None) -> np.ndarray:
        """The int8 legal-action mask of ``agent`` (default: the agent to move)."""
        return self.observe(agent or self.agent_selection)["action_mask"]

    def agent_view(self, agent: str | None = None) -> AgentView:
        """The :class:`AgentView` of ``agent`` (default: the agent to move), for baseline agents."""
        self._require_reset("agent_view()")
        agent = agent or self.agent_selection
        if agent not in self._seat:
            raise ValueError(f"unknown agent {quote(agent)}; agents: {self.possible_agents}")
        return AgentView.of(self.game_state, self._seat[agent])

    def close(self) -> None:
        pass

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.metadata['name']} {self.game.config}>"
