"""A policy trained by the RLlib back-end as an agent (agent spec ``"rllib:PATH"``).

The trainer writes the learner's weights as a plain directory (no pickle)::

    <run>/model/model.json         env id, game parameters, network shape
    <run>/model/module_state.pt    the inference weights (a torch state dict)

:meth:`RllibAgent.load` rebuilds the
:class:`~moon_agents.training.rllib.module.MaskedPPOTorchRLModule` from ``model.json`` and reads the
weights with ``torch.load(weights_only=True)``, so a checkpoint a user hands over is never
unpickled. The agent plays greedily (arg-max over legal actions) or, with ``deterministic=False``,
samples from the masked distribution.

``model.json`` names the env and the parameters it was trained with:
:meth:`RllibAgent.env_params` gives them to ``moon-envs play``/``eval``/``ladder`` and
tournaments, which set those the user did not give (:mod:`moon_agents.seating`); a game
built by hand without them is refused at ``reset``.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import numpy as np

from moon_agents.base import AgentView, EnvParams, check_env_params, legal_actions
from moon_envs.core.game import ConfigError
from moon_envs.core.snapshot import quote

MODEL_JSON = "model.json"
STATE_FILE = "module_state.pt"
META_KEYS = {"env_id", "net_arch", "params", "activation", "trainer"}
"""Fields of ``model.json`` (``env_id`` and ``net_arch`` are required)."""
ACTIVATIONS = ("tanh", "relu")


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def read_model_meta(path: Path) -> dict[str, Any]:
    """``model.json`` of an RLlib model directory, checked like a ``ppo:`` checkpoint's
    description before anything is built from it (no ray needed).

    It must be a UTF-8 JSON object of at most 1 MiB with exactly the fields of
    :data:`META_KEYS` (``env_id`` and ``net_arch`` required): a registered env id, params
    that env accepts, ``net_arch`` a list of at most 32 layer sizes 1..65536 whose network
    has at most 50 million parameters, and an activation the trainer writes. Every problem
    is a :class:`ConfigError` naming the file and the field.
    """
    from moon_agents.checkpoint import (
        MAX_JSON_BYTES,
        MAX_LAYERS,
        MAX_PARAMETERS,
        MAX_WIDTH,
        _parameter_count,
    )
    from moon_envs import list_envs, make
    from moon_envs.core.checks import read_file_capped

    where = str(path)
    raw = read_file_capped(path, MAX_JSON_BYTES, "model description", "an RLlib model.json")
    try:
        meta = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{where}: not UTF-8 text (byte offset {exc.start})") from None
    except (ValueError, RecursionError) as exc:
        raise ConfigError(f"{where}: not valid JSON ({_cut(str(exc), 200)})") from None
    if not isinstance(meta, dict):
        raise ConfigError(f"{where}: must hold a JSON object, got {type(meta).__name__}")
    unknown = sorted(set(meta) - META_KEYS)
    missing = sorted({"env_id", "net_arch"} - set(meta))
    if unknown or missing:
        raise ConfigError(
            f"{where}: unknown field(s) {quote(unknown, 200)} / missing field(s) {missing}; "
            f"allowed fields: {sorted(META_KEYS)}"
        )
    env_id = meta["env_id"]
    if env_id not in list_envs():
        raise ConfigError(f"{where}: env_id={quote(env_id)} is not allowed; allowed: {list_envs()}")
    params = meta.get("params", {})
    if not isinstance(params, dict):
        raise ConfigError(f"{where}: params must be a JSON object, got {quote(params)}")
    try:
        env = make(env_id, **params)
    except (ConfigError, TypeError) as exc:
        raise ConfigError(f"{where}: params: {_cut(str(exc), 300)}") from None
    arch = meta["net_arch"]
    if (
        not isinstance(arch, list)
        or not 1 <= len(arch) <= MAX_LAYERS
        or not all(type(v) is int and 1 <= v <= MAX_WIDTH for v in arch)
    ):
        raise ConfigError(
            f"{where}: net_arch={quote(arch)} must be a list of 1..{MAX_LAYERS} layer sizes "
            f"in 1..{MAX_WIDTH}"
        )
    agent = env.possible_agents[0]
    inputs = int(np.prod(env.observation_space(agent)["observation"].shape))
    n_params = _parameter_count(inputs, arch, int(env.action_space(agent).n))
    if n_params > MAX_PARAMETERS:
        raise ConfigError(
            f"{where}: net_arch={quote(arch)} describes {n_params} parameters; "
            f"allowed: at most {MAX_PARAMETERS}"
        )
    if meta.get("activation", "tanh") not in ACTIVATIONS:
        raise ConfigError(
            f"{where}: activation={quote(meta['activation'])} is not allowed; "
            f"allowed: {list(ACTIVATIONS)}"
        )
    if not isinstance(meta.get("trainer", ""), str):
        raise ConfigError(f"{where}: trainer must be a string, got {quote(meta['trainer'])}")
    return meta


def build_module(meta: dict[str, Any]) -> Any:
    """An inference-only masked PPO module for the env and network named by ``meta``."""
    from moon_agents.training.rllib.module import masked_module_spec
    from moon_agents.training.rllib.spaces import spaces_for

    observation_space, action_space = spaces_for(meta["env_id"], meta.get("params", {}))
    spec = masked_module_spec(
        observation_space,
        action_space,
        meta["net_arch"],
        meta.get("activation", "tanh"),
        inference_only=True,
    )
    return spec.module_class(
        observation_space=spec.observation_space,
        action_space=spec.action_space,
        inference_only=True,
        model_config=dataclasses.asdict(spec.model_config),
    )


def save_module(module: Any, path: Path, meta: dict[str, Any]) -> Path:
    """Write ``module``'s inference weights and ``meta`` to the directory ``path``."""
    import torch

    path.mkdir(parents=True, exist_ok=True)
    reference = build_module(meta).state_dict()
    state = {k: v.detach().cpu().clone() for k, v in module.state_dict().items() if k in reference}
    missing = sorted(set(reference) - set(state))
    if missing:
        raise ConfigError(f"the module lacks the inference weights {missing}")
    torch.save(state, path / STATE_FILE)
    (path / MODEL_JSON).write_text(json.dumps(meta, indent=2))
    return path


class RllibAgent:
    """Acts with a trained masked PPO module on the view's observation and mask."""

    def __init__(
        self,
        module: Any,
        meta: dict[str, Any],
        name: str = "rllib",
        seed: int | None = None,
        deterministic: bool = True,
    ) -> None:
        self.module = module
        self.meta = meta
        self.name = name
        self.deterministic = deterministic
        self.rng = np.random.default_rng(seed)

    @classmethod
    def load(
        cls, path: str | Path, name: str | None = None, seed: int | None = None, **kwargs: Any
    ) -> RllibAgent:
        """Load ``<path>/model.json`` + ``module_state.pt`` (``path`` may be a run folder)."""
        from moon_agents.training.rllib import require_ray
        from moon_agents.weights_files import check_torch_archive, strip_ansi, weights_limit

        p = Path(path)
        if (p / "model" / MODEL_JSON).is_file():
            p = p / "model"
        if not (p / MODEL_JSON).is_file() or not (p / STATE_FILE).is_file():
            raise ConfigError(
                f"{quote(str(path))} is not an RLlib model directory (needs {MODEL_JSON} and "
                f"{STATE_FILE}; agent spec 'rllib:PATH', e.g. rllib:runs/<run>/model)"
            )
        meta = read_model_meta(p / MODEL_JSON)
        require_ray()
        import torch

        module = build_module(meta)  # the described network: its size bounds the weights
        limit = weights_limit(sum(t.numel() for t in module.state_dict().values()))
        check_torch_archive(p / STATE_FILE, limit, str(p / STATE_FILE))
        try:  # tensors only: weights_only refuses any other object
            module.load_state_dict(torch.load(p / STATE_FILE, weights_only=True))
        except Exception as exc:
            raise ConfigError(
                f"{p / STATE_FILE}: not the weights of the network {MODEL_JSON} describes "
                f"({type(exc).__name__}: {_cut(strip_ansi(str(exc)), 200)})"
            ) from None
        module.eval()
        return cls(module, meta, name=name or f"rllib:{p.parent.name}", seed=seed, **kwargs)

    @classmethod
    def from_state(cls, state_dict: dict[str, Any], meta: dict[str, Any], **kwargs: Any):
        """An agent from in-memory weights (used for evaluations during training)."""
        module = build_module(meta)
        module.load_state_dict(state_dict, strict=False)
        module.eval()
        return cls(module, meta, **kwargs)

    def env_params(self) -> EnvParams:
        """The env id and parameters of ``model.json`` (what it was trained with)."""
        return EnvParams(self.meta["env_id"], dict(self.meta.get("params") or {}))

    def reset(self, game: Any, seat: int) -> None:
        """Refuse a game without the parameters it was trained with."""
        check_env_params(self.name, self.env_params(), game)

    def masked_logits(self, view: AgentView) -> np.ndarray:
        import torch
        from ray.rllib.core.columns import Columns

        legal_actions(view)
        obs = np.asarray(view.observation, dtype=np.float32)
        mask = np.asarray(view.action_mask, dtype=np.float32)
        expected = self.module.observation_space["observations"].shape
        if obs.shape != expected or mask.shape != (self.module.action_space.n,):
            raise ConfigError(
                f"{self.name}: observation {obs.shape} / {mask.shape[0]} actions do not match "
                f"the module's {expected} / {self.module.action_space.n}; was it trained on "
                "another game or player count?"
            )
        batch = {
            Columns.OBS: {
                "observations": torch.from_numpy(obs)[None],
                "action_mask": torch.from_numpy(mask)[None],
            }
        }
        with torch.no_grad():
            out = self.module.forward_inference(batch)
        logits = out[Columns.ACTION_DIST_INPUTS][0].numpy().astype(np.float64)
        return np.where(mask > 0, logits, -np.inf)

    def act(self, view: AgentView) -> int:
        logits = self.masked_logits(view)
        if self.deterministic:
            return int(np.argmax(logits))
        p = np.exp(logits - logits.max())
        p /= p.sum()
        return int(self.rng.choice(p.size, p=p))

    def __repr__(self) -> str:
        return f"RllibAgent(name={self.name!r})"
