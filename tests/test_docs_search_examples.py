"""Every Python example in docs/search.md runs on its own, as shown (a fresh namespace
each: a reader copies one block, not the page). The OpenSpiel block runs OpenSpiel's own
``random_sim_test``, which tests/integrations/test_open_spiel.py runs on every game."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

PAGE = Path(__file__).resolve().parents[1] / "docs" / "search.md"
BLOCKS = [
    block
    for block in re.findall(r"```python\n(.*?)```", PAGE.read_text(), flags=re.S)
    if "pyspiel" not in block
]


def test_the_page_has_examples() -> None:
    assert len(BLOCKS) >= 1


@pytest.mark.parametrize("number", range(len(BLOCKS)), ids=lambda n: f"example{n + 1}")
def test_each_example_runs_alone(number: int) -> None:
    exec(compile(BLOCKS[number], f"{PAGE.name} example {number + 1}", "exec"), {})
