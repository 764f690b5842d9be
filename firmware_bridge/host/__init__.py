"""Host side of the device link: serial port, protocol, registry, pairing and clock sync.

Typical use::

    from firmware_bridge.host import DeviceHost, PairingStore
    host = DeviceHost("hwgrep://303a:1001", PairingStore("~/.config/burrito-table/pairings.json")).start()
    ev = host.events.get()   # DeviceEvent or HeartbeatEvent (table time), or LinkEvent (online / offline / paired)
"""

from firmware_bridge.host.clocksync import ClockSync
from firmware_bridge.host.events import DeviceEvent, HeartbeatEvent, LinkEvent
from firmware_bridge.host.host import DeviceHealth, DeviceHost
from firmware_bridge.host.pairing import Pairing, PairingError, PairingStore

__all__ = ["ClockSync", "DeviceEvent", "DeviceHealth", "DeviceHost", "HeartbeatEvent", "LinkEvent", "Pairing",
           "PairingError", "PairingStore"]
