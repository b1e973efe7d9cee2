"""Random games for 2..6 players: card conservation, scores, the end, round-trips."""

from __future__ import annotations

import json
import pickle

import numpy as np
import pytest

from moon_envs.moonwakers.game import MoonwakersGame
from tests.helpers import play_to_end, step_state


def check_invariants(s) -> None:
    n, cards = s.n, s.cards
    terrain = s.pile + s.discard + s.limbo + [c for c in s.table if c >= 0]
    for x in range(n):
        terrain += s.hand[x] + s.mapped[x]
    assert sorted(terrain) == list(range(cards.num_terrain)), "terrain cards not conserved"
    combos = s.combo_pile + s.combo_under + [c for c in s.combo_up if c >= 0]
    for x in range(n):
        combos += s.bought[x]
    assert sorted(combos) == list(range(cards.num_combos)), "combination cards not conserved"
    points = [sum(int(cards.combo_points[c]) for c in s.bought[x]) for x in range(n)]
    assert s.scores().tolist() == points
    assert all(s.known[c] == 0 for c in s.pile)
    assert all(s.known[c] == s.all_seats for c in s.discard)
    occupied = [k for k in range(7) if s.occupant[k] >= 0 and s.table[k] >= 0]
    assert len({s.occupant[k] for k in occupied}) == len(occupied)


def _fuzz(n: int, games: int, seed0: int) -> None:
    game = MoonwakersGame(num_players=n, max_rounds=12)
    for seed in range(seed0, seed0 + games):
        rng = np.random.default_rng(seed)
        s = game.new_initial_state()
        moves = 0
        while not s.is_terminal():
            moves += s.current_player() >= 0
            step_state(s, rng)
            check_invariants(s)
        assert moves <= game.spec.max_game_length
        assert s.round <= 12 and s.winners()
        best = max(s.scores())
        assert all(s.scores()[w] == best for w in s.winners())


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_random_games_conserve_cards_and_end(n):
    _fuzz(n, games=30 if n <= 3 else 15, seed0=100 * n)


@pytest.mark.slow
@pytest.mark.parametrize("n", [2, 4, 6])
def test_many_random_games(n):
    _fuzz(n, games=60, seed0=10_000 + 1000 * n)


@pytest.mark.parametrize("n", [2, 3, 6])
def test_round_trips_continue_identically_mid_game(n):
    game = MoonwakersGame(num_players=n)
    for seed in range(4):
        rng = np.random.default_rng(seed)
        s = game.new_initial_state()
        for _ in range(40 + 37 * seed):
            step_state(s, rng)
        copies = [
            s.clone(),
            game.state_from_dict(json.loads(json.dumps(s.to_dict()))),
            pickle.loads(pickle.dumps(s)),
        ]
        for c in copies:
            c.validate()
        ref = play_to_end(s.clone(), np.random.default_rng(seed))
        for c in copies:
            assert play_to_end(c, np.random.default_rng(seed)) == ref


def test_a_snapshot_with_a_bad_field_is_named():
    from moon_envs import ConfigError

    game = MoonwakersGame()
    s = game.new_initial_state()
    data = s.to_dict()
    data["state"]["pile"] = data["state"]["pile"][1:]
    with pytest.raises(ConfigError, match="every terrain card id"):
        game.state_from_dict(data).validate()
    data = s.to_dict()
    data["state"]["option"] = [5, 0]
    with pytest.raises(ConfigError, match="'option'"):
        game.state_from_dict(data).validate()
    data = s.to_dict()
    data["state"]["tasks"] = [{"t": "explode"}]
    with pytest.raises(ConfigError, match="'tasks'"):
        game.state_from_dict(data).validate()
