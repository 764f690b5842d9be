"""Per-seat screens on luma's own dummy device: each seat sees only its own hand (``player_view``)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

# luma.oled is the optional 'seat-screens' extra of the product, and in the 'test' extra: missing, these fail.
from luma.core.device import dummy

from game.games.taco_vs_burrito.buttons import HandBrowser, SeatScreenView, seat_screen_view
from game.games.taco_vs_burrito.seat_screens import SeatScreenError, SeatScreens, open_device, parse_spec, render_seat
from game.journal import Journal
from game.log import Table
from game.table.clock import SteppedClock


class Game:
    """A three-seat game's state and the seats' browsers: what the seat screens are drawn from."""

    def __init__(self) -> None:
        self.state = Table.start({"event": "setup", "game": "taco-vs-burrito", "seats": 3, "options": {"seed": 4}})[0].state
        self.browser = HandBrowser({1: 1, 2: 2, 3: 3})

    def seat_screen(self, seat: int, table_now: float) -> SeatScreenView:
        return seat_screen_view(self.state, self.browser, seat, table_now)


def table_and_screens(tmp_path: Path) -> tuple[Game, SteppedClock, SeatScreens]:
    return Game(), SteppedClock(0.0), SeatScreens.open("1=dummy, 2=dummy, 3=dummy")


def pixels(screens: SeatScreens, seat: int) -> bytes:
    return bytes(screens.devices[seat].image.tobytes())


def test_each_seat_screen_shows_only_its_own_hand(tmp_path: Path) -> None:
    """Changing seat 1's hand changes seat 1's picture and no other seat's."""
    table, clock, screens = table_and_screens(tmp_path)
    screens.update(lambda s: table.seat_screen(s, clock()))
    before = {s: pixels(screens, s) for s in (1, 2, 3)}
    assert len(set(before.values())) == 3  # three different pictures
    hand = table.state.hands[0]
    hand[:] = ["order-envy"] * len(hand)
    screens.update(lambda s: table.seat_screen(s, clock()))
    assert pixels(screens, 1) != before[1]
    assert pixels(screens, 2) == before[2] and pixels(screens, 3) == before[3]


def test_a_seat_screen_is_built_from_player_view_only(tmp_path: Path) -> None:
    """The seat view holds the seat's own hand and nothing of the others' hands."""
    table, clock, _ = table_and_screens(tmp_path)
    v = table.seat_screen(2, clock())
    assert v.hand == table.state.hands[1]
    assert v.seat == 2 and v.line == "seat 1's turn"


def test_frames_are_sent_only_when_the_picture_changes(tmp_path: Path) -> None:
    """An unchanged picture is not sent again (an I2C OLED frame costs ~25 ms)."""
    table, clock, screens = table_and_screens(tmp_path)
    screens.update(lambda s: table.seat_screen(s, clock()))
    screens.update(lambda s: table.seat_screen(s, clock()))
    assert screens.frames_sent == 3


def test_the_cursor_is_drawn_where_the_seat_browses(tmp_path: Path) -> None:
    """LEFT/RIGHT move the highlighted card on the seat's own display."""
    v = SeatScreenView(1, ["ingredient-3", "no-bueno", "crafty-crow"], 0, [], 0, None, 1, "move", 0, 0.0, False,
                       "your turn")
    a = render_seat(v)
    v.cursor = 2
    assert a.tobytes() != render_seat(v).tobytes()


def test_a_picked_card_shows_its_options_on_the_seat_screen() -> None:
    """Once PLAY picks a card, the seat's display shows the option under the cursor and how many there are."""
    v = SeatScreenView(1, ["ingredient-3"], 0, ["my meal", "seat 2's meal", "< back"], 1, "ingredient-3", 1, "move",
                       0, 0.0, False, "your turn")
    img = render_seat(v, (128, 64))
    assert img.size == (128, 64) and img.getbbox() is not None


@pytest.mark.parametrize("spec, message", [
    ("1=ssd1306", "expected ssd1306@i2c:BUS:ADDRESS"),
    ("1=st7735@spi:0:0", "unknown driver 'st7735'"),
    ("one=dummy", "expected SEAT=DRIVER@BUS"),
    ("1=dummy, 1=dummy", "seat 1 has two screens"),
    ("1=ssd1306@i2c:1:zz", "bus numbers must be integers"),
])
def test_a_bad_seat_screen_spec_is_one_line_naming_the_entry(spec: str, message: str) -> None:
    with pytest.raises(SeatScreenError, match=message) as info:
        parse_spec(spec)
    assert "\n" not in str(info.value) and "seat screens: entry" in str(info.value)


def test_a_missing_i2c_bus_is_one_clear_line() -> None:
    """An OLED on a bus that does not exist fails with the device named, not a traceback."""
    with pytest.raises(SeatScreenError, match=r"seat screen ssd1306@i2c:99:0x3c"):
        open_device("ssd1306", "i2c", (99, 0x3C))


def test_without_luma_the_error_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """The product runs without luma.oled; asking for a real display then names the extra to install."""
    for name in list(sys.modules):
        if name.startswith("luma"):
            monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "luma", None)
    with pytest.raises(SeatScreenError, match=r"burrito-table\[seat-screens\]"):
        open_device("ssd1306", "i2c", (1, 0x3C))


def test_dummy_is_luma_s_own_device() -> None:
    """The test device is luma.core's dummy (an in-memory framebuffer), not a fake of ours."""
    dev = open_device("dummy", "", (0, 0))
    assert isinstance(dev, dummy) and (dev.width, dev.height) == (128, 64)


def test_the_app_drives_each_seat_screen_with_its_own_hand(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """In the shared app, BURRITO_SEAT_SCREENS opens the displays; every frame sends each seat its own hand, and
    the shared screen then shows no hand at all."""
    from game.games.taco_vs_burrito import rules as tvb
    from game.games.taco_vs_burrito.mode import GAME as MODE
    from game.table.loop import TableApp
    from game.table.runner import STEP_S
    from game.table.sim import open_sim

    monkeypatch.setenv("BURRITO_SEAT_SCREENS", "1=dummy,2=dummy")
    monkeypatch.setattr(MODE, "seat_screens", None)
    clock = SteppedClock(7.0)
    rig = open_sim(clock, seats=4, devices=False)
    journal = Journal(str(tmp_path / "j.db"))
    try:
        app = TableApp(panels=rig.panels, journal=journal, clock=clock, seatmap=[1, 2], mode=tvb.name)
        app.start(MODE.setup(2, 0, seed=3))
        assert MODE.hands == "screens"
        app.step(clock.advance(STEP_S))
        v = app.view(clock())
        assert v.extra["taco"].hands == []
        screens = MODE.seat_screens
        assert screens is not None and screens.frames_sent == 2
        mine = render_seat(seat_screen_view(app.state, app.mapper.browser, 2, 0.0))
        assert screens.devices[2].image.tobytes() == mine.tobytes()
    finally:
        rig.close()
        journal.close()
        MODE.hands = "peek"
