"""Setting up a game between agents: how many players, and with which env parameters.

The same two rules hold for ``moon-envs play``, ``eval`` and ``ladder`` and for the Python
functions behind them (:func:`moon_agents.evaluation.tournament.tournament`,
:func:`moon_agents.evaluation.ladder.run.run_ladder`):

* **One agent per seat.** Where agents are named for the seats (``--agents A B C``, and
  ``--human`` for one more), their number is the player count. A ``num_players`` given
  as well must be the same number; a count the game cannot seat is refused with the
  counts it allows.
* **Trained agents bring their parameters.** An agent with ``env_params()`` (see
  :mod:`moon_agents.base`) names the env parameters it was trained with. Those the user
  did not give are set as it needs them, with a note (``trained: using
  line_features=true, as trained``); one the user gave otherwise, a player count it was
  not trained for, or two agents that need different values are refused, naming the
  parameters (and both agents).

:func:`setup_game` applies both and returns a :class:`GameSetup`: the parameters for
``moon_envs.make``, the env built with them, the agents and the notes. From Python, the
short way is :func:`make_game`::

    from moon_agents.seating import make_game
    game = make_game("jupiter_v0", ["trained", "random"])   # line_features=True, as trained
    game.env, game.agents, game.notes
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from moon_agents.base import env_params_of, flag, game_config, game_of, plain
from moon_envs.core.game import ConfigError

__all__ = ["GameSetup", "allowed_player_counts", "make_game", "setup_game"]

MAX_PLAYERS_PROBED = 16
"""Player counts tried when saying which ones a game allows."""


@dataclass
class GameSetup:
    """A game ready to play: ``moon_envs.make(env_id, **params)`` (already built as
    ``env``), its player count, the agents, and the parameters set because agents need
    them (``applied``, with one ``notes`` line per agent)."""

    env_id: str
    params: dict[str, Any]
    num_players: int
    env: Any
    agents: list[Any] = field(default_factory=list)
    applied: dict[str, Any] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


def allowed_player_counts(env_id: str, params: Mapping[str, Any] | None = None) -> list[int]:
    """The player counts ``env_id`` accepts with the other ``params`` (1..16 tried)."""
    import moon_envs

    others = {k: v for k, v in (params or {}).items() if k != "num_players"}
    if "num_players" not in moon_envs.valid_params(env_id):
        env = moon_envs.make(env_id, **others)
        env.close()
        return [env.game.spec.num_players]
    counts = []
    for n in range(1, MAX_PLAYERS_PROBED + 1):
        try:
            moon_envs.make(env_id, **others, num_players=n).close()
        except ConfigError:
            continue
        counts.append(n)
    return counts


def counts_text(counts: Sequence[int]) -> str:
    """``[2, 3, 4]`` -> ``"2..4"``; ``[1, 3]`` -> ``"1 or 3"``."""
    if not counts:
        return "none"
    if len(counts) > 2 and list(counts) == list(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]}..{counts[-1]}"
    return ", ".join(map(str, counts[:-1])) + (" or " if len(counts) > 1 else "") + str(counts[-1])


@dataclass(frozen=True)
class _Seats:
    """How the seats were named, for messages: ``text`` (``"3 agents named"``) and the
    seats no agent is named for (``others``, e.g. the person at ``--human``)."""

    text: str
    others: int = 0
    others_text: str = ""

    def name(self, counts: Sequence[int]) -> str:
        """``"name 2 agents"`` (``"name 1..3 agents besides --human"``) for player counts."""
        wanted = [n - self.others for n in counts if n - self.others >= 0]
        many = len(wanted) > 1 or (wanted and wanted[0] != 1)
        tail = f" {self.others_text}" if self.others else ""
        return f"name {counts_text(wanted)} agent{'s' if many else ''}{tail}"


def _seated_env(
    env_id: str, user: dict[str, Any], seats: int | None, named: _Seats
) -> tuple[Any, dict[str, Any]]:
    """The env with the user's parameters and, where agents are named per seat, their
    number as the player count; the parameters it was built with."""
    import moon_envs

    moon_envs.get_entry(env_id)  # an unknown id names the registered ones first
    fixed = dict(user)
    if seats is None:
        return moon_envs.make(env_id, **fixed), fixed
    counts_param = "num_players" in moon_envs.valid_params(env_id)
    if "num_players" in user:
        if user["num_players"] != seats:
            raise ConfigError(
                f"{named.text} (one per seat), but num_players={user['num_players']!r} was "
                f"given: {named.name([user['num_players']])}, or leave num_players out (the "
                "number of agents sets it)"
            )
    elif counts_param:
        fixed["num_players"] = seats
    try:
        env = moon_envs.make(env_id, **fixed)
    except ConfigError as exc:
        if "num_players" not in str(exc):
            raise
        allowed = allowed_player_counts(env_id, user)
        if not allowed or seats in allowed:
            raise
        given = " with the given parameters" if any(k != "num_players" for k in user) else ""
        raise ConfigError(
            f"{named.text} (one per seat), but {env_id} seats {counts_text(allowed)} "
            f"players{given}; {named.name(allowed)}"
        ) from None
    if env.game.spec.num_players != seats:
        n = env.game.spec.num_players
        env.close()
        raise ConfigError(f"{named.text} (one per seat), but {env_id} seats {n}; {named.name([n])}")
    return env, fixed


def setup_game(
    env_id: str,
    params: Mapping[str, Any] | None,
    build: Callable[[str], Sequence[Any]] = lambda game: [],
    seats: int | None = None,
    seats_text: str | None = None,
    other_seats: int = 0,
    other_seats_text: str = "",
    fixed_env: str | None = None,
) -> GameSetup:
    """The game ``agents`` play (see the module docstring).

    Args:
        env_id: a registered env id.
        params: the parameters the user gave (``--param``, ``env_params=``).
        build: the agents, built for a game (``GameSpec.name``): ``build(game)``.
        seats: the number of seats named (agents, plus a person at the terminal), which
            sets the player count; None keeps the count of ``params`` or the env's default.
        seats_text: how the seats were named, for messages (default ``"N agents named"``).
        other_seats: how many of ``seats`` no agent is named for (a person's), and
            ``other_seats_text`` what messages add after an agent count (``"besides
            --human"``).
        fixed_env: where the game must stay as ``params`` make it, what it is (``"the
            training env"``): the parameters agents need are then refused, not added.
    """
    user = dict(params or {})
    named = _Seats(seats_text or f"{seats} agents named", other_seats, other_seats_text)
    env, fixed = _seated_env(env_id, user, seats, named)
    game = env.game.spec.name
    try:
        agents = list(build(game))
    except BaseException:
        env.close()
        raise
    config = game_config(env.game)
    needs: dict[str, dict[str, Any]] = {}  # agent name -> parameters it needs
    for agent in agents:
        name = str(getattr(agent, "name", type(agent).__name__))
        wanted = env_params_of(agent)
        if wanted is None or name in needs:
            continue
        try:
            other = wanted.env_id is not None and game_of(wanted.env_id) != game
        except ConfigError as exc:  # an id this version does not register
            env.close()
            raise ConfigError(f"{name}: trained on {wanted.env_id}: {exc}") from None
        if other:
            env.close()
            raise ConfigError(f"{name}: trained on {wanted.env_id}; it cannot play {env_id}")
        needs[name] = {k: v for k, v in wanted.params.items() if k in config}
    try:
        _refuse_conflicts(needs, fixed, user, seats, named)
    except ConfigError:
        env.close()
        raise
    wanted_all = {k: v for need in needs.values() for k, v in need.items()}
    applied = {k: v for k, v in wanted_all.items() if k not in fixed and config.get(k) != v}
    if applied and fixed_env is not None:
        env.close()
        name, need = next((n, d) for n, d in needs.items() if any(k in applied for k in d))
        unmet = {k: v for k, v in need.items() if k in applied}
        have = ", ".join(f"{k}={config.get(k)!r}" for k in unmet)
        raise ConfigError(
            f"{name}: trained with {_pairs(unmet)}, but {fixed_env} has {have}; it cannot "
            "play there"
        )
    final = {**fixed, **applied}
    if applied:
        import moon_envs

        env.close()
        try:
            env = moon_envs.make(env_id, **final)
        except ConfigError as exc:
            raise ConfigError(
                f"the parameters the agents were trained with ({_pairs(applied)}) do not make "
                f"a game with the given ones: {exc}"
            ) from None
        config = game_config(env.game)
    for name, need in needs.items():
        unmet = {k: v for k, v in need.items() if config.get(k) != v}
        if unmet:
            env.close()
            have = ", ".join(f"{k}={config.get(k)!r}" for k in unmet)
            raise ConfigError(
                f"{name}: trained with {_pairs(unmet)}, but with the given parameters the game "
                f"has {have} (set by another parameter, e.g. a preset); pass {_flags(unmet)}"
            )
    notes = []
    for name, need in needs.items():
        mine = {k: v for k, v in need.items() if k in applied}
        if mine:
            shown = ", ".join(f"{k}={flag(v)}" for k, v in mine.items())
            notes.append(f"{name}: using {shown}, as trained")
    return GameSetup(env_id, final, env.game.spec.num_players, env, agents, applied, notes)


def _refuse_conflicts(
    needs: dict[str, dict[str, Any]],
    fixed: dict[str, Any],
    user: dict[str, Any],
    seats: int | None,
    named: _Seats,
) -> None:
    """Refuse two agents that need different values of a parameter, and an agent that
    needs a value other than the one given (or the player count the seats set)."""
    names = list(needs)
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            clash = [k for k in needs[a] if k in needs[b] and needs[a][k] != needs[b][k]]
            if clash:
                raise ConfigError(
                    f"{a} and {b} cannot play in one game: {a} was trained with "
                    f"{_pairs({k: needs[a][k] for k in clash})} and {b} with "
                    f"{_pairs({k: needs[b][k] for k in clash})}"
                )
    for name, need in needs.items():
        wrong = {k: v for k, v in need.items() if k in fixed and plain(fixed[k]) != v}
        if not wrong:
            continue
        if "num_players" in wrong and "num_players" not in user and seats is not None:
            n = wrong["num_players"]
            raise ConfigError(
                f"{name}: trained with num_players={n}, but {named.text} (one per seat); "
                f"{named.name([n])}"
            )
        given = ", ".join(f"{k}={fixed[k]!r}" for k in wrong)
        raise ConfigError(
            f"{name}: trained with {_pairs(wrong)}, but {given} was given; pass "
            f"{_flags(wrong)} (or leave {', '.join(wrong)} out: it is then set as trained)"
        )


def _pairs(params: Mapping[str, Any]) -> str:
    return ", ".join(f"{k}={v!r}" for k, v in params.items())


def _flags(params: Mapping[str, Any]) -> str:
    return " ".join(f"--param {k}={flag(v)}" for k, v in params.items())


def make_game(env_id: str, agents: Sequence[Any], seed: int = 0, **params: Any) -> GameSetup:
    """The env and agents of one game, one agent per seat (their number is the player
    count), with the parameters trained agents need added to ``params``.

    ``agents`` are specs (``"trained"``, ``"ppo:PATH"``, built by
    :func:`moon_agents.zoo.make_agent`, agent ``i`` seeded ``seed + i``) or agent objects.
    Play it with :func:`moon_agents.evaluation.tournament.play_game` or step ``env``
    yourself (calling :func:`moon_agents.base.start_game` for each seat first).
    """
    from moon_agents.zoo import make_agent

    def build(game: str) -> list[Any]:
        return [
            make_agent(a, game, seed=seed + i, name=a) if isinstance(a, str) else a
            for i, a in enumerate(agents)
        ]

    return setup_game(env_id, params, build, seats=len(agents))
