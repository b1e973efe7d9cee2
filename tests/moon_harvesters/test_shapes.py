"""Shape parsing, orientation counts and precomputed placement footprints."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from moon_envs import ConfigError
from moon_envs.moon_harvesters.shapes import (
    BUILTIN_SHAPES,
    MAX_ORIENTATIONS,
    build_footprints,
    orientations,
    parse_shape,
    parse_shapes,
)

EXPECTED_ORIENTATIONS = {
    "F": 8,
    "I": 2,
    "L": 8,
    "N": 8,
    "P": 8,
    "T": 4,
    "U": 4,
    "V": 4,
    "W": 4,
    "X": 1,
    "Y": 8,
    "Z": 4,
}


def _all_transforms(cells):
    """Every image of ``cells`` under the 8 symmetries of the square, normalised."""
    out = set()
    for swap, fr, fc in itertools.product((False, True), (1, -1), (1, -1)):
        img = [((c, r) if swap else (r, c)) for r, c in cells]
        img = [(fr * r, fc * c) for r, c in img]
        r0 = min(r for r, _ in img)
        c0 = min(c for _, c in img)
        out.add(tuple(sorted((r - r0, c - c0) for r, c in img)))
    return out


@pytest.mark.parametrize("name,count", sorted(EXPECTED_ORIENTATIONS.items()))
def test_pentomino_orientation_counts(name, count):
    shape = parse_shape(name)
    assert shape.size == 5
    assert len(shape.orientations) == count
    assert set(shape.orientations) == _all_transforms(shape.cells)


@pytest.mark.parametrize(
    "pattern,count",
    [("#", 1), ("##", 2), ("##/##", 1), ("###/#..", 8), ("##./.##", 4), (".#./###", 4)],
)
def test_custom_orientation_counts(pattern, count):
    shape = parse_shape(pattern)
    assert len(shape.orientations) == count
    assert len(set(shape.orientations)) == count
    assert set(shape.orientations) == _all_transforms(shape.cells)


def test_orientation_order_starts_with_the_shape_as_written():
    shape = parse_shape("L")
    assert shape.orientations[0] == shape.cells
    assert shape.pattern(0) == "#./#./#./##"
    assert orientations(shape.cells) == shape.orientations


def test_spec_formats():
    assert parse_shape("x").name == "X"
    named = parse_shape("T4=###/.#.")
    assert named.name == "T4" and named.size == 4
    anon = parse_shape("##\n#.", index=2)
    assert anon.name == "K3" and anon.cells == ((0, 0), (0, 1), (1, 0))
    assert parse_shape(" ./##/ ").cells == ((0, 0), (0, 1))  # blank rows are trimmed


@pytest.mark.parametrize(
    "spec,words",
    [
        ("...", "empty"),
        ("", "empty"),
        ("#.#", "not connected"),
        ("#./.#", "not connected"),
        ("A=#x#", "character"),
        ("#x#", "neither a built-in"),
        ("Q", "neither a built-in"),
        ("=##", "empty name"),
    ],
)
def test_bad_shapes_raise_config_error(spec, words):
    with pytest.raises(ConfigError, match="shapes") as err:
        parse_shape(spec)
    assert words in str(err.value)


def test_shape_set_checks():
    with pytest.raises(ConfigError, match="distinct"):
        parse_shapes(("L", "L"), 12, 12)
    with pytest.raises(ConfigError, match="does not fit"):
        parse_shapes(("L", "I"), 4, 4)
    assert len(parse_shapes(("L", "I"), 5, 4)) == 2  # fits once rotated: I fits vertically


@pytest.mark.parametrize("rows,cols", [(12, 12), (12, 16), (5, 7)])
def test_footprints_match_a_direct_enumeration(rows, cols):
    shapes = tuple(parse_shape(s) for s in ("L", "X", "U", "##/#."))
    fp = build_footprints(shapes, rows, cols)
    cells = rows * cols
    assert fp.per_kind == MAX_ORIENTATIONS * cells
    covering = [set() for _ in range(cells)]
    for k, shape in enumerate(shapes):
        for slot in range(MAX_ORIENTATIONS):
            for anchor in range(cells):
                flat = k * fp.per_kind + slot * cells + anchor
                ar, ac = divmod(anchor, cols)
                if slot >= len(shape.orientations):
                    assert not fp.in_bounds[flat]
                    continue
                want = [(ar + r, ac + c) for r, c in shape.orientations[slot]]
                inside = all(r < rows and c < cols for r, c in want)
                assert fp.in_bounds[flat] == inside
                if inside:
                    got = fp.cells[k][slot * cells + anchor]
                    assert sorted(got.tolist()) == sorted(r * cols + c for r, c in want)
                    for cell in got:
                        covering[int(cell)].add(flat)
    spare = len(shapes) * fp.per_kind
    assert not fp.in_bounds[spare]
    for cell in range(cells):
        row = fp.cover[cell]
        listed = set(row[row != spare].tolist())
        assert listed == covering[cell]
        assert len(listed) == int((row != spare).sum())  # no duplicates
        kinds = fp.cover_kind[cell][row != spare]
        assert np.array_equal(kinds, row[row != spare] // fp.per_kind)


def test_builtin_table_is_the_twelve_pentominoes():
    assert sorted(BUILTIN_SHAPES) == sorted(EXPECTED_ORIENTATIONS)
    seen = set()
    for name in BUILTIN_SHAPES:
        shape = parse_shape(name)
        assert not (set(shape.orientations) & seen), f"{name} duplicates another pentomino"
        seen |= set(shape.orientations)
    assert len(seen) == 63  # the 63 fixed pentominoes
