"""Snapshots of a whole environment: ``get_state()`` / ``set_state()``.

:class:`EnvSnapshots` is a mixin of :class:`~moon_envs.core.aec.MoonAECEnv`. A snapshot is
plain JSON: the position (``State.to_dict()``), the env's random generator, the env
parameters it was taken with (``reward_mode``, ``illegal_action``) and PettingZoo's
bookkeeping (agents, selection, rewards, terminations, infos). ``set_state`` treats it
as untrusted input (see :mod:`moon_envs.core.snapshot`): everything is checked and
built before the env changes, so on any error the env is left exactly as it was.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np

from moon_envs.core.errors import ConfigError
from moon_envs.core.game import TERMINAL, State
from moon_envs.core.snapshot import (
    MAX_INFO_VALUES,
    MAX_INT,
    MIN_INT,
    check_fields,
    check_text,
    decode,
    encode,
    quote,
)


class EnvSnapshots:
    """``get_state()`` / ``set_state()`` of a moon-envs AEC env (module docstring)."""

    def get_state(self) -> dict[str, Any]:
        """A JSON-friendly snapshot of the whole env (position, RNG, AEC bookkeeping)."""
        self._require_reset("get_state()")
        return {
            "env": self.metadata["name"],
            "env_params": self._snapshot_params(),
            "state": self.game_state.to_dict(),
            "rng": self.np_random.bit_generator.state,
            "agents": list(self.agents),
            "agent_selection": self.agent_selection,
            "skip_agent_selection": self._skip_agent_selection,
            "rewards": dict(self.rewards),
            "cumulative_rewards": dict(self._cumulative_rewards),
            "terminations": dict(self.terminations),
            "truncations": dict(self.truncations),
            "infos": encode(self.infos),
        }

    SNAPSHOT_PARAMS: ClassVar[tuple[str, ...]] = ("reward_mode", "illegal_action")
    """Env parameters a snapshot records and must match (``render_mode`` only changes how
    the game is shown, so snapshots move freely between render modes)."""

    def _snapshot_params(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.SNAPSHOT_PARAMS}

    def set_state(self, snapshot: dict[str, Any]) -> None:
        """Restore a snapshot from :meth:`get_state` of an env with the same parameters
        (the game's, and the env's ``reward_mode`` and ``illegal_action``).

        Snapshots are treated as untrusted: everything is checked and built before the env
        changes, so on any error the env is left exactly as it was. Errors are a
        :class:`ConfigError` naming the field: another env, other game or env parameters,
        unknown or missing fields (a snapshot without ``env_params``, taken before the env
        recorded them, cannot be checked and is refused), wrong kinds, dtypes or sizes,
        values the game refuses.
        """
        if isinstance(snapshot, dict) and "env_params" not in snapshot and "env" in snapshot:
            raise ConfigError(
                "snapshot: missing field 'env_params' (the env's reward_mode and "
                "illegal_action); a snapshot taken before they were stored cannot be checked "
                "against this env: take a new one"
            )
        check_fields("snapshot", dict.fromkeys(ENV_FIELDS), snapshot)
        if not isinstance(snapshot["env"], str) or snapshot["env"] != self.metadata["name"]:
            raise ConfigError(
                f"the snapshot is of env {quote(snapshot['env'])}, not {self.metadata['name']!r}"
            )
        check_fields("env_params", self._snapshot_params(), snapshot["env_params"])
        for name, value in self._snapshot_params().items():
            given = snapshot["env_params"][name]
            if type(given) is not type(value) or given != value:
                raise ConfigError(
                    f"the snapshot was taken with {name}={quote(snapshot['env_params'][name])}, "
                    f"but this env has {name}={value!r}; make an env with the snapshot's "
                    "parameters"
                )
        state = self.game.state_from_dict(snapshot["state"])
        rng = rng_from_state(snapshot["rng"])
        book = env_bookkeeping(snapshot, self.possible_agents)
        self._check_matches_position(state, book)
        self._check_derived(state, book)
        self.game_state = state
        self._np_random = rng
        self.agents = book["agents"]
        self.agent_selection = book["agent_selection"]
        self._skip_agent_selection = book["skip_agent_selection"]
        self.rewards = book["rewards"]
        self._cumulative_rewards = book["cumulative_rewards"]
        self.terminations = book["terminations"]
        self.truncations = book["truncations"]
        self.infos = book["infos"]

    def _check_derived(self, state: State, book: dict[str, Any]) -> None:
        """Values the position determines must agree with it: in ``"win"`` mode every
        reward lies in the game's utility range (and is 0 before the end); each agent's
        infos equal the position's own infos for its seat, values and types, wherever the
        position has any, and are otherwise an info the game could have given earlier
        (:meth:`State.check_held_info`); plus PettingZoo's ``illegal_action`` note, which
        names an agent and an int."""
        spec = self.game.spec
        if self.reward_mode == "win":
            low, high = spec.min_utility, spec.max_utility
            for field in ("rewards", "cumulative_rewards"):
                for agent, r in book[field].items():
                    if not low <= r <= high:
                        raise ConfigError(
                            f"{field}[{agent!r}]={quote(r)} is out of range: rewards in "
                            f'reward_mode="win" lie in [{low}, {high}]'
                        )
        for agent, info in book["infos"].items():
            given = {k: v for k, v in info.items() if k != "illegal_action"}
            note = info.get("illegal_action")
            if note is not None and not (
                isinstance(note, dict)
                and set(note) == {"agent", "action"}
                and isinstance(note["agent"], str)
                and note["agent"] in self.possible_agents
                and type(note["action"]) is int
            ):
                raise ConfigError(
                    f"infos[{agent!r}].illegal_action must be {{'agent': AGENT, 'action': INT}}, "
                    f"got {quote(note)}"
                )
            own = state.info_for(self._seat[agent])
            if own and _canonical(given) != _canonical(own):
                raise ConfigError(
                    f"infos[{agent!r}] does not match the position's own infos for that seat "
                    f"(derived from the position; expected keys {sorted(own)})"
                )
            if not own and given:
                state.check_held_info(given, f"infos[{agent!r}]")

    def _check_matches_position(self, state: State, book: dict[str, Any]) -> None:
        """The AEC bookkeeping must agree with the position: the game ends for every agent
        at once; while nobody is done, every agent is present and the agent to move is
        selected (chance nodes are always resolved); once the position is over, every
        remaining agent is terminated."""
        player = state.current_player()
        flags = {book["terminations"][a] or book["truncations"][a] for a in book["agents"]}
        if len(flags) > 1:
            raise ConfigError(
                "the snapshot has some agents done and others not; the game ends for every "
                "agent at once"
            )
        done = flags != {False}
        if not done:
            if book["agents"] != self.possible_agents or player < 0:
                raise ConfigError(
                    "the snapshot's agents and terminations do not match its position "
                    f"(player to move: {player})"
                )
            if book["agent_selection"] != self.possible_agents[player]:
                raise ConfigError(
                    f"agent_selection={book['agent_selection']!r} but the position has "
                    f"{self.possible_agents[player]!r} to move"
                )
        elif player == TERMINAL and not all(book["terminations"].values()):
            raise ConfigError("the snapshot's position is over but not every agent is terminated")


def _canonical(info: dict[str, Any]) -> str:
    """An info as JSON text with sorted keys: equal only for equal values of equal types
    (``1`` is not ``true``, ``1.0`` is not ``1``)."""
    return json.dumps(encode(info), sort_keys=True)


# ---- the env's own snapshot fields ------------------------------------------------------------

ENV_FIELDS = ("env", "env_params", "state", "rng", "agents", "agent_selection")
ENV_FIELDS += ("skip_agent_selection", "rewards", "cumulative_rewards", "terminations")
ENV_FIELDS += ("truncations", "infos")
"""Fields of ``env.get_state()``."""
_U128 = 2**128


def rng_from_state(data: Any) -> np.random.Generator:
    """A fresh generator restored from a ``PCG64`` ``bit_generator.state`` mapping."""
    check_fields("rng", dict.fromkeys(("bit_generator", "state", "has_uint32", "uinteger")), data)
    check_text("rng.bit_generator", data["bit_generator"], ["PCG64"])
    check_fields("rng.state", dict.fromkeys(("state", "inc")), data["state"])
    for field, value, high in (
        ("rng.state.state", data["state"]["state"], _U128),
        ("rng.state.inc", data["state"]["inc"], _U128),
        ("rng.has_uint32", data["has_uint32"], 2),
        ("rng.uinteger", data["uinteger"], 2**32),
    ):
        if type(value) is not int or not 0 <= value < high:
            raise ConfigError(f"{field} must be an int in 0..{high - 1}, got {quote(value)}")
    rng = np.random.Generator(np.random.PCG64())
    rng.bit_generator.state = {
        "bit_generator": "PCG64",
        "state": {"state": data["state"]["state"], "inc": data["state"]["inc"]},
        "has_uint32": data["has_uint32"],
        "uinteger": data["uinteger"],
    }
    return rng


def env_bookkeeping(snapshot: Mapping[str, Any], possible_agents: list[str]) -> dict[str, Any]:
    """The checked AEC bookkeeping of an env snapshot (``agents``, ``agent_selection``,
    ``skip_agent_selection`` and the per-agent dicts), as fresh objects.

    ``agents`` must be an ordered selection of ``possible_agents``; every per-agent dict has
    exactly those agents as keys; rewards are finite numbers, terminations and truncations
    bools, infos mappings of snapshot data.
    """
    agents = snapshot["agents"]
    if (
        not isinstance(agents, list)
        or not all(isinstance(a, str) and a in possible_agents for a in agents)
        or agents != [a for a in possible_agents if a in agents]
    ):
        raise ConfigError(
            f"agents={quote(agents)} must list some of {possible_agents}, in that order"
        )
    selection = check_text(
        "agent_selection", snapshot["agent_selection"], agents if agents else possible_agents
    )
    skip = snapshot["skip_agent_selection"]
    if skip is not None and (not isinstance(skip, str) or skip not in possible_agents):
        raise ConfigError(
            f"skip_agent_selection={quote(skip)} is not allowed; allowed: null or {possible_agents}"
        )
    out: dict[str, Any] = {"agents": list(agents), "agent_selection": selection}
    out["skip_agent_selection"] = skip
    keyed = dict.fromkeys(agents)
    for field in ("rewards", "cumulative_rewards", "terminations", "truncations", "infos"):
        check_fields(field, keyed, snapshot[field])
    for field in ("rewards", "cumulative_rewards"):
        for a, r in snapshot[field].items():
            if (
                isinstance(r, bool)
                or not isinstance(r, (int, float))
                or (isinstance(r, int) and not MIN_INT <= r < MAX_INT)
                or not math.isfinite(r)
            ):
                raise ConfigError(
                    f"{field}[{a!r}] must be a finite number (ints within 64 bits), got {quote(r)}"
                )
        out[field] = {a: snapshot[field][a] for a in agents}
    for field in ("terminations", "truncations"):
        for a, done in snapshot[field].items():
            if not isinstance(done, bool):
                raise ConfigError(f"{field}[{a!r}] must be true or false, got {quote(done)}")
        out[field] = {a: snapshot[field][a] for a in agents}
    infos = decode(snapshot["infos"], "infos", MAX_INFO_VALUES, "the infos field")
    for a, info in infos.items():
        if not isinstance(info, dict):
            raise ConfigError(f"infos[{a!r}] must be a mapping, got {type(info).__name__}")
    out["infos"] = infos
    return out
