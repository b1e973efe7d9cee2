"""The Moonwakers twin replays recorded Python games event by event
(:mod:`moon_envs.jax.equivalence`): after every decision and chance outcome, the player
to move, the legal mask, every seat's observation, the chance probabilities, the rewards,
the scores and the final returns are the engine's.

Games are short (a few rounds) so that each parameter set compiles once and replays in
seconds. Two parameter sets:

* two seats, with a card file of 70 terrain cards and 5 COMBINATION cards;
* six seats, with the house rules that change the task queue most: response windows for
  holders only, SHORTCUT before every placement, PERMUTATION after one's own, an ordered
  pile, open claims, two purchases a round, the end of the game by choice, storms that
  act when drawn, a cancelled shelter that hits.

The chance loop of ``init`` and ``step``, fused with the queue's passes, draws the
outcomes the base class's loop draws, state for state.
"""

from __future__ import annotations

import json

import pytest

pytest.importorskip("jax")

import jax
import jax.numpy as jnp
import numpy as np

import moon_envs
from moon_envs.jax import equivalence
from moon_envs.jax.env import JaxEnv
from moon_envs.jax.moonwakers import advance
from moon_envs.jax.moonwakers.python_state import python_state_of
from moon_envs.jax.moonwakers.twin import MoonwakersTwin
from moon_envs.moonwakers.cards import DEFAULT_PATH

CASES = {
    "two": {"num_players": 2, "max_rounds": 6},
    "six-house": {
        "num_players": 6,
        "max_rounds": 5,
        "response_windows": "holders",
        "shortcut_when": "every",
        "permutation_when": "own",
        "pile": "ordered",
        "claims": "open",
        "purchases_per_round": 2,
        "game_end": "choice",
        "ionic_storm_draws": "act",
        "infrared_storm_replaces": "two",
        "free_card": "discard",
        "cancelled_shelter": "loss",
    },
}


def _twin(params: dict) -> MoonwakersTwin:
    game = moon_envs.make("moonwakers_v1", **params).game
    return MoonwakersTwin("moonwakers_v1", game)


def _card_file(folder) -> str:
    """A card file of 70 terrain cards (the package's 50, then 20 of them again: three
    bit words per set of cards) and 5 COMBINATION cards."""
    data = json.loads(DEFAULT_PATH.read_text())
    data["terrain"] = data["terrain"] + data["terrain"][:20]
    data["combinations"] = data["combinations"][:5]
    path = folder / "cards70.json"
    path.write_text(json.dumps(data))
    return str(path)


@pytest.mark.parametrize("case", sorted(CASES))
def test_replays_recorded_python_games(case, tmp_path):
    params = dict(CASES[case])
    if case == "two":  # a custom card file, with more cards than the package's
        params["cards"] = _card_file(tmp_path)
    twin = _twin(params)
    assert twin.tables.num_terrain == (70 if case == "two" else 50)
    rng = np.random.default_rng(len(case))
    policies = [equivalence.random_policy] * twin.num_players
    games = [equivalence.record_game(twin.game, policies, rng, "win") for _ in range(4)]
    assert sum(len(g) for g in games) > 400
    problems = equivalence.compare(games, equivalence.replay(twin, games))
    assert problems == []


def test_the_fused_chance_loop_draws_the_generic_loops_outcomes():
    """``_resolve_x`` (chance drawn inside the queue's passes; ``step`` runs it) and
    ``resolve_setup`` (``init`` runs it: set-up passes first) against the base class's
    loop, from the position before the set-up, then after each of 24 random legal
    actions on 8 lanes. Every position reached waits on a decision, has a legal action,
    and converts to a Python state that ``validate()`` accepts."""
    twin = _twin(CASES["two"])
    batch = 8

    def both(x, key):
        generic = JaxEnv._resolve_x(twin, x, key)
        setup = advance.resolve_setup(twin.tables, x, key)
        return twin._resolve_x(x, key), generic, setup

    resolve = jax.jit(jax.vmap(both))
    act = jax.jit(jax.vmap(twin._apply_action_x))
    legal = jax.jit(jax.vmap(twin._legal_mask))
    player = jax.jit(jax.vmap(twin._player))
    keys = jax.random.split(jax.random.PRNGKey(0), batch)
    x = jax.tree.map(lambda v: jnp.stack([v] * batch), twin.initial_state()._x)
    rng = np.random.default_rng(2)
    seen = set()
    for _ in range(24):
        fused, generic, setup = resolve(x, keys)
        assert _same(fused, generic) and _same(setup, generic)
        assert bool(jnp.all(player(fused) >= 0))  # a seat to move: no chance is left
        masks = np.asarray(legal(fused))
        for lane in range(batch):
            one = jax.tree.map(lambda v, i=lane: v[i], fused)
            py = python_state_of(twin.game, twin.tables, one)
            py.validate()
            seen.add(py.phase())
            assert masks[lane].any()
        actions = [int(rng.choice(np.flatnonzero(m))) for m in masks]
        x = act(fused, jnp.asarray(actions, jnp.int32))
        keys = jax.random.split(keys[0], batch)
    assert {"option", "place", "reveal", "claim"} <= seen


def _same(a, b) -> bool:
    return all(jax.tree.leaves(jax.tree.map(lambda u, v: bool(jnp.all(u == v)), a, b)))
