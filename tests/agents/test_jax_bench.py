"""``moon-envs bench --jax``: the mctx search table of a twin beside pgx connect_four,
``--repeats`` (medians and spread), ``--json``, ``--simulations`` and the flags' ranges.

CI-sized: one real run (one twin, the search part alone, batch 2, 2 simulations, 0.05 s a
measurement, 2 runs); the medians are checked on prescribed figures, with the compiles
and timings stood in for, so that they are exact. No timing thresholds.
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from types import SimpleNamespace

import pytest

from moon_agents.cli import bench
from moon_agents.cli.main import main

TWIN = "jupiter_v0"
PEER = "pgx connect_four"
SEARCH_METRIC = "search_simulations_per_s_batch2"


def run(argv: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    code = main(argv, stdout=out)
    return code, out.getvalue()


class RecordedBar:
    """Stands in for CountBar: keeps every ``(done, total, text)`` call."""

    calls: list[tuple[int, int | None, str | None]] = []

    def __init__(self, *args: object) -> None:
        RecordedBar.calls = []

    def __call__(self, done: int, total: int | None, text: str | None = None) -> None:
        RecordedBar.calls.append((done, total, text))

    def above(self, write):  # type: ignore[no-untyped-def]
        return write

    def __enter__(self) -> RecordedBar:
        return self

    def __exit__(self, *exc: object) -> None:
        pass


@pytest.fixture(scope="module")
def search_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[int, str, dict, list]:
    """One real search bench: the twin and connect_four, 2 runs, the figures in a file."""
    pytest.importorskip("mctx")
    pytest.importorskip("pgx")
    path = tmp_path_factory.mktemp("jax_bench") / "bench.json"
    argv = ["bench", "--jax", TWIN, "--jax-part", "search", "--search-batch", "2"]
    argv += ["--simulations", "2", "--seconds", "0.05", "--repeats", "2", "--json", str(path)]
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(bench, "CountBar", RecordedBar)
        code, out = run(argv)
    return code, out, json.loads(path.read_text()), list(RecordedBar.calls)


def test_search_rows_for_the_twin_and_connect_four_are_positive_with_a_ratio(
    search_run: tuple,
) -> None:
    code, out, _, _ = search_run
    assert code == 0
    assert "simulations/s" in out and "decisions/s" not in out  # the play table is off
    title = next(line for line in out.splitlines() if line.startswith("mctx"))
    assert "batch 2, 2 simulations" in title and "median of 2 runs" in title
    rows = {}
    for name in (PEER, TWIN):
        row = re.search(rf"^{name}\s+([\d,]+)\s+([\d.]+)x\s+(\d+)%\s+([\d.]+)$", out, re.M)
        assert row, f"no search row for {name} in:\n{out}"
        rows[name] = float(row[1].replace(",", "")), float(row[2])
    assert rows[PEER][1] == 1.0 and rows[TWIN][0] > 0 and rows[PEER][0] > 0
    assert rows[TWIN][1] == pytest.approx(rows[TWIN][0] / rows[PEER][0], abs=0.01)


def test_json_keeps_every_run_its_median_ratio_and_compile_time(search_run: tuple) -> None:
    _, out, data, _ = search_run
    assert "figures written to" in out
    settings = data["settings"]
    assert settings["repeats"] == 2 and settings["part"] == "search" and settings["envs"] == [TWIN]
    assert settings["search"]["batch"] == 2 and settings["search"]["simulations"] == 2
    assert data["machine"]["cpu_count"] >= 1 and data["machine"]["jax"]["packages"]["mctx"]
    assert list(data["metrics"]) == [SEARCH_METRIC]
    metric = data["metrics"][SEARCH_METRIC]
    assert metric["part"] == "search" and metric["batch"] == 2
    assert metric["unit"] == "simulations/s"
    peer_median = metric["peers"][PEER]["median"]
    for name in (PEER, TWIN):
        row = metric["rows"][name]
        assert len(row["runs"]) == 2 and min(row["runs"]) > 0
        assert row["median"] == pytest.approx(sum(row["runs"]) / 2)
        assert row["ratios"][PEER] == pytest.approx(row["median"] / peer_median)
        assert row["spread"] == pytest.approx(
            (max(row["runs"]) - min(row["runs"])) / row["median"]
        )
        assert row["compile_seconds"] > 0


def test_progress_counts_the_compiles_and_every_run(search_run: tuple) -> None:
    *_, calls = search_run
    done, total, _ = calls[-1]
    assert done == total == 2 + 2 * 2  # two compiles, then two runs of two measurements
    texts = [text or "" for _, _, text in calls[:-1]]
    assert sum(t.startswith("compiling") for t in texts) == 2
    assert sum(t.startswith("run 2/2") for t in texts) == 2


class Prescribed:
    """Stands in for a compiled engine: each timing gives the next of ``figures``."""

    def __init__(self, figures: list[float], compile_seconds: float) -> None:
        self.figures, self.compile_seconds = iter(figures), compile_seconds

    def time(self, seconds: float) -> SimpleNamespace:
        return SimpleNamespace(per_second=next(self.figures))


def test_repeats_show_the_median_and_spread_of_each_row(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("pgx")
    jax_speed = pytest.importorskip("moon_agents.benchmarks.jax_speed")
    from moon_agents.benchmarks import jax_search_speed, speed

    play = {PEER: [10.0, 30.0, 20.0], TWIN: [5.0, 1.0, 9.0]}
    search = {PEER: [400.0, 100.0, 200.0], TWIN: [50.0, 50.0, 80.0]}
    python = iter([7.0, 3.0, 5.0])
    monkeypatch.setattr(
        jax_speed, "prepare_play", lambda name, *a: Prescribed(play[name], 1.5)
    )
    monkeypatch.setattr(
        jax_search_speed, "prepare_search", lambda name, *a: Prescribed(search[name], 2.5)
    )
    monkeypatch.setattr(
        speed, "random_play", lambda *a: SimpleNamespace(steps_per_s=next(python))
    )
    path = tmp_path / "b.json"
    code, out = run([
        "bench", "--jax", TWIN, "--batches", "4", "--search-batch", "8", "--simulations", "3",
        "--repeats", "3", "--json", str(path), "--no-progress",
    ])  # fmt: skip
    assert code == 0
    lines = out.splitlines()
    assert re.search(rf"^{PEER}\s+20\s+1\.00x\s+100%\s+1\.5$", out, re.M), out
    assert re.search(rf"^{TWIN}\s+5\s+0\.25x\s+160%\s+1\.5$", out, re.M), out
    assert re.search(rf"^{PEER}\s+200\s+1\.00x\s+150%\s+2\.5$", out, re.M), out
    assert re.search(rf"^{TWIN}\s+50\s+0\.25x\s+60%\s+2\.5$", out, re.M), out
    assert f"{TWIN:<22}{5:>14,}" in lines  # the Python env's median
    assert sum("median of 3 runs" in line for line in lines) == 3
    metrics = json.loads(path.read_text())["metrics"]
    assert list(metrics) == [
        "play_decisions_per_s_batch4", "search_simulations_per_s_batch8", "python_aec_steps_per_s"
    ]  # fmt: skip
    assert [(m["part"], m["batch"]) for m in metrics.values()] == [
        ("play", 4), ("search", 8), ("python", None)
    ]  # fmt: skip
    twin = metrics["search_simulations_per_s_batch8"]["rows"][TWIN]
    assert twin["runs"] == search[TWIN] and twin["median"] == 50.0
    assert twin["ratios"] == {PEER: 0.25} and twin["compile_seconds"] == 2.5
    assert metrics["search_simulations_per_s_batch8"]["peers"][PEER]["median"] == 200.0
    assert "3 simulations" in metrics["search_simulations_per_s_batch8"]["description"]
    assert metrics["python_aec_steps_per_s"]["rows"][TWIN]["runs"] == [7.0, 3.0, 5.0]


def test_help_lists_the_new_flags_with_their_ranges(capsys: pytest.CaptureFixture) -> None:
    assert main(["bench", "--jax", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "--repeats K runs" in text and "1..1000" in text
    assert "--json PATH" in text
    assert "--simulations N with --jax: simulations per mctx search, 1..1024" in text
    assert "--search-batch N with --jax: positions per mctx search, 1..4096" in text


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--jax", "--search-batch", "0"], "--search-batch 0: out of range; allowed: 1..4096"),
        (["--jax", "--search-batch", "4097"],
         "--search-batch 4097: out of range; allowed: 1..4096"),
        (["--jax", "--search-batch", "x"], "--search-batch"),
        (["--jax", "--simulations", "0"], "--simulations 0: out of range; allowed: 1..1024"),
        (["--jax", "--simulations", "1025"],
         "--simulations 1025: out of range; allowed: 1..1024"),
        (["--jax", "--repeats", "0"], "--repeats 0: out of range; allowed: 1..1000"),
        (["--jax", "--repeats", "1001"], "--repeats 1001: out of range; allowed: 1..1000"),
        (["--jax", "--jax-part", "both"], "--jax-part"),
        (["--simulations", "4"], "--simulations needs --jax"),
        (["--search-batch", "4"], "--search-batch needs --jax"),
        (["--jax-part", "search"], "--jax-part needs --jax"),
    ],
)  # fmt: skip
def test_bad_values_are_refused_in_one_line_before_measuring(
    argv: list[str], message: str, capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    jax_speed = pytest.importorskip("moon_agents.benchmarks.jax_speed")
    measured: list[object] = []
    monkeypatch.setattr(jax_speed, "run_jax_bench", lambda *a, **k: measured.append(a))
    code, out = run(["bench", TWIN, *argv])
    err = capsys.readouterr().err.strip()
    assert code == 2 and out == "" and measured == []
    assert len(err.splitlines()) == 1 and message in err and "Traceback" not in err


def test_a_bad_json_path_is_refused_before_measuring(
    tmp_path: Path, capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    jax_speed = pytest.importorskip("moon_agents.benchmarks.jax_speed")
    measured: list[object] = []
    monkeypatch.setattr(jax_speed, "run_jax_bench", lambda *a, **k: measured.append(a))
    code, _ = run(["bench", "--jax", TWIN, "--json", str(tmp_path)])
    assert code == 2 and measured == [] and "--json" in capsys.readouterr().err
    code, _ = run(["bench", "--jax", TWIN, "--json", str(tmp_path / "missing" / "b.json")])
    assert code == 2 and measured == [] and "does not exist" in capsys.readouterr().err


def test_direct_calls_check_their_settings() -> None:
    jax_speed = pytest.importorskip("moon_agents.benchmarks.jax_speed")
    with pytest.raises(ValueError, match=r"^--simulations 0: out of range; allowed: 1..1024$"):
        jax_speed.run_jax_bench([TWIN], simulations=0)
    with pytest.raises(ValueError, match=r"^--jax-part 'both': out of range; allowed: play"):
        jax_speed.run_jax_bench([TWIN], part="both")
    with pytest.raises(ValueError, match=r"^--repeats 0: out of range"):
        jax_speed.run_jax_bench([TWIN], repeats=0)


def test_cli_bounds_match_the_bench_modules() -> None:
    search = pytest.importorskip("moon_agents.benchmarks.jax_search_speed")
    jax_speed = pytest.importorskip("moon_agents.benchmarks.jax_speed")
    assert bench.SEARCH_BATCHES == search.SEARCH_BATCHES
    assert bench.SEARCH_SIMULATIONS == search.SIMULATIONS
    assert bench.DEFAULT_SEARCH_BATCH == search.DEFAULT_SEARCH_BATCH
    assert bench.DEFAULT_SEARCH_SIMULATIONS == search.DEFAULT_SIMULATIONS
    assert bench.JAX_PARTS == jax_speed.PARTS
