"""Bridges from moon-envs games to other frameworks (each imports its framework lazily).

* :mod:`moon_envs.integrations.open_spiel`: every registered environment as an OpenSpiel
  Python game (``pip install open_spiel``).
"""
