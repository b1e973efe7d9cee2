"""The README's agent table names, for every game, exactly the agents the zoo has."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from moon_agents.zoo import agent_names

README = Path(__file__).resolve().parents[1] / "README.md"
GAMES = {
    "Jupiter": "jupiter",
    "Moonstar": "moonstar",
    "Moon Harvesters": "moon_harvesters",
    "Star Master": "star_master",
    "Moonwakers": "moonwakers",
}


def _table_names() -> dict[str, set[str]]:
    """Game name -> the agent names the table gives for it: plain names (no ``:``) and
    the shipped variants (``trained:KEY=N``); ``all`` rows count for every game."""
    text = README.read_text(encoding="utf-8")
    table = text.split("| name (CLI / configs) | agent | games |", 1)[1].split("\n\n", 1)[0]
    names: dict[str, set[str]] = {game: set() for game in GAMES.values()}
    for row in table.strip().splitlines()[1:]:
        first, *_, games = [cell.strip() for cell in row.strip("|").split(" | ")]
        plain = {
            n
            for n in re.findall(r"`([^`]+)`", first)
            if ":" not in n or re.fullmatch(r"trained:\w+=\d+", n)
        }
        targets = list(GAMES.values()) if games == "all" else [GAMES.get(games)]
        for game in targets:
            if game is not None:
                names[game] |= plain
    return names


@pytest.mark.parametrize("game", sorted(GAMES.values()))
def test_readme_agent_table_matches_the_zoo(game):
    assert _table_names()[game] == set(agent_names(game))
