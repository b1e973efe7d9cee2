"""The trainer and the ladder never delete or overwrite what they did not make.

Each case plants a file of the user's and checks that it survives.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from moon_agents.paths import RUN_MARKER, claim_output_folder
from moon_agents.training.config import parse_config
from moon_agents.training.run_folder import make_run_dir
from moon_envs import ConfigError


def _config(tmp_path: Path, **output):
    return parse_config({"output": {"dir": str(tmp_path), **output}})


def _plant(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    precious = folder / "thesis.tex"
    precious.write_text("years of work")
    return precious


def test_overwrite_refuses_a_folder_the_trainer_did_not_make(tmp_path: Path) -> None:
    precious = _plant(tmp_path / "Documents")
    with pytest.raises(ConfigError) as err:
        make_run_dir(_config(tmp_path, run_name="Documents", overwrite=True))
    assert "was not made by moon-envs" in str(err.value) and "Documents" in str(err.value)
    assert precious.read_text() == "years of work"


def test_overwrite_replaces_a_run_folder_the_trainer_made(tmp_path: Path) -> None:
    config = _config(tmp_path, run_name="run", overwrite=True)
    first = make_run_dir(config)
    (first / "old_metrics.csv").write_text("old")
    again = make_run_dir(config)
    assert again == first and (again / RUN_MARKER).is_file()
    assert not (again / "old_metrics.csv").exists()


def test_without_overwrite_a_taken_name_gets_a_new_folder(tmp_path: Path) -> None:
    precious = _plant(tmp_path / "run")
    run = make_run_dir(_config(tmp_path, run_name="run"))
    assert run.name == "run_1" and precious.read_text() == "years of work"


def test_a_run_name_that_is_a_file_is_refused_or_skipped(tmp_path: Path) -> None:
    precious = tmp_path / "notes"
    precious.write_text("keep me")
    assert make_run_dir(_config(tmp_path, run_name="notes")).name == "notes_1"
    with pytest.raises(ConfigError) as err:
        make_run_dir(_config(tmp_path, run_name="notes", overwrite=True))
    assert "is a file" in str(err.value)
    assert precious.read_text() == "keep me"


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symlinks here")
def test_a_link_is_never_followed_to_delete(tmp_path: Path) -> None:
    target = make_run_dir(_config(tmp_path / "real", run_name="run"))
    precious = target / "model.zip"
    precious.write_text("weights")
    (tmp_path / "link").symlink_to(target)
    with pytest.raises(ConfigError) as err:
        make_run_dir(_config(tmp_path, run_name="link", overwrite=True))
    assert "is a link" in str(err.value)
    assert precious.read_text() == "weights"


@pytest.mark.parametrize(
    ("run_name", "why"),
    [
        ("../outside", "path separator"),
        ("..", "parent folder"),
        ("a/b", "path separator"),
        ("a\\b", "path separator"),
        ("/tmp/x", "absolute path"),
        ("bell\x07", "control characters (\\x07)"),
        ("", "empty"),
    ],
)
def test_run_name_must_be_a_plain_name(tmp_path: Path, run_name: str, why: str) -> None:
    with pytest.raises(ConfigError) as err:
        _config(tmp_path / "runs", run_name=run_name, overwrite=True)
    assert "output.run_name" in str(err.value) and why in str(err.value)
    assert not (tmp_path / "runs").exists() and not (tmp_path / "outside").exists()


def test_output_dir_naming_a_file_is_refused(tmp_path: Path) -> None:
    precious = tmp_path / "data.csv"
    precious.write_text("1,2,3")
    with pytest.raises(ConfigError) as err:
        parse_config({"output": {"dir": str(precious)}})
    assert "output.dir" in str(err.value) and "not a folder" in str(err.value)
    assert precious.read_text() == "1,2,3"


def test_the_ladder_writes_only_into_its_own_folders(tmp_path: Path) -> None:
    precious = _plant(tmp_path / "mine")
    with pytest.raises(ConfigError) as err:
        claim_output_folder("--out", str(tmp_path / "mine"), "ladder")
    assert "did not write" in str(err.value)
    assert precious.read_text() == "years of work" and not (tmp_path / "mine" / RUN_MARKER).exists()
    new = claim_output_folder("--out", str(tmp_path / "new" / "ladder"), "ladder")
    assert (new / RUN_MARKER).is_file()
    assert claim_output_folder("--out", str(new), "ladder") == new  # its own: reused
    published = tmp_path / "published"
    published.mkdir()
    (published / "ladder.json").write_text("{}")  # a ladder written before the marker
    assert claim_output_folder("--out", str(published), "ladder") == published


def test_the_ladder_command_refuses_a_users_folder(tmp_path: Path, capsys) -> None:
    from moon_agents.cli.main import main

    precious = _plant(tmp_path / "mine")
    code = main(
        ["ladder", "jupiter_v0", "--games", "1", "--out", str(tmp_path / "mine"), "--no-progress"]
    )
    assert code == 2 and "did not write" in capsys.readouterr().err
    assert sorted(p.name for p in (tmp_path / "mine").iterdir()) == ["thesis.tex"]
    assert precious.read_text() == "years of work"
