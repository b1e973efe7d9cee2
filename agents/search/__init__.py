"""Search agents for every game: UCT MCTS with chance nodes and information-set search.

See :mod:`moon_agents.search.mcts` for the algorithm and :mod:`moon_agents.search.spec` for the
parameters (``mcts:simulations=400,rollout=greedy,...`` in an agent spec).
"""

from moon_agents.search.mcts import MCTSAgent, SearchStats
from moon_agents.search.spec import MCTSConfig, parse_params

__all__ = ["MCTSAgent", "MCTSConfig", "SearchStats", "parse_params"]
