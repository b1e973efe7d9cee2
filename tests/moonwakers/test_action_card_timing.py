"""[HOUSE] action_card_timing: LABO, SCAN, CRYOGEN and DEFECTIVE SHELTER each have one
fixed moment in the round (docs/rules.md, *When the action cards are played*)."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

import moon_envs
from moon_envs import ConfigError
from moon_envs.moonwakers.config import ActionLayout as A
from moon_envs.moonwakers.game import MoonwakersGame


def test_the_default_is_fixed_and_the_only_allowed_value():
    assert MoonwakersGame().config.action_card_timing == "fixed"
    env = moon_envs.make("moonwakers_v1", action_card_timing="fixed")
    assert env.game.config.action_card_timing == "fixed"


@pytest.mark.parametrize("value", ["round", "", "FIXED", 1, None])
def test_another_timing_is_refused_naming_the_field_and_the_allowed_values(value):
    with pytest.raises(ConfigError, match="action_card_timing") as err:
        moon_envs.make("moonwakers_v1", action_card_timing=value)
    assert "allowed values: ['fixed']" in str(err.value)


def _moments(num_players: int, seeds: range) -> Counter:
    """Play seeded random games; check, at every decision, that each action card is legal
    only at its moment; count the decisions where one was legal, per card."""
    seen: Counter = Counter()
    env = moon_envs.make("moonwakers_v1", num_players=num_players, max_rounds=30)
    for seed in seeds:
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        while env.agents:
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            s = env.game_state
            task, legal = s.tasks[0], set(np.flatnonzero(obs["action_mask"]).tolist())
            mapped = {a for a in legal if A.MAPPED <= a < s.layout.HAND}
            if A.CRYOGEN in legal:
                assert task["t"] == "cryogen"
                seen["CRYOGEN"] += 1
            if A.DEFECTIVE in legal:
                assert task["t"] == "defective"
                seen["DEFECTIVE SHELTER"] += 1
            if legal & set(range(A.SCAN_CARD, A.SHORTCUT)):
                assert task["t"] == "place"
                seen["SCAN"] += 1
            if task["t"] == "claim":
                holds_labo = s.holding(task["seat"], "labo") >= 0
                assert bool(mapped) == (holds_labo and any(s.mapped))
                seen["LABO"] += bool(mapped)
            env.step(int(rng.choice(sorted(legal))))
    return seen


@pytest.mark.parametrize("num_players", [2, 4])
def test_each_action_card_is_offered_at_its_fixed_moment_only(num_players):
    seen = _moments(num_players, range(12))
    assert set(seen) == {"CRYOGEN", "DEFECTIVE SHELTER", "SCAN", "LABO"}, seen
