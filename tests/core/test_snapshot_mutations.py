"""Every field of every game's snapshot, mutated, is refused or restores a position that
plays on like one reached by legal play.

One snapshot per case, three quarters into a seeded random game; every leaf of it (every
named field; lists, and the per-agent fields of more than two agents, at their first and
last entries) receives the fixed mutations of
:mod:`moon_agents.benchmarks.snapshot_mutations`, which also defines what "refused" and
"plays on like a legal position" are checked to mean. ``pytest -s`` prints the counts
per case; ``python -m moon_agents.benchmarks.snapshot_mutations`` runs the larger version.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from moon_agents.benchmarks.snapshot_mutations import CASES, HEADER, Counts, row, run_case

TESTED = [
    "jupiter_v0",
    "moonstar_v1 game=1",
    "moonstar_v1 game=11",
    "moon_harvesters_v0",
    "star_master_v0",
    "moonwakers_v1",
]


@pytest.fixture(scope="module")
def table() -> Iterator[dict[str, Counts]]:
    rows: dict[str, Counts] = {}
    yield rows
    print("\n" + "\n".join([HEADER, *(row(label, c) for label, c in rows.items())]))


@pytest.mark.parametrize("label", TESTED)
def test_every_mutation_is_refused_or_plays_on_like_a_legal_position(
    label: str, table: dict[str, Counts]
) -> None:
    env_id, params = CASES[label]
    counts = run_case(env_id, params, games=1, fractions=(0.75,), max_items=2)
    table[label] = counts
    assert counts.tried == counts.refused + counts.consistent + len(counts.bad)
    assert counts.leaves > 40 and counts.refused > counts.leaves
    assert counts.consistent > 0  # e.g. another random generator state
    assert not counts.bad, "\n".join(counts.bad[:10])


def test_a_position_the_checks_let_through_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """With Jupiter's own snapshot checks switched off, mutated positions get through
    ``set_state``; the playout and re-snapshot checks must then report them."""
    from moon_envs.jupiter.state import JupiterState

    monkeypatch.setattr(JupiterState, "_validate", lambda self: None)
    counts = run_case("jupiter_v0", {}, games=1, fractions=(0.5,), max_items=2)
    assert counts.bad
    assert any("accepted, then" in line for line in counts.bad)


def test_the_benchmark_prints_one_row_per_case() -> None:
    from moon_agents.benchmarks.snapshot_mutations import main

    lines: list[str] = []
    argv = ["jupiter_v0", "--games", "1", "--positions", "1", "--max-items", "2"]
    assert main(argv, out=lines.append) == 0
    assert lines[0] == HEADER and lines[1].startswith("jupiter_v0 ") and len(lines) == 2
    with pytest.raises(SystemExit):
        main(["jupiter_v9"], out=lines.append)
