"""Which devices belong to this table, kept in a small JSON file.

Only paired devices are accepted; everything else on the air (the next table's burritos) is counted and ignored.
Names are stable: the first burrito paired is "burrito-1", and a re-paired device keeps its name.

File format (version 1)::

    {"version": 1, "devices": [{"mac": "aa:bb:cc:dd:ee:01", "kind": "burrito", "name": "burrito-1", "seat": null}]}

A malformed file raises ``PairingError`` naming the file and the problem, and is never overwritten, so no pairing is
lost to a typo. Writes go to a temporary file that replaces the old one, so a crash mid-write loses nothing either.
"""

from __future__ import annotations

import json
import os
import threading
from dataclasses import asdict, dataclass
from pathlib import Path

from firmware_bridge.firmware import proto
from firmware_bridge.safefile import FileProblem, brief, read_json

FILE_VERSION = 1
KINDS = ("burrito", "badge")


class PairingError(ValueError):
    """The pairing file is unreadable; the message says which file and what is wrong."""


@dataclass(frozen=True)
class Pairing:
    mac: str
    kind: str
    name: str
    seat: int | None = None


class PairingStore:
    """The paired devices of this table, persisted to ``path`` (``None``: in memory only, for tests and demos)."""

    def __init__(self, path: str | os.PathLike[str] | None = None) -> None:
        self.path = Path(path) if path is not None else None
        self._lock = threading.Lock()
        self._by_mac: dict[bytes, Pairing] = {}
        if self.path is not None and self.path.exists():
            self._load()

    def _load(self) -> None:
        assert self.path is not None
        where = str(self.path)
        try:
            data = read_json(self.path)  # deep nesting, huge numbers, NaN and bytes that are not UTF-8 refused by name
        except FileProblem as exc:
            raise PairingError(str(exc)) from None
        if not isinstance(data, dict) or data.get("version") != FILE_VERSION or not isinstance(data.get("devices"), list):
            raise PairingError(f'{where}: expected {{"version": {FILE_VERSION}, "devices": [...]}}')
        names: set[str] = set()
        for i, entry in enumerate(data["devices"]):
            at = f"{where}: devices[{i}]"
            if not isinstance(entry, dict):
                raise PairingError(f"{at}: not an object")
            try:
                mac = proto.mac_bytes(str(entry["mac"]))
            except (KeyError, ValueError):
                raise PairingError(f"{at}: bad or missing mac {brief(entry.get('mac'))}") from None
            kind, name, seat = entry.get("kind"), entry.get("name"), entry.get("seat")
            if kind not in KINDS:
                raise PairingError(f"{at}: kind must be one of {', '.join(KINDS)}, not {brief(kind)}")
            if not isinstance(name, str) or not name or name in names:
                raise PairingError(f"{at}: name missing or duplicate: {brief(name)}")
            if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool) or seat < 0):
                raise PairingError(f"{at}: seat must be a non-negative integer or null, not {brief(seat)}")
            if mac in self._by_mac:
                raise PairingError(f"{at}: mac {proto.mac_str(mac)} listed twice")
            names.add(name)
            self._by_mac[mac] = Pairing(proto.mac_str(mac), kind, name, seat)

    def save(self) -> None:
        if self.path is None:
            return
        with self._lock:
            devices = [asdict(p) for p in self._by_mac.values()]
        text = json.dumps({"version": FILE_VERSION, "devices": devices}, indent=1) + "\n"
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_name(self.path.name + ".tmp")
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, self.path)

    def get(self, mac: bytes) -> Pairing | None:
        return self._by_mac.get(mac)

    def all(self) -> list[Pairing]:
        with self._lock:
            return list(self._by_mac.values())

    def pair(self, mac: bytes, kind: str, seat: int | None = None, name: str | None = None) -> Pairing:
        """Pair (or re-pair with a new seat) and save; a device keeps its name across re-pairing."""
        if kind not in KINDS:
            raise ValueError(f"cannot pair a {kind!r}: only {', '.join(KINDS)}")
        with self._lock:
            old = self._by_mac.get(mac)
            if name is None:
                name = old.name if old is not None and old.kind == kind else self._free_name(kind)
            else:  # a name is one device: another device paired under it gives it up (the file stays readable)
                for other, q in list(self._by_mac.items()):
                    if q.name == name and other != mac:
                        del self._by_mac[other]
            p = Pairing(proto.mac_str(mac), kind, name, seat)
            self._by_mac[mac] = p
        self.save()
        return p

    def unpair(self, mac: bytes) -> bool:
        with self._lock:
            gone = self._by_mac.pop(mac, None) is not None
        if gone:
            self.save()
        return gone

    def _free_name(self, kind: str) -> str:
        used = {p.name for p in self._by_mac.values()}
        n = 1
        while f"{kind}-{n}" in used:
            n += 1
        return f"{kind}-{n}"
