"""Hostile logs: ``replay`` answers with one bounded line and exit 2, or a result; never a traceback."""

from __future__ import annotations

import json

import pytest
from fault_helpers import cli, demo_lines, one_line_error

from game.referee.evidence import evidence_lines
from game.rules.base import RuleInputError

TTB_SETUP = '{"event": "setup", "game": "throw-throw-burrito", "seats": 4}'


def replay(tmp_path, lines: list[str], *extra: str):
    path = tmp_path / "hostile.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return cli("replay", str(path), *extra)


@pytest.mark.parametrize(("digits", "problem"), [
    (400, "field 't' is too large for a number, got a whole number of 400 digits"),
    (5000, "bad JSON: Exceeds the limit (4300 digits)"),
])
def test_a_time_of_hundreds_or_thousands_of_digits_is_bad_input_on_its_line(tmp_path, digits, problem):
    done = replay(tmp_path, [TTB_SETUP, '{"t": ' + "9" * digits + ', "event": "set", "seat": 1}'])
    assert done.returncode == 2 and done.stdout == ""
    line = one_line_error(done.stderr, "hostile.jsonl")
    assert "line 2" in line and problem in line and len(line) < 300


def test_two_hundred_thousand_nested_brackets_are_bad_json_not_a_recursion_error(tmp_path):
    done = replay(tmp_path, [TTB_SETUP, "[" * 200_000])
    assert done.returncode == 2
    assert "line 2: bad JSON: nested too deeply" in one_line_error(done.stderr, "hostile.jsonl")


def test_a_taco_deck_entry_that_is_an_object_is_bad_input_naming_the_card(tmp_path):
    setup = json.loads(demo_lines("taco-vs-burrito")[0])
    setup["options"]["deck"] = ["ingredient-1"] * 20 + [{"name": "ingredient-2"}]
    done = replay(tmp_path, [json.dumps(setup)])
    assert done.returncode == 2
    assert "setup option 'deck': card 21 is {'name': 'ingredient-2'}, not a card of" in one_line_error(
        done.stderr, "hostile.jsonl")


def test_replay_evidence_shows_a_hit_whose_evidence_lacks_badge_t(tmp_path):
    lines = [TTB_SETUP,
             '{"t": 1, "event": "declare", "seat": 1, "battle": "duel"}',
             '{"t": 2, "event": "pick", "seat": 1, "players": [1, 2]}',
             '{"t": 3, "event": "throw", "seat": 1, "burrito": 1}',
             '{"t": 4, "event": "hit", "burrito": 1, "seat": 2, "evidence": {"badge_device": "badge-2", "gap_ms": "x",'
             ' "badges_clear": {"badge-1": null}, "answers": [1], "fighters": 7, "decided": "' + "d" * 5000 + '"}}']
    done = replay(tmp_path, lines, "--evidence")
    assert done.returncode == 0, done.stderr
    assert "badge-2 impact at an unknown time" in done.stdout
    assert "badge-1 at an unknown time" in done.stdout and "fighting: seats 7" in done.stdout
    assert max(len(x) for x in done.stdout.splitlines()) < 400


def test_evidence_of_any_shape_gives_lines_not_an_exception():
    for evidence in ({}, {"badge_device": "b", "badge_t": "soon"}, {"burrito_device": "x", "launch_t": float("nan")},
                     {"question": "who?", "answers": "all"}, {"badges_clear": {"b": [1]}}, {"fighters": {"a": 1}}):
        assert evidence_lines({"t": 1.0, "event": "hit", "evidence": evidence})[-1].startswith("  confirmed")


def test_a_50_mb_event_name_is_not_echoed_whole(tmp_path):
    """Every value an error repeats is cut: one line of a few hundred characters, saying how long it was."""
    huge = "x" * 50_000_000
    done = replay(tmp_path, [TTB_SETUP, '{"t": 1, "event": "' + huge + '", "seat": 1}'])
    assert done.returncode == 2
    line = one_line_error(done.stderr, "hostile.jsonl")
    assert len(line) < 300 and "(50000000 characters)" in line


def test_every_rules_error_message_is_one_bounded_line():
    from game.rules.base import brief

    err = RuleInputError("unknown event " + "y" * 100_000 + "\nsecond line")
    assert len(str(err)) <= 400 and "\n" not in str(err)
    assert brief("z" * 10**6).endswith("(1000000 characters)") and len(brief("z" * 10**6)) < 100
    nested: list = []
    for _ in range(100_000):
        nested = [nested]
    assert brief(nested) == "[[[[...]]]]"
    assert brief(-(10 ** 5000)) == "a whole number of about 5001 digits"
