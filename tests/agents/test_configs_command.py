"""``moon-envs configs`` lists and copies the shipped configs; ``moon-envs train NAME`` finds
one by name. The listing must agree with what the YAML says, for every file in configs/."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from moon_agents.cli.configs import configs_dir, resolve_config, shipped_configs
from moon_agents.cli.main import main

ROOT = Path(__file__).resolve().parents[2]


def run(argv: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    code = main(argv, stdout=out)
    return code, out.getvalue()


def test_the_checkout_reads_its_configs_folder() -> None:
    assert configs_dir().resolve() == (ROOT / "configs").resolve()


def test_the_listing_names_every_config_with_its_env_and_algorithm() -> None:
    yaml = pytest.importorskip("yaml")
    code, out = run(["configs"])
    assert code == 0
    files = sorted((ROOT / "configs").glob("*.yaml"))
    assert [c.name for c in shipped_configs()] == [p.stem for p in files]
    rows = {line.split()[0]: line.split()[1:] for line in out.splitlines() if line[:1].isalnum()}
    for path in files:
        data = yaml.safe_load(path.read_text())
        algo = data.get("algorithm", {})
        algo = algo.get("name", "maskable_ppo") if isinstance(algo, dict) else algo
        assert rows[path.stem] == [data["env"]["id"], algo], path.name
    assert out.splitlines()[0].split() == ["name", "env", "algorithm"]
    lines = out.splitlines()
    i = lines.index(next(ln for ln in lines if ln.startswith("jupiter_ppo ")))
    assert lines[i].split() == ["jupiter_ppo", "jupiter_v0", "maskable_ppo"]
    assert lines[i + 1].startswith("    Jupiter, 2 players: MaskablePPO by self-play")
    assert all(len(line) <= 100 for line in lines[:-1])
    assert "moon-envs train NAME" in out


def test_copy_writes_the_file_and_refuses_to_overwrite(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    monkeypatch.chdir(tmp_path)
    code, out = run(["configs", "jupiter_ppo"])
    assert code == 0
    copied = tmp_path / "jupiter_ppo.yaml"
    assert copied.read_bytes() == (ROOT / "configs" / "jupiter_ppo.yaml").read_bytes()
    assert "wrote jupiter_ppo.yaml" in out and "moon-envs train jupiter_ppo.yaml" in out

    mine = tmp_path / "mine.yaml"
    mine.write_text("my own notes\n")
    code, _ = run(["configs", "moonstar_ppo", "--to", str(mine)])
    assert code == 2
    assert "already exists; it is left untouched" in capsys.readouterr().err
    assert mine.read_text() == "my own notes\n"
    code, _ = run(["configs", "moonstar_ppo", "--to", str(mine), "--force"])
    assert code == 0
    assert mine.read_bytes() == (ROOT / "configs" / "moonstar_ppo.yaml").read_bytes()

    (tmp_path / "sub").mkdir()
    code, _ = run(["configs", "star_master_ppo.yaml", "--to", "sub"])  # a folder: NAME inside
    assert code == 0 and (tmp_path / "sub" / "star_master_ppo.yaml").is_file()


def test_a_link_is_never_written_through(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    target = tmp_path / "precious.txt"
    target.write_text("keep\n")
    link = tmp_path / "link.yaml"
    link.symlink_to(target)
    code, _ = run(["configs", "jupiter_ppo", "--to", str(link), "--force"])
    assert code == 2 and "is a link" in capsys.readouterr().err
    assert target.read_text() == "keep\n"


def test_an_unknown_name_lists_the_shipped_configs(capsys: pytest.CaptureFixture) -> None:
    code, _ = run(["configs", "jupiter_dqn"])
    err = capsys.readouterr().err
    assert code == 2
    assert "no shipped config named 'jupiter_dqn'" in err and "'jupiter_ppo'" in err
    code, _ = run(["train", "jupiter_dqn"])
    err = capsys.readouterr().err
    assert code == 2
    assert "'jupiter_dqn': no such config file, and no shipped config of that name" in err
    assert "'moonwakers_ppo'" in err


def test_train_resolves_a_name_and_a_docs_path_outside_a_checkout(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # no configs/ folder here
    shipped = (ROOT / "configs" / "jupiter_ppo.yaml").resolve()
    for arg in ("jupiter_ppo", "jupiter_ppo.yaml", "configs/jupiter_ppo.yaml"):
        path, config = resolve_config(arg)
        assert path.resolve() == shipped and config is not None, arg
    own = tmp_path / "jupiter_ppo"  # a file of that name wins over the shipped config
    own.write_text("env: {id: moonstar_v1}\n")
    assert resolve_config("jupiter_ppo") == (Path("jupiter_ppo"), None)
    with pytest.raises(Exception, match="no such config file"):
        resolve_config("elsewhere/jupiter_ppo.yaml")


def test_train_by_name_runs_the_shipped_config(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    pytest.importorskip("sb3_contrib")
    argv = ["train", "moonwakers_ppo", "--out", "runs\x01"]
    code, _ = run(argv)  # a control character is refused: the config was found and validated
    err = capsys.readouterr().err
    assert code == 2
    assert "using the shipped config moonwakers_ppo" in err
    assert "moonwakers_ppo.yaml: 1 invalid field(s)" in err
    assert "output.dir" in err and "control characters" in err
