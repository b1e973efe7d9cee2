"""Which RL libraries run which game: the compatibility table of docs/integrations.md.

::

    python -m moon_envs.integrations.matrix              # the table, in Markdown
    python -m moon_envs.integrations.matrix --steps 40 --env star_master_v0

Every check builds the library's own wrapper over one game the way its documentation
says, then plays random legal moves for ``--steps`` steps (new games as old ones end) and
returns a short note; a check that raises is a failure, shown with the error. A library
that is not installed is shown as such. The checks (:data:`CHECKS`):

* PettingZoo's ``api_test``;
* TorchRL's ``PettingZooWrapper(env=..., use_mask=True)`` and ``rollout``, on the plain
  env and under :func:`~moon_envs.integrations.numeric_infos.numeric_infos`;
* Tianshou's ``PettingZooEnv`` in a ``Collector`` with a replay buffer and random masked
  policies, on the plain env and under ``numeric_infos``;
* Shimmy's ``OpenSpielCompatibilityV0`` over a 3-player game, in the two forms: with
  ``game_name`` and ``config``, and with ``env=load_game(...)``;
* SuperSuit: its reward and action wrappers; its observation wrappers on the Dict
  observations and on the ``"observation"`` Box taken out with ``observation_lambda_v0``;
  ``frame_skip_v0`` and ``black_death_v3``; ``sticky_actions_v0`` and
  ``delay_observations_v0`` under both ``illegal_action`` modes.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import importlib.metadata
from collections.abc import Callable
from typing import Any

import numpy as np

import moon_envs
from moon_envs.integrations.numeric_infos import numeric_infos

PLAYERS = 3
"""The seat count of the Shimmy checks: valid for every game, and the default of none."""


def _random_play(env: Any, steps: int, seed: int) -> tuple[int, int]:
    """Random moves through PettingZoo's loop, legal by the mask the agent is shown: the
    observation's ``"action_mask"``, or the moon-envs env's own where a wrapper took the
    observation's mask away; returns (games ended, games ended by an illegal action)."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    games = penalized = 0
    for _ in range(steps):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            penalized += "illegal_action" in env.unwrapped.infos[env.agent_selection]
            env.step(None)
            if not env.agents:
                games += 1
                env.reset(seed=seed + games)  # wrappers with their own draws reseed too
            continue
        if isinstance(obs, dict) and "action_mask" in obs:
            mask = obs["action_mask"]
        else:
            mask = env.unwrapped.action_mask(env.agent_selection)
        env.step(int(rng.choice(np.flatnonzero(mask))))
    return games, penalized // max(1, len(env.possible_agents))


def api_test(env_id: str, steps: int, seed: int) -> str:
    from pettingzoo.test import api_test as pz_api_test

    pz_api_test(moon_envs.make(env_id), num_cycles=steps)
    return ""


def _torchrl(wrap: Callable[[Any], Any]) -> Callable[[str, int, int], str]:
    def check(env_id: str, steps: int, seed: int) -> str:
        import torch
        from torchrl.envs.libs.pettingzoo import PettingZooWrapper

        torch.manual_seed(seed)
        moon = wrap(moon_envs.make(env_id))
        rollout = PettingZooWrapper(env=moon, use_mask=True, seed=seed).rollout(
            steps, break_when_any_done=False
        )
        if "info" not in rollout["player_0"].keys() and moon.unwrapped.infos["player_0"]:
            return "runs; its infos never reach the TensorDict (empty at reset)"
        return ""

    return check


def _tianshou(wrap: Callable[[Any], Any]) -> Callable[[str, int, int], str]:
    def check(env_id: str, steps: int, seed: int) -> str:
        from tianshou.algorithm.multiagent.marl import MultiAgentPolicy
        from tianshou.algorithm.random import MARLRandomDiscreteMaskedOffPolicyAlgorithm
        from tianshou.data import Collector, VectorReplayBuffer
        from tianshou.env import DummyVectorEnv, PettingZooEnv

        def make() -> Any:
            moon = moon_envs.make(env_id)
            moon.reset(seed=seed)  # the later resets, unseeded, go on from this generator
            return PettingZooEnv(wrap(moon))

        env = make()
        random = MARLRandomDiscreteMaskedOffPolicyAlgorithm(env.action_space).policy
        policy = MultiAgentPolicy(dict.fromkeys(env.agents, random))
        np.random.seed(seed)  # the random policy draws from numpy's global generator
        collector = Collector(policy, DummyVectorEnv([make]), VectorReplayBuffer(2 * steps, 1))
        collector.reset()
        collector.collect(n_step=steps)
        return ""

    return check


def _shimmy_play(env: Any, steps: int, seed: int) -> str:
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if not env.agents:
            env.reset()
        _, _, term, trunc, info = env.last()
        legal = np.flatnonzero(info["action_mask"])
        env.step(None if term or trunc else int(rng.choice(legal)))
    return f"{env.game_state.get_game().num_players()} players after reset"


def shimmy_config(env_id: str, steps: int, seed: int) -> str:
    from moon_envs.integrations.open_spiel import shimmy_env

    return _shimmy_play(shimmy_env(env_id, num_players=PLAYERS), steps, seed)


def shimmy_env_form(env_id: str, steps: int, seed: int) -> str:
    from shimmy import OpenSpielCompatibilityV0

    from moon_envs.integrations.open_spiel import load_game

    game = load_game(env_id, num_players=PLAYERS)
    return _shimmy_play(OpenSpielCompatibilityV0(env=game), steps, seed)


def _box(env: Any) -> Any:
    """The ``"observation"`` Box alone (the mask stays at ``env.unwrapped.action_mask``)."""
    import supersuit as ss

    return ss.observation_lambda_v0(env, lambda o, _: o["observation"], lambda s: s["observation"])


def _supersuit(*wrappers: Callable[[Any, Any], Any], illegal_action: str = "raise") -> Callable:
    """A check that plays each of ``wrappers`` (``f(supersuit, env) -> wrapped``) over a
    fresh env of its own."""

    def check(env_id: str, steps: int, seed: int) -> str:
        import supersuit as ss

        games = penalized = 0
        for wrap in wrappers:
            env = wrap(ss, moon_envs.make(env_id, illegal_action=illegal_action))
            ended, by_illegal = _random_play(env, steps, seed)
            games, penalized = games + ended, penalized + by_illegal
        return f"{penalized} of {games} games ended by an illegal action" if penalized else ""

    return check


CHECKS: dict[str, tuple[str, Callable[[str, int, int], str]]] = {
    "PettingZoo api_test": ("pettingzoo", api_test),
    "TorchRL PettingZooWrapper": ("torchrl", _torchrl(lambda env: env)),
    "TorchRL PettingZooWrapper + numeric_infos": ("torchrl", _torchrl(numeric_infos)),
    "Tianshou PettingZooEnv + Collector": ("tianshou", _tianshou(lambda env: env)),
    "Tianshou PettingZooEnv + Collector + numeric_infos": ("tianshou", _tianshou(numeric_infos)),
    "Shimmy OpenSpielCompatibilityV0(game_name=, config=)": ("shimmy", shimmy_config),
    "Shimmy OpenSpielCompatibilityV0(env=load_game(...))": ("shimmy", shimmy_env_form),
    "SuperSuit clip_reward_v0, reward_lambda_v0, action_lambda_v1, pad_action_space_v0": (
        "supersuit",
        _supersuit(
            lambda ss, e: ss.clip_reward_v0(e, -1, 1),
            lambda ss, e: ss.reward_lambda_v0(e, lambda r: r),
            lambda ss, e: ss.action_lambda_v1(e, lambda a, _: a, lambda s: s),
            lambda ss, e: ss.pad_action_space_v0(e),
        ),
    ),
    "SuperSuit dtype_v0 on the Dict observation": (
        "supersuit",
        _supersuit(lambda ss, e: ss.dtype_v0(e, np.float16)),
    ),
    "SuperSuit frame_stack_v1 on the Dict observation": (
        "supersuit",
        _supersuit(lambda ss, e: ss.frame_stack_v1(e, 2)),
    ),
    "SuperSuit dtype_v0, flatten_v0, normalize_obs_v0, frame_stack_v1, agent_indicator_v0, "
    "pad_observations_v0 on observation_lambda_v0's Box": (
        "supersuit",
        _supersuit(
            lambda ss, e: ss.dtype_v0(_box(e), np.float16),
            lambda ss, e: ss.flatten_v0(_box(e)),
            lambda ss, e: ss.normalize_obs_v0(_box(e)),
            lambda ss, e: ss.frame_stack_v1(_box(e), 2),
            lambda ss, e: ss.agent_indicator_v0(_box(e)),
            lambda ss, e: ss.pad_observations_v0(_box(e)),
        ),
    ),
    "SuperSuit frame_skip_v0(2)": ("supersuit", _supersuit(lambda ss, e: ss.frame_skip_v0(e, 2))),
    "SuperSuit black_death_v3": ("supersuit", _supersuit(lambda ss, e: ss.black_death_v3(e))),
}
"""Row name -> (the distribution it needs, the check ``f(env_id, steps, seed) -> note``)."""

_ACTION_CHANGERS = {
    "sticky_actions_v0(0.25)": lambda ss, e: ss.sticky_actions_v0(e, 0.25),
    "delay_observations_v0(1)": lambda ss, e: ss.delay_observations_v0(e, 1),
}
for _label, _wrap in _ACTION_CHANGERS.items():  # the last rows: each in both modes
    for _mode in ("raise", "penalize"):
        CHECKS[f"SuperSuit {_label}, illegal_action={_mode!r}"] = (
            "supersuit",
            _supersuit(_wrap, illegal_action=_mode),
        )


def run_check(name: str, env_id: str, steps: int = 200, seed: int = 0) -> tuple[bool, str]:
    """``(passed, note)`` of one check on one game; a failure's note is the error."""
    _, check = CHECKS[name]
    try:
        with contextlib.redirect_stdout(io.StringIO()):  # api_test prints its progress
            return True, check(env_id, steps, seed)
    except Exception as err:  # the table records every failure, whatever it is
        first = str(err).splitlines()[0] if str(err) else ""
        if len(first) > 60:
            first = first[:60].rsplit(" ", 1)[0] + " …"
        return False, f"{type(err).__name__}: {first}"


def version(distribution: str) -> str | None:
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return None


def table(env_ids: list[str], steps: int, seed: int) -> str:
    """The Markdown table: a row per check, a column per game."""
    lines = [
        "| check | " + " | ".join(f"`{e}`" for e in env_ids) + " |",
        "|---" * (len(env_ids) + 1) + "|",
    ]
    for name, (distribution, _) in CHECKS.items():
        if version(distribution) is None:
            cells = [f"not installed ({distribution})"] * len(env_ids)
        else:
            cells = []
            for env_id in env_ids:
                passed, note = run_check(name, env_id, steps, seed)
                cells.append(("✓" if passed else "✗") + (f" {note}" if note else ""))
        lines.append(f"| {name} | " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m moon_envs.integrations.matrix")
    parser.add_argument("--steps", type=int, default=200, help="random steps per check")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--env", nargs="*", default=None, help="env ids (default: all)")
    args = parser.parse_args(argv)
    names = ("pettingzoo", "torchrl", "tianshou", "shimmy", "supersuit", "open_spiel")
    found = ", ".join(f"{d} {version(d) or '(not installed)'}" for d in names)
    print(f"moon-envs {moon_envs.__version__}; {found}; {args.steps} steps per check\n")
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the libraries' own deprecation notes
        print(table(args.env or moon_envs.list_envs(), args.steps, args.seed))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
