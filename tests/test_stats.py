"""Match history and player stats from the journal (``burrito-table stats``): each figure checked against the rules'
own summary or the events that make it, names from the setup line's ``players``, anonymous seats left out."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from game.cli import main
from game.journal import Journal, JournaledTable
from game.log import run_log
from game.stats import game_record, journal_records, report

ROOT = Path(__file__).resolve().parent.parent
NAMES = {"1": {"name": "Ana", "colour": "#FF0000"}, "2": {"name": "Bo"}, "4": {"name": "Cy"}}


def demo(game: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    lines = [json.loads(ln) for ln in (ROOT / "game/games" / game.replace("-", "_") / "data/demo.jsonl").read_text().splitlines() if ln.strip()]
    return dict(lines[0], players={k: v for k, v in NAMES.items() if int(k) <= lines[0]["seats"]}), lines[1:]


def record_game(journal: Journal, setup: dict[str, Any], events: list[dict[str, Any]]) -> int:
    live, _ = JournaledTable.new(journal, setup)
    for ev in events:
        live.submit(ev)
    live.finish()
    journal.mark_finished(live.game_id)
    return live.game_id


@pytest.fixture
def journal_path(tmp_path: Path) -> str:
    path = str(tmp_path / "journal.db")
    with Journal(path) as journal:
        for game in ("throw-throw-burrito", "zombie-burrito", "taco-vs-burrito"):
            record_game(journal, *demo(game))
    return path


def test_bruises_taken_add_up_to_the_rules_bruises_and_a_given_bruise_is_always_someone_elses_taken() -> None:
    setup, events = demo("throw-throw-burrito")
    rec = game_record(1, setup, events)
    table, _ = run_log([json.dumps(setup)] + [json.dumps(e) for e in events])
    summary = table.summary()
    for s in rec.seats:
        # Scoring: "a Burrito Bruise -1": the rules count them per round.
        assert s.bruises_taken == sum(r["bruises"][str(s.seat)] for r in summary["rounds"])
    assert sum(s.bruises_given for s in rec.seats) <= sum(s.bruises_taken for s in rec.seats)
    assert sum(s.bruises_given for s in rec.seats) > 0


def test_hits_are_credited_to_the_thrower_and_counted_against_the_seat_hit() -> None:
    setup, events = demo("throw-throw-burrito")
    rec = game_record(1, setup, events)
    _, cues = run_log([json.dumps(setup)] + [json.dumps(e) for e in events])
    # The rules' own calls: "HIT! Seat 4 is hit by seat 3" (a burrito touching a non-fighter is a miss).
    calls = [c.text.split() for c in cues if c.kind == "say" and c.text.startswith("HIT! Seat")]
    assert sum(s.hits for s in rec.seats) == len(calls) > 0
    for s in rec.seats:
        assert s.hits == sum(1 for w in calls if w[-1] == str(s.seat))
        assert s.hit_by == sum(1 for w in calls if w[2] == str(s.seat))
        assert s.catches == sum(1 for e in events if e["event"] == "catch" and e["seat"] == s.seat)
        assert s.throws == sum(1 for e in events if e["event"] == "throw" and e["seat"] == s.seat)


def test_fastest_call_is_the_time_from_the_battle_call_to_the_throwers_hit_and_the_hit_gives_the_bruise() -> None:
    # Brawl: "the two players on either side of the player who called it" fight: seats 2 and 3 of 3.
    setup = {"event": "setup", "game": "throw-throw-burrito", "seats": 3, "players": {"2": {"name": "Bo"}}}
    events = [{"t": 1.0, "event": "declare", "seat": 1, "battle": "brawl"},
              {"t": 1.6, "event": "grab", "seat": 2, "burrito": 1},
              {"t": 1.8, "event": "throw", "seat": 2, "burrito": 1},
              {"t": 2.25, "event": "hit", "burrito": 1, "seat": 3}]
    rec = game_record(1, setup, events)
    bo, third = rec.seats[1], rec.seats[2]
    assert bo.name == "Bo" and third.name is None
    assert bo.fastest_call_s == 1.25 and bo.hits == 1 and bo.bruises_given == 1
    assert third.bruises_taken == 1 and third.hit_by == 1


def test_winners_of_each_game_get_the_win_a_zombie_burrito_win_goes_to_the_whole_team(journal_path: str) -> None:
    ttb, zb, tvb = journal_records(journal_path)
    assert ttb.winners == [4] and [s.wins for s in ttb.seats] == [0, 0, 0, 1]
    assert zb.winners == sorted(zb.winners) and len(zb.winners) == 2
    assert [s.seat for s in zb.seats if s.wins] == zb.winners
    assert tvb.winners == [1]
    assert all(r.finished for r in (ttb, zb, tvb))


def test_no_bueno_races_won_are_the_journaled_blocks_and_the_fastest_answers_the_waiting_card() -> None:
    setup, events = demo("taco-vs-burrito")
    rec = game_record(1, setup, events)
    for s in rec.seats:
        assert s.no_bueno_won == sum(1 for e in events if e["event"] == "block" and e["seat"] == s.seat)
    # seat 2 blocked the crafty crow played at 10.78 at 11.783: 1.003 s
    assert rec.seats[1].fastest_no_bueno_s == 1.003


def test_players_are_summed_over_games_by_name_and_anonymous_seats_have_no_player_line(journal_path: str) -> None:
    rep = report(journal_records(journal_path))
    names = [p["name"] for p in rep["players"]]
    assert sorted(names) == ["Ana", "Bo", "Cy"]
    ana = next(p for p in rep["players"] if p["name"] == "Ana")
    assert ana["games"] == 3  # seat 1 in all three games
    assert rep["anonymous_seats"] == 3  # seat 3 in each game
    wins = [p["wins"] for p in rep["players"]]
    assert wins == sorted(wins, reverse=True)  # best first


def test_stats_cli_json_player_and_since_filters(journal_path: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["stats", "--journal", journal_path, "--json"]) == 0
    rep = json.loads(capsys.readouterr().out)
    assert rep["version"] == 1 and len(rep["games"]) == 3
    assert main(["stats", "--journal", journal_path, "--json", "--player", "Cy"]) == 0
    cy = json.loads(capsys.readouterr().out)
    assert [p["name"] for p in cy["players"]] == ["Cy"] and len(cy["games"]) == 2  # TvB has 3 seats: no seat 4
    assert main(["stats", "--journal", journal_path, "--json", "--since", "2999-01-01"]) == 0
    assert json.loads(capsys.readouterr().out)["games"] == []
    assert main(["stats", "--journal", journal_path]) == 0
    text = capsys.readouterr().out
    assert "Match history (3 games)" in text and "Ana" in text


@pytest.mark.parametrize("args, message", [
    (["--since", "last tuesday"], "--since: expected a date"),
    (["--journal", "/nonexistent/j.db"], "no such file"),
])
def test_stats_cli_bad_input_is_one_line_and_exit_2(args: list[str], message: str, journal_path: str) -> None:
    argv = ["stats", *args] if "--journal" in args else ["stats", "--journal", journal_path, *args]
    proc = subprocess.run([sys.executable, "-m", "game", *argv], capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 2 and proc.stdout == ""
    assert len(proc.stderr.strip().splitlines()) == 1 and message in proc.stderr


def test_a_damaged_game_names_the_journal_and_game(journal_path: str, capsys: pytest.CaptureFixture[str]) -> None:
    db = sqlite3.connect(journal_path)
    with db:
        db.execute("UPDATE events SET body = '{\"t\": 1.0, \"event\": \"juggle\"}' WHERE game_id = 2 AND seq = 3")
    db.close()
    assert main(["stats", "--journal", journal_path]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"burrito-table: stats: journal {journal_path}: game 2") and "\n" not in err


def test_stats_screenshot_draws_the_lobby_stats_screen(journal_path: str, tmp_path: Path) -> None:
    import pygame

    png = tmp_path / "stats.png"
    assert main(["stats", "--journal", journal_path, "--screenshot", str(png)]) == 0
    assert pygame.image.load(str(png)).get_size() == (1280, 720)
