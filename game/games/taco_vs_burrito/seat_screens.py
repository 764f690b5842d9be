"""Optional per-seat screens: a small OLED at each seat shows that seat's own hand, and nothing else.

Driven by luma.oled (SSD1306 / SH1106 and friends, I2C or SPI). Each seat's picture is drawn from
``TacoTable.seat_screen(seat)``, which is built from ``taco_vs_burrito.player_view(state, seat)``: a seat's
display can only ever show what that seat may know. luma.oled is an optional extra (``seat-screens``); the
table runs without it (hold-to-peek and open hands on the shared screen instead).

Screens are named in one spec string, one entry per seat, comma separated::

    1=ssd1306@i2c:1:0x3C, 2=ssd1306@i2c:1:0x3D, 3=sh1106@spi:0:0, 4=dummy

``DRIVER@i2c:BUS:ADDRESS`` or ``DRIVER@spi:PORT:DEVICE``; ``dummy`` is luma's own in-memory device (tests, a
table without displays yet). A display is only sent a new frame when its picture changed: an I2C OLED takes
~25 ms per full frame at 400 kHz.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from game.games.taco_vs_burrito.buttons import SeatScreenView

SIZE = (128, 64)
DRIVERS = ("ssd1306", "ssd1309", "ssd1322", "ssd1325", "ssd1327", "ssd1331", "ssd1351", "sh1106", "sh1107")
#: short names that fit a 128-pixel line
SHORT = {"hot-sauce-boss": "BOSS", "health-inspector": "INSP", "no-bueno": "NO!", "crafty-crow": "CROW",
         "trash-panda": "PANDA", "food-fight": "FIGHT", "order-envy": "ENVY"}


class SeatScreenError(ValueError):
    """A seat-screen spec or device that cannot be used; ``str()`` is one line naming the entry."""


def short(card: str) -> str:
    if card in SHORT:
        return SHORT[card]
    if card.startswith("ingredient-"):
        return "+" + card.rsplit("-", 1)[-1]
    if card.startswith("tummy-ache-"):
        return "-" + card.rsplit("-", 1)[-1]
    return card[:5].upper()


def render_seat(v: SeatScreenView, size: tuple[int, int] = SIZE, mode: str = "1") -> Any:
    """One seat's picture (a PIL image in the display's mode): status line, hand with cursor, options, countdown."""
    from PIL import Image, ImageDraw

    img = Image.new(mode, size)
    d = ImageDraw.Draw(img)
    on = 255 if mode in ("1", "L") else (255, 255, 255)
    w, h = size
    score = "?" if v.score is None else str(v.score)
    d.text((0, 0), f"SEAT {v.seat}  {score} pts", fill=on)
    d.text((0, 11), v.line[:21], fill=on)
    if v.picked is not None or v.options:
        what = short(v.picked) if v.picked else "FIGHT PICK"
        d.text((0, 24), f"{what}:", fill=on)
        if v.options:
            i = v.option % len(v.options)
            d.text((0, 35), f"< {v.options[i][:17]} >", fill=on)
            d.text((0, 46), f"{i + 1}/{len(v.options)}  PLAY=ok", fill=on)
    else:
        x = 0
        for i, card in enumerate(v.hand):
            label = short(card)
            tw = int(d.textlength(label)) + 4
            if x + tw > w:
                d.text((x, 26), "..", fill=on)
                break
            if i == v.cursor:
                d.rectangle((x, 24, x + tw - 1, 36), fill=on)
                d.text((x + 2, 26), label, fill=0 if mode in ("1", "L") else (0, 0, 0))
            else:
                d.text((x + 2, 26), label, fill=on)
            x += tw + 1
        if not v.hand:
            d.text((0, 26), "(no cards)", fill=on)
        if v.hand:
            d.text((0, 40), _long(v.hand[v.cursor % len(v.hand)])[:21], fill=on)
    if v.countdown > 0:
        d.rectangle((0, h - 6, int((w - 1) * min(1.0, v.countdown / 3.0)), h - 1), fill=on)
    return img


def _long(card: str) -> str:
    return card.replace("-", " ")


def parse_spec(spec: str) -> dict[int, tuple[str, str, tuple[int, int]]]:
    """``"1=ssd1306@i2c:1:0x3C, 2=dummy"`` -> {seat: (driver, bus, (a, b))}; a bad entry names itself."""
    out: dict[int, tuple[str, str, tuple[int, int]]] = {}
    for raw in (e.strip() for e in spec.split(",")):
        if not raw:
            continue
        where = f"seat screens: entry {raw!r}"
        seat_s, sep, dev = raw.partition("=")
        if not sep or not seat_s.strip().isdigit():
            raise SeatScreenError(f"{where}: expected SEAT=DRIVER@BUS, e.g. 1=ssd1306@i2c:1:0x3C")
        seat = int(seat_s)
        if seat in out:
            raise SeatScreenError(f"{where}: seat {seat} has two screens")
        dev = dev.strip()
        if dev == "dummy":
            out[seat] = ("dummy", "", (0, 0))
            continue
        driver, at, bus = dev.partition("@")
        if driver not in DRIVERS:
            raise SeatScreenError(f"{where}: unknown driver {driver!r} (known: dummy, {', '.join(DRIVERS)})")
        parts = bus.split(":")
        if not at or len(parts) != 3 or parts[0] not in ("i2c", "spi"):
            raise SeatScreenError(f"{where}: expected {driver}@i2c:BUS:ADDRESS or {driver}@spi:PORT:DEVICE")
        try:
            a, b = int(parts[1], 0), int(parts[2], 0)
        except ValueError:
            raise SeatScreenError(f"{where}: bus numbers must be integers (0x3C is fine)") from None
        out[seat] = (driver, parts[0], (a, b))
    return out


def open_device(driver: str, bus: str, where: tuple[int, int]) -> Any:
    """A luma device; luma.oled missing or the bus failing is one clear line."""
    try:
        if driver == "dummy":
            from luma.core.device import dummy

            return dummy(width=SIZE[0], height=SIZE[1], mode="1")
        import luma.oled.device as oled
        from luma.core.interface.serial import i2c, spi
    except ModuleNotFoundError as exc:
        raise SeatScreenError(f"seat screens need luma.oled ({exc.name} is missing): "
                              "pip install 'burrito-table[seat-screens]'") from None
    try:
        serial = i2c(port=where[0], address=where[1]) if bus == "i2c" else spi(port=where[0], device=where[1])
        return getattr(oled, driver)(serial)
    except Exception as exc:  # luma raises DeviceNotFoundError, DevicePermissionError, OSError...
        raise SeatScreenError(f"seat screen {driver}@{bus}:{where[0]}:{where[1]:#x}: {exc}") from None


class SeatScreens:
    """One luma device per seat. ``update(view_of, now)`` sends each seat its own picture when it changed."""

    def __init__(self, devices: dict[int, Any]) -> None:
        self.devices = dict(devices)
        self._last: dict[int, bytes] = {}
        self.frames_sent = 0

    @classmethod
    def open(cls, spec: str) -> SeatScreens:
        return cls({seat: open_device(*entry) for seat, entry in parse_spec(spec).items()})

    def update(self, view_of: Callable[[int], SeatScreenView]) -> None:
        for seat, dev in self.devices.items():
            img = render_seat(view_of(seat), (dev.width, dev.height), dev.mode)
            key = img.tobytes()
            if self._last.get(seat) == key:
                continue
            self._last[seat] = key
            dev.display(img)
            self.frames_sent += 1

    def close(self) -> None:
        for dev in self.devices.values():
            try:
                dev.cleanup()
            except Exception:  # noqa: BLE001 - a display gone at shutdown must not stop the others
                pass
