"""``moon-envs bench --jax --jax-part search``: the mctx search table of a twin beside pgx
connect_four (CI-sized: one twin, batch 2, a few hundredths of a second each)."""

from __future__ import annotations

import io
import re

import pytest

from moon_agents.cli import bench
from moon_agents.cli.main import main


def run(argv: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    code = main(argv, stdout=out)
    return code, out.getvalue()


def test_search_rows_for_the_twin_and_connect_four_are_positive_with_a_ratio() -> None:
    pytest.importorskip("mctx")
    pytest.importorskip("pgx")
    argv = ["bench", "jupiter_v0", "--jax", "--jax-part", "search", "--search-batch", "2"]
    code, out = run([*argv, "--seconds", "0.05", "--no-progress"])
    assert code == 0
    assert "simulations/s" in out and "decisions/s" not in out  # the play table is off
    for name in ("pgx connect_four", "jupiter_v0"):
        row = re.search(rf"^{name}\s+([\d,]+)\s+([\d.]+)x\s+([\d.]+)$", out, re.M)
        assert row, f"no search row for {name} in:\n{out}"
        assert float(row[1].replace(",", "")) > 0 and float(row[2]) > 0


@pytest.mark.parametrize(
    "argv, named",
    [
        (["--search-batch", "0"], "--search-batch"),
        (["--search-batch", "4097"], "--search-batch"),
        (["--search-batch", "x"], "--search-batch"),
        (["--jax-part", "both"], "--jax-part"),
    ],
)
def test_bad_search_flags_are_refused_in_one_line(
    argv: list[str], named: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = run(["bench", "jupiter_v0", "--jax", *argv])
    err = capsys.readouterr().err.strip()
    assert code == 2 and out == ""
    assert len(err.splitlines()) == 1 and named in err and "Traceback" not in err


def test_cli_bounds_match_the_search_bench() -> None:
    search = pytest.importorskip("moon_agents.benchmarks.jax_search_speed")
    assert bench.SEARCH_BATCHES == search.SEARCH_BATCHES
    assert bench.DEFAULT_SEARCH_BATCH == search.DEFAULT_SEARCH_BATCH
