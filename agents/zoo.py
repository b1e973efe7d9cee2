"""Agent names -> agent classes, per game, for the CLI, configs and tournaments.

An agent spec is a string:

* ``"random"``                     uniform over legal actions (every game);
* ``"greedy"`` / ``"heuristic"``   the game's heuristic baseline;
* ``"oracle"``                     Moonstar's solver-backed agent;
* ``"ppo:PATH"``                   a trained MaskablePPO checkpoint (``moon_agents.policy``), loaded
                                   without unpickling;
* ``"ppo-trusted:PATH"``           any sb3 MaskablePPO zip, loaded by sb3's unpickler: trusted
                                   files only;
* ``"rllib:PATH"``                 a model trained by RLlib (``moon_agents.training.rllib.agent``),
  loaded
                                   without unpickling.
* ``"az:PATH"`` / ``"jppo:PATH"``    a network trained on a JAX twin (``alphazero`` or
                                   ``jax_ppo``; ``moon_agents.net_agent``), played with numpy
                                   alone; ``az:PATH,simulations=N`` adds a search guided by it
                                   (``az:trained,...``: the game's shipped network).
* ``"trained"``                    the agent shipped for the game in ``agents/trained/``:
                                   ``GAME.npz`` (a JAX-trained network, loaded like
                                   ``az:PATH``) where there is one, else ``GAME.zip`` (see
                                   docs/ladder.md).
* ``"trained:KEY=N"``              the network shipped for one variant of the game,
                                   ``GAME_KEYN.npz``: Moonstar's ``trained:game=6`` and
                                   ``trained:game=11`` (its Games 6 and 11); it brings those
                                   parameters to the game like ``trained``.
* ``"trained-ppo"``                the MaskablePPO policy shipped as ``GAME.zip``, loaded like
                                   ``ppo:PATH`` (the env parameters it was trained with are
                                   in ``GAME.zip.json`` beside it).
* ``"mcts"`` / ``"mcts:FIELD=VALUE,..."``  UCT / information-set MCTS (every game), e.g.
  ``mcts:simulations=400,rollout=greedy,c=1.4,seconds=0.5`` (fields in
  :mod:`moon_agents.search.spec`).
* ``"mctx:PATH,..."`` / ``"mctx:trained,..."``  Gumbel MuZero search (mctx) on the JAX
  twin guided by a network file or the game's shipped one, e.g.
  ``mctx:trained,simulations=64`` (fields in :mod:`moon_agents.search.mctx_spec`).
* ``"NAME:FIELD=VALUE,..."``      a game's agent with parameters, where its class reads them
  with a ``from_spec(text, seed, name)`` class method: Star Master's
  ``memory:capacity=N`` (the memory agent remembering ``N`` slots, 0..9).

Every agent class is built as ``Cls(seed=..., name=...)`` and plays through
``act(view)`` (see :mod:`moon_agents.base`). Trained agents (``trained``, ``trained-ppo``,
``ppo:``, ``az:``, ``rllib:``) also say which env parameters they were trained with
(``env_params()``); :mod:`moon_agents.seating` sets them up for a game
(``make_game(env_id, ["trained", "random"])`` builds the env and the agents at once).
"""

from __future__ import annotations

import importlib
import zipfile
from pathlib import Path
from typing import Any

from moon_agents.net_agent import SPEC_PREFIXES, parse_spec
from moon_agents.net_weights import TRAINED_DIR  # noqa: F401  (re-exported)
from moon_agents.shipped import (  # noqa: F401  (re-exported: the zoo's public names)
    is_shipped,
    shipped_games,
    trained_model,
    trained_variants,
    variant_suffix,
)
from moon_envs.core.game import ConfigError
from moon_envs.core.snapshot import quote

# game name (GameSpec.name) -> agent name -> "module:Class"
_BY_GAME: dict[str, dict[str, str]] = {
    "jupiter": {"greedy": "moon_agents.heuristics.jupiter:GreedyAgent"},
    "moonstar": {
        "heuristic": "moon_agents.heuristics.moonstar:MoonstarHeuristicAgent",
        "oracle": "moon_agents.heuristics.moonstar:MoonstarOracleAgent",
    },
    "moon_harvesters": {"greedy": "moon_agents.heuristics.moon_harvesters:HarvestersGreedyAgent"},
    "star_master": {
        "memory": "moon_agents.heuristics.star_master:StarMasterMemoryAgent",
        "heuristic": "moon_agents.heuristics.star_master:StarMasterMemoryAgent",
        "memory3": "moon_agents.heuristics.star_master:StarMasterSlotsAgent",
    },
    "moonwakers": {"heuristic": "moon_agents.heuristics.moonwakers:MoonwakersHeuristicAgent"},
}
_ALIASES = {"heuristic": "greedy", "greedy": "heuristic"}
# game name -> "module:Class" of its heuristic on the JAX twin (``Class(twin)`` with
# ``logits(state)``), the jax_ppo trainer's fixed opponent (``heuristic_fraction``)
_ON_TWIN: dict[str, str] = {
    "moon_harvesters": "moon_agents.heuristics.moon_harvesters_jax:GreedyOnTwin",
}
_ANY_GAME = {
    "random": "moon_agents.random_agent:RandomAgent",
    "mcts": "moon_agents.search:MCTSAgent",
}


def jax_heuristic(game: str, twin: Any) -> Any | None:
    """The heuristic of ``game`` built on ``twin`` (jax needed), or None if it has none."""
    target = _ON_TWIN.get(game)
    if target is None:
        return None
    module, cls = target.split(":")
    return getattr(importlib.import_module(module), cls)(twin)


def jax_heuristic_games() -> list[str]:
    """The games whose heuristic also plays on the JAX twin."""
    return sorted(_ON_TWIN)


def shipped_network_spec(spec: str, game: str) -> str:
    """``az:trained,simulations=N`` -> the same spec with the path of the network shipped
    for ``game`` (``agents/trained/GAME.npz``); any other spec unchanged."""
    path, _ = parse_spec(spec)
    if path != "trained":
        return spec
    model = trained_model(game)
    if model is None or model.suffix != ".npz":
        have = [g for g in shipped_games() if (trained_model(g) or Path()).suffix == ".npz"]
        raise ConfigError(
            f"agent {quote(spec)}: no network is shipped for game {game!r}; "
            f"games with one: {have}"
        )
    prefix, _, rest = spec.partition(":")
    return f"{prefix}:{model}{rest[len(path):]}"


def model_path(spec: str, game: str) -> Path | None:
    """The model file or folder a spec loads (``ppo:``, ``ppo-trusted:``, ``rllib:``,
    ``trained``), or None for agents without one."""
    if is_shipped(spec):
        return trained_model(game, spec)
    if spec.startswith(SPEC_PREFIXES):
        return Path(parse_spec(shipped_network_spec(spec, game))[0])
    if spec.startswith("mctx:"):
        from moon_agents.search.mctx_spec import parse_mctx_spec

        path = parse_mctx_spec(spec)[0]
        return trained_model(game) if path == "trained" else Path(path)
    for prefix in ("ppo:", "ppo-trusted:", "rllib:"):
        if spec.startswith(prefix):
            from moon_agents.checkpoint import checkpoint_path

            path = spec[len(prefix) :]
            return Path(path) if prefix == "rllib:" else checkpoint_path(path)
    return None


def agent_names(game: str) -> list[str]:
    """Agent names usable with ``game`` (besides ``ppo:PATH`` and ``rllib:PATH``)."""
    names = set(_ANY_GAME) | set(_BY_GAME.get(game, {}))
    names |= {a for a, b in _ALIASES.items() if b in names}
    if trained_model(game) is not None:
        names.add("trained")
    if trained_model(game, "trained-ppo") is not None:
        names.add("trained-ppo")
    return sorted(names) + trained_variants(game)


def _load(path: str) -> type:
    module, cls = path.split(":")
    return getattr(importlib.import_module(module), cls)


def make_agent(spec: str, game: str, seed: int | None = None, name: str | None = None) -> Any:
    """Build the agent named by ``spec`` for ``game`` (a ``GameSpec.name``)."""
    if spec == "mcts" or spec.startswith("mcts:"):
        return _make_mcts(spec, game, seed, name)
    if spec.startswith("mctx:"):
        from moon_agents.search.mctx_agent import MctxAgent

        return MctxAgent.from_spec(spec, game, seed=seed, name=name or spec)
    if spec.startswith(("ppo:", "ppo-trusted:")):
        from moon_agents.policy import PolicyAgent

        trusted, path = spec.startswith("ppo-trusted:"), spec.partition(":")[2]
        try:
            return PolicyAgent.load(path, name=name or spec, seed=seed, trusted=trusted)
        except ConfigError:
            raise
        except (ValueError, KeyError, OSError, EOFError, zipfile.BadZipFile) as exc:
            if not trusted:  # the checked loader reports bad files itself
                raise
            raise ConfigError(
                f"agent {quote(spec)}: {quote(path)} is not a MaskablePPO zip that sb3 can "
                f"load ({type(exc).__name__}: {quote(str(exc), 200)})"
            ) from None
    if spec.startswith(SPEC_PREFIXES):
        from moon_agents.net_agent import NetAgent

        return NetAgent.from_spec(shipped_network_spec(spec, game), seed=seed, name=name or spec)
    if is_shipped(spec):
        path = trained_model(game, spec)
        if path is None:
            have = shipped_games()
            variants = trained_variants(game)
            raise ConfigError(
                f"no {spec!r} agent is shipped for game {game!r}; games with one: {have}"
                + (f"; variants of {game}: {variants}" if variants else "")
            )
        if path.suffix == ".npz":
            from moon_agents.net_agent import NetAgent

            return NetAgent.load(path, name=name or spec, seed=seed)
        try:
            import sb3_contrib  # noqa: F401
        except ImportError:
            raise ConfigError(
                f"agent {spec!r} for {game} is the MaskablePPO policy agents/trained/"
                f"{path.name}, which needs sb3-contrib and torch; install them with: "
                'pip install "moon-envs[train]"'
            ) from None
        from moon_agents.policy import PolicyAgent

        return PolicyAgent.load(path, name=name or spec, seed=seed)
    if spec.startswith("rllib:"):  # RLlib back-end (agents/training/rllib/agent.py)
        from moon_agents.training.rllib.agent import RllibAgent

        return RllibAgent.load(spec[6:], name=name or spec, seed=seed)
    table = {**_ANY_GAME, **_BY_GAME.get(game, {})}
    base, sep, params = spec.partition(":")
    if sep:
        return _make_with_params(table, base, params, game, seed, name or spec)
    key = spec if spec in table else _ALIASES.get(spec)
    if key not in table:
        raise ConfigError(
            f"unknown agent {spec!r} for game {game!r}; allowed: {agent_names(game)} "
            "or 'ppo:PATH', 'az:PATH' or 'rllib:PATH'"
        )
    return _load(table[key])(seed=seed, name=name or spec)


def _make_with_params(
    table: dict[str, str], base: str, params: str, game: str, seed: int | None, name: str
) -> Any:
    """``NAME:FIELD=VALUE,...``: the agent ``NAME`` built by its ``from_spec``."""
    key = base if base in table else _ALIASES.get(base)
    if key not in table:
        raise ConfigError(
            f"unknown agent {quote(base)} for game {game!r}; allowed: {agent_names(game)} "
            "or 'ppo:PATH', 'az:PATH' or 'rllib:PATH'"
        )
    cls = _load(table[key])
    from_spec = getattr(cls, "from_spec", None)
    if from_spec is None:
        raise ConfigError(
            f"agent {base!r} takes no parameters; write it as {base!r} alone "
            f"(got {quote(base + ':' + params)})"
        )
    return from_spec(params, seed=seed, name=name)


def _make_mcts(spec: str, game: str, seed: int | None, name: str | None) -> Any:
    """``mcts[:field=value,...]``: the search agent with its rollout agent built here."""
    from moon_agents.search import MCTSAgent, parse_params

    config = parse_params(spec.partition(":")[2])
    rollout_agent = None
    if config.rollout != "random":
        allowed = [a for a in agent_names(game) if a != "mcts"]
        if config.rollout not in allowed:
            raise ConfigError(
                f"rollout={config.rollout!r} is not allowed for game {game!r}; "
                f"allowed values: {allowed}"
            )
        rollout_agent = make_agent(config.rollout, game, seed=seed, name=config.rollout)
    return MCTSAgent(seed=seed, name=name or spec, config=config, rollout_agent=rollout_agent)


def agent_from_spec(spec: str, game: str, seed: int) -> Any:
    """The agent factory moon-envs' environments use for opponent names.

    Declared as the ``moon_envs.agent_factory`` entry point, so
    ``moon_envs.make_single_agent(..., opponents=["greedy"])`` builds its opponents here
    (see :mod:`moon_envs.core.opponents`).
    """
    return make_agent(spec, game, seed=seed, name=spec)
