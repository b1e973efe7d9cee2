"""Replay equivalence: a twin must play exactly the Python engine's game, step by step.

:func:`record_game` plays the Python engine with the given policies and records every
event (player actions and chance outcomes) with what the engine shows after it: the
player to move, the legal mask, every seat's observation, the chance probabilities, the
rewards, termination, scores and the final returns. :func:`replay` drives the twin through
its explicit layer (``apply_action`` / ``apply_chance``) over a batch of recorded games at
once (``jax.vmap`` over games, ``jax.lax.scan`` over events) and :func:`compare` lists
every difference, naming the game, the step, the field and both values.

Observations are compared with a tolerance of ``1e-5`` (float32 rounding); everything else
exactly, except that the twin's mask is all ``True`` once the game is over (pgx's
convention) where the engine's is all zero.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from moon_envs.core.game import CHANCE, TERMINAL, Game, State

Policy = Callable[[State, np.random.Generator], int]
"""Chooses a legal action for the player to move in a Python state."""

OBS_TOLERANCE = 1e-5


def random_policy(state: State, rng: np.random.Generator) -> int:
    """A uniformly random legal action."""
    return int(rng.choice(np.flatnonzero(state.legal_actions_mask())))


@dataclass
class Trajectory:
    """One Python game: its events and what the engine showed before the first and after
    each one (index 0 is the initial state, index ``t + 1`` follows event ``t``)."""

    events: np.ndarray  # int32 [T]
    event_is_chance: np.ndarray  # bool [T]
    player: np.ndarray  # int32 [T + 1]
    mask: np.ndarray  # bool [T + 1, A]
    observations: np.ndarray  # float32 [T + 1, num_players, *obs]
    chance_probs: np.ndarray  # float32 [T + 1, C]
    rewards: np.ndarray  # float32 [T + 1, num_players]
    scores: np.ndarray  # float32 [T + 1, num_players]
    returns: np.ndarray  # float32 [num_players], "win" returns at the end
    labels: list[str] = field(default_factory=list)  # the events as text, for reports

    def __len__(self) -> int:
        return int(self.events.shape[0])


def record_game(
    game: Game,
    policies: Sequence[Policy],
    rng: np.random.Generator,
    reward_mode: str = "win",
    max_events: int = 100_000,
) -> Trajectory:
    """Play one game of ``game`` with ``policies[seat]`` and chance drawn from ``rng``."""
    spec = game.spec
    state = game.new_initial_state()
    n, outcomes = spec.num_players, max(spec.max_chance_outcomes, 1)
    events, is_chance, labels = [], [], []
    rows: dict[str, list[np.ndarray]] = {k: [] for k in ("pl", "mask", "obs", "probs", "rew", "sc")}

    def snapshot() -> None:
        player = state.current_player()
        rows["pl"].append(np.int32(player))
        rows["mask"].append(state.legal_actions_mask().astype(bool))
        rows["obs"].append(np.stack([state.observation(p) for p in range(n)]))
        probs = np.zeros(outcomes, np.float32)
        for o, p in state.chance_outcomes():
            probs[o] += p
        rows["probs"].append(probs)
        rows["rew"].append(state.rewards(reward_mode).astype(np.float32))
        rows["sc"].append(state.scores().astype(np.float32))

    snapshot()
    while not state.is_terminal():
        if len(events) >= max_events:
            raise RuntimeError(f"the game did not end within {max_events} events")
        player = state.current_player()
        if player == CHANCE:
            chances = state.chance_outcomes()
            probs = np.array([p for _, p in chances])
            event = int(chances[rng.choice(len(chances), p=probs / probs.sum())][0])
            labels.append(f"chance {event}")
            state.apply_chance_outcome(event)
        else:
            event = int(policies[player](state, rng))
            labels.append(f"p{player} {event} ({state.action_to_string(event)})")
            state.apply_action(event)
        events.append(event)
        is_chance.append(player == CHANCE)
        snapshot()
    return Trajectory(
        events=np.array(events, np.int32),
        event_is_chance=np.array(is_chance, bool),
        player=np.array(rows["pl"], np.int32),
        mask=np.stack(rows["mask"]),
        observations=np.stack(rows["obs"]).astype(np.float32),
        chance_probs=np.stack(rows["probs"]),
        rewards=np.stack(rows["rew"]),
        scores=np.stack(rows["sc"]),
        returns=state.returns("win").astype(np.float32),
        labels=labels,
    )


def _padded_length(t: int) -> int:
    """Pad event counts to a few lengths (powers of two) so that replays share compiles."""
    return max(16, 1 << (max(t, 1) - 1).bit_length())


def replay(env, trajectories: Sequence[Trajectory]) -> dict[str, np.ndarray]:
    """Drive ``env`` (a :class:`~moon_envs.jax.env.JaxEnv`) through ``trajectories`` in one
    batch; returns per-step arrays shaped like the trajectories' (padded to one length)."""
    import jax.numpy as jnp

    length = _padded_length(max(len(t) for t in trajectories))
    events = np.zeros((len(trajectories), length), np.int32)
    kinds = np.full((len(trajectories), length), 2, np.int32)  # 0 action, 1 chance, 2 pad
    for i, t in enumerate(trajectories):
        events[i, : len(t)] = t.events
        kinds[i, : len(t)] = t.event_is_chance.astype(np.int32)
    return {
        k: np.asarray(v)
        for k, v in _replay_fn(env)(jnp.asarray(events), jnp.asarray(kinds)).items()
    }


def _replay_fn(env) -> Callable:
    """The jitted batched replay of ``env`` (one per twin object)."""
    import jax
    import jax.numpy as jnp

    cached = getattr(env, "_equivalence_replay", None)
    if cached is not None:  # compiled once per twin object
        return cached
    n = env.num_players

    def view(state) -> dict:
        return {
            "player": jnp.where(state.terminated, TERMINAL, state.current_player),
            "mask": state.legal_action_mask,
            "observations": jax.vmap(lambda p: env.observe(state, p))(jnp.arange(n)),
            "chance_probs": env.chance_probs(state),
            "rewards": state.rewards,
            "scores": env._scores(state._x).astype(jnp.float32),
            "terminated": state.terminated,
            "returns": env.win_returns(env._winners(state._x)),
        }

    def one_game(events, kinds):
        state = env.initial_state()

        def advance(state, event_kind):
            event, kind = event_kind
            after = jax.lax.cond(
                kind == 1,
                lambda: env.apply_chance(state, event),
                lambda: env.apply_action(state, event),
            )
            after = jax.tree.map(lambda a, b: jnp.where(kind == 2, a, b), state, after)
            return after, view(after)

        _, steps = jax.lax.scan(advance, state, (events, kinds))
        first = view(state)
        return jax.tree.map(lambda a, b: jnp.concatenate([a[None], b]), first, steps)

    fn = jax.jit(jax.vmap(one_game))
    env._equivalence_replay = fn
    return fn


def compare(
    trajectories: Sequence[Trajectory], replayed: dict[str, np.ndarray], limit: int = 20
) -> list[str]:
    """Every difference between the recorded games and the twin's replay (at most
    ``limit``), each naming the game, the step, the field and both values."""
    problems: list[str] = []

    def report(g: int, t: int, what: str, expected, got, traj: Trajectory) -> None:
        last = traj.labels[max(t - 1, 0) : t] if t > 0 else ["(initial state)"]
        problems.append(
            f"game {g}, step {t} (after {last[0] if last else '-'}): {what}: engine "
            f"{_show(expected)}, twin {_show(got)}"
        )

    for g, traj in enumerate(trajectories):
        steps = len(traj) + 1
        for t in range(steps):
            if len(problems) >= limit:
                return problems
            expected_player = int(traj.player[t])
            if int(replayed["player"][g, t]) != expected_player:
                report(g, t, "current player", expected_player, replayed["player"][g, t], traj)
                break  # everything after a divergence differs too
            if bool(replayed["terminated"][g, t]) != (expected_player == TERMINAL):
                report(
                    g,
                    t,
                    "terminated",
                    expected_player == TERMINAL,
                    replayed["terminated"][g, t],
                    traj,
                )
                break
            mask = replayed["mask"][g, t]
            if expected_player == TERMINAL:
                if not mask.all():
                    report(g, t, "mask at the end (pgx: all True)", "all True", mask, traj)
            elif not np.array_equal(mask, traj.mask[t]):
                diff = np.flatnonzero(mask != traj.mask[t])[:10].tolist()
                report(g, t, f"legal mask (differs at actions {diff})", traj.mask[t], mask, traj)
                break
            obs = replayed["observations"][g, t]
            if not np.allclose(obs, traj.observations[t], atol=OBS_TOLERANCE, rtol=0):
                seat, *where = np.argwhere(
                    ~np.isclose(obs, traj.observations[t], atol=OBS_TOLERANCE, rtol=0)
                )[0]
                report(
                    g,
                    t,
                    f"observation of seat {seat} at index {tuple(where)}",
                    traj.observations[t][(seat, *where)],
                    obs[(seat, *where)],
                    traj,
                )
                break
            for key in ("chance_probs", "rewards", "scores"):
                if not np.allclose(replayed[key][g, t], getattr(traj, key)[t], atol=1e-5, rtol=0):
                    report(g, t, key, getattr(traj, key)[t], replayed[key][g, t], traj)
                    break
        else:
            if not np.allclose(replayed["returns"][g, steps - 1], traj.returns, atol=1e-6):
                report(
                    g,
                    steps - 1,
                    "final returns",
                    traj.returns,
                    replayed["returns"][g, steps - 1],
                    traj,
                )
    return problems


def _show(value) -> str:
    arr = np.asarray(value)
    if arr.ndim == 0:
        return repr(arr.item())
    if arr.size > 12:
        return f"{arr.dtype}[{arr.shape}] nonzero at {np.flatnonzero(arr)[:12].tolist()}"
    return np.array2string(arr, precision=6)


_TWINS: dict[str, object] = {}


@dataclass
class EquivalenceReport:
    """What :func:`check` did: games and events compared, and every difference found."""

    env_id: str
    params: dict
    games: int
    events: int
    problems: list[str]

    @property
    def ok(self) -> bool:
        return not self.problems


def check(
    env_id: str,
    params: dict,
    policies: Sequence[Policy] | Callable[[int], Sequence[Policy]],
    games: int,
    seed: int = 0,
    batch: int = 64,
    reward_mode: str = "win",
) -> EquivalenceReport:
    """Record ``games`` Python games of ``env_id`` with ``params`` and compare the twin
    on all of them. ``policies`` is one policy per seat, or a function of the game
    number that returns them (to mix agents)."""
    import moon_envs.jax as mj

    key = json.dumps([env_id, params, reward_mode], sort_keys=True)
    if key not in _TWINS:  # one twin per parameter set, so its replay compiles once
        _TWINS[key] = mj.make(env_id, reward_mode=reward_mode, **params)
    twin = _TWINS[key]
    game = twin.game
    rng = np.random.default_rng(seed)
    problems: list[str] = []
    events = 0
    for start in range(0, games, batch):
        chunk = []
        for g in range(start, min(start + batch, games)):
            seats = policies(g) if callable(policies) else policies
            chunk.append(record_game(game, seats, rng, reward_mode))
        events += sum(len(t) for t in chunk)
        found = compare(chunk, replay(twin, chunk))
        problems += [f"[{env_id} {params} game {start}+] {p}" for p in found]
        if len(problems) >= 20:
            break
    return EquivalenceReport(env_id, dict(params), games, events, problems)
