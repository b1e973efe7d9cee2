"""Random games for 2..6 players: card conservation, scores, the end, round-trips; and
snapshots corrupted at random are either refused or play on like real positions."""

from __future__ import annotations

import copy
import json
import pickle

import numpy as np
import pytest

import moon_envs
from moon_agents.heuristics.moonwakers import MoonwakersHeuristicAgent
from moon_envs import ConfigError, IllegalActionError
from moon_envs.core.game import CHANCE
from moon_envs.core.view import AgentView
from moon_envs.moonwakers.game import MoonwakersGame
from tests.helpers import play_to_end, step_state


def check_invariants(s) -> None:
    n, cards = s.n, s.cards
    terrain = s.pile + s.pile_under + s.discard + s.limbo + [c for c in s.table if c >= 0]
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


def _fuzz(n: int, games: int, seed0: int, **params) -> int:
    """Random games; returns how many ended because someone reached the target."""
    game = MoonwakersGame(num_players=n, **params)
    at_target = 0
    for seed in range(seed0, seed0 + games):
        rng = np.random.default_rng(seed)
        s = game.new_initial_state()
        moves = 0
        while not s.is_terminal():
            moves += s.current_player() >= 0
            step_state(s, rng)
            check_invariants(s)
            if moves % 97 == 0 and s.current_player() >= 0:
                s.validate()
        assert moves <= game.spec.max_game_length
        assert s.round <= game.config.max_rounds and s.winners()
        best = max(s.scores())
        assert all(s.scores()[w] == best for w in s.winners())
        at_target += best >= s.target
    return at_target


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_random_games_conserve_cards_and_end(n):
    _fuzz(n, games=12 if n <= 3 else 6, seed0=100 * n)


def test_random_two_player_games_end_at_the_target():
    assert _fuzz(2, games=12, seed0=7) == 12


@pytest.mark.parametrize(
    "params",
    [
        {"pile": "ordered"},
        {"setup_hand": "keep", "free_card": "discard", "ionic_storm_draws": "act"},
        {"shortcut_when": "every", "permutation_when": "own", "ability_duel": False},
        {"claims": "open", "purchases_per_round": 3, "game_end": "choice"},
        {"response_windows": "holders", "cancelled_shelter": "loss", "scan_targets": "table"},
        {"shield_abilities": False, "infrared_storm_replaces": "two"},
    ],
)
def test_random_games_under_every_house_rule_alternative(params):
    for n in (2, 4):
        _fuzz(n, games=4, seed0=31 * n, **params)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_heuristic_games_end_by_the_rules_not_the_cap(n):
    """(With 5-6 players the heuristic players can run the pile dry holding cards that pay
    for nothing left face up; such a stalemate ends only at the cap, see docs/moonwakers.md.)"""
    game = MoonwakersGame(num_players=n)
    agents = [MoonwakersHeuristicAgent(seed=x) for x in range(n)]
    for seed in range(2):
        rng = np.random.default_rng(seed)
        s = game.new_initial_state()
        while not s.is_terminal():
            p = s.current_player()
            if p == CHANCE:
                step_state(s, rng)
            else:
                s.apply_action(agents[p].act(AgentView.of(s)))
            check_invariants(s)
        no_combos = not s.combo_pile and all(c < 0 for c in s.combo_up)
        assert max(s.scores()) >= s.target or no_combos  # the rules ended it ...
        assert s.round < game.config.max_rounds  # ... not the safety cap


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
    game = MoonwakersGame()
    s = game.new_initial_state()
    cases = [
        ("pile", s.to_dict()["state"]["pile"][1:], "every terrain card id"),
        ("option", [5, 0], "option"),
        ("tasks", [{"t": "explode"}], "tasks"),
        ("round", -1, "round"),
        ("character", [0, 0], "character"),
        ("occupant", [0] * 7, "occupant"),
        ("last_rolls", list(range(900_000)), "last_rolls"),
        ("duel_rolls", [], "duel_rolls"),
        ("combo_up", [0, 1, 2], "combo_up"),
        ("pay_need", [1, 0, 0, 0, 0, 0], "pay_need"),
        ("ability_used", [0, 1], "ability_used"),
        ("known", [3] * 50, "known"),
    ]
    for field, value, message in cases:
        data = s.to_dict()
        data["state"][field] = value
        with pytest.raises(ConfigError, match=message) as err:
            game.state_from_dict(data)
        assert len(str(err.value)) < 800, field


def test_a_snapshot_cannot_make_an_illegal_move_legal():
    env = moon_envs.make("moonwakers_v1")
    env.reset(seed=0)
    snap = env.get_state()
    assert snap["state"]["state"]["tasks"][0]["t"] == "option"
    snap["state"]["state"]["tasks"][0]["_legal"] = [0, 1, 2, 3, 40]
    other = moon_envs.make("moonwakers_v1")
    other.reset(seed=1)
    before = other.get_state()
    with pytest.raises(ConfigError, match=r"tasks\[0\]._legal"):
        other.set_state(snap)
    assert other.get_state() == before
    with pytest.raises(IllegalActionError):
        other.step(40)


# ---- corrupted snapshots ------------------------------------------------------------------------


def _real_snapshots(count: int) -> list[dict]:
    out = []
    for n, params in ((2, {}), (3, {"pile": "ordered", "claims": "open"}), (4, {})):
        game = MoonwakersGame(num_players=n, **params)
        rng = np.random.default_rng(n)
        s = game.new_initial_state()
        while len(out) < count * n // 9 and not s.is_terminal():
            step_state(s, rng)
            if rng.random() < 0.05:
                out.append(s.to_dict())
    return out


def _leaves(value, path=()):
    """Every path into a snapshot (lists and mappings included)."""
    yield path
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _leaves(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _leaves(v, (*path, i))


def _corrupt(value, rng):
    kinds = [-1, 0, 1, 2, 7, 12, 49, 50, 99, -3, 10**6, True, None, "x", [], [0], {}, 0.5]
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return (
            value + int(rng.choice([-2, -1, 1, 2, 5]))
            if rng.random() < 0.6
            else kinds[rng.integers(len(kinds))]
        )
    if isinstance(value, list) and value and rng.random() < 0.5:
        value = list(value)
        i = int(rng.integers(len(value)))
        if rng.random() < 0.5:
            del value[i]
        else:
            value.insert(i, value[i])
        return value
    if isinstance(value, dict) and value and rng.random() < 0.5:
        value = dict(value)
        key = list(value)[int(rng.integers(len(value)))]
        if key == "t":
            value["t"] = str(rng.choice(["claim", "pay", "roll", "accident", "settle", "loss"]))
        else:
            del value[key]
        return value
    return kinds[rng.integers(len(kinds))]


def test_corrupted_snapshots_are_refused_or_play_on_like_real_positions():
    rng = np.random.default_rng(0)
    snaps = _real_snapshots(60)
    accepted = refused = 0
    for trial in range(1500):
        data = copy.deepcopy(snaps[trial % len(snaps)])
        paths = [p for p in _leaves(data["state"]) if p]
        path = paths[int(rng.integers(len(paths)))]
        parent = data["state"]
        for key in path[:-1]:
            parent = parent[key]
        parent[path[-1]] = _corrupt(parent[path[-1]], rng)
        game = MoonwakersGame(**data["config"])
        try:
            s = game.state_from_dict(data)
        except ConfigError as err:
            refused += 1
            assert len(str(err)) < 800
            continue
        accepted += 1
        play = np.random.default_rng(trial)
        for _ in range(50):
            if s.is_terminal():
                break
            try:
                if play.random() < 0.2 and s.current_player() >= 0:
                    s.resample(s.current_player(), play).validate()
                if play.random() < 0.1 and s.current_player() >= 0:
                    s.apply_action(int(play.integers(game.spec.num_actions)))  # maybe illegal
                else:
                    step_state(s, play)
            except IllegalActionError:
                pass
            check_invariants(s)
    assert accepted > 100 and refused > 300
