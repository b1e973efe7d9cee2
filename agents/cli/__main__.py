"""``python -m moon_agents.cli ARGS`` runs ``moon-envs ARGS``."""

from moon_agents.cli.main import main

raise SystemExit(main())
