"""The exceptions of moon-envs, shared by the rules engines, the env and the agents."""


class IllegalActionError(ValueError):
    """An action that is not legal in the current position. The state is unchanged."""


class ConfigError(ValueError):
    """A bad game or environment parameter, config or snapshot; the message names the field
    and what is allowed."""


class CallOrderError(RuntimeError, AssertionError):
    """A method called when the env cannot answer it: before ``reset()``, or ``last()``
    once every agent is done. It is a ``RuntimeError`` and, like the errors of PettingZoo's
    order-enforcing wrapper, an ``AssertionError``."""


class NotResetError(CallOrderError, AttributeError):
    """An attribute of the episode (``agents``, ``agent_selection``, ``rewards``, ...) read
    before ``reset()``. Like PettingZoo's order-enforcing wrapper it is an
    ``AttributeError`` (so ``hasattr`` answers False), and a :class:`CallOrderError`."""
