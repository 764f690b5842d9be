"""The Zombie Burrito advantage catalog: the shipped default, its documentation, and maker files."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from game.games.zombie_burrito import rules as zb

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "zombie-burrito.md"
TOML = ROOT / "game" / "games" / "zombie_burrito" / "data" / "catalog.toml"


def test_the_default_catalog_loads_with_both_sides_and_both_effect_primitives():
    catalog = zb.load_catalog()
    assert catalog["zombie"] and catalog["survivor"]
    for side in zb.SIDES:
        effects = catalog[side].values()
        assert any(e["lives"] for e in effects) and any(e["revives"] for e in effects)
        assert any(not e["lives"] and not e["revives"] for e in effects)  # a reminder-only kind
        assert all(e["text"] for e in effects)


def test_the_shipped_catalog_says_clearly_that_it_is_a_default():
    assert "THE DEFAULT, NOT THE PRINTED CARDS" in TOML.read_text(encoding="utf-8")
    assert "THIS IS A DEFAULT, NOT THE PRINTED CARDS" in DOC.read_text(encoding="utf-8")


def test_the_documented_default_table_matches_the_shipped_catalog():
    rows = re.findall(r"^\| (zombie|survivor) \| `([^`]+)` \| (\d+) \| (\d+) \| (.+) \|$",
                      DOC.read_text(encoding="utf-8"), re.MULTILINE)
    documented = {(side, kind): (int(lives), int(revives)) for side, kind, lives, revives, _ in rows}
    shipped = {(side, kind): (e["lives"], e["revives"]) for side in zb.SIDES for kind, e in zb.load_catalog()[side].items()}
    assert documented == shipped


def test_a_setup_without_a_catalog_gets_the_default():
    setup = zb.parse_setup({"event": "setup", "game": zb.name, "seats": 2})
    assert setup.options["catalog"] == zb.load_catalog()


def test_a_maker_catalog_file_loads_with_missing_effects_as_zero(tmp_path):
    path = tmp_path / "my-cards.toml"
    path.write_text('[zombie.brain-snack]\nrevives = 2\ntext = "Two revives."\n\n[survivor]\n', encoding="utf-8")
    assert zb.load_catalog(str(path)) == {
        "zombie": {"brain-snack": {"lives": 0, "revives": 2, "text": "Two revives."}}, "survivor": {}
    }


BAD_FILES = [
    ("[zombie.x\ntext = 'a'\n", "bad TOML"),
    ("[zombie.x]\nlives = 1\ntext = ''\n[survivor]\n", "zombie.x: 'text'"),
    ("[zombie.x]\nlives = 1\ntext = 3\n[survivor]\n", "zombie.x: 'text'"),
    ("[zombie.x]\nlives = -1\ntext = 'a'\n[survivor]\n", "zombie.x: 'lives' must be a whole number 0-99, got -1"),
    ("[zombie.x]\nlives = 1.5\ntext = 'a'\n[survivor]\n", "'lives' must be a whole number"),
    ("[zombie.x]\nrevives = true\ntext = 'a'\n[survivor]\n", "'revives' must be a whole number"),
    ("[zombie.x]\nlifes = 1\ntext = 'a'\n[survivor]\n", "unknown effect(s) 'lifes'"),
    ("[zombies.x]\ntext = 'a'\n[survivor]\n", "unknown side(s) 'zombies'"),
    ("[zombie.x]\ntext = 'a'\n", "missing side 'survivor'"),
    ('[zombie."two words"]\ntext = \'a\'\n[survivor]\n', "kind 'two words' must be 1-40 letters"),
    ("[zombie]\nx = 3\n[survivor]\n", "zombie.x: must be a table of effects"),
]


@pytest.mark.parametrize(("text", "problem"), BAD_FILES)
def test_a_bad_catalog_file_is_one_line_naming_the_file_the_kind_and_the_field(tmp_path, text, problem):
    path = tmp_path / "cards.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(zb.CatalogError) as caught:
        zb.load_catalog(str(path))
    message = str(caught.value)
    assert message.startswith(str(path)) and problem in message and "\n" not in message


def test_a_missing_catalog_file_is_a_clear_error(tmp_path):
    with pytest.raises(zb.CatalogError, match="cannot read"):
        zb.load_catalog(str(tmp_path / "nope.toml"))


def test_a_catalog_error_in_the_setup_names_the_option():
    with pytest.raises(zb.RuleInputError, match="setup option 'catalog': survivor.y: 'text'"):
        zb.parse_setup({"event": "setup", "game": zb.name, "seats": 2,
                        "options": {"catalog": {"zombie": {}, "survivor": {"y": {"lives": 1, "text": " "}}}}})


def test_text_is_an_optional_effect_that_defaults_to_the_kind_name(tmp_path):
    """The catalog contract lists ``text`` among the optional effects: without it the screen shows the kind."""
    path = tmp_path / "cards.toml"
    path.write_text("[zombie.brain-snack]\nlives = 1\n\n[survivor.duck]\n", encoding="utf-8")
    assert zb.load_catalog(str(path)) == {
        "zombie": {"brain-snack": {"lives": 1, "revives": 0, "text": "brain-snack"}},
        "survivor": {"duck": {"lives": 0, "revives": 0, "text": "duck"}},
    }
    setup = zb.parse_setup({"event": "setup", "game": zb.name, "seats": 2,
                            "options": {"catalog": {"zombie": {"z": {"lives": 1}}, "survivor": {}}}})
    assert setup.options["catalog"]["zombie"]["z"]["text"] == "z"


def test_each_setup_gets_its_own_copy_of_the_default_catalog():
    first = zb.parse_setup({"event": "setup", "game": zb.name, "seats": 2})
    first.options["catalog"]["zombie"]["thick-skull"]["lives"] = 9
    second = zb.parse_setup({"event": "setup", "game": zb.name, "seats": 2})
    assert second.options["catalog"]["zombie"]["thick-skull"]["lives"] == 1
