"""The seeded Zombie Burrito bot (``game.games.zombie_burrito.sim``): full games that replay to a winner."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from game.cli import main
from game.games.zombie_burrito.sim import simulate, to_jsonl
from game.log import run_log


def replay(log):
    table, cues = run_log(json.dumps(e) for e in log)
    return table.summary(), cues


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_a_full_simulated_game_replays_to_a_winner_with_three_team_markers(seats):
    for seed in range(6):
        log = simulate(seats=seats, seed=seed)
        summary, _ = replay(log)
        winner = summary["winner"]
        assert winner in ("zombies", "survivors"), (seats, seed)
        assert summary["markers"][winner] == 3
        loser = "survivors" if winner == "zombies" else "zombies"
        assert summary["markers"][loser] < 3
        assert all(b["winner"] for b in summary["battles"])
        assert sum(summary["markers"].values()) == len(summary["battles"])


def test_a_simulated_game_replays_through_the_cli(tmp_path, capsys):
    path = tmp_path / "sim.jsonl"
    path.write_text(to_jsonl(simulate(seats=5, seed=42)), encoding="utf-8")
    assert main(["replay", str(path), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["game"] == "zombie-burrito" and summary["winner"] is not None
    assert main(["replay", str(path)]) == 0
    assert "Winner: the" in capsys.readouterr().out


def test_the_same_seed_plays_the_same_game_and_another_seed_another():
    assert simulate(seats=4, seed=7) == simulate(seats=4, seed=7)
    assert simulate(seats=4, seed=7) != simulate(seats=4, seed=8)


def test_simulated_games_use_every_event_kind_and_rule():
    kinds: Counter[str] = Counter()
    restarts = revived = false_calls = cancelled = 0
    for seed in range(25):
        log = simulate(seats=4 + seed % 3, seed=seed)
        kinds.update(e["event"] for e in log[1:])
        summary, cues = replay(log)
        restarts += sum(b["restarts"] for b in summary["battles"])
        false_calls += sum(1 for b in summary["battles"] if not b["out"])
        text = "\n".join(c.text for c in cues)
        revived += text.count("REVIVE!")
        cancelled += text.count(" set (automatic)")
    assert set(kinds) == {"advantage", "declare", "cancel", "grab", "throw", "hit", "catch", "miss", "foul", "revive"}
    assert restarts and revived and false_calls and cancelled


def test_the_bot_plays_with_given_teams_a_custom_catalog_and_tie_window():
    catalog = {"zombie": {"bite": {"revives": 2, "text": "Two revives."}},
               "survivor": {"shotgun": {"lives": 1, "text": "One extra hit."}}}
    teams = {"zombies": [2, 3, 5], "survivors": [1, 4]}
    log = simulate(seats=5, seed=3, teams=teams, catalog=catalog, tie_window_ms=100)
    summary, _ = replay(log)
    assert summary["teams"] == {"zombies": [2, 3, 5], "survivors": [1, 4]} and summary["winner"]
    kinds = {e["kind"] for e in log if e["event"] == "advantage"}
    assert kinds <= {"bite", "shotgun"}


def test_the_examples_in_the_zombie_modules_docstrings_run():
    import doctest

    from game.games.zombie_burrito import rules as zombie_burrito
    from game.games.zombie_burrito import sim as sim_zombie

    for module in (zombie_burrito, sim_zombie):
        result = doctest.testmod(module)
        assert result.attempted > 0 and result.failed == 0, module.__name__
