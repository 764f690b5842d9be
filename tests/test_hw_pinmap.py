"""The pin map: shipped maps are valid, and validation reports every problem with where and what."""

from __future__ import annotations

from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from hardware.header import HEADER, PHYSICAL_OF_BCM, PinNameError, parse_gpio_name
from hardware.pinmap import PinMapError, default_pinmap_path, load_pinmap, parse_pinmap, resolve_pinmap_path

SHIPPED = sorted(Path("hardware").glob("pinmaps/*.toml")) + [Path("hardware/pinmap.toml")]

BASE = """
[table]
seats = 2
[i2c]
enabled = {i2c}
[uart]
enabled = true
{extra}
[panels.1]
light = "GPIO5"
buttons = {{ SET = "GPIO17", BRAWL = "GPIO27", WAR = "GPIO22", DUEL = "GPIO23" }}
[panels.2]
light = "GPIO6"
buttons = {{ SET = "GPIO24", BRAWL = "GPIO25", WAR = "GPIO12", DUEL = "{p2duel}" }}
"""


def problems(text: str) -> list[str]:
    with pytest.raises(PinMapError) as info:
        parse_pinmap(text, "t.toml")
    return [str(p) for p in info.value.problems]


def base(i2c: str = "false", extra: str = "", p2duel: str = "GPIO13") -> str:
    return BASE.format(i2c=i2c, extra=extra, p2duel=p2duel)


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_every_shipped_pinmap_is_valid(path: Path) -> None:
    pm = load_pinmap(path)
    assert len(pm.button_pins()) == pm.seats * len(pm.buttons)


def test_default_map_wires_six_full_panels_and_twelve_seat_map_wires_twelve() -> None:
    assert load_pinmap(default_pinmap_path()).seats == 6
    assert load_pinmap("hardware/pinmaps/twelve-seats.toml").seats == 12


def test_a_valid_minimal_map_parses() -> None:
    pm = parse_pinmap(base(), "t.toml")
    assert pm.panels[2].buttons["DUEL"].bcm == 13 and pm.panels[2].buttons["DUEL"].physical == 33


def test_pin_used_twice_is_reported_even_through_a_board_alias() -> None:
    # BOARD11 is GPIO17, already seat 1's SET
    assert problems(base(p2duel="BOARD11")) == [
        "t.toml: panels.2.buttons.DUEL: GPIO17 is already used by panels.1.buttons.SET"]


def test_pin_given_to_i2c_is_reported() -> None:
    assert problems(base(i2c="true", p2duel="GPIO2")) == [
        "t.toml: panels.2.buttons.DUEL: GPIO2 is I2C1 SDA, which i2c.enabled gives to I2C"]


def test_pin_given_to_uart_is_reported() -> None:
    assert problems(base(p2duel="BOARD10")) == [
        "t.toml: panels.2.buttons.DUEL: GPIO15 is UART RXD, which uart.enabled gives to the UART"]


def test_i2c_pins_are_free_for_buttons_when_i2c_is_off() -> None:
    assert parse_pinmap(base(p2duel="GPIO2"), "t.toml").panels[2].buttons["DUEL"].bcm == 2


def test_unknown_button_is_reported() -> None:
    text = base().replace('DUEL = "GPIO23"', 'DUEL = "GPIO23", JUMP = "GPIO16"')
    assert problems(text) == [
        "t.toml: panels.1.buttons.JUMP: unknown button 'JUMP' (the layout in table.buttons is SET, BRAWL, WAR, DUEL)"]


def test_more_seats_than_panels_is_reported() -> None:
    assert problems(base().replace("seats = 2", "seats = 4")) == [
        "t.toml: table.seats: 4 seats but no panels for seats 3, 4"]


def test_missing_expander_address_is_reported() -> None:
    extra = '[expanders.E1]\ninterrupt = "GPIO4"'
    text = base(i2c="true", extra=extra, p2duel="E1:A0")
    assert problems(text) == [
        "t.toml: expanders.E1.address: missing: the MCP23017's I2C address (0x20-0x27, set by A0-A2)"]


def test_expander_that_is_not_defined_is_reported() -> None:
    assert problems(base(i2c="true", p2duel="E9:B6")) == [
        "t.toml: panels.2.buttons.DUEL: expander 'E9' is not defined: add [expanders.E9] with its address"]


def test_expander_checks_address_range_duplicates_and_interrupt() -> None:
    extra = ('[expanders.E1]\naddress = 0x20\ninterrupt = "GPIO4"\n'
             '[expanders.E2]\naddress = 0x20\ninterrupt = "GPIO4"\n'
             '[expanders.E3]\naddress = 0x40\n')
    got = problems(base(i2c="true", extra=extra))
    assert got == [
        "t.toml: expanders.E2.address: 0x20 is already the address of expanders.E1",
        "t.toml: expanders.E2.interrupt: GPIO4 is already used by expanders.E1.interrupt",
        "t.toml: expanders.E3.address: an MCP23017 address is 0x20-0x27, got 64",
        "t.toml: expanders.E3.interrupt: missing: the GPIO that the expander's INTA line is wired to",
    ]


def test_expanders_need_i2c_enabled() -> None:
    extra = '[expanders.E1]\naddress = 0x20\ninterrupt = "GPIO4"'
    assert problems(base(extra=extra, p2duel="E1:A0")) == [
        "t.toml: i2c: the expanders need I2C, but i2c.enabled is false"]


def test_unknown_keys_are_errors_that_name_them_at_every_level() -> None:
    text = base().replace("seats = 2", "seats = 2\nseat = 3") + "\n[sound]\nvolume = 3\n"
    text = text.replace('light = "GPIO5"', 'light = "GPIO5"\nlamp = "GPIO7"')
    text = text.replace("[uart]\nenabled = true", "[uart]\nenabled = true\nbaud = 9600")
    assert problems(text) == [
        "t.toml: sound: unknown key",
        "t.toml: table.seat: unknown key",
        "t.toml: uart.baud: unknown key",
        "t.toml: panels.1.lamp: unknown key",
    ]


def test_every_problem_is_listed_at_once() -> None:
    text = base(p2duel="GPIO17").replace("seats = 2", "seats = 3").replace('light = "GPIO6"', 'light = "E1:A0"')
    text = text.replace("[timing]", "") + "\n[timing]\ndebounce_ms = -1\nhold_ms = \"long\"\n"
    got = problems(text)
    assert len(got) == 5, got  # panel 2 is broken, so only seat 3 counts as missing
    assert any("panels.2.buttons.DUEL: GPIO17 is already used" in p for p in got)
    assert any("panels.2.light: E1:A0 is an expander pin" in p for p in got)
    assert any("timing.debounce_ms: must be between" in p for p in got)
    assert any("timing.hold_ms: must be a number" in p for p in got)
    assert "t.toml: table.seats: 3 seats but no panel for seat 3" in got


def test_bad_pin_names_say_what_is_wrong() -> None:
    got = problems(base(p2duel="BOARD6").replace('"GPIO24"', '"GPIO40"').replace('"GPIO25"', "25"))
    assert got == [
        "t.toml: panels.2.buttons.SET: GPIO40 is not on the 40-pin header (GPIO0-GPIO27)",
        "t.toml: panels.2.buttons.BRAWL: a pin is written as a string like \"GPIO17\", got 25",
        "t.toml: panels.2.buttons.DUEL: BOARD6 is the GND pin, not a GPIO",
    ]


def test_malformed_toml_is_one_clear_problem_with_the_line() -> None:
    got = problems("[table\nseats = 2\n")
    assert len(got) == 1 and got[0].startswith("t.toml: not valid TOML:") and "line 1" in got[0]


def test_unreadable_file_is_a_problem_not_a_crash(tmp_path: Path) -> None:
    with pytest.raises(PinMapError) as info:
        load_pinmap(tmp_path / "nope.toml")
    assert "cannot read the pin map" in str(info.value)
    bad = tmp_path / "bin.toml"
    bad.write_bytes(b"\xff\xfe[table]")
    with pytest.raises(PinMapError) as info:
        load_pinmap(bad)
    assert "not UTF-8" in str(info.value)


def test_user_file_in_xdg_config_home_overrides_the_default(tmp_path: Path) -> None:
    env = {"XDG_CONFIG_HOME": str(tmp_path), "HOME": "/nonexistent"}
    assert resolve_pinmap_path(None, env) == default_pinmap_path()
    user = tmp_path / "burrito-table" / "pinmap.toml"
    user.parent.mkdir()
    user.write_text(base())
    assert resolve_pinmap_path(None, env) == user
    assert load_pinmap(None, env).seats == 2
    assert resolve_pinmap_path("x.toml", env) == Path("x.toml")  # --config wins


def test_xdg_default_is_dot_config_under_home() -> None:
    env = {"HOME": "/home/pi"}
    from hardware.pinmap import user_pinmap_path

    assert user_pinmap_path(env) == Path("/home/pi/.config/burrito-table/pinmap.toml")


def test_keyboard_overrides_replace_the_default_key_and_clash_is_reported() -> None:
    pm = parse_pinmap(base() + '\n[keyboard.1]\nSET = "space"\n', "t.toml")
    assert pm.keymap["space"] == (1, "SET") and "1" not in pm.keymap
    got = problems(base() + '\n[keyboard.2]\nSET = "q"\n')
    assert got == ["t.toml: keyboard.2.SET: key 'q' is the default key of seat 1 BRAWL; give that button another key too"]


def test_header_table_matches_gpiozero_board_data() -> None:
    header = MockFactory().board_info.headers["J8"]
    for number, pin in header.pins.items():
        expected = HEADER[number]
        assert pin.name == (f"GPIO{expected}" if isinstance(expected, int) else expected)
    assert PHYSICAL_OF_BCM[17] == 11 and parse_gpio_name("J8:11") == 17
    with pytest.raises(PinNameError):
        parse_gpio_name("pin 11")


def test_gpa7_and_gpb7_are_refused_as_button_inputs() -> None:
    extra = '[expanders.E1]\naddress = 0x20\ninterrupt = "GPIO4"'
    got = problems(base(i2c="true", extra=extra, p2duel="E1:B7"))
    assert got == ["t.toml: panels.2.buttons.DUEL: E1:B7: GPB7 cannot be an input (MCP23017 datasheet rev. D: "
                   "an input there can corrupt SDA); use bits 0-6"]


@pytest.mark.parametrize("key", ["debounce_ms", "hold_ms", "stuck_s", "reorder_ms"])
@pytest.mark.parametrize("value", ["nan", "inf", "-inf"])
def test_timings_that_are_not_finite_numbers_are_refused(key: str, value: str) -> None:
    """TOML has nan and inf, and nan compares as in range: a nan debounce would pass every bounce through."""
    found = problems(base(extra=f"[timing]\n{key} = {value}"))
    assert any(p.startswith(f"t.toml: timing.{key}: must be") for p in found), found


def test_one_seat_written_as_two_panel_sections_is_a_problem_not_a_silent_drop() -> None:
    text = base() + '[panels.02]\nlight = "GPIO16"\nbuttons = { SET = "GPIO26", BRAWL = "GPIO19", WAR = "GPIO20", DUEL = "GPIO21" }\n'
    found = problems(text)
    assert "t.toml: panels.2: seat 2 already has a panel, panels.02" in found


def test_one_seat_written_as_two_keyboard_sections_is_a_problem() -> None:
    found = problems(base(extra='[keyboard.1]\nSET = "f1"\n[keyboard.01]\nSET = "f2"'))
    assert "t.toml: keyboard.01: seat 1 already has a keyboard section, keyboard.1" in found


def test_a_seat_number_in_other_digits_is_a_problem_not_a_crash() -> None:
    """``"²".isdigit()`` is true and ``int("²")`` raises: seat keys are ASCII digits."""
    assert "t.toml: panels.²: panels are numbered by seat, 1-12" in problems(base() + "[panels.\"²\"]\nlight = \"GPIO16\"\n")
