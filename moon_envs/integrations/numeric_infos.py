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

The conversion, field by field, is :mod:`moon_envs.core.info_fields`'s, with the fields
each game declares (``Game.info_fields()``):

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

from typing import Any

from gymnasium import spaces
from pettingzoo.utils.wrappers import BaseWrapper

from moon_envs.core.aec import MoonAECEnv
from moon_envs.core.errors import ConfigError
from moon_envs.core.info_fields import encode_info, illegal_action_fields, info_space


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
        self._name = base.metadata["name"]
        self._fields = base.game.info_fields()
        if base.illegal_action == "penalize":
            self._fields += illegal_action_fields(base.possible_agents)
        space = info_space(self._fields)
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

    def numeric(self, info: dict[str, Any]) -> dict[str, Any]:
        """One agent's raw ``info`` as its numeric info."""
        return encode_info(self._fields, info, self._last_action, self._name)


def numeric_infos(env: Any) -> NumericInfosWrapper:
    """``env`` (a moon-envs AEC env, possibly wrapped) with numeric, fixed-shape infos."""
    return NumericInfosWrapper(env)
