"""The ``moon-envs`` command line: one module per subcommand.

:mod:`moon_agents.cli.main` builds the parser and dispatches (the ``moon-envs`` entry
point is :func:`moon_agents.cli.main.main`; ``python -m moon_agents.cli`` runs it too).
Each subcommand lives in its own module: ``list_envs`` (``moon-envs list``, with
:mod:`~moon_agents.cli.env_page` for one env's page), ``play``, ``train``, ``evaluate``
(``moon-envs eval``), ``ladder`` and ``bench``; ``usage`` holds
:class:`~moon_agents.cli.usage.UsageError` and the reading of ``--param`` values. A new
subcommand is a new module here plus its parser in ``main``.
"""
