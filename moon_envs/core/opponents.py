"""Agent names for opponent pools: the hook through which an agents package plugs in.

:class:`~moon_envs.core.wrappers.SingleAgentEnv` (``moon_envs.make_single_agent``) takes
opponents as agent objects, callables ``f(view) -> action`` or *names* such as
``"greedy"`` or ``"ppo:runs/x/model.zip"``. The environments know no agent but
``"random"``; any other name is handed to an **agent factory**::

    factory(spec: str, game: str, seed: int) -> agent   # an object with act(view)

where ``spec`` is the name as given, ``game`` the game's ``GameSpec.name`` (``"jupiter"``)
and ``seed`` the member's index in the pool. The factory is found, in this order:

1. the one passed to :func:`register_agent_factory` (the last call wins);
2. the entry point of group ``moon_envs.agent_factory`` that an installed package
   declares. moon-envs itself declares one, ``moon_agents.zoo:agent_from_spec``, so
   after ``pip install moon-envs`` every name of ``moon-envs list`` works here without
   importing anything.

The core never imports an agents package: the arrow points from the agents to the
environments, and this hook is how the agents reach back in.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import metadata
from typing import Any

from moon_envs.core.errors import ConfigError
from moon_envs.core.snapshot import quote

ENTRY_POINT_GROUP = "moon_envs.agent_factory"

AgentFactory = Callable[[str, str, int], Any]

_registered: AgentFactory | None = None


def register_agent_factory(factory: AgentFactory | None) -> None:
    """Make ``factory(spec, game, seed)`` the resolver of agent names (``None`` clears it).

    An installed package's ``moon_envs.agent_factory`` entry point is used only while no
    factory is registered.
    """
    global _registered
    if factory is not None and not callable(factory):
        raise ConfigError(
            f"agent factory must be callable factory(spec, game, seed), got {quote(factory)}"
        )
    _registered = factory


def agent_factory() -> AgentFactory | None:
    """The registered factory, else the first installed entry point's, else ``None``."""
    if _registered is not None:
        return _registered
    for entry in sorted(metadata.entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name):
        try:
            return entry.load()
        except ImportError:  # a declared package that is not importable: try the next
            continue
    return None


def agent_from_name(spec: str, game: str, seed: int) -> Any:
    """The agent named ``spec`` for ``game``, through the agent factory.

    Raises :class:`ConfigError` when no factory is available, naming the ways out.
    """
    factory = agent_factory()
    if factory is None:
        raise ConfigError(
            f"opponent {quote(spec)}: agent names other than 'random' need an agent factory; "
            "install moon-envs (its moon_agents package declares one), call "
            "moon_envs.register_agent_factory(factory), or pass agent objects / callables "
            "f(view) -> action"
        )
    return factory(spec, game, seed)
