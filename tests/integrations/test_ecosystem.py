"""TorchRL, Tianshou and SuperSuit on every game, through the checks of
``python -m moon_envs.integrations.matrix``, and the table docs/integrations.md shows.

Each library's tests skip where it is not installed (the ``dev`` extra installs TorchRL,
Tianshou and SuperSuit, so the README's test command runs them all).
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

import moon_envs
from moon_envs.integrations.matrix import CHECKS, run_check

ENVS = moon_envs.list_envs()
PAGE = Path(__file__).resolve().parents[2] / "docs" / "integrations.md"
STEPS = 60


def _check(name: str, env_id: str, steps: int = STEPS) -> str:
    """Run a check of the table; its exception, if any, is the test's failure."""
    return CHECKS[name][1](env_id, steps, 0)


@pytest.mark.parametrize("env_id", ENVS)
def test_torchrl_pettingzoo_wrapper_runs_every_game_with_numeric_infos(env_id):
    pytest.importorskip("torchrl", reason="torchrl is not installed (the dev extra has it)")
    assert _check("TorchRL PettingZooWrapper + numeric_infos", env_id) == ""


def test_torchrl_sees_every_numeric_info_field():
    pytest.importorskip("torchrl", reason="torchrl is not installed (the dev extra has it)")
    from torchrl.envs.libs.pettingzoo import PettingZooWrapper

    from moon_envs.integrations.numeric_infos import numeric_infos

    moon = numeric_infos(moon_envs.make("star_master_v0", num_players=3))
    env = PettingZooWrapper(env=moon, use_mask=True, seed=0)
    rollout = env.rollout(STEPS, break_when_any_done=False)
    info = rollout["next", "player_1", "info"]
    assert set(info.keys()) == set(moon.info_space("player_1").spaces)
    assert info["last_race"].shape == (STEPS, 1, 3)
    assert info["last_race"][0].tolist() == [[-2, -2, -2]]  # no race revealed yet


@pytest.mark.parametrize("env_id", ENVS)
def test_tianshou_collector_runs_every_game_with_numeric_infos(env_id):
    pytest.importorskip("tianshou", reason="tianshou is not installed (the dev extra installs it)")
    assert _check("Tianshou PettingZooEnv + Collector + numeric_infos", env_id, 200) == ""


def test_tianshou_buffer_holds_star_master_races_as_fixed_vectors():
    pytest.importorskip("tianshou", reason="tianshou is not installed (the dev extra installs it)")
    from tianshou.env import PettingZooEnv

    from moon_envs.integrations.numeric_infos import numeric_infos

    env = PettingZooEnv(numeric_infos(moon_envs.make("star_master_v0", num_players=3)))
    obs, info = env.reset(seed=0)
    assert info["last_race"].tolist() == [-2, -2, -2]
    rng = np.random.default_rng(0)
    races = set()
    for _ in range(200):
        obs, _, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(obs["mask"]))))
        assert info["last_race"].shape == (3,)
        races.add(tuple(info["last_race"].tolist()))
        if term or trunc:
            obs, info = env.reset()
    assert len(races) > 1


SUPERSUIT_ROWS = [name for name in CHECKS if name.startswith("SuperSuit")]


@pytest.mark.parametrize("name", SUPERSUIT_ROWS)
def test_supersuit_combinations_are_as_the_page_says(name):
    pytest.importorskip("supersuit", reason="supersuit is not installed (the dev extra has it)")
    documented = page_table()[name]
    for env_id in ("jupiter_v0", "star_master_v0"):
        passed, note = run_check(name, env_id, 200)
        assert documented[env_id].startswith("✓" if passed else "✗"), (env_id, note)


def page_table() -> dict[str, dict[str, str]]:
    """The compatibility table of docs/integrations.md: row -> env id -> cell."""
    text = PAGE.read_text(encoding="utf-8")
    lines = [line for line in text.splitlines() if line.startswith("| ")]
    header = [c.strip(" `") for c in lines[0].strip("|").split(" | ")]
    rows = {}
    for line in lines[1:]:
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip().strip("|"))]
        if cells[0] in CHECKS:
            rows[cells[0]] = dict(zip(header[1:], cells[1:]))
    return rows


def test_the_page_shows_every_check_on_every_game():
    table = page_table()
    assert list(table) == list(CHECKS)
    for row in table.values():
        assert sorted(row) == ENVS and all(cell[0] in "✓✗" for cell in row.values()), row


@pytest.mark.parametrize(
    ("name", "env_id"),
    [
        ("TorchRL PettingZooWrapper", "star_master_v0"),
        ("TorchRL PettingZooWrapper", "moon_harvesters_v0"),
        ("TorchRL PettingZooWrapper + numeric_infos", "star_master_v0"),
        ("Tianshou PettingZooEnv + Collector", "star_master_v0"),
        ("Shimmy OpenSpielCompatibilityV0(game_name=, config=)", "moonstar_v1"),
        ("Shimmy OpenSpielCompatibilityV0(env=load_game(...))", "moonstar_v1"),
    ],
)
def test_cells_of_the_page_hold(name, env_id):
    pytest.importorskip(CHECKS[name][0], reason=f"{CHECKS[name][0]} is not installed")
    passed, note = run_check(name, env_id, STEPS)
    assert page_table()[name][env_id].startswith("✓" if passed else "✗"), note


EXAMPLES = re.findall(r"```python\n(.*?)```", PAGE.read_text(encoding="utf-8"), flags=re.S)


def test_the_page_has_an_example_per_library():
    for name in ("numeric_infos", "torchrl", "tianshou", "shimmy", "supersuit"):
        assert any(name in block for block in EXAMPLES), name


@pytest.mark.parametrize("number", range(len(EXAMPLES)), ids=lambda n: f"example{n + 1}")
def test_each_example_of_the_page_runs_alone(number):
    block = EXAMPLES[number]
    needs = {"torchrl": "torchrl", "tianshou": "tianshou", "shimmy": "shimmy",
             "supersuit": "supersuit", "open_spiel": "pyspiel"}  # fmt: skip
    for word, module in needs.items():
        if word in block:
            pytest.importorskip(module, reason=f"{module} is not installed")
    exec(compile(block, f"{PAGE.name} example {number + 1}", "exec"), {})
