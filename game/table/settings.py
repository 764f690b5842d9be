"""House settings: what the host of the party sets in the table menu, kept across restarts.

Stored as JSON in ``$XDG_CONFIG_HOME/burrito-table/settings.json`` (default ``~/.config/...``), written
atomically (a power cut leaves the old file or the new one, never half of one). A damaged file or a value out of
range never stops the table: the default is used for that setting and one line says which file, which key, why.

The declaration and tie windows change play, so they are bounded to the ranges the rules decisions argue for
(docs/rules-decisions.md D1, D2) and go into the next game's setup line, where the journal keeps them; they never
change a game in progress.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any

from game.rules.base import brief


def games() -> list[str]:
    """The installed games, in lobby order (the registry's)."""
    from game.registry import GAMES

    return list(GAMES)


@dataclass(frozen=True)
class HouseSettings:
    volume: int = 8  # 0..10, the mixer's level
    voice: bool = True  # the spoken announcer (off: the jingles)
    countdown_s: float = 2.0  # how long "3, 2, 1, Burrito!" stays on screen
    declare_window_ms: int = 500  # D2: calls this close merge into one War of everyone
    tie_window_ms: int = 45  # D1, Z10: hits this close are simultaneous
    brightness: int = 100  # % of each seat light's steady level
    game: str = ""  # the game the lobby offers first ("": the first installed one)


#: numeric settings: (lowest, highest, step). D1: the épée lockout is 45 +- 5 ms and device timestamps are good to a
#: few ms, so 30-60 ms keeps "the same moment" a moment; D2: a person reacts to a shout in 0.25-0.5 s, so 250-750 ms
#: merges only calls made before their callers heard each other.
RANGES: dict[str, tuple[float, float, float]] = {
    "volume": (0, 10, 1),
    "countdown_s": (1.5, 5.0, 0.5),
    "declare_window_ms": (250, 750, 50),
    "tie_window_ms": (30, 60, 5),
    "brightness": (20, 100, 20),
}

#: the table menu's settings page, in order; "switch" is the action that ends the game for another
SETTINGS_ITEMS = ("volume", "voice", "countdown_s", "declare_window_ms", "tie_window_ms", "brightness", "game", "switch")

LABELS = {
    "volume": "Volume", "voice": "Voice", "countdown_s": "Countdown", "declare_window_ms": "Declaration window",
    "tie_window_ms": "Tie window", "brightness": "Seat-light brightness", "game": "Game in the lobby",
}


def settings_path(env: dict[str, str] | None = None) -> Path:
    env = dict(os.environ) if env is None else env
    base = env.get("XDG_CONFIG_HOME") or os.path.join(env.get("HOME", os.path.expanduser("~")), ".config")
    return Path(base) / "burrito-table" / "settings.json"


#: a settings file is a few hundred bytes; a bigger one is not one the table wrote
MAX_BYTES = 64 * 1024


class SettingsFileError(OSError):
    """The settings file could not be read: it is left as it is, never overwritten with the defaults."""


def _read(path: Path) -> tuple[dict[str, Any] | None, str]:
    """The file's object, or None and why it cannot be used (one line, naming the place)."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        return None, f"cannot read ({exc.strerror or exc})"
    if len(data) > MAX_BYTES:
        return None, f"{len(data)} bytes: too large for a settings file (at most {MAX_BYTES})"
    try:
        raw = json.loads(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        return None, f"byte {exc.start}: not UTF-8 text"
    except json.JSONDecodeError as exc:
        return None, f"line {exc.lineno}: not JSON ({exc.msg})"
    except (ValueError, RecursionError) as exc:  # a 5,000-digit number; nesting deeper than Python recurses
        why = "nested too deeply" if isinstance(exc, RecursionError) else brief(str(exc), 60)
        return None, f"not usable JSON ({why})"
    if not isinstance(raw, dict):
        return None, f"expected an object of settings, got {brief(raw, 40)}"
    return raw, ""


def load(path: Path) -> tuple[HouseSettings, list[str]]:
    """The settings in ``path`` (defaults if there is no file) and one line per problem found in it."""
    if not path.exists():
        return HouseSettings(), []
    raw, why = _read(path)
    if raw is None:
        return HouseSettings(), [f"{path}: {why}: default house settings (the file is left as it is)"]
    problems: list[str] = []
    values: dict[str, Any] = {}
    defaults = HouseSettings()
    for f in fields(HouseSettings):
        if f.name not in raw:
            continue
        value = raw[f.name]
        bad = check(f.name, value)
        if bad:
            problems.append(f"{path}: '{f.name}': {bad}: using {getattr(defaults, f.name)!r}")
        else:
            values[f.name] = value
    unknown = sorted(set(raw) - {f.name for f in fields(HouseSettings)})
    for key in unknown[:5]:
        problems.append(f"{path}: unknown setting {brief(key, 40)} ignored")
    if len(unknown) > 5:
        problems.append(f"{path}: {len(unknown) - 5} more unknown settings ignored")
    return replace(defaults, **values), problems


def check(name: str, value: Any) -> str | None:
    """Why ``value`` is not allowed for setting ``name``, or None."""
    if name == "voice":
        return None if type(value) is bool else f"expected true or false, got {brief(value, 40)}"
    if name == "game":
        return None if value == "" or (isinstance(value, str) and value in games()) else (
            f"expected one of {', '.join(games())}, got {brief(value, 40)}")
    lo, hi, step = RANGES[name]
    # the range check first: it refuses NaN and infinity, and never turns a 4,000-digit int into a float
    if type(value) not in (int, float) or not lo <= value <= hi:
        return f"expected a number {lo:g}..{hi:g}, got {brief(value, 40)}"
    if abs((value - lo) / step - round((value - lo) / step)) > 1e-9:
        return f"expected a step of {step:g} from {lo:g}, got {value!r}"
    return None


def save(settings: HouseSettings, path: Path) -> None:
    """Atomically: a temporary file beside it, flushed to disk, then renamed over it.

    A file there that cannot be read (damaged, not JSON, another program's) is the user's to mend: it is never
    replaced, and ``SettingsFileError`` (an ``OSError``) says so; the change lasts until the table stops."""
    if path.exists() and _read(path)[0] is None:
        raise SettingsFileError(f"{path} could not be read at start: left as it is (mend or remove it to keep changes)")
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".settings-", suffix=".json", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(asdict(settings), handle, indent=1, sort_keys=True)
            handle.write("\n")
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def bump(settings: HouseSettings, name: str, direction: int = 1) -> HouseSettings:
    """The next value of one setting (``direction`` +1 / -1), wrapping round at the ends of its range."""
    value = getattr(settings, name)
    if name == "voice":
        return replace(settings, voice=not value)
    if name == "game":
        names = games()
        here = names.index(value) if value in names else (-1 if direction > 0 else 0)
        return replace(settings, game=names[(here + direction) % len(names)])
    lo, hi, step = RANGES[name]
    new = value + direction * step
    if new > hi + 1e-9:
        new = lo
    elif new < lo - 1e-9:
        new = hi
    new = round(new, 3)
    changed: dict[str, Any] = {name: int(new) if isinstance(value, int) else float(new)}
    return replace(settings, **changed)


def shown(settings: HouseSettings, name: str) -> str:
    """ "Tie window: 45 ms" for the menu."""
    value = getattr(settings, name)
    if name == "game":
        text = title_of(str(value) or (games() or [""])[0])
    elif name == "voice":
        text = "on" if value else "off (jingles)"
    else:
        unit = {"volume": "/10", "countdown_s": " s", "brightness": " %"}.get(name, " ms")
        text = f"{value:g}{unit}"
    return f"{LABELS[name]}: {text}"


def title_of(game: str) -> str:
    from game.registry import GAMES

    mode = GAMES.get(game)
    return mode.title if mode is not None else game


def setup_options(settings: HouseSettings, game: str) -> dict[str, int]:
    """The setup-line options these settings give a new game: only the windows, only where they differ from the
    rules' defaults (so an untouched table writes the same setup lines as before)."""
    from game.registry import GAMES

    defaults = HouseSettings()
    mode = GAMES.get(game)
    keys = mode.house_options if mode is not None else ()
    return {k: getattr(settings, k) for k in keys if getattr(settings, k) != getattr(defaults, k)}
