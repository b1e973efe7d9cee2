"""Star Master rules on hand-built positions (docs/rules.md, section "Star Master")."""

from __future__ import annotations

import numpy as np
import pytest

from moon_envs import ConfigError, IllegalActionError
from moon_envs.core.game import CHANCE, TERMINAL
from moon_envs.star_master import memory as decay
from moon_envs.star_master.config import NAME0, PASS, STAR, SWAP0
from moon_envs.star_master.rules import END, FLIP, NAME, RACE, ROLL, SWAP, StarMasterGame
from tests.star_master.positions import LAYOUT, give, roll, start, where

RED, ORANGE, YELLOW, GREEN, CYAN = 0, 1, 2, 3, 4


def test_setup_places_a_permutation_and_shows_it_once_to_everyone():
    state = start(num_players=3)
    assert state.layout.tolist() == LAYOUT
    for p in range(3):
        assert state.win_map[p].tolist() == LAYOUT
        assert (state.memory[p] == -1).all()  # memory="none" keeps no map
    # then the first roll: the dice's chance node
    assert state.phase == ROLL and state.chance_outcomes() == state.game.dice_outcomes


def test_setup_chance_nodes_offer_only_the_colours_left():
    state = StarMasterGame().new_initial_state()
    state.apply_action(5)
    outs = state.chance_outcomes()
    assert [o for o, _ in outs] == [0, 1, 2, 3, 4, 6, 7, 8]
    assert abs(sum(p for _, p in outs) - 1) < 1e-12
    with pytest.raises(IllegalActionError, match="possible outcomes"):
        state.apply_action(5)


def test_found_colour_gains_the_pawn_and_must_be_swapped():
    state = start()
    roll(state, RED)
    assert state.phase == FLIP and state.current_player() == 0
    assert not state.legal_actions_mask()[PASS]  # player_0 lacks red: no pass
    state.apply_action(where(RED))
    assert state.pawns[0, RED] == 1 and state.phase == SWAP
    mask = state.legal_actions_mask()
    assert mask.sum() == 8 and not mask[SWAP0 + where(RED)]
    state.apply_action(SWAP0 + 8)
    expected = list(LAYOUT)
    expected[where(RED)], expected[8] = expected[8], expected[where(RED)]
    assert state.layout.tolist() == expected
    assert state.roller == 1 and state.current_player() == CHANCE
    # the swap is public: windows follow the cubes
    assert state.win_map[1].tolist() == expected
    assert state.win_perm[1, 8] == where(RED) and state.win_perm[1, where(RED)] == 8


def test_miss_puts_the_cube_back_and_passes_the_dice():
    state = start()
    roll(state, RED)
    state.apply_action(where(ORANGE))
    assert state.layout.tolist() == LAYOUT
    assert state.pawns.sum() == 0 and state.roller == 1
    assert state.last_flip.tolist() == [0, where(ORANGE), ORANGE, 0]


def test_pass_only_with_an_owned_colour_outside_competition():
    state = start()
    give(state, 0, RED)
    roll(state, RED)
    assert state.legal_actions_mask()[PASS]
    state.apply_action(PASS)
    assert state.roller == 1 and state.pawns[0, RED] == 1
    comp = start(competition=True)
    give(comp, 0, RED)
    roll(comp, RED)
    assert not comp.legal_actions_mask()[PASS]
    with pytest.raises(IllegalActionError, match="legal actions"):
        comp.apply_action(PASS)


def test_competition_miss_loses_the_owned_colour_and_a_find_keeps_it():
    comp = start(competition=True)
    give(comp, 0, RED)
    roll(comp, RED)
    comp.apply_action(where(ORANGE))
    assert comp.pawns[0, RED] == 0
    keep = start(competition=True)
    give(keep, 0, RED)
    roll(keep, RED)
    keep.apply_action(where(RED))
    assert keep.pawns[0, RED] == 1 and keep.phase == SWAP
    plain = start()
    give(plain, 0, RED)
    roll(plain, RED)
    plain.apply_action(where(ORANGE))  # no competition: a miss costs nothing
    assert plain.pawns[0, RED] == 1


def test_star_names_a_lacking_colour_then_flips_for_it():
    state = start()
    give(state, 0, RED, GREEN)
    roll(state, STAR, black_star=True)  # a star on white: no race even with a black star
    assert state.phase == NAME
    mask = state.legal_actions_mask()
    assert not mask[NAME0 + RED] and not mask[NAME0 + GREEN] and mask[NAME0 + YELLOW]
    with pytest.raises(IllegalActionError):
        state.apply_action(NAME0 + RED)
    state.apply_action(NAME0 + YELLOW)
    assert state.phase == FLIP and state.target == YELLOW
    assert not state.legal_actions_mask()[PASS]
    state.apply_action(where(YELLOW))
    assert state.pawns[0, YELLOW] == 1 and state.phase == SWAP


def race(num_players=3, **params):
    state = start(num_players=num_players, **params)
    roll(state, RED, black_star=True)
    assert state.phase == RACE
    return state


def test_race_choices_go_round_from_the_roller_and_nobody_grabbing_passes_the_dice():
    state = race()
    for seat in (0, 1, 2):
        assert state.current_player() == seat
        assert state.legal_actions_mask().sum() == 10
        state.apply_action(PASS)
    assert state.roller == 1 and state.pawns.sum() == 0
    assert state.last_race.tolist() == [-1, -1, -1]


def test_single_grabber_wins_the_race_and_swaps():
    state = race()
    state.apply_action(PASS)
    state.apply_action(where(RED))
    state.apply_action(PASS)
    assert state.pawns[1, RED] == 1 and state.phase == SWAP and state.current_player() == 1
    state.apply_action(SWAP0 + 0)
    assert state.roller == 1  # the dice pass from the roller, player_0


def test_several_grabbers_are_drawn_uniformly_by_a_chance_node():
    state = race()
    state.apply_action(where(ORANGE))
    state.apply_action(PASS)
    state.apply_action(where(RED))
    assert state.current_player() == CHANCE
    assert state.chance_outcomes() == [(0, 0.5), (2, 0.5)]
    other = state.clone()
    state.apply_action(2)
    assert state.pawns[2, RED] == 1 and state.current_player() == 2
    give(other, 0, ORANGE)
    other.apply_action(0)  # player_0 grabbed orange: a miss loses orange
    assert other.pawns[0, ORANGE] == 0 and other.pawns[0].sum() == 0
    assert other.roller == 1 and other.last_flip.tolist() == [0, where(ORANGE), ORANGE, 0]


def test_race_win_with_an_owned_colour_gains_nothing_but_swaps():
    state = race(num_players=2)
    give(state, 0, RED)
    state.apply_action(where(RED))
    state.apply_action(PASS)
    assert state.pawns[0].sum() == 1 and state.phase == SWAP


def test_seat_order_race_rule_takes_the_first_grabber_from_the_roller():
    state = race(race_winner="seat_order")
    state.apply_action(PASS)
    state.apply_action(where(RED))
    state.apply_action(where(ORANGE))
    assert state.current_player() == 1 and state.pawns[1, RED] == 1


def test_children_variant_has_no_race_and_cubes_never_move():
    g = StarMasterGame(children=True)
    assert all(o % 2 == 0 for o, _ in g.dice_outcomes)
    state = start(children=True)
    with pytest.raises(IllegalActionError):
        roll(state, RED, black_star=True)
    roll(state, RED)
    state.apply_action(where(RED))
    assert state.pawns[0, RED] == 1 and state.layout.tolist() == LAYOUT
    assert state.roller == 1 and state.current_player() == CHANCE


def test_six_colours_win_at_once_without_the_swap():
    state = start()
    give(state, 0, 1, 2, 3, 4, 5)
    roll(state, RED)
    state.apply_action(where(RED))
    assert state.current_player() == TERMINAL and state.winners() == [0]
    assert state.returns().tolist() == [1.0, -1.0]


def test_a_race_won_on_the_sixth_colour_ends_the_game_at_once():
    """The race's winner reaching 6 colours wins there: no swap, no further turn, even
    when several grabbed and the draw picked the winner."""
    for drawn in (False, True):
        state = race(num_players=3)
        give(state, 1, 1, 2, 3, 4, 5)
        state.apply_action(where(ORANGE) if drawn else PASS)  # player_0
        state.apply_action(where(RED))  # player_1 grabs red
        state.apply_action(PASS)  # player_2
        if drawn:
            assert state.chance_outcomes() == [(0, 0.5), (1, 0.5)]
            state.apply_action(1)
        assert state.phase == END and state.current_player() == TERMINAL
        assert state.winners() == [1] and state.pawns[1].sum() == 6
        assert state.layout.tolist() == LAYOUT  # the found cube was not swapped
        assert state.returns().tolist() == [-0.5, 1.0, -0.5]


def test_a_lone_player_without_solitaire_wins_only_with_six_colours():
    """Alone, there is nobody to out-collect: at the turn cap a lone player holding fewer
    than 6 colours loses (-1) under either turn_limit rule."""
    for rule in ("most_colours", "nobody"):
        state = start(num_players=1, max_turns=2, turn_limit=rule)
        give(state, 0, GREEN)
        for _ in range(2):
            roll(state, RED)
            state.apply_action(where(ORANGE))
        assert state.is_terminal() and state.turn == 2
        assert state.winners() == [] and state.returns().tolist() == [-1.0]
    won = start(num_players=1)
    give(won, 0, 1, 2, 3, 4, 5)
    roll(won, RED)
    assert won.legal_actions_mask()[PASS] == 0  # lacks red: must search
    won.apply_action(where(RED))
    assert won.winners() == [0] and won.returns().tolist() == [1.0]


def test_solitaire_is_twelve_turns_under_the_competition_rule():
    with pytest.raises(ConfigError, match="num_players=1"):
        StarMasterGame(solitaire=True, num_players=2)
    state = start(num_players=1, solitaire=True)
    give(state, 0, RED)
    roll(state, RED)
    assert not state.legal_actions_mask()[PASS]
    for turn in range(12):
        if turn:
            roll(state, RED)
        state.apply_action(where(ORANGE))
    assert state.is_terminal() and state.turn == 12 and state.winners() == []
    assert state.returns().tolist() == [-1.0]
    won = start(num_players=1, solitaire=True)
    give(won, 0, 1, 2, 3, 4, 5)
    roll(won, RED)
    won.apply_action(where(RED))
    assert won.winners() == [0] and won.returns().tolist() == [1.0]


def test_turn_cap_gives_the_win_to_the_most_colours_or_to_nobody():
    for rule, winners in (("most_colours", [1]), ("nobody", [])):
        state = start(max_turns=2, turn_limit=rule)
        give(state, 1, GREEN)
        roll(state, RED)
        state.apply_action(where(ORANGE))
        roll(state, RED)
        state.apply_action(where(ORANGE))
        assert state.is_terminal() and state.winners() == winners


def test_perfect_memory_tracks_flips_and_swaps():
    state = start(memory="perfect")
    assert state.memory[1].tolist() == LAYOUT
    roll(state, RED)
    state.apply_action(where(RED))
    state.apply_action(SWAP0 + 8)
    assert state.memory[1].tolist() == state.layout.tolist()


def test_decay_forgets_at_the_start_of_each_turn_exactly_as_the_seeded_hash_says():
    """Each turn's roll forgets, for every seat and remembered slot, what
    ``memory.forget_mask(seed, turn)`` says and nothing else; between rolls nothing is
    forgotten; a flip is remembered again by every seat at once; a swap moves memories."""
    p = 0.3
    state = start(num_players=2, memory="decay", forget_prob=p, seed=3)
    assert state.memory.tolist() == [LAYOUT, LAYOUT]
    forgotten_any = False
    for turn in range(1, 9):
        before = state.memory.copy()
        roll(state, RED)
        mask = decay.forget_mask(3, turn, 2, p)
        assert state.memory.tolist() == np.where(mask, -1, before).tolist()
        forgotten_any |= bool(((before >= 0) & mask).any())
        after_roll = state.memory.copy()
        slot = where(ORANGE, state.layout.tolist())
        mover = state.current_player()
        state.apply_action(slot)  # a miss: everyone sees orange there again
        assert (state.memory[:, slot] == ORANGE).all()
        other = np.arange(9) != slot
        assert (state.memory[:, other] == after_roll[:, other]).all()  # nothing else changes
        assert state.roller == 1 - mover
    assert forgotten_any
    # the same seed forgets the same way, another seed another way
    assert not np.array_equal(decay.forget_mask(3, 1, 2, p), decay.forget_mask(4, 1, 2, p))
    assert not decay.forget_mask(3, 1, 2, 0.0).any() and decay.forget_mask(3, 1, 2, 1.0).all()
    # a found cube's memory follows it through the swap
    found = start(num_players=2, memory="decay", forget_prob=0.0)
    roll(found, RED)
    found.apply_action(where(RED))
    found.apply_action(SWAP0 + 8)
    assert (found.memory == found.layout[None, :]).all()


def test_decay_forgets_each_remembered_slot_at_the_documented_rate():
    """Seeded: over 300 forgetting seeds x 2 seats x 9 slots, the share of the set-up
    memory forgotten at the first roll is forget_prob (wide tolerance), and forgetting is
    independent between seats."""
    for p in (0.1, 0.5):
        game = StarMasterGame(num_players=2, memory="decay", forget_prob=p)
        lost = []
        for seed in range(300):
            state = game.new_initial_state()
            for colour in LAYOUT:
                state.apply_action(colour)
            state.apply_action(seed)
            roll(state, RED)
            lost.append(state.memory == -1)
        share = np.mean(lost)
        assert abs(share - p) < 0.03, (p, share)
        both = np.mean([m[0] & m[1] for m in lost])
        assert abs(both - p * p) < 0.03


def test_decay_memory_is_reproducible_from_the_env_seed():
    import moon_envs

    def memories(seed):
        env = moon_envs.make("star_master_v0", memory="decay", forget_prob=0.3)
        env.reset(seed=seed)
        out = []
        for _ in range(30):
            state = env.game_state
            out.append(state.memory.copy())
            env.step(int(np.flatnonzero(state.legal_actions_mask())[0]))
        return np.array(out)

    assert np.array_equal(memories(5), memories(5))
    assert not np.array_equal(memories(5), memories(6))


def test_dice_faces_are_parameters():
    g = StarMasterGame(white_faces=[0, 0, 9], black_faces=(1, 0))
    assert dict(g.dice_outcomes) == pytest.approx({0: 1 / 3, 1: 1 / 3, 18: 1 / 6, 19: 1 / 6})
    with pytest.raises(ConfigError, match="allowed faces"):
        StarMasterGame(white_faces=(0, 10))
    with pytest.raises(ConfigError, match="allowed faces"):
        StarMasterGame(black_faces=(2,))


def test_bad_parameters_are_named():
    with pytest.raises(ConfigError, match="num_players"):
        StarMasterGame(num_players=7)
    with pytest.raises(ConfigError, match="allowed values"):
        StarMasterGame(memory="total")
    with pytest.raises(ConfigError, match="forget_prob"):
        StarMasterGame(forget_prob=1.5)
    with pytest.raises(ConfigError, match="race_winner"):
        StarMasterGame(race_winner="fastest")


def test_illegal_actions_raise_and_change_nothing():
    state = start()
    roll(state, RED)
    before = state.to_dict()
    for bad in (PASS, SWAP0, NAME0, 28, -1):
        with pytest.raises(IllegalActionError):
            state.apply_action(bad)
    assert state.to_dict() == before


def test_at_the_turn_cap_the_most_colours_share_the_win_but_zero_colours_win_nothing():
    """[HOUSE] turn_limit="most_colours": the leaders share the win if they hold at least
    one colour; when nobody holds one, nobody wins (docs/rules.md, Turn cap)."""

    def capped(*gifts: tuple[int, int]):
        state = start(num_players=3, max_turns=3)
        for seat, colour in gifts:
            give(state, seat, colour)
        while not state.is_terminal():
            roll(state, RED)
            state.apply_action(where(ORANGE))  # a wrong search ends each turn
        assert state.turn == 3
        return state

    nobody = capped()
    assert nobody.winners() == [] and nobody.returns().tolist() == [0.0, 0.0, 0.0]
    assert nobody.result_text() == "game over, tied: no winner"
    shared = capped((0, GREEN), (2, CYAN))
    assert shared.winners() == [0, 2] and shared.returns().tolist() == [0.5, -1.0, 0.5]
