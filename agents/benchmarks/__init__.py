"""Benchmarks: measured speed and strength, each beside its peer in the same run.

* :mod:`moon_agents.benchmarks.speed`: ``moon-envs bench``, random-play agent-steps/s of
  every env beside PettingZoo's ``connect_four_v3``, and the search cost of the rules cores.
* :mod:`moon_agents.benchmarks.games`: per-game extras printed after those tables.
* :mod:`moon_agents.benchmarks.search_vs_open_spiel`: MCTS beside OpenSpiel's ``MCTSBot``.
* :mod:`moon_agents.benchmarks.rllib_sampling`: RLlib's sampling throughput beside the SB3
  trainer's.
"""
