from __future__ import annotations

import html
import io
import re
import shutil
import subprocess
import zlib
from pathlib import Path

import numpy as np
import pytest

from moon_agents.cli.main import main
from moon_agents.play.replay.gif import captioned
from moon_agents.play.replay.html import FONT_PX, svg_lines
from moon_agents.play.replay.png import encode_png
from moon_envs.core import draw
from tests.human.helpers import SMALL, drawn


def _decode_png(data: bytes) -> np.ndarray:
    """Decode the PNGs encode_png writes (8-bit RGB, filter 0), to check round trips."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    w, h = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    pos, idat = 8, b""
    while pos < len(data):
        length = int.from_bytes(data[pos : pos + 4], "big")
        kind = data[pos + 4 : pos + 8]
        if kind == b"IDAT":
            idat += data[pos + 8 : pos + 8 + length]
        pos += 12 + length
    rows = np.frombuffer(zlib.decompress(idat), dtype=np.uint8).reshape(h, 1 + 3 * w)
    assert not rows[:, 0].any()
    return rows[:, 1:].reshape(h, w, 3)


def test_png_round_trip() -> None:
    img = np.random.default_rng(0).integers(0, 256, (7, 5, 3), dtype=np.uint8)
    assert np.array_equal(_decode_png(encode_png(img)), img)
    with pytest.raises(ValueError, match="H x W x 3"):
        encode_png(np.zeros((4, 4)))


def _play(tmp_path: Path, env_id: str, *extra: str) -> tuple[str, Path, Path]:
    gif, page = tmp_path / "game.gif", tmp_path / "replay.html"
    out = io.StringIO()
    argv = ["play", env_id, "--seed", "0", "--render", "none", "--gif", str(gif)]
    code = main([*argv, "--html", str(page), *extra], stdout=out)
    assert code == 0
    return out.getvalue(), gif, page


def _small(env_id: str) -> list[str]:
    """``--param`` options that keep a game of ``env_id`` short."""
    return [x for k, v in SMALL[env_id].items() for x in ("--param", f"{k}={v}")]


@pytest.mark.parametrize("env_id", list(SMALL))
def test_play_writes_gif_and_html_replay(tmp_path: Path, env_id: str) -> None:
    pytest.importorskip("PIL", reason="GIFs need Pillow (the render extra)")
    out, gif, page = _play(tmp_path, env_id, *_small(env_id))
    moves = [ln for ln in out.splitlines() if re.match(r"player_\d \(", ln)]
    assert moves and f"wrote {gif}" in out and f"wrote {page}" in out
    from PIL import Image

    with Image.open(gif) as im:
        assert im.n_frames == len(moves) + 1  # the start and one frame per move
    text = page.read_text()
    assert text.count('<div class="step"') == len(moves) + 1
    assert text.count('role="img"') == len(moves) + 1  # one SVG per step
    # each holds the board as vector shapes and text, no raster picture
    assert text.count('class="board"') == len(moves) + 1 and "data:image/png" not in text
    assert 'type="range"' in text and f'max="{len(moves)}"' in text
    assert "http://" not in text.replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert "https://" not in text and "<link" not in text and "src=" not in text
    if env_id == "jupiter_v0":  # the set-up's chance events open the replay
        assert re.search(r"<li>start: player_\d goes first \(drawn at random\)</li>", text)
    for line in moves[:5]:  # the move list holds every move as it was announced
        assert f"<li>{html.escape(line.split(':', 1)[0])}" in text
    # every SVG caption holds its whole move, over lines that fit the SVG's width
    for i, svg in enumerate(text.split('<div class="step"')[1:]):
        width = int(re.search(r'width="(\d+)"', svg).group(1))
        lines = re.findall(r'<text [^>]*font-size="14">(.*?)</text>', svg)
        assert all(len(x) * FONT_PX <= width - 6 for x in lines), lines
        caption = "start" if i == 0 else moves[i - 1]
        assert html.unescape(" ".join(lines)).startswith(f"{i}. {caption}"[:60])


def test_long_moves_wrap_in_gif_captions_and_svg_text() -> None:
    move = "player_2 (random): moon 0 on star 4, die 6 (face 5), counterclockwise -> star 11: +1"
    frame = np.zeros((50, 400, 3), dtype=np.uint8)
    out = captioned(frame, move)
    assert out.shape[0] - 50 >= 2 * 16  # two caption lines above the frame
    assert drawn(out, "STAR 11: +1", draw.INK)  # the landing star and the score are kept
    lines = svg_lines(f"20. {move}", 400)
    assert len(lines) == 2 and " ".join(lines) == f"20. {move}"


def test_replays_go_into_folders_made_for_them(tmp_path: Path) -> None:
    """``--gif out/game.gif --html out/replay.html`` works when ``out/`` does not exist yet."""
    pytest.importorskip("PIL", reason="GIFs need Pillow (the render extra)")
    folder = tmp_path / "not" / "yet"
    gif, page = folder / "game.gif", folder / "replay.html"
    argv = ["play", "jupiter_v0", "--seed", "0", "--render", "none"]
    assert main([*argv, "--gif", str(gif), "--html", str(page)], stdout=io.StringIO()) == 0
    assert gif.is_file() and page.is_file()


def test_gif_without_pillow_says_what_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "PIL", None)
    argv = ["play", "jupiter_v0", "--render", "none", "--gif", str(tmp_path / "g.gif")]
    assert main(argv, stdout=io.StringIO()) == 2
    assert 'writing a GIF needs Pillow: pip install "moon-envs[render]"' in capsys.readouterr().err
    assert not (tmp_path / "g.gif").exists()
    # the HTML replay needs no imaging library
    page = tmp_path / "r.html"
    argv = ["play", "jupiter_v0", "--render", "none", "--html", str(page)]
    assert main(argv, stdout=io.StringIO()) == 0 and page.is_file()


def _chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


@pytest.mark.skipif(
    _chromium() is None,
    reason="no headless Chromium on PATH (Debian/Ubuntu: apt-get install -y chromium)",
)
@pytest.mark.parametrize(
    ("env_id", "params"),
    [("jupiter_v0", []), ("star_master_v0", ["--param", "max_turns=60"])],  # hidden information
)
def test_html_replay_renders_and_steps_in_a_headless_browser(
    tmp_path: Path, env_id: str, params: list[str]
) -> None:
    _, _, page = _play(tmp_path, env_id, *params)
    steps = page.read_text().count('<div class="step"')
    assert steps > 12

    def dom(fragment: str) -> str:
        cmd = [_chromium(), "--headless", "--no-sandbox", "--disable-gpu",
               "--window-size=1200,900", "--dump-dom", f"{page.as_uri()}{fragment}"]  # fmt: skip
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=90)
        assert done.returncode == 0, done.stderr[-2000:]
        return done.stdout

    first = dom("")
    assert re.search(r'<body[^>]*data-step="0"', first)
    assert re.search(r'<body[^>]*data-rendered="yes"', first)  # the SVG board has a size
    assert re.search(r'id="counter">step 0 / ' + str(steps - 1), first)
    assert re.search(r'<body[^>]*data-list-beside="yes"', first)  # the list beside, at 1200 px
    # "#step=3&next": the page opens at step 3, then its next button steps to 4
    moved = dom("#step=3&next")
    assert re.search(r'<body[^>]*data-step="4"', moved)
    assert re.search(r'id="step-4"(?! hidden)[^>]*>', moved)
    assert re.search(r'id="step-3" hidden', moved)
    assert re.search(r'<li class="current">', moved)
    # "#step=4&prev": back to 3
    back = dom("#step=4&prev")
    assert re.search(r'<body[^>]*data-step="3"', back)
    assert re.search(r'id="step-3"(?! hidden)[^>]*>', back)
    assert re.search(r'id="step-4" hidden', back)
    # a late step: its move is scrolled into view in the move list
    late = dom(f"#step={steps - 2}")
    assert re.search(rf'<body[^>]*data-step="{steps - 2}"', late)
    assert re.search(r'<body[^>]*data-current-visible="yes"', late)


@pytest.mark.parametrize("env_id", list(SMALL))
def test_every_picture_has_an_svg_twin(env_id: str) -> None:
    """picture_and_svg: the same pixels as a plain render, and a well-formed SVG whose
    shapes cover the picture and whose texts are the picture's labels."""
    import xml.etree.ElementTree as ET

    import moon_envs
    from moon_envs.core.svg_record import picture_and_svg
    from tests.helpers import random_legal

    env = moon_envs.make(env_id, render_mode="rgb_array")
    env.reset(seed=2)
    rng = np.random.default_rng(3)
    for _ in range(15):
        env.step(random_legal(env.observe(env.agent_selection)["action_mask"], rng))
    renderer = type(env).rgb_renderer
    picture, svg = picture_and_svg(renderer, env.game_state)
    assert np.array_equal(picture, renderer(env.game_state))
    root = ET.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    h, w = picture.shape[:2]
    assert (root.get("width"), root.get("height")) == (str(w), str(h))
    first = root.find(f"{ns}rect")
    assert (first.get("width"), first.get("height")) == (str(w), str(h))  # the background
    texts = [t.text for t in root.iter(f"{ns}text")]
    assert any("TO MOVE" in (t or "") for t in texts)  # the status line, as text
    assert len(list(root.iter(f"{ns}rect"))) > 10


def test_gif_frame_time_is_sized_to_the_game_or_given(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """700 ms a frame for a short game, less for a long one (down to 150 ms); ``--gif-ms``
    sets it; a bad value or ``--gif-ms`` without ``--gif`` is refused before the game."""
    pytest.importorskip("PIL", reason="GIFs need Pillow (the render extra)")
    from PIL import Image

    from moon_agents.play.replay.gif import frame_ms

    assert frame_ms(20) == 700 and frame_ms(100) == 450 and frame_ms(406) == 150
    assert frame_ms(406, 90) == 90
    for bad in (5, 20_000, 1.5, True):
        with pytest.raises(ValueError, match="gif frame time"):
            frame_ms(10, bad)
    _, gif, _ = _play(tmp_path, "jupiter_v0", "--gif-ms", "120")
    with Image.open(gif) as im:
        durations = []
        for i in range(im.n_frames):
            im.seek(i)
            durations.append(im.info["duration"])
    assert durations[:-1] == [120] * (len(durations) - 1) and durations[-1] == 480
    for extra, message in (
        (["--gif", str(tmp_path / "x.gif"), "--gif-ms", "5"], "allowed: 20..10000"),
        (["--gif-ms", "100"], "--gif-ms sets the frame time of --gif PATH"),
    ):
        capsys.readouterr()
        code = main(["play", "jupiter_v0", "--render", "none", *extra], stdout=io.StringIO())
        err = capsys.readouterr().err
        assert code == 2 and message in err, err
    assert not (tmp_path / "x.gif").exists()
