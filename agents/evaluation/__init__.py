"""Evaluation: tournaments, their results and ratings, and the agent ladder.

* :mod:`moon_agents.evaluation.tournament`: games between any agents with seats rotated
  (``moon-envs eval``).
* :mod:`moon_agents.evaluation.results`: one record per game, per-agent totals, tables,
  files and plots; :mod:`~moon_agents.evaluation.ratings`: Wilson intervals and Elo.
* :mod:`moon_agents.evaluation.ladder`: the round-robin ladder of a game's agents
  (``moon-envs ladder``) and its reports.

A new report reads a :class:`~moon_agents.evaluation.results.TournamentResult` or a
ladder's result and lives beside them here.
"""
