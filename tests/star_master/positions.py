"""Hand-built Star Master positions for the rule tests."""

from __future__ import annotations

from moon_envs.core.game import CHANCE
from moon_envs.star_master.rules import StarMasterGame, StarMasterState

# slot -> colour; colour c sits on slot LAYOUT.index(c)
LAYOUT = [4, 0, 7, 2, 8, 1, 5, 3, 6]
LAYOUT6 = [4, 0, 2, 5, 1, 3]  # with num_colours=6
LAYOUTS = {9: LAYOUT, 6: LAYOUT6}


def where(colour: int, layout=LAYOUT) -> int:
    return list(layout).index(colour)


def start(layout=LAYOUT, seed: int = 0, **params) -> StarMasterState:
    """A game after set-up with ``layout`` (and forgetting seed ``seed`` in decay mode)."""
    state = StarMasterGame(**params).new_initial_state()
    for colour in layout:
        assert state.current_player() == CHANCE
        state.apply_action(colour)
    if state.game.config.memory == "decay":
        state.apply_action(seed)
    return state


def roll(state: StarMasterState, white: int, black_star: bool = False) -> None:
    """Roll the dice: ``white`` a colour 0..num_colours-1 or 9 (star)."""
    assert state.current_player() == CHANCE
    state.apply_action(2 * white + int(black_star))


def give(state: StarMasterState, seat: int, *colours: int) -> None:
    for c in colours:
        state._set_pawn(seat, c, 1)


VARIANTS = {
    "standard": {},
    "competition": {"competition": True},
    "children": {"children": True},
    "solitaire": {"solitaire": True},
}
MEMORY_MODES = ("none", "perfect", "decay")

# every player count x variant (solitaire only alone) x memory mode: 57 configurations
GRID = [
    dict(num_players=n, memory=memory, **params)
    for n in range(1, 7)
    for variant, params in VARIANTS.items()
    if variant != "solitaire" or n == 1
    for memory in MEMORY_MODES
]


# fewer colours: 6 and 7 colours x 1, 2 and 4 players x memory mode: 18 configurations
COLOUR_GRID = [
    dict(num_players=n, num_colours=k, memory=memory)
    for k in (6, 7)
    for n in (1, 2, 4)
    for memory in MEMORY_MODES
]


def grid_id(params: dict) -> str:
    flags = [k for k in ("competition", "children", "solitaire") if params.get(k)]
    name = f"{params['num_players']}p-{'+'.join(flags) or 'standard'}-{params['memory']}"
    if "num_colours" in params:
        name += f"-{params['num_colours']}colours"
    return name
