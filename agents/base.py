"""The Agent protocol: every baseline, search and trained agent plays through ``act(view)``.

``view`` is a :class:`moon_envs.core.view.AgentView`: the acting seat's observation, its
int8 action mask, the seat, the game (spec and config) and ``sample_state(rng)``, a
determinised copy of the position for agents that search. Any agent can meet any other
in a tournament, on any game it supports.

An agent that keeps state across one game (a memory player, a search tree reused between
moves) also defines ``reset(game, seat)``: tournaments, the trainer's opponent pool and
the CLI call it at the start of every game, before the agent's first ``act``, through
:func:`start_game`. Agents without ``reset`` are left as they are. One agent object
playing several seats of the same game gets one ``reset`` call per seat, so such an
agent keeps its memory per seat.

**Agents that need certain env parameters.** A policy plays well only on the env it was
trained on (the same observation layout, the same rules). Such an agent also defines
``env_params()``, returning an :class:`EnvParams`: the env id it was trained on (or
None for any game) and the parameters it needs, e.g. ``EnvParams("jupiter_v0",
{"num_players": 2, "line_features": True})``; None or no method means it plays any
game. Every way of setting up a game between agents (``moon-envs play``, ``eval`` and
``ladder``, :func:`moon_agents.evaluation.tournament.tournament`,
:func:`moon_agents.evaluation.ladder.run.run_ladder`) reads it through
:func:`env_params_of` and :mod:`moon_agents.seating`: parameters the user did not give
are set as the agent needs them (with a note saying so), and a parameter the user gave,
a player count or another agent that needs another value is refused with a message
naming the parameters. Only the game's own parameters count (not ``render_mode``,
``reward_mode``, ``illegal_action``, ``render_seat``). The shipped formats implement it:
JAX-trained networks (:class:`moon_agents.net_agent.NetAgent`, from the weight file),
MaskablePPO policies (:class:`moon_agents.policy.PolicyAgent`, from a JSON sidecar or the
run folder's ``config.yaml``) and RLlib models
(:class:`moon_agents.training.rllib.agent.RllibAgent`, from ``model.json``); a new
format implements ``env_params()`` and, in ``reset``, :func:`check_env_params`, which
refuses a game built without them (for envs made by hand).
"""

from __future__ import annotations

import dataclasses
import functools
import json
from collections.abc import Mapping
from typing import Any, NamedTuple, Protocol, runtime_checkable

import numpy as np

from moon_envs.core.game import ConfigError
from moon_envs.core.view import AgentView

__all__ = [
    "Agent",
    "AgentView",
    "EnvParams",
    "NeedsEnvParams",
    "check_env_params",
    "env_params_of",
    "legal_actions",
    "start_game",
]


@runtime_checkable
class Agent(Protocol):
    """Anything with ``act(view) -> action``; ``name`` is used in tables and plots."""

    name: str

    def act(self, view: AgentView) -> int:
        """Return a legal action (``view.action_mask[action] == 1``)."""
        ...


class EnvParams(NamedTuple):
    """The env an agent must play: ``env_id`` (None: any game) and the game parameters it
    needs, as plain JSON values (lists, not tuples)."""

    env_id: str | None
    params: dict[str, Any]


@runtime_checkable
class NeedsEnvParams(Protocol):
    """Optional: an agent that needs certain env parameters (see the module docstring)."""

    name: str

    def env_params(self) -> EnvParams | None:
        """The env id and parameters this agent must play with, or None for any."""
        ...


def env_params_of(agent: object) -> EnvParams | None:
    """``agent.env_params()`` checked (an :class:`EnvParams`, or None where the agent has
    no such method or needs nothing)."""
    method = getattr(agent, "env_params", None)
    if not callable(method):
        return None
    got = method()
    if got is None:
        return None
    name = getattr(agent, "name", type(agent).__name__)
    try:
        env_id, params = got
    except (TypeError, ValueError):
        raise ConfigError(
            f"{name}: env_params() must return EnvParams(env_id, params) or None, got "
            f"{type(got).__name__}"
        ) from None
    if env_id is not None and not isinstance(env_id, str):
        raise ConfigError(f"{name}: env_params().env_id must be a string or None")
    if not isinstance(params, Mapping) or not all(isinstance(k, str) for k in params):
        raise ConfigError(f"{name}: env_params().params must map parameter names to values")
    return EnvParams(env_id, plain(dict(params)))


def plain(value: Any) -> Any:
    """``value`` as JSON would give it back (tuples become lists), for comparing values."""
    return json.loads(json.dumps(value))


def game_config(game: Any) -> dict[str, Any]:
    """A game's configuration as plain JSON values."""
    return plain(dataclasses.asdict(game.config))


@functools.cache
def game_of(env_id: str) -> str:
    """The game (``GameSpec.name``) of a registered env id."""
    import moon_envs

    env = moon_envs.make(env_id)
    try:
        return env.game.spec.name
    finally:
        env.close()


def flag(value: Any) -> str:
    """A parameter value as written after ``--param KEY=``: ``true``, ``2``, ``[5,5]``."""
    return value if isinstance(value, str) else json.dumps(value).replace(" ", "")


def check_env_params(name: str, needed: EnvParams | None, game: Any) -> None:
    """Refuse ``game`` when it is not the game or lacks the parameters ``needed`` names
    (an agent's ``reset`` calls it; tournaments and the CLI set the parameters before)."""
    if needed is None:
        return
    if needed.env_id is not None and game_of(needed.env_id) != game.spec.name:
        raise ConfigError(f"{name}: trained on {needed.env_id}; it cannot play {game.spec.name}")
    have = game_config(game)
    wrong = {k: v for k, v in needed.params.items() if k in have and have[k] != v}
    if wrong:
        on = f" on {needed.env_id}" if needed.env_id else ""
        trained = ", ".join(f"{k}={v!r}" for k, v in wrong.items())
        got = ", ".join(f"{k}={have[k]!r}" for k in wrong)
        flags = " ".join(f"--param {k}={flag(v)}" for k, v in wrong.items())
        raise ConfigError(
            f"{name}: trained{on} with {trained}, but this game has {got}; pass {flags}"
        )


def start_game(agent: object, game: object, seat: int) -> None:
    """Tell ``agent`` a new game starts with it in ``seat`` (calls its optional
    ``reset(game, seat)``; agents without one are untouched)."""
    reset = getattr(agent, "reset", None)
    if callable(reset):
        reset(game, seat)


def legal_actions(view: AgentView) -> np.ndarray:
    """Indices of the legal actions in ``view`` (never empty for the agent to move)."""
    legal = np.flatnonzero(view.action_mask)
    if legal.size == 0:
        raise ValueError(f"seat {view.seat} has no legal action: it is not its turn")
    return legal
