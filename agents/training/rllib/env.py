"""Every moon-envs game as an RLlib ``MultiAgentEnv`` (RLlib's current API stack).

::

    from moon_agents.training.rllib.env import MoonMultiAgentEnv, register_envs
    env = MoonMultiAgentEnv({"env_id": "jupiter_v0", "params": {"num_players": 2}})
    obs, infos = env.reset(seed=0)        # {"player_0": {"observations": ..., "action_mask": ...}}

    register_envs()                        # then PPOConfig().environment("jupiter_v0", ...)

Turn-based: each ``step`` gets the action of the one agent to move and returns an
observation only for the next agent to move. Observations follow RLlib's action-masking
convention, a dict ``{"observations": Box(float32), "action_mask": Box(float32 0/1)}``.

Rewards: an agent receives everything it earned since its last turn together with its
next observation; when the game ends every agent in the episode gets its final
observation, its outstanding reward and ``terminated=True`` (``"__all__": True``). So
every seat gets its own reward, including the seats that did not make the last move and
seats that never had a decision (RLlib keeps no episode for those). A game that the
in-env opponents finish before any RLlib agent has a decision is not an episode:
``reset`` deals a new game.

Leagues (self-play): ``env_config["league"]`` lists the opponents an episode is drawn
against (uniformly, with the env's seeded generator):

* ``"learner"``: pure self-play, every seat is played by the learning module;
* an agent spec of :func:`moon_agents.zoo.make_agent` (``random``, ``greedy``, ``ppo:PATH``,
  ``rllib:PATH``...): the other seats are played *inside* the env by that agent, and
  RLlib never sees them;
* a module id such as ``"snapshot_0"``: the other seats are RLlib agents named
  ``player_<seat>@snapshot_0``, which :func:`moon_agents.training.rllib.league.policy_mapping_fn`
  maps to that (frozen) module (every module a league may name is listed in
  ``env_config["modules"]``, so that all agent ids are known up front).

In the last two cases one seat, drawn each episode, is the learner's (``player_<seat>``).
The league can be changed between episodes with :meth:`MoonMultiAgentEnv.set_league`.

Action masks are honoured everywhere: :meth:`get_action_space` returns spaces whose
``sample()`` draws among the *legal* actions of that agent in the current position (this is
the path RLlib's env checker takes), and an illegal action raises
:class:`~moon_envs.core.game.IllegalActionError`.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from ray.rllib.env.multi_agent_env import MultiAgentEnv

from moon_agents.base import start_game
from moon_agents.training.rllib.spaces import rllib_spaces
from moon_envs.core.game import TERMINAL, ConfigError, IllegalActionError

LEARNER = "learner"
"""The module id of the learning policy (and the league entry meaning pure self-play)."""
MODULE_PREFIX = "snapshot_"
"""League entries starting with this are RLlib modules, not zoo agents."""


def seat_agent_id(seat: int, module: str | None = None) -> str:
    """``player_<seat>`` for the learner, ``player_<seat>@<module>`` for another module."""
    return f"player_{seat}" if module in (None, LEARNER) else f"player_{seat}@{module}"


class LegalDiscrete(gym.spaces.Discrete):
    """``Discrete(n)`` whose ``sample()`` (without a mask) draws a legal action.

    The env binds each agent's space to that agent's current action mask, so code that
    samples "random actions" from the action space (RLlib's env checker does) never sends
    an illegal one. Pickled copies are plain ``Discrete`` spaces with no binding.
    """

    def __init__(self, n: int, seed: int | None = None) -> None:
        super().__init__(n, seed=seed)
        self._legal_mask_fn: Any = None

    def sample(self, mask: Any = None, probability: Any = None) -> np.int64:
        if mask is None and probability is None and self._legal_mask_fn is not None:
            mask = np.asarray(self._legal_mask_fn(), dtype=np.int8)
            if not mask.any():
                mask = None  # not this agent's turn: any action (it will be refused)
        return super().sample(mask=mask, probability=probability)

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state["_legal_mask_fn"] = None
        return state


class MoonMultiAgentEnv(MultiAgentEnv):
    """A moon-envs game as a turn-based RLlib multi-agent env (see the module docstring).

    ``config`` keys: ``env_id`` (required), ``params`` (game parameters, e.g.
    ``num_players``, ``reward_mode``), ``league`` (default ``["learner"]``), ``modules``
    (snapshot module ids that leagues may name), ``seed``.
    """

    def __init__(self, config: dict[str, Any] | None = None) -> None:
        super().__init__()
        from moon_envs import make

        config = dict(config or {})
        if "env_id" not in config:
            raise ConfigError("env_config.env_id: missing; e.g. {'env_id': 'jupiter_v0'}")
        self.env_id: str = config["env_id"]
        self.params: dict[str, Any] = dict(config.get("params") or {})
        self.aec = make(self.env_id, **self.params)
        spec = self.aec.game.spec
        self.game_name = spec.name
        self.num_seats = spec.num_players
        self.num_actions = spec.num_actions
        self.single_observation_space, self.single_action_space = rllib_spaces(self.aec)
        self.modules: list[str] = list(config.get("modules") or [])
        for module in self.modules:
            if not module.startswith(MODULE_PREFIX):
                raise ConfigError(
                    f"modules: {module!r} is not a module id; allowed: '{MODULE_PREFIX}<k>'"
                )
        self.possible_agents = [
            seat_agent_id(s, m) for m in [None, *self.modules] for s in range(self.num_seats)
        ]
        self.agents = [seat_agent_id(s) for s in range(self.num_seats)]
        self.observation_spaces = {a: self.single_observation_space for a in self.possible_agents}
        self.action_spaces = {a: self.single_action_space for a in self.possible_agents}
        self._rng = np.random.default_rng(config.get("seed"))
        self._space_rng = np.random.default_rng(config.get("seed"))
        self._agent_seed = int(self._rng.integers(2**31))
        self._zoo: dict[str, Any] = {}
        self.set_league(config.get("league") or [LEARNER])
        self._seat_ids: list[str | None] = [None] * self.num_seats
        self._zoo_agent: Any = None
        self._pending: dict[str, float] = {}
        self.opponent: str | None = None

    # ---- league --------------------------------------------------------------------------
    def set_league(self, league: list[str]) -> None:
        """Replace the list of opponents episodes are drawn against (next reset on)."""
        from moon_agents.zoo import make_agent

        if not league:
            raise ConfigError("league: must name at least one opponent")
        for entry in league:
            if entry.startswith(MODULE_PREFIX) and entry not in self.modules:
                raise ConfigError(
                    f"league: module {entry!r} is not among env_config['modules'] {self.modules}"
                )
            if entry == LEARNER or entry.startswith(MODULE_PREFIX) or entry in self._zoo:
                continue
            self._zoo[entry] = make_agent(
                entry, self.game_name, seed=self._agent_seed + len(self._zoo), name=entry
            )
        self.league = list(league)

    # ---- spaces: one observation and one action space for every agent id -----------------
    def get_observation_space(self, agent_id: str) -> gym.Space:
        return self.single_observation_space

    def get_action_space(self, agent_id: str) -> gym.Space:
        space = LegalDiscrete(self.num_actions, seed=int(self._space_rng.integers(2**31)))
        space._legal_mask_fn = lambda: self._mask(agent_id)
        return space

    # ---- episode ---------------------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        for _ in range(1000):
            self._start_episode()
            if self._seat_of_current() != TERMINAL:
                break
            # the in-env opponents finished the game before any RLlib agent had a decision
            # (a short game, e.g. Moonstar with max_rounds=1): an episode without a decision
            # teaches nothing and RLlib cannot step it, so deal a new game
        else:
            raise RuntimeError(
                f"{self.env_id}: 1000 games in a row ended before any RLlib agent had a "
                "decision; check the game's parameters (a longer game) and the league"
            )
        obs, _, _, _, infos = self._emit(paying=False)
        return obs, infos

    def _start_episode(self) -> None:
        """A new game, an opponent drawn from the league, seats assigned, and the in-env
        opponents' moves played until an RLlib agent is to move (or the game ends)."""
        self.aec.reset(seed=int(self._rng.integers(2**31)))
        self.opponent = self.league[int(self._rng.integers(len(self.league)))]
        if self.opponent == LEARNER:
            self._seat_ids = [seat_agent_id(s) for s in range(self.num_seats)]
            self._zoo_agent = None
        else:
            learner_seat = int(self._rng.integers(self.num_seats))
            if self.opponent.startswith(MODULE_PREFIX):
                self._zoo_agent = None
                self._seat_ids = [
                    seat_agent_id(s, None if s == learner_seat else self.opponent)
                    for s in range(self.num_seats)
                ]
            else:
                self._zoo_agent = self._zoo[self.opponent]
                self._seat_ids = [
                    seat_agent_id(s) if s == learner_seat else None for s in range(self.num_seats)
                ]
                for s in range(self.num_seats):
                    if s != learner_seat:
                        start_game(self._zoo_agent, self.aec.game, s)
        self.agents = [a for a in self._seat_ids if a is not None]
        self._pending = dict.fromkeys(self.agents, 0.0)
        self._play_hidden_seats()

    def step(self, action_dict: dict[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        if self.aec.game_state is None or self.aec.game_state.current_player() == TERMINAL:
            raise RuntimeError("reset() must be called before step() and after the game ends")
        mover = self._to_move()
        if mover not in action_dict:
            raise IllegalActionError(
                f"{mover} is to move but the action dict names {sorted(action_dict)}"
            )
        extra = sorted(set(action_dict) - {mover})
        if extra:
            raise IllegalActionError(f"only {mover} may act now; got actions for {extra}")
        self._apply(int(action_dict[mover]))
        self._play_hidden_seats()
        return self._emit()

    # ---- internals -------------------------------------------------------------------------
    def _seat_of_current(self) -> int:
        return self.aec.game_state.current_player()

    def _to_move(self) -> str:
        return self._seat_ids[self._seat_of_current()]

    def _mask(self, agent_id: str) -> np.ndarray:
        state = self.aec.game_state
        if state is None or state.current_player() == TERMINAL:
            return np.zeros(self.num_actions, dtype=np.int8)
        if self._seat_ids[state.current_player()] != agent_id:
            return np.zeros(self.num_actions, dtype=np.int8)
        return state.legal_actions_mask()

    def _apply(self, action: int) -> None:
        self.aec.step(action)  # raises IllegalActionError naming the legal actions
        for seat, name in enumerate(self.aec.possible_agents):
            agent_id = self._seat_ids[seat]
            if agent_id is not None:
                self._pending[agent_id] += float(self.aec.rewards[name])

    def _play_hidden_seats(self) -> None:
        """Let the in-env opponent move until an RLlib agent is to move or the game ends."""
        while self._seat_of_current() != TERMINAL and self._to_move() is None:
            view = self.aec.agent_view()
            self._apply(int(self._zoo_agent.act(view)))

    def _observation(self, seat: int) -> dict[str, np.ndarray]:
        raw = self.aec.observe(self.aec.possible_agents[seat])
        return {
            "observations": np.asarray(raw["observation"], dtype=np.float32),
            "action_mask": np.asarray(raw["action_mask"], dtype=np.float32),
        }

    def _emit(self, paying: bool = True) -> tuple[dict, dict, dict, dict, dict]:
        """Observations for the agent to move (every agent at the end) and, unless this is
        ``reset`` (which returns no rewards: they stay owed), the rewards each receiver
        earned since it last got one."""
        state = self.aec.game_state
        if state.current_player() == TERMINAL:
            receivers = [(s, a) for s, a in enumerate(self._seat_ids) if a is not None]
            done = True
        else:
            seat = state.current_player()
            receivers = [(seat, self._seat_ids[seat])]
            done = False
        obs, rewards, infos = {}, {}, {}
        for seat, agent_id in receivers:
            obs[agent_id] = self._observation(seat)
            infos[agent_id] = {"seat": seat, "opponent": self.opponent}
            if paying:
                rewards[agent_id] = self._pending[agent_id]
                self._pending[agent_id] = 0.0
        if done:
            scores = state.scores()
            winners = state.winners()
            for seat, agent_id in receivers:
                infos[agent_id].update(won=seat in winners, score=float(scores[seat]))
        terminateds = {a: True for _, a in receivers} if done else {}
        terminateds["__all__"] = done
        return obs, rewards, terminateds, {"__all__": False}, infos


def register_envs() -> list[str]:
    """Register every moon-envs id with Ray's env registry (``env_config`` = game params).

    After this, ``PPOConfig().environment("jupiter_v0", env_config={...})`` builds a
    :class:`MoonMultiAgentEnv`; ``env_config`` takes the same keys as its constructor
    without ``env_id`` (``params``, ``league``, ``seed``). Returns the registered ids.
    """
    from ray.tune.registry import register_env

    from moon_envs import list_envs

    ids = list_envs()
    for env_id in ids:
        register_env(env_id, _creator(env_id))
    return ids


def _creator(env_id: str):
    def create(env_config: dict[str, Any]) -> MoonMultiAgentEnv:
        cfg = dict(env_config or {})
        cfg["env_id"] = env_id
        worker = getattr(env_config, "worker_index", 0)
        vector = getattr(env_config, "vector_index", 0)
        if cfg.get("seed") is not None:
            cfg["seed"] = (int(cfg["seed"]) * 1009 + worker) * 101 + vector
        return MoonMultiAgentEnv(cfg)

    return create
