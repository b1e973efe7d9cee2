"""The ``imitation`` trainer: behavioural cloning of a teacher, then DAgger rounds.

::

    algorithm:
      name: imitation
      teacher: oracle                  # a zoo agent; labels every position
      opponents: [heuristic, oracle]   # who sits across the learner's seat, in turn
      games_per_round: 1100            # games a data round plays
      explore: 0.2                     # round 1: the teacher's random moves at the learner's seat
      learner_share: 0.85              # later rounds: games where the network plays that seat
      epochs: 10                       # passes over every position kept, each round
      batch_size: 1024
      input_features: [landing_values] # fixed features after the observation
      workers: 2                       # processes playing the data games

Each iteration is one round (:mod:`moon_agents.training.imitation_data`): play and label
``games_per_round`` games in the Python env, add their positions to those kept (at most
``max_positions``, the oldest replaced), then train a fresh network on all of them:
``epochs`` passes of masked cross-entropy against the teacher's targets (uniform over
the actions it rates best: with Moonstar's oracle, every move that keeps the round's
optimum), plus ``value_weight`` x the squared error of the value head against each
game's outcome (the head reads the trunk's features without training them), Adam with
a cosine decay from ``learning_rate`` to ``final_learning_rate``. The first round's
learner seat is the teacher (with ``explore`` random moves); later rounds hand it to
the network of the round before in ``learner_share`` of the games.
``budget.total_timesteps`` counts labelled positions.

The network plays alone: the teacher (and the solver behind it) labels data while
training and is never called at play time. The run folder is the other JAX trainers'
(:mod:`moon_agents.training.jax.run`); a run keeps no resume state (its positions would
take gigabytes), so ``--resume`` refuses it and a stopped run is rerun.
"""

from __future__ import annotations

import time
from types import SimpleNamespace
from typing import Any

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
import optax

from moon_agents.input_features import network_input
from moon_agents.training.imitation_data import Positions, RoundSpec, play_round
from moon_agents.training.jax.network import PolicyValueNet, net_description, to_arrays

Array = jax.Array


class Imitation:
    """The trainer's positions, network and rounds for one config (module docstring)."""

    RESUMABLE = False
    """No resume state: ``--resume`` refuses an imitation run (module docstring)."""

    def __init__(self, config: Any, twin: Any) -> None:
        import moon_envs

        self.config = config
        self.cfg = a = config.algorithm
        self.devices = SimpleNamespace(count=1)
        self.game = moon_envs.make(config.env.id, **config.env.params).game
        self.description = net_description(config, twin)
        self.input_size = self.description.get("input_size", self.description["observation_size"])
        self.num_actions = int(twin.num_actions)
        self.features = list(a.input_features)
        self.net = self._fresh_net(0)
        self.kept: Positions | None = None
        self.rounds = 0
        self.decisions = 0
        self.updates = 0
        self.report: Any = None  # report(positions done): the run loop's progress bar
        self._step = eqx.filter_jit(self._sgd_step)

    def _fresh_net(self, round_no: int) -> PolicyValueNet:
        key = jax.random.key(self.config.seed * 1009 + round_no)
        a = self.cfg
        return PolicyValueNet(self.input_size, self.num_actions, list(a.hidden), a.activation, key)

    def arrays(self) -> dict[str, np.ndarray]:
        """The current parameters under the weight file's names."""
        return to_arrays(self.net)

    # ---- one round -----------------------------------------------------------------------
    def iteration(self) -> dict[str, Any]:
        a = self.cfg
        start = time.perf_counter()
        network = None
        if self.rounds > 0:
            network = (self.arrays(), {**self.description, "training": {}})
        spec = RoundSpec(
            env_id=self.config.env.id,
            params=dict(self.config.env.params),
            teacher=a.teacher,
            opponents=tuple(a.opponents),
            seed=self.config.seed * 7919 + self.rounds * 104_729,
            explore=a.explore if network is None else 0.0,
            learner_share=a.learner_share,
            network=network,
        )
        report = None
        if self.report is not None:
            report = lambda labelled: self.report(self.decisions + labelled)  # noqa: E731
        new = play_round(spec, a.games_per_round, a.workers, report)
        self._keep(new)
        played = time.perf_counter() - start
        loss, accuracy = self._train()
        self.rounds += 1
        self.decisions += len(new)
        return {
            "selfplay_s": played,
            "learn_s": time.perf_counter() - start - played,
            "round": self.rounds,
            "positions_kept": len(self.kept),
            "train_loss": round(loss, 5),
            "train_accuracy": round(accuracy, 5),
        }

    def _keep(self, new: Positions) -> None:
        kept = new if self.kept is None else Positions.join([self.kept, new])
        extra = len(kept) - self.cfg.max_positions
        if extra > 0:  # the oldest positions go first
            kept = Positions(*(getattr(kept, f)[extra:] for f in Positions.__dataclass_fields__))
        self.kept = kept

    def _train(self) -> tuple[float, float]:
        """A fresh network trained on every kept position; the last epoch's mean loss and
        the share of its argmax moves among the teacher's targets."""
        a = self.cfg
        data = self.kept
        assert data is not None
        n = len(data)
        batch = min(a.batch_size, n)
        per_epoch = n // batch
        steps = max(a.epochs * per_epoch, 1)
        schedule = optax.cosine_decay_schedule(
            a.learning_rate, steps, alpha=a.final_learning_rate / a.learning_rate
        )
        optimizer = optax.chain(optax.clip_by_global_norm(a.max_grad_norm), optax.adam(schedule))
        net = self._fresh_net(self.rounds)
        opt_state = optimizer.init(eqx.filter(net, eqx.is_array))
        rng = np.random.default_rng(self.config.seed * 31 + self.rounds)
        losses, hits = [], []
        for epoch in range(a.epochs):
            order = rng.permutation(n)
            losses, hits = [], []
            for b in range(per_epoch):
                rows = np.sort(order[b * batch : (b + 1) * batch])
                net, opt_state, loss, hit = self._step(
                    net,
                    opt_state,
                    optimizer,
                    jnp.asarray(data.observation[rows]),
                    jnp.asarray(data.mask[rows]),
                    jnp.asarray(data.target[rows]),
                    jnp.asarray(data.outcome[rows], jnp.float32),
                )
                losses.append(loss)
                hits.append(hit)
                self.updates += 1
        self.net = net
        return float(np.mean(jax.device_get(losses))), float(np.mean(jax.device_get(hits)))

    def _sgd_step(
        self,
        net: PolicyValueNet,
        opt_state: Any,
        optimizer: Any,
        obs: Array,
        mask: Array,
        target: Array,
        outcome: Array,
    ) -> tuple[PolicyValueNet, Any, Array, Array]:
        x = network_input(self.features, self.game, obs, mask, xp=jnp)
        weights = target / target.sum(-1, keepdims=True)

        def loss_fn(model: PolicyValueNet) -> tuple[Array, Array]:
            logits, value = jax.vmap(lambda row: _forward(model, row))(x)
            logits = jnp.where(mask, logits, -1e9)
            policy_loss = -(weights * jax.nn.log_softmax(logits)).sum(-1).mean()
            value_loss = ((value - outcome) ** 2).mean()
            pick = jnp.argmax(logits, -1)
            hit = jnp.take_along_axis(target, pick[:, None], -1)[:, 0].mean()
            return policy_loss + self.cfg.value_weight * value_loss, hit

        (loss, hit), grads = eqx.filter_value_and_grad(loss_fn, has_aux=True)(net)
        updates, opt_state = optimizer.update(grads, opt_state, eqx.filter(net, eqx.is_array))
        return eqx.apply_updates(net, updates), opt_state, loss, hit


def _forward(net: PolicyValueNet, x: Array) -> tuple[Array, Array]:
    """``net`` on one input, its value head reading the trunk's features without
    training them (``stop_gradient``): the value target never pulls the policy's
    features away from the teacher's moves."""
    h = net.features(x)
    return net.policy(h), jnp.tanh(net.value(jax.lax.stop_gradient(h))[0])
