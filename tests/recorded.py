"""Recorded random games: the fixture that pins a rules engine's behaviour.

A :class:`Recording` names a game class, the configurations to record and a JSON file.
Each record holds a config, the actions of one seeded random game (chance outcomes
included) and a digest of everything observable along the way. At every step: the player
to move and, at a chance node, the chance outcomes, or else its legal mask and its
observation (dtype, shape and bytes); after every action the per-step rewards of both
reward modes (``rewards("win")``, ``rewards("score")``) and the scores, and ``info()``
(with ``info_for`` every seat, where the game gives seats different infos) where the game
reports something at every step. At the end: the scores, returns, winners, every seat's
observation, the global state, the text view and ``info()``. Replaying the actions on
today's code must give the same digest, so any change of behaviour under these parameters
shows. The replay also swaps in a ``clone()`` every few actions and a JSON round trip of
``to_dict()`` now and then, so copies must carry the whole position.

The file is ``{"format": FORMAT, "games": [...]}``; a file written by another version of
the digest is refused with a message saying so (the digests could not match).

Each game's ``tests/<game>/recorded_games.py`` defines its ``RECORDING``; regenerate it
with ``PYTHONPATH=. python -m tests.<game>.recorded_games``, but only when a change of
behaviour is intended (a rules fix, a new observation feature), saying in the commit why
the behaviour changed; never to make a failing replay pass after an optimisation, which
must leave every digest as it is. Changing what the digest hashes (bump :data:`FORMAT`)
also means regenerating, on code whose behaviour is known to be unchanged. The game's
``test_recorded_games.py`` runs :func:`check_coverage` and :func:`check_replays`.
The env-level (PettingZoo AEC) counterpart is :mod:`tests.recorded_aec`.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from moon_envs.core.game import CHANCE, State

FORMAT = 2
"""Version of what :meth:`Recording.digest` hashes (1: the mask per step, the rest at the
end only; 2: also the mover's observation, the rewards, the scores and the per-seat infos
at every step, the global state at the end)."""


def _array(h: Any, a: np.ndarray) -> None:
    """Hash an array with its dtype and shape (a same-bytes change of either shows)."""
    a = np.ascontiguousarray(a)
    h.update(f"{a.dtype.str}{a.shape}".encode())
    h.update(a.tobytes())


def _info(h: Any, info: Any) -> None:
    h.update(json.dumps(info, sort_keys=True, default=str).encode())


@dataclass(frozen=True)
class Recording:
    """What to record for one game, and where.

    Attributes:
        game_class: the rules engine's ``Game`` class.
        configs: the parameter sets recorded.
        games_per_config: seeded random games per parameter set.
        data: the JSON file of records.
        info_every_step: hash ``info()`` (and ``info_for`` every seat, where the game
            overrides it) after every action (games with per-round reports); otherwise
            once, at the end.
    """

    game_class: type
    configs: list[dict[str, Any]]
    games_per_config: int
    data: Path
    info_every_step: bool = False

    def digest(self, game: Any, actions: list[int], copies: bool = False) -> str:
        """Replay ``actions`` from the initial state; hash what is observable on the way.

        With ``copies`` the state is replaced by a clone every 3 actions and by a JSON
        round trip of ``to_dict()`` every 7 actions.
        """
        h = hashlib.sha256()
        n = game.num_players
        per_seat_info = self.info_every_step and game.state_class.info_for is not State.info_for
        state = game.new_initial_state()
        for i, action in enumerate(actions):
            player = state.current_player()
            h.update(repr(player).encode())
            if player == CHANCE:
                h.update(repr(state.chance_outcomes()).encode())
            else:
                _array(h, state.legal_actions_mask())
                _array(h, state.observation(player))
            state.apply_action(action)
            _array(h, state.rewards("win"))
            _array(h, state.rewards("score"))
            _array(h, state.scores())
            if self.info_every_step:
                _info(h, state.info())
                if per_seat_info:
                    for seat in range(n):
                        _info(h, state.info_for(seat))
            if copies and i % 3 == 2:
                state = state.clone()
            if copies and i % 7 == 6:
                state = game.state_from_dict(json.loads(json.dumps(state.to_dict())))
        assert state.is_terminal(), "the recorded game does not end where it ended"
        _array(h, state.scores())
        _array(h, state.returns("win"))
        h.update(repr(state.winners()).encode())
        for seat in range(n):
            _array(h, state.observation(seat))
        _array(h, state.global_state())
        h.update(str(state).encode())
        if not self.info_every_step:
            h.update(repr(sorted(state.info().items())).encode())
        return h.hexdigest()[:20]

    def record(self) -> list[dict[str, Any]]:
        """Play and digest every recorded game (seed ``1000 * config index + k``)."""
        out = []
        for index, params in enumerate(self.configs):
            game = self.game_class(**params)
            for k in range(self.games_per_config):
                seed = 1000 * index + k
                rng = np.random.default_rng(seed)
                state = game.new_initial_state()
                actions = []
                while not state.is_terminal():
                    actions.append(random_action(state, rng))
                    state.apply_action(actions[-1])
                digest = self.digest(game, actions)
                out.append({"params": params, "seed": seed, "actions": actions, "digest": digest})
        return out

    def write(self) -> None:
        """Record every game and write the JSON file."""
        games = self.record()
        text = json.dumps({"format": FORMAT, "games": games}, separators=(",", ":"))
        self.data.write_text(text + "\n")
        moves = sum(len(g["actions"]) for g in games)
        print(f"wrote {len(games)} games, {moves} actions to {self.data}")

    def records(self) -> list[dict[str, Any]]:
        """The recorded games; a :class:`ValueError` for a file of another format."""
        return load_games(self.data, FORMAT, f"tests.{self.data.parent.parent.name}.recorded_games")


def load_games(path: Path, expected: int, module: str) -> list[dict[str, Any]]:
    """The ``games`` of a ``{"format": ..., "games": [...]}`` file, refusing any other
    format (the bare list of format 1 included) with a message naming the fix."""
    data = json.loads(path.read_text())
    found = data.get("format") if isinstance(data, dict) else 1
    if found != expected or not isinstance(data.get("games"), list):
        raise ValueError(
            f"{path} holds recorded games of format {found!r}, but this digest is format "
            f"{expected}: the digests cannot match. Regenerate it (PYTHONPATH=. python -m "
            f"{module}) on code whose behaviour is known to be unchanged."
        )
    return data["games"]


def random_action(state: Any, rng: np.random.Generator) -> int:
    """A chance outcome drawn with its probability, or a uniformly drawn legal action."""
    if state.current_player() == CHANCE:
        outcomes, probs = zip(*state.chance_outcomes())
        return int(outcomes[rng.choice(len(outcomes), p=np.array(probs) / sum(probs))])
    legal = np.flatnonzero(state.legal_actions_mask())
    return int(legal[rng.integers(legal.size)])


def check_coverage(recording: Recording, min_actions: int = 5) -> None:
    """The fixture holds ``games_per_config`` games of every configuration, and no other,
    each of at least ``min_actions`` actions (no replay passes for want of steps)."""
    records = recording.records()
    assert len(records) == len(recording.configs) * recording.games_per_config
    assert {json.dumps(r["params"], sort_keys=True) for r in records} == {
        json.dumps(c, sort_keys=True) for c in recording.configs
    }
    for r in records:
        assert len(r["actions"]) >= min_actions, (r["params"], r["seed"])


def check_replays(recording: Recording, index: int) -> None:
    """Every recorded game of configuration ``index`` replays to its digest, with and
    without copies along the way."""
    params = recording.configs[index]
    game = recording.game_class(**params)
    replayed = 0
    for record in (r for r in recording.records() if r["params"] == params):
        assert recording.digest(game, record["actions"]) == record["digest"], record["seed"]
        copied = recording.digest(game, record["actions"], copies=True)
        assert copied == record["digest"], record["seed"]
        replayed += 1
    assert replayed == recording.games_per_config, (params, replayed)
