"""Every Python example in docs/jax.md runs, in order, as shown."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("jax")
pytest.importorskip("mctx")

PAGE = Path(__file__).resolve().parents[2] / "docs" / "jax.md"


def python_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", PAGE.read_text(), flags=re.S)


def test_the_page_has_examples() -> None:
    assert len(python_blocks()) >= 4


def test_the_examples_run_in_order(capsys: pytest.CaptureFixture[str]) -> None:
    namespace: dict = {}
    for number, block in enumerate(python_blocks()):
        exec(compile(block, f"{PAGE.name} example {number + 1}", "exec"), namespace)
        assert capsys.readouterr().out.strip(), f"example {number + 1} printed nothing"
