"""Teacher-labelled positions for the ``imitation`` trainer, played in the Python env.

One data round plays ``games`` two-player games. In each, one seat is the *learner's*
(seat ``game % 2``) and the other an opponent from ``opponents`` (taken in turn). The
teacher (a zoo agent, for example Moonstar's ``oracle``) labels **every** position of
the game, both seats': the target is the set of actions it rates best
(``teacher.best_actions(view)`` where the agent has it, otherwise ``[teacher.act(view)]``).
The learner's seat is played

* by the teacher itself, with a share ``explore`` of its moves drawn uniformly from the
  legal ones (so the data holds positions a little off the teacher's path), when no
  network is given: behavioural cloning;
* by the current network in a share ``learner_share`` of the games (and by the teacher in
  the others): DAgger, which labels the positions the network's own mistakes lead to.

Every game is seeded from the round's seed and its index alone (env, agents, exploration),
so a round gives the same positions however its games are split over worker processes.
The outcome of each game (+1 win, -1 loss, 0 shared, from the seat to move's view) is
kept as the value target. Nothing here needs jax: the network plays with numpy
(:class:`~moon_agents.net_agent.NetAgent`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

SEED_STRIDE = 1_000_003
"""Seeds of game ``i`` of a round: ``seed + i * SEED_STRIDE + k`` (k: env, agents, rng)."""


@dataclass
class Positions:
    """Labelled positions: ``observation`` float32 ``[N, obs]``, ``mask`` bool ``[N, A]``,
    ``target`` bool ``[N, A]`` (the teacher's best actions, never empty), ``outcome``
    int8 ``[N]``."""

    observation: np.ndarray
    mask: np.ndarray
    target: np.ndarray
    outcome: np.ndarray

    def __len__(self) -> int:
        return int(self.outcome.shape[0])

    @staticmethod
    def join(parts: list[Positions]) -> Positions:
        fields = Positions.__dataclass_fields__
        return Positions(*(np.concatenate([getattr(p, f) for p in parts]) for f in fields))


@dataclass(frozen=True)
class RoundSpec:
    """What one data round plays (see the module docstring)."""

    env_id: str
    params: dict[str, Any]
    teacher: str
    opponents: tuple[str, ...]
    seed: int
    explore: float
    learner_share: float
    network: tuple[dict[str, np.ndarray], dict[str, Any]] | None  # arrays, description


def round_problems(
    game_name: str, teacher: str, opponents: list[str], features: list[str]
) -> list[str]:
    """``algorithm.FIELD: why`` lines for a teacher or opponent the zoo refuses for
    ``game_name`` and input features the game lacks (none: a round can be played)."""
    from moon_agents.input_features import INPUT_FEATURES
    from moon_agents.zoo import make_agent

    problems = []
    for field, specs in (("teacher", [teacher]), ("opponents", opponents)):
        for spec in specs:
            try:
                make_agent(spec, game_name, seed=0)
            except Exception as exc:  # any refusal is a config error
                problems.append(f"algorithm.{field}: {spec!r}: {exc}")
    for feature in features:
        if INPUT_FEATURES[feature] != game_name:
            allowed = [f for f, g in INPUT_FEATURES.items() if g == game_name]
            problems.append(
                f"algorithm.input_features: {feature!r} is defined for "
                f"{INPUT_FEATURES[feature]}, not {game_name}; allowed: {allowed}"
            )
    return problems


def play_games(spec: RoundSpec, first: int, count: int) -> Positions:
    """Games ``first .. first + count - 1`` of the round ``spec``, labelled."""
    import moon_envs
    from moon_agents.base import start_game
    from moon_agents.net_agent import NetAgent
    from moon_agents.zoo import make_agent

    env = moon_envs.make(spec.env_id, **spec.params)
    game_name = env.game.spec.name
    parts = []
    for i in range(first, first + count):
        base = spec.seed + i * SEED_STRIDE
        rng = np.random.default_rng(base + 3)
        env.reset(seed=base)
        teachers = [make_agent(spec.teacher, game_name, seed=base + 1 + s) for s in range(2)]
        learner_seat = i % 2
        opponent = make_agent(spec.opponents[i % len(spec.opponents)], game_name, seed=base + 4)
        network = None
        if spec.network is not None and rng.random() < spec.learner_share:
            network = NetAgent(*spec.network, name="learner")
            start_game(network, env.game, learner_seat)
        for s in range(2):
            start_game(teachers[s], env.game, s)
        start_game(opponent, env.game, 1 - learner_seat)
        parts.append(_one_game(env, teachers, opponent, network, learner_seat, rng, spec.explore))
    return Positions.join(parts)


def _one_game(env, teachers, opponent, network, learner_seat, rng, explore) -> Positions:
    obs, masks, targets, seats = [], [], [], []
    while env.agents:
        name = env.agent_selection
        if env.terminations[name] or env.truncations[name]:
            env.step(None)
            continue
        seat = env.possible_agents.index(name)
        view = env.agent_view(name)
        teacher = teachers[seat]
        best = getattr(teacher, "best_actions", None)
        labels = best(view) if best is not None else [int(teacher.act(view))]
        obs.append(np.asarray(view.observation, np.float32))
        masks.append(np.asarray(view.action_mask, bool))
        target = np.zeros(masks[-1].shape[0], bool)
        target[labels] = True
        targets.append(target)
        seats.append(seat)
        if seat != learner_seat:
            action = int(opponent.act(view))
        elif network is not None:
            action = int(network.act(view))
        elif rng.random() < explore:
            action = int(rng.choice(np.flatnonzero(view.action_mask)))
        else:
            action = int(rng.choice(labels))
        env.step(action)
        if env.game_state.is_terminal():
            break
    returns = np.sign(np.asarray(env.game_state.returns("win"), np.float64)).astype(np.int8)
    return Positions(
        np.stack(obs), np.stack(masks), np.stack(targets), returns[np.asarray(seats)]
    )


CHUNK_GAMES = 50
"""Games per unit of work: a worker plays a chunk, and the progress moves after each."""


def play_round(
    spec: RoundSpec,
    games: int,
    workers: int,
    report: Callable[[int], None] | None = None,
) -> Positions:
    """The round's ``games`` games, in chunks of :data:`CHUNK_GAMES` split over
    ``workers`` processes (same positions, in game order, for any ``workers``);
    ``report(positions)`` is called with the positions labelled so far after each chunk.
    The processes are spawned, not forked (the parent runs jax): a script that starts
    such a run keeps its code under ``if __name__ == "__main__":``, as for any spawned
    Python process."""
    chunks = [(a, min(CHUNK_GAMES, games - a)) for a in range(0, games, CHUNK_GAMES)]
    parts: list[Positions] = []

    def done(part: Positions) -> None:
        parts.append(part)
        if report is not None:
            report(sum(len(p) for p in parts))

    if workers <= 1 or len(chunks) < 2:
        for first, count in chunks:
            done(play_games(spec, first, count))
        return Positions.join(parts)
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    context = multiprocessing.get_context("spawn")  # never fork a process that runs jax
    with ProcessPoolExecutor(min(workers, len(chunks)), mp_context=context) as pool:
        futures = [pool.submit(play_games, spec, first, count) for first, count in chunks]
        for future in futures:  # in game order
            done(future.result())
    return Positions.join(parts)
