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
* **Parameters**: every field of the game's config dataclass, under its own name, typed
  so that a game string (``str(game)``, ``game.serialize()``) loads back: a field whose
  default is an int, float, bool or str keeps that type; ``int | None`` and
  ``bool | None`` fields are ints, ``-1`` meaning the default (``game=3``,
  ``side_bets=1``); ``str | None`` fields are strings, ``""`` meaning the default; tuple
  fields are strings, ``""`` for the default, else JSON or, since commas separate a game
  string's parameters, the items separated by ``;`` (``planets=3;5;8``). The registry
  entry's presets apply first, as in ``moon_envs.make``. :func:`spiel_params` turns
  Python values (``None``, lists, bools) or command-line strings into these.
* **Observer**: the observation tensor is ``State.observation(player)`` and the
  observation string ``State.to_string(player)`` (what that seat may know). Information
  states (perfect recall) are given for perfect-information games through OpenSpiel's
  ``IIGObserverForPublicInfoGame``, and for the games that hide information (string and
  tensor) by :mod:`moon_envs.integrations.open_spiel_infostate`.

**Shimmy** (``pip install shimmy``) turns an OpenSpiel game into a PettingZoo env. Its
``OpenSpielCompatibilityV0`` reloads the game on every ``reset()`` from
``game_name`` and ``config`` alone, so the parameters go in there::

    from shimmy import OpenSpielCompatibilityV0
    register_all()
    env = OpenSpielCompatibilityV0(
        game_name="moon_envs_moonstar_v1", config=spiel_params("moonstar_v1", {"num_players": 3})
    )  # or: shimmy_env("moonstar_v1", num_players=3)

The form ``OpenSpielCompatibilityV0(env=load_game("moonstar_v1", num_players=3))`` would
reload the game by its name only, with its default parameters (4 players), and play that;
the adapter refuses that reload with a :class:`ConfigError` naming the lost parameters and
the form above. ``env=`` is fine for a game with the default parameters.

OpenSpiel is imported only here, when this module is imported; Shimmy in
:func:`shimmy_env`.
"""

from __future__ import annotations

import dataclasses
import json
import sys
from typing import Any

import numpy as np
import pyspiel

import moon_envs
from moon_envs.core.game import CHANCE, TERMINAL, ConfigError, Game
from moon_envs.core.snapshot import quote
from moon_envs.integrations.open_spiel_infostate import (
    SeatHistories,
    declares_tensor,
    make_info_state_observer,
    resample_from_infostate,
)

PREFIX = "moon_envs_"
_SCALARS = (bool, int, float, str)


def short_name(env_id: str) -> str:
    """The OpenSpiel short name of ``env_id`` (``"jupiter_v0"`` -> ``"moon_envs_jupiter_v0"``)."""
    return PREFIX + env_id


def _kind(f: dataclasses.Field) -> str:
    """How a config field travels as an OpenSpiel parameter (module docstring)."""
    if isinstance(f.default, _SCALARS):
        return "scalar"
    annotation = str(f.type).replace(" ", "")
    if annotation in ("int|None", "bool|None"):
        return "int_or_none"
    if annotation == "str|None":
        return "str_or_none"
    return "encoded"


def _config_fields(env_id: str) -> list[dataclasses.Field]:
    game_cls = moon_envs.get_entry(env_id).env_class().game_class
    return [
        f for f in dataclasses.fields(game_cls.config_class) if f.default is not dataclasses.MISSING
    ]


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    keys = [k for k, _ in pairs]
    if len(set(keys)) != len(keys):
        raise ValueError(f"duplicate key {quote(next(k for k in keys if keys.count(k) > 1))}")
    return dict(pairs)


def _decode(name: str, value: str) -> Any:
    allowed = "allowed: '' (the default), JSON, or the items separated by ';'"
    if len(value) > 10_000:
        raise ConfigError(f"{name}: a value of {len(value):,} characters; {allowed} (short)")
    try:
        if ";" in value and not value.lstrip().startswith(("[", "{")):
            items = [item for item in value.split(";") if item.strip()]
            return tuple(json.loads(item, object_pairs_hook=_no_duplicate_keys) for item in items)
        decoded = json.loads(value, object_pairs_hook=_no_duplicate_keys)
    except (ValueError, RecursionError) as err:  # bad JSON, huge ints, deep nesting
        reason = "nested too deeply" if isinstance(err, RecursionError) else quote(str(err), 80)
        raise ConfigError(f"{name}={quote(value)} is not allowed ({reason}); {allowed}") from None
    return tuple(decoded) if isinstance(decoded, list) else decoded


def _moon_game(env_id: str, params: dict[str, Any]) -> Game:
    """Our rules engine for ``env_id`` with OpenSpiel ``params`` decoded."""
    entry = moon_envs.get_entry(env_id)
    kwargs = dict(entry.defaults)
    for f in _config_fields(env_id):
        if f.name not in params:
            continue
        value, kind = params[f.name], _kind(f)
        if kind == "scalar":
            if isinstance(f.default, str) and isinstance(value, str) and value.isdigit():
                value = int(value)  # a str field that also takes a number (a seat)
            kwargs[f.name] = value
        elif kind == "int_or_none":
            if value != -1:
                kwargs[f.name] = bool(value) if "bool" in str(f.type) else value
        elif value != "":
            kwargs[f.name] = value if kind == "str_or_none" else _decode(f.name, value)
    return entry.env_class().game_class(**kwargs)


def _parameter_spec(env_id: str) -> dict[str, Any]:
    defaults = {"scalar": None, "int_or_none": -1, "str_or_none": "", "encoded": ""}
    return {
        f.name: f.default if _kind(f) == "scalar" else defaults[_kind(f)]
        for f in _config_fields(env_id)
    }


def spiel_params(env_id: str, params: dict[str, Any]) -> dict[str, Any]:
    """``params`` as OpenSpiel parameters of ``env_id``'s game: Python values (``None``,
    bools, lists, mappings) or strings from a command line (``"3"``, ``"true"``,
    ``"[3,5,8]"``) become the types the game declares (module docstring)."""
    fields = {f.name: f for f in _config_fields(env_id)}
    out: dict[str, Any] = {}
    for name, value in params.items():
        f = fields.get(name)
        if f is None:
            out[name] = value  # OpenSpiel names the unknown parameter
            continue
        kind = _kind(f)
        if isinstance(value, str) and not (kind == "scalar" and isinstance(f.default, str)):
            if kind in ("str_or_none", "encoded"):
                out[name] = value
                continue
            text = value.strip().lower()
            value = {"true": True, "false": False, "none": None}.get(text, value)
            if isinstance(value, str):
                value = float(value) if isinstance(f.default, float) else int(value)
        if kind == "scalar":
            out[name] = type(f.default)(value)
        elif kind == "int_or_none":
            out[name] = -1 if value is None else int(value)
        elif kind == "str_or_none":
            out[name] = "" if value is None else str(value)
        else:
            out[name] = "" if value is None else _encode(value)
    return out


def _encode(value: Any) -> str:
    """A tuple field's value as a string a game string keeps: flat lists of numbers,
    bools and plain words as ``a;b;c`` (one item: ``a;``), anything else as JSON."""
    items = list(value) if isinstance(value, (list, tuple)) else None
    if items and all(
        isinstance(x, (bool, int, float)) or (isinstance(x, str) and x.isidentifier())
        for x in items
    ):
        text = ";".join(json.dumps(x) for x in items)
        return text + ";" if len(items) == 1 else text
    return json.dumps(value, separators=(",", ":"))


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
        provides_information_state_string=True,
        provides_information_state_tensor=s.hidden_information and declares_tensor(game),
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
            _refuse_lossy_shimmy_reload(env_id, self.moon_game)
            # the type follows the parameters (e.g. Moonstar's Game 11 hides side bets)
            own_type = _game_type(env_id, self.moon_game)
            super().__init__(own_type, _game_info(self.moon_game), params or {})

        def new_initial_state(self) -> MoonSpielState:
            return MoonSpielState(self, self.moon_game.new_initial_state())

        def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Any:
            if iig_obs_type is None or not iig_obs_type.perfect_recall:
                return MoonObserver(self.moon_game)
            if self.moon_game.spec.hidden_information:
                return make_info_state_observer(self.moon_game, iig_obs_type, params)
            from open_spiel.python.observation import IIGObserverForPublicInfoGame

            return IIGObserverForPublicInfoGame(iig_obs_type, params)

    MoonSpielGame.__name__ = MoonSpielGame.__qualname__ = f"MoonSpielGame_{env_id}"
    return MoonSpielGame, game_type


def _refuse_lossy_shimmy_reload(env_id: str, reloaded: Game) -> None:
    """A :class:`ConfigError` when Shimmy's ``OpenSpielCompatibilityV0.reset()`` reloads
    the game it wraps as another game: built with ``env=game``, it reloads ``game`` by its
    short name alone, and the parameters ``game`` was loaded with would be dropped. Looks
    for that ``reset`` among the few Python frames above the game's construction."""
    frame = sys._getframe(2)
    for _ in range(8):
        if frame is None:
            return
        if frame.f_code.co_name == "reset" and str(frame.f_globals.get("__name__")).startswith(
            "shimmy."
        ):
            break
        frame = frame.f_back
    else:
        return
    wrapped = getattr(frame.f_locals.get("self"), "_env", None)
    before = getattr(wrapped, "moon_game", None)
    if not isinstance(before, Game) or before.config == reloaded.config:
        return
    defaults = _parameter_spec(env_id)
    lost = {k: v for k, v in wrapped.get_parameters().items() if defaults.get(k) != v}
    call = ", ".join([repr(env_id), *(f"{k}={v!r}" for k, v in lost.items())])
    raise ConfigError(
        f"Shimmy's OpenSpielCompatibilityV0(env=game) reloads {short_name(env_id)} on reset() "
        f"by its name alone, which would drop the game's parameters {lost} and play the "
        "defaults; build it as OpenSpielCompatibilityV0(game_name="
        f"{short_name(env_id)!r}, config=game.get_parameters()) or "
        f"moon_envs.integrations.open_spiel.shimmy_env({call})"
    )


def shimmy_env(env_id: str, render_mode: str | None = None, **params: Any) -> Any:
    """Shimmy's PettingZoo env over the OpenSpiel game of ``env_id`` with ``params`` (as
    :func:`load_game` takes them), built in the form that keeps them through ``reset()``:
    ``OpenSpielCompatibilityV0(game_name=..., config=...)``."""
    from shimmy import OpenSpielCompatibilityV0

    register_all()
    moon_envs.get_entry(env_id)  # an unknown id lists the valid ones
    return OpenSpielCompatibilityV0(
        game_name=short_name(env_id),
        config=spiel_params(env_id, params),
        render_mode=render_mode,
    )


class MoonSpielState(pyspiel.State):
    """An OpenSpiel state wrapping a moon-envs :class:`~moon_envs.core.game.State`."""

    def __init__(self, game: Any, moon_state: Any) -> None:
        super().__init__(game)
        self.moon_state = moon_state
        # each seat's perfect-recall history, where the game hides information
        hidden = moon_state.game.spec.hidden_information
        self.seat_histories = SeatHistories(moon_state) if hidden else None

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
        histories, a = self.seat_histories, int(action)
        shown = None if histories is None else SeatHistories.shown(self.moon_state, a)
        self.moon_state.apply_action(a)
        if histories is not None:
            histories.record(self.moon_state, shown)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any = None) -> Any:
        """A state ``player_id`` cannot tell from this one (ISMCTS's determinisation; see
        :func:`~moon_envs.integrations.open_spiel_infostate.resample_from_infostate`)."""
        return resample_from_infostate(self, player_id, probability_sampler)

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
    """The OpenSpiel game of ``env_id`` with game ``params``, Python values or strings
    (``load_game("moonstar_v1", game=3, planets=[3, 5, 8])``; see :func:`spiel_params`)."""
    register_all()
    if env_id not in _REGISTERED:
        moon_envs.get_entry(env_id)  # an unknown id lists the valid ones
        raise ConfigError(f"{env_id} is not available in this install")
    return pyspiel.load_game(short_name(env_id), spiel_params(env_id, params))
