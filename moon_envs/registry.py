"""Versioned environment ids -> factories, with their documentation.

``make(env_id, **params)`` builds a PettingZoo AEC env; ``make_single_agent`` builds the
single-agent Gymnasium view used for SB3 training. Every id is also registered with
PettingZoo's registry (``pettingzoo.make("aec", "moon_envs/<id>")``, where the installed
PettingZoo has ``pettingzoo.register``) and with Gymnasium's (``gymnasium.make(
"moon_envs/<Name>-v<N>")``, the single-agent view against random opponents).

An id ends in ``_v<N>``; the number changes whenever a change could alter results
(rules, observation or action layout, rewards), as in PettingZoo.
"""

from __future__ import annotations

import importlib
import inspect
import json
from dataclasses import dataclass, field
from typing import Any

from moon_envs.core.aec import ENV_PARAMS, MoonAECEnv
from moon_envs.core.game import ConfigError
from moon_envs.core.opponents import agent_from_name
from moon_envs.core.snapshot import quote
from moon_envs.core.wrappers import SingleAgentEnv


@dataclass(frozen=True)
class EnvEntry:
    """One registered environment.

    Attributes:
        id: versioned id, e.g. ``"jupiter_v0"``.
        module: the module holding ``raw_env`` and the documentation page.
        summary: one line for ``list_envs`` and the README table.
        gym_id: the Gymnasium id of the single-agent view.
        defaults: keyword defaults applied before the user's (presets).
    """

    id: str
    module: str
    summary: str
    gym_id: str
    defaults: dict[str, Any] = field(default_factory=dict)

    def env_class(self) -> type[MoonAECEnv]:
        return importlib.import_module(self.module).raw_env

    @property
    def doc(self) -> str:
        return inspect.getdoc(importlib.import_module(self.module)) or ""


_ENVS: dict[str, EnvEntry] = {}


def register(entry: EnvEntry) -> None:
    """Add an environment to the moon-envs registry (and PettingZoo's / Gymnasium's)."""
    _ENVS[entry.id] = entry
    _register_pettingzoo(entry)
    _register_gymnasium(entry)


def list_envs() -> list[str]:
    """All registered environment ids, sorted."""
    return sorted(_ENVS)


def get_entry(env_id: str) -> EnvEntry:
    """The :class:`EnvEntry` of ``env_id``; an unknown id lists the valid ones."""
    try:
        return _ENVS[env_id]
    except KeyError:
        raise ConfigError(
            f"unknown environment id {quote(env_id)}; registered ids: {list_envs()}"
        ) from None


def valid_params(env_id: str) -> list[str]:
    """Names of the parameters ``make(env_id, ...)`` accepts."""
    import dataclasses

    cls = get_entry(env_id).env_class()
    return [*ENV_PARAMS, *(f.name for f in dataclasses.fields(cls.game_class.config_class))]


def make(env_id: str, **params: Any) -> MoonAECEnv:
    """Build the PettingZoo AEC environment ``env_id`` with ``params``.

    ``params`` are the env's (``render_mode``, ``reward_mode``, ``illegal_action``) and the
    game's own; an unknown name raises :class:`ConfigError` listing the valid ones.
    """
    entry = get_entry(env_id)
    cls = entry.env_class()
    unknown = sorted(set(params) - set(valid_params(env_id)))
    if unknown:
        raise ConfigError(
            f"unknown parameter(s) {quote(unknown, 200)} for {env_id}; valid parameters: "
            f"{valid_params(env_id)}"
        )
    return cls(**{**entry.defaults, **params})


def make_single_agent(
    env_id: str,
    opponents: Any = None,
    learner_seat: int | None = None,
    margin_shaping: float = 0.0,
    **params: Any,
) -> SingleAgentEnv:
    """The single-agent Gymnasium view of ``env_id`` (see :class:`SingleAgentEnv`).

    ``opponents``, ``learner_seat`` and ``margin_shaping`` are :class:`SingleAgentEnv`'s
    (opponents may be agent names, e.g. ``opponents=["greedy", "random"]``); ``params`` go to
    :func:`make`, with ``illegal_action`` defaulting to ``"penalize"`` so that unmasked
    samplers (``check_env``, plain PPO) run.

    Named opponents are built first (through the agent factory of
    :mod:`moon_envs.core.opponents`, pool member ``i`` seeded ``i``). An opponent that
    needs certain game parameters (a trained policy: its ``env_params()``, see
    :mod:`moon_agents.base`) gets them: a parameter not in ``params`` is set as it needs,
    so ``make_single_agent("jupiter_v0", opponents=["trained"])`` plays on the
    ``line_features=True`` env its network was trained on. A parameter given otherwise,
    or two opponents needing different values, raise :class:`ConfigError` naming them.
    """
    params.setdefault("illegal_action", "penalize")
    if isinstance(opponents, str):
        opponents = [opponents]
    if opponents:
        opponents = _build_named(env_id, list(opponents))
        params = _with_opponent_params(env_id, opponents, params)
    return SingleAgentEnv(
        make(env_id, **params),
        opponents=opponents,
        learner_seat=learner_seat,
        margin_shaping=margin_shaping,
    )


def _game_name(env_id: str) -> str:
    """The game (``GameSpec.name``) of a registered id: its package's name."""
    return get_entry(env_id).module.split(".")[1]


def _build_named(env_id: str, opponents: list[Any]) -> list[Any]:
    """The pool with its agent names (other than ``"random"``) built, member ``i`` seeded
    ``i``, as :class:`SingleAgentEnv` would build them."""
    game = _game_name(env_id)
    return [
        agent_from_name(m, game, i) if isinstance(m, str) and m != "random" else m
        for i, m in enumerate(opponents)
    ]


def _with_opponent_params(env_id: str, opponents: list[Any], params: dict) -> dict:
    """``params`` with the game parameters the opponents need added (see
    :func:`make_single_agent`); a conflict raises :class:`ConfigError`."""
    plain = lambda v: json.loads(json.dumps(v))  # noqa: E731 - tuples compare as lists
    added: dict[str, tuple[Any, str]] = {}  # parameter -> (value, the opponent needing it)
    for member in opponents:
        method = getattr(member, "env_params", None)
        needed = method() if callable(method) else None
        if needed is None:
            continue
        name = getattr(member, "name", type(member).__name__)
        needed_env, needed_params = needed
        if needed_env is not None and _game_name(needed_env) != _game_name(env_id):
            raise ConfigError(
                f"opponent {quote(name)}: trained on {needed_env}; it cannot play {env_id}"
            )
        for key, value in needed_params.items():
            if key in params and plain(params[key]) != plain(value):
                raise ConfigError(
                    f"opponent {quote(name)} was trained with {key}={value!r}, but the "
                    f"parameters give {key}={params[key]!r}; pass {key}={value!r} or leave it out"
                )
            if key in added and plain(added[key][0]) != plain(value):
                raise ConfigError(
                    f"opponents {quote(added[key][1])} and {quote(name)} need different values "
                    f"of {key} ({added[key][0]!r} and {value!r}); they cannot share one env"
                )
            added.setdefault(key, (value, name))
    return {**{k: v for k, (v, _) in added.items()}, **params}


def _register_pettingzoo(entry: EnvEntry) -> None:
    try:
        import pettingzoo
    except ImportError:  # pragma: no cover - pettingzoo is a core dependency
        return
    reg = getattr(pettingzoo, "register", None)
    if reg is None:  # older PettingZoo without a registry
        return
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # re-registration on reload
        reg("aec", f"moon_envs/{entry.id}", entry_point=_aec_factory(entry.id))


def _aec_factory(env_id: str):
    def factory(**params: Any) -> MoonAECEnv:
        return make(env_id, **params)

    factory.__name__ = f"make_{env_id}"
    return factory


def _register_gymnasium(entry: EnvEntry) -> None:
    import gymnasium

    if entry.gym_id in gymnasium.registry:
        return
    gymnasium.register(
        id=entry.gym_id,
        entry_point="moon_envs.registry:make_single_agent",
        kwargs={"env_id": entry.id},
    )


# ---- the collection -------------------------------------------------------------------------

register(
    EnvEntry(
        id="jupiter_v0",
        module="moon_envs.jupiter.env",
        summary="Jupiter (Knizia): probes and dice on a grid, 2-4 players, chance.",
        gym_id="moon_envs/Jupiter-v0",
    )
)
register(
    EnvEntry(
        id="moonstar_v1",
        module="moon_envs.moonstar.env",
        summary="Moonstar (Randolph): bid, then move moons with dice; Games 1-12 as parameters.",
        gym_id="moon_envs/Moonstar-v1",
    )
)
register(
    EnvEntry(
        id="moon_harvesters_v0",
        module="moon_envs.moon_harvesters.env",
        summary="Moon Harvesters: polyomino placement on a 12x12/12x16 grid, 2-4 players.",
        gym_id="moon_envs/MoonHarvesters-v0",
    )
)
register(
    EnvEntry(
        id="star_master_v0",
        module="moon_envs.star_master.env",
        summary="Star Master (Allaire): find hidden colours from memory, 1-6 players, races.",
        gym_id="moon_envs/StarMaster-v0",
    )
)
register(
    EnvEntry(
        id="moonwakers_v1",
        module="moon_envs.moonwakers.env",
        summary="Moonwakers SEED: hidden terrain cards, sealed choices, duels; 2-6 players.",
        gym_id="moon_envs/Moonwakers-v1",
    )
)
