"""moon_agents: agents, training and evaluation for moon-envs (the ``agents/`` folder).

Every agent plays through ``act(view) -> action`` (:class:`Agent`); :func:`make_agent`
builds one from a name such as ``"greedy"``, ``"mcts:simulations=200"`` or
``"ppo:runs/x/model.zip"``. The package is arranged by job:

* here: the agent API (:mod:`~moon_agents.base`, :mod:`~moon_agents.random_agent`), the
  name registry (:mod:`~moon_agents.zoo`), trained-policy loading
  (:mod:`~moon_agents.policy`, :mod:`~moon_agents.checkpoint`) and the shipped policies;
* :mod:`moon_agents.heuristics`: each game's rule-of-thumb agents;
  :mod:`moon_agents.search`: MCTS and information-set MCTS;
* :mod:`moon_agents.training`: configs, run folders, the SB3 trainer, RLlib beneath it;
* :mod:`moon_agents.evaluation`: tournaments, results, ratings, the ladder;
* :mod:`moon_agents.play`: human play and replays;
* :mod:`moon_agents.cli`: the ``moon-envs`` command;
* :mod:`moon_agents.benchmarks`: speed and strength beside peer libraries.

Imports point one way: ``moon_agents`` uses ``moon_envs``, never the reverse
(``docs/architecture.md``).
"""

from moon_agents.base import Agent, AgentView, legal_actions
from moon_agents.random_agent import RandomAgent
from moon_agents.zoo import make_agent

__all__ = ["Agent", "AgentView", "RandomAgent", "legal_actions", "make_agent"]
