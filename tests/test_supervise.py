"""The supervisor keeps a background part's failure inside the part: logged once, shown down, restarted."""

from __future__ import annotations

import doctest
import logging
import threading

import pytest

from firmware_bridge import supervise
from firmware_bridge.supervise import LineLimiter, Supervised


def test_docstring_examples_run() -> None:
    assert doctest.testmod(supervise).failed == 0


def test_a_failing_loop_is_logged_once_shown_down_and_restarted(caplog: pytest.LogCaptureFixture,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(supervise, "SETTLE_S", 0.05)
    runs: list[int] = []
    release = threading.Event()

    def loop(stop: threading.Event) -> None:
        runs.append(1)
        if len(runs) <= 3:
            raise OSError("the pty went away")
        release.set()
        stop.wait()

    part = Supervised("virtual-table", loop, backoff=(0.01, 0.02))
    with caplog.at_level(logging.ERROR, logger="firmware_bridge.supervise"):
        part.start()
        assert release.wait(2.0)
        lines = [r for r in caplog.records if "virtual-table failed" in r.getMessage()]
    assert len(lines) == 1, "the same cause is logged once, not once per restart"
    assert part.failures == 3 and part.last_error == "OSError: the pty went away"
    assert any(s.name == "virtual-table" for s in supervise.parts())
    threading.Event().wait(0.1)
    assert part.up, "back up once the restarted loop has run SETTLE_S"
    assert all(s.name != "virtual-table" for s in supervise.down())
    part.stop()
    assert all(s.name != "virtual-table" for s in supervise.parts())


def test_a_part_that_keeps_failing_stays_down() -> None:
    def loop(stop: threading.Event) -> None:
        raise ValueError("bad frame")

    part = Supervised("announcer", loop, backoff=(0.01, 0.01), log=None).start()
    assert part.wait_runs(5, 2.0)
    assert not part.up
    assert [s.name for s in supervise.down()].count("announcer") == 1
    part.stop()


def test_backoff_doubles_up_to_its_cap() -> None:
    waits: list[float] = []

    class Recording(threading.Event):
        def wait(self, timeout: float | None = None) -> bool:
            waits.append(timeout or 0.0)
            if len(waits) >= 6:
                self.set()
            return self.is_set()

    def loop(stop: threading.Event) -> None:
        raise RuntimeError("x")

    part = Supervised("publisher", loop, backoff=(0.1, 0.5), stop=Recording(), log=None).start()
    part._thread.join(2.0)  # type: ignore[union-attr]
    assert waits[:5] == [0.1, 0.2, 0.4, 0.5, 0.5]


def test_line_limiter_holds_a_flood_and_says_how_many() -> None:
    now = [0.0]
    lim = LineLimiter(per_minute=3, clock=lambda: now[0])
    allowed = [lim.allow("bad json")[0] for _ in range(1000)]
    assert allowed.count(True) == 3
    now[0] = 61.0
    assert lim.allow("bad json") == (True, 997)


def test_line_limiter_caps_its_keys() -> None:
    lim = LineLimiter(per_minute=1, max_keys=4)
    for i in range(100):
        lim.allow(f"key {i}")
    assert len(lim._seen) <= 5
