"""The README's first command: the demo game it shows ends as the README says.

The README quotes the demo's last lines (final scores and winner) so that a newcomer knows
what to expect; this test runs the demo's ``moon-envs play`` part and checks that every
quoted line is printed, and that the demo shows the agent the README names winning.
"""

from __future__ import annotations

import io
import re
import shlex
from pathlib import Path

from moon_agents.cli.main import main

README = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")


def demo_section() -> str:
    """Set-up step 1: from its number to step 2."""
    start = README.index("1. Install and watch a demo game")
    return README[start : README.index("\n2. ", start)]


def test_the_readme_demo_ends_as_the_readme_quotes() -> None:
    section = demo_section()
    command = re.search(r"\.venv/bin/(moon-envs play [^\n`]+)", section)
    assert command, "set-up step 1 should run moon-envs play"
    argv = shlex.split(command.group(1))[1:]
    quoted = re.findall(r"`((?:final scores|winner\(s\)):[^`]+)`", section)
    assert len(quoted) == 2, "step 1 should quote the final scores and winner lines"
    out = io.StringIO()
    assert main(argv, stdout=out) == 0
    printed = out.getvalue().splitlines()
    for line in quoted:
        assert line in printed, f"the README quotes {line!r}; the demo printed {printed[-2:]}"
    winners = quoted[1].removeprefix("winner(s): ").split(", ")
    assert len(winners) == 1, "the demo should end with one winner, not a tie"
    assert "(trained)" in winners[0]
