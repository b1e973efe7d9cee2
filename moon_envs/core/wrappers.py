"""Single-agent Gymnasium view of a moon-envs AEC env, for SB3 / sb3-contrib.

One *learner* plays a seat (drawn per episode unless fixed); the other seats are played
inside :meth:`SingleAgentEnv.step` by opponents drawn from a pool. The learner's reward
for a step is everything it received between its own two decisions, so a loss caused by
an opponent's winning move reaches the learner on that step. ``action_masks()`` returns
the learner's mask, as ``sb3_contrib.MaskablePPO`` expects; once the game is over it is
all True (as in the JAX twins), so masked sampling never meets an empty mask, e.g. on the
step a Gymnasium vector env spends resetting a finished game.

The infos have the same keys, types and shapes at every step, ``reset()`` and the end of
a game included, so Gymnasium's vector envs (``gymnasium.make_vec(..., num_envs=n)``,
sync or async) can batch them (see :meth:`SingleAgentEnv._info`).

Opponents are any objects with ``act(view) -> int`` (see ``moon_agents.Agent``), plain
callables ``f(view) -> int``, or agent names such as ``"greedy"`` (resolved by the agent
factory of :mod:`moon_envs.core.opponents`, which the installed ``moon_agents`` package
provides; ``"random"`` needs nothing more); by default they play uniformly at random among
legal actions, with the wrapper's seeded generator.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np

from moon_envs.core.aec import MoonAECEnv
from moon_envs.core.errors import CallOrderError, ConfigError
from moon_envs.core.info_fields import encode_info, illegal_action_fields
from moon_envs.core.opponents import agent_from_name
from moon_envs.core.snapshot import quote
from moon_envs.core.view import AgentView


class _UniformRandom:
    """Default opponent: a uniformly random legal action from the wrapper's generator."""

    def __init__(self, rng_source: SingleAgentEnv) -> None:
        self._src = rng_source

    def act(self, view: AgentView) -> int:
        legal = np.flatnonzero(view.action_mask)
        return int(legal[self._src.np_random.integers(len(legal))])

    def __repr__(self) -> str:
        return "UniformRandom"


def resolve_opponent(member: Any, env: SingleAgentEnv, index: int) -> Any:
    """An opponent pool member as an object that plays: agent names become agents.

    ``"random"`` is the wrapper's own uniform player; any other name goes to the agent
    factory (:func:`moon_envs.core.opponents.agent_from_name`), seeded by its pool index.
    """
    if not isinstance(member, str):
        if not (hasattr(member, "act") or callable(member)):
            raise ConfigError(
                f"opponent {quote(member)} is neither an agent name, an object with act(view) "
                "nor a callable f(view) -> action"
            )
        return member
    if member == "random":
        return _UniformRandom(env)
    return agent_from_name(member, env.aec.game.spec.name, index)


class SingleAgentEnv(gymnasium.Env):
    """The AEC env ``env_id`` seen by one learner, the other seats played by opponents.

    Build it by id with ``moon_envs.make_single_agent(env_id, opponents=..., **params)``,
    which makes the AEC env with ``illegal_action="penalize"``: an illegal learner action
    then ends the episode with reward -1 and ``info["illegal_action"]``, so unmasked
    samplers (``check_env``, plain PPO) run; MaskablePPO never triggers it.

    Args:
        env: the AEC env the learner plays in.
        opponents: the pool; for each episode every opponent seat draws one member
            uniformly. Members are agents, callables or agent names (``"greedy"``,
            ``"random"``, ``"ppo:PATH"``; see :func:`resolve_opponent`). ``None`` means
            uniform random play. A member with
            ``reset(game, seat)`` is told at the start of every episode which seat it plays.
        learner_seat: fixed seat of the learner, or ``None`` to draw it each episode.
        margin_shaping: reward shaping, off (0.0) by default. With a coefficient ``k``,
            each step's reward also gets ``k`` times the change, since the learner's
            previous decision, of its *score margin* (its score minus the best other
            score; ``State.scores()``). Over a game the extra rewards add up to ``k``
            times the final margin less the margin at the learner's first decision, so
            it rewards winning by more and losing by less; the env's own reward (a win)
            is unchanged beside it.

    Spaces: ``observation_space`` is the env's ``"observation"`` Box; ``action_space`` is
    its ``Discrete``.

    Infos, the same keys, types and shapes at every step (``reset()`` and the last step
    included), so that Gymnasium's vector envs can stack them:

    * ``action_mask``: bool ``(num_actions,)``, as :meth:`action_masks` (all True once
      the game is over);
    * ``seat``: int, the learner's seat;
    * ``won``: bool, whether the learner is among the winners (False until the end);
    * ``winners``: bool ``(num_players,)``, True for each winning seat (all False until
      the end);
    * ``scores``: float64 ``(num_players,)``, the final scores (0 until the end: a
      game's scores in play may rest on what a seat does not see);
    * the game's own infos for the learner's seat in numeric form, one ``int64`` array
      per field (``Game.info_fields()``, encoded by :mod:`moon_envs.core.info_fields`:
      Star Master's ``last_flip_seat``, Moonstar's ``round_report_bid``, ...), and, with
      ``illegal_action="penalize"``, ``illegal_action_agent`` (the offender's seat) and
      ``illegal_action_action``, -1 until an illegal action ends the game. The env's own
      infos, text included, stay at ``env.aec.infos``.
    """

    metadata = {"render_modes": ["human", "ansi", "rgb_array"], "render_fps": 2}

    def __init__(
        self,
        env: MoonAECEnv,
        opponents: Sequence[Any] | None = None,
        learner_seat: int | None = None,
        margin_shaping: float = 0.0,
    ) -> None:
        if not isinstance(env, MoonAECEnv):
            raise ConfigError(
                f"env must be a moon-envs AEC env, got {type(env).__name__}; build one by id "
                "with moon_envs.make_single_agent(env_id, ...)"
            )
        self.aec = env
        self.render_mode = self.aec.render_mode
        n = self.aec.game.spec.num_players
        if learner_seat is not None and not (0 <= learner_seat < n):
            raise ConfigError(
                f"learner_seat={learner_seat} is out of range; allowed: 0..{n - 1} or None"
            )
        self.learner_seat = learner_seat
        if isinstance(margin_shaping, bool) or not (
            isinstance(margin_shaping, (int, float)) and 0 <= margin_shaping < float("inf")
        ):
            raise ConfigError(
                f"margin_shaping={quote(margin_shaping)} is not allowed; allowed: a number >= 0"
            )
        self.margin_shaping = float(margin_shaping)
        self._margin = 0.0
        if isinstance(opponents, str):
            opponents = [opponents]
        self.opponents: list[Any] = (
            [resolve_opponent(m, self, i) for i, m in enumerate(opponents)]
            if opponents
            else [_UniformRandom(self)]
        )
        agent0 = self.aec.possible_agents[0]
        self.observation_space = self.aec.observation_space(agent0)["observation"]
        self.action_space = self.aec.action_space(agent0)
        self.seat = 0
        self._learner = agent0
        self._seat_opponents: dict[str, Any] = {}
        self._info_fields = self.aec.game.info_fields()
        if self.aec.illegal_action == "penalize":
            self._info_fields += illegal_action_fields(self.aec.possible_agents)
        self._last_action = -1  # the last player action applied, for tracked info fields

    # ---- pool -------------------------------------------------------------------------------
    def set_opponents(self, opponents: Sequence[Any]) -> None:
        """Replace the opponent pool (takes effect at the next episode)."""
        if not opponents:
            raise ConfigError("opponents must be a non-empty sequence")
        if isinstance(opponents, str):
            opponents = [opponents]
        self.opponents = [resolve_opponent(m, self, i) for i, m in enumerate(opponents)]

    def add_opponent(self, opponent: Any) -> None:
        """Add a member to the opponent pool (e.g. a frozen snapshot of the learner)."""
        self.opponents.append(resolve_opponent(opponent, self, len(self.opponents)))

    # ---- gymnasium API --------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        while True:
            self._last_action = -1
            # every episode's chance events are drawn from the wrapper's own seeded stream
            self.aec.reset(seed=int(self.np_random.integers(2**31 - 1)))
            n = len(self.aec.possible_agents)
            self.seat = (
                self.learner_seat
                if self.learner_seat is not None
                else int(self.np_random.integers(n))
            )
            self._learner = self.aec.possible_agents[self.seat]
            self._seat_opponents = {
                a: self.opponents[int(self.np_random.integers(len(self.opponents)))]
                for a in self.aec.possible_agents
                if a != self._learner
            }
            for a, opp in self._seat_opponents.items():
                reset = getattr(opp, "reset", None)
                if callable(reset):  # agents that remember within a game start afresh
                    reset(self.aec.game, self.aec.possible_agents.index(a))
            self._play_opponents()
            if not self.aec.terminations[self._learner]:
                break  # the learner has a decision to make
        self.aec._cumulative_rewards[self._learner] = 0.0
        self._margin = self._score_margin()
        return self._obs(), self._info()

    def step(self, action: Any):
        aec = self.aec
        if aec.agent_selection != self._learner or aec.terminations.get(self._learner, True):
            raise RuntimeError("step() called after the episode ended; call reset()")
        self._apply(action)  # the env checks it: np.array(0.7) is refused, not floored
        self._play_opponents()
        reward = float(aec._cumulative_rewards[self._learner])
        aec._cumulative_rewards[self._learner] = 0.0
        if self.margin_shaping:
            margin = self._score_margin()
            reward += self.margin_shaping * (margin - self._margin)
            self._margin = margin
        terminated = bool(aec.terminations[self._learner])
        truncated = bool(aec.truncations[self._learner])
        return self._obs(), reward, terminated, truncated, self._info()

    def _play_opponents(self) -> None:
        aec = self.aec
        while aec.agent_selection != self._learner and not aec.terminations[aec.agent_selection]:
            agent = aec.agent_selection
            opp = self._seat_opponents[agent]
            view = aec.agent_view(agent)
            action = opp.act(view) if hasattr(opp, "act") else opp(view)
            self._apply(int(action))

    def _apply(self, action: Any) -> None:
        """Step the AEC env, remembering the action unless it was refused as illegal."""
        mover = self.aec.agent_selection
        self.aec.step(action)
        if "illegal_action" not in self.aec.infos.get(mover, {}):
            self._last_action = int(action)

    def _score_margin(self) -> float:
        """The learner's score minus the best other seat's score (0 with one seat)."""
        if not self.margin_shaping:
            return 0.0
        scores = np.asarray(self.aec.game_state.scores(), dtype=np.float64)
        others = np.delete(scores, self.seat)
        return float(scores[self.seat] - others.max()) if others.size else 0.0

    def _obs(self) -> np.ndarray:
        return self.aec.game_state.observation(self.seat)

    def _info(self) -> dict[str, Any]:
        """The learner's info: fixed keys, types and shapes (see the class docstring)."""
        state = self.aec.game_state
        n = len(self.aec.possible_agents)
        winners = np.zeros(n, dtype=bool)
        scores = np.zeros(n)
        if state.is_terminal():
            winners[list(state.winners())] = True
            scores[:] = state.scores()
        info: dict[str, Any] = {
            "action_mask": self.action_masks(),
            "seat": int(self.seat),
            "won": bool(winners[self.seat]),
            "winners": winners,
            "scores": scores,
        }
        raw = self.aec.infos.get(self._learner, {})
        name = self.aec.metadata.get("name", type(self.aec).__name__)
        info.update(encode_info(self._info_fields, raw, self._last_action, name))
        return info

    def action_masks(self) -> np.ndarray:
        """Boolean mask of the learner's legal actions; all True once the game is over
        (the JAX twins' convention), so masked sampling always has an action to pick.

        Raises :class:`~moon_envs.core.errors.CallOrderError` before ``reset()``.
        """
        state = self.aec.game_state
        if state is None:
            raise CallOrderError("reset() needs to be called before action_masks().")
        if state.current_player() == self.seat:
            return state.legal_actions_mask().astype(bool)
        return np.ones(self.action_space.n, dtype=bool)

    def render(self):
        return self.aec.render()

    def close(self) -> None:
        self.aec.close()
