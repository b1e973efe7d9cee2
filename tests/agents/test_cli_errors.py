"""The command line's edges: files it must not replace, numbers out of range, bad agent
files and options, each refused with one line and exit status 2; and the seed of a game
played without ``--seed``."""

from __future__ import annotations

import argparse
import io
import json
import re
import shutil
from pathlib import Path

import pytest

from moon_agents.cli import play as play_command
from moon_agents.cli.main import build_parser, main
from moon_agents.cli.ranges import PositiveNumber, WholeNumber
from moon_agents.cli.usage import UsageError
from moon_agents.zoo import TRAINED_DIR

QUICK_GAME = ["play", "jupiter_v0", "--agents", "random", "greedy", "--render", "none"]


def run(argv: list[str], capsys: pytest.CaptureFixture) -> tuple[int, str, str]:
    out = io.StringIO()
    code = main(argv, stdout=out)
    return code, out.getvalue(), capsys.readouterr().err


def one_line_error(err: str) -> str:
    """The error line of ``err``, checked to be the only line and to have no traceback."""
    assert "Traceback" not in err, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    return lines[0]


# ---- files play writes --------------------------------------------------------------------------


@pytest.mark.parametrize("flag", ["--gif", "--html"])
def test_play_does_not_replace_a_file_without_force(
    flag: str, tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    mine = tmp_path / ("mine.gif" if flag == "--gif" else "mine.html")
    mine.write_text("my own file")
    code, out, err = run([*QUICK_GAME, "--seed", "0", flag, str(mine)], capsys)
    assert code == 2 and out == ""  # refused before the game
    line = one_line_error(err)
    assert str(mine) in line and "--force" in line
    assert mine.read_text() == "my own file"


def test_play_force_replaces_the_file(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    page = tmp_path / "replay.html"
    page.write_text("an older replay")
    code, out, _ = run([*QUICK_GAME, "--seed", "0", "--html", str(page), "--force"], capsys)
    assert code == 0 and f"wrote {page}" in out
    assert page.read_text().startswith("<!DOCTYPE html>")


def test_play_refuses_a_file_made_while_the_game_was_played(
    tmp_path: Path, capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    page = tmp_path / "replay.html"
    from moon_agents import base  # cmd_play takes start_game from here as it runs

    start = base.start_game

    def start_and_make_the_file(*args: object, **kwargs: object) -> None:
        page.write_text("made meanwhile")
        start(*args, **kwargs)

    monkeypatch.setattr(base, "start_game", start_and_make_the_file)
    code, _, err = run([*QUICK_GAME, "--seed", "0", "--html", str(page)], capsys)
    assert code == 2 and str(page) in one_line_error(err)
    assert page.read_text() == "made meanwhile"


def test_play_refuses_one_file_for_both_replays(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    both = str(tmp_path / "game.gif")
    code, _, err = run([*QUICK_GAME, "--gif", both, "--html", both], capsys)
    assert code == 2 and "--gif and --html both name" in one_line_error(err)


def test_force_alone_is_refused(capsys: pytest.CaptureFixture) -> None:
    code, _, err = run([*QUICK_GAME, "--force"], capsys)
    assert code == 2 and "--force replaces the file of --gif or --html" in one_line_error(err)


# ---- one line instead of a traceback ------------------------------------------------------------


def test_tracebacks_became_one_line_errors(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    a_file = tmp_path / "notes.txt"
    a_file.write_text("mine")
    cases = [
        (
            ["eval", "jupiter_v0", "--agents", "random", "random", "--games", "2", "--out",
             str(a_file), "--no-progress"],
            f"{a_file} exists and is not a folder",
        ),
        (
            ["eval", "jupiter_v0", "--agents", "random", "random", "--games", "2", "--out",
             str(a_file / "results"), "--no-progress"],
            f"{a_file} is a file",
        ),
        ([*QUICK_GAME, "--seed", "-1"], "--seed -1: out of range; allowed: 0..2147483647"),
        ([*QUICK_GAME, "--gif", str(tmp_path)], "it is a folder. Allowed: a file path"),
        ([*QUICK_GAME, "--gif", str(a_file)], "its name does not end in .gif"),
        ([*QUICK_GAME, "--gif", str(a_file / "g.gif")], f"{a_file} is a file, not a folder"),
    ]  # fmt: skip
    for argv, message in cases:
        code, out, err = run(argv, capsys)
        assert code == 2 and out == "", argv  # nothing played, nothing printed
        assert message in one_line_error(err), (argv, err)
    assert a_file.read_text() == "mine"


def test_eval_out_never_overwrites_a_users_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    """``eval --out`` into a folder of the user's (no marker, no earlier results) is refused
    before the games and leaves the user's ``results.csv`` untouched; a folder an earlier
    ``eval`` wrote is reused."""
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "results.csv").write_text("my own table")
    argv = ["eval", "jupiter_v0", "--agents", "random", "random", "--games", "2",
            "--no-progress", "--out"]  # fmt: skip
    code, out, err = run([*argv, str(mine)], capsys)
    assert code == 2 and out == ""
    assert "already holds files that moon-envs did not write" in one_line_error(err)
    assert (mine / "results.csv").read_text() == "my own table"
    ours = tmp_path / "ours"
    for _ in range(2):  # the second run replaces the first run's files
        code, out, err = run([*argv, str(ours)], capsys)
        assert code == 0 and f"wrote {ours}/results.csv, results.json" in out
    assert json.loads((ours / "results.json").read_text())["num_games"] == 2


def test_a_file_sb3_cannot_load_is_a_one_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    pytest.importorskip("sb3_contrib")
    not_a_zip = tmp_path / "model.zip"
    not_a_zip.write_text("not a zip")
    argv = ["eval", "jupiter_v0", "--agents", f"ppo-trusted:{not_a_zip}", "random"]
    code, _, err = run([*argv, "--games", "2", "--no-progress"], capsys)
    assert code == 2
    line = one_line_error(err)
    assert str(not_a_zip) in line and "is not a MaskablePPO zip that sb3 can load" in line


# ---- az: options --------------------------------------------------------------------------------


def test_an_unknown_az_option_is_named_with_the_allowed_ones(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    weights = TRAINED_DIR / "jupiter.npz"
    argv = ["eval", "jupiter_v0", "--agents", f"az:{weights},bogus=1", "random"]
    code, _, err = run([*argv, "--games", "2", "--no-progress"], capsys)
    assert code == 2
    line = one_line_error(err)
    assert "unknown option 'bogus'; allowed options: simulations, c" in line
    assert "does not exist" not in line
    # a weights file whose own name has a comma and '=' still loads
    odd = tmp_path / "run,lr=0.1.npz"
    shutil.copy(weights, odd)
    code, _, err = run(["eval", "jupiter_v0", "--agents", f"az:{odd}", "random", "--games",
                          "2", "--no-progress"], capsys)  # fmt: skip
    assert code == 0, err


# ---- every number has a range -------------------------------------------------------------------

CHECKED_ELSEWHERE = {
    "--human": "a seat of the game being played, checked once the player count is known",
    "--gif-ms": "checked by the GIF writer, 20..10000 ms, before the game",
    "--width": "checked by play, 20..1000 columns, as too narrow or too wide",
}


def numeric_flags() -> list[tuple[str, argparse.Action]]:
    """``(command, action)`` for every flag of every subcommand."""
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return [(name, action) for name, p in sub.choices.items() for action in p._actions]


def test_every_numeric_flag_is_read_with_a_documented_range() -> None:
    for command, action in numeric_flags():
        flag = action.option_strings[-1] if action.option_strings else action.dest
        if action.type in (int, float):
            assert flag in CHECKED_ELSEWHERE, f"{command} {flag} has no range"
        if isinstance(action.type, (WholeNumber, PositiveNumber)):
            assert action.type.allowed in (action.help or ""), f"{command} {flag}: help"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["eval", "jupiter_v0", "--agents", "random", "random", "--games", "1000000000000000"],
         "--games 1000000000000000: out of range; allowed: 1..1000000"),
        (["eval", "jupiter_v0", "--agents", "random", "random", "--games", "0"],
         "--games 0: out of range; allowed: 1..1000000"),
        (["eval", "jupiter_v0", "--agents", "random", "random", "--games", "many"],
         "--games 'many': not a whole number; allowed: 1..1000000"),
        (["ladder", "jupiter_v0", "--games", "2000000"],
         "--games 2000000: out of range; allowed: 1..1000000"),
        (["ladder", "jupiter_v0", "--workers", "100000"],
         "--workers 100000: out of range; allowed: 1..256"),
        (["ladder", "jupiter_v0", "--seed", "2147483648"],
         "--seed 2147483648: out of range; allowed: 0..2147483647"),
        (["bench", "--seconds", "inf"],
         "--seconds inf: out of range; allowed: more than 0, at most 3600"),
        (["bench", "--repeats", "1000000"], "--repeats 1000000: out of range; allowed: 1..1000"),
        (["train", "jupiter_ppo", "--timesteps", "10000000000000"],
         "--timesteps 10000000000000: out of range; allowed: 1..10000000000"),
        (["play", "jupiter_v0", "--seed", "99999999999"],
         "--seed 99999999999: out of range; allowed: 0..2147483647"),
    ],
)  # fmt: skip
def test_numbers_out_of_range_are_refused_as_the_line_is_read(
    argv: list[str], message: str
) -> None:
    with pytest.raises(UsageError, match="^" + re.escape(message) + "$"):
        build_parser().parse_args(argv)


def test_out_of_range_batches_and_width_are_refused(
    capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    jax_speed = pytest.importorskip("moon_agents.benchmarks.jax_speed")
    measured: list[object] = []  # a batch let through would be measured here, not for real
    monkeypatch.setattr(jax_speed, "run_jax_bench", lambda *a, **k: measured.append(a))
    code, _, err = run(["bench", "--jax", "--batches", "1,99999999", "--seconds", "0.1"], capsys)
    assert measured == []
    assert code == 2 and "99999999 is out of range; allowed: each 1..1048576" in one_line_error(err)
    code, _, err = run([*QUICK_GAME, "--width", "5000"], capsys)
    assert code == 2 and "--width 5000: too wide; allowed: 20..1000" in one_line_error(err)


# ---- the seed of a game -------------------------------------------------------------------------


def test_play_without_seed_draws_one_prints_it_and_it_replays_the_game(
    capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(play_command, "draw_seed", lambda: 123456789)
    code, drawn, err = run(QUICK_GAME, capsys)
    assert code == 0
    assert "seed: 123456789 (replay with --seed 123456789)" in err.splitlines()
    assert drawn.splitlines()[0].endswith(", seed 123456789")
    code, replayed, err = run([*QUICK_GAME, "--seed", "123456789"], capsys)
    assert code == 0 and replayed == drawn
    assert "replay with" not in err  # a seed given is not told again


def test_games_without_seed_differ() -> None:
    seeds = {play_command.draw_seed() for _ in range(5)}
    assert len(seeds) > 1 and all(0 <= s <= 2**31 - 1 for s in seeds)


def test_seed_has_help() -> None:
    seed = next(a for c, a in numeric_flags() if c == "play" and a.dest == "seed")
    assert seed.default is None and "replay" in (seed.help or "")


@pytest.mark.parametrize(
    ("argv", "line"),
    [
        (["--runners", "-1"], "--runners -1: out of range; allowed: 0..1024"),
        (["--envs-per-runner", "0"], "--envs-per-runner 0: out of range; allowed: 1..1024"),
        (["--seconds", "nan"], "--seconds nan: out of range"),
    ],
)
def test_rllib_sampling_refuses_out_of_range_flags_before_sampling(argv, line) -> None:
    from moon_agents.benchmarks import rllib_sampling

    with pytest.raises(SystemExit) as stop:
        rllib_sampling.main(argv)
    assert str(stop.value).startswith(f"rllib_sampling: {line}")
