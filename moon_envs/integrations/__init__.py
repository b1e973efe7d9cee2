"""Bridges from moon-envs games to other frameworks (each imports its framework lazily).

* :mod:`moon_envs.integrations.open_spiel`: every registered environment as an OpenSpiel
  Python game (``pip install open_spiel``), and as a PettingZoo env again through Shimmy.
* :mod:`moon_envs.integrations.numeric_infos`: infos as fixed-shape ``int64`` arrays, for
  TorchRL's and Tianshou's PettingZoo wrappers.
* :mod:`moon_envs.integrations.matrix`: ``python -m moon_envs.integrations.matrix`` checks
  TorchRL, Tianshou, Shimmy and SuperSuit on every game (docs/integrations.md).
"""
