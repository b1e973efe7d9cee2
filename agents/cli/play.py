"""``moon-envs play``: one game between agents, or a person against them, narrated as it goes.

The board is printed after each move (``--render ansi``); ``--human SEAT`` lets a person
play that seat from the terminal and shows them only what their seat may know;
``--gif`` / ``--html`` record the game.
"""

from __future__ import annotations

import argparse
from typing import Any, TextIO

from moon_agents.cli.usage import UsageError, parse_params
from moon_envs.core.game import ConfigError


def _make_play_env(env_id: str, params: dict[str, Any], seats_wanted: int | None) -> Any:
    """The env for ``play``: when ``num_players`` is not given and more than one agent is
    named, the player count follows the number of seats named (agents plus ``--human``)."""
    import moon_envs

    env = moon_envs.make(env_id, **params)
    n = env.game.spec.num_players
    if seats_wanted is None or seats_wanted == n or "num_players" in params:
        return env
    if "num_players" not in moon_envs.valid_params(env_id):
        return env  # a fixed player count: the count check below explains
    try:
        return moon_envs.make(env_id, **params, num_players=seats_wanted)
    except ConfigError as exc:
        raise UsageError(
            f"{env_id}: {seats_wanted} seats named but the game cannot seat them ({exc}); "
            f"name {n} agents (the default player count) or one for all"
        ) from None


def cmd_play(args: argparse.Namespace, out: TextIO, inp: TextIO) -> int:
    from moon_agents.base import start_game
    from moon_agents.play.human import HumanAgent, InputEnded, narrate, narrate_chance
    from moon_agents.zoo import make_agent

    params = parse_params(args.param)
    render = args.render
    specs = list(args.agents or ["random"])
    named = len(specs) + (1 if args.human is not None else 0)
    env = _make_play_env(args.env, params, named if len(specs) > 1 else None)
    spec = env.game.spec
    n = spec.num_players
    seats_to_fill = n - (1 if args.human is not None else 0)
    if args.human is not None and not 0 <= args.human < n:
        raise UsageError(f"--human {args.human}: seat out of range; allowed: 0..{n - 1}")
    if len(specs) == 1:
        specs = specs * seats_to_fill
    if len(specs) != seats_to_fill:
        who = (
            f"{seats_to_fill} agents (the seats other than --human)"
            if args.human is not None
            else f"{n} agents"
        )
        raise UsageError(
            f"{args.env} with {n} players needs {who} or one for all, got {len(specs)}"
        )
    recorder = None
    if args.gif or args.html:
        from moon_agents.play.replay import Recorder

        recorder = Recorder(env, gif=args.gif, html=args.html, title=args.env)
    agents: list[Any] = []
    it = iter(specs)
    for seat in range(n):
        if seat == args.human:
            agents.append(HumanAgent(inp, out))
        else:
            s = next(it)
            agents.append(make_agent(s, spec.name, seed=args.seed + seat, name=s))
    names = [f"player_{i} ({a.name})" for i, a in enumerate(agents)]
    print(f"{args.env}: " + " vs ".join(names) + f", seed {args.seed}", file=out)

    env.reset(seed=args.seed)
    seat_of = {a: i for i, a in enumerate(env.possible_agents)}
    for seat, player in enumerate(agents):
        start_game(player, env.game, seat)
    shown = render != "none"
    # a person at the terminal sees their seat's view; a spectator sees the whole board
    viewer = args.human

    def board() -> str:
        return env.game_state.to_string(viewer)

    # the chance events of the set-up (e.g. who goes first), from the game's first position
    opening = narrate_chance(env.game.new_initial_state(), env.game_state, viewer)
    for line in opening:
        print(line, file=out)
    if shown:
        print(board(), file=out)
    if args.human is not None:
        print("(type 'help' at your move for how to enter moves)", file=out)
    if recorder is not None:
        recorder.start(env.game_state, ": ".join(["start", *opening]))
    try:
        while env.agents and not env.game_state.is_terminal():
            agent = env.agent_selection
            if env.terminations[agent] or env.truncations[agent]:
                env.step(None)
                continue
            seat = seat_of[agent]
            view = env.agent_view(agent)
            if args.human == seat and not shown:
                print(board(), file=out)
            action = int(agents[seat].act(view))
            before = env.game_state.clone()
            after = before.clone()
            after.apply_action(action)
            # a spectator sees every move; the person at the terminal what their seat may know
            lines = narrate(before, action, after, viewer)
            env.step(action)
            lines += narrate_chance(after, env.game_state, viewer)  # rolls made by the env
            print(f"{names[seat]}: {lines[0]}", file=out)
            for line in lines[1:]:
                print(line, file=out)
            if recorder is not None:
                recorder.add(env.game_state, f"{names[seat]}: {lines[0]}")
            if shown:
                print(board(), file=out)
    except KeyboardInterrupt:
        print("\ngame abandoned", file=out)
        return 1
    except InputEnded as exc:
        raise UsageError(str(exc)) from None
    state = env.game_state
    scores = state.scores()
    print("\nfinal scores: " + ", ".join(f"{names[i]} {scores[i]:g}" for i in range(n)), file=out)
    winners = ", ".join(names[i] for i in state.winners())
    print("winner(s): " + (winners or "none"), file=out)
    if recorder is not None:
        for path in recorder.finish(names):
            print(f"wrote {path}", file=out)
    return 0
