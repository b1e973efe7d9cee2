"""Harvester shapes: parsing, orientations and placement footprints.

A harvester kind is a polyomino written as rows of ``#`` (filled) and ``.`` (empty),
rows separated by ``/`` or new lines, e.g. the L pentomino ``"#./#./#./##"``. A shape
spec is one of:

* a built-in name: one of the twelve pentominoes ``F I L N P T U V W X Y Z``
  (:data:`BUILTIN_SHAPES`);
* a pattern, e.g. ``"###/.#."`` (named ``K1``, ``K2``, ... by its position);
* ``"NAME=PATTERN"``, e.g. ``"T4=###/.#."``.

A shape must be non-empty and edge-connected. Harvesters may be rotated and mirrored;
:func:`orientations` lists the distinct orientations in a fixed order (identity, the
three rotations, then the mirror image and its three rotations, duplicates dropped), so
the X pentomino has 1, U and T 4, L and P 8.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from moon_envs.core.game import ConfigError
from moon_envs.core.snapshot import quote

Cells = tuple[tuple[int, int], ...]

MAX_ORIENTATIONS = 8
"""Orientation slots in the placement action block (the dihedral group of the square)."""

BUILTIN_SHAPES: dict[str, str] = {
    "F": ".##/##./.#.",
    "I": "#/#/#/#/#",
    "L": "#./#./#./##",
    "N": ".#/.#/##/#.",
    "P": "##/##/#.",
    "T": "###/.#./.#.",
    "U": "#.#/###",
    "V": "#../#../###",
    "W": "#../##./.##",
    "X": ".#./###/.#.",
    "Y": ".#/##/.#/.#",
    "Z": "##./.#./.##",
}
"""The twelve pentominoes by their usual letters, as patterns."""

BASE_SET: tuple[str, ...] = ("L", "X")
"""Default kinds with 2 players (the base game) [HOUSE: the images are lost]."""
FULL_SET: tuple[str, ...] = ("L", "X", "U", "P")
"""Default kinds with 3-4 players (base game plus expansion) [HOUSE]."""


@dataclass(frozen=True)
class Shape:
    """A harvester kind.

    Attributes:
        name: display name (``"L"``, ``"K2"``, ...).
        cells: the filled ``(row, col)`` cells of the shape as written, normalised so that
            the smallest row and column are 0, sorted.
        orientations: the distinct orientations (each normalised and sorted), in slot order.
    """

    name: str
    cells: Cells
    orientations: tuple[Cells, ...]

    @property
    def size(self) -> int:
        return len(self.cells)

    def pattern(self, orientation: int = 0) -> str:
        """The orientation as rows of ``#`` and ``.`` joined by ``/``."""
        cells = self.orientations[orientation]
        h = max(r for r, _ in cells) + 1
        w = max(c for _, c in cells) + 1
        rows = [["." for _ in range(w)] for _ in range(h)]
        for r, c in cells:
            rows[r][c] = "#"
        return "/".join("".join(row) for row in rows)


def _normalise(cells: list[tuple[int, int]] | Cells) -> Cells:
    r0 = min(r for r, _ in cells)
    c0 = min(c for _, c in cells)
    return tuple(sorted((r - r0, c - c0) for r, c in cells))


def orientations(cells: Cells) -> tuple[Cells, ...]:
    """Distinct orientations of ``cells`` under rotation and mirroring, in slot order.

    Order: rotations by 0, 90, 180, 270 degrees, then the mirror image (columns reversed)
    rotated the same way; an orientation equal to an earlier one is dropped.
    """
    out: list[Cells] = []
    base = list(cells)
    for mirrored in (False, True):
        cur = [(r, -c) for r, c in base] if mirrored else list(base)
        for _ in range(4):
            norm = _normalise(cur)
            if norm not in out:
                out.append(norm)
            cur = [(c, -r) for r, c in cur]  # rotate 90 degrees
    return tuple(out)


def parse_pattern(pattern: str, field: str = "shapes") -> Cells:
    """Cells of a ``#``/``.`` pattern; raises :class:`ConfigError` naming ``field``."""
    rows = [row.strip() for row in pattern.replace("\n", "/").split("/")]
    while rows and not rows[0]:
        rows.pop(0)
    while rows and not rows[-1]:
        rows.pop()
    cells = []
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch == "#":
                cells.append((r, c))
            elif ch != ".":
                raise ConfigError(
                    f"{field}: pattern {quote(pattern)} has character {ch!r}; use '#' for a filled "
                    f"cell, '.' for an empty one and '/' between rows"
                )
    if not cells:
        raise ConfigError(f"{field}: pattern {quote(pattern)} is empty (it needs at least one '#')")
    if not _connected(cells):
        raise ConfigError(
            f"{field}: pattern {quote(pattern)} is not connected (cells must touch edge to edge)"
        )
    return _normalise(cells)


def _connected(cells: list[tuple[int, int]]) -> bool:
    todo = [cells[0]]
    seen = {cells[0]}
    filled = set(cells)
    while todo:
        r, c = todo.pop()
        for nb in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if nb in filled and nb not in seen:
                seen.add(nb)
                todo.append(nb)
    return len(seen) == len(filled)


def parse_shape(spec: str, index: int = 0, field: str = "shapes") -> Shape:
    """Build a :class:`Shape` from a built-in name, a pattern or ``NAME=PATTERN``."""
    if not isinstance(spec, str):
        raise ConfigError(f"{field}[{index}] must be a string, got {quote(spec)}")
    text = spec.strip()
    if text.upper() in BUILTIN_SHAPES and "=" not in text:
        name, pattern = text.upper(), BUILTIN_SHAPES[text.upper()]
    elif "=" in text:
        name, _, pattern = text.partition("=")
        name = name.strip()
        if not name:
            raise ConfigError(f"{field}[{index}]: {quote(spec)} has an empty name before '='")
    elif set(text) <= set("#./\n "):
        name, pattern = f"K{index + 1}", text
    else:
        raise ConfigError(
            f"{field}[{index}]={quote(spec)} is neither a built-in shape "
            f"({sorted(BUILTIN_SHAPES)}) nor a '#'/'.' pattern such as '###/.#.'"
        )
    cells = parse_pattern(pattern, f"{field}[{index}]")
    return Shape(name=name, cells=cells, orientations=orientations(cells))


def parse_shapes(specs: tuple[str, ...], rows: int, cols: int) -> tuple[Shape, ...]:
    """Parse every kind and check that names are distinct and each fits the grid."""
    shapes = tuple(parse_shape(s, i) for i, s in enumerate(specs))
    names = [s.name for s in shapes]
    if len(set(names)) != len(names):
        raise ConfigError(f"shapes: kind names must be distinct, got {quote(names)}")
    for i, s in enumerate(shapes):
        if not any(_fits(o, rows, cols) for o in s.orientations):
            raise ConfigError(
                f"shapes[{i}] ({quote(s.name)}: {quote(s.pattern())}) does not fit the "
                f"{rows}x{cols} grid in any orientation"
            )
    return shapes


def _fits(cells: Cells, rows: int, cols: int) -> bool:
    return max(r for r, _ in cells) < rows and max(c for _, c in cells) < cols


@dataclass(frozen=True)
class Footprints:
    """Precomputed placement tables for a grid of ``rows x cols`` cells.

    A placement of kind ``k`` is ``(slot, anchor)``: orientation slot ``0..7`` and the grid
    cell ``anchor = row * cols + col`` where the orientation's bounding box has its
    top-left corner; its index within the kind is ``slot * cells + anchor``
    (``per_kind = 8 * cells`` placements per kind, invalid ones included).

    Attributes:
        in_bounds: bool ``(kinds * per_kind + 1,)``: the placement exists (slot used by the
            kind, every cell inside the grid); the last entry is a spare ``False`` slot
            that padding in ``cover`` points to.
        cells: per kind, int ``(per_kind, size)``: the grid cells each placement covers
            (cell 0 for placements that do not exist).
        cover: int ``(cells, width)``: for each grid cell, the flat indices
            ``kind * per_kind + placement`` of every existing placement covering it,
            padded with the spare index.
        cover_kind: int ``(cells, width)``: the kind of each ``cover`` entry (``kinds`` for
            padding), for per-kind counts.
        foot: per flat index ``kind * per_kind + placement``, its row of ``cells`` as a
            tuple of ints (the cells that placement covers), for the rules' loops.
        clash: per flat index, the sorted flat indices of every existing placement that
            shares a cell with it (itself included; empty for a placement that does not
            exist): the "still fits" flags that placing it clears, the union of its cells'
            ``cover`` rows without padding or repeats.
    """

    rows: int
    cols: int
    per_kind: int
    in_bounds: np.ndarray
    cells: tuple[np.ndarray, ...]
    cover: np.ndarray
    cover_kind: np.ndarray
    foot: tuple[tuple[int, ...], ...]
    clash: tuple[np.ndarray, ...]


@lru_cache(maxsize=8)
def build_footprints(shapes: tuple[Shape, ...], rows: int, cols: int) -> Footprints:
    """Precompute every placement footprint and the cell -> placements index (read-only
    tables, shared by the games of one shape set and grid)."""
    n_cells = rows * cols
    per_kind = MAX_ORIENTATIONS * n_cells
    k_count = len(shapes)
    spare = k_count * per_kind
    in_bounds = np.zeros(spare + 1, dtype=bool)
    all_cells = []
    lists: list[list[int]] = [[] for _ in range(n_cells)]
    ar, ac = np.divmod(np.arange(n_cells), cols)
    for k, shape in enumerate(shapes):
        foot = np.zeros((per_kind, shape.size), dtype=np.int64)
        for slot, orient in enumerate(shape.orientations):
            dr = np.array([r for r, _ in orient])
            dc = np.array([c for _, c in orient])
            rr = ar[:, None] + dr[None, :]
            cc = ac[:, None] + dc[None, :]
            ok = (rr.max(axis=1) < rows) & (cc.max(axis=1) < cols)
            base = slot * n_cells
            foot[base : base + n_cells] = np.where(ok[:, None], rr * cols + cc, 0)
            in_bounds[k * per_kind + base : k * per_kind + base + n_cells] = ok
            for anchor in np.flatnonzero(ok):
                flat = k * per_kind + base + int(anchor)
                for cell in foot[base + anchor]:
                    lists[int(cell)].append(flat)
        foot.setflags(write=False)
        all_cells.append(foot)
    width = max(1, max(len(x) for x in lists))
    cover = np.full((n_cells, width), spare, dtype=np.int64)
    for cell, idx in enumerate(lists):
        cover[cell, : len(idx)] = idx
    cover_kind = np.where(cover == spare, k_count, cover // per_kind)
    for arr in (in_bounds, cover, cover_kind):
        arr.setflags(write=False)
    foot = tuple(tuple(row) for kind_cells in all_cells for row in kind_cells.tolist())
    clash = _clashes(all_cells, in_bounds, cover)
    return Footprints(
        rows, cols, per_kind, in_bounds, tuple(all_cells), cover, cover_kind, foot, clash
    )


def _clashes(
    all_cells: list[np.ndarray], in_bounds: np.ndarray, cover: np.ndarray
) -> tuple[np.ndarray, ...]:
    """:attr:`Footprints.clash`: per placement, its cells' ``cover`` rows merged, sorted,
    without repeats or the spare index."""
    spare = in_bounds.size - 1
    none = np.zeros(0, dtype=np.intp)
    none.setflags(write=False)
    out: list[np.ndarray] = []
    for k, kind_cells in enumerate(all_cells):
        merged = np.sort(cover[kind_cells].reshape(kind_cells.shape[0], -1), axis=1)
        keep = merged != spare
        keep[:, 1:] &= merged[:, 1:] != merged[:, :-1]
        base = k * kind_cells.shape[0]
        for p in range(kind_cells.shape[0]):
            if not in_bounds[base + p]:
                out.append(none)
                continue
            row = merged[p][keep[p]].astype(np.intp)
            row.setflags(write=False)
            out.append(row)
    return tuple(out)
