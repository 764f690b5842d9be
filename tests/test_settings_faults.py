"""House settings under hostile files (docs/party-host.md: a damaged file never stops the table): deep nesting, huge
numbers, NaN and Infinity, bytes that are not UTF-8, wrong types, unknown keys. Each problem is one bounded line
naming the file and the key, the table starts with the defaults for what it could not use, and a file it could not
read is never overwritten by a change made at the table."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from game.table import settings as hs
from game.table.settings import HouseSettings


def _one_problem(path: Path, text: bytes) -> tuple[HouseSettings, str]:
    path.write_bytes(text)
    settings, problems = hs.load(path)
    assert len(problems) == 1, problems
    line = problems[0]
    assert str(path) in line and "\n" not in line and len(line) < len(str(path)) + 300, line
    return settings, line


@pytest.mark.parametrize(("text", "says"), [
    (b'{"volume": ' + b"[" * 30_000 + b"]" * 30_000 + b"}", "nested too deeply"),
    (b'{"volume": 1' + b"0" * 5000 + b"}", "not usable JSON"),
    (b'{"volume": 5, "voice": true' + b" " * 100_000 + b"}" + b" " * 70_000, "too large"),
    (b'{"volume": "\xff\xfe"}', "not UTF-8"),
    (b'{"volume": 5,', "line 1: not JSON"),
    (b"[1, 2, 3]", "expected an object of settings"),
    (b'"' + b"\\u001b[2J" * 5_000 + b'"', "expected an object of settings"),
])
def test_a_file_that_cannot_be_read_gives_the_defaults_and_one_line(tmp_path: Path, text: bytes, says: str) -> None:
    """Today deep nesting raised RecursionError and a 5,000-digit number ValueError: a traceback at start."""
    settings, line = _one_problem(tmp_path / "settings.json", text)
    assert settings == HouseSettings() and says in line and "\x1b" not in line


@pytest.mark.parametrize(("key", "value"), [
    ("volume", "NaN"), ("volume", "Infinity"), ("tie_window_ms", "-Infinity"), ("declare_window_ms", "1e999"),
    ("countdown_s", "1" + "0" * 4000), ("volume", '"8"'), ("voice", "1"), ("game", '["zombie-burrito"]'),
    ("brightness", "true"), ("game", '{"a": 1}'), ("game", '"' + "x" * 50_000 + '"'),
])
def test_a_bad_value_names_its_key_and_that_setting_keeps_its_default(tmp_path: Path, key: str, value: str) -> None:
    path = tmp_path / "settings.json"
    settings, line = _one_problem(path, f'{{"volume": 3, "{key}": {value}}}'.encode() if key != "volume"
                                  else f'{{"{key}": {value}, "brightness": 60}}'.encode())
    assert f"'{key}'" in line
    assert getattr(settings, key) == getattr(HouseSettings(), key)
    kept = ("volume", 3) if key != "volume" else ("brightness", 60)
    assert getattr(settings, kept[0]) == kept[1]  # the good settings beside it are kept


def test_unknown_keys_are_one_bounded_line_each_and_at_most_six(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    raw = {"volume": 4, "\x1b[2J" + "k" * 50_000: 1, **{f"extra{i}": i for i in range(50)}}
    path.write_text(json.dumps(raw), encoding="utf-8")
    settings, problems = hs.load(path)
    assert settings.volume == 4
    assert len(problems) == 6 and problems[-1].endswith("46 more unknown settings ignored")
    assert all(str(path) in p and len(p) < len(str(path)) + 120 and "\x1b" not in p for p in problems)


@pytest.mark.parametrize("text", [b"{not json", b'{"volume": 1' + b"0" * 5000 + b"}", b"\xff\xfe", b"[]"])
def test_a_change_at_the_table_never_overwrites_a_file_that_could_not_be_read(tmp_path: Path, text: bytes) -> None:
    """The host's file is theirs to mend: today the first change in the table menu replaced it with the defaults.
    ``save`` raises an ``OSError`` the table menu already logs ("house settings not saved")."""
    path = tmp_path / "settings.json"
    path.write_bytes(text)
    settings, _ = hs.load(path)
    with pytest.raises(OSError, match="could not be read at start: left as it is"):
        hs.save(hs.bump(settings, "volume"), path)
    assert path.read_bytes() == text
    assert [p.name for p in tmp_path.iterdir()] == ["settings.json"]  # no temporary left either


def test_a_file_with_a_bad_value_is_readable_and_a_change_writes_it_whole(tmp_path: Path) -> None:
    """Only an unreadable file is left alone: one with a value out of range is the table's to correct."""
    path = tmp_path / "settings.json"
    path.write_text('{"volume": 99, "brightness": 40}', encoding="utf-8")
    settings, problems = hs.load(path)
    assert len(problems) == 1 and settings.brightness == 40
    hs.save(hs.bump(settings, "volume"), path)
    assert hs.load(path) == (HouseSettings(volume=9, brightness=40), [])
