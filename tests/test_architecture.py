"""The import graph: no cycle anywhere, and arrows that point one way.

The graph is built from the source with :mod:`ast`, every import counted: at module
level, inside functions, and under ``if TYPE_CHECKING:`` (a type-only import is still a
module that needs the other). Layers, from the top:

* ``moon_agents`` (the ``agents/`` folder) may import ``moon_envs``, never the reverse;
* in ``moon_envs``: integrations → the ``moon_envs`` front door → registry → games → core;
* a game package never imports another game.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = {"moon_envs": ROOT / "moon_envs", "moon_agents": ROOT / "agents"}
"""Import name -> folder (``agents/`` installs as ``moon_agents``; see pyproject.toml)."""


def _modules() -> dict[str, tuple[Path, bool]]:
    mods: dict[str, tuple[Path, bool]] = {}
    for name, folder in PACKAGES.items():
        for path in folder.rglob("*.py"):
            parts = [name, *path.relative_to(folder).with_suffix("").parts]
            is_package = parts[-1] == "__init__"
            mods[".".join(parts[:-1] if is_package else parts)] = (path, is_package)
    return mods


def import_graph() -> dict[str, set[str]]:
    """Module -> the project modules it imports (``from pkg import sub`` counts ``pkg.sub``)."""
    mods = _modules()
    graph: dict[str, set[str]] = {}
    for module, (path, is_package) in mods.items():
        package = module if is_package else module.rpartition(".")[0]
        deps: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import):
                deps.update(a.name for a in node.names if a.name in mods)
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")[: len(package.split(".")) - node.level + 1]
                    target = ".".join([*base, *([node.module] if node.module else [])])
                else:
                    target = node.module or ""
                for alias in node.names:
                    if f"{target}.{alias.name}" in mods:
                        deps.add(f"{target}.{alias.name}")
                    elif target in mods:
                        deps.add(target)
        deps.discard(module)
        graph[module] = deps
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle as ``[a, b, ..., a]``, or None (iterative depth-first search)."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    for start in sorted(graph):
        if start in state:
            continue
        path, stack = [start], [iter(sorted(graph[start]))]
        state[start] = 1
        while stack:
            nxt = next(stack[-1], None)
            if nxt is None:
                state[path.pop()] = 2
                stack.pop()
            elif state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            elif nxt not in state:
                state[nxt] = 1
                path.append(nxt)
                stack.append(iter(sorted(graph[nxt])))
    return None


def test_the_checker_finds_a_cycle_and_names_it() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert find_cycle(graph) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_the_checker_reads_every_kind_of_import(tmp_path: Path, monkeypatch) -> None:
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("def f():\n    from pkg import b\n")
    (pkg / "b.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .c import X\n"
    )
    (pkg / "c.py").write_text("import pkg.a\n")
    monkeypatch.setitem(PACKAGES, "pkg", pkg)
    graph = import_graph()
    assert graph["pkg.a"] == {"pkg.b"} and graph["pkg.b"] == {"pkg.c"}
    assert graph["pkg.c"] == {"pkg.a"}
    assert find_cycle({m: d for m, d in graph.items() if m.startswith("pkg")}) is not None


def test_no_import_cycle() -> None:
    cycle = find_cycle(import_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def _layer(module: str) -> tuple[float, str]:
    """(height, name) of a module's layer; a module may import only lower layers or its own."""
    parts = module.split(".")
    if parts[0] == "moon_agents":
        return 4, "moon_agents"
    if len(parts) == 1:
        return 2.5, "moon_envs"  # the front door: the registry's names, used by integrations
    if parts[1] in ("integrations", "jax"):  # built on the registry and the games
        return 3, "moon_envs." + parts[1]
    if parts[1] == "registry":
        return 2, "moon_envs.registry"
    if parts[1] == "core":
        return 0, "moon_envs.core"
    return 1, "moon_envs." + parts[1]  # a game


@pytest.mark.parametrize("package", sorted(PACKAGES))
def test_arrows_point_down(package: str) -> None:
    wrong = []
    for module, deps in import_graph().items():
        if not module.startswith(package):
            continue
        height, name = _layer(module)
        for dep in deps:
            dep_height, dep_name = _layer(dep)
            if dep_name != name and dep_height >= height:
                wrong.append(f"{module} -> {dep}")
    assert not wrong, "imports against the layers:\n" + "\n".join(sorted(wrong))


def test_the_core_never_names_the_agents_package() -> None:
    """Not even in a string handed to importlib: the core reaches agents through a hook."""
    for path in (ROOT / "moon_envs").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert "import moon_agents" not in text and "from moon_agents" not in text, path
        assert '"moon_agents.' not in text and "'moon_agents." not in text, path


def test_nothing_imports_the_folder_name_agents() -> None:
    """``agents/`` is imported as ``moon_agents``; importing it as ``agents`` would load a
    second copy of every module (or another distribution's ``agents``)."""
    wrong = []
    for folder in ("moon_envs", "agents", "tests", "examples"):
        for path in (ROOT / folder).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
                names = (
                    [a.name for a in node.names]
                    if isinstance(node, ast.Import)
                    else [node.module or ""]
                    if isinstance(node, ast.ImportFrom) and not node.level
                    else []
                )
                wrong += [f"{path}:{node.lineno}" for n in names if n.split(".")[0] == "agents"]
    assert not wrong, "imports of 'agents' (use moon_agents):\n" + "\n".join(wrong)


def test_the_longest_files_run_first_and_exist() -> None:
    """``tests/conftest.py`` hands the files of ``LONGEST_FILES`` to the workers first; a
    renamed or removed file there would silently lose its place."""
    from tests.conftest import LONGEST_FILES

    missing = [path for path in LONGEST_FILES if not (ROOT / path).is_file()]
    assert missing == []
    assert len(set(LONGEST_FILES)) == len(LONGEST_FILES)
