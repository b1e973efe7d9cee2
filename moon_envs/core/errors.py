"""The two exceptions of moon-envs, shared by the rules engines, the env and the agents."""


class IllegalActionError(ValueError):
    """An action that is not legal in the current position. The state is unchanged."""


class ConfigError(ValueError):
    """A bad game or environment parameter, config or snapshot; the message names the field
    and what is allowed."""
