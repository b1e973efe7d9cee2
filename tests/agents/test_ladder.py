"""The ladder: pairings, seats, scores, Elo, the cache, workers, files and the command."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from moon_agents.cli.main import main
from moon_agents.evaluation.ladder.lineups import LADDERS, ladder_plan
from moon_agents.evaluation.ladder.report import LadderResult
from moon_agents.evaluation.ladder.run import (
    CHUNK_GAMES,
    pairing_seats,
    run_ladder,
    spec_fingerprint,
)
from moon_agents.evaluation.results import GameRecord
from moon_envs import ConfigError, list_envs, make

SMALL = {"random": "random", "greedy": "greedy", "mcts": "mcts:simulations=4"}


def test_seats_alternate_and_rotate() -> None:
    assert [pairing_seats(i, 2) for i in range(4)] == [(0, 1), (1, 0), (0, 1), (1, 0)]
    three = [pairing_seats(i, 3) for i in range(3)]
    assert len(set(three)) == 3 and all(set(s) == {0, 1} for s in three)


def test_scores_and_elo_from_hand_made_games() -> None:
    def game(i: int, seats: tuple[str, str], winners: tuple[int, ...]) -> GameRecord:
        scores = (1.0, 1.0) if len(winners) == 2 else (1.0, 0.0)  # a shared win is a tie
        return GameRecord(i, i, seats, scores, winners, 10, (5, 5), (0.01, 0.02))

    games = {
        ("a", "b"): [
            game(0, ("a", "b"), (0,)),
            game(1, ("b", "a"), (1,)),
            game(2, ("a", "b"), (0, 1)),
            game(3, ("b", "a"), (0,)),
        ],
        ("a", "c"): [game(i, ("a", "c"), (0,)) for i in range(4)],
        ("b", "c"): [game(i, ("c", "b"), (1,)) for i in range(4)],
    }
    result = LadderResult.build("jupiter_v0", {}, 0, 4, [("a", "x"), ("b", "y"), ("c", "z")], games)
    ab = result.pairing("a", "b")
    assert (ab.a_wins, ab.ties, ab.b_wins) == (2, 1, 1)
    assert result.rate("a", "b")[0] == pytest.approx(2.5 / 4)
    assert result.rate("b", "a")[0] == pytest.approx(1.5 / 4)
    assert result.rate("c", "b")[0] == 0.0 and result.rate("a", "c")[0] == 1.0
    assert result.overall("a")[0] == pytest.approx(6.5 / 8)
    assert result.ranking() == ["a", "b", "c"]
    assert result.elo["a"] > result.elo["b"] > result.elo["c"]
    assert sum(result.elo.values()) / 3 == pytest.approx(1500)
    assert result.ms_per_move["a"] > 0


def test_ladder_plays_every_pairing_with_rotated_seats_and_common_seeds(tmp_path: Path) -> None:
    result = run_ladder("jupiter_v0", SMALL, games=6, seed=3, out_dir=tmp_path)
    assert len(result.pairings) == 3
    for (a, b), records in result.games.items():
        assert [g.seed for g in records] == [3 + i for i in range(6)]
        assert [g.seats for g in records[:2]] == [(a, b), (b, a)]
        assert sum(p.results for p in result.pairings if {p.a, p.b} == {a, b}) == 6
    assert result.rate("greedy", "random")[0] > 0.5
    for name in ("ladder.md", "ladder.json", "games.csv", "ladder.png"):
        assert (tmp_path / name).stat().st_size > 0
    data = json.loads((tmp_path / "ladder.json").read_text())
    assert {a["label"] for a in data["agents"]} == set(SMALL)
    assert len(data["pairings"]) == 3 and data["games_per_pairing"] == 6
    text = (tmp_path / "ladder.md").read_text()
    assert "| row vs column |" in text and "`mcts:simulations=4`" in text


def test_results_do_not_depend_on_workers_and_the_cache_is_reused(tmp_path: Path) -> None:
    games = CHUNK_GAMES + 4  # two chunks per pairing
    agents = {"random": "random", "greedy": "greedy"}
    one = run_ladder("jupiter_v0", agents, games=games, out_dir=tmp_path / "one")
    two = run_ladder("jupiter_v0", agents, games=games, out_dir=tmp_path / "two", workers=2)
    assert one.games == two.games
    cache = tmp_path / "one" / "pairings" / "random__greedy.json"
    body = json.loads(cache.read_text())
    body["games"][0]["winners"] = [9]  # a marked game shows whether the cache was read
    cache.write_text(json.dumps(body))
    again = run_ladder("jupiter_v0", agents, games=games, out_dir=tmp_path / "one")
    assert again.games[("random", "greedy")][0].winners == (9,)
    fresh = run_ladder("jupiter_v0", agents, games=games, out_dir=tmp_path / "one", fresh=True)
    assert fresh.games == one.games
    other_seed = run_ladder("jupiter_v0", agents, games=games, seed=1, out_dir=tmp_path / "one")
    assert other_seed.games[("random", "greedy")][0].seed == 1
    cache.write_text("not json")  # an unreadable cache is replayed, not trusted
    assert (
        run_ladder("jupiter_v0", agents, games=games, out_dir=tmp_path / "one").games == one.games
    )


def test_a_changed_model_file_changes_the_fingerprint(tmp_path: Path) -> None:
    model = tmp_path / "m.zip"
    model.write_bytes(b"one")
    first = spec_fingerprint(f"ppo:{model}", "jupiter")
    model.write_bytes(b"two")
    assert spec_fingerprint(f"ppo:{model}", "jupiter") not in ("", first)
    assert spec_fingerprint("random", "jupiter") == ""


@pytest.mark.parametrize(
    ("kwargs", "needle"),
    [
        ({"agents": {"random": "random"}}, "at least 2 agents"),
        ({"agents": {"bad label": "random", "r": "random"}}, "label"),
        ({"agents": {"a": "nobody", "b": "random"}}, "unknown agent"),
        ({"agents": SMALL, "games": 0}, "games"),
        ({"agents": SMALL, "workers": 0}, "workers"),
        ({"agents": SMALL, "env_params": {"num_players": 9}}, "num_players"),
    ],
)
def test_bad_ladders_are_refused_before_any_game(kwargs: dict, needle: str) -> None:
    with pytest.raises(ConfigError, match=needle):
        run_ladder("jupiter_v0", **kwargs)


def test_every_registered_game_has_a_published_ladder_that_builds() -> None:
    from moon_agents.zoo import make_agent

    assert set(LADDERS) == set(list_envs())
    for env_id, plan in LADDERS.items():
        env = make(env_id, **plan.env_params)
        assert env.game.spec.num_players == 2
        specs = list(plan.agents.values())
        assert "random" in specs and "trained" in specs
        assert sum(s.startswith("mcts") for s in specs) == 2
        for label, spec in plan.agents.items():
            make_agent(spec, env.game.spec.name, seed=0, name=label)
    assert "oracle" in ladder_plan("moonstar_v1").agents.values()
    with pytest.raises(ConfigError, match="allowed"):
        ladder_plan("nope_v0")


def test_ladder_command(tmp_path: Path) -> None:
    out = io.StringIO()
    argv = [
        "ladder",
        "jupiter_v0",
        "--games",
        "4",
        "--out",
        str(tmp_path),
        "--no-progress",
        "--only",
        "random",
        "greedy",
        "m",
        "--agent",
        "m=mcts:simulations=3",
    ]
    code = main(argv, stdout=out)
    assert code == 0, out.getvalue()
    assert "| row vs column | " in out.getvalue() and (tmp_path / "ladder.png").exists()
    data = json.loads((tmp_path / "ladder.json").read_text())
    assert sorted(a["label"] for a in data["agents"]) == ["greedy", "m", "random"]
    for bad in (
        ["--drop", "nobody"],
        ["--only", "nobody"],
        ["--agent", "oops"],
        ["--games", "0"],
        ["--workers", "0"],
    ):
        assert main(["ladder", "jupiter_v0", "--out", str(tmp_path), *bad], stdout=out) == 2
    assert main(["ladder", "nope_v0"], stdout=out) == 2


def test_ladder_command_without_matplotlib_says_it_skipped_the_plot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib: ImportError
    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", None)
    out = io.StringIO()
    argv = ["ladder", "jupiter_v0", "--games", "2", "--out", str(tmp_path), "--no-progress"]
    code = main([*argv, "--only", "random", "greedy"], stdout=out)
    assert code == 0, out.getvalue()
    text = out.getvalue()
    assert f"wrote {tmp_path}/ladder.md, ladder.json, games.csv\n" in text
    assert "skipped ladder.png: matplotlib cannot be imported" in text
    assert "moon-envs[train]" in text and not (tmp_path / "ladder.png").exists()
