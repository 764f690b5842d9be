"""Direct GPIO through gpiozero's MockFactory: every button, edge timestamps, factory choice."""

from __future__ import annotations

import time

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin
from hwfixtures import mock_factory, poll_until  # noqa: F401  (fixture)

from hardware.gpio import EdgeClock, FactoryError, make_factory
from hardware.panels import open_table
from hardware.pinmap import load_pinmap, parse_pinmap

MIXED_SIX = """
# six seats: four wired straight to the header, two on one expander
[table]
seats = 6
[i2c]
enabled = true
[uart]
enabled = true
[expanders.E1]
address = 0x20
interrupt = "GPIO26"
[panels.1]
light = "GPIO18"
buttons = { SET = "GPIO4", BRAWL = "GPIO17", WAR = "GPIO27", DUEL = "GPIO22" }
[panels.2]
light = "GPIO12"
buttons = { SET = "GPIO23", BRAWL = "GPIO24", WAR = "GPIO25", DUEL = "GPIO8" }
[panels.3]
light = "GPIO13"
buttons = { SET = "GPIO5", BRAWL = "GPIO6", WAR = "GPIO16", DUEL = "GPIO20" }
[panels.4]
light = "GPIO19"
buttons = { SET = "GPIO7", BRAWL = "GPIO9", WAR = "GPIO10", DUEL = "GPIO11" }
[panels.5]
light = "GPIO21"
buttons = { SET = "E1:A0", BRAWL = "E1:A1", WAR = "E1:A2", DUEL = "E1:A3" }
[panels.6]
light = "BOARD8"
buttons = { SET = "E1:B0", BRAWL = "E1:B1", WAR = "E1:B2", DUEL = "E1:B3" }
"""


def test_every_button_of_a_six_seat_table_reports_press_and_release(mock_factory: MockFactory) -> None:
    text = MIXED_SIX.replace("[uart]\nenabled = true", "[uart]\nenabled = false")  # BOARD8 = GPIO14 used as a light
    pm = parse_pinmap(text, "mixed.toml")
    with open_table(pm, mock_factory) as table:
        assert table.sim is not None
        for seat, button, ref in pm.button_pins():
            table.sim.set_button(seat, button, True)
            pressed = poll_until(table.source, 1)
            table.sim.set_button(seat, button, False)
            time.sleep(pm.timing.debounce_s)
            released = poll_until(table.source, 1)
            assert [(e.seat, e.button, e.action) for e in pressed + released] == [
                (seat, button, "press"), (seat, button, "release")], ref.text


def test_direct_map_buttons_arrive_on_the_pins_the_map_names(mock_factory: MockFactory) -> None:
    pm = load_pinmap("hardware/pinmaps/direct-four-seats.toml")
    with open_table(pm, mock_factory) as table:
        mock_factory.pin("BOARD13").drive_low()  # GPIO27 = seat 1 WAR
        assert [(e.seat, e.button) for e in poll_until(table.source, 1)] == [(1, "WAR")]
        mock_factory.pin("GPIO11").drive_low()
        assert [(e.seat, e.button) for e in poll_until(table.source, 1)] == [(4, "DUEL")]


def test_bounce_on_a_mock_pin_is_debounced_by_our_layer(mock_factory: MockFactory) -> None:
    pm = load_pinmap("hardware/pinmaps/direct-four-seats.toml")
    with open_table(pm, mock_factory) as table:
        pin = mock_factory.pin("GPIO4")
        for _ in range(5):
            pin.drive_low()
            pin.drive_high()
        pin.drive_low()
        time.sleep(0.03)
        assert [e.action for e in table.source.poll()] == ["press"]


def test_event_time_is_the_edge_time_not_the_poll_time(mock_factory: MockFactory) -> None:
    pm = load_pinmap("hardware/pinmaps/direct-four-seats.toml")
    with open_table(pm, mock_factory) as table:
        before = time.monotonic()
        mock_factory.pin("GPIO4").drive_low()
        after = time.monotonic()
        time.sleep(0.05)
        (event,) = table.source.poll()
        assert before <= event.t <= after


def test_simultaneous_presses_on_two_seats_come_out_in_edge_order(mock_factory: MockFactory) -> None:
    pm = load_pinmap("hardware/pinmaps/direct-four-seats.toml")
    with open_table(pm, mock_factory) as table:
        for name in ("GPIO11", "GPIO23", "GPIO4", "GPIO5"):  # seats 4, 2, 1, 3
            mock_factory.pin(name).drive_low()
        out = table.source.poll()
        assert [e.seat for e in out] == [4, 2, 1, 3]
        assert [e.t for e in out] == sorted(e.t for e in out)


class FakeKernelFactory:
    """Ticks like a factory whose edge stamps are on another clock (old kernels: CLOCK_REALTIME)."""

    def ticks(self) -> float:
        return time.monotonic()

    def ticks_diff(self, later: float, earlier: float) -> float:
        return later - earlier


def test_edge_clock_uses_the_ticks_age_when_factory_and_edge_share_a_clock() -> None:
    clock = EdgeClock(FakeKernelFactory(), now=lambda: 100.0)
    edge = time.monotonic() - 0.004
    before = time.monotonic()
    got = clock.to_host(edge)
    after = time.monotonic()
    # the age is read between before and after: bracketed, so a busy core that delays the call cannot fail it
    assert 100.0 - (after - edge) <= got <= 100.0 - (before - edge)


def test_edge_clock_estimates_the_offset_of_a_foreign_clock_from_the_fastest_callback() -> None:
    now = [1000.0]
    clock = EdgeClock(FakeKernelFactory(), now=lambda: now[0])
    wall = 1.7e9  # realtime stamps are far from monotonic
    assert clock.to_host(wall + 0.0) == pytest.approx(1000.0)           # first guess: no delay
    now[0] = 1001.0
    assert clock.to_host(wall + 0.9995) == pytest.approx(1000.9995)      # faster callback: offset shrinks
    now[0] = 1002.0
    assert clock.to_host(wall + 1.990) == pytest.approx(1001.9905)       # 10 ms late callback keeps its edge time
    now[0] = 1003.0
    assert clock.to_host(wall + 100.0) == pytest.approx(1003.0)          # wall clock jumped: estimate restarts


def test_make_factory_honours_gpiozero_pin_factory() -> None:
    assert isinstance(make_factory(env={"GPIOZERO_PIN_FACTORY": "mock"}, model=""), MockFactory)
    f = make_factory(env={"GPIOZERO_PIN_FACTORY": "mock"}, model="")
    assert f.pin_class is MockPWMPin  # the lights need PWM


def test_make_factory_rejects_an_unknown_name_listing_the_known_ones() -> None:
    with pytest.raises(FactoryError, match=r"unknown pin factory 'nope' \(known: .*lgpio.*mock"):
        make_factory(env={"GPIOZERO_PIN_FACTORY": "nope"}, model="")


def test_a_pi_5_gets_lgpio_and_a_clear_install_hint_when_it_is_missing() -> None:
    try:
        import lgpio  # noqa: F401
    except ImportError:
        with pytest.raises(FactoryError, match="sudo apt install python3-lgpio.*--system-site-packages"):
            make_factory(env={}, model="Raspberry Pi 5 Model B Rev 1.0")
    else:  # pragma: no cover - only where lgpio is installed
        pytest.skip("lgpio is installed here")
