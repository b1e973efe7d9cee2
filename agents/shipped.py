"""The files of the shipped agents in ``agents/trained/`` and the specs that name them.

* ``trained``: ``GAME.npz`` (a network trained on the JAX twin) where there is one, else
  ``GAME.zip`` (a MaskablePPO policy);
* ``trained-ppo``: ``GAME.zip``;
* ``trained:KEY=N``: the network shipped for one variant of the game, ``GAME_KEYN.npz``
  (Moonstar's ``trained:game=6`` is ``moonstar_game6.npz``).

:mod:`moon_agents.zoo` builds the agents; this module only finds their files, so that the
search agents and :mod:`moon_agents.jax_baseline` can find them without the zoo.
"""

from __future__ import annotations

import re
from pathlib import Path

from moon_agents.net_weights import TRAINED_DIR
from moon_envs.core.game import ConfigError
from moon_envs.core.snapshot import quote


def trained_model(game: str, kind: str = "trained") -> Path | None:
    """The file of the shipped agent ``kind`` of ``game``, or None if the game has none:
    ``"trained"``, the ``.npz`` network where there is one, else the ``.zip`` policy;
    ``"trained-ppo"``, the ``.zip``; ``"trained:KEY=N"``, the variant's ``GAME_KEYN.npz``."""
    if kind.startswith("trained:"):
        path = TRAINED_DIR / f"{game}_{variant_suffix(kind)}.npz"
        return path if path.is_file() else None
    suffixes = (".npz", ".zip") if kind == "trained" else (".zip",)
    for suffix in suffixes:
        path = TRAINED_DIR / f"{game}{suffix}"
        if path.is_file():
            return path
    return None


_VARIANT_SPEC = re.compile(r"trained:([a-z][a-z_]{0,30})=(\d{1,4})")
_VARIANT_FILE = re.compile(r"([a-z][a-z_]{0,30}?)(\d{1,4})")


def variant_suffix(spec: str) -> str:
    """``"trained:game=6"`` -> ``"game6"``, the file-name suffix of a variant's network;
    a spec of another form is a :class:`ConfigError` naming the form."""
    match = _VARIANT_SPEC.fullmatch(spec)
    if match is None:
        raise ConfigError(
            f"agent {quote(spec)}: a shipped variant is written trained:KEY=N, for example "
            "'trained:game=6' (KEY an env parameter, N a whole number)"
        )
    return match.group(1) + match.group(2)


def trained_variants(game: str) -> list[str]:
    """The ``trained:KEY=N`` specs of the variant networks shipped for ``game``."""
    specs = []
    for path in TRAINED_DIR.glob(f"{game}_*.npz"):
        match = _VARIANT_FILE.fullmatch(path.stem[len(game) + 1 :])
        if match is not None:
            specs.append((match.group(1), int(match.group(2))))
    return [f"trained:{key}={value}" for key, value in sorted(specs)]


def shipped_games(suffixes: tuple[str, ...] = (".npz", ".zip")) -> list[str]:
    """The games with a shipped agent file of one of ``suffixes`` (variants left out)."""
    stems = {p.stem for s in suffixes for p in TRAINED_DIR.glob(f"*{s}")}
    return sorted(s for s in stems if not any(s.startswith(f"{o}_") for o in stems))


def is_shipped(spec: str) -> bool:
    """Whether ``spec`` names a shipped agent: ``trained``, ``trained-ppo`` or
    ``trained:KEY=N``."""
    return spec in ("trained", "trained-ppo") or spec.startswith("trained:")
