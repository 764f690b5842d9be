"""A real Eclipse Mosquitto broker for the venue tests, on a free 127.0.0.1 port, with persistence in a temp dir.

The binary comes from Debian's ``mosquitto`` package (``tests/install-system-deps.sh``); without it the tests fail
with that instruction, they never skip.
"""

from __future__ import annotations

import getpass
import os
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

MOSQUITTO = shutil.which("mosquitto") or ("/usr/sbin/mosquitto" if os.path.exists("/usr/sbin/mosquitto") else None)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Mosquitto:
    """One broker process; ``stop``/``start`` again keeps its persistence file (queued QoS 1 messages, sessions)."""

    def __init__(self, workdir: Path, port: int | None = None, save_every_change: bool = True,
                 extra: str = "") -> None:
        if MOSQUITTO is None:
            raise RuntimeError("mosquitto is not installed: run tests/install-system-deps.sh (Debian package mosquitto)")
        self.dir = workdir
        self.dir.mkdir(parents=True, exist_ok=True)
        self.port = port or free_port()
        self.conf = self.dir / "mosquitto.conf"
        self.conf.write_text(
            f"listener {self.port} 127.0.0.1\n"
            + ("allow_anonymous true\n" if "allow_anonymous" not in extra else "") + extra +
            # Started as root, mosquitto drops to the "mosquitto" user, which cannot write our temp dir: stay us.
            f"user {getpass.getuser()}\n"
            "persistence true\n"
            f"persistence_location {self.dir}/\n"
            # Tests: saved after every change, so a SIGKILL loses next to nothing. Otherwise a venue's setting:
            # every 60 s and at a clean shutdown (docs/venue.md).
            + ("autosave_interval 1\nautosave_on_changes true\n" if save_every_change else "autosave_interval 60\n") +
            "max_queued_messages 100000\n"
            f"log_dest file {self.dir}/mosquitto.log\n"
            "log_type error\nlog_type warning\nlog_type notice\n"
        )
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"mqtt://127.0.0.1:{self.port}"

    def start(self, timeout: float = 5.0) -> Mosquitto:
        assert MOSQUITTO is not None
        self.proc = subprocess.Popen([MOSQUITTO, "-c", str(self.conf)], stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE)
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                raise RuntimeError(f"mosquitto exited: {self.proc.stderr.read().decode() if self.proc.stderr else ''}")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return self
            except OSError:
                time.sleep(0.05)
        raise RuntimeError(f"mosquitto did not listen on port {self.port} within {timeout} s")

    def stop(self, sig: int = signal.SIGTERM) -> None:
        """SIGTERM: mosquitto saves its persistence file and exits; SIGKILL: as a power cut would."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None
