"""Starting the companion beside the table app (``burrito-table play``): bridge, server, PIN, the lobby's QR codes.

Bad option values are bad input: ``check_args`` finds them before the table opens anything (exit 2, one line naming
the option). If the server cannot start (the port is taken, the address is not this machine's, a library is
missing) the table says so in one line naming the option and the cause, and plays on without it: the companion is
never a reason for the table not to run.
"""

from __future__ import annotations

import ipaddress
import os
import re
import sys
from dataclasses import dataclass
from typing import Any, TextIO
from urllib.parse import urlsplit

from game.rules.base import brief
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


_LABEL = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?")
#: a public URL is carried by every lobby QR code with "/join/" and a 12-character code after it: at this length
#: the codes still fit beside the panels with two pixels a module on a TV
URL_MAX = 80


def check_host(host: str) -> None:
    """``--web-host``: an IPv4 or IPv6 address, or a host name (resolved when the server starts)."""
    try:
        ipaddress.ip_address(host)
        return
    except ValueError:
        pass
    if re.fullmatch(r"[0-9.]+", host):
        raise ValueError(f"--web-host {brief(host)}: not an IPv4 address (four numbers 0-255, like 192.168.1.20)")
    labels = host.rstrip(".").split(".")
    if not host or len(host) > 253 or not all(_LABEL.fullmatch(label) for label in labels):
        raise ValueError(f"--web-host {brief(host)}: not an address or a host name (like 0.0.0.0, 192.168.1.20 "
                         "or table.local)")


def check_url(url: str) -> None:
    """``--web-url``: ``http://`` or ``https://``, a host and at most a port and a path, short enough for a QR
    code on the lobby screen."""
    if len(url) > URL_MAX:
        raise ValueError(f"--web-url {brief(url)}: at most {URL_MAX} characters (it goes into every QR code)")
    if not url.isascii() or not url.isprintable() or " " in url:
        raise ValueError(f"--web-url {brief(url)}: only plain ASCII, no spaces (a phone's camera reads it)")
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises ValueError for a port that is not a number 0-65535
    except ValueError as exc:
        raise ValueError(f"--web-url {brief(url)}: {exc}") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"--web-url {brief(url)}: must be http:// or https:// and a host, like "
                         "http://table.local:8080")
    if parts.query or parts.fragment or parts.username or parts.password:
        raise ValueError(f"--web-url {brief(url)}: no user, ? query or # part (the join path is added to it)")


def check_args(port: int, pin: str | None, host: str | None = None, url: str | None = None) -> None:
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
    if host is not None:
        check_host(host)
    if url is not None:
        check_url(url)


def start_companion(app: Any, *, host: str, port: int, pin: str | None, journal_path: str | None,
                    public_url: str | None = None, out: TextIO = sys.stdout) -> Companion | None:
    """Serve the companion for ``app`` and attach the bridge (``app.web``); None (and one line) if it cannot."""
    try:
        from game.web.server import WebServer
    except ImportError as exc:
        print(f"burrito-table: phone companion off: {exc} (pip install -e .)", file=sys.stderr)
        return None
    check_args(port, pin)
    try:
        check_args(port, pin, host, public_url)
    except ValueError as exc:  # found only now when the caller checked the port and PIN alone
        print(f"burrito-table: phone companion off: {exc}", file=sys.stderr)
        return None
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
    shown = lan_address() if host in ("0.0.0.0", "::", "") else f"[{host}]" if ":" in host else host
    base = public_url or f"http://{shown}:{server.port}"
    print(f"Phones: scan a seat's QR code in the lobby; watch at {base}/watch; operator at {base}/operator "
          f"(PIN {chosen})", file=out)
    return Companion(bridge, server, base, chosen)
