"""The announcer's voice: every ``say`` cue spoken with espeak-ng, from a cache, through the mixer, never blocking.

- :func:`spoken` turns a rules announcement into what the announcer says ("HIT! Seat 3 is hit by seat 2" ->
  "Seat 3 is hit!"): short enough to follow the throw, and with the screen's shouting caps calmed down;
  ``game.rules.players.name_seats`` then puts the players' names in.
- Each phrase is rendered once by espeak-ng into a WAV, normalised to the table's loudness
  (:mod:`game.table.loudness`) and kept in a per-user cache directory (``$XDG_CACHE_HOME/burrito-table/voice``),
  named by a hash of (text, voice, speed, pitch, espeak-ng version, loudness target): another voice or a new
  espeak-ng renders afresh, an old file is never played for the wrong settings.
- Rendering (espeak-ng takes 50-300 ms a phrase) happens on one background thread, never in the table's loop.
  Phrases known in advance (:func:`known_phrases`: countdowns, calls and hits for every seat or name) are queued
  when the table starts and when the players are known, so the first call is played straight from memory.
  A phrase nobody could foresee ("TIE! seat 1 and seat 3 hit 12 ms apart") is rendered when it is said and played
  as soon as it is ready, unless it is more than :data:`STALE_S` late: a call heard after the next one confuses.
- Playback is on a reserved mixer channel; while it speaks, effects are ducked (:data:`DUCK`) so words stay clear.

Without espeak-ng, :meth:`Announcer.open` gives the reason instead, and the table plays its jingles.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import queue
import re
import shutil
import subprocess
import tempfile
import threading
import time
import wave
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from firmware_bridge.supervise import LineLimiter, Supervised
from game.rules.players import Player, name_seats
from game.table import loudness

log = logging.getLogger(__name__)

#: a phrase rendered on demand is dropped if it is ready later than this after its cue
STALE_S = 1.5
#: effect volume while the announcer speaks (about -10 dB)
DUCK = 0.3
#: longest phrase spoken whole; a longer announcement is cut after its first sentence (the screen has the rest)
LONGEST = 90


@dataclass(frozen=True)
class VoiceSettings:
    """espeak-ng's voice, words per minute and pitch (0-99): a party announcer talks fast and a little high."""

    voice: str = "en-us"
    speed: int = 170
    pitch: int = 55


# --- what the announcer says -------------------------------------------------------------------------------

#: announcement -> phrase, first match wins; applied before names go in (they match "Seat N")
_PHRASES: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"^HIT! (Seat \d+) is hit( by seat \d+)?$"), r"\1 is hit!"),
    (re.compile(r"^CATCH! (Seat \d+) catches seat \d+'s burrito$"), r"Catch! \1 catches it!"),
    (re.compile(r"^CATCH! (Seat \d+) catches the \w+ burrito: (seat \d+) is out$"), r"Catch! \1 catches it: \2 is out!"),
    (re.compile(r"^TIE! (.+?) hit \d+ ms apart: tie Duel!$"), r"Tie! \1: Duel!"),
    (re.compile(r"^TIE! (.+?) hit \d+ ms apart: a War among them, last one standing!$"), r"Tie! \1: War, last one standing!"),
    (re.compile(r"^TIE! Seats (\d+) and (\d+) are out \d+ ms apart: .*$"), r"Tie! Seat \1 and seat \2 go again!"),
    (re.compile(r"^(Seat \d+) lays down a set: \+1$"), r"\1: a set!"),
    (re.compile(r"^(BRAWL|WAR|DUEL|BATTLE)! called by (seat \d+)(.*)$"), r"\1! Called by \2\3"),
]
_CAPS = re.compile(r"\b[A-Z][A-Z]+\b")
_ASIDE = re.compile(r"\s*\(([^)]*)\)")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def spoken(text: str) -> str:
    """What the announcer says for a rules announcement (seats still as "Seat N")."""
    for pattern, repl in _PHRASES:
        if pattern.match(text):
            text = pattern.sub(repl, text)
            break
    if len(text) > LONGEST:
        parts = _SENTENCE_END.split(text)
        text = parts[0]
        for more in parts[1:]:  # whole sentences while they fit
            if len(text) + 1 + len(more) > LONGEST:
                break
            text += " " + more
    text = text.replace("3.. 2.. 1..", "3, 2, 1,").replace("+1", "plus one")
    text = re.sub(r"\s*\.\.\.\s*", ", ", text)
    text = re.sub(r"\b(\d+) ms\b", r"\1 milliseconds", text).replace("seat(s)", "seats")
    text = _ASIDE.sub(lambda m: ", " + m[1], text)
    text = _CAPS.sub(lambda m: m[0].capitalize(), text)
    return text.strip()


def phrase_for(text: str, players: dict[int, Player] | None = None) -> str:
    """The phrase for an announcement at a table with these players: :func:`spoken`, then the names."""
    return name_seats(spoken(text), players or {})


def known_phrases(game: str, seats: int, players: dict[int, Player] | None = None) -> list[str]:
    """The phrases worth rendering before play: the game's calls that must be on time (``GameMode.known_says``,
    countdowns first: the opening one is the first thing the table says), for every seat or its name."""
    from game.registry import GAMES

    mode = GAMES.get(game)
    raw = mode.known_says(seats) if mode is not None else []
    out: list[str] = []
    for text in raw:
        phrase = phrase_for(text, players)
        if phrase not in out:
            out.append(phrase)
    return out


# --- espeak-ng and the cache --------------------------------------------------------------------------------


def cache_dir() -> Path:
    """The per-user cache (XDG): ``$XDG_CACHE_HOME/burrito-table/voice``, else ``~/.cache/burrito-table/voice``."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "burrito-table" / "voice"


def espeak_version(exe: str) -> str:
    """e.g. "1.51": part of every cache key, so an upgraded espeak-ng renders afresh."""
    out = subprocess.run([exe, "--version"], capture_output=True, text=True, timeout=10, check=True).stdout
    m = re.search(r"text-to-speech:\s*(\S+)", out)
    return m[1] if m else out.strip()[:40]


def phrase_key(text: str, settings: VoiceSettings, version: str) -> str:
    blob = json.dumps([text, settings.voice, settings.speed, settings.pitch, version, loudness.TARGET_LUFS])
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:32]


def trim(samples: list[float], rate: int, floor_db: float = -50.0) -> list[float]:
    """Without espeak-ng's lead-in (up to 50 ms before a "k") and its 0.3 s tail: the first sample is the word,
    and the voice channel is free (effects no longer ducked) as soon as the word ends."""
    floor = 10 ** (floor_db / 20)
    first = next((i for i, v in enumerate(samples) if abs(v) > floor), None)
    if first is None:
        return samples
    last = next(i for i in range(len(samples) - 1, -1, -1) if abs(samples[i]) > floor)
    return samples[max(0, first - int(0.002 * rate)):last + int(0.06 * rate)]


def clip_problem(path: Path) -> str | None:
    """Why a cached clip cannot be what ``render`` wrote (None: it can): a zero-byte or truncated file, garbage,
    another format. Checked before a clip is played, so a clip damaged by a power cut or a full disk is rendered
    again instead of being played as noise or failing every time it is said."""
    try:
        with wave.open(str(path), "rb") as w:
            width, channels, rate, frames = w.getsampwidth(), w.getnchannels(), w.getframerate(), w.getnframes()
            data = w.readframes(frames)
    except (OSError, EOFError, wave.Error) as exc:
        return f"not a WAV ({exc or type(exc).__name__})"
    if (width, channels) != (2, 1) or not 8000 <= rate <= 48000:
        return f"{8 * width}-bit, {channels} channel(s), {rate} Hz (expected 16-bit mono)"
    if frames == 0:
        return "no samples"
    if len(data) != frames * width:
        return f"truncated ({len(data) // width} of {frames} samples)"
    return None


def render(exe: str, text: str, settings: VoiceSettings, dest: Path) -> None:
    """espeak-ng speaks ``text`` into ``dest``, normalised to the table's loudness; written atomically.

    The text goes in on standard input, so a name starting with "-" is never an option.
    """
    dest.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(suffix=".wav", dir=dest.parent)
    os.close(fd)
    try:
        subprocess.run([exe, "-v", settings.voice, "-s", str(settings.speed), "-p", str(settings.pitch),
                        "--stdin", "-w", tmp], input=text, text=True, capture_output=True, timeout=20, check=True)
        samples, rate = loudness.read_wav(Path(tmp))
        samples, _, _ = loudness.normalise(trim(samples, rate), rate)
        loudness.write_wav(Path(tmp), samples, rate)
        os.replace(tmp, dest)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


class Announcer:
    """Speaks phrases on mixer channel ``channel``; renders and loads them on its own thread.

    ``load`` turns a WAV path into a playable sound (``pygame.mixer.Sound``); ``others`` lists the effect channels
    to duck while it speaks.
    """

    def __init__(self, exe: str, version: str, cache: Path, settings: VoiceSettings, channel: Any,
                 load: Callable[[str], Any], others: Callable[[], list[Any]] = list,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.exe = exe
        self.version = version
        self.cache = cache
        self.settings = settings
        self.channel = channel
        self.load = load
        self.others = others
        self.clock = clock
        self.volume = 1.0
        self.loaded: dict[str, Any] = {}  # phrase -> sound; written by the worker, read by the loop
        self.spoken: list[str] = []  # phrases played, in order
        self.rendered: list[tuple[str, float]] = []  # (phrase, seconds) espeak-ng + normalising took
        self.dropped: list[str] = []  # phrases ready too late to be worth saying
        self.failed: list[str] = []
        self.damaged: list[str] = []  # cached clips found damaged and rendered again
        self._limit = LineLimiter(per_minute=1)
        #: (priority, order, phrase, asked): a phrase said now goes before the ones prepared in advance
        self._jobs: queue.PriorityQueue[tuple[int, int, str, float | None]] = queue.PriorityQueue()
        self._order = 0
        self._queued: set[str] = set()
        self._lock = threading.Lock()
        self._part = Supervised("announcer", self._work, backoff=(0.1, 5.0)).start()

    @classmethod
    def open(cls, channel: Any, load: Callable[[str], Any], others: Callable[[], list[Any]] = list,
             settings: VoiceSettings | None = None, cache: Path | None = None) -> tuple[Announcer | None, str]:
        """An announcer, or None and the one-line reason there is none (espeak-ng missing or broken)."""
        exe = shutil.which("espeak-ng")
        if exe is None:
            return None, "espeak-ng is not installed (sudo apt install espeak-ng): the announcer plays jingles"
        try:
            version = espeak_version(exe)
        except (OSError, subprocess.SubprocessError) as exc:
            return None, f"espeak-ng does not run ({exc}): the announcer plays jingles"
        folder = cache if cache is not None else cache_dir()
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            return None, f"voice cache {folder}: {exc.strerror}: the announcer plays jingles"
        return cls(exe, version, folder, settings or VoiceSettings(), channel, load, others), f"espeak-ng {version}"

    def path(self, phrase: str) -> Path:
        return self.cache / f"{phrase_key(phrase, self.settings, self.version)}.wav"

    def prepare(self, phrases: Iterable[str]) -> None:
        """Render and load these phrases in the background (already queued or loaded ones are skipped)."""
        for p in phrases:
            self._enqueue(p, None)

    def say(self, phrase: str) -> bool:
        """Speak now if the phrase is ready (True); else have it rendered and spoken when ready, if still timely."""
        sound = self.loaded.get(phrase)
        if sound is not None:
            self._play(phrase, sound)
            return True
        self._enqueue(phrase, self.clock())
        return False

    def busy(self) -> bool:
        return bool(self.channel.get_busy())

    def wait(self, timeout: float = 30.0) -> bool:
        """Until every queued phrase is done (tests, benchmarks, the demo's start); False on timeout."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            with self._lock:
                if not self._queued:
                    return True
            time.sleep(0.005)
        return False

    def close(self) -> None:
        """Stop after the phrase in hand: queued renders are dropped (the cache keeps what is done)."""
        try:
            while True:
                self._jobs.get_nowait()
        except queue.Empty:
            pass
        self._jobs.put((-1, 0, "", None))  # the stop sign goes first
        self._part.stop(timeout=5)

    def _enqueue(self, phrase: str, asked: float | None) -> None:
        with self._lock:
            if phrase in self.loaded or (phrase in self._queued and asked is None):
                return
            self._queued.add(phrase)
            self._order += 1
            order = self._order
        self._jobs.put((0 if asked is not None else 1, order, phrase, asked))

    def _play(self, phrase: str, sound: Any) -> None:
        self.channel.set_volume(self.volume)
        self.channel.play(sound)
        for ch in self.others():
            if ch.get_busy():
                ch.set_volume(self.volume * DUCK)
        self.spoken.append(phrase)

    def _work(self, stop: threading.Event) -> None:
        """The render loop, run by its supervisor: a failure outside one phrase's own handling is logged once and
        the loop restarts, so later phrases are still spoken."""
        while not stop.is_set():
            priority, _, phrase, asked = self._jobs.get()
            if priority < 0:
                return
            try:
                sound = self.loaded.get(phrase)
                if sound is None:
                    sound = self._ready(phrase)
                if asked is not None:
                    if self.clock() - asked <= STALE_S:
                        self._play(phrase, sound)
                    else:
                        self.dropped.append(phrase)
            except Exception as exc:  # noqa: BLE001 - one bad phrase must not silence the rest
                self.failed.append(phrase)  # not loaded: the next time it is said it is tried again
                self._limit.log(log, logging.WARNING, "render", "announcer: cannot render %r: %s", phrase[:80], exc)
            finally:
                with self._lock:
                    self._queued.discard(phrase)

    def _ready(self, phrase: str) -> Any:
        """The phrase's sound: from the cache if its clip is sound, else rendered (again)."""
        dest = self.path(phrase)
        why = clip_problem(dest) if dest.exists() else None
        if why is not None:
            self.damaged.append(phrase)
            if len(self.damaged) == 1:  # once: the cause is the same for all of them (a power cut, a full disk)
                log.warning("voice cache %s: a damaged clip (%s): rendering it again, and any other found so",
                            self.cache, why)
            dest.unlink(missing_ok=True)
        cached = dest.exists()
        if not cached:
            self._render(phrase, dest)
        try:
            sound = self.load(str(dest))
        except Exception:
            dest.unlink(missing_ok=True)  # whatever the mixer disliked is rendered afresh
            if not cached:
                raise
            self.damaged.append(phrase)  # a clip whose header looked right but the mixer refused: render it now
            self._render(phrase, dest)
            sound = self.load(str(dest))
        self.loaded[phrase] = sound
        return sound

    def _render(self, phrase: str, dest: Path) -> None:
        start = time.perf_counter()
        render(self.exe, phrase, self.settings, dest)
        self.rendered.append((phrase, time.perf_counter() - start))
