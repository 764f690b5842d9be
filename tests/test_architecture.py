"""The layout keeps itself: no import cycles, dependencies pointing one way, pure rules, games only as plugins.

The import graph is read from the source with ``ast`` (nothing is imported to build it). Every ``import`` counts,
also those inside functions, since a lazy import hides a cycle rather than removing it; only imports under
``if TYPE_CHECKING:`` are left out, as they never run.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("game", "hardware", "firmware_bridge")

#: what a game's rules.py may import: the rules base and the standard library's pure modules (no clock, no I/O, no
#: global random, no devices)
PURE_STDLIB = {
    "__future__", "abc", "bisect", "collections", "collections.abc", "copy", "dataclasses", "enum", "fractions",
    "functools", "heapq", "itertools", "math", "operator", "re", "statistics", "string", "tomllib", "typing",
}
RULES_BASE = {"game.rules.base"}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    out = {}
    for pkg in PACKAGES:
        for path in sorted((ROOT / pkg).rglob("*.py")):
            out[_module_name(path)] = path
    return out


MODULES = _modules()


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def imports_of(name: str, path: Path) -> set[str]:
    """Every module ``name`` imports (absolute names; ``from x import y`` is ``x.y`` when that is a module)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    is_package = path.name == "__init__.py"
    out: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                here = name.split(".") if is_package else name.split(".")[:-1]
                here = here[: len(here) - (node.level - 1)]
                base = ".".join([*here, base] if base else here)
            for alias in node.names:
                full = f"{base}.{alias.name}"
                out.add(full if full in MODULES else base)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return out


GRAPH = {name: {m for m in imports_of(name, path) if m in MODULES and m != name} for name, path in MODULES.items()}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle as a list of modules (first == last), or None."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def dfs(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt):], nxt]
            if nxt not in state:
                found = dfs(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = dfs(node)
            if found:
                return found
    return None


def test_the_checker_finds_a_planted_cycle() -> None:
    """The cycle finder is not vacuous: a three-module ring is reported."""
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_no_import_cycle_in_the_packages() -> None:
    cycle = find_cycle(GRAPH)
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


@pytest.mark.parametrize(("low", "high"), [("hardware", "game"), ("firmware_bridge", "game"),
                                           ("hardware", "firmware_bridge"), ("firmware_bridge", "hardware")])
def test_dependencies_point_one_way(low: str, high: str) -> None:
    """``game`` may use ``hardware`` and ``firmware_bridge``; they never use ``game`` or each other."""
    bad = sorted(f"{m} -> {d}" for m, deps in GRAPH.items() if m.split(".")[0] == low
                 for d in deps if d.split(".")[0] == high)
    assert not bad, bad


def test_the_table_app_knows_games_only_through_the_registry() -> None:
    """Nothing outside ``game.games`` imports a game's package: the app, the log tools and the CLI ask the registry."""
    bad = sorted(f"{m} -> {d}" for m, deps in GRAPH.items() if not m.startswith("game.games")
                 for d in deps if d.startswith("game.games"))
    assert not bad, bad


def test_a_game_does_not_reach_into_another_game_except_zombie_burrito_onto_throw_throw_burrito() -> None:
    """Games are independent plugins; Zombie Burrito's demo players extend Throw Throw Burrito's, and say so."""
    allowed = {("zombie_burrito", "throw_throw_burrito")}
    bad = []
    for m, deps in GRAPH.items():
        if not m.startswith("game.games.") or m.count(".") < 3:
            continue
        own = m.split(".")[2]
        for d in deps:
            if d.startswith("game.games.") and d.count(".") >= 2:
                other = d.split(".")[2]
                if other != own and (own, other) not in allowed:
                    bad.append(f"{m} -> {d}")
    assert not bad, bad


RULES = sorted(p for p in (ROOT / "game" / "games").glob("*/rules.py"))


def test_every_game_folder_has_the_same_files() -> None:
    """rules.py, buttons.py, screens.py, bots.py and an __init__.py exporting GAME, in every game's folder."""
    folders = sorted(p for p in (ROOT / "game" / "games").iterdir() if (p / "__init__.py").exists())
    assert len(folders) >= 3
    for folder in folders:
        for name in ("__init__.py", "rules.py", "buttons.py", "screens.py", "bots.py"):
            assert (folder / name).exists(), f"{folder.name} has no {name}"
        assert "GAME" in (folder / "__init__.py").read_text(encoding="utf-8")


def impure_imports(path: Path) -> list[str]:
    """The modules ``path`` imports beyond the stdlib's pure ones and the rules base (any import form, anywhere)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            found.add(node.module or "")
    return sorted(m for m in found if m not in PURE_STDLIB | RULES_BASE)


@pytest.mark.parametrize("path", RULES, ids=lambda p: p.parent.name)
def test_the_rules_stay_pure(path: Path) -> None:
    """A rules.py imports only the stdlib's pure modules and the rules base: no pygame, gpiozero, serial, sqlite3,
    time, random, os or any other I/O."""
    assert impure_imports(path) == [], f"{path.relative_to(ROOT)} imports {impure_imports(path)}"


def test_the_purity_check_would_catch_an_impure_import(tmp_path: Path) -> None:
    """A planted ``import time`` inside a function, or ``from random import ...``, is found."""
    planted = tmp_path / "rules.py"
    planted.write_text("from game.rules.base import Cue\nfrom random import choice\n\n"
                       "def f():\n    import time\n    return time\n")
    assert impure_imports(planted) == ["random", "time"]
