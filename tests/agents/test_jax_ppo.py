"""The ``jax_ppo`` trainer: it learns, it is reproducible, its config is checked."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("jax")
pytest.importorskip("equinox")
pytest.importorskip("optax")

import jax.numpy as jnp
import numpy as np

from moon_agents.training.config import parse_config
from moon_envs.core.game import ConfigError

ENV = {"id": "jupiter_v0", "params": {"num_players": 2, "line_features": True}}
TINY: dict[str, Any] = {
    "name": "jax_ppo_tiny",
    "seed": 3,
    "env": ENV,
    "algorithm": {
        "name": "jax_ppo",
        "num_envs": 64,
        "num_steps": 32,
        "num_minibatches": 4,
        "hidden": [64, 64],
        "learning_rate": 1.0e-3,
        "snapshot_every": 4,
        "pool_size": 2,
    },
    "budget": {"total_timesteps": 65536},
    "eval": {"every_timesteps": 32768, "games": 20, "opponents": ["random"]},
    "export": "last",
}


def _train(out: Path) -> Any:
    from moon_agents.training.train import train

    config = parse_config(
        {**TINY, "output": {"dir": str(out), "progress_bar": False, "plot": False}}
    )
    return train(config, progress=False)


@pytest.fixture(scope="module")
def first_run(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return _train(tmp_path_factory.mktemp("first"))


def test_tiny_run_beats_random(first_run: Any) -> None:
    from moon_agents.evaluation.tournament import evaluate_against
    from moon_agents.net_agent import NetAgent

    assert first_run.timesteps == 65536
    summary = json.loads((first_run.run_dir / "summary.json").read_text())
    assert summary["algorithm"] == "jax_ppo" and summary["sgd_updates"] == 32 * 4 * 4
    assert first_run.snapshots == 1 + 32 // 4  # the initial network, then one per 4 rollouts
    agent = NetAgent.load(first_run.model_path)
    rate, lo, _ = evaluate_against(
        ENV["id"], agent, "random", 200, seed=11, env_params=ENV["params"]
    )
    assert rate > 0.65, (rate, lo)
    untrained = first_run.metrics[0]
    assert untrained["timesteps"] == 0 and untrained["eval_random_win_rate"] < 0.4
    last = first_run.metrics[-1]
    assert last["episodes_finished"] > 0 and 0.0 <= last["learner_win_rate"] <= 1.0
    assert last["entropy"] > 0.0 and np.isfinite(last["value_loss"])


def test_same_seed_same_metrics(first_run: Any, tmp_path: Path) -> None:
    second = _train(tmp_path)
    first_rows = (first_run.run_dir / "metrics.csv").read_text()
    assert first_rows == (second.run_dir / "metrics.csv").read_text()
    assert len(json.loads((second.run_dir / "metrics.json").read_text())) == 3


def test_stop_at_timesteps_is_the_start_of_the_longer_run(first_run: Any, tmp_path: Path) -> None:
    """``budget.stop_at_timesteps`` stops the run with the schedule of ``total_timesteps``:
    its rows and weights are the longer run's at that point (a shorter total would decay
    the learning rate sooner and give other weights)."""
    from moon_agents.net_weights import load_net
    from moon_agents.training.train import train

    half = TINY["eval"]["every_timesteps"]
    config = parse_config(
        {
            **TINY,
            "budget": {**TINY["budget"], "stop_at_timesteps": half},
            "output": {"dir": str(tmp_path), "progress_bar": False, "plot": False},
        }
    )
    stopped = train(config, progress=False)
    assert stopped.timesteps == half
    rows = (stopped.run_dir / "metrics.csv").read_text().splitlines()
    assert rows == (first_run.run_dir / "metrics.csv").read_text().splitlines()[: len(rows)]
    assert len(rows) == 1 + 2  # the header, decisions 0 and half
    ours, _ = load_net(stopped.model_path)
    theirs, _ = load_net(first_run.run_dir / "checkpoints" / f"step_{half}.npz")
    assert ours.keys() == theirs.keys()
    for name in ours:
        np.testing.assert_array_equal(ours[name], theirs[name])
    with pytest.raises(ConfigError, match=r"budget\.stop_at_timesteps: 70000 must be at most"):
        parse_config({**TINY, "budget": {**TINY["budget"], "stop_at_timesteps": 70000}})


def test_minibatches_must_divide_the_window() -> None:
    bad = {**TINY, "algorithm": {**TINY["algorithm"], "num_minibatches": 3}}
    with pytest.raises(ConfigError, match=r"algorithm\.num_minibatches: 3 does not divide"):
        parse_config(bad)
    with pytest.raises(ConfigError, match=r"algorithm\.self_play_fraction"):
        parse_config({**TINY, "algorithm": {**TINY["algorithm"], "self_play_fraction": 1.5}})


def test_advantages_follow_the_mover() -> None:
    from moon_agents.training.jax.ppo import advantages

    # seat 0 moves twice (discount +1), then seat 1 moves (-1) and wins: the game ends
    reward = jnp.array([[0.0], [0.0], [1.0]])
    discount = jnp.array([[1.0], [-1.0], [0.0]])
    value = jnp.array([[0.1], [0.2], [0.3]])
    adv = advantages(reward, discount, value, jnp.array([0.9]), 1.0, 1.0)
    np.testing.assert_allclose(np.asarray(adv)[:, 0], [-1.1, -1.2, 0.7], rtol=1e-6)
    half = advantages(reward, discount, value, jnp.array([0.9]), 1.0, 0.5)
    np.testing.assert_allclose(np.asarray(half)[:, 0], [0.1 + 0.5 * -0.85, -0.85, 0.7], rtol=1e-6)


def test_masked_policy_ignores_illegal_actions() -> None:
    from moon_agents.training.jax.ppo import masked_entropy, masked_log_probs

    logits = jnp.array([[5.0, 0.0, 0.0, 9.0]])
    legal = jnp.array([[False, True, True, False]])
    log_probs = masked_log_probs(logits, legal)
    np.testing.assert_allclose(np.exp(np.asarray(log_probs))[0], [0.0, 0.5, 0.5, 0.0], atol=1e-7)
    np.testing.assert_allclose(np.asarray(masked_entropy(log_probs, legal)), [np.log(2.0)])


def test_margin_shaping_sums_to_the_final_margin() -> None:
    """Shaping is paid to the mover at each decision; over a whole game, seen from seat 0
    through the signed discounts, it adds up to ``k`` times seat 0's final score margin."""
    import jax

    import moon_envs.jax as mj
    from moon_agents.training.jax.ppo import JaxPPO

    config = parse_config({**TINY, "env": {**ENV, "margin_shaping": 0.5}})
    trainer = JaxPPO(config, mj.make(ENV["id"], **ENV["params"]))
    assert trainer.shaping == 0.5
    twin = trainer.twin
    n = 8
    states = jax.vmap(twin.init)(jax.random.split(jax.random.key(5), n))
    from_seat0 = np.zeros(n)
    step = jax.jit(jax.vmap(twin.step))
    change = jax.jit(trainer._margin_change)
    for i in range(200):
        keys = jax.random.split(jax.random.key(100 + i), 2 * n)
        logits = jax.random.uniform(keys[0], (n, twin.num_actions))
        action = jnp.argmax(jnp.where(states.legal_action_mask, logits, -1.0), axis=1)
        mover = states.current_player
        nxt = step(states, action, keys[n:])
        live = ~np.asarray(states.terminated)
        sign = np.where(np.asarray(mover) == 0, 1.0, -1.0)
        from_seat0 += live * sign * np.asarray(change(states, nxt, mover))
        states = nxt
    assert bool(jnp.all(states.terminated))
    scores = np.asarray(jax.vmap(twin.scores)(states), dtype=float)
    np.testing.assert_allclose(from_seat0, scores[:, 0] - scores[:, 1])
    assert np.any(scores[:, 0] != scores[:, 1])


def test_shaping_and_reward_mode_are_checked() -> None:
    shaped = parse_config({**TINY, "env": {**ENV, "margin_shaping": 0.05}})
    assert shaped.env.margin_shaping == 0.05
    az = {**TINY, "algorithm": {"name": "alphazero"}, "env": {**ENV, "margin_shaping": 0.05}}
    with pytest.raises(ConfigError, match=r"env\.margin_shaping: the alphazero trainer"):
        parse_config(az)
    score = {**TINY, "env": {**ENV, "params": {**ENV["params"], "reward_mode": "score"}}}
    with pytest.raises(ConfigError, match=r"env\.params\.reward_mode: .*allowed: 'win'"):
        parse_config(score)


def test_heuristic_fraction_needs_a_heuristic_on_the_twin() -> None:
    with pytest.raises(
        ConfigError,
        match=r"algorithm\.heuristic_fraction: jupiter_v0 has no heuristic .*"
        r"allowed: 0 \(games with one: \['moon_harvesters'\]\)",
    ):
        parse_config({**TINY, "algorithm": {**TINY["algorithm"], "heuristic_fraction": 0.5}})


# Moon Harvesters trainers with one shape: the self-play and heuristic shares and the
# learner's seat against the heuristic are arguments of the jitted rollout, so every
# trainer below runs the program compiled for the first one (a Moon Harvesters game is
# about 70 decisions: one rollout finishes about one game in each of the 64)
HARVESTERS = {"id": "moon_harvesters_v0", "params": {"num_players": 2}}
HARVESTERS_ALGORITHM = {**TINY["algorithm"], "num_envs": 64, "num_steps": 96, "num_epochs": 1}


def _harvesters_trainer(**algorithm: Any) -> Any:
    import moon_envs.jax as mj
    from moon_agents.training.jax.ppo import JaxPPO

    data = {**TINY, "env": HARVESTERS, "algorithm": {**HARVESTERS_ALGORITHM, **algorithm}}
    return JaxPPO(parse_config(data), mj.make(HARVESTERS["id"], **HARVESTERS["params"]))


def _rollout_program(trainer: Any) -> str:
    """The text of the program ``trainer`` compiles for its rollouts."""
    pool_len = jnp.int32(1)
    args = (trainer.params, trainer.pool, pool_len, trainer.mix, trainer.games, trainer.key)
    return trainer._play.lower(*args).as_text()


def test_heuristic_games_face_the_greedy_player() -> None:
    """With every non-self-play game against greedy, an untrained learner loses nearly all
    of them; against a snapshot of itself (the pool) it wins about half."""
    rates, programs = {}, []
    for fraction in (1.0, 0.0):
        trainer = _harvesters_trainer(self_play_fraction=0.0, heuristic_fraction=fraction)
        stats = trainer.iteration()
        programs.append(_rollout_program(trainer))
        if fraction:
            assert stats["pool_episodes"] == 0 and stats["heuristic_episodes"] > 20
            rates[fraction] = stats["heuristic_win_rate"]
        else:
            assert "heuristic_episodes" not in stats and stats["pool_episodes"] > 20
            rates[fraction] = stats["learner_win_rate"]
    assert rates[1.0] < 0.15 < 0.3 < rates[0.0] < 0.7, rates
    assert programs[0] == programs[1]  # the shares are arguments: one compile for both


def test_heuristic_learner_seat_fixes_the_learner_seat_against_greedy() -> None:
    """``heuristic_learner_seat`` seats the learner there in every game against greedy,
    at the start and in the games that restart during a rollout; the others stay drawn."""
    seat = 1  # were the setting lost, about half of these games would seat the learner at 0
    trainer = _harvesters_trainer(
        self_play_fraction=0.2, heuristic_fraction=0.5, heuristic_learner_seat=seat
    )
    for rollouts in range(2):  # before and after a rollout that restarts finished games
        if rollouts:
            stats = trainer.iteration()
            assert stats["episodes_finished"] > 20  # games restarted during the rollout
        seats, self_play, _, heuristic = (np.asarray(x) for x in trainer.games[1:])
        assert heuristic.sum() >= 10 and (seats[heuristic] == seat).all()
        others = seats[~heuristic & ~self_play]
        assert len(others) >= 10 and set(others.tolist()) == {0, 1}
    with pytest.raises(
        ConfigError, match=r"algorithm\.heuristic_learner_seat: only with heuristic_fraction"
    ):
        parse_config({**TINY, "algorithm": {**TINY["algorithm"], "heuristic_learner_seat": 1}})
    with pytest.raises(ConfigError, match=r"heuristic_learner_seat"):
        algo = {**HARVESTERS_ALGORITHM, "heuristic_fraction": 0.5, "heuristic_learner_seat": 2}
        parse_config({**TINY, "env": HARVESTERS, "algorithm": algo})


def test_opening_plies_start_every_game_after_random_moves() -> None:
    """``opening_plies``: every game starts after that many random legal moves: at the
    start of the run, and when it restarts during a rollout, from its lane's opening of
    that rollout; the openings differ from lane to lane."""
    import jax

    plies = 4
    trainer = _harvesters_trainer(self_play_fraction=0.0, opening_plies=plies)
    assert (np.asarray(trainer.games[0]._step_count) == plies).all()
    key = jax.random.key(11)
    args = (trainer.params, trainer.pool, jnp.int32(1), trainer.mix, trainer.games, key)
    _, rec = trainer._play(*args)
    bank = trainer._openings(jax.random.fold_in(key, 17))  # the rollout's openings
    assert (np.asarray(bank._step_count) == plies).all()
    boards = np.asarray(trainer._flat(bank))
    assert len(np.unique(boards, axis=0)) > 32  # of 64 lanes
    ended, obs = np.asarray(rec["ended"]), np.asarray(rec["obs"])
    restarts = [(t, lane) for t, lane in zip(*np.nonzero(ended[:-1]))]
    assert len(restarts) > 20
    for t, lane in restarts:  # the next decision of that lane is its opening's
        np.testing.assert_array_equal(obs[t + 1, lane], boards[lane])
    with pytest.raises(ConfigError, match=r"opening_plies"):
        algo = {**HARVESTERS_ALGORITHM, "opening_plies": 33}
        parse_config({**TINY, "env": HARVESTERS, "algorithm": algo})
