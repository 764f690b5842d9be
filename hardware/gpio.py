"""Direct GPIO through gpiozero: pin factory choice, edge timestamps, button inputs.

* ``GPIOZERO_PIN_FACTORY`` is honoured.  Without it a Raspberry Pi 5 gets
  lgpio (the only factory that works there; some PyPI installs would otherwise
  try RPi.GPIO and crash), any other machine gets gpiozero's own default.
* Buttons are plain :class:`gpiozero.DigitalInputDevice` objects, not
  ``Button``: ``Button`` starts a hold thread per button (gpiozero issue #1007)
  and we do hold and debounce ourselves.
* The pin's ``when_changed`` callback carries the factory's tick for the edge;
  lgpio passes the kernel's edge timestamp there.  :class:`EdgeClock` turns
  ticks into ``time.monotonic()`` seconds, whatever clock they came from.
"""

from __future__ import annotations

import os
import time
import warnings
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from gpiozero import Device, DigitalInputDevice
from gpiozero.exc import PinFactoryFallback
from gpiozero.pins.mock import MockFactory, MockPWMPin

LGPIO_HINT = (
    "lgpio is not installed. On Raspberry Pi OS: sudo apt install python3-lgpio and create the venv with "
    "'python3 -m venv --system-site-packages .venv' (or 'pip install lgpio' where a wheel exists)"
)


class FactoryError(RuntimeError):
    """No usable pin factory; the message says what to do."""


def pi_model(path: str = "/proc/device-tree/model") -> str:
    """The board model string, or "" off a Raspberry Pi."""
    try:
        return Path(path).read_bytes().rstrip(b"\0").decode("ascii", "replace")
    except OSError:
        return ""


def make_factory(name: str | None = None, *, env: dict[str, str] | None = None, model: str | None = None) -> Any:
    """Choose a gpiozero pin factory.

    ``name`` (e.g. from ``--factory``) wins, then ``$GPIOZERO_PIN_FACTORY``,
    then lgpio on a Pi 5, then gpiozero's default order.  ``mock`` gives a
    MockFactory whose pins can do PWM (the lights need it).
    """
    env = dict(os.environ) if env is None else env
    name = name or env.get("GPIOZERO_PIN_FACTORY") or None
    model = pi_model() if model is None else model
    if name is None and "Raspberry Pi 5" in model:
        name = "lgpio"
    if name is None:
        # gpiozero warns once per factory it falls back from; those are folded into our one line instead
        # of reaching the terminal as raw warnings ahead of it.
        with warnings.catch_warnings(record=True) as fallbacks:
            warnings.simplefilter("always")
            try:
                return Device._default_pin_factory()
            except Exception as exc:  # BadPinFactory and friends
                tried = "; ".join(str(w.message).removeprefix("Falling back from ")
                                  for w in fallbacks if issubclass(w.category, PinFactoryFallback))
                raise FactoryError(
                    f"no GPIO pin factory works here ({tried or exc}); on a laptop use --mock "
                    f"(or GPIOZERO_PIN_FACTORY=mock)"
                ) from None
    if name.lower() == "mock":
        if env.get("GPIOZERO_MOCK_PIN_CLASS"):
            return MockFactory()
        return MockFactory(pin_class=MockPWMPin)
    from importlib.metadata import entry_points

    for ep in entry_points(group="gpiozero_pin_factories"):
        if ep.name.lower() == name.lower():
            try:
                return ep.load()()
            except ImportError:
                if ep.name == "lgpio":
                    raise FactoryError(LGPIO_HINT) from None
                raise FactoryError(f"pin factory {name!r} needs a library that is not installed") from None
            except Exception as exc:
                raise FactoryError(f"pin factory {name!r} failed to start: {exc}") from None
    known = sorted(ep.name for ep in entry_points(group="gpiozero_pin_factories"))
    raise FactoryError(f"unknown pin factory {name!r} (known: {', '.join(known)})")


def factory_name(factory: Any) -> str:
    """A short name for messages: mock, lgpio, rpigpio, ..."""
    n = type(factory).__name__
    return n[:-7].lower() if n.endswith("Factory") else n.lower()


class EdgeClock:
    """Converts a pin factory's edge ticks to ``time.monotonic()`` seconds.

    First choice: the factory's own ``ticks_diff`` against ``ticks()`` gives the
    edge's age, valid when both are on one clock (MockFactory, pigpio, lgpio on
    kernels that stamp edges with CLOCK_MONOTONIC).  When the age comes out
    negative or absurd (old kernels stamp with CLOCK_REALTIME), the offset
    between the two clocks is estimated as the smallest (now - tick) seen,
    since a callback can only run after its edge; a jump of over a second
    (the wall clock was set) restarts the estimate.
    """

    MAX_AGE = 2.0

    def __init__(self, factory: Any, now: Callable[[], float] = time.monotonic) -> None:
        self.factory = factory
        self.now = now
        self.offset: float | None = None
        #: False when ``now`` is a simulated clock that presses are made on: an edge then happens at ``now``, and the
        #: pin's real-time age (thread scheduling) would leak wall-clock jitter into table time.
        self.use_ticks = True

    def to_host(self, ticks: Any) -> float:
        now = self.now()
        if ticks is None or not self.use_ticks:
            return now
        try:
            age = self.factory.ticks_diff(self.factory.ticks(), ticks)
        except Exception:
            age = None
        if age is not None and 0.0 <= age < self.MAX_AGE:
            return now - age
        d = now - float(ticks)
        if self.offset is None or abs(d - self.offset) > 1.0:
            self.offset = d
        elif d < self.offset:
            self.offset = d
        return min(now, float(ticks) + self.offset)


def _seat_edge(source: Any, seat: int, button: str, t: float, pressed: bool) -> None:
    """An edge of one seat's button, handed to the panel source (bound per pin with ``partial``)."""
    source.edge(t, seat, button, pressed)


class EdgeInput(DigitalInputDevice):
    """A GPIO input that hands (host time, pressed) to a sink on every edge.

    It overrides gpiozero's pin callback hook so the edge tick reaches us; the
    sink must only enqueue (it runs on the factory's callback thread).
    """

    def __init__(self, pin: str, *, pull_up: bool, sink: Callable[[float, bool], None], clock: EdgeClock,
                 pin_factory: Any) -> None:
        self._sink = sink
        self._clock = clock
        self._active_low = pull_up
        super().__init__(pin, pull_up=pull_up, pin_factory=pin_factory)

    def _pin_changed(self, ticks: Any, state: Any) -> None:
        self._sink(self._clock.to_host(ticks), bool(state) != self._active_low)


class GpioButtons:
    """Every header-pin button of a pin map, feeding a PanelSource."""

    def __init__(self, pinmap: Any, source: Any, factory: Any) -> None:
        self.clock = EdgeClock(factory)
        self.inputs: list[EdgeInput] = []
        try:
            for seat, button, ref in pinmap.button_pins():
                if ref.is_gpio:
                    self.inputs.append(EdgeInput(
                        ref.gpiozero_name, pull_up=pinmap.pull_up, clock=self.clock, pin_factory=factory,
                        sink=partial(_seat_edge, source, seat, button)))
        except Exception:
            self.close()
            raise

    def pressed_now(self) -> list[str]:
        """Names of inputs that read pressed right now (for the doctor's stuck check)."""
        return [d.pin.info.name for d in self.inputs if bool(d.pin.state) != d._active_low]

    def close(self) -> None:
        for d in self.inputs:
            d.close()
        self.inputs.clear()
