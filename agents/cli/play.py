"""``moon-envs play``: one game between agents, or a person against them, narrated as it goes.

The board is printed after each move (``--render ansi``); ``--human SEAT`` lets a person
play that seat from the terminal and shows them only what their seat may know;
``--gif`` / ``--html`` record the game (an existing file is replaced only with
``--force``). Without ``--seed`` each game draws a fresh seed and prints it on stderr
(``seed: N (replay with --seed N)``); the same seed replays the same game. Without
``--human``, once nobody can score any more (a game whose position has
``stalemate_reason()``), the moves that follow are told in one line
(:mod:`moon_agents.play.stalemate`).

On a terminal each board is drawn over the previous one, with the latest moves under it
(:class:`~moon_agents.play.human.screen.TerminalScreen`; a Star Master seat that forgets
also has the scrollback cleared); piped or redirected, the output is a plain log of every
line (``--log`` forces the log, ``--tty`` the redrawn screen). Lines wrap at the
terminal's width, or at ``--width COLS``.

``--agents`` names one agent per seat, in seat order, skipping the ``--human`` seat: the
number of agents (plus the person) is the player count, and ``--param num_players=N``
must agree. Without ``--agents`` every seat (but the person's) plays random, at the
game's default player count or ``num_players``. Trained agents bring the env parameters
they were trained with, with a note on stderr (:mod:`moon_agents.seating`).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, TextIO

from moon_agents.cli.ranges import SEEDS, WIDTHS
from moon_agents.cli.usage import UsageError, parse_params

MIN_WIDTH, MAX_WIDTH = WIDTHS
"""The narrowest and the widest ``--width`` allowed."""


def draw_seed() -> int:
    """A fresh seed for a game played without ``--seed``, from the system's randomness."""
    import secrets

    return secrets.randbelow(SEEDS[1] + 1)


def check_replay_files(args: argparse.Namespace) -> None:
    """Refuse ``--gif`` / ``--html`` paths that would replace a file (without ``--force``),
    are folders or links, or name the same file twice."""
    from moon_agents.paths import check_output_file

    if args.force and not (args.gif or args.html):
        raise UsageError("--force replaces the file of --gif or --html: give one, or neither")
    gif = check_output_file("--gif", args.gif, args.force, ".gif") if args.gif else None
    html = check_output_file("--html", args.html, args.force) if args.html else None
    if gif is not None and html is not None and gif.resolve() == html.resolve():
        raise UsageError(f"--gif and --html both name {gif}: give each its own file")


def cmd_play(args: argparse.Namespace, out: TextIO, inp: TextIO) -> int:
    from moon_agents.base import start_game
    from moon_agents.play.human import HumanAgent, InputEnded, hooks_for, narrate, narrate_chance
    from moon_agents.play.human.screen import open_screen
    from moon_agents.play.stalemate import StalemateRun
    from moon_agents.seating import setup_game
    from moon_agents.zoo import make_agent

    params = parse_params(args.param, args.env)
    drawn = args.seed is None  # no --seed: a fresh one, told so that the game can be replayed
    seed = draw_seed() if drawn else args.seed
    render = args.render
    specs = list(args.agents or [])
    human = args.human is not None
    seats = len(specs) + (1 if human else 0) if specs else None
    text = None
    if seats is not None:
        named = f"{len(specs)} agent{'s' if len(specs) != 1 else ''}"
        text = f"{named} and --human named" if human else f"{named} named"

    def agent_seats(n: int) -> list[int]:
        return [seat for seat in range(n) if seat != args.human]

    def build(game: str) -> list[Any]:  # agent i sits in the i-th seat that is not --human's
        where = agent_seats(len(specs) + (1 if human else 0))
        return [make_agent(s, game, seed=seed + w, name=s) for s, w in zip(specs, where)]

    if human and seats is not None and not 0 <= args.human < seats:
        raise UsageError(f"--human {args.human}: seat out of range; allowed: 0..{seats - 1}")
    setup = setup_game(
        args.env,
        params,
        build,
        seats=seats,
        seats_text=text,
        other_seats=1 if human else 0,
        other_seats_text="besides --human",
    )
    env, n = setup.env, setup.num_players
    if human and not 0 <= args.human < n:
        raise UsageError(f"--human {args.human}: seat out of range; allowed: 0..{n - 1}")
    built = list(setup.agents)
    if not specs:  # no --agents: random play in every seat but the person's
        game = env.game.spec.name
        built = [
            make_agent("random", game, seed=seed + w, name="random") for w in agent_seats(n)
        ]
    for note in setup.notes:
        print(note, file=sys.stderr)
    recorder = None
    if args.gif_ms is not None and not args.gif:
        raise UsageError("--gif-ms sets the frame time of --gif PATH: give both, or neither")
    if args.gif or args.html or args.force:
        check_replay_files(args)
    if args.gif or args.html:
        from moon_agents.play.replay import Recorder

        try:
            recorder = Recorder(
                env, gif=args.gif, html=args.html, title=args.env, gif_ms=args.gif_ms
            )
        except ValueError as exc:
            raise UsageError(f"--gif-ms: {exc}") from None
    if args.width is not None and args.width < MIN_WIDTH:
        raise UsageError(
            f"--width {args.width}: too narrow; allowed: {MIN_WIDTH} or more, up to {MAX_WIDTH}"
        )
    if args.width is not None and args.width > MAX_WIDTH:
        raise UsageError(f"--width {args.width}: too wide; allowed: {MIN_WIDTH}..{MAX_WIDTH}")
    others = iter(built)
    seated = [None if seat == args.human else next(others) for seat in range(n)]
    names = [f"player_{i} ({'human' if a is None else a.name})" for i, a in enumerate(seated)]
    title = f"{args.env}: " + " vs ".join(names) + f", seed {seed}"
    # a person whose seat is meant to forget (Star Master's memory modes) must not find
    # earlier layouts in the terminal's scrollback
    forget = human and hooks_for(env.game.spec.name).forgets(env.game)
    mode = "log" if args.log else "tty" if args.tty else "auto"
    screen = open_screen(out, mode, args.width, title, forget)
    agents: list[Any] = [HumanAgent(inp, out, screen=screen) if a is None else a for a in seated]
    screen.show(title)

    if drawn:
        print(f"seed: {seed} (replay with --seed {seed})", file=sys.stderr)
    env.reset(seed=seed)
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
        screen.say(line)
    if shown:
        screen.board(board())
    if args.human is not None:
        screen.say("(type 'help' at your move for how to enter moves)")
    if recorder is not None:
        recorder.start(env.game_state, ": ".join(["start", *opening]))
    stalemate = StalemateRun()  # moves once nobody can score any more: told in one line
    try:
        while env.agents and not env.game_state.is_terminal():
            agent = env.agent_selection
            if env.terminations[agent] or env.truncations[agent]:
                env.step(None)
                continue
            seat = seat_of[agent]
            view = env.agent_view(agent)
            if args.human == seat:
                if not shown:
                    screen.board(board())
                screen.decision()
            action = int(agents[seat].act(view))
            before = env.game_state.clone()
            after = before.clone()
            after.apply_action(action)
            # a spectator sees every move; the person at the terminal what their seat may know
            lines = narrate(before, action, after, viewer)
            env.step(action)
            lines += narrate_chance(after, env.game_state, viewer)  # rolls made by the env
            if viewer is None and stalemate.take(before) and not env.game_state.is_terminal():
                continue  # a spectator's view: a seat cannot always tell a stalemate
            for line in stalemate.summary():
                screen.say(line)
            screen.say("\n".join([f"{names[seat]}: {lines[0]}", *lines[1:]]))
            if recorder is not None:
                recorder.add(env.game_state, f"{names[seat]}: {lines[0]}")
            if shown:
                screen.board(board())
    except KeyboardInterrupt:
        screen.show("\ngame abandoned")
        return 1
    except InputEnded as exc:
        raise UsageError(str(exc)) from None
    state = env.game_state
    scores = state.scores()
    screen.show("\nfinal scores: " + ", ".join(f"{names[i]} {scores[i]:g}" for i in range(n)))
    winners = ", ".join(names[i] for i in state.winners())
    screen.show("winner(s): " + (winners or "none"))
    if recorder is not None:
        check_replay_files(args)  # a file made while the game was played is not replaced
        try:
            written = recorder.finish(names)
        except OSError as exc:
            where = exc.filename or "the replay"
            raise UsageError(f"cannot write {where}: {exc.strerror or exc}") from None
        for path in written:
            screen.show(f"wrote {path}")
    return 0
