from __future__ import annotations

import re

from moon_agents.play.human import hooks_for, narrate, narrate_chance, parse_move
from moon_agents.play.human.hooks import GENERIC
from moon_agents.play.human.moon_harvesters import covered_cells, move_name, orientation_pictures
from moon_agents.play.human.moonstar import round_report_lines
from moon_agents.play.human.moonstar_moves import menu_entry_name
from tests.human.helpers import legal, play_until

MOVE = re.compile(
    r"^moon (\d+) on star (\d+), die (\d+) \(face ([1-6])\), (counter)?clockwise -> "
    r"star (\d+): \+(\d+)$"
)


def _in_play(state) -> bool:
    return state.phase == "play" and state.current_player() >= 0


def test_moonstar_move_says_where_the_moon_lands_and_what_it_scores() -> None:
    state = play_until("moonstar_v1", _in_play, seed=3, num_players=3)
    for action in legal(state):
        after = state.clone()
        after.apply_action(action)
        line = narrate(state, action, after, None)[0]
        m = MOVE.match(line)
        assert m, line
        moon, start, die, face = (int(m.group(i)) for i in (1, 2, 3, 4))
        assert int(state.moon_star[moon]) == start and int(state.dice[die]) == face
        if after.phase == "play":  # the round goes on: the landing star and gain are live
            assert int(after.moon_star[moon]) == int(m.group(6))
            assert int(m.group(7)) == after.round_total - state.round_total


def test_game_9_moves_land_where_the_rules_move_them() -> None:
    """Under ``double_double`` the fourth direction is twice the die counter-clockwise."""
    state = play_until("moonstar_v1", _in_play, seed=3, num_players=3, movement="double_double")
    for action in legal(state):
        after = state.clone()
        after.apply_action(action)
        line = narrate(state, action, after, None)[0]
        m = re.match(r"moon (\d+) on star \d+, die \d+ \(face \d\), ([a-z, ]+) -> star (\d+)", line)
        assert m, line
        assert int(after.moon_star[int(m.group(1))]) == int(m.group(3)), line
        if state.game.decode_move(action)[2] == 3:
            assert m.group(2) == "counterclockwise, twice the die"


def test_moonstar_announces_the_end_of_every_round() -> None:
    state = play_until("moonstar_v1", _in_play, seed=5, num_players=3)
    while True:
        action = legal(state)[0]
        after = state.clone()
        after.apply_action(action)
        lines = narrate(state, action, after, 1)
        report = after.info().get("round_report")
        if report and report != state.info().get("round_report"):
            break
        assert len(lines) == 1
        state = after
    text = "\n".join(lines)
    made = "MADE" if report["made"] else "FAILED"
    assert f"bid {report['bid']}, scored {report['achieved']}: {made}" in text
    changes = ", ".join(f"player_{s} {c:+d}" for s, c in enumerate(report["score_changes"]))
    assert f"points: {changes}" in text
    assert ("excluded from the next auction" in text) == (not report["made"])
    # the last move's gain counts toward the achieved total
    gained = int(MOVE.match(lines[0]).group(7))
    assert state.round_total + gained == report["achieved"]


def test_round_report_names_side_bets_challenges_and_no_bid_rounds() -> None:
    report = {
        "round": 4, "organizer": 0, "no_bid": False, "bidder": 2, "bid": 40, "achieved": 30,
        "made": False, "best_total": 50, "challengers": [1], "side_bets": [0, -5, 12],
        "score_changes": [10, 5, 2],
    }  # fmt: skip
    text = "\n".join(round_report_lines(report, 3))
    assert "player_2 bid 40, scored 30: FAILED" in text and "best possible total was 50" in text
    assert "challenged by player_1" in text
    assert "side bets settled: player_1 -5, player_2 +12" in text
    assert "player_2 is excluded" in text
    no_bid = {"round": 2, "organizer": 1, "no_bid": True, "score_changes": [0, 5, 0]}
    assert "nobody bid; player_1 (organizer) +5" in round_report_lines(no_bid, 3)[0]


def test_sealed_side_bets_stay_sealed_in_narration() -> None:
    state = play_until("moonstar_v1", lambda s: s.phase == "bets", seed=2, game=11, num_players=3)
    bettor = state.current_player()
    bet = next(a for a in legal(state) if "side bet" in state.action_to_string(a))
    after = state.clone()
    after.apply_action(bet)
    other = (bettor + 1) % 3
    assert narrate(state, bet, after, other) == ["a sealed side bet"]
    assert " on " in narrate(state, bet, after, bettor)[0]
    assert " on " in narrate(state, bet, after, None)[0]  # a spectator sees everything


def test_game_12_menu_entries_name_their_games() -> None:
    state = play_until("moonstar_v1", lambda s: s.phase == "menu", seed=1, game=12)
    names = {a: hooks_for("moonstar").move_name(state, a) for a in legal(state)}
    assert all(re.fullmatch(r"rules: menu entry \d+ = Game \d+", n) for n in names.values())
    first = min(names)
    assert menu_entry_name(state, 0) == names[first]
    after = state.clone()
    after.apply_action(first)
    assert narrate(state, first, after, None)[0] == names[first]


def test_games_without_hooks_fall_back_to_action_names() -> None:
    assert hooks_for("no_such_game") is GENERIC
    state = play_until("jupiter_v0", lambda s: s.current_player() >= 0)
    a = legal(state)[0]
    after = state.clone()
    after.apply_action(a)
    assert GENERIC.narrate(state, a, after, 0) == [state.action_to_public_string(a, 0)]
    assert parse_move(state.action_to_string(a).split()[-1], {a: state.action_to_string(a)}) == a


def test_harvesters_placement_by_kind_orientation_anchor_or_cells() -> None:
    state = play_until("moon_harvesters_v0", lambda s: s.phase == "place", seed=4)
    seat = state.current_player()
    hooks = hooks_for("moon_harvesters")
    acts = legal(state)
    names = {a: hooks.move_name(state, a) for a in acts}
    kind = state.game.kinds[int(state.kind_of[seat])]
    for a in acts[:: max(1, len(acts) // 7)]:
        m = re.fullmatch(r"harvester (\w+) orientation (\d) at (\w+) covering (.+)", names[a])
        assert m and m.group(1) == kind.name
        assert (
            parse_move(hooks.aliases(state, f"{kind.name} {m.group(2)} {m.group(3)}"), names) == a
        )
        cells = covered_cells(state, a)
        assert len(cells) == kind.size and cells == m.group(4).split()
        typed = " ".join(reversed(cells)).lower()  # any order, any case
        assert parse_move(hooks.aliases(state, typed), names) == a
        after = state.clone()
        after.apply_action(a)
        gain = int(after.collected[seat] - state.collected[seat])
        unit = "deposit" if gain == 1 else "deposits"
        assert narrate(state, a, after, None) == [f"{move_name(state, a)}: collects {gain} {unit}"]
        cell_names = [state.game.cell_name(i) for i in range(state.game.num_cells)]
        assert gain == sum(bool(state.deposit[cell_names.index(c)]) for c in cells)
    pictures = orientation_pictures(state, seat)
    assert f"your harvester {kind.name}" in pictures
    head = pictures.splitlines()[1].split()
    assert head == [str(i) for i in range(len(kind.orientations))]
    drawn = "\n".join(pictures.splitlines()[2:])
    assert drawn.count("#") + drawn.count("+") == kind.size * len(kind.orientations)


def test_harvesters_placements_that_cannot_be_made_say_why() -> None:
    import pytest

    from moon_agents.play.human import MoveError

    state = play_until("moon_harvesters_v0", lambda s: s.phase == "place", seed=4)
    hooks = hooks_for("moon_harvesters")
    kind = state.game.kinds[int(state.kind_of[state.current_player()])]
    other = next(k.name for k in state.game.kinds if k.name != kind.name)
    count = len(kind.orientations)
    cases = {
        f"{other} 0 A1": f"your harvester is {kind.name}, not {other}",
        f"{kind.name} {count} A1": rf"has orientations 0\.\.{count - 1}",
        "0 Z99": "no cell Z99 on this board",
    }
    for typed, reason in cases.items():
        with pytest.raises(MoveError, match=reason):
            hooks.aliases(state, typed)
    g = state.game
    blocked = next(
        (s, c) for s in range(count) for c in range(g.num_cells)
        if not state.legal_actions_mask()[g.place_base + s * g.num_cells + c]
    )  # fmt: skip
    with pytest.raises(MoveError, match="does not fit here") as err:
        hooks.aliases(state, f"{blocked[0]} {g.cell_name(blocked[1])}")
    assert err.value.heading == "placements that fit" and err.value.suggestions


def test_harvesters_deposits_by_cell_name() -> None:
    state = play_until("moon_harvesters_v0", lambda s: s.phase == "deposits", seed=4)
    hooks = hooks_for("moon_harvesters")
    names = {a: hooks.move_name(state, a) for a in legal(state)}
    a = max(names)
    cell = names[a].split()[-1]
    assert parse_move(hooks.aliases(state, cell.lower()), names) == a


def test_moonstar_names_each_roll_by_its_faces() -> None:
    import numpy as np

    state = play_until("moonstar_v1", lambda s: s.current_player() >= 0, seed=6, num_players=3)
    rng = np.random.default_rng(6)
    rolls = 0
    for _ in range(400):
        if state.is_terminal():
            break
        before = state.clone()
        if state.current_player() == -1:
            outcomes = state.chance_outcomes()
            state.apply_action(int(outcomes[rng.integers(len(outcomes))][0]))
        else:
            acts = legal(state)
            state.apply_action(acts[rng.integers(len(acts))])
        lines = narrate_chance(before, state, 0)
        faces = [int(f) for f in state.dice if f]
        if faces != [int(f) for f in before.dice if f] and faces:
            assert lines == ["dice rolled: " + " ".join(map(str, faces))]
            rolls += 1
        else:
            assert lines == []
    assert rolls >= 2
    assert narrate_chance(state, state, None) == []
    jupiter = play_until("jupiter_v0", lambda s: True)
    assert GENERIC.narrate_chance(jupiter, jupiter, None) == []  # without the hook: nothing


def test_moonstar_tells_who_organizes_the_first_round() -> None:
    import moon_envs

    env = moon_envs.make("moonstar_v1", num_players=3)
    env.reset(seed=4)
    first = env.game.new_initial_state()
    lines = narrate_chance(first, env.game_state, None)
    organizer = int(env.game_state.organizer)
    assert lines == [f"player_{organizer} organizes the first round (drawn by a roll)"]
