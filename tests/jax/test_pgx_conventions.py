"""pgx's calling conventions on the twins: ``step`` without a key, ``observe(state)``,
``state.env_id``, ``auto_reset`` and the shipped networks as JAX functions.

Jupiter (the cheapest twin, with chance) carries most checks; Moon Harvesters is the twin
without chance, Star Master and Moonstar the other twins with chance for the key rule.
Compiled functions are built once per module and shapes are few.
"""

from __future__ import annotations

import inspect

import pytest

pytest.importorskip("jax")

import jax
import jax.numpy as jnp
import numpy as np

import moon_envs.jax as mj
from moon_agents.jax_baseline import BaselineModel, baseline, list_baselines
from moon_agents.net_agent import NetAgent
from moon_agents.zoo import TRAINED_DIR
from moon_envs import ConfigError

BATCH = 4
STEPS = 40  # Jupiter's random 2-player games end within about 30 decisions


def _random_actions(mask: jax.Array, key: jax.Array) -> jax.Array:
    return jax.random.categorical(key, jnp.where(mask, 0.0, -jnp.inf), axis=-1)


def _same(a, b) -> bool:
    """Two pytrees with the same structure (env_id included) and equal leaves."""
    if jax.tree.structure(a) != jax.tree.structure(b):
        return False
    return all(np.array_equal(x, y) for x, y in zip(jax.tree.leaves(a), jax.tree.leaves(b)))


@pytest.fixture(scope="module")
def jupiter():
    """Jupiter with the parameters of its shipped network, and its jitted batched calls."""
    env = baseline("jupiter_v0").make_env()
    init = jax.jit(jax.vmap(env.init))
    step = jax.jit(jax.vmap(env.step))
    return env, init, step


@pytest.fixture(scope="module")
def harvesters():
    """Moon Harvesters (no chance events): a batch of two set-ups, and the positions three
    random moves later, played without a key and with one."""
    env = baseline("moon_harvesters_v0").make_env()
    start = jax.jit(jax.vmap(env.init))(jax.random.split(jax.random.PRNGKey(3), 2))

    @jax.jit
    @jax.vmap
    def play_both_ways(state, key):
        def move(i, carry):
            without, with_key, key = carry
            key, k_act, k_step = jax.random.split(key, 3)
            action = _random_actions(without.legal_action_mask, k_act)
            return env.step(without, action), env.step(with_key, action, k_step), key

        return jax.lax.fori_loop(0, 3, move, (state, state, key))[:2]

    without, with_key = play_both_ways(start, jax.random.split(jax.random.PRNGKey(4), 2))
    return env, start, without, with_key


@pytest.fixture(scope="module")
def auto_reset_run(jupiter):
    """A batch of Jupiter games played through ``auto_reset`` under ``vmap``: the states
    before and after each call, with the actions and keys."""
    env, init, _ = jupiter
    auto_step = jax.jit(jax.vmap(mj.auto_reset(env.step, env.init)))
    state = init(jax.random.split(jax.random.PRNGKey(0), BATCH))
    key = jax.random.PRNGKey(1)
    calls = []
    for _ in range(STEPS):
        key, k_act, k_step = jax.random.split(key, 3)
        action = _random_actions(state.legal_action_mask, k_act)
        keys = jax.random.split(k_step, BATCH)
        after = auto_step(state, action, keys)
        calls.append((state, action, keys, after))
        state = after
    return calls


# ---- the signatures are pgx's --------------------------------------------------------------


def test_step_and_observe_take_pgx_arguments(jupiter) -> None:
    env = jupiter[0]
    step = inspect.signature(env.step).parameters
    observe = inspect.signature(env.observe).parameters
    assert list(step) == ["state", "action", "key"] and step["key"].default is None
    assert list(observe) == ["state", "player_id"] and observe["player_id"].default is None
    pgx = pytest.importorskip("pgx")
    for name in ("step", "observe"):
        ours = inspect.signature(getattr(env, name)).parameters
        theirs = inspect.signature(getattr(pgx.Env, name)).parameters
        assert [(p, ours[p].default) for p in ours] == [
            (p, theirs[p].default) for p in theirs if p != "self"
        ]


# ---- step without a key ----------------------------------------------------------------------


@pytest.mark.parametrize("env_id", ["jupiter_v0", "star_master_v0", "moonstar_v1"])
def test_a_twin_with_chance_refuses_a_missing_key_naming_it(env_id: str, jupiter) -> None:
    env = jupiter[0] if env_id == "jupiter_v0" else mj.make(env_id)
    assert env.spec.has_chance
    for call in (env.step, jax.jit(env.step)):
        with pytest.raises(TypeError, match=r"needs key.*chance") as err:
            call(None, 0)  # refused before the state is read
        assert env_id in str(err.value) and "\n" not in str(err.value)


def test_a_twin_without_chance_steps_without_a_key(harvesters) -> None:
    env, start, without, with_key = harvesters
    assert not env.spec.has_chance
    assert _same(without, with_key)
    assert (without._step_count == 3).all() and not without.terminated.any()
    assert not np.array_equal(without.observation, start.observation)


# ---- observe(state) ------------------------------------------------------------------------


def test_observe_without_player_id_is_the_view_of_the_player_to_move(auto_reset_run, jupiter):
    env = jupiter[0]
    observe = jax.jit(jax.vmap(env.observe))
    observe_seat = jax.jit(jax.vmap(lambda s, p: env.observe(s, player_id=p)))
    differs = False
    for state, _, _, _ in auto_reset_run[::5]:
        np.testing.assert_array_equal(observe(state), state.observation)
        np.testing.assert_array_equal(observe_seat(state, state.current_player), state.observation)
        other = observe_seat(state, 1 - state.current_player)
        differs |= not np.array_equal(other, state.observation)
    assert differs  # player_id is read: the other seat's view is another vector
    at_chance = env.initial_state()  # explicit layer: a die roll pending, no seat to move
    assert bool(at_chance.is_chance) and int(at_chance.current_player) == -1
    np.testing.assert_array_equal(env.observe(at_chance), at_chance.observation)


# ---- state.env_id --------------------------------------------------------------------------


def test_env_id_is_static_metadata_on_every_state(jupiter, auto_reset_run) -> None:
    env = jupiter[0]
    state = auto_reset_run[-1][-1]
    assert state.env_id == env.id == "jupiter_v0"
    assert env.initial_state().env_id == "jupiter_v0"
    leaves = jax.tree.leaves(state)
    assert all(isinstance(leaf, jax.Array) for leaf in leaves)  # no string among the leaves
    rebuilt = jax.tree.unflatten(jax.tree.structure(state), leaves)
    assert rebuilt.env_id == "jupiter_v0"
    # jit sees it as a constant: Python code may branch on it
    tag = jax.jit(lambda s: s._step_count + (1 if s.env_id == "jupiter_v0" else 2))
    np.testing.assert_array_equal(tag(state), state._step_count + 1)
    # it is part of the tree's structure: states of two twins do not mix leaf by leaf
    other = state.replace(env_id="moon_harvesters_v0")
    assert jax.tree.structure(other) != jax.tree.structure(state)
    with pytest.raises(ValueError):
        jax.tree.map(lambda a, b: a, state, other)


# ---- auto_reset -------------------------------------------------------------------------


def _lane(state, lane: int):
    return jax.tree.map(lambda leaf: np.asarray(leaf)[lane], state)


def test_auto_reset_restarts_the_lanes_that_ended_and_only_those(jupiter, auto_reset_run):
    """Each call is checked lane by lane against its definition: drop a finished game's
    flags, step with the first half of the key; where that ends the game, the second
    half's new game with the finished game's flags and rewards."""
    _, init, step = jupiter
    seen = {"ended": 0, "kept": 0, "played after a restart": 0}
    for before, action, keys, after in auto_reset_run:
        step_keys, init_keys = jax.vmap(jax.random.split, out_axes=1)(keys)
        cleared = before.replace(
            terminated=jnp.zeros_like(before.terminated),
            rewards=jnp.zeros_like(before.rewards),
        )
        stepped, restarted = step(cleared, action, step_keys), init(init_keys)
        for lane in range(BATCH):
            got, played = _lane(after, lane), _lane(stepped, lane)
            if played.terminated:
                seen["ended"] += 1
                expected = _lane(restarted, lane).replace(
                    terminated=played.terminated, rewards=played.rewards
                )
                assert np.abs(played.rewards).sum() > 0  # the finished game's result
                assert got._step_count == 0 and not got.legal_action_mask.all()
            else:
                seen["kept"] += 1
                expected = played
                if before.terminated[lane]:  # the new game's first action
                    seen["played after a restart"] += 1
                    assert got._step_count == 1 and not got.terminated
            assert _same(got, expected), f"lane {lane}"
    assert all(seen.values()), seen


def test_auto_reset_needs_a_key(jupiter) -> None:
    env = jupiter[0]
    with pytest.raises(TypeError, match="needs key"):
        mj.auto_reset(env.step, env.init)(env.initial_state(), 0)


# ---- the shipped networks as JAX functions ------------------------------------------------


@pytest.mark.parametrize(
    "env_id", ["jupiter_v0", "moon_harvesters_v0", "moonstar_v1", "star_master_v0"]
)
def test_baseline_gives_the_numpy_agents_logits(env_id: str, auto_reset_run, harvesters) -> None:
    if env_id not in list_baselines():
        pytest.skip(f"no network shipped for {env_id}")
    model = baseline(env_id)
    assert isinstance(model, BaselineModel) and model.env_id == env_id
    agent = NetAgent.load(TRAINED_DIR / f"{model.description['game']}.npz")
    if env_id == "jupiter_v0":  # positions from games in play
        observations = jnp.concatenate([c[0].observation for c in auto_reset_run[5:25:5]])
    elif env_id == "moon_harvesters_v0":
        _, start, played, _ = harvesters
        observations = jnp.concatenate([start.observation, played.observation])
    elif env_id == "star_master_v0":  # set-ups drawn with two keys, every seat's view
        env = model.make_env()

        def views(key):
            state = env.init(key)
            return jax.vmap(lambda p: env.observe(state, p))(jnp.arange(env.num_players))

        views = jax.jit(jax.vmap(views))(jax.random.split(jax.random.PRNGKey(5), 2))
        observations = views.reshape(-1, views.shape[-1])
    else:  # Moonstar: positions of a random game, the auction and the moves among them
        observations, masks = _python_positions(env_id, model.game_config, agent)
    features = model.description.get("input_features")
    args = (observations, masks) if features else (observations,)
    logits, value = jax.jit(model)(*args)
    assert logits.shape == (observations.shape[0], model.description["num_actions"])
    assert value.shape == (observations.shape[0],)
    assert len(np.unique(np.asarray(observations), axis=0)) > 1  # several positions
    for row, obs in enumerate(np.asarray(observations)):
        want_logits, want_value = agent.evaluate(obs, np.asarray(masks[row]) if features else None)
        np.testing.assert_allclose(logits[row], want_logits, rtol=1e-5, atol=1e-4)
        assert abs(float(value[row]) - want_value) < 1e-5
    one_logits, _ = model(*(a[0] for a in args))  # one observation, unbatched
    np.testing.assert_allclose(one_logits, logits[0], rtol=1e-5, atol=1e-5)
    if features:  # the mask is part of the input: a call without it is refused by name
        with pytest.raises(ConfigError, match="legal_action_mask"):
            model(observations)


def _python_positions(env_id, params, agent):
    """Observations and masks of the seat to move along one random Python game, the
    network's agent having met the game (its input features read the game's layout)."""
    import moon_envs

    env = moon_envs.make(env_id, **params)
    env.reset(seed=3)
    agent.reset(env.game, 0)
    rng = np.random.default_rng(3)
    observations, masks, phases = [], [], set()
    while env.agents and len(observations) < 40:
        name = env.agent_selection
        seen = env.observe(name)
        observations.append(seen["observation"])
        masks.append(seen["action_mask"])
        phases.add(env.game_state.phase)
        env.step(int(rng.choice(np.flatnonzero(seen["action_mask"]))))
    assert {"auction", "play"} <= phases
    return jnp.asarray(np.stack(observations)), jnp.asarray(np.stack(masks))


def test_a_variant_baseline_is_its_network_on_its_game() -> None:
    from moon_agents.zoo import trained_model

    model = baseline("moonstar_v1", "trained:game=11")
    assert model.game_config["game"] == 11 and model.make_env().config.game == 11
    agent = NetAgent.load(trained_model("moonstar", "trained:game=11"))
    observations, masks = _python_positions("moonstar_v1", model.game_config, agent)
    logits, value = jax.jit(model)(observations, masks)
    for row in (0, len(observations) // 2, len(observations) - 1):
        obs, mask = np.asarray(observations[row]), np.asarray(masks[row])
        want_logits, want_value = agent.evaluate(obs, mask)
        np.testing.assert_allclose(logits[row], want_logits, rtol=1e-5, atol=1e-4)
        assert abs(float(value[row]) - want_value) < 1e-5
    with pytest.raises(ConfigError, match=r"agent='trained:game=7'.*allowed: \['trained', 'tr"):
        baseline("moonstar_v1", "trained:game=7")


def test_baseline_refuses_ids_and_shapes_it_cannot_serve() -> None:
    with pytest.raises(ConfigError, match=r"moonwakers_v0.*ids with one: \['jupiter_v0'"):
        baseline("moonwakers_v0")  # v1 has a network; v0 has neither a twin nor one
    model = baseline("jupiter_v0")
    with pytest.raises(ConfigError, match=r"shape \(3, 5\).*\[\.\.\., 206\]"):
        model(jnp.zeros((3, 5)))
