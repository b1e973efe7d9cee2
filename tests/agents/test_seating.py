"""``--agents`` names one agent per seat in ``play`` and ``eval`` alike, and every result
says how many players there were and who sat where."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from moon_agents.cli.main import main
from moon_agents.evaluation.ladder.run import run_ladder
from moon_agents.evaluation.tournament import evaluate_against, tournament
from moon_agents.seating import allowed_player_counts, counts_text, setup_game
from moon_envs import ConfigError


def run(argv: list[str], capsys: pytest.CaptureFixture) -> tuple[int, str, str]:
    out = io.StringIO()
    code = main(argv, stdout=out)
    return code, out.getvalue(), capsys.readouterr().err


def test_eval_seats_one_agent_per_seat_like_play(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    """Moonstar's default is 4 players; two agents named play 2-player games (they used to
    be repeated round a 4-player table)."""
    argv = ["eval", "moonstar_v1", "--agents", "heuristic", "random", "--games", "2"]
    code, out, err = run([*argv, "--param", "max_rounds=2", "--out", str(tmp_path),
                          "--no-progress"], capsys)  # fmt: skip
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("moonstar_v1 {'max_rounds': 2, 'num_players': 2}: 2 players")
    assert lines[1] == (
        "Seating: one agent per seat, seats rotated: game g plays seat order g mod 2 of all "
        "2 orders of the 2 agents."
    )
    assert lines[2] == "Game 0: seat 0 heuristic, seat 1 random."
    assert lines[3] == "Games in seats 0/1: heuristic 1/1; random 1/1."
    data = json.loads((tmp_path / "results.json").read_text())
    assert data["num_players"] == 2 and data["seating"].startswith("one agent per seat")
    assert [g["seats"] for g in data["games"]] == [["heuristic", "random"], ["random", "heuristic"]]
    assert {a["agent"]: a["games_by_seat"] for a in data["agents"]} == {
        "heuristic": [1, 1],
        "random": [1, 1],
    }
    with open(tmp_path / "results.csv") as f:
        rows = list(csv.DictReader(f))
    assert {(r["agent"], r["num_players"], r["games_by_seat"]) for r in rows} == {
        ("heuristic", "2", "1 1"),
        ("random", "2", "1 1"),
    }
    with open(tmp_path / "games.csv") as f:
        games = list(csv.DictReader(f))
    assert [(g["seats"], g["num_players"]) for g in games] == [
        ("heuristic random", "2"),
        ("random heuristic", "2"),
    ]
    table = (tmp_path / "table.md").read_text()
    assert table.startswith(lines[0]) and "Games in seats 0/1:" in table


def test_a_count_that_disagrees_with_num_players_names_both(
    capsys: pytest.CaptureFixture,
) -> None:
    argv = ["eval", "moonstar_v1", "--agents", "heuristic", "random", "--param", "num_players=3"]
    code, _, err = run(argv, capsys)
    assert code == 2
    assert err.startswith("error: 2 agents named (one per seat), but num_players=3 was given: ")
    assert "name 3 agents, or leave num_players out" in err


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["play", "jupiter_v0", "--agents", "greedy"], "jupiter_v0 seats 2..4 players"),
        (["play", "moonwakers_v1", "--agents", *["random"] * 7], "seats 2..6 players"),
        (["eval", "jupiter_v0", "--agents", "greedy"], "jupiter_v0 seats 2..4 players"),
        (["eval", "jupiter_v0", "--agents", *["random"] * 5], "seats 2..4 players; name 2..4"),
    ],
)
def test_a_count_the_game_cannot_seat_names_the_allowed_counts(
    argv: list[str], needle: str, capsys: pytest.CaptureFixture
) -> None:
    code, _, err = run(argv, capsys)
    assert code == 2 and needle in err and "Traceback" not in err


def test_one_agent_plays_a_one_player_game(capsys: pytest.CaptureFixture) -> None:
    argv = ["play", "star_master_v0", "--agents", "memory", "--param", "solitaire=true",
            "--seed", "0"]
    code, out, err = run([*argv, "--render", "none"], capsys)
    assert code == 0, err
    assert out.splitlines()[0] == "star_master_v0: player_0 (memory), seed 0"


def test_three_agents_in_eval_are_three_players(capsys: pytest.CaptureFixture) -> None:
    argv = ["eval", "jupiter_v0", "--agents", "greedy", "random", "mcts:simulations=2"]
    code, out, err = run([*argv, "--games", "6", "--no-progress"], capsys)
    assert code == 0, err
    assert out.startswith("jupiter_v0 {'num_players': 3}: 3 players, 6 games")
    assert "of all 6 orders of the 3 agents" in out
    assert "Games in seats 0/1/2: greedy 2/2/2; random 2/2/2; mcts:simulations=2 2/2/2." in out


def test_ladder_states_player_count_and_seating(tmp_path: Path) -> None:
    result = run_ladder("jupiter_v0", {"r": "random", "g": "greedy"}, games=2, out_dir=tmp_path)
    assert result.num_players == 2
    data = json.loads((tmp_path / "ladder.json").read_text())
    assert data["num_players"] == 2 and data["seating"].startswith("2 players; the two agents")
    assert (tmp_path / "ladder.md").read_text().splitlines()[2] == result.seating() + "."
    three = run_ladder("jupiter_v0", {"r": "random", "g": "greedy"}, games=3,
                       env_params={"num_players": 3})  # fmt: skip
    assert three.seating().startswith("3 players; the two agents of a pairing alternate")


# ---- the Python API --------------------------------------------------------------------------


def test_tournament_seats_one_agent_per_seat_unless_round_robin() -> None:
    result = tournament("moonstar_v1", ["heuristic", "random"], 2,
                        env_params={"max_rounds": 1})  # fmt: skip
    assert result.num_players == 2 and all(len(g.seats) == 2 for g in result.games)
    with pytest.raises(ConfigError, match=r"2 agents named \(one per seat\), but num_players=4"):
        tournament("moonstar_v1", ["heuristic", "random"], 2, env_params={"num_players": 4})
    # round_robin: the env's player count, the agents alternating round the table
    rr = tournament("moonstar_v1", ["heuristic", "random"], 4, env_params={"max_rounds": 1},
                    seating="round_robin")  # fmt: skip
    assert rr.num_players == 4 and rr.games[0].seats == ("heuristic", "random") * 2
    assert rr.seating.startswith("the 2 agents repeated round the table of 4")
    assert rr.stats["heuristic"].by_seat == [2, 2, 2, 2]
    # three agents at a 2-player table: every ordered choice of two
    three = tournament("jupiter_v0", ["random", "greedy", "random"], 6,
                       env_params={"num_players": 2}, seating="round_robin")  # fmt: skip
    assert three.num_players == 2 and three.seating.startswith("2 of the 3 agents a game")
    with pytest.raises(ConfigError, match=r"seating='nope' is not allowed; allowed: \["):
        tournament("jupiter_v0", ["random", "greedy"], 2, seating="nope")


def test_evaluate_against_still_fills_the_table() -> None:
    rate, lo, hi = evaluate_against("moon_harvesters_v0", "greedy", "random", 4, seed=0,
                                    env_params={"num_players": 4})  # fmt: skip
    assert 0 <= lo <= rate <= hi <= 1


def test_setup_game_and_allowed_counts() -> None:
    assert allowed_player_counts("jupiter_v0") == [2, 3, 4]
    assert allowed_player_counts("star_master_v0", {"solitaire": True}) == [1]
    assert counts_text([2, 3, 4]) == "2..4" and counts_text([1, 3]) == "1 or 3"
    setup = setup_game("jupiter_v0", {}, seats=3)
    assert setup.num_players == 3 and setup.params == {"num_players": 3}
    assert setup.env.game.spec.num_players == 3
    with pytest.raises(ConfigError, match="registered ids"):
        setup_game("nope_v0", {}, seats=2)
    with pytest.raises(ConfigError, match="valid parameters"):
        setup_game("jupiter_v0", {"colour": 1}, seats=2)
