"""The keyboard backend: a documented key for every button, no window of its own."""

from __future__ import annotations

import os
import time

import pytest
from gpiozero.pins.mock import MockFactory
from hwfixtures import mock_factory, poll_until  # noqa: F401  (fixture)

from hardware.keyboard import DirectTarget, KeyboardPanel, default_keymap
from hardware.panels import open_table
from hardware.pinmap import load_pinmap
from hardware.source import PanelSource


def test_default_keymap_gives_every_button_of_twelve_seats_its_own_key() -> None:
    km = default_keymap(12)
    assert len(km) == 48 and len(set(km.values())) == 48
    assert km["1"] == (1, "SET") and km["z"] == (1, "DUEL") and km["/"] == (10, "DUEL") and km["f8"] == (12, "DUEL")


def test_keyboard_module_docstring_documents_the_same_keys() -> None:
    import hardware.keyboard as kb

    doc_rows = [line.split() for line in kb.__doc__.splitlines() if line and line[0] in "1qaz"]
    km = default_keymap(12)
    for row, button in zip(doc_rows, ("SET", "BRAWL", "WAR", "DUEL")):
        assert [km[k] for k in row] == [(s, button) for s in range(1, 13)]


def test_keys_become_seat_events_and_auto_repeat_is_ignored() -> None:
    src = PanelSource(6)
    kb = KeyboardPanel(default_keymap(6), DirectTarget(src))
    assert kb.key("e", True, t=1.0) and kb.key("e", True, t=1.1)  # repeat
    assert kb.key("E", False, t=1.2)
    assert not kb.key("escape", True)  # not ours: the app may use it
    assert [(e.t, e.seat, e.button, e.action) for e in src.poll(now=1.3)] == [
        (1.0, 3, "BRAWL", "press"), (1.2, 3, "BRAWL", "release")]


def test_pygame_key_events_are_accepted_without_opening_a_window() -> None:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    pygame = pytest.importorskip("pygame")
    pygame.display.quit()  # a window an earlier test in this worker left open is not this test's
    src = PanelSource(6)
    kb = KeyboardPanel(default_keymap(6), DirectTarget(src))
    assert kb.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_n))
    assert kb.handle_event(pygame.event.Event(pygame.KEYUP, key=pygame.K_n))
    assert not kb.handle_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1))
    assert pygame.display.get_surface() is None
    time.sleep(0.02)
    assert [(e.seat, e.button, e.action) for e in src.poll()] == [(6, "DUEL", "press"), (6, "DUEL", "release")]


def test_simulation_keys_drive_mock_pins_so_the_gpio_path_runs(mock_factory: MockFactory) -> None:
    pm = load_pinmap("hardware/pinmaps/direct-four-seats.toml")
    with open_table(pm, mock_factory) as table:
        table.keyboard.key("f", True)  # seat 4 WAR = GPIO10
        assert mock_factory.pin("GPIO10").state == 0
        assert [(e.seat, e.button) for e in poll_until(table.source, 1)] == [(4, "WAR")]


def test_simulation_keys_reach_expander_buttons_through_the_simulated_bus(mock_factory: MockFactory) -> None:
    with open_table(load_pinmap(), mock_factory) as table:
        before = table.bus.transactions
        table.keyboard.key("n", True)  # seat 6 DUEL on E2
        assert [(e.seat, e.button) for e in poll_until(table.source, 1)] == [(6, "DUEL")]
        assert table.bus.transactions > before


def test_keyboard_only_table_opens_no_pins() -> None:
    table = open_table(load_pinmap(), keyboard_only=True)
    assert table.gpio is None and table.lights is None
    table.keyboard.key("1", True, t=5.0)
    assert [(e.seat, e.button) for e in table.source.poll(now=5.1)] == [(1, "SET")]


def test_release_all_lets_go_of_keys_when_focus_is_lost() -> None:
    src = PanelSource(2)
    kb = KeyboardPanel(default_keymap(2), DirectTarget(src))
    kb.key("q", True)
    kb.release_all()
    time.sleep(0.02)  # the release lands inside the debounce window and settles after it
    assert [e.action for e in src.poll(now=time.monotonic())] == ["press", "release"]
