from __future__ import annotations

import numpy as np
import pytest

import moon_envs
from moon_envs.core import draw
from tests.human.helpers import legal


def test_label_draws_every_letter_digit_and_sign_distinctly() -> None:
    glyphs = {}
    for ch in "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789()_,><=!?*#'[]+-:/.":
        img = draw.canvas(12, 10, (0, 0, 0))
        draw.label(img, 1, 1, ch, (255, 255, 255), 2)
        assert img.any(), ch
        glyphs[ch] = img.tobytes()
    assert len(set(glyphs.values())) == len(glyphs)
    lower, upper = draw.canvas(12, 40), draw.canvas(12, 40)
    draw.label(lower, 1, 1, "abc")
    draw.label(upper, 1, 1, "ABC")
    assert np.array_equal(lower, upper)
    cut = draw.canvas(12, 200, (0, 0, 0))
    draw.label(cut, 0, 0, "X" * 100, (255, 255, 255), 2, max_width=60)
    assert not cut[:, 61:].any() and cut[:, :60].any()
    assert draw.label_width("ABC", 2) == 22


@pytest.mark.parametrize(
    ("env_id", "params"),
    [("jupiter_v0", {}), ("moonstar_v1", {"num_players": 3}), ("moon_harvesters_v0", {})],
)
def test_frames_show_turn_scores_and_last_move(env_id: str, params: dict) -> None:
    env = moon_envs.make(env_id, render_mode="rgb_array", **params)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    frames = [env.render()]
    for _ in range(12):
        acts = legal(env.game_state)
        env.step(int(acts[rng.integers(len(acts))]))
        frames.append(env.render())
    h = frames[0].shape[0]
    bottom = [f[h - 24 :] for f in frames]  # the last-move line
    assert all(b.any() for b in bottom)
    assert len({b.tobytes() for b in bottom}) > 3  # it follows the moves
    # every seat's label is drawn in its colour
    for seat in range(env.game.spec.num_players):
        color = np.array(draw.PLAYER_COLORS[seat], dtype=np.uint8)
        assert (frames[-1] == color).all(axis=2).sum() > 20
