"""Recorded random games at the env level: the fixture that pins the PettingZoo AEC path.

:mod:`tests.recorded` pins the rules engines; this pins what an agent sees through
``moon_envs.make(env_id, **params)``: the AEC adapter's bookkeeping, chance sampling from
the env's seeded generator, observation dicts, rewards of both reward modes, infos.

An :class:`AecRecording` names an env id, the parameter sets to record (the game's engine
configurations of ``tests/<game>/recorded_games.py`` plus env-level and observation
options such as ``reward_mode="score"``) and a JSON file ``tests/<game>/data/
recorded_aec.json``. Each record holds the params, the seed, the actions of one game and
a digest. A game is ``env.reset(seed=seed)`` and then, until every agent is done, a
uniformly drawn legal action of the agent to move (a ``numpy`` generator on its
``action_mask``; ``None`` for an agent that is done). At every step the digest hashes the
agent to move and the live agents, ``env.last()`` for that agent (every array of the
observation dict with its dtype and shape, the reward, termination, truncation and the
info as sorted JSON) and ``env.rewards`` of every agent; at the end ``env.state()`` and
every agent's observation. Replaying the stored actions after ``reset(seed=seed)`` must
give the same digest, step count and end, with and without the env being swapped for a
``get_state`` / ``set_state`` copy (through JSON) every 10 steps and a ``copy.deepcopy``
every 7, so copies must carry the position and the chance generator.

Regenerate, for one game or all, with ``PYTHONPATH=. python -m tests.recorded_aec
[game ...]`` (games: the keys of :data:`RECORDINGS`), but only when a change of behaviour
is intended (a rules fix, a new observation feature, a new env version), saying in the
commit why the behaviour changed; never to make a failing replay pass after an
optimisation, which must leave every digest as it is. Changing what the digest hashes
(bump :data:`FORMAT`) also means regenerating, on code whose behaviour is known to be
unchanged. ``tests/<game>/test_recorded_aec.py`` runs :func:`check_coverage` and
:func:`check_replays`.
"""

from __future__ import annotations

import copy
import hashlib
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

import moon_envs
from tests.jupiter.recorded_games import CONFIGS as JUPITER
from tests.moon_harvesters.recorded_games import CONFIGS as HARVESTERS
from tests.moonstar.recorded_games import CONFIGS as MOONSTAR
from tests.moonwakers.recorded_games import CONFIGS as MOONWAKERS
from tests.recorded import load_games
from tests.star_master.recorded_games import CONFIGS as STAR_MASTER

FORMAT = 1
"""Version of what :func:`play` hashes; a file of another version is refused."""

TESTS = Path(__file__).parent


def _array(h: Any, a: np.ndarray) -> None:
    a = np.ascontiguousarray(a)
    h.update(f"{a.dtype.str}{a.shape}".encode())
    h.update(a.tobytes())


def _obs(h: Any, obs: dict[str, np.ndarray]) -> None:
    for key in sorted(obs):
        h.update(key.encode())
        _array(h, obs[key])


def _json(h: Any, value: Any) -> None:
    h.update(json.dumps(value, sort_keys=True, default=str).encode())


def _policy_rng(seed: int) -> np.random.Generator:
    """The random policy's generator: not the env's (``reset(seed)`` seeds that one)."""
    return np.random.default_rng([seed, 0xAEC])


def play(
    env_id: str,
    params: dict[str, Any],
    seed: int,
    actions: list[int | None] | None = None,
    copies: bool = False,
) -> tuple[list[int | None], int, str]:
    """Play one game (``actions=None``: the seeded random policy) or replay ``actions``;
    return the actions, the number of steps and the digest.

    With ``copies`` the env is replaced by another env (built once, before ``reset``)
    loaded with a JSON round trip of its ``get_state()`` every 10 steps and by a
    ``copy.deepcopy`` (sharing the immutable game) every 7 steps.
    """
    env = moon_envs.make(env_id, **params)
    spare = moon_envs.make(env_id, **params) if copies else None  # set_state's target
    env.reset(seed=seed)
    rng = _policy_rng(seed)
    played: list[int | None] = []
    h = hashlib.sha256()
    step = 0
    while env.agents:
        if actions is not None and step >= len(actions):
            raise AssertionError(f"the game goes on after the {len(actions)} recorded actions")
        agent = env.agent_selection
        obs, reward, terminated, truncated, info = env.last()
        h.update(f"{agent}|{env.agents}|{reward!r}|{terminated}|{truncated}".encode())
        _obs(h, obs)
        _json(h, info)
        _json(h, env.rewards)
        if actions is not None:
            action = actions[step]
        elif terminated or truncated:
            action = None
        else:
            legal = np.flatnonzero(obs["action_mask"])
            action = int(legal[rng.integers(legal.size)])
        env.step(action)
        played.append(action)
        step += 1
        if copies and step % 10 == 0:
            spare.set_state(json.loads(json.dumps(env.get_state())))
            env, spare = spare, env
        if copies and step % 7 == 0:
            # the game (immutable rules, large tables for some games) is shared, as a
            # state's own deepcopy shares it; everything else is copied
            env = copy.deepcopy(env, {id(env.game): env.game})
    if actions is not None and step != len(actions):
        raise AssertionError(f"the game ended after {step} of {len(actions)} recorded actions")
    _array(h, env.state())
    for agent in env.possible_agents:
        _obs(h, env.observe(agent))
    return played, step, h.hexdigest()[:20]


@dataclass(frozen=True)
class AecRecording:
    """What to record for one env, and where.

    Attributes:
        env_id: the registered id (``moon_envs.make``).
        configs: the parameter sets recorded (game and env parameters).
        games_per_config: seeded random games per parameter set.
        data: the JSON file of records.
        min_steps: the fewest steps a recorded game may have (coverage check).
    """

    env_id: str
    configs: list[dict[str, Any]]
    games_per_config: int
    data: Path
    min_steps: int = 10

    @property
    def game(self) -> str:
        return self.data.parent.parent.name

    def record(self) -> list[dict[str, Any]]:
        """Play and digest every recorded game (seed ``1000 * config index + k``)."""
        out = []
        for index, params in enumerate(self.configs):
            for k in range(self.games_per_config):
                seed = 1000 * index + k
                actions, steps, digest = play(self.env_id, params, seed)
                again = play(self.env_id, params, seed, actions)
                assert again == (actions, steps, digest), (params, seed, "not reproducible")
                out.append(
                    {
                        "params": params,
                        "seed": seed,
                        "steps": steps,
                        "actions": actions,
                        "digest": digest,
                    }
                )
        return out

    def write(self) -> None:
        """Record every game and write the JSON file."""
        games = self.record()
        data = {"format": FORMAT, "env_id": self.env_id, "games": games}
        self.data.write_text(json.dumps(data, separators=(",", ":")) + "\n")
        steps = sum(g["steps"] for g in games)
        print(f"wrote {len(games)} games, {steps} steps to {self.data}")

    def records(self) -> list[dict[str, Any]]:
        """The recorded games; a :class:`ValueError` for a file of another format or env."""
        games = load_games(self.data, FORMAT, f"tests.recorded_aec {self.game}")
        env_id = json.loads(self.data.read_text())["env_id"]
        if env_id != self.env_id:
            raise ValueError(f"{self.data} records {env_id}, not {self.env_id}: regenerate it")
        return games


def _with(configs: list[dict[str, Any]], *extra: dict[str, Any]) -> list[dict[str, Any]]:
    return [*configs, *extra]


RECORDINGS: dict[str, AecRecording] = {
    "jupiter": AecRecording(
        "jupiter_v0",
        _with(
            JUPITER,
            {"num_players": 2, "reward_mode": "score"},
            {"num_players": 4, "black_moons": True, "line_features": True, "reward_mode": "score"},
        ),
        games_per_config=3,
        data=TESTS / "jupiter" / "data" / "recorded_aec.json",
    ),
    "moon_harvesters": AecRecording(
        "moon_harvesters_v0",
        _with(
            HARVESTERS,
            {"num_players": 3, "reward_mode": "score"},
            {"num_players": 2, "craters_block_deposits": False, "ties": "none"},
        ),
        games_per_config=2,
        data=TESTS / "moon_harvesters" / "data" / "recorded_aec.json",
    ),
    "moonstar": AecRecording(
        "moonstar_v1",
        _with(
            MOONSTAR,
            {"game": 2, "num_players": 3, "max_rounds": 6, "reward_mode": "score"},
            {
                "game": 9,
                "num_players": 4,
                "max_rounds": 6,
                "round_optimum": True,
                "reward_mode": "score",
            },
        ),
        games_per_config=2,
        data=TESTS / "moonstar" / "data" / "recorded_aec.json",
    ),
    "star_master": AecRecording(
        "star_master_v0",
        _with(
            STAR_MASTER,
            {
                "num_players": 3,
                "memory": "decay",
                "forget_prob": 0.5,
                "reward_mode": "score",
                "max_turns": 60,
            },
            {"num_players": 1, "solitaire": True, "memory": "perfect", "reward_mode": "score"},
        ),
        games_per_config=2,
        data=TESTS / "star_master" / "data" / "recorded_aec.json",
    ),
    "moonwakers": AecRecording(
        "moonwakers_v1",
        _with(MOONWAKERS, {"num_players": 3, "max_rounds": 8, "reward_mode": "score"}),
        games_per_config=2,
        data=TESTS / "moonwakers" / "data" / "recorded_aec.json",
    ),
}
"""Every game's env-level recording, by the game's test folder."""


def check_coverage(recording: AecRecording) -> None:
    """The fixture holds ``games_per_config`` games of every configuration with the
    recorded seeds, and no other, each of at least ``min_steps`` steps (so no replay
    passes for want of steps)."""
    records = recording.records()
    assert len(records) == len(recording.configs) * recording.games_per_config
    for index, params in enumerate(recording.configs):
        seeds = sorted(r["seed"] for r in records if r["params"] == params)
        assert seeds == [1000 * index + k for k in range(recording.games_per_config)], params
    for r in records:
        assert r["steps"] == len(r["actions"]) >= recording.min_steps, (r["params"], r["seed"])


def check_replays(recording: AecRecording, index: int, copies: bool = True) -> None:
    """Every recorded game of configuration ``index`` replays to its digest, without and
    (with ``copies``) with snapshot and deep copies along the way."""
    params = recording.configs[index]
    replayed = 0
    for r in (r for r in recording.records() if r["params"] == params):
        expected = (r["actions"], r["steps"], r["digest"])
        assert play(recording.env_id, params, r["seed"], r["actions"]) == expected, r["seed"]
        if copies:
            again = play(recording.env_id, params, r["seed"], r["actions"], copies=True)
            assert again == expected, ("with copies", r["seed"])
        replayed += 1
    assert replayed == recording.games_per_config, (params, replayed)


if __name__ == "__main__":
    for name in sys.argv[1:] or RECORDINGS:
        RECORDINGS[name].write()
