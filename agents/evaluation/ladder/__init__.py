"""The agent ladder: every pair of a game's agents head to head (``moon-envs ladder``).

* :mod:`moon_agents.evaluation.ladder.run`: plays the pairings (cached, in workers);
* :mod:`moon_agents.evaluation.ladder.report`: the ranking, the pairwise table, files, plot;
* :mod:`moon_agents.evaluation.ladder.lineups`: each game's published line-up and params.
"""
