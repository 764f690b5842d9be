"""Seat lights: one PWM light per seat, driven by named cues.

=========  ===========================  ==========================================
cue        looks like                   means
=========  ===========================  ==========================================
idle       steady dim glow (15 %)       seated and playing
battle     fast blink, 4 per second     you're in this battle
answer     slow pulse (1 s breathing)   the table needs your answer (press a button)
out        off                          out of this battle / not in the game
winner     full brightness, steady      you won (the battle, the round, the game)
=========  ===========================  ==========================================

>>> from gpiozero.pins.mock import MockFactory, MockPWMPin
>>> from hardware.pinmap import load_pinmap
>>> factory = MockFactory(pin_class=MockPWMPin)
>>> lights = Lights(load_pinmap(), factory)
>>> lights.cue(3, "winner")
>>> factory.pin("GPIO12").state     # seat 3's light in the default pin map
1.0
>>> lights.cue(3, "out"); factory.pin("GPIO12").state
0.0
>>> lights.close()
"""

from __future__ import annotations

from typing import Any

from gpiozero import LED, PWMLED
from gpiozero.exc import PinPWMUnsupported

IDLE_LEVEL = 0.15
CUES: tuple[str, ...] = ("idle", "battle", "answer", "out", "winner")


class Lights:
    """The seat lights of a pin map.  ``cue(seat, name)`` returns at once.

    Blinking and pulsing run on gpiozero's background threads.  If the pin
    factory cannot do PWM, plain on/off LEDs are used (``pwm`` is False) and
    the idle glow becomes fully on.
    """

    def __init__(self, pinmap: Any, factory: Any) -> None:
        self.pwm = True
        self.brightness = 1.0  # the house setting: scales the steady levels (idle, winner); blinks stay full
        self.leds: dict[int, Any] = {}
        self.current: dict[int, str] = {}
        try:
            for panel in pinmap.seat_panels():
                name = panel.light.gpiozero_name
                try:
                    led: Any = PWMLED(name, pin_factory=factory) if self.pwm else LED(name, pin_factory=factory)
                except PinPWMUnsupported:
                    self.pwm = False
                    led = LED(name, pin_factory=factory)
                self.leds[panel.seat] = led
                self.current[panel.seat] = "out"
        except Exception:
            self.close()
            raise

    def cue(self, seat: int, cue: str) -> None:
        """Show a named cue on one seat's light."""
        if cue not in CUES:
            raise ValueError(f"unknown light cue {cue!r} (cues: {', '.join(CUES)})")
        try:
            led = self.leds[seat]
        except KeyError:
            raise ValueError(f"no light for seat {seat} (seats 1-{len(self.leds)})") from None
        self.current[seat] = cue
        if cue == "out":
            led.off()
        elif cue == "winner":
            if self.pwm:
                led.value = self.brightness
            else:
                led.on()
        elif cue == "idle":
            if self.pwm:
                led.value = IDLE_LEVEL * self.brightness
            else:
                led.on()
        elif cue == "battle":
            led.blink(on_time=0.125, off_time=0.125)
        elif cue == "answer":
            if self.pwm:
                led.pulse(fade_in_time=0.5, fade_out_time=0.5)
            else:
                led.blink(on_time=0.5, off_time=0.5)

    def cue_all(self, cue: str) -> None:
        for seat in self.leds:
            self.cue(seat, cue)

    def close(self) -> None:
        for led in self.leds.values():
            led.close()
        self.leds.clear()
