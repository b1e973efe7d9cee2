"""Training: experiment configs, run folders and the trainers.

* :mod:`moon_agents.training.config`: load, validate and save YAML experiment configs
  (schema in :mod:`~moon_agents.training.sections` and :mod:`~moon_agents.training.schema`,
  the strict YAML reader in :mod:`~moon_agents.training.strict_yaml`).
* :mod:`moon_agents.training.train`: :func:`~moon_agents.training.train.train`, the SB3
  MaskablePPO self-play trainer, which hands ``algorithm: rllib-ppo`` configs to RLlib.
* :mod:`moon_agents.training.build`: seeds, vectorised envs with their opponent pools, the
  model; :mod:`~moon_agents.training.callback`: snapshots, evaluations, checkpoints;
  :mod:`~moon_agents.training.run_folder`: the run folder, versions, metrics and plot.
* :mod:`moon_agents.training.rllib`: the Ray RLlib back-end (its own env, module, league,
  config section and trainer).

A new training algorithm gets its own subpackage here (as ``rllib`` has), a config
section selected by ``algorithm.name``, and a branch in
:func:`~moon_agents.training.train.train`.
"""
