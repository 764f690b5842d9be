"""The leaderboard screen (venue) and the table stats screen (lobby, attract loop), drawn headless with the table's
pygame kit, and the ``venue`` command's stored-board modes."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pygame
import pytest

from game.cli import main
from game.stats import game_record, report
from game.venue.screen import draw_table_stats, draw_venue, save_png
from game.venue.service import VenueStore
from tests.venue_sample import NAMES, sample_games

GOLD = (255, 200, 20)


def filled_store(path: str, games: int = 12) -> VenueStore:
    """A venue store fed the way the service feeds it: ``ended`` records and table status, by topic."""
    store = VenueStore(path)
    for i, (setup, events) in enumerate(sample_games(games, seed=3)):
        table = f"t{i % 4 + 1}"
        rec = game_record(i + 1, setup, events, started=1_700_000_000.0 + i, finished=True).as_dict()
        body = {"v": 1, "kind": "ended", "game": f"{i + 1}-0", "seq": len(events) + 1, "sent": time.time(),
                "record": rec}
        assert store.handle(f"burrito-table/cantina/{table}/game/ended", json.dumps(body).encode()) == "stored"
        store.handle(f"burrito-table/cantina/{table}/status",
                     json.dumps({"v": 1, "state": "playing" if i % 2 else "idle"}).encode())
    store.handle("burrito-table/cantina/t2/device/badge-3/health",
                 json.dumps({"v": 1, "device": "badge-3", "device_kind": "badge", "battery_pct": 12}).encode())
    return store


def gold_rows(surface: pygame.Surface) -> int:
    """Gold pixels inside the board (the leader's line is gold; the board's frame and title are gold too)."""
    w, h = surface.get_size()
    return sum(1 for y in range(int(h * 0.22), int(h * 0.85), 2) for x in range(int(w * 0.06), int(w * 0.6), 2)
               if surface.get_at((x, y))[:3] == GOLD)


def test_leaderboard_screen_ranks_named_players_and_shows_tables(tmp_path: Path) -> None:
    store = filled_store(str(tmp_path / "v.db"))
    rep = store.report()
    board = rep["leaderboard"]
    assert len(board) >= 8 and [p["wins"] for p in board] == sorted((p["wins"] for p in board), reverse=True)
    assert {t["table"] for t in rep["tables"]} == {"cantina/t1", "cantina/t2", "cantina/t3", "cantina/t4"}
    pygame.font.init()
    full, empty = pygame.Surface((1280, 720)), pygame.Surface((1280, 720))
    draw_venue(full, rep)
    draw_venue(empty, dict(rep, leaderboard=[]))
    # the leader's row is gold: more gold rows with players than on an empty board (the title is gold on both)
    assert gold_rows(full) > gold_rows(empty)
    out = tmp_path / "board.png"
    save_png(rep, str(out))
    assert pygame.image.load(str(out)).get_size() == (1280, 720)
    store.close()


def test_table_stats_screen_draws_one_tables_players_from_its_own_report() -> None:
    games = sample_games(5, seed=1)
    rep = report([game_record(i, s, e, finished=True) for i, (s, e) in enumerate(games, 1)])
    pygame.font.init()
    surface = pygame.Surface((1920, 1080))
    draw_table_stats(surface, rep)
    assert gold_rows(surface) > 0


def test_venue_json_and_screenshot_read_the_stored_board_without_a_broker(tmp_path: Path,
                                                                          capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "v.db")
    filled_store(db).close()
    assert main(["venue", "--db", db, "--json"]) == 0
    rep = json.loads(capsys.readouterr().out)
    assert rep["games_finished"] == 12 and rep["leaderboard"]
    low = [d for t in rep["tables"] for d in t["devices"] if d["battery_pct"] is not None and d["battery_pct"] < 20]
    assert low == [{"device": "badge-3", "device_kind": "badge", "link": None, "battery_pct": 12, "link_pct": None}]
    png = tmp_path / "b.png"
    assert main(["venue", "--db", db, "--screenshot", str(png)]) == 0
    assert png.exists()
    assert main(["venue", "--db", db]) == 2  # nothing to do without --broker
    assert "--broker URL is needed" in capsys.readouterr().err


def test_attract_mode_shows_the_tables_player_stats_after_the_last_winners(tmp_path: Path) -> None:
    from game.journal import Journal, JournaledTable
    from game.table.clock import SteppedClock
    from game.table.loop import TableApp
    from game.table.runner import STEP_S
    from game.table.screens import draw
    from game.table.sim import open_sim

    path = str(tmp_path / "table.db")
    journal = Journal(path)
    for setup, events in sample_games(3, seed=5):
        live, _ = JournaledTable.new(journal, setup)
        for ev in events:
            live.submit(ev)
        live.finish()
        journal.mark_finished(live.game_id)
    clock = SteppedClock()
    rig = open_sim(clock, seats=4, devices=False)
    app = TableApp(panels=rig.panels, journal=journal, clock=clock, seatmap=[1, 2, 3, 4], use_referee=False,
                   settings_file=tmp_path / "settings.json", idle_s=10.0)
    try:
        app.open_lobby()
        attract = app.host.attract
        seen: list[str] = []
        for _ in range(int(120 / STEP_S)):
            app.step(clock.advance(STEP_S))
            if attract.stats is not None:
                assert attract.stats.wait(10)  # folded on its own thread; wait so the slide is not skipped
            screen = app.view(clock()).screen
            if not seen or seen[-1] != screen:
                seen.append(screen)
            if screen == "attract_stats":
                break
        assert seen[-3:] == ["howto", "attract_winners", "attract_stats"], seen
        v = app.view(clock())
        rep = v.extra["report"]
        assert len(rep["games"]) == 3 and {p["name"] for p in rep["players"]} <= set(NAMES)
        pygame.font.init()
        surface = pygame.Surface((1280, 720))
        draw(surface, v)
        assert gold_rows(surface) > 0
    finally:
        rig.close()
        journal.close()


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
def test_the_boards_pass_the_tables_layout_check_even_with_long_names(tmp_path: Path, size: tuple[int, int]) -> None:
    """Readable across the room, like every table screen: no text out of its panel, no overlap, no text under 28 px
    at 1080p (``game.table.layout``); a long name is cut short, not shrunk."""
    from game.rules.base import NAME_MAX
    from game.table import layout
    from game.venue.screen import draw_table_stats

    store = filled_store(str(tmp_path / "v.db"))
    rep = store.report()
    rep["leaderboard"][0]["name"] = "W" * NAME_MAX  # the widest name the rules accept
    rep["tables"][0]["table"] = "cantina/the-long-table-by-the-window"
    pygame.font.init()
    surface = pygame.Surface(size)
    boards = [draw_venue(surface, rep), draw_venue(surface, dict(rep, leaderboard=[], tables=[])),
              draw_table_stats(surface, {"games": [], "players": rep["leaderboard"]}, "press any button to play")]
    assert sum(1 for p in boards for d in p.drawn if d.text.startswith("WW")) == 2
    for p in boards:
        assert layout.problems(p) == []
        for name in [d.text for d in p.drawn if d.text.startswith("WW")]:
            assert name == "W" * NAME_MAX or name.endswith(".")  # whole, or cut short at full size
    store.close()
