"""A virtual X display (Debian's ``xvfb``) whose number the X server picks itself.

A fixed number, or one guessed from a pid or found free by ``xvfb-run -a``, can be taken by another test starting an
X server at the same moment on the other core: ``-displayfd`` has the server claim a free number and write it back
once it accepts clients, so there is neither a race nor a sleep. Xvfb missing is a failure, never a skip.
"""

from __future__ import annotations

import os
import select
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def xvfb(screen: str = "800x600x24", timeout: float = 30.0) -> Iterator[str]:
    """Start Xvfb on a free display and yield its name (``":N"``); the server is stopped on leaving."""
    exe = shutil.which("Xvfb")
    assert exe, "Xvfb is missing: run tests/install-system-deps.sh (Debian package xvfb)"
    read, write = os.pipe()
    log = tempfile.TemporaryFile()  # not a pipe: a chatty server must never block on a full one
    proc = subprocess.Popen([exe, "-displayfd", str(write), "-screen", "0", screen, "-nolisten", "tcp"],
                            pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=log)
    os.close(write)
    try:
        number = b""
        while not number.endswith(b"\n"):
            ready, _, _ = select.select([read], [], [], timeout)
            chunk = os.read(read, 16) if ready else b""
            if not chunk:
                proc.kill()
                proc.wait(5)
                log.seek(0)
                err = log.read().decode(errors="replace")[-500:]
                raise AssertionError(f"Xvfb gave no display number within {timeout} s: {err}")
            number += chunk
        yield f":{int(number)}"
    finally:
        os.close(read)
        log.close()
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
