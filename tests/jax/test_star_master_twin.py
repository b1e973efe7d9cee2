"""Star Master's JAX twin: step-by-step equivalence with the Python engine, batched play,
parameters, and hidden information (no leak through ``resample``)."""

from __future__ import annotations

import numpy as np
import pytest

jax = pytest.importorskip("jax")

import jax.numpy as jnp  # noqa: E402

import moon_envs.jax as mj  # noqa: E402
from moon_agents.evaluation.jax_equivalence import check_with_agents  # noqa: E402
from moon_envs import ConfigError  # noqa: E402
from moon_envs.jax.star_master.tables import RACE  # noqa: E402

ENV_ID = "star_master_v0"
# few parameter sets, each its own compile: together every player count class, a memory
# mode with forgetting, perfect memory, competition, children, the house rules
SETS = {
    "solo": {"num_players": 1, "solitaire": True},
    "two": {"num_players": 2, "children": True, "race_winner": "seat_order"},
    "four": {
        "num_players": 4,
        "memory": "decay",
        "forget_prob": 0.3,
        "competition": True,
        "max_turns": 40,
    },
    "six": {"num_players": 6, "memory": "perfect", "num_colours": 7, "turn_limit": "nobody"},
}
_ENVS: dict[str, mj.JaxEnv] = {}
_FNS: dict[str, tuple] = {}  # jitted batched init and step


def _env(name: str) -> mj.JaxEnv:
    if name not in _ENVS:
        _ENVS[name] = mj.make(ENV_ID, **SETS[name])
    return _ENVS[name]


def _fns(name: str) -> tuple:
    """The jitted, batched ``init`` and ``step`` of a set (compiled once per module)."""
    if name not in _FNS:
        env = _env(name)
        _FNS[name] = (jax.jit(jax.vmap(env.init)), jax.jit(jax.vmap(env.step)))
    return _FNS[name]


def _views(name: str) -> tuple:
    """The jitted, batched ``observe(state, seat)`` and legal mask of a set's arrays
    (compiled once per module, shared by the hidden-information tests)."""
    if f"{name}/views" not in _FNS:
        env = _env(name)
        observe = jax.jit(jax.vmap(env.observe, in_axes=(0, None)))
        _FNS[f"{name}/views"] = (observe, jax.jit(jax.vmap(env._legal_mask)))
    return _FNS[f"{name}/views"]


@pytest.mark.parametrize("name, games", [("solo", 12), ("two", 8), ("four", 6), ("six", 4)])
def test_replays_the_python_engine(name: str, games: int) -> None:
    report = check_with_agents(ENV_ID, SETS[name], games, batch=16)
    assert report.ok, report.problems
    assert report.events > 0


def _random_play(name: str, batch: int, seed: int, steps: int):
    """Random legal play from ``init``; returns the states seen after each step and the
    summed rewards per game."""
    init, step = _fns(name)
    key = jax.random.PRNGKey(seed)
    state = init(jax.random.split(key, batch))
    total = np.zeros((batch, _env(name).num_players))
    seen = [state]
    for _ in range(steps):
        if bool(state.terminated.all()):
            break
        key, k_act, k_step = jax.random.split(key, 3)
        logits = jnp.where(state.legal_action_mask, 0.0, -jnp.inf)
        action = jax.random.categorical(k_act, logits, axis=-1)
        state = step(state, action, jax.random.split(k_step, batch))
        total += np.asarray(state.rewards)
        seen.append(state)
    return seen, total


def test_batched_random_games_end_with_the_engines_reward_sums() -> None:
    seen, total = _random_play("four", batch=24, seed=1, steps=400)
    assert bool(seen[-1].terminated.all())
    # the winners share +1 and the others -1, or nobody wins: the sum is 0 as in Python
    np.testing.assert_allclose(total.sum(axis=1), 0.0, atol=1e-5)
    assert (np.abs(total).sum(axis=1) > 0).any()


def test_every_parameter_is_expressible_and_env_params_are_checked() -> None:
    # every config parameter at a non-default value builds (nothing needs a ConfigError)
    env = mj.make(
        ENV_ID,
        num_players=1,
        memory="decay",
        forget_prob=1,
        solitaire=True,
        solitaire_turns=3,
        num_colours=8,
        white_faces=[0, 9],
        black_faces=[1],
        race_winner="seat_order",
        max_turns=5,
        turn_limit="nobody",
        reward_mode="score",
    )
    assert env.num_actions == 25 and env.num_chance_outcomes == 1024
    with pytest.raises(ConfigError, match="render_mode"):
        mj.make(ENV_ID, render_mode="ansi")
    with pytest.raises(ConfigError, match="num_colours"):
        mj.make(ENV_ID, num_colours=10)


@pytest.fixture(scope="module")
def midgame():
    """Batches of positions from random play of the 4-player decay set (every phase)."""
    seen, _ = _random_play("four", batch=24, seed=7, steps=60)
    return seen[2::4]


def test_resample_keeps_what_the_seat_knows_and_redraws_the_rest(midgame) -> None:
    env = _env("four")
    observe, mask = _views("four")
    resample = jax.jit(jax.vmap(env.resample, in_axes=(0, None, 0)))
    changed_layout = changed_race = changed_seed = 0
    for state in midgame:
        live = ~np.asarray(state.terminated)
        for p in range(env.num_players):
            before = np.asarray(observe(state, p))
            to_move = live & (np.asarray(state.current_player) == p)
            for r in range(3):
                keys = jax.random.split(jax.random.PRNGKey(100 * p + r), live.size)
                new = resample(state, p, keys)
                np.testing.assert_array_equal(np.asarray(observe(new, p))[live], before[live])
                np.testing.assert_array_equal(
                    np.asarray(mask(new._x))[to_move], np.asarray(state.legal_action_mask)[to_move]
                )
                old_x, new_x = state._x, new._x
                changed_layout += int((np.asarray(old_x.layout) != new_x.layout).any(1).sum())
                changed_race += int(
                    (np.asarray(old_x.race_choice) != new_x.race_choice).any(1).sum()
                )
                changed_seed += int((np.asarray(old_x.seed) != new_x.seed).sum())
    # the hidden part is redrawn (so the checks above are not empty)
    assert changed_layout > 0 and changed_race > 0 and changed_seed > 0


def test_positions_differing_only_in_hidden_facts_look_the_same(midgame) -> None:
    env = _env("four")
    observe, mask = _views("four")
    compared = 0
    for state in midgame:
        x = jax.tree.map(np.asarray, state._x)
        live = (x.phase != 0) & (x.phase != 8)
        for p in range(env.num_players):
            hidden = (x.win[:, p] < 0) & (x.mem[:, p] < 0)  # [batch, k]
            rows = live & (hidden.sum(axis=1) >= 2)
            # swap two cubes that p neither remembers nor saw; the others' views follow
            layout = x.layout.copy()
            for b in np.flatnonzero(rows):
                s, u = np.flatnonzero(hidden[b])[:2]
                layout[b, s], layout[b, u] = layout[b, u], layout[b, s]
            # and change the other seats' sealed race choices
            choice = x.race_choice.copy()
            others = (np.arange(env.num_players) != p)[None, :] & (choice != -2)
            others &= (x.phase == RACE)[:, None]
            choice[others] = (choice[others] + 2) % env.tables.k
            other = x._replace(
                layout=layout,
                win=np.where(x.win >= 0, layout[:, None], -1),
                mem=np.where(x.mem >= 0, layout[:, None], -1),
                race_choice=choice,
            )
            other = jax.tree.map(jnp.asarray, other)
            same = np.asarray(observe(state, p)) == np.asarray(observe(state.replace(_x=other), p))
            assert same[live].all()
            to_move = live & (np.asarray(state.current_player) == p)
            np.testing.assert_array_equal(
                np.asarray(mask(other))[to_move], np.asarray(state.legal_action_mask)[to_move]
            )
            compared += int(rows.sum()) + int(others.sum())
    assert compared > 0
