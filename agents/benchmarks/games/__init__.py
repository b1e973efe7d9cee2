"""Per-game extra measurements for ``moon-envs bench``.

A module ``agents/benchmarks/games/<game>.py`` (import name
``moon_agents.benchmarks.games.<game>``, ``<game>`` a ``GameSpec.name``) may define
``run(seconds: float) -> list[tuple[str, float, str]]`` returning ``(metric, value, unit)``
rows (e.g. solver time per situation); ``moon-envs bench`` prints them after the generic
agent-steps/s comparison with connect_four_v3.
"""
