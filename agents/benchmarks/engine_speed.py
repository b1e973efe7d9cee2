"""Rules-engine measurements of ``moon-envs bench``, and the same loops on OpenSpiel games.

Each function measures for about ``seconds`` and returns a :class:`Sample` (a count and
the seconds it took); the caller turns samples into rates and medians
(:mod:`moon_agents.benchmarks.bench_report`). One loop shape serves our engines and the
OpenSpiel peers:

* :func:`engine_decisions` / :func:`spiel_decisions`: random play on the rules engine.
  Read the player to move; at a chance node draw an outcome with its probability and
  apply it; else read the legal actions (``legal_actions_mask()`` for ours,
  ``legal_actions()`` for OpenSpiel), pick one uniformly (uniforms pre-drawn in blocks
  from one seeded generator) and apply it; start a new game at a terminal state. Player
  actions are counted (*decisions*); chance outcomes are not counted but their time is.
* :func:`clone_cost`: ``state.clone()`` of positions taken from random play
  (:func:`sample_positions`), over and over; the mean time of one clone.
* :func:`mcts_simulations`: the project's MCTS agent (zoo spec ``mcts``: UCT, random
  rollouts, 200 simulations per move) searching positions from random play one after
  the other, each move cut at :data:`MCTS_MOVE_SHARE` of the budget so that several
  positions are searched; simulations per second. :func:`mcts_bot_simulations` does the
  same with OpenSpiel's ``MCTSBot`` (same ``c``, 200 simulations, one random rollout per
  leaf) on OpenSpiel's ``connect_four``.

The OpenSpiel peers (:func:`open_spiel_games`) are its C++ ``connect_four`` and its
Python ``tic_tac_toe`` (``python_tic_tac_toe``); they need ``pip install
"moon-envs[openspiel]"``.
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

OPEN_SPIEL_HINT = 'OpenSpiel peers need pip install "moon-envs[openspiel]"'
OPEN_SPIEL_GAMES = {
    "open_spiel:connect_four": "connect_four",
    "open_spiel:python_tic_tac_toe": "python_tic_tac_toe",
}
MCTS_BOT_PEER = "open_spiel:mcts_bot:connect_four"
MCTS_SIMULATIONS = 200  # the zoo's ``mcts`` default, and MCTSBot's budget per move
MCTS_C = 1.4
MCTS_MOVE_SHARE = 0.25  # one move's search stops after this share of the budget
POSITIONS = 128  # positions sampled per game for clone()
POSITIONS_PER_GAME = 16  # at most this many from one random game
MCTS_POSITIONS = 16  # of those, this many (with 2+ legal actions) are searched


@dataclass(frozen=True)
class Sample:
    """One measurement: ``count`` things done in ``seconds``."""

    count: int
    seconds: float

    @property
    def rate(self) -> float:
        return self.count / self.seconds if self.seconds > 0 else 0.0

    @property
    def micros_each(self) -> float:
        return self.seconds / self.count * 1e6 if self.count else float("inf")


def open_spiel_games() -> dict[str, Any] | None:
    """The OpenSpiel peer games by peer name, or None when OpenSpiel is not installed."""
    try:
        import pyspiel

        import open_spiel.python.games  # noqa: F401  (registers python_tic_tac_toe)
    except ImportError:
        return None
    return {peer: pyspiel.load_game(name) for peer, name in OPEN_SPIEL_GAMES.items()}


def _pick(outcomes: list[tuple[int, float]], u: float) -> int:
    acc, pick = 0.0, outcomes[-1][0]
    for outcome, p in outcomes:
        acc += p
        if u < acc:
            return outcome
    return pick


def engine_decisions(game: Any, seconds: float, seed: int = 0) -> Sample:
    """Random decisions per second on our rules engine ``game`` (see the module docstring)."""
    from moon_envs.core.game import CHANCE, TERMINAL

    rng = np.random.default_rng(seed)
    uniforms = rng.random(4096).tolist()
    state = game.new_initial_state()
    decisions = turn = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        player = state.current_player()
        u = uniforms[turn & 4095]
        turn += 1
        if player == TERMINAL:
            state = game.new_initial_state()
        elif player == CHANCE:
            state.apply_chance_outcome(_pick(state.chance_outcomes(), u))
        else:
            legal = state.legal_actions_mask().nonzero()[0]
            state.apply_action(int(legal[int(u * legal.shape[0])]))
            decisions += 1
        if turn & 4095 == 0:
            uniforms = rng.random(4096).tolist()
        if turn & 63 == 0 and time.perf_counter() >= deadline:
            break
    return Sample(decisions, time.perf_counter() - start)


def spiel_decisions(game: Any, seconds: float, seed: int = 0) -> Sample:
    """:func:`engine_decisions` on an OpenSpiel game (``legal_actions()`` + ``apply_action``)."""
    import pyspiel

    terminal, chance = int(pyspiel.PlayerId.TERMINAL), int(pyspiel.PlayerId.CHANCE)
    rng = np.random.default_rng(seed)
    uniforms = rng.random(4096).tolist()
    state = game.new_initial_state()
    decisions = turn = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        player = state.current_player()
        u = uniforms[turn & 4095]
        turn += 1
        if player == terminal:
            state = game.new_initial_state()
        elif player == chance:
            state.apply_action(_pick(state.chance_outcomes(), u))
        else:
            legal = state.legal_actions()
            state.apply_action(legal[int(u * len(legal))])
            decisions += 1
        if turn & 4095 == 0:
            uniforms = rng.random(4096).tolist()
        if turn & 63 == 0 and time.perf_counter() >= deadline:
            break
    return Sample(decisions, time.perf_counter() - start)


def sample_positions(game: Any, count: int = POSITIONS, seed: int = 0) -> list[Any]:
    """``count`` decision points (a player to move) of random games of ``game``, ours or
    OpenSpiel's: at most :data:`POSITIONS_PER_GAME` drawn uniformly from each game, so
    that openings, middle games and endings all appear; returned in a shuffled order."""
    rng = np.random.default_rng(seed)
    found: list[Any] = []
    while len(found) < count:
        state = game.new_initial_state()
        points = []
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(_pick(outcomes, float(rng.random())))
                continue
            points.append(state.clone())
            legal = state.legal_actions()
            state.apply_action(int(legal[int(rng.integers(len(legal)))]))
        take = min(POSITIONS_PER_GAME, len(points), count - len(found))
        found += [points[i] for i in sorted(rng.choice(len(points), take, replace=False))]
    order = rng.permutation(len(found))
    return [found[i] for i in order]


def clone_cost(states: list[Any], seconds: float) -> Sample:
    """``state.clone()`` of every state in ``states``, over and over, for about
    ``seconds``; :attr:`Sample.micros_each` is the mean time of one clone."""
    clones = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for state in states:
            state.clone()
        clones += len(states)
        if time.perf_counter() >= deadline:
            break
    return Sample(clones, time.perf_counter() - start)


def search_positions(states: list[Any], count: int = MCTS_POSITIONS) -> list[Any]:
    """The first ``count`` of ``states`` with two or more legal actions (a move with one
    legal action is not searched)."""
    return [s for s in states if len(s.legal_actions()) > 1][:count]


def mcts_simulations(game: Any, positions: list[Any], seconds: float, seed: int = 0) -> Sample:
    """Simulations per second of the zoo's ``mcts`` agent searching ``positions`` in turn
    (from the first, for about ``seconds``; one move stops at :data:`MCTS_SIMULATIONS`
    simulations or :data:`MCTS_MOVE_SHARE` of ``seconds``)."""
    from moon_agents.zoo import make_agent
    from moon_envs.core.view import AgentView

    agent = make_agent("mcts", game.spec.name, seed=seed)
    base = agent.config
    simulations = 0
    start = time.perf_counter()
    deadline = start + seconds
    i = 0
    while True:
        left = deadline - time.perf_counter()
        if left <= 0:
            break
        agent.config = dataclasses.replace(base, seconds=min(left, seconds * MCTS_MOVE_SHARE))
        agent.act(AgentView.of(positions[i % len(positions)]))
        simulations += agent.last.simulations
        i += 1
    return Sample(simulations, time.perf_counter() - start)


def mcts_bot_simulations(game: Any, positions: list[Any], seconds: float, seed: int = 0) -> Sample:
    """Simulations per second of OpenSpiel's ``MCTSBot`` (``c`` 1.4, 200 simulations per
    move, one random rollout per leaf, no solver) searching ``positions`` in turn; a
    move runs to its end, so the run may pass ``seconds`` by one move."""
    from open_spiel.python.algorithms import mcts

    rs = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(1, rs)
    bot = mcts.MCTSBot(game, MCTS_C, MCTS_SIMULATIONS, evaluator, random_state=rs, solve=False)
    simulations = 0
    start = time.perf_counter()
    deadline = start + seconds
    i = 0
    while time.perf_counter() < deadline:
        bot.step(positions[i % len(positions)])
        simulations += MCTS_SIMULATIONS
        i += 1
    return Sample(simulations, time.perf_counter() - start)
