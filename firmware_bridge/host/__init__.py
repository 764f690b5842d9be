"""Host side of the device link: serial port, protocol, registry, pairing and clock sync.

Typical use::

    from firmware_bridge.host import DeviceHost, PairingStore
    host = DeviceHost("hwgrep://303a:1001", PairingStore("~/.config/burrito-table/pairings.json")).start()
    ev = host.events.get()   # DeviceEvent or HeartbeatEvent (table time), or LinkEvent (online / offline / paired)

It also publishes device status for ``burrito-table devices`` (``status``), saves the raw traces devices send around
their events (``trace_dir``, ``tracestore``) and pushes detector parameters (``push_config``, ``params_path``).
"""

from firmware_bridge.host.clocksync import ClockSync
from firmware_bridge.host.events import DeviceEvent, HeartbeatEvent, LinkEvent
from firmware_bridge.host.host import DeviceHealth, DeviceHost
from firmware_bridge.host.pairing import Pairing, PairingError, PairingStore
from firmware_bridge.host.status import StatusWriter, read_status
from firmware_bridge.host.tracestore import TraceRecord

__all__ = ["ClockSync", "DeviceEvent", "DeviceHealth", "DeviceHost", "HeartbeatEvent", "LinkEvent", "Pairing",
           "PairingError", "PairingStore", "StatusWriter", "TraceRecord", "read_status"]
