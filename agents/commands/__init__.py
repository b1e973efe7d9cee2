"""The subcommands of ``moon-envs``, one module each.

``list_envs`` (``moon-envs list``), ``play``, ``train``, ``evaluate`` (``moon-envs eval``)
and ``bench``; ``usage`` holds :class:`~agents.commands.usage.UsageError` and the reading
of ``--param`` values. :mod:`agents.cli` builds the parser and dispatches to them.
"""
