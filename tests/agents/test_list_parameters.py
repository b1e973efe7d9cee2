"""``moon-envs list`` shows every env's parameters with their defaults and allowed values,
wrapped into readable lines."""

from __future__ import annotations

import dataclasses
import io
import re

import moon_envs
from moon_agents.cli.main import main

KNOWN = {  # a few parameters of each env: `name = default` and words of its allowed values
    "jupiter_v0": [("num_players = 2", "2, 3 or 4"), ("num_probes = 6", "integer 1..12")],
    "moonstar_v1": [("num_players = 4", "integer 2..8"), ("game = None", "Game 1..12")],
    "moon_harvesters_v0": [("num_players = 2", "2, 3 or 4"), ("shapes = None", "at most 8")],
    "star_master_v0": [("num_players = 2", "1..6"), ("memory = 'none'", "'none', 'perfect'")],
    "moonwakers_v1": [("num_players = 2", "integer 2..6"), ("max_rounds = 100", "1..500")],
}


def listing() -> str:
    out = io.StringIO()
    assert main(["list"], stdout=out) == 0
    return out.getvalue()


def env_blocks(text: str) -> dict[str, str]:
    """``env id -> its block``: from its line to the next env's, or the common parameters."""
    blocks: dict[str, list[str]] = {}
    current = None
    for line in text.splitlines():
        if line.split(" ", 1)[0] in moon_envs.list_envs():
            current = line.split(" ", 1)[0]
            blocks[current] = []
        elif line.startswith("Every env also takes"):
            current = None
        if current:
            blocks[current].append(line)
    return {env_id: "\n".join(lines) for env_id, lines in blocks.items()}


def test_every_env_lists_each_of_its_parameters_with_its_default() -> None:
    blocks = env_blocks(listing())
    assert set(blocks) == set(moon_envs.list_envs()) == set(KNOWN)
    for env_id, block in blocks.items():
        assert "parameters (name = default: meaning, allowed values):" in block
        config = moon_envs.get_entry(env_id).env_class().game_class.config_class
        for f in dataclasses.fields(config):
            assert re.search(rf"^ {{23}}{f.name} = \S", block, re.M), (env_id, f.name)
        flat = " ".join(block.split())
        for head, allowed in KNOWN[env_id]:
            assert head in flat, (env_id, head)
            if allowed:
                assert allowed in flat, (env_id, allowed)


def test_the_listing_is_wrapped_and_the_common_parameters_come_once() -> None:
    text = listing()
    params = [ln for ln in text.splitlines() if ln.startswith(" " * 23) or " = " in ln]
    assert len(params) > 60 and max(len(line) for line in params) <= 100
    assert text.count("illegal_action = ") == 1
    assert '  reward_mode = "win": "win" (terminal +1' in text
    # a long description continues on indented lines
    assert re.search(r"^ {23}num_probes = 6: probes per player .*\n {27}\S", text, re.M)
