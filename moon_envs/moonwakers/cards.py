"""Moonwakers card data: load a card file and check it against the schema.

Schema of a card file (JSON object; ``data/cards.json`` is the default)::

    {
      "schema": "moonwakers-cards/1",                    # optional; this exact value
      "elements": ["C", "H", "N", "O", "P", "S"],        # exactly these six, this order
      "combinations": [                                    # 1..32 COMBINATION cards
        {"name": "H2O", "cost": {"H": 2, "O": 1}, "points": 3}, ...
      ],
      "terrain": [                                         # 8..96 double-sided TERRAIN cards
        {"biome": "Volcano", "element": "H",               # terrain face: biome + 1 element
         "explored": {"kind": "elements", "elements": {"H": 1, "O": 1}}}, ...
      ],
      "characters": [                                      # exactly 6 CHARACTER cards
        {"name": "Blue Moon", "ability": "shortcut"}, ...
      ]
    }

``explored.kind`` is one of :data:`EXPLORED_KINDS`; only ``"elements"`` takes an
``elements`` map (1..3 atoms in all). Costs hold 1..12 atoms, points are 1..99, names and
biomes are 1..60 characters long, a character's ability is ``"shortcut"``,
``"permutation"`` or ``"dash"``. Any other key is an error. A bad file (missing, a
folder, unreadable, over 1 MB, not UTF-8, not JSON, nested deeper than 16 levels, or off
the schema) raises :class:`ConfigError` naming the card (list and index) and field;
quoted values are cut short.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from moon_envs.core.checks import read_file_capped
from moon_envs.core.game import ConfigError
from moon_envs.core.snapshot import quote

ELEMENTS = ("C", "H", "N", "O", "P", "S")
EXPLORED_KINDS = (
    "elements",
    "accident",
    "infrared_storm",
    "ionic_storm",
    "labo",
    "cryogen",
    "defective_shelter",
    "scan",
    "shelter",
    "shield",
)
ACTION_KINDS = ("labo", "cryogen", "defective_shelter", "scan", "shelter", "shield")
ABILITIES = ("shortcut", "permutation", "dash")
_KIND_INDEX = {k: i for i, k in enumerate(EXPLORED_KINDS)}
PACK_BITS = 10
PACK_GUARDS = sum(1 << (PACK_BITS * e + PACK_BITS - 1) for e in range(6))
"""The top bit of each element field: ``(have | PACK_GUARDS) - cost`` keeps every guard bit
exactly when each element of ``have`` covers ``cost`` (counts stay below 512)."""


def packed(counts) -> int:
    """Six element counts as one int of :data:`PACK_BITS` bits per element."""
    return sum(int(v) << PACK_BITS * e for e, v in enumerate(counts))


def covers(have: int, cost: int) -> bool:
    """Whether packed counts ``have`` hold at least packed counts ``cost``."""
    return ((have | PACK_GUARDS) - cost) & PACK_GUARDS == PACK_GUARDS


DEFAULT_PATH = Path(__file__).with_name("data") / "cards.json"
_TOP_KEYS = {"schema", "elements", "combinations", "terrain", "characters"}
SCHEMA = "moonwakers-cards/1"
MAX_FILE_BYTES = 1 << 20
MAX_DEPTH = 16
MAX_NAME = 60


@dataclass(frozen=True)
class CardSet:
    """The validated card lists as arrays (index = card id).

    Attributes:
        source: the path the cards came from.
        combo_names, combo_cost (``K x 6`` int), combo_points (``K``).
        terrain_biome (names per card), terrain_element (``N`` int, index into
        :data:`ELEMENTS`), explored_kind (``N`` int, index into :data:`EXPLORED_KINDS`),
        explored_elements (``N x 6`` int), biomes (distinct biome names, sorted).
        character_names, character_ability (``6`` int, index into :data:`ABILITIES`).
    """

    source: str
    combo_names: tuple[str, ...]
    combo_cost: np.ndarray
    combo_points: np.ndarray
    terrain_biome: tuple[str, ...]
    terrain_element: np.ndarray
    explored_kind: np.ndarray
    explored_elements: np.ndarray
    biomes: tuple[str, ...]
    character_names: tuple[str, ...]
    character_ability: np.ndarray
    # the same facts as plain tuples, for the hot paths
    element_of: tuple[int, ...] = ()
    gives: tuple[tuple[int, ...], ...] = ()
    gives_sparse: tuple[tuple[tuple[int, int], ...], ...] = ()
    kind_of: tuple[int, ...] = ()
    biome_of: tuple[int, ...] = ()
    cost_of: tuple[tuple[int, ...], ...] = ()
    points_of: tuple[int, ...] = ()
    ability_of: tuple[int, ...] = ()
    face_of: tuple[int, ...] = ()  # biome index * 6 + terrain element: what the back shows
    # element counts packed in one int (PACK_BITS bits per element, :func:`packed`)
    packed_face: tuple[int, ...] = ()  # a mapped card: its terrain element
    packed_gives: tuple[int, ...] = ()  # a hand card: its explored elements
    packed_cost: tuple[int, ...] = ()  # a COMBINATION card: its cost

    @property
    def num_terrain(self) -> int:
        return len(self.terrain_biome)

    @property
    def num_combos(self) -> int:
        return len(self.combo_names)

    def kind_name(self, card: int) -> str:
        return EXPLORED_KINDS[int(self.explored_kind[card])]

    def is_kind(self, card: int, kind: str) -> bool:
        return self.kind_of[card] == _KIND_INDEX[kind]


def _fail(where: str, field: str, problem: str) -> None:
    raise ConfigError(f"card file: {where}: field {field!r} {problem}")


def _check_keys(where: str, obj: Any, required: set[str], optional: set[str] = frozenset()) -> None:
    if not isinstance(obj, dict):
        raise ConfigError(f"card file: {where} must be a JSON object, got {type(obj).__name__}")
    for key in sorted(required - set(obj)):
        _fail(where, key, "is missing")
    for key in sorted(set(obj) - required - set(optional)):
        _fail(where, key, f"is unknown; allowed fields: {sorted(required | set(optional))}")


def _element_map(where: str, field: str, value: Any, low: int, high: int) -> np.ndarray:
    if not isinstance(value, dict) or not value:
        _fail(where, field, f"must be a non-empty map of elements {list(ELEMENTS)} to counts")
    out = np.zeros(len(ELEMENTS), dtype=np.int64)
    for el, count in value.items():
        if el not in ELEMENTS:
            _fail(where, field, f"has element {quote(el)}; allowed elements: {list(ELEMENTS)}")
        if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= 12:
            _fail(where, field, f"has count {quote(count)} for {el}; counts are integers 1..12")
        out[ELEMENTS.index(el)] = count
    if not low <= out.sum() <= high:
        _fail(where, field, f"holds {int(out.sum())} atoms; allowed: {low}..{high}")
    return out


def _name(where: str, obj: dict, field: str) -> str:
    value = obj[field]
    if not isinstance(value, str) or not value.strip() or len(value) > MAX_NAME:
        _fail(where, field, f"must be a string of 1..{MAX_NAME} characters, got {quote(value)}")
    return value


def parse_cards(data: Any, source: str = "<data>") -> CardSet:
    """Validate a decoded card file and build its :class:`CardSet`."""
    _check_keys("top level", data, _TOP_KEYS - {"schema"}, {"schema"})
    if "schema" in data and data["schema"] != SCHEMA:
        _fail("top level", "schema", f"is {quote(data['schema'])}; allowed: {SCHEMA!r}")
    if not isinstance(data["elements"], list) or data["elements"] != list(ELEMENTS):
        _fail(
            "top level",
            "elements",
            f"must be exactly {list(ELEMENTS)}, got {quote(data['elements'])}",
        )
    combos, terrain, chars = data["combinations"], data["terrain"], data["characters"]
    if not isinstance(combos, list) or not 1 <= len(combos) <= 32:
        _fail("top level", "combinations", "must be a list of 1..32 cards")
    if not isinstance(terrain, list) or not 8 <= len(terrain) <= 96:
        _fail("top level", "terrain", "must be a list of 8..96 cards")
    if not isinstance(chars, list) or len(chars) != 6:
        _fail("top level", "characters", "must be a list of exactly 6 cards")

    names, costs, points = [], [], []
    for i, card in enumerate(combos):
        where = f"combinations[{i}]"
        _check_keys(where, card, {"name", "cost", "points"})
        names.append(_name(where, card, "name"))
        where = f"combinations[{i}] ({card['name']!r})"
        costs.append(_element_map(where, "cost", card["cost"], 1, 12))
        p = card["points"]
        if isinstance(p, bool) or not isinstance(p, int) or not 1 <= p <= 99:
            _fail(where, "points", f"must be an integer in 1..99, got {p!r}")
        points.append(p)

    biomes, faces, kinds, explored = [], [], [], []
    for i, card in enumerate(terrain):
        where = f"terrain[{i}]"
        _check_keys(where, card, {"biome", "element", "explored"})
        biomes.append(_name(where, card, "biome"))
        if not isinstance(card["element"], str) or card["element"] not in ELEMENTS:
            _fail(where, "element", f"is {quote(card['element'])}; allowed: {list(ELEMENTS)}")
        faces.append(ELEMENTS.index(card["element"]))
        ex = card["explored"]
        kind = ex.get("kind") if isinstance(ex, dict) else None
        if not isinstance(kind, str) or kind not in EXPLORED_KINDS:
            _fail(where, "explored.kind", f"is {quote(kind)}; allowed: {list(EXPLORED_KINDS)}")
        if kind == "elements":
            _check_keys(f"{where}.explored", ex, {"kind", "elements"})
            explored.append(_element_map(where, "explored.elements", ex["elements"], 1, 3))
        else:
            _check_keys(f"{where}.explored", ex, {"kind"})
            explored.append(np.zeros(len(ELEMENTS), dtype=np.int64))
        kinds.append(EXPLORED_KINDS.index(kind))

    char_names, abilities = [], []
    for i, card in enumerate(chars):
        where = f"characters[{i}]"
        _check_keys(where, card, {"name", "ability"})
        char_names.append(_name(where, card, "name"))
        if not isinstance(card["ability"], str) or card["ability"] not in ABILITIES:
            _fail(where, "ability", f"is {quote(card['ability'])}; allowed: {list(ABILITIES)}")
        abilities.append(ABILITIES.index(card["ability"]))

    biome_names = tuple(sorted(set(biomes)))
    return CardSet(
        element_of=tuple(faces),
        gives=tuple(tuple(int(v) for v in e) for e in explored),
        gives_sparse=tuple(tuple((i, int(v)) for i, v in enumerate(e) if v) for e in explored),
        kind_of=tuple(kinds),
        biome_of=tuple(biome_names.index(b) for b in biomes),
        face_of=tuple(biome_names.index(b) * len(ELEMENTS) + f for b, f in zip(biomes, faces)),
        packed_face=tuple(1 << PACK_BITS * f for f in faces),
        packed_gives=tuple(packed(e) for e in explored),
        packed_cost=tuple(packed(c) for c in costs),
        cost_of=tuple(tuple(int(v) for v in c) for c in costs),
        points_of=tuple(points),
        ability_of=tuple(abilities),
        source=source,
        combo_names=tuple(names),
        combo_cost=np.array(costs, dtype=np.int64),
        combo_points=np.array(points, dtype=np.int64),
        terrain_biome=tuple(biomes),
        terrain_element=np.array(faces, dtype=np.int64),
        explored_kind=np.array(kinds, dtype=np.int64),
        explored_elements=np.array(explored, dtype=np.int64),
        biomes=biome_names,
        character_names=tuple(char_names),
        character_ability=np.array(abilities, dtype=np.int64),
    )


_CACHE: dict[str, CardSet] = {}


def load_cards(path: str | None = None) -> CardSet:
    """Load and validate a card file (``None``: the package's default ``data/cards.json``)."""
    if path is not None and not isinstance(path, str):
        raise ConfigError(f"cards must be a path string or None, got {quote(path)}")
    shown = quote(path, 60) if path else repr(str(DEFAULT_PATH))
    p = Path(path) if path else DEFAULT_PATH
    try:
        if not p.exists() and not p.is_symlink():
            raise ConfigError(f"cards={shown}: no such card file")
        key = f"{p.resolve()}@{p.stat().st_mtime_ns}"
    except ConfigError:
        raise
    except (OSError, ValueError) as err:  # too long a name, no permission, a NUL byte...
        raise ConfigError(f"cards={shown} cannot be read: {type(err).__name__}") from None
    if key in _CACHE and p.is_file():
        return _CACHE[key]
    raw = read_file_capped(p, MAX_FILE_BYTES, "cards", "a card file (JSON)")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        raise ConfigError(f"cards={shown} is not UTF-8 text (byte {err.start})") from None
    _check_depth(text, shown)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise ConfigError(f"cards={shown} is not valid JSON: {quote(str(err), 120)}") from None
    except ValueError as err:  # e.g. an integer of more digits than Python converts
        raise ConfigError(f"cards={shown} is not valid JSON: {quote(str(err), 120)}") from None
    except RecursionError:
        raise ConfigError(
            f"cards={shown}: nested too deeply (at most {MAX_DEPTH} levels)"
        ) from None
    cards = parse_cards(data, source=str(p))
    _CACHE[key] = cards
    return cards


def _check_depth(text: str, shown: str) -> None:
    """Refuse JSON nested deeper than :data:`MAX_DEPTH` before decoding it (brackets
    inside strings are skipped)."""
    depth = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                raise ConfigError(f"cards={shown}: nested too deeply (at most {MAX_DEPTH} levels)")
        elif ch in "]}":
            depth -= 1
