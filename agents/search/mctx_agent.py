"""Search on the JAX twin with mctx, guided by a trained network (``mctx:PATH,...``).

:class:`MctxAgent` plays the Python env. At each move it turns what its seat may know
into twin positions and runs ``mctx.gumbel_muzero_policy`` on them, with the twin's
``step`` as the model and a shipped or trained network (:mod:`moon_agents.jax_baseline`)
for priors and leaf values:

* **the root**: ``view.sample_state(rng)`` (a determinisation of what the seat may know;
  a plain copy in a perfect-information game), converted by
  :func:`moon_envs.jax.python_states.from_python`. A hidden-information game searches
  ``samples`` such determinisations as one mctx batch (converted together by
  ``from_python_many`` where the twin can) and plays the action most of them choose
  (ties: the larger summed improved policy); a perfect-information game searches one.
  The search never sees anything else: no solver, heuristic or hidden state.
* **chance**: ``twin.step(state, action, key)`` draws every chance event with the
  search's key, so each tree node holds one sampled outcome (as the ``alphazero``
  trainer's search).
* **values**: every value (the network's, mctx's) is from the view of the seat to move.
  Between two nodes the reward is the mover's ``win`` reward (plus ``margin`` times the
  change of its score margin, for a network whose value learnt that shaped return, as
  Moon Harvesters' ``jax_ppo`` network did) and the discount is ``+1``
  when the same seat moves again (Jupiter's roll then placement), ``-1`` when the turn
  passes and ``0`` at the end. This is exact for two players. With three or four, a
  value for "the next seat" is read as the negation of the mover's (every other seat is
  the mover's opponent): the convention the networks were trained with.
* **why Gumbel MuZero**: it improves on the network's policy even with a handful of
  simulations (sequential halving over the ``considered`` best actions), where PUCT
  needs many visits per action; and it is the search the ``alphazero`` trainer used, so
  the network's priors are calibrated for it. ``gumbel=0`` (the default) takes the
  ``considered`` actions of highest prior with no Gumbel noise: play, not exploration.

The compiled search is cached per (env id, game parameters, activation, options), with
the network's arrays as an argument: a game, every later game and every network of the
same architecture share one compile. With the same seed the agent plays the same moves.

Spec: ``mctx:PATH[,simulations=N][,considered=M][,samples=K][,gumbel=G][,margin=S]``;
``PATH`` may be ``trained`` (the game's shipped network, ``agents/trained/<game>.npz``) or
``trained:KEY=N`` (a variant's, :mod:`moon_agents.zoo`). See
:mod:`moon_agents.search.mctx_spec` for the ranges.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import numpy as np

from moon_agents.base import AgentView, EnvParams, legal_actions
from moon_agents.net_agent import NetAgent
from moon_agents.net_weights import load_net
from moon_agents.search.mctx_spec import MctxOptions, parse_mctx_spec
from moon_envs.core.game import ConfigError


def convertible_env_ids() -> list[str]:
    """The env ids whose twin converts Python positions (the games ``mctx:`` can play)."""
    from moon_envs.jax.python_states import CONVERTERS

    return sorted(CONVERTERS)


@dataclasses.dataclass(frozen=True)
class MctxDecision:
    """What the search of one move found: per searched root (one, or ``samples``
    determinisations), the action mctx chose and its improved policy over every action."""

    actions: np.ndarray  # (roots,) int
    weights: np.ndarray  # (roots, num_actions) float64


class MctxAgent:
    """Gumbel MuZero search on the JAX twin, guided by a network (module docstring)."""

    def __init__(
        self,
        path: str | Path,
        options: MctxOptions | None = None,
        seed: int | None = None,
        name: str = "mctx",
    ) -> None:
        self.options = options or MctxOptions()
        self.name = name
        self.path = Path(path)
        arrays, description = load_net(self.path)
        env_id = description["env_id"]
        if env_id not in convertible_env_ids():
            raise ConfigError(
                f"{name}: the network plays {env_id}, whose twin cannot convert Python "
                f"positions yet; mctx: plays the twins of {convertible_env_ids()}"
            )
        # The numpy agent checks the game (id and parameters) exactly as az:PATH does.
        self._checker = NetAgent(arrays, description, name=name, source=str(path))
        self.description = description
        self.rng = np.random.default_rng(seed)
        self.last: MctxDecision | None = None  # the search behind the last move
        from moon_agents.jax_baseline import BaselineModel

        model = BaselineModel.from_arrays(arrays, description)
        self._weights = (model.layers, model.policy, model.value)
        self._search = _compiled_search(
            env_id,
            json.dumps(description["game_config"], sort_keys=True),
            description["activation"],
            self.options,
            model,
        )

    @classmethod
    def from_spec(
        cls, spec: str, game: str, seed: int | None = None, name: str | None = None
    ) -> MctxAgent:
        """The agent of an ``mctx:PATH[,...]`` spec for ``game`` (a ``GameSpec.name``)."""
        path, options = parse_mctx_spec(spec)
        if path == "trained" or path.startswith("trained:"):
            from moon_agents.shipped import shipped_games, trained_model, trained_variants

            file = trained_model(game, path)
            if file is None or file.suffix != ".npz":
                have = shipped_games((".npz",))
                raise ConfigError(
                    f"agent spec {spec!r}: no shipped network {path!r} for game {game!r}; "
                    f"games with one: {have}; variants of {game}: {trained_variants(game)}"
                )
            path = str(file)
        return cls(path, options, seed=seed, name=name or spec)

    # ---- the agent protocol --------------------------------------------------------------
    def env_params(self) -> EnvParams:
        """The env id and every game parameter the network was trained with."""
        return self._checker.env_params()

    def reset(self, game: Any, seat: int) -> None:
        """Refuse a game other than the one the network was trained on."""
        self._checker.reset(game, seat)

    def act(self, view: AgentView) -> int:
        self._checker._check_game(view.game)
        legal = legal_actions(view)
        search = self._search
        k = self.options.samples if search.hidden_information else 1
        roots = _distinct_conversions(search, [view.sample_state(self.rng) for _ in range(k)])
        key = int(self.rng.integers(0, 2**31 - 1))
        mask = np.asarray(view.action_mask, bool)
        actions, weights = search.run(self._weights, key, roots, mask)
        self.last = MctxDecision(actions, weights)
        votes = np.bincount(actions, minlength=mask.size).astype(np.float64)
        score = votes + weights.sum(axis=0) / (k + 1.0)  # weights break ties among votes
        score[~mask] = -np.inf
        action = int(np.argmax(score))
        return action if mask[action] else int(legal[0])

    def __repr__(self) -> str:
        o = self.options
        return (
            f"MctxAgent(name={self.name!r}, simulations={o.simulations}, "
            f"considered={o.considered}, samples={o.samples}, gumbel={o.gumbel}, "
            f"margin={o.margin})"
        )


def _distinct_conversions(search: _Search, samples: list[Any]) -> Any:
    """The twin positions of the samples, batched in their order
    (:func:`moon_envs.jax.python_states.from_python_many`).

    Where the twin converts many positions in one compiled call (Moonwakers), every
    sample is converted so. Elsewhere determinisations often coincide (with perfect memory
    a Star Master seat knows the layout, and only a race's sealed choices are redrawn),
    and a conversion costs more than the search of a root: equal samples (equal
    ``to_dict()``) share one conversion. Each root of the batch still draws its own
    chance events in the search."""
    import jax

    from moon_envs.jax.python_states import converts_many, from_python_many

    if len(samples) == 1 or converts_many(search.twin):
        return from_python_many(search.twin, samples)
    seen: list[dict] = []
    rows = []
    for sample in samples:
        data = sample.to_dict()
        if data not in seen:
            seen.append(data)
        rows.append(seen.index(data))
    distinct = [samples[rows.index(r)] for r in range(len(seen))]
    rows = np.asarray(rows)
    return jax.tree.map(lambda leaf: leaf[rows], from_python_many(search.twin, distinct))


class _Search:
    """One twin, architecture and option set with its jitted Gumbel MuZero search. The
    network's arrays are an argument of the compiled function, so every network of the
    same architecture shares one compile."""

    def __init__(self, options: MctxOptions, model: Any) -> None:
        import jax

        self.model = model  # its arrays are replaced by the argument at every call
        self.twin = model.make_env()
        self.options = options
        self.hidden_information = bool(self.twin.spec.hidden_information)
        self._run = jax.jit(self._search)

    def run(
        self, weights: Any, key: int, states: Any, mask: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """The action each root's search chose and its improved policy, as numpy
        (``states``: the roots, batched)."""
        action, policy = self._run(weights, np.uint32(key), states, mask)
        return np.asarray(action), np.asarray(policy, np.float64)

    def _search(self, weights: Any, seed: Any, states: Any, mask: Any) -> tuple[Any, Any]:
        import jax
        import jax.numpy as jnp
        import mctx

        key = jax.random.key(seed)
        layers, policy, value = weights
        net = dataclasses.replace(self.model, layers=layers, policy=policy, value=value)
        legal = states.legal_action_mask & mask[None, :]
        logits, root_value = self._evaluate(net, states, legal)
        root = mctx.RootFnOutput(prior_logits=logits, value=root_value, embedding=states)
        o = self.options
        out = mctx.gumbel_muzero_policy(
            params=net,
            rng_key=key,
            root=root,
            recurrent_fn=self._recurrent,
            num_simulations=o.simulations,
            invalid_actions=~legal,
            max_num_considered_actions=o.considered,
            gumbel_scale=o.gumbel,
        )
        return out.action, jnp.asarray(out.action_weights)

    @staticmethod
    def _evaluate(net: Any, states: Any, legal: Any) -> tuple[Any, Any]:
        import jax.numpy as jnp

        logits, value = net(states.observation, states.legal_action_mask)
        return jnp.where(legal, logits, -1e9), value

    def _margin_change(self, before: Any, after: Any, mover: Any) -> Any:
        """Per root: the change of the mover's score minus the others' mean score (the
        ``jax_ppo`` trainer's margin shaping, whose return a shaped network's value
        estimates)."""
        import jax
        import jax.numpy as jnp

        delta = jax.vmap(self.twin.scores)(after) - jax.vmap(self.twin.scores)(before)
        delta = delta.astype(jnp.float32)
        own = jnp.take_along_axis(delta, mover[:, None], axis=1)[:, 0]
        others = (jnp.sum(delta, axis=1) - own) / max(self.twin.num_players - 1, 1)
        return own - others

    def _recurrent(self, net: Any, key: Any, action: Any, states: Any) -> tuple[Any, Any]:
        import jax
        import jax.numpy as jnp
        import mctx

        keys = jax.random.split(key, action.shape[0])
        nxt = jax.vmap(self.twin.step)(states, action, keys)
        mover = states.current_player
        reward = jnp.take_along_axis(nxt.rewards, mover[:, None], axis=1)[:, 0]
        if self.options.margin:
            reward = reward + self.options.margin * self._margin_change(states, nxt, mover)
        same = nxt.current_player == mover
        discount = jnp.where(nxt.terminated, 0.0, jnp.where(same, 1.0, -1.0))
        logits, value = self._evaluate(net, nxt, nxt.legal_action_mask)
        value = jnp.where(nxt.terminated, 0.0, value)
        out = mctx.RecurrentFnOutput(
            reward=reward, discount=discount, prior_logits=logits, value=value
        )
        return out, nxt


_SEARCHES: dict[tuple, _Search] = {}
_MAX_SEARCHES = 16


def _compiled_search(
    env_id: str, game_config: str, activation: str, options: MctxOptions, model: Any
) -> _Search:
    """The search of one twin (id and parameters), activation and option set, made once.
    ``model`` (the first network met) gives the twin and the code, not the arrays, so it
    is not part of the key. Jax compiles it once per architecture and number of roots."""
    key = (env_id, game_config, activation, options)
    if key not in _SEARCHES:
        if len(_SEARCHES) >= _MAX_SEARCHES:  # forget the oldest
            del _SEARCHES[next(iter(_SEARCHES))]
        _SEARCHES[key] = _Search(options, model)
    return _SEARCHES[key]
