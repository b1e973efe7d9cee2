"""``moon-envs bench``: its tables, medians of repeated runs, ratios to peers and ``--json``.

CI-sized: tiny ``--seconds``, no timing thresholds (only that every figure is positive
and every ratio is the row's median over the peer's).
"""

from __future__ import annotations

import importlib.util
import io
import json
from pathlib import Path

import pytest

import moon_agents.benchmarks.speed as speed
from moon_agents.benchmarks.bench_report import METRICS, Results
from moon_agents.cli.main import main

ENVS = ["jupiter_v0", "star_master_v0"]  # fast, and Star Master has no per-game extras


def run(argv: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    code = main(argv, stdout=out)
    return code, out.getvalue()


def has(peer: str) -> bool:
    if peer == "pettingzoo":
        return speed.reference_factory() is not None
    return importlib.util.find_spec("pyspiel") is not None


@pytest.fixture(scope="module")
def bench_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[int, str, dict]:
    path = tmp_path_factory.mktemp("bench") / "bench.json"
    code, out = run(["bench", *ENVS, "--seconds", "0.03", "--repeats", "2", "--json", str(path)])
    return code, out, json.loads(path.read_text())


def test_tables_have_every_env_and_peer(bench_run: tuple[int, str, dict]) -> None:
    code, out, _ = bench_run
    assert code == 0
    lines = out.splitlines()
    headers = [i for i, line in enumerate(lines) if line.startswith("env ")]
    assert len(headers) == 4  # AEC, rules engine, MCTS, search cost
    aec, engine, mcts, search = (lines[i] for i in headers)
    assert aec.split()[:2] == ["env", "agent-steps/s"] and "games/s" in aec
    assert engine.split()[:2] == ["env", "decisions/s"] and "clone us" in engine
    assert mcts.split()[:2] == ["env", "simulations/s"]
    assert search.split()[:2] == ["env", "actions/s"]
    for i in headers:  # every env has a row in every table
        rows = [line.split()[0] for line in lines[i + 1 : i + 1 + len(ENVS)]]
        assert rows == ENVS
    assert "median of 2 interleaved runs" in out
    if has("pettingzoo"):
        assert "x connect_four_v3" in out
        assert any(line.startswith("connect_four_v3 ") for line in lines)
    if has("pyspiel"):
        assert "x os c4" in engine and "x os ttt" in engine and "x MCTSBot" in mcts
        for peer in ("open_spiel:connect_four", "open_spiel:python_tic_tac_toe"):
            assert any(line.startswith(peer + " ") for line in lines)
    assert "jupiter extra measurements" in out  # the per-game extras still run


def test_json_has_every_metric_positive_with_ratios(bench_run: tuple[int, str, dict]) -> None:
    _, _, data = bench_run
    assert data["settings"] == {"envs": ENVS, "seconds": 0.03, "repeats": 2, "seed": 0}
    machine = data["machine"]
    assert machine["cpu_count"] >= 1 and machine["python"].count(".") == 2
    assert machine["packages"]["numpy"] and "moon-envs" in machine["packages"]
    assert set(data["metrics"]) == set(METRICS)
    for key, metric in data["metrics"].items():
        for env in ENVS:
            row = metric["rows"][env]
            # a game may not end within a tiny run: games/s alone may be 0
            low = 0 if key == "aec_games_per_s" else 1e-12
            assert len(row["runs"]) == 2 and all(v >= low for v in row["runs"]), (key, env)
            assert row["median"] == pytest.approx(sum(row["runs"]) / 2)  # median of two
            measured = {p: v for p, v in metric["peers"].items() if v["median"] is not None}
            assert set(row["ratios"]) == set(measured), (key, env)
            for peer, ref in measured.items():
                assert ref["median"] > 0
                assert row["ratios"][peer] == pytest.approx(row["median"] / ref["median"])
    if has("pyspiel"):
        for key in ("engine_decisions_per_s", "clone_us", "mcts_simulations_per_s"):
            peers = data["metrics"][key]["peers"]
            assert peers and all(p["median"] > 0 for p in peers.values()), key
    assert [row["metric"] for row in data["extra"]["jupiter"]]


def test_bad_json_path_is_refused_before_measuring(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    missing = tmp_path / "no_such_folder" / "bench.json"
    code, out = run(["bench", "jupiter_v0", "--seconds", "0.01", "--json", str(missing)])
    assert code == 2 and out == ""
    err = capsys.readouterr().err
    assert "--json" in err and "does not exist" in err and "Traceback" not in err
    assert not missing.parent.exists()
    code, out = run(["bench", "jupiter_v0", "--seconds", "0.01", "--json", str(tmp_path)])
    assert code == 2 and out == "" and "folder" in capsys.readouterr().err


@pytest.mark.parametrize(
    "argv",
    [
        ["--repeats", "0"],
        ["--seconds", "0"],
        ["--jax", "--search-batch", "0"],
        ["--jax", "--simulations", "0"],
    ],
)
def test_bad_options_exit_2(argv: list[str]) -> None:
    assert run(["bench", "jupiter_v0", *argv])[0] == 2


def test_without_open_spiel_the_peer_columns_are_skipped(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(speed, "open_spiel_factory", lambda: lambda: None)
    path = tmp_path / "b.json"
    argv = ["bench", "jupiter_v0", "--seconds", "0.02", "--repeats", "1", "--json", str(path)]
    code, out = run(argv)
    assert code == 0
    assert 'pip install "moon-envs[openspiel]"' in out and "n/a" in out
    data = json.loads(path.read_text())
    assert "moon-envs[openspiel]" in " ".join(data["notes"])
    rows = data["metrics"]["engine_decisions_per_s"]["rows"]
    assert set(rows) == {"jupiter_v0"} and rows["jupiter_v0"]["ratios"] == {}
    assert rows["jupiter_v0"]["median"] > 0


def test_ratios_are_median_over_peer_median() -> None:
    results = Results()
    for value in (10.0, 30.0, 20.0):
        results.add("engine_decisions_per_s", "x_v0", value)
    for value in (4.0, 5.0, 6.0):
        results.add("engine_decisions_per_s", "open_spiel:connect_four", value)
    assert results.median("engine_decisions_per_s", "x_v0") == 20.0
    assert results.ratios("engine_decisions_per_s", "x_v0") == {"open_spiel:connect_four": 4.0}
    results.add("aec_steps_per_s", "connect_four_v3", 8.0)
    results.add("search_cost_actions_per_s", "x_v0", 16.0)  # its peer is the AEC figure
    assert results.ratios("search_cost_actions_per_s", "x_v0") == {"connect_four_v3": 2.0}
