"""Recorded random Moonstar games: the fixture that pins the rules' behaviour.

Each record holds a config, the actions of one seeded random game (chance outcomes
included) and a digest of everything observable along the way: at every step the player
to move and its legal mask (or the chance outcomes) and ``info()``; at the end the
scores, returns, winners, every seat's observation and the text view. Replaying the
actions on today's code must give the same digest, so any change of behaviour under
these parameters shows. The replay also swaps in a ``clone()`` every few actions and a
JSON round trip of ``to_dict()`` now and then, so copies must carry the whole position.

Regenerate (only when a change of behaviour is intended, saying why in the commit):
``PYTHONPATH=. python -m tests.moonstar.recorded_games``.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np

from moon_envs.core.game import CHANCE
from moon_envs.moonstar.rules import MoonstarGame

DATA = Path(__file__).parent / "data" / "recorded_games.json"

CONFIGS = [
    *({"game": g, "num_players": 3, "max_rounds": 6} for g in range(1, 13)),
    {"game": 1, "num_players": 2, "max_rounds": 8},
    {"game": 10, "num_players": 5, "max_rounds": 6},
    {"game": 11, "num_players": 4, "max_rounds": 6, "setup": "random"},
    {"game": 6, "num_players": 3, "max_rounds": 6, "move_budget": 4},
]
GAMES_PER_CONFIG = 5


def _choose(state, rng: np.random.Generator) -> int:
    if state.current_player() == CHANCE:
        outcomes, probs = zip(*state.chance_outcomes())
        return int(outcomes[rng.choice(len(outcomes), p=np.array(probs) / sum(probs))])
    legal = np.flatnonzero(state.legal_actions_mask())
    return int(legal[rng.integers(legal.size)])


def digest(game: MoonstarGame, actions: list[int], copies: bool = False) -> str:
    """Replay ``actions`` from the initial state; hash what is observable on the way.

    With ``copies`` the state is replaced by a clone every 3 actions and by a JSON round
    trip of ``to_dict()`` every 7 actions.
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
    return h.hexdigest()[:20]


def record() -> list[dict]:
    out = []
    for index, params in enumerate(CONFIGS):
        game = MoonstarGame(**params)
        for k in range(GAMES_PER_CONFIG):
            seed = 1000 * index + k
            rng = np.random.default_rng(seed)
            state = game.new_initial_state()
            actions = []
            while not state.is_terminal():
                actions.append(_choose(state, rng))
                state.apply_action(actions[-1])
            out.append(
                {
                    "params": params,
                    "seed": seed,
                    "actions": actions,
                    "digest": digest(game, actions),
                }
            )
    return out


if __name__ == "__main__":
    games = record()
    DATA.write_text(json.dumps(games, separators=(",", ":")) + "\n")
    print(f"wrote {len(games)} games, {sum(len(g['actions']) for g in games)} actions to {DATA}")
