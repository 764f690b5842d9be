"""What the host hands to the rest of the program: device events on table time, and link/health changes."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class DeviceEvent:
    """A motion event a device detected, on TABLE TIME.

    ``t`` is seconds on the host's ``time.monotonic()`` clock, converted from ``device_t_us`` (the device's own clock at
    the sample that caused the event) through that device's clock-sync estimate -- never the arrival time, which radio
    and USB jitter make useless for ordering hits. ``device`` is the stable name from the pairing file ("burrito-1",
    "badge-3"); ``seq`` is the device's sequence number (unique per device boot).
    """

    t: float
    device: str
    device_kind: str
    kind: str
    seq: int
    device_t_us: int
    peak_g: float | None


@dataclass(frozen=True)
class LinkEvent:
    """A change in a device's link: ``state`` is "online", "offline" or "paired".

    ``t`` is the host monotonic time the host noticed it (link events have no device timestamp). ``device`` is
    "receiver" for the USB receiver itself; ``detail`` says why in words (e.g. "no frame for 3.0 s").
    """

    t: float
    device: str
    device_kind: str
    state: str
    detail: str = ""


@dataclass(frozen=True)
class HeartbeatEvent:
    """A device's heartbeat, on TABLE TIME (its device stamp through clock sync), for whoever must know that
    nothing is still on its way: ``pending`` messages were waiting for an ACK at ``t`` and ``gave_up`` (a wrapping
    counter) were dropped since boot. ``pending == 0`` at ``t`` proves everything the device detected before ``t``
    has reached the host (the referee waits for that before calling a miss).
    """

    t: float
    device: str
    device_kind: str
    pending: int
    gave_up: int
    battery_pct: int | None = None
    link_pct: int | None = None
