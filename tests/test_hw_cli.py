"""`burrito-table pins` and `burrito-table doctor`, as a maker runs them on a laptop."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin
from hwfixtures import mock_factory  # noqa: F401  (fixture)

from game.cli import main
from hardware.cli import run_doctor
from hardware.pinmap import load_pinmap
from hardware.simbus import SimulatedI2CBus
from hardware.wiring import markdown_table, wiring_svg

BAD = """
[table]
seats = 3
speed = 11
[panels.1]
light = "GPIO5"
buttons = { SET = "GPIO17", BRAWL = "GPIO17", WAR = "GPIO22", DUEL = "GPIO23", JUMP = "GPIO24" }
"""


def test_pins_prints_seat_button_bcm_physical_expander_and_port(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["pins", "--config", "hardware/pinmaps/direct-four-seats.toml"]) == 0
    out = capsys.readouterr().out
    assert "seat  button" in out and "physical pin" in out
    assert any(line.split()[:4] == ["1", "WAR", "GPIO27", "13"] for line in out.splitlines())


def test_pins_shows_expander_and_port_for_expander_buttons(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))  # no user file: the shipped default is used
    assert main(["pins"]) == 0
    out = capsys.readouterr().out
    assert "E2 (0x21)      GPB4 (chip pin 5)" in out
    assert "E1 INTA (chip pin 20)" in out and "GPIO4" in out


def test_pins_markdown_and_svg_are_generated_from_the_map(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    svg = tmp_path / "w.svg"
    assert main(["pins", "--markdown", "--svg", str(svg), "--config", "hardware/pinmaps/twelve-seats.toml"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("| seat | button | BCM | physical pin | expander | port |")
    assert out.count("\n") == 2 + 12 * 5 + 4 + 2 + 1  # header, seats, INT lines, I2C, shutdown
    root = ET.fromstring(svg.read_text())
    texts = " ".join(t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text"))
    assert "MCP23017 E3 at 0x22" in texts and "seat 12 DUEL" in texts and "GPIO21 seat 12 light" in texts


def test_committed_wiring_diagram_and_tables_match_the_default_pin_map() -> None:
    pm = load_pinmap("hardware/pinmap.toml")
    # regenerate with: python -m hardware.drawings (all of docs/build/)
    assert Path("docs/build/wiring-6-seats.svg").read_text() == wiring_svg(pm)
    assert markdown_table(pm) in Path("docs/hardware.md").read_text()


def test_bad_config_exits_2_listing_every_problem_one_per_line(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text(BAD)
    assert main(["pins", "--config", str(bad)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err == [
        f"error: {bad}: table.speed: unknown key",
        f"error: {bad}: panels.1.buttons.BRAWL: GPIO17 is already used by panels.1.buttons.SET",
        f"error: {bad}: panels.1.buttons.JUMP: unknown button 'JUMP' (the layout in table.buttons is SET, BRAWL, WAR, DUEL)",
        f"error: {bad}: table.seats: 3 seats but no panels for seats 2, 3",
    ]
    assert main(["doctor", "--mock", "--auto", "--config", str(bad)]) == 2


def test_doctor_passes_on_a_laptop_with_the_mock_factory(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["doctor", "--mock", "--auto", "--timeout", "2"]) == 0
    out = capsys.readouterr().out
    assert "ok   pin factory: mock" in out and "ok   seat 6 DUEL [E2:B4]" in out
    assert "ok   lights cycled" in out and out.rstrip().endswith("all good")


def test_doctor_without_a_terminal_or_auto_checks_config_and_pins_but_skips_the_prompts(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["doctor", "--mock"]) == 0
    assert "skip button and light test" in capsys.readouterr().out


def test_doctor_fails_when_an_expander_does_not_answer(mock_factory: MockFactory) -> None:
    pm = load_pinmap()
    out = io.StringIO()
    bus = SimulatedI2CBus.for_pinmap(pm, mock_factory, absent={0x20})
    assert run_doctor(None, auto=True, out=out, factory=mock_factory, bus=bus) == 1
    assert "FAIL expanders: no answer from the MCP23017 at 0x20" in out.getvalue()


def test_doctor_fails_on_a_button_that_reads_pressed_before_the_test(mock_factory: MockFactory) -> None:
    class ShortedPin(MockPWMPin):
        """A pin whose wire is shorted to GND: the pull-up cannot lift it."""

        def _set_pull(self, value: str) -> None:
            super()._set_pull(value)
            self.drive_low()

    mock_factory.pin("GPIO27", pin_class=ShortedPin)  # seat 1 WAR
    out = io.StringIO()
    assert run_doctor("hardware/pinmaps/direct-four-seats.toml", auto=True, timeout=0.3, out=out,
                      factory=mock_factory) == 1
    assert "FAIL reads pressed before any press: GPIO27" in out.getvalue()


def test_doctor_reports_a_button_wired_to_the_wrong_seat(mock_factory: MockFactory) -> None:
    pm = load_pinmap("hardware/pinmaps/direct-four-seats.toml")
    out = io.StringIO()

    import hardware.cli as cli

    real_open = cli.open_table

    def open_swapped(pinmap: object, factory: object, bus: object = None) -> object:
        table = real_open(pinmap, factory, bus=bus)
        real_set = table.sim.set_button

        def set_button(seat: int, button: str, pressed: bool, t: float = 0.0) -> None:
            real_set(2 if (seat, button) == (1, "SET") else seat, button, pressed)

        table.sim.set_button = set_button
        return table

    cli.open_table = open_swapped
    try:
        assert run_doctor(pm.source, auto=True, timeout=0.3, out=out, factory=mock_factory) == 1
    finally:
        cli.open_table = real_open
    assert "FAIL seat 1 SET [GPIO4 (GPIO4, pin 7)]: got seat 2 SET instead (wires swapped?)" in out.getvalue()


def test_doctor_auto_on_a_real_factory_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    class NotMock:
        pass

    out = io.StringIO()
    assert run_doctor(None, auto=True, out=out, factory=NotMock()) == 1
    assert "--auto simulates presses and needs the mock factory" in out.getvalue()


def test_doctor_prints_a_bad_config_on_stderr_not_stdout(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text(BAD)
    assert main(["doctor", "--config", str(bad)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert f"error: {bad}: table.speed: unknown key" in err.splitlines()


def test_doctor_off_a_pi_says_why_in_one_line_without_gpiozero_warnings(tmp_path: Path) -> None:
    """A fresh process on a machine with no GPIO: gpiozero's four fallback warnings are folded into one line."""
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != "GPIOZERO_PIN_FACTORY"}
    done = subprocess.run([sys.executable, "-m", "game", "doctor"], capture_output=True, text=True, env=env,
                          stdin=subprocess.DEVNULL, timeout=60, cwd=Path(__file__).resolve().parents[1])
    assert done.returncode == 1
    assert "Warning" not in done.stderr and "warnings.warn" not in done.stderr
    err = done.stderr.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("burrito-table: doctor: pin factory: no GPIO pin factory works here (")
    assert "FAIL pin factory" in done.stdout


def test_doctor_that_skipped_the_button_test_does_not_say_all_good(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["doctor", "--mock"]) == 0  # no terminal under pytest: the prompts are skipped
    out = capsys.readouterr().out
    assert "all good" not in out
    assert out.rstrip().endswith("config and pins ok; buttons and lights NOT tested (no terminal)")


def test_doctor_that_finds_a_problem_says_so_on_stderr(mock_factory: MockFactory) -> None:
    out, err = io.StringIO(), io.StringIO()
    bus = SimulatedI2CBus.for_pinmap(load_pinmap(), mock_factory, absent={0x21})
    assert run_doctor(None, auto=True, out=out, err=err, factory=mock_factory, bus=bus) == 1
    assert err.getvalue().startswith("burrito-table: doctor: expanders: no answer from the MCP23017 at 0x21")
