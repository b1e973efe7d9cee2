"""``moon-envs play star_master_v0``: agents are told a game starts; a person at the
terminal sees only their seat's view."""

from __future__ import annotations

import io

import pytest

from moon_agents import zoo
from moon_agents.cli.main import main
from moon_envs.star_master.rules import StarMasterState
from tests.star_master import recording


def run(argv: list[str], stdin: io.StringIO | None = None) -> tuple[int, str]:
    out = io.StringIO()
    code = main(argv, stdin=stdin, stdout=out)
    return code, out.getvalue()


def test_play_calls_every_agent_reset_with_the_game_and_its_seat_before_it_acts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table = {
        **zoo._BY_GAME["star_master"],
        "recorder": "tests.star_master.recording:RecordingAgent",
    }
    monkeypatch.setitem(zoo._BY_GAME, "star_master", table)
    recording.CALLS.clear()
    argv = ["play", "star_master_v0", "--agents", "recorder", "recorder", "recorder"]
    code, out = run([*argv, "--seed", "2", "--render", "none", "--param", "max_turns=30"])
    assert code == 0 and "final scores" in out
    calls = recording.CALLS
    resets = [c for c in calls if c[0] == "reset"]
    assert [(c[2], c[3]) for c in resets] == [("star_master", s) for s in range(3)]
    assert len({c[1] for c in resets}) == 3  # one reset per agent object
    first_act = next(i for i, c in enumerate(calls) if c[0] == "act")
    assert first_act == 3  # every reset comes before the first move
    by_agent = {c[1]: c[3] for c in resets}
    assert all(by_agent[c[1]] == c[3] for c in calls if c[0] == "act")  # seats as told


class Answers(io.StringIO):
    """A person typing: 'help', 'board', 'moves', moves by name (seed 4: player_1 first
    names a colour; red shows on slot 3), then action numbers in turn
    (illegal ones are refused and asked again, so every legal move gets reached)."""

    def __init__(self) -> None:
        super().__init__()
        self.script = ["help", "board", "moves", "red", "flip 3", "swap 8"]
        self.i = 0

    def readline(self, *args) -> str:  # type: ignore[override]
        if self.script:
            return self.script.pop(0) + "\n"
        self.i += 1
        return str(self.i % 28) + "\n"


def test_a_person_sees_only_their_seat_view(monkeypatch: pytest.MonkeyPatch) -> None:
    from moon_agents.play.human import star_master as hooks

    views: list[int | None] = []
    observers: list[int | None] = []
    real_to_string, real_narrate = StarMasterState.to_string, hooks.narrate
    real_chance = hooks.narrate_chance

    def to_string(self, player=None):
        views.append(player)
        return real_to_string(self, player)

    def narrate(before, action, after, observer):
        observers.append(observer)
        return real_narrate(before, action, after, observer)

    def narrate_chance(before, after, observer):
        observers.append(observer)
        return real_chance(before, after, observer)

    monkeypatch.setattr(StarMasterState, "to_string", to_string)
    monkeypatch.setattr(
        hooks, "HOOKS", hooks.GameHooks(
            narrate=narrate, legend=hooks.legend, move_name=hooks.move_name,
            narrate_chance=narrate_chance,
        ),
    )  # fmt: skip
    argv = ["play", "star_master_v0", "--agents", "random", "random", "--human", "1"]
    code, out = run([*argv, "--seed", "4", "--param", "max_turns=40"], stdin=Answers())
    assert code == 0, out
    assert views and set(views) == {1}  # every board printed is player_1's own view
    assert observers and set(observers) == {1}  # every move told as player_1 may know it
    assert "spectator" not in out
    assert "Star Master. Goal: be the first to hold 6 colours" in out  # the help
    assert "player_1 (human): names red\n" in out  # moves typed by name
    assert "player_1 (human): flips slot 3: red, found: gains red\n" in out
    assert "player_1 (human): swaps slot 3 with slot 8\n" in out
    boards = [line for line in out.splitlines() if line.startswith("slots: ")]
    assert all(" 0:" in b for b in boards)
    assert sum("?" in b for b in boards) > len(boards) // 2  # the layout stays hidden
    # the other seats' race choices are sealed until all have chosen, then revealed
    assert "player_0 (random): makes a sealed race choice" in out
    assert "race: player_0 " in out
    lines = out.splitlines()
    shown = 0
    for i, line in enumerate(lines):
        if line.startswith(("player_0 (random): ", "player_2 (random): ")) and (
            "grab slot" in line or line.endswith("abstain")
        ):
            assert lines[i + 1].startswith("race: ")  # only the last choice, revealing all
            shown += 1
    assert shown > 0
