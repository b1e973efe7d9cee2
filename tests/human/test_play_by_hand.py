"""A whole Moon Harvesters game played by hand: ``moon-envs play moon_harvesters_v0 --human 0``
with every move typed the way the legend shows (a placement as kind, orientation and
anchor, a deposit by its cell name), then the same keystrokes piped into the command."""

from __future__ import annotations

import io
import re
import subprocess
import sys
from pathlib import Path

from moon_agents.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
ARGV = ["play", "moon_harvesters_v0", "--human", "0", "--agents", "random", "--seed", "3",
        "--render", "none", "--param", "rows=6", "--param", "cols=6", "--param",
        "pieces_per_kind=3", "--param", "num_deposits=12"]  # fmt: skip
CELLS = [f"{c}{r}" for r in range(1, 7) for c in "ABCDEF"]


class Person(io.StringIO):
    """Reads the screen (what the command printed) and types what a person would: in the
    auction a harvester kind, then craters and deposits by cell name, placements as
    ``KIND ORIENTATION ANCHOR``, trying the next one when a move is refused."""

    def __init__(self, screen: io.StringIO) -> None:
        super().__init__()
        self.screen = screen
        self.typed: list[str] = []
        self.turn_start = 0
        self.tries = 0

    def readline(self, *args: object) -> str:
        text = self.screen.getvalue()
        start = text.rfind("Your move (player_0).")
        if start != self.turn_start:  # a new move to make
            self.turn_start, self.tries = start, 0
        phase = re.findall(r"phase: (\w+)", text[:start])[-1]
        turn = text[start:]
        k = self.tries
        self.tries += 1
        if phase == "auction":
            line = ["take harvester kind L", "take a crater"][min(k, 1)]
        elif phase == "craters":
            line = f"crater on {CELLS[k % 36]}"
        elif phase == "deposits":
            line = CELLS[k % 36].lower() if k % 2 else CELLS[k % 36]
        else:  # place: "your harvester L, orientations ..." then the orientation numbers
            kind = re.search(r"your harvester (\w+), orientations", turn).group(1)
            count = len(re.search(r"anchor corner\):\n(.*)\n", turn).group(1).split())
            line = f"{kind} {k % count} {CELLS[(k // count) % 36]}"
        self.typed.append(line)
        return line + "\n"


def test_a_harvesters_game_typed_by_hand_and_piped_in() -> None:
    screen = io.StringIO()
    person = Person(screen)
    assert main(ARGV, stdin=person, stdout=screen) == 0
    out = screen.getvalue()
    mine = [ln for ln in out.splitlines() if ln.startswith("player_0 (human): ")]
    placed = [ln for ln in mine if re.match(r"player_0 \(human\): harvester \w orientation", ln)]
    deposits = [ln for ln in mine if re.match(r"player_0 \(human\): deposit on [A-F][1-6]$", ln)]
    assert len(placed) >= 2 and deposits, mine  # harvesters placed and deposits put
    assert any(re.fullmatch(r"[A-F][1-6]", t) for t in person.typed)  # a cell, as typed
    assert any(re.fullmatch(r"[a-f][1-6]", t) for t in person.typed)  # any case
    # in the place phase the person typed only KIND ORIENTATION ANCHOR
    assert {t for t in person.typed if re.fullmatch(r"[LX] \d [A-F][1-6]", t)}
    # refused tries were explained, naming what is in the way
    holder = r"(player_\d's harvester|a crater|a deposit)"
    assert re.search(rf"does not fit here: ([A-F]\d is occupied by {holder}|it would leave)", out)
    assert re.search(rf"\n  [A-F][1-6] is occupied by {holder}", out)  # a crater or deposit
    assert "final scores:" in out and "winner(s): " in out
    # the same keystrokes piped into the installed command give the same game
    piped = subprocess.run(
        [sys.executable, "-m", "moon_agents.cli", *ARGV],
        input="".join(t + "\n" for t in person.typed),
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert piped.returncode == 0, piped.stderr[-2000:]
    assert piped.stdout.splitlines()[-3:] == out.splitlines()[-3:]
    assert [ln for ln in piped.stdout.splitlines() if ln.startswith("player_")] == [
        ln for ln in out.splitlines() if ln.startswith("player_")
    ]
