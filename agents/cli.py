"""The ``moon-envs`` command.

::

    moon-envs list                                   envs, summaries, agents per game
    moon-envs list moonstar_v1                       an env's page and every parameter
    moon-envs play jupiter_v0 --agents random greedy [--seed 0] [--param num_players=2]
    moon-envs play jupiter_v0 --agents greedy --human 0        you play seat 0
    moon-envs play moonstar_v1 --agents oracle heuristic random --html replay.html --gif g.gif
    moon-envs train configs/jupiter_ppo.yaml [--out runs] [--timesteps 5000] [--seed 1]
    moon-envs eval jupiter_v0 --agents random greedy ppo:runs/x/model.zip --games 200 --out ev
    moon-envs bench [jupiter_v0 ...] [--seconds 3]

Bad input (unknown env id, agent, parameter or config field) prints one clear message
and exits with status 2. ``list``, ``play`` and ``bench`` do not need torch.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from moon_envs.core.game import ConfigError


class UsageError(Exception):
    """A bad command line; printed without a traceback, exit status 2."""


# ---- helpers ----------------------------------------------------------------------------------


def parse_value(text: str) -> Any:
    """A ``--param`` value: ``3`` -> 3, ``0.5`` -> 0.5, ``true`` -> True, ``none`` -> None,
    ``[3,5,8]`` -> a list, ``{"a": 1}`` -> a mapping (JSON, or YAML's flow style when PyYAML
    is installed, e.g. ``[a, b]``), anything else -> the text itself.

    Lists and mappings are read as config files are: duplicate keys, YAML anchors and
    aliases and nesting deeper than 32 levels are refused with a short message."""
    import json

    from moon_envs.core.snapshot import quote

    max_depth = 32

    def no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, value in pairs:
            if key in out:
                raise ValueError(f"duplicate key {quote(key)}")
            out[key] = value
        return out

    def depth(value: Any) -> int:  # nesting of lists and mappings, without recursion
        deepest, todo = 0, [(value, 0)]
        while todo:
            v, d = todo.pop()
            if isinstance(v, (list, dict)):
                deepest = max(deepest, d + 1)
                todo.extend((x, d + 1) for x in (v.values() if isinstance(v, dict) else v))
        return deepest

    low = text.strip().lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    if low in ("none", "null"):
        return None
    for cast in (int, float):
        try:
            return cast(text)
        except ValueError:
            pass
    if text.strip()[:1] in ("[", "{"):
        shown = quote(text)
        try:
            value = json.loads(text, object_pairs_hook=no_duplicate_keys)
        except (json.JSONDecodeError, RecursionError):
            pass
        except ValueError as exc:  # a duplicate key, or a number too long to convert
            raise UsageError(f"--param value {shown}: {quote(str(exc), 200)}") from None
        else:
            if depth(value) > max_depth:
                raise UsageError(f"--param value {shown} is nested deeper than {max_depth} levels")
            return value
        try:  # YAML's flow style, read by the strict loader of config files
            from agents.config import load_yaml_text
        except ImportError:
            raise UsageError(
                f"--param value {shown} is not valid JSON (write lists as [3,5,8] and "
                'mappings as {"key": 1})'
            ) from None
        try:
            return load_yaml_text(text, "--param value")
        except ConfigError as exc:
            raise UsageError(f"--param value {shown} is neither JSON nor YAML: {exc}") from None
    return text


def parse_params(items: Sequence[str] | None) -> dict[str, Any]:
    """``["num_players=3", "planets=[3,5,8]"]`` -> ``{"num_players": 3, "planets": [3, 5, 8]}``."""
    out: dict[str, Any] = {}
    for item in items or []:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise UsageError(f"--param expects KEY=VALUE, got {item!r}")
        out[key.strip()] = parse_value(value)
    return out


# ---- list ---------------------------------------------------------------------------------------


def cmd_list(args: argparse.Namespace, out: TextIO) -> int:
    import moon_envs
    from agents.zoo import agent_names

    if args.env:
        from agents.env_page import env_page

        print(env_page(args.env), file=out)
        return 0
    for env_id in moon_envs.list_envs():
        entry = moon_envs.get_entry(env_id)
        try:
            env = moon_envs.make(env_id)
        except ImportError:
            print(f"{env_id:<20} {entry.summary}  [not available in this install]", file=out)
            continue
        spec = env.game.spec
        print(f"{env_id:<20} {entry.summary}", file=out)
        print(
            f"{'':<20} game={spec.name} players={spec.num_players} actions={spec.num_actions} "
            f"obs={spec.observation_shape}",
            file=out,
        )
        print(f"{'':<20} agents: {', '.join(agent_names(spec.name))}, ppo:PATH", file=out)
        if args.params:
            print(f"{'':<20} params: {', '.join(moon_envs.valid_params(env_id))}", file=out)
    return 0


# ---- play ---------------------------------------------------------------------------------------


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
    from agents.base import start_game
    from agents.human import HumanAgent, InputEnded, narrate, narrate_chance
    from agents.zoo import make_agent

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
        from agents.replay import Recorder

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


# ---- train / eval / bench -----------------------------------------------------------------------


def cmd_train(args: argparse.Namespace, out: TextIO) -> int:
    from agents.config import load_config
    from agents.train import train

    overrides: dict[str, Any] = {}
    if args.out is not None:
        overrides["output.dir"] = args.out
    if args.timesteps is not None:
        overrides["budget.total_timesteps"] = args.timesteps
    if args.seed is not None:
        overrides["seed"] = args.seed
    if args.no_progress:
        overrides["output.progress_bar"] = False
    config = load_config(args.config, overrides)
    print(f"training {config.name} on {config.env.id} (seed {config.seed})", file=out)
    result = train(config)
    if result.interrupted:
        print(
            f"training interrupted (Ctrl-C) at {result.timesteps} timesteps; what was learnt "
            f"is saved in {result.run_dir} (model.zip, metrics, summary.json)",
            file=out,
        )
    print(f"run folder: {result.run_dir}  (device: {result.device})", file=out)
    print(
        f"timesteps: {result.timesteps}  snapshots: {result.snapshots}  "
        f"wall time: {result.elapsed_s:.1f} s",
        file=out,
    )
    for key, value in result.final_eval.items():
        if key.endswith("_win_rate"):
            stem = key[: -len("_win_rate")]
            lo, hi = result.final_eval[f"{stem}_ci_low"], result.final_eval[f"{stem}_ci_high"]
            print(f"final win rate vs {stem[5:]}: {value:.3f} [{lo:.3f}, {hi:.3f}]", file=out)
    spec = getattr(result, "agent_spec", f"ppo:{result.model_path}")  # rllib: runs differ
    print(f"model: {result.model_path}  (agent spec {spec})", file=out)
    return 0


def cmd_eval(args: argparse.Namespace, out: TextIO) -> int:
    from agents.evaluate import tournament

    if len(args.agents) < 2:
        raise UsageError("eval needs at least two agents: --agents A B [...]")
    if args.games < 1:
        raise UsageError(f"--games {args.games}: allowed: 1 or more")
    result = tournament(
        args.env,
        args.agents,
        args.games,
        seed=args.seed,
        env_params=parse_params(args.param),
        progress=not args.no_progress,
    )
    print(result.table(), file=out)
    if args.out:
        path = result.save(args.out)
        print(
            f"\nwrote {path}/results.csv, results.json, games.csv, table.md, win_rates.png",
            file=out,
        )
    return 0


def cmd_bench(args: argparse.Namespace, out: TextIO) -> int:
    from agents.bench import run_bench

    if args.seconds <= 0:
        raise UsageError(f"--seconds {args.seconds}: allowed: a positive number")
    run_bench(
        args.envs or None, seconds=args.seconds, seed=args.seed, out=lambda s: print(s, file=out)
    )
    return 0


# ---- parser -------------------------------------------------------------------------------------


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # usage errors: status 2, no traceback
        raise UsageError(f"{self.prog}: {message}")


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="moon-envs", description="moon-envs: space-themed board games for multi-agent RL"
    )
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)

    ls = sub.add_parser("list", help="environments, their summaries and agents")
    ls.add_argument(
        "env", nargs="?", help="an env id: print its page and every parameter with its default"
    )
    ls.add_argument("--params", action="store_true", help="also list each env's parameters")

    pl = sub.add_parser("play", help="play one game between agents (or against them)")
    pl.add_argument("env", help="env id, e.g. jupiter_v0")
    pl.add_argument(
        "--agents", nargs="+", metavar="SPEC", help="random, greedy, ppo:PATH, ... (one per seat)"
    )
    pl.add_argument("--seed", type=int, default=0)
    pl.add_argument(
        "--param", action="append", metavar="KEY=VALUE", help="env parameter (repeatable)"
    )
    pl.add_argument(
        "--human", type=int, metavar="SEAT", help="you play this seat from the terminal"
    )
    pl.add_argument(
        "--render", choices=["ansi", "none"], default="ansi", help="print the board after each move"
    )
    pl.add_argument("--gif", metavar="PATH", help="write an animated GIF of the game (Pillow)")
    pl.add_argument(
        "--html", metavar="PATH", help="write a self-contained HTML replay (SVG board per step)"
    )

    tr = sub.add_parser("train", help="train MaskablePPO by self-play from a YAML config")
    tr.add_argument("config", help="YAML config, e.g. configs/jupiter_ppo.yaml")
    tr.add_argument("--out", help="parent folder of the run folder (overrides output.dir)")
    tr.add_argument("--timesteps", type=int, help="overrides budget.total_timesteps")
    tr.add_argument("--seed", type=int, help="overrides seed")
    tr.add_argument("--no-progress", action="store_true", help="no progress bar")

    ev = sub.add_parser("eval", help="tournament between agents: win rates, 95%% CIs, Elo")
    ev.add_argument("env")
    ev.add_argument("--agents", nargs="+", required=True, metavar="SPEC")
    ev.add_argument("--games", type=int, default=100)
    ev.add_argument("--seed", type=int, default=0)
    ev.add_argument("--param", action="append", metavar="KEY=VALUE")
    ev.add_argument("--out", help="folder for results.csv/json, games.csv, table.md, win_rates.png")
    ev.add_argument("--no-progress", action="store_true")

    be = sub.add_parser("bench", help="random-play agent-steps/s beside connect_four_v3")
    be.add_argument("envs", nargs="*", metavar="ENV", help="env ids (default: all)")
    be.add_argument("--seconds", type=float, default=3.0, help="seconds per env")
    be.add_argument("--seed", type=int, default=0)
    return p


def main(
    argv: Sequence[str] | None = None, stdin: TextIO | None = None, stdout: TextIO | None = None
) -> int:
    """Run the command line ``argv`` (default ``sys.argv[1:]``); returns the exit status."""
    out = stdout or sys.stdout
    inp = stdin or sys.stdin
    commands: dict[str, Callable[[argparse.Namespace], int]] = {
        "list": lambda a: cmd_list(a, out),
        "play": lambda a: cmd_play(a, out, inp),
        "train": lambda a: cmd_train(a, out),
        "eval": lambda a: cmd_eval(a, out),
        "bench": lambda a: cmd_bench(a, out),
    }
    try:
        args = build_parser().parse_args(argv)
        return commands[args.command](args)
    except (UsageError, ConfigError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except ImportError as exc:
        print(
            f"error: {exc} (an optional dependency or game module is missing; "
            f'training and ppo: agents need pip install "moon-envs[train]")',
            file=sys.stderr,
        )
        return 2
    except SystemExit as exc:  # --help
        return int(exc.code or 0)
    except BrokenPipeError:  # output piped into e.g. `head`
        import os

        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1


if __name__ == "__main__":
    sys.exit(main())
