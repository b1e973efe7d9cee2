"""AlphaZero-style self-play on a JAX twin: Gumbel MuZero policy improvement (mctx).

Every iteration plays ``algorithm.games`` games in lock-step for ``algorithm.unroll``
decisions (a finished game restarts in place), all inside one jitted ``lax.scan``:

* at each decision, ``mctx.gumbel_muzero_policy`` searches ``simulations`` simulations
  from the position, with the twin's ``step`` as the model: the network gives priors
  and leaf values, each tree node holds one chance outcome sampled with the search key;
* every value is from the view of the seat to move, so the discount between two nodes
  is ``+1`` when the same seat moves again (Jupiter's roll, then placement), ``-1`` when
  the turn passes and ``0`` at the end of the game;
* in a hidden-information game (Star Master; Moonstar Game 11) the search starts from
  ``twin.resample(state, seat, key)``: a position redrawn from what the seat may know,
  so the tree never reads the others' hidden cards or bets;
* the move played is the search's action, the policy target its improved policy
  (``action_weights``), the value target the game's final reward for the seat to move.
  Positions whose game has not ended inside the window get no target and are dropped
  (``value_target: outcome``), or are valued by the network at the window's end
  (``value_target: bootstrap``, for games much longer than a window: Moonstar, Star
  Master).

On ``algorithm.devices: N`` devices (:mod:`moon_agents.training.jax.devices`) the
``games`` and the SGD ``batch_size`` are per device: ``N * games`` games are played in
lock-step, split over the devices, and each SGD step takes ``N * batch_size`` samples,
split too, its gradient averaged over all of them.

Targets go to a replay of the last ``replay_size`` positions; each iteration then takes
``sample_reuse`` SGD samples per new position (AdamW, cosine-decayed learning rate,
cross-entropy on the policy, squared error on the value). With ``augment: true`` every
sample is seen through a random symmetry of the rules (the twin's ``random_symmetry``:
Jupiter's row and column permutations and transpose).
"""

from __future__ import annotations

import math
import time
from typing import Any

import equinox as eqx
import jax
import jax.numpy as jnp
import mctx
import numpy as np
import optax

from moon_agents.training.jax.devices import Devices
from moon_agents.training.jax.network import PolicyValueNet, batched, initial_net, to_arrays

Array = jax.Array
NEG = -1e9


def select_games(pred: Array, a: Any, b: Any) -> Any:
    """``a`` where ``pred`` (one bool per game) else ``b``, leaf by leaf."""

    def pick(x: Array, y: Array) -> Array:
        p = pred.reshape(pred.shape + (1,) * (x.ndim - pred.ndim))
        return jnp.where(p, x, y)

    return jax.tree.map(pick, a, b)


def transition(twin: Any, state: Any, nxt: Any) -> tuple[Array, Array]:
    """Reward of the seat that moved and the discount to the next seat's value
    (+1 same seat, -1 the other seat, 0 once the game is over), batched."""
    mover = state.current_player
    reward = jnp.take_along_axis(nxt.rewards, mover[:, None], axis=1)[:, 0]
    same = nxt.current_player == mover
    discount = jnp.where(nxt.terminated, 0.0, jnp.where(same, 1.0, -1.0))
    return reward, discount


class AlphaZero:
    """The trainer's state and jitted steps for one config and twin."""

    RESUME_TREES = ("params", "opt_state", "key", "states")
    """The trees a resume state holds (with the replay and ``rng``; see
    :mod:`moon_agents.training.jax.checkpointing`)."""
    RESUME_COUNTERS = ("decisions", "updates")

    def __init__(self, config: Any, twin: Any) -> None:
        self.cfg = config.algorithm
        self.twin = twin
        self.devices = Devices(config.algorithm.devices)
        self.num_games = config.algorithm.games * self.devices.count
        self.batch_size = config.algorithm.batch_size * self.devices.count
        self.hidden_information = bool(twin.spec.hidden_information)
        a = self.cfg
        obs_size = int(np.prod(twin.observation_shape))
        key = jax.random.key(config.seed)
        net = initial_net(config, twin, key)
        params, self.static = eqx.partition(net, eqx.is_array)
        self.params = self.devices.replicate(params)
        budget = config.budget.total_timesteps
        updates = (budget or 10_000_000) * a.sample_reuse / self.batch_size
        schedule = optax.cosine_decay_schedule(
            a.learning_rate, max(int(updates), 1), alpha=a.final_learning_rate / a.learning_rate
        )
        self.optimizer = optax.chain(
            optax.clip_by_global_norm(a.max_grad_norm),
            optax.adamw(schedule, weight_decay=a.weight_decay),
        )
        self.opt_state = self.devices.replicate(self.optimizer.init(params))
        self.key = jax.random.key(config.seed + 1)
        self.key, init_key = jax.random.split(self.key)
        states = jax.jit(jax.vmap(twin.init))(jax.random.split(init_key, self.num_games))
        self.states = self.devices.split(states)
        self.rng = np.random.default_rng(config.seed)
        self.replay = _Replay(a.replay_size, obs_size, twin.num_actions)
        self._play = jax.jit(self._play_window)
        self._update = jax.jit(self._sgd_step)
        self.decisions = 0
        self.updates = 0

    # ---- the network ----------------------------------------------------------------------
    def net(self, params: Any) -> PolicyValueNet:
        return eqx.combine(params, self.static)

    def arrays(self) -> dict[str, np.ndarray]:
        """The current parameters under the weight file's names."""
        return to_arrays(self.net(self.params))

    def _evaluate(self, params: Any, state: Any) -> tuple[Array, Array]:
        logits, value = batched(self.net(params), state.observation)
        return jnp.where(state.legal_action_mask, logits, NEG), value

    # ---- search ---------------------------------------------------------------------------
    def _recurrent(self, params: Any, key: Array, action: Array, state: Any) -> tuple[Any, Any]:
        nxt = jax.vmap(self.twin.step)(state, action, jax.random.split(key, action.shape[0]))
        reward, discount = transition(self.twin, state, nxt)
        logits, value = self._evaluate(params, nxt)
        value = jnp.where(nxt.terminated, 0.0, value)
        out = mctx.RecurrentFnOutput(
            reward=reward, discount=discount, prior_logits=logits, value=value
        )
        return out, nxt

    def search(self, params: Any, key: Array, states: Any) -> Any:
        """One Gumbel MuZero search per game of the batch ``states``."""
        a = self.cfg
        k_resample, k_search = jax.random.split(key)
        if self.hidden_information:
            keys = jax.random.split(k_resample, states.current_player.shape[0])
            states = jax.vmap(self.twin.resample)(states, states.current_player, keys)
        logits, value = self._evaluate(params, states)
        root = mctx.RootFnOutput(prior_logits=logits, value=value, embedding=states)
        return mctx.gumbel_muzero_policy(
            params,
            k_search,
            root,
            self._recurrent,
            num_simulations=a.simulations,
            invalid_actions=~states.legal_action_mask,
            max_num_considered_actions=a.max_considered_actions,
            gumbel_scale=a.gumbel_scale,
        )

    # ---- self-play ------------------------------------------------------------------------
    def _play_window(self, params: Any, states: Any, key: Array) -> tuple[Any, dict[str, Array]]:
        n = self.num_games

        def one(states: Any, key: Array) -> tuple[Any, dict[str, Array]]:
            k_search, k_step, k_init = jax.random.split(key, 3)
            out = self.search(params, k_search, states)
            nxt = jax.vmap(self.twin.step)(states, out.action, jax.random.split(k_step, n))
            reward, discount = transition(self.twin, states, nxt)
            fresh = jax.vmap(self.twin.init)(jax.random.split(k_init, n))
            record = {
                "obs": states.observation.reshape(n, -1).astype(jnp.float32),
                "policy": out.action_weights,
                "reward": reward,
                "discount": discount,
                "ended": nxt.terminated,
            }
            return self.devices.constrain(select_games(nxt.terminated, fresh, nxt)), record

        states, rec = jax.lax.scan(one, states, jax.random.split(key, self.cfg.unroll))

        def back(v_next: Array, x: tuple[Array, Array]) -> tuple[Array, Array]:
            reward, discount = x  # discount 0 at a game's end cuts the sum there
            v = reward + discount * v_next
            return v, v

        finished = jax.lax.cummax(rec["ended"].astype(jnp.int32), axis=0, reverse=True) > 0
        if self.cfg.value_target == "bootstrap":  # unfinished games: the network's value
            end = self._evaluate(params, states)[1]
            valid = jnp.ones_like(finished)
        else:
            end, valid = jnp.zeros(n), finished
        _, value = jax.lax.scan(back, end, (rec["reward"], rec["discount"]), reverse=True)
        rec["value"] = value
        rec["valid"] = valid
        return states, rec

    def _sgd_step(
        self, params: Any, opt_state: Any, obs: Array, policy: Array, value: Array, key: Array
    ) -> tuple[Any, Any, dict[str, Array]]:
        if self.cfg.augment:  # each sample seen through its own random symmetry
            obs_index, action_index = jax.vmap(self.twin.random_symmetry)(
                jax.random.split(key, obs.shape[0])
            )
            obs = jnp.take_along_axis(obs, obs_index, axis=1)
            policy = jnp.take_along_axis(policy, action_index, axis=1)

        def loss_fn(p: Any) -> tuple[Array, dict[str, Array]]:
            logits, v = batched(self.net(p), obs)
            policy_loss = optax.softmax_cross_entropy(logits, policy).mean()
            value_loss = jnp.mean((v - value) ** 2)
            total = policy_loss + self.cfg.value_weight * value_loss
            return total, {"policy_loss": policy_loss, "value_loss": value_loss}

        (_, stats), grads = jax.value_and_grad(loss_fn, has_aux=True)(params)
        updates, opt_state = self.optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, stats

    def iteration(self) -> dict[str, float]:
        """One window of self-play, then its share of SGD steps; returns statistics."""
        a = self.cfg
        start = time.perf_counter()
        self.key, k_play = jax.random.split(self.key)
        self.states, rec = self._play(self.params, self.states, k_play)
        rec = self.devices.gather(rec)
        played = time.perf_counter()
        valid = rec["valid"].reshape(-1)
        self.replay.add(
            rec["obs"].reshape(-1, rec["obs"].shape[-1])[valid],
            rec["policy"].reshape(-1, rec["policy"].shape[-1])[valid],
            rec["value"].reshape(-1)[valid],
        )
        self.decisions += self.num_games * a.unroll
        new = int(valid.sum())
        batch = self.batch_size
        steps = max(1, math.ceil(new * a.sample_reuse / batch)) if len(self.replay) else 0
        losses: list[dict[str, Any]] = []
        for _ in range(steps):
            idx = self.rng.integers(0, len(self.replay), size=batch)
            obs, pol, val = self.devices.split(self.replay.batch(idx))
            self.key, k_sym = jax.random.split(self.key)
            self.params, self.opt_state, stats = self._update(
                self.params, self.opt_state, obs, pol, val, k_sym
            )
            losses.append(stats)
        self.updates += steps
        jax.block_until_ready(self.params)
        ended = rec["ended"]
        out = {
            "selfplay_s": played - start,
            "learn_s": time.perf_counter() - played,
            "games_finished": int(ended.sum()),
            "positions_kept": new,
            "sgd_steps": steps,
        }
        if losses:
            last = jax.device_get(losses)
            for k in ("policy_loss", "value_loss"):
                out[k] = float(np.mean([s[k] for s in last]))
        wins = rec["reward"][ended]
        out["draw_rate"] = float(np.mean(wins == 0)) if wins.size else math.nan
        return out


class _Replay:
    """A ring buffer of (observation, policy target, value target) on the host."""

    def __init__(self, capacity: int, obs_size: int, num_actions: int) -> None:
        self.obs = np.zeros((capacity, obs_size), np.float32)
        self.policy = np.zeros((capacity, num_actions), np.float32)
        self.value = np.zeros((capacity,), np.float32)
        self.capacity = capacity
        self.size = 0
        self.head = 0

    def __len__(self) -> int:
        return self.size

    def add(self, obs: np.ndarray, policy: np.ndarray, value: np.ndarray) -> None:
        n = obs.shape[0]
        if n > self.capacity:
            obs, policy, value = (
                obs[-self.capacity :],
                policy[-self.capacity :],
                value[-self.capacity :],
            )
            n = self.capacity
        idx = (self.head + np.arange(n)) % self.capacity
        self.obs[idx], self.policy[idx], self.value[idx] = obs, policy, value
        self.head = (self.head + n) % self.capacity
        self.size = min(self.size + n, self.capacity)

    def batch(self, idx: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return self.obs[idx], self.policy[idx], self.value[idx]
