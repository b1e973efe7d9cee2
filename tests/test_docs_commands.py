"""Every ``moon-envs ...`` command shown in README.md and docs/*.md runs.

The commands are read from the files at test time, so the test follows their edits: each
line of a fenced code block that starts with ``moon-envs`` (or ``$ moon-envs``,
``.venv/bin/moon-envs`` after ``&&``) and each inline ```moon-envs ...``` span is a
command; a trailing ``# comment`` is dropped. Long commands run shrunk, the same command
with smaller budgets:

* ``eval ... --games N``: 24 games when N is a multiple of 24 (seat rotations of 4
  players stay balanced), else 2;
* ``bench``: ``--seconds 0.1``;
* ``mcts:...`` agents: 4 simulations (or 0.01 s) per move, and Moonstar games cut to 2
  rounds; an ``eval`` without ``--games`` plays 2;
* ``train CONFIG``: a copy of CONFIG with 128 timesteps, 2 envs of 64 steps, no
  evaluation, checkpoints, plot or TensorBoard; ``ppo:runs/NAME_seedS/model.zip`` in a
  later command is the model such a shrunk run of ``configs/NAME.yaml`` wrote;
* ``play --human SEAT``: the person types numbers 0, 1, 2, ... until the game ends;
* output files (``--out``, ``--gif``, ``--html``) go to a temporary folder.

Every command must exit with status 0.
"""

from __future__ import annotations

import io
import re
import shlex
from pathlib import Path

import pytest

from agents.cli import main

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
SHRUNK_TRAINING = {
    "budget": {"total_timesteps": 128},
    "algorithm": {"n_envs": 2, "n_steps": 64, "batch_size": 64},
    "opponents": {"snapshots": {"every_timesteps": 64}},
    "eval": {"every_timesteps": 0, "games": 2},
    "checkpoints": {"every_timesteps": 0},
    "output": {"progress_bar": False, "tensorboard": False, "plot": False},
}

SHRUNK_RLLIB = {  # the RLlib back-end's own schema (agents/rllib/config.py)
    "budget": {"total_timesteps": 128},
    "algorithm": {"train_batch_size": 128, "minibatch_size": 64, "num_epochs": 1},
    "ray": {"num_env_runners": 1, "num_envs_per_env_runner": 1},
    "opponents": {"snapshots": {"every_timesteps": 64}},
    "eval": {"every_timesteps": 0, "games": 2},
    "checkpoints": {"every_timesteps": 0},
    "output": {"progress_bar": False, "tensorboard": False, "plot": False},
}


def _is_rllib(config: dict) -> bool:
    algo = config.get("algorithm")
    name = algo.get("name") if isinstance(algo, dict) else algo
    return isinstance(name, str) and name.startswith("rllib")


def documented_commands() -> list[str]:
    """Every distinct ``moon-envs`` command in the docs, in order of appearance."""
    found: list[str] = []
    for path in DOCS:
        text = path.read_text(encoding="utf-8")
        for block in re.findall(r"```[^\n]*\n(.*?)```", text, re.S):
            for line in block.splitlines():
                for part in line.split("&&"):
                    m = re.match(r"\s*(?:\$\s*)?(?:\S*/)?moon-envs(\s.*)?$", part)
                    if m:
                        found.append("moon-envs" + (m.group(1) or ""))
        outside = re.sub(r"```.*?```", "", text, flags=re.S)
        found += re.findall(r"`(moon-envs(?: [^`]*)?)`", outside)
    commands = []
    for cmd in found:
        cmd = re.sub(r"\s+#.*$", "", cmd).strip()
        if cmd not in commands and not re.search(r"[A-Z]{3,}", cmd):  # skip placeholders
            commands.append(cmd)
    return commands


def _set_deep(data: dict, updates: dict) -> None:
    for key, value in updates.items():
        if isinstance(value, dict):
            _set_deep(data.setdefault(key, {}), value)
        else:
            data[key] = value


def shrink(argv: list[str], tmp: Path) -> list[str]:
    """The same command with small budgets and its outputs in ``tmp``."""
    import yaml

    out = list(argv)
    command = out[0]
    if command == "eval" and "--games" in out:
        i = out.index("--games") + 1
        out[i] = "24" if int(out[i]) % 24 == 0 else "2"
    if command == "eval":
        if "--games" not in out:
            out += ["--games", "2"]
        out.append("--no-progress")
    if command in ("eval", "play") and any(a.startswith("mcts") for a in out):
        if len(out) > 1 and out[1].startswith("moonstar"):  # a rollout plays ~30 rounds
            out += ["--param", "max_rounds=2"]
    if command == "bench":
        if "--seconds" in out:
            out[out.index("--seconds") + 1] = "0.1"
        else:
            out += ["--seconds", "0.1"]
    if command == "train":
        config = yaml.safe_load((ROOT / out[1]).read_text())
        rllib = _is_rllib(config)
        _set_deep(config, SHRUNK_RLLIB if rllib else SHRUNK_TRAINING)
        small = tmp / "configs" / Path(out[1]).name
        small.parent.mkdir(parents=True, exist_ok=True)
        small.write_text(yaml.safe_dump(config))
        out[1] = str(small)
        out = [x for x in out if x != "--no-progress"] + ["--out", str(tmp / "runs")]
        out.append("--no-progress")
    for i, arg in enumerate(out):
        if arg.startswith("mcts"):  # search budgets shrunk: the spec is what is checked
            arg = out[i] = re.sub(r"simulations=\d+", "simulations=4", arg)
            arg = out[i] = re.sub(r"seconds=[\d.]+", "seconds=0.01", arg)
        if out[i - 1] in ("--out", "--gif", "--html") and i > 0 and command != "train":
            out[i] = str(tmp / "files" / Path(arg).name)
        m = re.match(r"(ppo|rllib):runs/(\w+?)_seed(\d+)/(model\.zip|model)$", arg)
        if m:
            out[i] = f"{m.group(1)}:{_trained(m.group(2), m.group(3), tmp, m.group(4))}"
    return out


def _trained(name: str, seed: str, tmp: Path, model_name: str = "model.zip") -> Path:
    """The model a shrunk ``moon-envs train configs/NAME.yaml --seed SEED`` writes
    (``model.zip`` for SB3, the ``model`` folder for RLlib)."""
    model = tmp / "runs" / f"{name}_seed{seed}" / model_name
    if not model.exists():
        argv = shrink(["train", f"configs/{name}.yaml", "--seed", seed], tmp)
        assert main(argv, stdout=io.StringIO()) == 0, argv
    return model


class CountingInput(io.StringIO):
    """A person who types 0, 1, 2, ... (a wrong number is refused and the next is tried)."""

    def __init__(self) -> None:
        super().__init__()
        self.n = 0

    def readline(self, *args: object) -> str:
        self.n += 1
        return f"{self.n % 500}\n"


COMMANDS = documented_commands()


def test_the_docs_show_commands() -> None:
    assert any(c.startswith("moon-envs play ") for c in COMMANDS)
    assert any(c.startswith("moon-envs eval ") for c in COMMANDS)


@pytest.mark.parametrize("command", COMMANDS)
def test_documented_command_runs(command: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    argv = shlex.split(command)[1:]
    if any(a.startswith("rllib:") for a in argv):
        pytest.importorskip("ray", reason="the rllib extra is not installed")
    if (argv and argv[0] == "train") or any(a.startswith(("ppo:", "rllib:")) for a in argv):
        pytest.importorskip("sb3_contrib")
        yaml = pytest.importorskip("yaml")
        if argv[0] == "train" and _is_rllib(yaml.safe_load((ROOT / argv[1]).read_text())):
            pytest.importorskip("ray", reason="the rllib extra is not installed")
    tmp = tmp_path_factory.getbasetemp() / "docs_commands"
    tmp.mkdir(exist_ok=True)
    argv = shrink(argv, tmp) if argv else argv
    out = io.StringIO()
    code = main(argv, stdin=CountingInput(), stdout=out)
    assert code == 0, f"{command} -> {argv} exited {code}:\n{out.getvalue()[-2000:]}"


REGISTRY_SNIPPET = """
import gymnasium, pettingzoo
import moon_envs  # registers the moon_envs/ ids with PettingZoo and Gymnasium

aec = pettingzoo.make("aec", "moon_envs/moonstar_v1", game=8)
single = gymnasium.make("moon_envs/Jupiter-v0")
print(type(aec.unwrapped).__name__, single.spec.id)
"""


def test_registry_snippet_runs_pasted_alone() -> None:
    """The README's registry snippet (with its ``import moon_envs``) in a fresh interpreter;
    Gymnasium also takes ``"moon_envs:moon_envs/Jupiter-v0"``, which imports the package."""
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", REGISTRY_SNIPPET], capture_output=True, text=True, cwd=ROOT
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split()[1] == "moon_envs/Jupiter-v0"
    plain = "import gymnasium; print(gymnasium.make('moon_envs:moon_envs/Jupiter-v0').spec.id)"
    done = subprocess.run([sys.executable, "-c", plain], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0 and done.stdout.strip() == "moon_envs/Jupiter-v0", done.stderr
