"""Starting the companion beside the table app (``burrito-table play``): bridge, server, PIN, the lobby's QR codes.

If the server cannot start (the port is taken, a library is missing) the table says so in one line and plays on
without it: the companion is never a reason for the table not to run.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from typing import Any, TextIO

from game.web.bridge import TableBridge
from game.web.qr import draw_lobby_codes, lan_address
from game.web.tokens import PinGate, new_pin


@dataclass
class Companion:
    bridge: TableBridge
    server: Any
    base_url: str
    pin: str

    def draw_lobby(self, surface: Any, view: Any) -> None:
        """The join codes on the lobby screen; a drawing fault leaves the lobby as it was."""
        try:
            draw_lobby_codes(surface, view, self.base_url, self.bridge.book)
        except Exception:  # noqa: BLE001 - the QR codes are a convenience; the lobby itself must show
            self.bridge.errors += 1

    def stop(self) -> None:
        self.server.stop()


def check_args(port: int, pin: str | None) -> None:
    """Bad companion options are bad input (exit 2), found before the table opens anything."""
    if not 0 <= port <= 65535:
        raise ValueError(f"--web-port must be 0-65535, got {port}")
    chosen = pin or os.environ.get("BURRITO_WEB_PIN")
    if chosen is not None:
        try:
            PinGate(chosen)
        except ValueError as exc:
            where = "--web-pin" if pin else "BURRITO_WEB_PIN"
            raise ValueError(f"{where}: {exc}") from None


def start_companion(app: Any, *, host: str, port: int, pin: str | None, journal_path: str | None,
                    public_url: str | None = None, out: TextIO = sys.stdout) -> Companion | None:
    """Serve the companion for ``app`` and attach the bridge (``app.web``); None (and one line) if it cannot."""
    try:
        from game.web.server import WebServer
    except ImportError as exc:
        print(f"burrito-table: phone companion off: {exc} (pip install -e .)", file=sys.stderr)
        return None
    check_args(port, pin)
    chosen = pin or os.environ.get("BURRITO_WEB_PIN") or new_pin()
    gate = PinGate(chosen)
    bridge = TableBridge(app.panels.pinmap.seats)
    settings = {"port": port, "listening on": host, "panels": app.panels.pinmap.seats,
                "journal": journal_path or "-", "PIN from": "--web-pin" if pin else
                "BURRITO_WEB_PIN" if os.environ.get("BURRITO_WEB_PIN") else "printed at start"}
    server = WebServer(bridge, host=host, port=port, pin=gate, journal_path=journal_path, settings=settings)
    try:
        server.start()
    except OSError as exc:
        print(f"burrito-table: phone companion off: {exc}", file=sys.stderr)
        return None
    woken = getattr(app.panels.source, "woken", None)
    if woken is not None:
        bridge.woken = woken  # a phone's input wakes the loop as a button edge does
    app.web = bridge
    base = public_url or f"http://{lan_address() if host == '0.0.0.0' else host}:{server.port}"
    print(f"Phones: scan a seat's QR code in the lobby; watch at {base}/watch; operator at {base}/operator "
          f"(PIN {chosen})", file=out)
    return Companion(bridge, server, base, chosen)
