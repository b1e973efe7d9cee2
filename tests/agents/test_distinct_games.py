"""Evaluation counts distinct games, varies chance-free games by a random opening, and
splits every result by first and second mover."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from moon_agents.cli.main import main
from moon_agents.evaluation.distinct import play_recorded, replay_final_state
from moon_agents.evaluation.ladder.report import LadderResult
from moon_agents.evaluation.ladder.run import run_ladder
from moon_agents.evaluation.openings import DEFAULT_PLIES, MAX_PLIES, resolve_opening
from moon_agents.evaluation.ratings import wilson_interval
from moon_agents.evaluation.results import GameRecord, TournamentResult
from moon_agents.evaluation.tournament import tournament
from moon_envs import ConfigError, make

MH = "moon_harvesters_v0"


class FirstLegal:
    """A deterministic agent: always the lowest legal action."""

    name = "first"

    def act(self, view) -> int:
        return int(view.action_mask.nonzero()[0][0])


class LastLegal:
    """A deterministic agent: always the highest legal action."""

    name = "last"

    def act(self, view) -> int:
        return int(view.action_mask.nonzero()[0][-1])


# ---- distinct games --------------------------------------------------------------------------


def test_deterministic_agents_without_opening_play_two_distinct_games() -> None:
    r = tournament(MH, [FirstLegal(), LastLegal()], games=12, opening="none")
    assert r.opening == "none" and len(r.games) == 12
    assert r.distinct == 2  # one game per seat order, each played six times
    assert len({g.key for g in r.games}) == 2
    for name in ("first", "last"):
        st = r.stats[name]
        assert st.games == 12 and st.distinct == 2
        assert st.ci == wilson_interval(st.points, 2)  # the interval is over 2 games, not 12
    data = r.to_json()
    assert data["distinct_games"] == 2 and data["opening"] == "none"
    assert "Distinct games: 2 of 12" in r.report()


def test_the_opening_protocol_makes_the_games_distinct() -> None:
    r = tournament(MH, [FirstLegal(), LastLegal()], games=12)  # the default on MH
    assert r.opening == f"random-opening:{DEFAULT_PLIES}"
    assert r.distinct == 2 * len({g.opening for g in r.games}) >= 10
    assert all(len(g.opening) == DEFAULT_PLIES for g in r.games)


def test_a_network_against_itself_on_the_ladder() -> None:
    agents = {"net": "trained", "net2": "trained"}
    plain = run_ladder(MH, agents, games=6, opening="none")
    p = plain.pairings[0]
    assert (p.games, p.distinct, p.counted[0]) == (6, 2, 2)
    assert plain.rate("net", "net2")[1:] == wilson_interval(p.counted[1], 2)
    opened = run_ladder(MH, agents, games=6, opening=2)
    assert opened.opening == "random-opening:2" and opened.pairings[0].distinct == 6
    assert "Opening: random-opening:2. Distinct games: 6 of 6" in opened.protocol()


def test_chance_outcomes_are_part_of_the_key_and_replay_the_game() -> None:
    env = make("jupiter_v0")
    agents = [FirstLegal(), FirstLegal()]
    one = play_recorded(env, agents, seed=3)
    again = play_recorded(env, agents, seed=3)
    other = play_recorded(env, agents, seed=4)
    assert one.key == again.key and one.key != other.key
    assert any(h < 0 for h in one.history)  # dice were recorded
    final = replay_final_state(env.game, one.history)
    assert final.is_terminal() and list(final.scores()) == one.scores
    # the recorded game is the one env.reset(seed=3) plays
    env.reset(seed=3)
    actions = []
    while not env.game_state.is_terminal():
        a = FirstLegal().act(env.agent_view(env.agent_selection))
        actions.append(a)
        env.step(a)
    assert actions == [h for h in one.history if h >= 0]
    assert [float(s) for s in env.game_state.scores()] == one.scores
    assert type(env.unwrapped.np_random).__name__ == "Generator"  # the recorder is removed


# ---- the opening protocol --------------------------------------------------------------------


def test_openings_are_shared_by_seat_orders_reproducible_and_legal() -> None:
    r = tournament(MH, ["random", "greedy"], games=8, seed=11, opening=6)
    again = tournament(MH, ["random", "greedy"], games=8, seed=11, opening=6)
    other = tournament(MH, ["random", "greedy"], games=8, seed=12, opening=6)
    openings = [g.opening for g in r.games]
    assert openings == [g.opening for g in again.games]
    assert openings != [g.opening for g in other.games]
    for i in range(0, 8, 2):  # both seat orders of a rotation open alike
        assert r.games[i].seats == r.games[i + 1].seats[::-1]
        assert openings[i] == openings[i + 1] and len(openings[i]) == 6
    assert len(set(openings)) == 4
    game = make(MH).game
    for opening in openings:
        state = game.new_initial_state()
        for move in opening:
            assert move in state.legal_actions()
            state.apply_action(move)


def test_the_default_opening_follows_the_chance_flag_and_bad_values_are_refused() -> None:
    assert resolve_opening(None, has_chance=False).plies == DEFAULT_PLIES == 6
    assert resolve_opening("auto", has_chance=True).plies == 0
    assert resolve_opening("none", has_chance=False).plies == 0
    assert resolve_opening("random-opening:6", has_chance=True).name == "random-opening:6"
    assert tournament("jupiter_v0", ["random", "random"], games=2).opening == "none"
    for bad in (-1, MAX_PLIES + 1, "four", 2.5, True):
        with pytest.raises(ConfigError, match="opening="):
            resolve_opening(bad, has_chance=False)


# ---- mover splits ----------------------------------------------------------------------------


def _hand_games() -> list[GameRecord]:
    def g(i: int, seats: tuple, winner: int, key: str) -> GameRecord:
        scores = (1.0, 0.0) if winner == 0 else (0.0, 1.0)
        return GameRecord(i, i, seats, scores, (winner,), 10, key=key, first_mover=0)

    return [
        g(0, ("x", "y"), 0, "k0"),  # x first, x wins
        g(1, ("y", "x"), 1, "k1"),  # y first, x wins
        g(2, ("x", "y"), 1, "k2"),  # x first, y wins
        g(3, ("x", "y"), 0, "k0"),  # game 0 played again
    ]


def test_mover_split_and_distinct_counting_by_hand() -> None:
    r = TournamentResult.from_games(MH, ["x", "y"], _hand_games())
    x, y = r.stats["x"], r.stats["y"]
    assert (x.games, x.wins, x.losses, x.distinct) == (4, 3, 1, 3)
    assert x.win_rate == pytest.approx(2 / 3) and x.ci == wilson_interval(2, 3)
    assert (x.first.games, x.first.points, x.second.games, x.second.points) == (2, 1, 1, 1)
    assert (y.first.games, y.first.points, y.second.games, y.second.points) == (1, 0, 2, 1)
    row = r.rows()[0]
    assert row["first_mover"]["win_rate"] == 0.5 and row["second_mover"]["games"] == 1
    assert "| 3 | 0.500 (2) | 1.000 (1) |" in r.table()
    ladder = LadderResult.build(MH, {}, 0, 4, [("x", "a"), ("y", "b")], {("x", "y"): _hand_games()})
    p = ladder.pairing("x", "y")
    assert (p.a_wins, p.b_wins, p.distinct, p.a_first, p.a_second) == (3, 1, 3, (2, 1.0), (1, 1.0))
    assert p.mover_split("y") == ((1, 0.0), (2, 1.0))
    assert "| x vs y | 4 | 3 | 0.667 | 0.500 (2) | 1.000 (1) |" in ladder.markdown()
    assert ladder.to_json()["pairings"][0]["a_first_mover"]["results"] == 2


def test_mover_split_of_a_small_tournament_matches_its_games() -> None:
    r = tournament("jupiter_v0", ["random", "greedy"], games=6, seed=2)
    env = make("jupiter_v0")
    for g in r.games:
        env.reset(seed=g.seed)
        assert g.first_mover == env.possible_agents.index(env.agent_selection)
    for name in ("random", "greedy"):
        first = [g for g in r.games if g.seats[g.first_mover] == name]
        second = [g for g in r.games if g.seats[g.first_mover] != name]
        won = [g for g in first if g.seats.index(name) in g.winners and len(g.winners) == 1]
        st = r.stats[name]
        assert st.first.games == len(first) and st.second.games == len(second)
        ties = [g for g in first if len(g.winners) > 1]
        assert st.first.points == pytest.approx(len(won) + 0.5 * len(ties))


# ---- the command line ------------------------------------------------------------------------


def test_eval_flag_prints_and_records_the_protocol(tmp_path: Path) -> None:
    out = io.StringIO()
    argv = ["eval", MH, "--agents", "random", "greedy", "--games", "4", "--no-progress"]
    assert main([*argv, "--opening", "2", "--out", str(tmp_path)], stdout=out) == 0
    text = out.getvalue()
    assert "Opening: random-opening:2." in text and "Distinct games: 4 of 4" in text
    assert "| As 1st mover | As 2nd mover |" in text
    data = json.loads((tmp_path / "results.json").read_text())
    assert data["opening"] == "random-opening:2" and data["distinct_games"] == 4
    assert all(len(g["opening"]) == 2 and g["key"] for g in data["games"])
    assert {"first_mover", "second_mover"} <= set(data["agents"][0])
    assert "first_mover_win_rate" in (tmp_path / "results.csv").read_text()
    assert main([*argv, "--opening", "many"], stdout=io.StringIO()) == 2
