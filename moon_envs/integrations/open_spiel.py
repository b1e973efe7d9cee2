"""Every moon-envs environment as an OpenSpiel Python game.

::

    from moon_envs.integrations.open_spiel import register_all
    import pyspiel

    names = register_all()                     # {"jupiter_v0": "moon_envs_jupiter_v0", ...}
    game = pyspiel.load_game("moon_envs_moonstar_v1", {"game": "3", "num_players": 3})
    pyspiel.random_sim_test(game, num_sims=5, serialize=False, verbose=False)

:func:`register_all` registers each id of ``moon_envs.list_envs()`` under the short name
``moon_envs_<id>``; :func:`load_game` loads one with keyword parameters. The wrapped
:class:`State` is reachable as ``spiel_state.moon_state`` (e.g. for agents that act on
``AgentView.of(spiel_state.moon_state, seat)``).

Mapping:

* **Game type**: sequential, terminal rewards, zero-sum (``State.returns("win")``: winners
  share +1, the others share -1; general-sum for one player, e.g. Star Master's solitaire,
  won +1 or lost -1); explicit chance (``ChanceMode.EXPLICIT_STOCHASTIC``)
  when ``GameSpec.has_chance``, perfect or imperfect information as
  ``GameSpec.hidden_information`` says.
* **Game info**: ``num_distinct_actions = num_actions``, ``max_chance_outcomes`` (chance
  outcomes keep their own ids, as in OpenSpiel), players, utility bounds, game length.
* **Parameters**: every field of the game's config dataclass whose default is an int,
  float, bool or str, under its own name and type; a field whose default is ``None`` or
  a tuple takes a string: ``""`` for the default, else the value as JSON (a list for a
  tuple). The registry entry's presets apply first, as in ``moon_envs.make``.
* **Observer**: the observation tensor is ``State.observation(player)`` and the
  observation string ``State.to_string(player)`` (what that seat may know). Information
  states (perfect recall) are given for perfect-information games through OpenSpiel's
  ``IIGObserverForPublicInfoGame``.

OpenSpiel is imported only here, when this module is imported.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import numpy as np
import pyspiel

import moon_envs
from moon_envs.core.game import CHANCE, TERMINAL, ConfigError, Game

PREFIX = "moon_envs_"
_SCALARS = (bool, int, float, str)


def short_name(env_id: str) -> str:
    """The OpenSpiel short name of ``env_id`` (``"jupiter_v0"`` -> ``"moon_envs_jupiter_v0"``)."""
    return PREFIX + env_id


def _moon_game(env_id: str, params: dict[str, Any]) -> Game:
    """Our rules engine for ``env_id`` with OpenSpiel ``params`` decoded."""
    entry = moon_envs.get_entry(env_id)
    game_cls = entry.env_class().game_class
    kwargs = dict(entry.defaults)
    for f in dataclasses.fields(game_cls.config_class):
        if f.name not in params:
            continue
        value = params[f.name]
        if isinstance(f.default, _SCALARS):
            kwargs[f.name] = value
        elif value != "":
            try:
                decoded = json.loads(value)
            except json.JSONDecodeError:
                raise ConfigError(
                    f"{f.name}={value!r} is not allowed; allowed: JSON or ''"
                ) from None
            kwargs[f.name] = tuple(decoded) if isinstance(decoded, list) else decoded
    return game_cls(**kwargs)


def _parameter_spec(env_id: str) -> dict[str, Any]:
    entry = moon_envs.get_entry(env_id)
    game_cls = entry.env_class().game_class
    spec: dict[str, Any] = {}
    for f in dataclasses.fields(game_cls.config_class):
        default = f.default
        if default is dataclasses.MISSING:
            continue
        spec[f.name] = default if isinstance(default, _SCALARS) else ""
    return spec


def _zero_sum(game: Game) -> bool:
    """``returns("win")`` sums to zero with two or more players (winners share +1, the
    others -1); alone at the table (Star Master's solitaire) a game is won or lost."""
    return game.spec.num_players >= 2


def _game_type(env_id: str, game: Game) -> Any:
    s = game.spec
    chance = pyspiel.GameType.ChanceMode
    info = pyspiel.GameType.Information
    return pyspiel.GameType(
        short_name=short_name(env_id),
        long_name=f"moon-envs {env_id}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=chance.EXPLICIT_STOCHASTIC if s.has_chance else chance.DETERMINISTIC,
        information=info.IMPERFECT_INFORMATION
        if s.hidden_information
        else info.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM
        if _zero_sum(game)
        else pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=s.num_players,
        min_num_players=s.num_players,
        provides_information_state_string=not s.hidden_information,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameter_spec(env_id),
    )


def _game_info(game: Game) -> Any:
    s = game.spec
    return pyspiel.GameInfo(
        num_distinct_actions=s.num_actions,
        max_chance_outcomes=s.max_chance_outcomes,
        num_players=s.num_players,
        min_utility=float(s.min_utility),
        max_utility=float(s.max_utility),
        utility_sum=0.0 if _zero_sum(game) else None,
        max_game_length=s.max_game_length,
    )


def _game_class(env_id: str) -> type:
    default_game = _moon_game(env_id, {})
    game_type = _game_type(env_id, default_game)

    class MoonSpielGame(pyspiel.Game):
        """An OpenSpiel game wrapping one moon-envs rules engine."""

        def __init__(self, params: dict[str, Any] | None = None) -> None:
            self.moon_game = _moon_game(env_id, dict(params or {}))
            # the type follows the parameters (e.g. Moonstar's Game 11 hides side bets)
            own_type = _game_type(env_id, self.moon_game)
            super().__init__(own_type, _game_info(self.moon_game), params or {})

        def new_initial_state(self) -> MoonSpielState:
            return MoonSpielState(self, self.moon_game.new_initial_state())

        def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Any:
            if iig_obs_type is None or not iig_obs_type.perfect_recall:
                return MoonObserver(self.moon_game)
            if self.moon_game.spec.hidden_information:
                raise ValueError(
                    f"{env_id} hides information; only observations (no perfect recall) "
                    "are provided"
                )
            from open_spiel.python.observation import IIGObserverForPublicInfoGame

            return IIGObserverForPublicInfoGame(iig_obs_type, params)

    MoonSpielGame.__name__ = MoonSpielGame.__qualname__ = f"MoonSpielGame_{env_id}"
    return MoonSpielGame, game_type


class MoonSpielState(pyspiel.State):
    """An OpenSpiel state wrapping a moon-envs :class:`~moon_envs.core.game.State`."""

    def __init__(self, game: Any, moon_state: Any) -> None:
        super().__init__(game)
        self.moon_state = moon_state

    def current_player(self) -> int:
        p = self.moon_state.current_player()
        if p == TERMINAL:
            return pyspiel.PlayerId.TERMINAL
        if p == CHANCE:
            return pyspiel.PlayerId.CHANCE
        return p

    def _legal_actions(self, player: int) -> list[int]:
        return np.flatnonzero(self.moon_state.legal_actions_mask()).tolist()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(int(o), float(p)) for o, p in self.moon_state.chance_outcomes()]

    def _apply_action(self, action: int) -> None:
        self.moon_state.apply_action(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"chance outcome {int(action)}"
        return self.moon_state.action_to_string(int(action))

    def is_terminal(self) -> bool:
        return self.moon_state.is_terminal()

    def returns(self) -> list[float]:
        return self.moon_state.returns("win").tolist()

    def __str__(self) -> str:
        return str(self.moon_state)


class MoonObserver:
    """OpenSpiel observer: ``State.observation(player)`` and ``State.to_string(player)``."""

    def __init__(self, game: Game) -> None:
        shape = tuple(game.spec.observation_shape)
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state: MoonSpielState, player: int) -> None:
        self.tensor[:] = state.moon_state.observation(player).ravel()

    def string_from(self, state: MoonSpielState, player: int) -> str:
        return state.moon_state.to_string(player)


_REGISTERED: dict[str, str] = {}


def register_all() -> dict[str, str]:
    """Register every environment of ``moon_envs.list_envs()`` with OpenSpiel (once);
    return ``{env_id: short_name}``."""
    for env_id in moon_envs.list_envs():
        if env_id in _REGISTERED:
            continue
        try:
            cls, game_type = _game_class(env_id)
        except ImportError:  # a game whose module is not available in this install
            continue
        pyspiel.register_game(game_type, cls)
        _REGISTERED[env_id] = short_name(env_id)
    return dict(_REGISTERED)


def load_game(env_id: str, **params: Any) -> Any:
    """The OpenSpiel game of ``env_id`` with game ``params`` (see the parameter mapping)."""
    register_all()
    if env_id not in _REGISTERED:
        moon_envs.get_entry(env_id)  # an unknown id lists the valid ones
        raise ConfigError(f"{env_id} is not available in this install")
    return pyspiel.load_game(short_name(env_id), params)
