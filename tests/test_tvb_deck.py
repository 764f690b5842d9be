"""The Taco vs Burrito deck is data: the packaged TOML matches the field notes' best
evidence, a maker's own file is used as given, and a broken file is a one-line error naming the card.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest

from game.games.taco_vs_burrito import rules as tvb
from game.log import run_log

CONTRACT_NAMES = {
    "ingredient-1", "ingredient-2", "ingredient-3", "tummy-ache-1", "tummy-ache-2", "tummy-ache-3",
    "hot-sauce-boss", "health-inspector", "no-bueno", "crafty-crow", "trash-panda", "food-fight", "order-envy",
}


def test_the_packaged_deck_has_the_56_cards_of_the_field_notes():
    cat = tvb.load_catalog()
    counts = Counter(cat.full_deck())
    assert sum(counts.values()) == 56
    assert set(counts) == CONTRACT_NAMES
    assert [counts[f"ingredient-{v}"] for v in (1, 2, 3)] == [8, 8, 8]
    assert [counts[f"tummy-ache-{v}"] for v in (1, 2, 3)] == [2, 3, 3]
    assert {k: counts[k] for k in ("hot-sauce-boss", "health-inspector", "no-bueno", "crafty-crow",
                                  "trash-panda", "food-fight", "order-envy")} == {
        "hot-sauce-boss": 2, "health-inspector": 2, "no-bueno": 6, "crafty-crow": 4,
        "trash-panda": 4, "food-fight": 4, "order-envy": 2}


def test_card_values_come_from_the_deck_file():
    cat = tvb.load_catalog()
    assert [cat[f"tummy-ache-{v}"].value for v in (1, 2, 3)] == [-1, -2, -3]
    assert [cat[f"ingredient-{v}"].value for v in (1, 2, 3)] == [1, 2, 3]
    assert "Grasshopper" in cat["ingredient-1"].pictures


MAKER = """
[[card]]
name = "ingredient-5"
kind = "ingredient"
value = 5
count = 30
[[card]]
name = "hot-sauce-boss"
kind = "hot-sauce-boss"
count = 3
"""


def test_a_makers_own_deck_file_is_used_as_given(tmp_path):
    path = tmp_path / "my-box.toml"
    path.write_text(MAKER, encoding="utf-8")
    cat = tvb.load_catalog(str(path))
    setup = tvb.parse_setup({"event": "setup", "game": "taco-vs-burrito", "seats": 3}, catalog=cat)
    state = tvb.new_state(setup)
    assert sum(len(h) for h in state.hands) + len(state.pile) == 33
    assert tvb.meal_score(["ingredient-5", "hot-sauce-boss"] * 3, state.kinds, state.values) == 15 * 8


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("[[card]\n", "bad TOML"),
        ("x = 1\n", "no \\[\\[card\\]\\] tables"),
        ('[[card]]\nname = "Taco!"\nkind = "ingredient"\nvalue = 1\ncount = 1\n', "card 1: 'name' must be lowercase"),
        ('[[card]]\nname = "i"\nkind = "snack"\ncount = 1\n', "card 1 \\(i\\): 'kind' must be one of"),
        ('[[card]]\nname = "i"\nkind = "ingredient"\nvalue = 0\ncount = 1\n', "above 0"),
        ('[[card]]\nname = "t"\nkind = "tummy-ache"\nvalue = 2\ncount = 1\n', "below 0"),
        ('[[card]]\nname = "i"\nkind = "ingredient"\nvalue = 1\ncount = -1\n', "'count' must be a whole number >= 0"),
        ('[[card]]\nname = "crow"\nkind = "crafty-crow"\ncount = 1\n', "must be named 'crafty-crow'"),
        ('[[card]]\nname = "i"\nkind = "ingredient"\nvalue = 1\ncount = 1\ncolour = "red"\n', "unknown key"),
        ('[[card]]\nname = "i"\nkind = "ingredient"\nvalue = 1\ncount = 1\n[[card]]\nname = "i"\n'
         'kind = "ingredient"\nvalue = 2\ncount = 1\n', "card 2 \\(i\\): name used twice"),
    ],
)
def test_a_broken_deck_file_is_a_one_line_error_naming_the_file_and_card(tmp_path, text, match):
    path = tmp_path / "box.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(tvb.CatalogError, match=match) as info:
        tvb.load_catalog(str(path))
    assert str(info.value).startswith(str(path)) and "\n" not in str(info.value)


def test_a_missing_deck_file_is_a_one_line_error(tmp_path):
    with pytest.raises(tvb.CatalogError, match="cannot read"):
        tvb.load_catalog(str(tmp_path / "nope.toml"))


def test_without_a_deck_option_the_whole_box_is_shuffled_and_dealt():
    table, _ = run_log([json.dumps({"event": "setup", "game": "taco-vs-burrito", "seats": 6})])
    state = table.state
    assert Counter(c for zone in tvb.zones(state).values() for c in zone) == Counter(tvb.load_catalog().full_deck())
    assert all(len(h) >= 5 for h in state.hands) and all("health-inspector" not in h for h in state.hands)
