"""The announcer under faults, with the real espeak-ng (tests/install-system-deps.sh; fails, never skips, without
it): damaged clips in the voice cache are found before they are played and rendered again, said once in the log;
the render loop runs under ``firmware_bridge.supervise.Supervised``, so a failure of the loop itself is logged once
and a later announcement is still spoken."""

from __future__ import annotations

import logging
import queue
import time
import wave
from pathlib import Path
from typing import Any

import pytest

from firmware_bridge import supervise
from game.table import loudness
from tests.test_voice import announcer, mixer  # noqa: F401 - the fixture

PHRASES = ["Seat 1 is hit!", "Seat 2 is hit!", "Catch! Seat 3 catches it!", "Brawl! Called by seat 4",
           "Seat 5: a set!"]


def _damage(path: Path, how: str) -> None:
    data = path.read_bytes()
    if how == "zero bytes":
        path.write_bytes(b"")
    elif how == "truncated":
        path.write_bytes(data[: len(data) // 2])
    elif how == "garbage":
        path.write_bytes(bytes(range(256)) * 40)
    elif how == "header only":
        path.write_bytes(data[:44])
    else:  # another format: 8-bit stereo at 8 kHz, a clip this table never writes
        with wave.open(str(path), "wb") as w:
            w.setnchannels(2)
            w.setsampwidth(1)
            w.setframerate(8000)
            w.writeframes(b"\x80\x90" * 4000)


def test_damaged_clips_are_rendered_again_before_playing_and_said_once(mixer: Any, tmp_path: Path,  # noqa: F811
                                                                       caplog: pytest.LogCaptureFixture) -> None:
    """A power cut or a full disk leaves a clip truncated, empty or garbage. Today a clip pygame could not load
    failed every time it was said (never rendered again), and one it could load played as noise."""
    cache = tmp_path / "voice"
    first = announcer(cache)
    first.prepare(PHRASES)
    assert first.wait(60)
    paths = [first.path(p) for p in PHRASES]
    first.close()
    for path, how in zip(paths, ("zero bytes", "truncated", "garbage", "header only", "other format")):
        _damage(path, how)
    with caplog.at_level(logging.WARNING):
        again = announcer(cache)
        try:
            again.prepare(PHRASES)
            assert again.wait(60)
            assert sorted(p for p, _ in again.rendered) == sorted(PHRASES)  # every damaged clip, again
            assert again.failed == []
            for path in paths:
                samples, rate = loudness.read_wav(path)
                assert rate >= 8000 and len(samples) > rate // 10  # a whole clip, as render writes it
            assert again.say(PHRASES[0]) and again.spoken == [PHRASES[0]]
            for phrase in PHRASES:  # said again: from memory, nothing more in the log
                again.say(phrase)
            time.sleep(0.2)
        finally:
            again.close()
    damaged = [r for r in caplog.records if "damaged clip" in r.getMessage()]
    assert len(damaged) == 1, [r.getMessage() for r in caplog.records]


def test_a_phrase_that_failed_is_rendered_when_said_again(mixer: Any, tmp_path: Path) -> None:  # noqa: F811
    """espeak-ng failing once (gone for a moment, a full cache disk) does not mute that phrase for good."""
    a = announcer(tmp_path / "voice")
    exe = a.exe
    try:
        a.exe = str(tmp_path / "no-espeak-here")
        a.say("Seat 6 is hit!")
        assert a.wait(20) and a.failed == ["Seat 6 is hit!"]
        a.exe = exe
        a.say("Seat 6 is hit!")
        assert a.wait(20)
        deadline = time.monotonic() + 5
        while "Seat 6 is hit!" not in a.spoken and time.monotonic() < deadline:
            time.sleep(0.02)
        assert a.spoken == ["Seat 6 is hit!"]
    finally:
        a.close()


class FailsOnce:
    """Wraps the announcer's job queue: the loop's own ``get`` fails once, outside any one phrase's handling."""

    def __init__(self, jobs: queue.PriorityQueue[Any]) -> None:
        self.jobs = jobs
        self.failed = False

    def __getattr__(self, name: str) -> Any:
        return getattr(self.jobs, name)

    def get(self, *args: Any, **kw: Any) -> Any:
        if not self.failed:
            self.failed = True
            raise RuntimeError("injected: the announcer's loop fails")
        return self.jobs.get(*args, **kw)


def test_the_announcer_restarts_after_its_loop_fails_and_a_later_call_is_still_spoken(
        mixer: Any, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:  # noqa: F811
    a = announcer(tmp_path / "voice")
    try:
        jobs = FailsOnce(a._jobs)
        a._jobs = jobs  # type: ignore[assignment]
        with caplog.at_level(logging.ERROR):
            a.say("Seat 7 is hit!")  # wakes the loop blocked in the real queue; its next take fails
            assert a.wait(20)
            a.say("Seat 8 is hit!")
            deadline = time.monotonic() + 20
            while "Seat 8 is hit!" not in a.spoken and time.monotonic() < deadline:
                time.sleep(0.02)
        assert jobs.failed and "Seat 8 is hit!" in a.spoken
        assert [r.getMessage() for r in caplog.records if "injected" in r.getMessage()][0].startswith(
            "announcer failed")
        assert [p.failures for p in supervise.parts() if p.name == "announcer"] == [1]
    finally:
        a.close()
