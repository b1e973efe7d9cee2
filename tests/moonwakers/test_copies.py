"""Clones copy each list only as deep as the rules edit it (moon_envs.moonwakers.copies):
every copy must play, serialise and pickle exactly as an independent position rebuilt
from a snapshot, and the field table must name every list of a position."""

from __future__ import annotations

import json
import pickle

import numpy as np
import pytest

from moon_envs.moonwakers.copies import COPIERS
from moon_envs.moonwakers.game import MoonwakersGame
from tests.helpers import step_state


def _rebuilt(s):
    """An independent copy that shares nothing (the reference)."""
    return type(s).from_dict(json.loads(json.dumps(s.to_dict())), game=s.game)


@pytest.mark.parametrize("n", [2, 4])
def test_a_family_of_clones_plays_like_independent_copies(n):
    game = MoonwakersGame(num_players=n)
    rng = np.random.default_rng(n)
    lazy = [game.new_initial_state()]
    ref = [_rebuilt(lazy[0])]
    for turn in range(600):
        i = int(rng.integers(len(lazy)))
        if turn % 5 == 0 and len(lazy) < 12:  # clone a member (maybe a clone of a clone)
            lazy.append(lazy[i].clone())
            ref.append(_rebuilt(ref[i]))
            continue
        if lazy[i].is_terminal():
            continue
        seed = int(rng.integers(2**32))
        step_state(lazy[i], np.random.default_rng(seed))
        step_state(ref[i], np.random.default_rng(seed))
        if turn % 7 == 0:
            j = int(rng.integers(len(lazy)))
            assert lazy[j].to_dict() == ref[j].to_dict()
    for a, b in zip(lazy, ref):
        assert json.dumps(a.to_dict()) == json.dumps(b.to_dict())  # same fields, same order


def test_the_field_table_names_every_list_edited_in_place():
    s = MoonwakersGame(num_players=3).new_initial_state()
    shared = {"score", "last"}  # replaced, never edited: clones share them
    lists = {k for k, v in vars(s).items() if isinstance(v, list)}
    assert lists == set(COPIERS) | shared


def test_a_clone_shares_no_edited_list_and_pickles_like_the_original():
    game = MoonwakersGame(num_players=3)
    s = game.new_initial_state()
    rng = np.random.default_rng(1)
    for _ in range(40):
        step_state(s, rng)
    c = s.clone()
    for name, kind in COPIERS.items():
        assert getattr(c, name) == getattr(s, name) and getattr(c, name) is not getattr(s, name)
        if kind != "flat":
            assert all(a is not b for a, b in zip(getattr(c, name), getattr(s, name))), name
    text = json.dumps(s.to_dict())
    assert json.dumps(c.to_dict()) == text
    assert json.dumps(pickle.loads(pickle.dumps(c)).to_dict()) == text
