"""``burrito-table play`` with the phone companion: on by default (here on 127.0.0.1 and a free port), off with
``--no-web``, one clear line for bad options or a taken port (the table then plays on without it); the lobby's
QR codes carry each panel's join link, module for module."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pygame
import segno

from game.journal import Journal
from game.table.clock import SteppedClock
from game.table.loop import TableApp
from game.table.screens import draw
from game.table.sim import open_sim
from game.web.qr import draw_lobby_codes, join_url, qr_surface
from game.web.tokens import TokenBook

ROOT = Path(__file__).resolve().parents[1]
ENV = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PYTHONUNBUFFERED="1")


def play(tmp: Path, *extra: str, frames: int = 30) -> list[str]:
    return [sys.executable, "-m", "game", "play", "--sim", "--headless", "--mute", "--journal", str(tmp / "j.db"),
            "--max-frames", str(frames), *extra]


def test_play_serves_the_companion_and_prints_how_to_join(tmp_path: Path) -> None:
    """The pages answer while the table runs; the PIN given is the one printed; the lobby is public."""
    proc = subprocess.Popen(play(tmp_path, "--web-host", "127.0.0.1", "--web-port", "0", "--web-pin", "2468",
                                 frames=900), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
                            env=ENV)
    try:
        assert proc.stdout is not None
        line = ""
        deadline = time.monotonic() + 30
        while "Phones:" not in line and time.monotonic() < deadline:
            line = proc.stdout.readline()
        m = re.search(r"watch at (http://127\.0\.0\.1:\d+)/watch; .*\(PIN 2468\)", line)
        assert m, line
        base = m.group(1)
        with urllib.request.urlopen(f"{base}/watch", timeout=5) as r:
            assert r.status == 200 and b"/static/spectator.js" in r.read()
        with urllib.request.urlopen(f"{base}/static/spectator.js", timeout=5) as r:
            assert b"/ws/watch" in r.read()  # the package's static files are served
        public = {}
        for _ in range(50):
            with urllib.request.urlopen(f"{base}/api/public", timeout=5) as r:
                public = json.loads(r.read())
            if public.get("screen") == "lobby":
                break
            time.sleep(0.1)
        assert public["screen"] == "lobby" and public["panels"] >= 2
    finally:
        proc.kill()
        proc.wait(timeout=10)


def test_no_web_serves_nothing_and_bad_options_are_one_line(tmp_path: Path) -> None:
    done = subprocess.run(play(tmp_path, "--no-web"), capture_output=True, text=True, cwd=ROOT, env=ENV, timeout=60)
    assert done.returncode == 0 and "Phones:" not in done.stdout
    bad = subprocess.run(play(tmp_path, "--web-pin", "12ab", "--web-host", "127.0.0.1"), capture_output=True,
                         text=True, cwd=ROOT, env=ENV, timeout=60)
    assert bad.returncode == 2 and bad.stderr.strip().count("\n") == 0
    assert "--web-pin: the operator PIN must be 4-12 digits" in bad.stderr and "Traceback" not in bad.stderr


def test_a_taken_port_turns_the_companion_off_and_the_table_plays_on(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(play(tmp_path, "--web-host", "127.0.0.1", "--web-port", str(port)),
                              capture_output=True, text=True, cwd=ROOT, env=ENV, timeout=60)
    assert done.returncode == 0, done.stderr[-800:]
    assert done.stderr == f"burrito-table: phone companion off: --web-port {port}: the port is in use on 127.0.0.1 " \
        "(another program, or another table, listens on it)\n"  # one line: none of uvicorn's own


def test_a_qr_code_is_the_join_link_module_for_module() -> None:
    """The pixels drawn are segno's matrix for the link, in black on white, with the quiet zone."""
    url = "http://192.0.2.7:8080/join/abcDEF123_-x"
    surf = qr_surface(url, 200)
    rows = [list(r) for r in segno.make(url, error="m").matrix]
    n = len(rows) + 8
    scale = surf.get_width() // n
    for y, row in enumerate(rows):
        for x, dark in enumerate(row):
            px = surf.get_at(((x + 4) * scale + scale // 2, (y + 4) * scale + scale // 2))
            assert (px.r, px.g, px.b) == ((0, 0, 0) if dark else (255, 255, 255)), (x, y)


def test_lobby_codes_sit_apart_on_screen_for_every_table_size() -> None:
    """2 to 12 panels, on a TV (1920x1080, 1280x720) and a Pi's small screens (1024x600, 800x480): one code per
    panel, it and its label all on screen and off every card (its own too: a code over a card hid its "press to
    join"), the middle where the game and its variants are read, and every other code and label. On a TV the codes
    keep at least two pixels a module, so a phone reads them from a seat."""
    from game.table.present import SeatView, View
    from game.table.screens import Painter, table_layout
    from game.web.qr import MIN_SCALE, _modules

    pygame.init()
    url = join_url("http://192.0.2.7:8080", TokenBook(1).join_code(1))
    for n in (2, 3, 4, 5, 6, 8, 12):
        for size in ((1920, 1080), (1280, 720), (1024, 600), (800, 480)):
            view = View("lobby", [SeatView(seat=0, panel=p, role="empty") for p in range(1, n + 1)],
                        title="Taco vs Burrito")
            surface = pygame.Surface(size)
            draw(surface, view)
            painter = Painter(surface)
            rects = draw_lobby_codes(surface, view, "http://192.0.2.7:8080", TokenBook(n), painter)
            labels = [d.rect for d in painter.drawn if d.text.startswith("phone")]
            layout = table_layout(Painter(surface), n, top=80, bottom=20)
            assert len(rects) == len(labels) == n, (n, size)
            if size[1] >= 720:
                assert all(r.width >= MIN_SCALE * _modules(url) for r in rects), (n, size)
            for i, (r, label) in enumerate(zip(rects, labels)):
                where = (n, size, i)
                for box in (r, label):
                    assert surface.get_rect().contains(box), where
                    assert box.collidelist(layout.cards) < 0, where
                    assert not box.colliderect(layout.middle), where
                    assert box.collidelist([q for j, q in enumerate(rects + labels) if j not in (i, n + i)]) < 0, where


def test_the_lobby_shows_every_panels_code_and_a_spent_code_changes(tmp_path: Path) -> None:
    """One QR code per panel on the lobby screen, each with that panel's current join code."""
    pygame.init()
    clock = SteppedClock()
    rig = open_sim(clock, devices=False)
    try:
        with Journal(str(tmp_path / "j.db")) as journal:
            app = TableApp(panels=rig.panels, journal=journal, clock=clock, seatmap=[1, 2, 3, 4], use_referee=False)
            app.open_lobby()
            view = app.view(clock())
            book = TokenBook(4)
            surface = pygame.Surface((1280, 720))
            draw(surface, view)
            before = pygame.image.tobytes(surface, "RGB")
            draw_lobby_codes(surface, view, "http://192.0.2.7:8080", book)
            assert pygame.image.tobytes(surface, "RGB") != before
            shown = {p: join_url("http://192.0.2.7:8080", book.join_code(p)) for p in (1, 2, 3, 4)}
            assert len(set(shown.values())) == 4
            book.join(book.join_code(2))
            assert join_url("http://192.0.2.7:8080", book.join_code(2)) != shown[2]
            if os.environ.get("BURRITO_SAVE_SCREENS"):
                big = pygame.Surface((1920, 1080))
                draw(big, view)
                draw_lobby_codes(big, view, "http://192.168.1.20:8080", book)
                pygame.image.save(big, str(ROOT / "docs" / "screens" / "lobby_qr.png"))
    finally:
        rig.close()
