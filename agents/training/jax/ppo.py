"""PPO on batched JAX twins (the PureJaxRL recipe): masked actions, a self-play pool.

Every iteration steps ``algorithm.num_envs`` games in lock-step for ``num_steps``
decisions (a finished game restarts in place), all inside one jitted ``lax.scan``:

* each game has a learner seat (0 or 1, drawn when the game starts) and an opponent:
  with probability ``self_play_fraction`` the learner plays every seat, otherwise the
  other seat is played by a frozen snapshot drawn uniformly from the pool. The pool
  holds up to ``pool_size`` past parameter sets stacked on a leading axis (it starts
  with the initial network; every ``snapshot_every`` iterations the current parameters
  join it, replacing the oldest once it is full; a game in progress keeps its slot;
  ``pool_keep_initial`` keeps the starting network in slot 0 for the whole run;
  ``opponent_net`` fills the one slot with a frozen network file, of any architecture,
  that no snapshot replaces: a best response to that network; with ``opponent_argmax``
  it plays its most probable legal action, as the ``az:`` agent does). With
  ``pool_size: 0`` every game is self-play. With ``heuristic_fraction: h``, a share ``h``
  of the games that are not self-play face the game's heuristic running on the twin
  (:func:`moon_agents.zoo.jax_heuristic`) instead of a snapshot: a fixed opponent that
  self-play cannot drift away from. ``heuristic_learner_seat: s`` seats the learner at
  ``s`` in every such game (the seat where its results are still to be won);
* every action is sampled from the mover's policy over the legal actions only (illegal
  logits are set to ``-1e9``);
* rewards are the game's win rewards (``+1`` / ``-1`` / ``0`` at the end), plus, with
  ``env.margin_shaping: k``, ``k`` times the change of the mover's score minus the mean
  of the others' scores over each decision (the SB3 trainer's shaping, zero-sum between
  the seats, so it fits the signed discounts below). Every value is
  from the view of the seat to move, so the discount between two decisions is ``+1``
  when the same seat moves again (Jupiter's roll, then placement), ``-1`` when the turn
  passes and ``0`` at the end of the game. Generalized advantage estimation runs
  backwards through every decision with these signed discounts and the learner's value
  at every position, the opponent's included; the last position of the window is
  bootstrapped with its value.

The update trains on the learner's own decisions only: ``num_epochs`` passes over the
window, each split into ``num_minibatches`` shuffled minibatches. The loss is PPO's
clipped surrogate, plus ``vf_coef`` times the squared error of the value against the
GAE return, minus ``ent_coef`` times the entropy of the masked policy, each a mean over
the learner's decisions; advantages are normalized over the learner's decisions of the
window. Adam with gradient clipping, its step size cosine-decayed from
``learning_rate`` to ``final_learning_rate`` over the updates the budget allows.

On ``algorithm.devices: N`` devices (:mod:`moon_agents.training.jax.devices`)
``num_envs`` is per device: ``N * num_envs`` games are stepped in lock-step, split over
the devices, and every minibatch (``N`` times as large) is split over them too, its
gradient averaged over all of its decisions.

All randomness comes from keys derived from ``seed``: the same config and seed give the
same statistics on a CPU.
"""

from __future__ import annotations

import time
from typing import Any

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
import optax

from moon_agents.training.jax.alphazero import NEG, select_games
from moon_agents.training.jax.devices import Devices
from moon_agents.training.jax.openings import random_opening
from moon_agents.training.jax.network import (
    PolicyValueNet,
    batched,
    initial_net,
    FeatureInputNet,
    opponent_network,
    to_arrays,
)

Array = jax.Array


def masked_log_probs(logits: Array, legal: Array) -> Array:
    """Log-probabilities of the policy restricted to the ``legal`` actions."""
    return jax.nn.log_softmax(jnp.where(legal, logits, NEG), axis=-1)


def masked_entropy(log_probs: Array, legal: Array) -> Array:
    """Entropy of the masked policy whose log-probabilities are ``log_probs``."""
    return -jnp.sum(jnp.where(legal, jnp.exp(log_probs) * log_probs, 0.0), axis=-1)


def _score(outcome: np.ndarray) -> float:
    """Mean score of finished games' outcomes (a win 1, a tie 0.5), NaN if none."""
    if not outcome.size:
        return float("nan")
    return float(((outcome > 0) + 0.5 * (outcome == 0)).mean())


def _masked_mean(x: Array, mask: Array) -> Array:
    return jnp.sum(jnp.where(mask, x, 0.0)) / jnp.maximum(jnp.sum(mask), 1)


def advantages(
    reward: Array, discount: Array, value: Array, last_value: Array, gamma: float, lam: float
) -> Array:
    """Generalized advantage estimates ``[T, N]`` of a window of decisions.

    ``reward[t]`` is the reward of the seat that moved at ``t``, ``value[t]`` its value
    and ``discount[t]`` the sign from the next decision's mover to this one's (``+1``
    same seat, ``-1`` the other seat, ``0`` once the game ended); ``last_value`` is the
    value of the position after the window, from its mover's view."""
    next_value = jnp.concatenate([value[1:], last_value[None]], axis=0)

    def back(adv: Array, x: tuple[Array, Array, Array, Array]) -> tuple[Array, Array]:
        r, d, v, v_next = x
        adv = r + gamma * d * v_next - v + gamma * lam * d * adv
        return adv, adv

    _, adv = jax.lax.scan(
        back, jnp.zeros_like(last_value), (reward, discount, value, next_value), reverse=True
    )
    return adv


class JaxPPO:
    """The trainer's state and jitted steps for one config and twin."""

    RESUME_TREES = ("params", "opt_state", "key", "games", "pool")
    """The trees a resume state holds (:mod:`moon_agents.training.jax.checkpointing`)."""
    RESUME_COUNTERS = ("decisions", "updates", "rollouts", "snapshots")

    def __init__(self, config: Any, twin: Any) -> None:
        self.cfg = config.algorithm
        self.shaping = float(config.env.margin_shaping)
        self.twin = twin
        self.devices = Devices(config.algorithm.devices)
        self.num_envs = config.algorithm.num_envs * self.devices.count
        a = self.cfg
        self.obs_size = int(np.prod(twin.observation_shape))
        key = jax.random.key(config.seed)
        net = initial_net(config, twin, key)
        self.params, self.static = eqx.partition(net, eqx.is_array)
        budget = config.budget.total_timesteps
        rollouts = (budget or 10_000_000) / (self.num_envs * a.num_steps)
        updates = rollouts * a.num_epochs * a.num_minibatches
        schedule = optax.cosine_decay_schedule(
            a.learning_rate, max(int(updates), 1), alpha=a.final_learning_rate / a.learning_rate
        )
        self.optimizer = optax.chain(
            optax.clip_by_global_norm(a.max_grad_norm), optax.adam(schedule)
        )
        self.opt_state = self.devices.replicate(self.optimizer.init(self.params))
        self.params = self.devices.replicate(self.params)
        from moon_agents.zoo import jax_heuristic

        # the heuristic is part of the program wherever the game has one on its twin, and
        # the shares and the seat are arguments: runs that differ only in them share one
        # compile (a rollout without a heuristic game skips the heuristic's moves)
        self.heuristic = jax_heuristic(twin.spec.name, twin)
        seat = a.heuristic_learner_seat
        self.mix = {
            "self_play_fraction": jnp.float32(a.self_play_fraction if a.pool_size else 1.0),
            "heuristic_fraction": jnp.float32(a.heuristic_fraction),
            "heuristic_seat": jnp.int32(-1 if seat is None else seat),
        }
        slots = max(a.pool_size, 1)
        self.opponent_static = self.static
        first = self.params
        if a.opponent_net is not None:  # a frozen network, the only opponent
            first, self.opponent_static = eqx.partition(
                opponent_network(a.opponent_net), eqx.is_array
            )
        self.pool = self.devices.replicate(jax.tree.map(lambda p: jnp.stack([p] * slots), first))
        self.snapshots = 1
        self.key = jax.random.key(config.seed + 1)
        self.key, init_key = jax.random.split(self.key)
        fresh = jnp.ones(self.num_envs, bool)
        games = jax.jit(self._start)(init_key, fresh, jnp.int32(1), self.mix)
        self.games = self.devices.split(games)
        self._play = jax.jit(self._rollout)
        self._learn = jax.jit(self._update)
        self.rollouts = 0
        self.decisions = 0
        self.updates = 0

    # ---- the network ----------------------------------------------------------------------
    def net(self, params: Any) -> PolicyValueNet:
        return eqx.combine(params, self.static)

    def arrays(self) -> dict[str, np.ndarray]:
        """The current parameters under the weight file's names."""
        return to_arrays(self.net(self.params))

    def _flat(self, state: Any) -> Array:
        return state.observation.reshape(state.observation.shape[0], -1).astype(jnp.float32)

    def _opponent_logits(self, pool: Any, index: Array, obs: Array, legal: Array) -> Array:
        """Each game's snapshot ``pool[index]`` evaluated on that game's observation (and
        legal mask, for a frozen network that reads input features).

        Every snapshot runs on the whole batch and each game keeps its own row: dense
        matrix products, much faster than gathering a weight set per game."""
        def logits(params: Any) -> Array:
            model = eqx.combine(params, self.opponent_static)
            if isinstance(model, FeatureInputNet):
                return jax.vmap(model)(obs, legal)[0]
            return batched(model, obs)[0]

        every = jax.vmap(logits)(pool)
        return jnp.take_along_axis(every, index[None, :, None], axis=0)[0]

    # ---- self-play ------------------------------------------------------------------------
    def _start(
        self,
        key: Array,
        fresh: Array,
        pool_len: Array,
        mix: dict[str, Array],
        games: Any = None,
        bank: Any = None,
    ) -> Any:
        """New games (state, learner seat, self-play flag, snapshot index, heuristic flag)
        where ``fresh``, ``games`` elsewhere; ``mix`` holds the shares of self-play and
        heuristic games and the learner's seat against the heuristic (-1: drawn). With
        ``opening_plies``, a new game starts from its lane's state in ``bank`` (the
        rollout's openings; drawn here when None)."""
        n = self.num_envs
        k_init, k_seat, k_self, k_opp = jax.random.split(key, 4)
        if self.cfg.opening_plies:  # each lane's opening of the rollout (openings.py)
            states = self._openings(jax.random.fold_in(key, 17)) if bank is None else bank
        else:
            states = jax.vmap(self.twin.init)(jax.random.split(k_init, n))
        seat = jax.random.randint(k_seat, (n,), 0, 2)
        self_play = jax.random.uniform(k_self, (n,)) < mix["self_play_fraction"]
        opponent = jax.random.randint(k_opp, (n,), 0, pool_len)
        heuristic = jnp.zeros(n, bool)
        if self.heuristic is not None:  # a key of its own: the other draws stay as they were
            draw = jax.random.uniform(jax.random.fold_in(k_opp, 1), (n,))
            heuristic = ~self_play & (draw < mix["heuristic_fraction"])
            fixed_seat = mix["heuristic_seat"]
            seat = jnp.where(heuristic & (fixed_seat >= 0), fixed_seat, seat)
        new = (states, seat, self_play, opponent, heuristic)
        return new if games is None else select_games(fresh, new, games)

    def _openings(self, key: Any) -> Any:
        """One random opening per lane (``opening_plies`` random legal moves)."""
        k_init, k_open = jax.random.split(key)
        states = jax.vmap(self.twin.init)(jax.random.split(k_init, self.num_envs))
        return random_opening(self.twin, states, self.cfg.opening_plies, k_open)

    def _margin_change(self, before: Any, after: Any, mover: Array) -> Array:
        """Per game: the change of the mover's score minus the others' mean score."""
        delta = jax.vmap(self.twin.scores)(after) - jax.vmap(self.twin.scores)(before)
        delta = delta.astype(jnp.float32)
        own = jnp.take_along_axis(delta, mover[:, None], axis=1)[:, 0]
        others = (jnp.sum(delta, axis=1) - own) / max(self.twin.num_players - 1, 1)
        return own - others

    def _heuristic_logits(self, states: Any, heuristic: Array) -> Array:
        """The heuristic's logits in every game, computed only when some game faces it."""
        every = jax.vmap(self.heuristic.logits)
        shape = jax.eval_shape(every, states)
        return jax.lax.cond(
            jnp.any(heuristic), every, lambda _: jnp.zeros(shape.shape, shape.dtype), states
        )

    def _rollout(
        self, params: Any, pool: Any, pool_len: Array, mix: dict[str, Array], games: Any, key: Array
    ) -> tuple[Any, dict[str, Array]]:
        net = self.net(params)
        bank = self._openings(jax.random.fold_in(key, 17)) if self.cfg.opening_plies else None

        def one(games: Any, key: Array) -> tuple[Any, dict[str, Array]]:
            states, seat, self_play, opponent, heuristic = games
            k_act, k_step, k_start = jax.random.split(key, 3)
            obs = self._flat(states)
            logits, value = batched(net, obs)
            mover = states.current_player
            trained = self_play | (mover == seat)
            legal = states.legal_action_mask
            opp_logits = self._opponent_logits(pool, opponent, obs, legal)
            if self.cfg.opponent_argmax:  # the frozen network's most probable legal action
                best = jnp.argmax(jnp.where(legal, opp_logits, NEG), axis=-1)
                opp_logits = jnp.where(jax.nn.one_hot(best, legal.shape[-1]) > 0, 0.0, NEG)
            if self.heuristic is not None:
                fixed = self._heuristic_logits(states, heuristic)
                opp_logits = jnp.where(heuristic[:, None], fixed, opp_logits)
            log_probs = masked_log_probs(jnp.where(trained[:, None], logits, opp_logits), legal)
            action = jax.random.categorical(k_act, log_probs)
            n = action.shape[0]
            nxt = jax.vmap(self.twin.step)(states, action, jax.random.split(k_step, n))
            reward = jnp.take_along_axis(nxt.rewards, mover[:, None], axis=1)[:, 0]
            if self.shaping:
                reward = reward + self.shaping * self._margin_change(states, nxt, mover)
            same = nxt.current_player == mover
            discount = jnp.where(nxt.terminated, 0.0, jnp.where(same, 1.0, -1.0))
            outcome = jnp.take_along_axis(nxt.rewards, seat[:, None], axis=1)[:, 0]
            record = {
                "obs": obs,
                "legal": legal,
                "action": action,
                "log_prob": jnp.take_along_axis(log_probs, action[:, None], axis=1)[:, 0],
                "value": value,
                "reward": reward,
                "discount": discount,
                "trained": trained,
                "ended": nxt.terminated,
                "pool_game": nxt.terminated & ~self_play & ~heuristic,
                "heuristic_game": nxt.terminated & heuristic,
                "outcome": outcome,
            }
            games = self._start(
                k_start,
                nxt.terminated,
                pool_len,
                mix,
                (nxt, seat, self_play, opponent, heuristic),
                bank,
            )
            return self.devices.constrain(games), record

        keys = jax.random.split(key, self.cfg.num_steps)
        games, rec = jax.lax.scan(one, games, keys)
        _, last_value = batched(net, self._flat(games[0]))
        a = self.cfg
        rec["advantage"] = advantages(
            rec["reward"], rec["discount"], rec["value"], last_value, a.gamma, a.gae_lambda
        )
        rec["target"] = rec["advantage"] + rec["value"]
        return games, rec

    # ---- learning -------------------------------------------------------------------------
    def _loss(self, params: Any, batch: dict[str, Array]) -> tuple[Array, dict[str, Array]]:
        a = self.cfg
        mask = batch["trained"]
        logits, value = batched(self.net(params), batch["obs"])
        log_probs = masked_log_probs(logits, batch["legal"])
        log_prob = jnp.take_along_axis(log_probs, batch["action"][:, None], axis=1)[:, 0]
        log_ratio = log_prob - batch["log_prob"]
        ratio = jnp.exp(log_ratio)
        adv = batch["advantage"]
        clipped = jnp.clip(ratio, 1.0 - a.clip_range, 1.0 + a.clip_range)
        policy_loss = _masked_mean(-jnp.minimum(ratio * adv, clipped * adv), mask)
        value_loss = _masked_mean((value - batch["target"]) ** 2, mask)
        entropy = _masked_mean(masked_entropy(log_probs, batch["legal"]), mask)
        total = policy_loss + a.vf_coef * value_loss - a.ent_coef * entropy
        stats = {
            "policy_loss": policy_loss,
            "value_loss": value_loss,
            "entropy": entropy,
            "approx_kl": _masked_mean(ratio - 1.0 - log_ratio, mask),
            "clip_fraction": _masked_mean(jnp.abs(ratio - 1.0) > a.clip_range, mask),
        }
        return total, stats

    def _update(
        self, params: Any, opt_state: Any, rec: dict[str, Array], key: Array
    ) -> tuple[Any, Any, dict[str, Array]]:
        """``num_epochs`` passes of ``num_minibatches`` SGD steps over one window."""
        a = self.cfg
        names = ("obs", "legal", "action", "log_prob", "advantage", "target", "trained")
        data = {k: rec[k].reshape((-1, *rec[k].shape[2:])) for k in names}
        mask = data["trained"]
        mean = _masked_mean(data["advantage"], mask)
        std = jnp.sqrt(_masked_mean((data["advantage"] - mean) ** 2, mask))
        data["advantage"] = (data["advantage"] - mean) / (std + 1e-8)
        size = mask.shape[0]

        def step(carry: tuple[Any, Any], batch: dict[str, Array]) -> tuple[tuple, dict]:
            params, opt_state = carry
            grads, stats = jax.grad(self._loss, has_aux=True)(params, batch)
            updates, opt_state = self.optimizer.update(grads, opt_state, params)
            return (optax.apply_updates(params, updates), opt_state), stats

        def epoch(carry: tuple[Any, Any], key: Array) -> tuple[tuple, dict]:
            order = jax.random.permutation(key, size)
            batches = jax.tree.map(
                lambda x: x[order].reshape((a.num_minibatches, -1, *x.shape[1:])), data
            )
            batches = self.devices.constrain(batches, axis=1)  # each minibatch split
            return jax.lax.scan(step, carry, batches)

        keys = jax.random.split(key, a.num_epochs)
        (params, opt_state), stats = jax.lax.scan(epoch, (params, opt_state), keys)
        return params, opt_state, jax.tree.map(jnp.mean, stats)

    def _snapshot(self) -> None:
        """The current parameters join the pool, over the oldest snapshot once it is full
        (never over the starting network's slot 0 with ``pool_keep_initial``)."""
        keep = int(self.cfg.pool_keep_initial)
        slot = keep + (self.snapshots - keep) % (self.cfg.pool_size - keep)
        self.pool = jax.tree.map(lambda s, p: s.at[slot].set(p), self.pool, self.params)
        self.snapshots += 1

    def iteration(self) -> dict[str, float]:
        """One window of self-play, then its PPO update; returns statistics.

        Besides the seconds spent (``selfplay_s``, ``learn_s``): the losses, entropy,
        approximate KL and clip fraction averaged over the update's minibatches, the games
        finished in the window (``episodes_finished``), those against a snapshot
        (``pool_episodes``) and the learner's score in them (``learner_win_rate``, a tie
        counting half), with a heuristic opponent the same two for the games against it
        (``heuristic_episodes``, ``heuristic_win_rate``), and the share of decisions made
        by the learner."""
        a = self.cfg
        start = time.perf_counter()
        self.key, k_play, k_learn = jax.random.split(self.key, 3)
        pool_len = jnp.int32(min(self.snapshots, max(a.pool_size, 1)))
        self.games, rec = self._play(self.params, self.pool, pool_len, self.mix, self.games, k_play)
        jax.block_until_ready(rec)
        played = time.perf_counter()
        self.params, self.opt_state, stats = self._learn(self.params, self.opt_state, rec, k_learn)
        jax.block_until_ready(self.params)
        learned = time.perf_counter()
        self.rollouts += 1
        self.decisions += self.num_envs * a.num_steps
        self.updates += a.num_epochs * a.num_minibatches
        frozen = a.opponent_net is not None  # no snapshot replaces the frozen opponent
        if a.pool_size and not frozen and self.rollouts % a.snapshot_every == 0:
            self._snapshot()
        host = self.devices.gather(
            {k: rec[k] for k in ("ended", "pool_game", "outcome", "trained", "heuristic_game")}
        )
        ended, pool_game, outcome = host["ended"], host["pool_game"], host["outcome"]
        out: dict[str, float] = {
            "selfplay_s": played - start,
            "learn_s": learned - played,
            "episodes_finished": int(ended.sum()),
            "pool_episodes": int(pool_game.sum()),
            "trained_fraction": float(host["trained"].mean()),
        }
        out.update({k: float(v) for k, v in jax.device_get(stats).items()})
        out["learner_win_rate"] = _score(outcome[pool_game])
        if a.heuristic_fraction:
            against = host["heuristic_game"]
            out["heuristic_episodes"] = int(against.sum())
            out["heuristic_win_rate"] = _score(outcome[against])
        return out
