"""Moonwakers for people: pictures, narration that keeps sealed choices sealed, and a
whole game played by a person through ``moon-envs play --human`` with piped input."""

from __future__ import annotations

import io

import numpy as np

import moon_envs
from moon_agents.cli.main import main
from moon_agents.play.human.hooks import hooks_for
from moon_envs.core import draw
from moon_envs.moonwakers.render import render_rgb
from moon_envs.moonwakers.text import explored, face
from tests.moonwakers.positions import A, blank, give, lay, of_kind, run


class FirstLegalInput(io.StringIO):
    """A terminal that types 'help', then answers each prompt with the next number of
    0, 1, 2, ... (wrapping at ``size``); illegal numbers are refused and asked again."""

    def __init__(self, size: int) -> None:
        super().__init__()
        self.size, self.i, self.lines = size, 0, 0

    def readline(self, *args) -> str:  # type: ignore[override]
        self.lines += 1
        if self.lines == 1:
            return "help\n"
        self.i += 1
        return f"{self.i % self.size}\n"


def test_a_person_plays_a_whole_game_seeing_only_their_seat():
    out = io.StringIO()
    argv = ["play", "moonwakers_v1", "--human", "0", "--seed", "1", "--param", "max_rounds=3"]
    code = main(argv, stdin=FirstLegalInput(400), stdout=out)
    text = out.getvalue()
    assert code == 0 and "final scores:" in text and "winner(s):" in text
    assert "Moonwakers SEED. Goal: the most COMBINATION points" in text  # the help
    assert "player_0 (human): " in text and "Your move (player_0)." in text
    assert "player_1 (random): player_1 chooses an option (sealed)" in text
    assert "options: player_0" in text and "claims: player_0" in text
    assert "the free card" in text and "rolls the d12" in text
    env = moon_envs.make("moonwakers_v1", max_rounds=3)
    env.reset(seed=1)
    s = env.game_state
    mine, theirs = s.hand[0][0], s.hand[1][0]
    assert f"{face(s, mine)}/{explored(s, mine, None)}" in text  # my own set-up card
    assert f"{face(s, theirs)}/??" in text
    assert f"{face(s, theirs)}/{explored(s, theirs, None)}" not in text.split("final scores")[0]


def test_narration_keeps_sealed_choices_sealed_until_revealed():
    hooks = hooks_for("moonwakers")
    s = blank(2)
    s.option, s.options_public = [-1, -1], False
    run(s, ("option", {"seat": 0}), ("option", {"seat": 1}), ("options_reveal", {}))
    after = s.clone()
    after.apply_action(A.OPT_SCAN)
    assert hooks.narrate(s, A.OPT_SCAN, after, 1) == ["player_0 chooses an option (sealed)"]
    assert hooks.narrate(s, A.OPT_SCAN, after, 0) == ["option SCAN"]
    last = after.clone()
    last.apply_action(A.OPT_PROTECTION)
    lines = hooks.narrate(after, A.OPT_PROTECTION, last, 0)
    assert lines[-1] == "  options: player_0 SCAN, player_1 PROTECTION"


def test_chance_narration_names_draws_rolls_and_only_the_readers_own_card():
    hooks = hooks_for("moonwakers")
    s = blank(2)
    after = s.clone()
    give(after, 0, of_kind(after, "elements")[0], public=False)
    give(after, 1, of_kind(after, "elements")[1], public=False)
    lay(after, 0, of_kind(after, "shelter")[0])
    after.note_roll(1, 5, 7)
    lines = hooks.narrate_chance(s, after, 0)
    mine, theirs = after.hand[0][0], after.hand[1][0]
    assert f"player_0 draws {face(after, mine)} / {explored(after, mine, 0)} (set-up card)" in lines
    assert f"player_1 draws {face(after, theirs)} (set-up card, unseen)" in lines
    assert any(line.startswith("table card 0:") and "SHELTER" not in line for line in lines)
    assert "player_1 rolls the d12: 5 +2 = 7" in lines


def test_frames_show_players_turn_phase_last_move_and_a_seats_view():
    env = moon_envs.make("moonwakers_v1", num_players=3, render_mode="rgb_array")
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    frames = [env.render()]
    for _ in range(40):
        legal = np.flatnonzero(env.game_state.legal_actions_mask())
        env.step(int(legal[rng.integers(len(legal))]))
        frames.append(env.render())
    h = frames[0].shape[0]
    bottom = [f[h - 24 :] for f in frames]  # the last-move line
    assert all(b.any() for b in bottom) and len({b.tobytes() for b in bottom}) > 5
    for seat in range(3):  # every seat's label and bar in its colour
        color = np.array(draw.PLAYER_COLORS[seat], dtype=np.uint8)
        assert (frames[-1] == color).all(axis=2).sum() > 20
    s = env.game_state
    assert not np.array_equal(render_rgb(s), render_rgb(s, 1))  # hidden faces differ
    rng = np.random.default_rng(0)
    for _ in range(5):  # what seat 1 has not seen does not change its picture
        twin = s.resample(1, rng)
        assert np.array_equal(render_rgb(s, 1), render_rgb(twin, 1))
