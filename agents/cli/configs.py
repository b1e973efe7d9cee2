"""``moon-envs configs``: the experiment configs shipped with the package, listed or copied out.

::

    moon-envs configs                                  name, env, algorithm and summary of each
    moon-envs configs jupiter_ppo                       copy it to ./jupiter_ppo.yaml
    moon-envs configs jupiter_ppo --to my.yaml          copy it to my.yaml (--force replaces one)
    moon-envs train jupiter_ppo                         train a shipped config by name

The configs are the ``configs/`` folder of a checkout; the wheel installs them as
``moon_agents/configs`` (:func:`configs_dir`), with their field reference
``README.md``. ``moon-envs train`` takes a file path or, where no such file exists, the
name of a shipped config (:func:`resolve_config`), so ``moon-envs train
configs/jupiter_ppo.yaml`` also works outside a checkout.

Listing needs no YAML library (the base install has none): a config's env and algorithm
are read from its ``env.id`` and ``algorithm.name`` lines, its summary from the first
sentence of its header comment.
"""

from __future__ import annotations

import argparse
import re
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from moon_agents.cli.usage import UsageError

SUFFIXES = (".yaml", ".yml")


def configs_dir() -> Path:
    """The folder of the shipped configs: ``moon_agents/configs`` in an installed wheel,
    else the ``configs/`` folder beside ``agents/`` in a checkout."""
    import moon_agents

    package = Path(moon_agents.__file__).parent
    for folder in (package / "configs", package.resolve().parent / "configs"):
        if folder.is_dir():
            return folder
    raise UsageError(
        f"no shipped configs found (looked in {package / 'configs'} and "
        f"{package.resolve().parent / 'configs'}); reinstall moon-envs"
    )


@dataclass(frozen=True)
class ShippedConfig:
    """One shipped config: its name (the file name without ``.yaml``), the env and
    algorithm it trains, the first sentence of its header comment, and its file."""

    name: str
    env: str
    algorithm: str
    summary: str
    path: Path


def read_shipped(path: Path) -> ShippedConfig:
    """The :class:`ShippedConfig` of the YAML file ``path`` (defaults where a config leaves
    ``env.id`` or ``algorithm.name`` out, as the schema does)."""
    text = path.read_text(encoding="utf-8")
    header: list[str] = []
    for line in text.splitlines():
        if not line.startswith("#"):
            break
        header.append(line.lstrip("#").strip())
    words = " ".join(header)
    sentence = re.split(r"(?<=\.)\s", words, maxsplit=1)[0]
    env, algorithm, section = "jupiter_v0", "maskable_ppo", ""
    for line in text.splitlines():
        top = re.match(r"^([A-Za-z_]\w*):\s*([^#\s]*)", line)
        if top:
            section = top.group(1)
            if section == "algorithm" and top.group(2):  # the bare form `algorithm: NAME`
                algorithm = top.group(2)
            continue
        child = re.match(r"^ {2}(\w+):\s*([^#\s]+)", line)
        if child and (section, child.group(1)) == ("env", "id"):
            env = child.group(2).strip("\"'")
        elif child and (section, child.group(1)) == ("algorithm", "name"):
            algorithm = child.group(2).strip("\"'")
    return ShippedConfig(_stem(path.name), env, algorithm, sentence, path)


def _stem(name: str) -> str:
    """``name`` without its ``.yaml`` / ``.yml`` suffix."""
    return next((name[: -len(s)] for s in SUFFIXES if name.endswith(s)), name)


def shipped_configs() -> list[ShippedConfig]:
    """Every shipped config, by name."""
    folder = configs_dir()
    files = [p for p in folder.iterdir() if p.suffix in SUFFIXES and p.is_file()]
    return [read_shipped(p) for p in sorted(files)]


def _by_name() -> dict[str, ShippedConfig]:
    return {c.name: c for c in shipped_configs()}


def shipped_config(name: str) -> ShippedConfig:
    """The shipped config ``name`` (``jupiter_ppo`` or ``jupiter_ppo.yaml``); an unknown
    name is a :class:`UsageError` that lists the shipped ones."""
    stem = _stem(name)
    found = _by_name()
    if stem not in found:
        raise UsageError(
            f"no shipped config named {name!r}; shipped configs: {sorted(found)} "
            "(moon-envs configs lists them)"
        )
    return found[stem]


def resolve_config(arg: str) -> tuple[Path, ShippedConfig | None]:
    """The config file ``moon-envs train ARG`` reads, and the shipped config it is, if any.

    An existing file is read as it is. Otherwise a bare name (``jupiter_ppo``) or a path
    into a ``configs/`` folder (``configs/jupiter_ppo.yaml``, as the docs write it) names
    a shipped config; anything else is a :class:`UsageError` that lists the shipped
    configs.
    """
    path = Path(arg).expanduser()
    if path.exists():
        return path, None
    found = _by_name()
    if path.parent in (Path("."), Path("configs")) and _stem(path.name) in found:
        config = found[_stem(path.name)]
        return config.path, config
    names = sorted(found)
    raise UsageError(
        f"{arg!r}: no such config file, and no shipped config of that name; shipped "
        f"configs: {names} (moon-envs configs lists them; moon-envs configs NAME --to FILE "
        "copies one to edit)"
    )


def copy_config(name: str, to: str | None = None, force: bool = False) -> Path:
    """Copy the shipped config ``name`` to ``to`` (default ``./NAME.yaml``; a folder gets
    ``NAME.yaml`` inside it) and return the file written.

    An existing file is refused, and left as it is, unless ``force``; a link is always
    refused. Missing parent folders are created; nothing is ever removed.
    """
    config = shipped_config(name)
    target = Path(to).expanduser() if to else Path(f"{config.name}.yaml")
    if target.is_dir():
        target = target / f"{config.name}.yaml"
    if target.is_symlink():
        raise UsageError(f"{target} is a link; it is left untouched. Choose another --to")
    if target.exists() and not force:
        raise UsageError(
            f"{target} already exists; it is left untouched. Choose another --to, or add "
            "--force to replace it"
        )
    body = config.path.read_bytes()
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        with target.open("wb" if force else "xb") as f:
            f.write(body)
    except FileExistsError:
        raise UsageError(f"{target} already exists; it is left untouched") from None
    except OSError as exc:
        raise UsageError(f"cannot write {target}: {exc.strerror or exc}") from None
    return target


def add_configs_parser(sub: argparse._SubParsersAction) -> None:
    """The ``configs`` subcommand's arguments."""
    co = sub.add_parser("configs", help="list the shipped experiment configs, or copy one out")
    co.add_argument("name", nargs="?", help="a shipped config to copy, e.g. jupiter_ppo")
    co.add_argument("--to", metavar="PATH", help="where to copy it (default ./NAME.yaml)")
    co.add_argument("--force", action="store_true", help="replace an existing file at --to")


def cmd_configs(args: argparse.Namespace, out: TextIO) -> int:
    """List the shipped configs, or copy the one named."""
    if args.name is None:
        if args.to or args.force:
            raise UsageError("--to and --force copy a config: name it, e.g. configs jupiter_ppo")
        print(list_text(shipped_configs()), file=out)
        return 0
    target = copy_config(args.name, args.to, args.force)
    print(f"wrote {target} (the shipped config {shipped_config(args.name).name})", file=out)
    print(f"train it with: moon-envs train {target}", file=out)
    return 0


def list_text(configs: list[ShippedConfig], width: int = 100) -> str:
    """The listing: a row of name, env and algorithm per config, its summary below."""
    name_w = max([len("name"), *(len(c.name) for c in configs)]) + 2
    env_w = max([len("env"), *(len(c.env) for c in configs)]) + 2
    lines = [f"{'name':<{name_w}}{'env':<{env_w}}algorithm"]
    for c in configs:
        lines.append(f"{c.name:<{name_w}}{c.env:<{env_w}}{c.algorithm}")
        summary = textwrap.shorten(c.summary, width - 4, placeholder=" ...", break_on_hyphens=False)
        lines.append("    " + summary)
    lines += [
        "",
        "moon-envs train NAME trains one; moon-envs configs NAME --to FILE copies one to edit.",
        f"Every field is documented in {configs_dir() / 'README.md'}.",
    ]
    return "\n".join(lines)
