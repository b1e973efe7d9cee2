"""Recorded random games: the fixture that pins a rules engine's behaviour.

A :class:`Recording` names a game class, the configurations to record and a JSON file.
Each record holds a config, the actions of one seeded random game (chance outcomes
included) and a digest of everything observable along the way: at every step the player
to move and its legal mask (or the chance outcomes), and ``info()`` where the game
reports something at every step; at the end the scores, returns, winners, every seat's
observation and the text view. Replaying the actions on today's code must give the same
digest, so any change of behaviour under these parameters shows. The replay also swaps in
a ``clone()`` every few actions and a JSON round trip of ``to_dict()`` now and then, so
copies must carry the whole position.

Each game's ``tests/<game>/recorded_games.py`` defines its ``RECORDING``; regenerate it
(only when a change of behaviour is intended, saying why in the commit) with
``PYTHONPATH=. python -m tests.<game>.recorded_games``. The game's
``test_recorded_games.py`` runs :func:`check_coverage` and :func:`check_replays`.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from moon_envs.core.game import CHANCE


@dataclass(frozen=True)
class Recording:
    """What to record for one game, and where.

    Attributes:
        game_class: the rules engine's ``Game`` class.
        configs: the parameter sets recorded.
        games_per_config: seeded random games per parameter set.
        data: the JSON file of records.
        info_every_step: hash ``info()`` after every action (games with per-round
            reports); otherwise once, at the end.
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
        state = game.new_initial_state()
        for i, action in enumerate(actions):
            player = state.current_player()
            h.update(repr(player).encode())
            if player == CHANCE:
                h.update(repr(state.chance_outcomes()).encode())
            else:
                h.update(state.legal_actions_mask().tobytes())
            state.apply_action(action)
            if self.info_every_step:
                h.update(json.dumps(state.info(), sort_keys=True, default=str).encode())
            if copies and i % 3 == 2:
                state = state.clone()
            if copies and i % 7 == 6:
                state = game.state_from_dict(json.loads(json.dumps(state.to_dict())))
        assert state.is_terminal(), "the recorded game does not end where it ended"
        h.update(state.scores().tobytes())
        h.update(state.returns("win").tobytes())
        h.update(repr(state.winners()).encode())
        for seat in range(game.num_players):
            h.update(state.observation(seat).tobytes())
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
        self.data.write_text(json.dumps(games, separators=(",", ":")) + "\n")
        moves = sum(len(g["actions"]) for g in games)
        print(f"wrote {len(games)} games, {moves} actions to {self.data}")

    def records(self) -> list[dict[str, Any]]:
        return json.loads(self.data.read_text())


def random_action(state: Any, rng: np.random.Generator) -> int:
    """A chance outcome drawn with its probability, or a uniformly drawn legal action."""
    if state.current_player() == CHANCE:
        outcomes, probs = zip(*state.chance_outcomes())
        return int(outcomes[rng.choice(len(outcomes), p=np.array(probs) / sum(probs))])
    legal = np.flatnonzero(state.legal_actions_mask())
    return int(legal[rng.integers(legal.size)])


def check_coverage(recording: Recording) -> None:
    """The fixture holds ``games_per_config`` games of every configuration, and no other."""
    records = recording.records()
    assert len(records) == len(recording.configs) * recording.games_per_config
    assert {json.dumps(r["params"], sort_keys=True) for r in records} == {
        json.dumps(c, sort_keys=True) for c in recording.configs
    }


def check_replays(recording: Recording, index: int) -> None:
    """Every recorded game of configuration ``index`` replays to its digest, with and
    without copies along the way."""
    params = recording.configs[index]
    game = recording.game_class(**params)
    for record in (r for r in recording.records() if r["params"] == params):
        assert recording.digest(game, record["actions"]) == record["digest"], record["seed"]
        copied = recording.digest(game, record["actions"], copies=True)
        assert copied == record["digest"], record["seed"]
