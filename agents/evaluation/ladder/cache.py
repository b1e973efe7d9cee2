"""The ladder's pairing cache: what a stored pairing was played with, and reading it back.

A finished pairing is stored in ``<out>/pairings/A__B.json`` as ``{"key": ..., "games":
[...]}``. The key holds everything its games depend on: the cache version, env id and
parameters, seed, number of games, opening protocol and both agents' labels, specs and
model-file hashes (:func:`spec_fingerprint`). A file whose key differs, or that cannot be
read, is played again. Version 2 added the games' keys, first movers and openings
(:mod:`moon_agents.evaluation.distinct`), so pairings stored before are replayed.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from moon_agents.evaluation.results import GameRecord

__all__ = ["CACHE_VERSION", "cache_key", "read_cache", "record_from_dict", "spec_fingerprint"]

CACHE_VERSION = 2
"""2: games keyed, first movers and openings recorded; the opening protocol in the key."""


def spec_fingerprint(spec: str, game: str) -> str:
    """A hash of the model file(s) a ``ppo:``/``rllib:`` spec names (``""`` for others), so
    that a retrained model is not mistaken for the one a cached pairing played."""
    from moon_agents.zoo import model_path

    path = model_path(spec, game)
    if path is None or not path.exists():
        return ""
    p = Path(path)
    files = sorted(f for f in p.rglob("*") if f.is_file()) if p.is_dir() else [p]
    digest = hashlib.sha256()
    for f in files:
        digest.update(f.name.encode())
        digest.update(f.read_bytes())
    return digest.hexdigest()[:16]


def cache_key(
    env_id: str,
    params: Mapping[str, Any],
    seed: int,
    games: int,
    a: tuple,
    b: tuple,
    game: str,
    opening: str = "none",
) -> dict[str, Any]:
    """What a pairing of ``a`` and ``b`` (``(label, spec)``) was played with."""
    return {
        "version": CACHE_VERSION,
        "env_id": env_id,
        "env_params": dict(params),
        "seed": seed,
        "games": games,
        "opening": opening,
        "a": {"label": a[0], "spec": a[1], "model": spec_fingerprint(a[1], game)},
        "b": {"label": b[0], "spec": b[1], "model": spec_fingerprint(b[1], game)},
    }


def read_cache(path: Path, key: dict[str, Any]) -> list[GameRecord] | None:
    """The stored games of a pairing, or None when absent, unreadable or played otherwise."""
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("key") != json.loads(json.dumps(key)):
        return None
    try:
        return [record_from_dict(g) for g in data["games"]]
    except (KeyError, TypeError, ValueError):
        return None


def record_from_dict(g: Mapping[str, Any]) -> GameRecord:
    """A :class:`GameRecord` from its stored dict (older dicts lack the newer fields)."""
    return GameRecord(
        int(g["game"]),
        int(g["seed"]),
        tuple(str(s) for s in g["seats"]),
        tuple(float(s) for s in g["scores"]),
        tuple(int(w) for w in g["winners"]),
        int(g["length"]),
        tuple(int(d) for d in g.get("decisions", ())),
        tuple(float(t) for t in g.get("seconds", ())),
        str(g.get("key", "")),
        int(g.get("first_mover", -1)),
        tuple(int(m) for m in g.get("opening", ())),
    )
