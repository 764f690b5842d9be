"""Fuzzing the log reader (hypothesis): any input gives a clean error or a valid result, never a traceback.

Three generators, all through ``burrito-table replay`` in-process (the file read, the decode, the parse, every
game's checks and rules, the summary and the evidence): raw bytes; JSON lines of hostile values in the fields the
games read; and the three demo logs mutated a field, a line or an order at a time, which reaches deep game states.
A clean error is exit 2 with one line on stderr naming the file and nothing on stdout; a valid result is exit 0
with output that is what it says (one JSON object for ``--json``).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import tempfile
from typing import Any

from fault_helpers import demo_lines
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.cli import main

GAMES = ("throw-throw-burrito", "zombie-burrito", "taco-vs-burrito")
EVENTS = ("set", "declare", "pick", "grab", "throw", "hit", "miss", "catch", "foul", "advantage", "cancel",
          "revive", "place", "play", "discard", "block", "choose", "setup")
FIELDS = ("t", "event", "seat", "burrito", "battle", "valid", "players", "kind", "team", "side", "card", "meal",
          "target", "item", "evidence", "game", "seats", "options")
DEMOS = {name: demo_lines(name) for name in GAMES}
SETTINGS = settings(max_examples=int(os.environ.get("BURRITO_FUZZ_EXAMPLES", "150")), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

hostile_scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 14), st.integers(), st.integers(min_value=10**300, max_value=10**400),
    st.floats(allow_nan=True, allow_infinity=True), st.sampled_from(EVENTS + GAMES + ("brawl", "war", "duel")),
    st.text(max_size=30), st.text(min_size=200, max_size=400).map(lambda s: s * 10),
)
hostile_values = st.recursive(
    hostile_scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(FIELDS), inner,
                                                                                  max_size=4), max_leaves=12)


def replay(data: bytes, *flags: str) -> None:
    """Run ``replay`` on ``data``; fail on anything but a clean error or a valid result."""
    with tempfile.NamedTemporaryFile("wb", suffix=".jsonl", delete=False) as handle:
        handle.write(data)
    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = main(["replay", handle.name, *flags])
    finally:
        os.unlink(handle.name)
    if status == 2:
        lines = err.getvalue().splitlines()
        assert len(lines) == 1 and lines[0].startswith(f"burrito-table: {handle.name}"), err.getvalue()[:2000]
        assert len(lines[0]) < 1000 and out.getvalue() == ""
        return
    assert status == 0, (status, err.getvalue()[:2000])
    assert err.getvalue() == ""
    if "--json" in flags:
        json.loads(out.getvalue())
    else:
        assert out.getvalue().strip()


FLAGS = st.sampled_from([(), ("--json",), ("--evidence",), ("--json", "--evidence")])


@SETTINGS
@given(data=st.binary(max_size=2000), flags=FLAGS)
def test_any_bytes_give_a_clean_error_or_a_result(data: bytes, flags: tuple[str, ...]) -> None:
    replay(data, *flags)


@SETTINGS
@given(head=st.sampled_from(GAMES).map(lambda g: DEMOS[g][0]), noise=st.binary(max_size=300),
       at=st.integers(0, 400), flags=FLAGS)
def test_bytes_spliced_into_a_real_setup_give_a_clean_error_or_a_result(head: str, noise: bytes, at: int,
                                                                         flags: tuple[str, ...]) -> None:
    text = head.encode() + b"\n"
    replay(text[:at] + noise + text[at:], *flags)


@st.composite
def hostile_logs(draw: st.DrawFn) -> list[str]:
    game = draw(st.sampled_from(GAMES))
    setup: dict[str, Any] = json.loads(DEMOS[game][0])
    if draw(st.booleans()):
        key = draw(st.sampled_from(("game", "seats", "options", "event", "players", "catalog", "deck", "seed")))
        target = setup["options"] if key in ("catalog", "deck", "seed") and isinstance(setup.get("options"), dict) \
            else setup
        target[key] = draw(hostile_values)
    rows = [json.dumps(setup)]
    t = 0.0
    for _ in range(draw(st.integers(0, 12))):
        t += draw(st.sampled_from((0.0, 0.01, 0.5, 3.0)))
        row: dict[str, Any] = {"t": t, "event": draw(st.sampled_from(EVENTS) | hostile_values)}
        for key in draw(st.lists(st.sampled_from(FIELDS), max_size=5)):
            row[key] = draw(hostile_values | st.integers(1, 6))
        rows.append(json.dumps(row))
    return rows


@SETTINGS
@given(rows=hostile_logs(), flags=FLAGS)
def test_json_lines_of_hostile_values_give_a_clean_error_or_a_result(rows: list[str], flags: tuple[str, ...]) -> None:
    replay("\n".join(rows).encode(), *flags)


@st.composite
def mutated_demos(draw: st.DrawFn) -> list[str]:
    """A demo log with a few mutations: a field given a hostile value or dropped, a line dropped, doubled or moved."""
    rows = list(DEMOS[draw(st.sampled_from(GAMES))])
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, len(rows) - 1))
        how = draw(st.sampled_from(("value", "drop-field", "drop-line", "double", "move", "truncate")))
        if how in ("value", "drop-field"):
            try:
                obj = json.loads(rows[i])
            except ValueError:  # a line an earlier mutation truncated
                continue
            key = draw(st.sampled_from(sorted(obj) + ["evidence", "players"]))
            if how == "value":
                obj[key] = draw(hostile_values)
            else:
                obj.pop(key, None)
            rows[i] = json.dumps(obj)
        elif how == "drop-line":
            del rows[i]
        elif how == "double":
            rows.insert(i, rows[i])
        elif how == "move":
            rows.insert(draw(st.integers(0, len(rows))), rows.pop(i))
        else:
            rows[i] = rows[i][: draw(st.integers(0, len(rows[i])))]
        if not rows:
            break
    return rows


@SETTINGS
@given(rows=mutated_demos(), flags=FLAGS)
def test_mutated_demo_logs_give_a_clean_error_or_a_result(rows: list[str], flags: tuple[str, ...]) -> None:
    replay("\n".join(rows).encode(), *flags)
