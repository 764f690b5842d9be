"""Suite-wide settings: everything runs headless, on both cores (pytest-xdist), each test in a home of its own.

The fast tier leaves out the tests marked ``slow`` (whole games played through the app, soaks, SIGKILL loops, the
browser, MicroPython, mypy): ``.venv/bin/python -m pytest -m "not slow"``, or ``BURRITO_FAST=1`` in the environment.
Tests in files that do not carry the marker themselves are marked here, by module and test name.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

# SDL's dummy drivers: no window and no sound card on CI (pygame-ce reads these at init).
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

#: Modules whose every test is slow (measured over ~10 s each on two shared cores, or a whole game played).
SLOW_MODULES: frozenset[str] = frozenset({
})

#: Single slow tests in modules that are otherwise fast: "module.py::test_name" (any parametrization).
SLOW_TESTS: frozenset[str] = frozenset({
})


def is_slow(item: pytest.Item) -> bool:
    """True for a test the fast tier leaves out: by its own marker, its module or its name."""
    if item.get_closest_marker("slow") is not None:
        return True
    module = item.path.name
    name = getattr(item, "originalname", None) or item.name.split("[")[0]
    return module in SLOW_MODULES or f"{module}::{name}" in SLOW_TESTS


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config: pytest.Config) -> None:
    """Plain ``pytest`` runs on every core: ``-n auto --dist loadgroup`` unless ``-n`` was given.

    Set here rather than in pyproject's addopts so that ``-p no:xdist`` (no ``-n`` option at all) still works for
    debugging, as does ``-n 0``; ``--pdb`` runs in one process. Runs before xdist's own hook of the same name (a
    conftest registers after it, and the later tryfirst hook is called first); never inside a worker, which would
    start workers of its own.
    """
    if not config.pluginmanager.hasplugin("xdist") or hasattr(config, "workerinput"):
        return
    if os.environ.get("PYTEST_XDIST_WORKER") or getattr(config.option, "numprocesses", 0) is not None:
        return
    config.option.numprocesses = "auto"
    if config.option.dist == "no":
        config.option.dist = "loadgroup"


def pytest_configure(config: pytest.Config) -> None:
    """``BURRITO_FAST=1`` is a shortcut for ``-m "not slow"`` (an explicit ``-m`` wins)."""
    if os.environ.get("BURRITO_FAST", "") not in ("", "0") and not config.option.markexpr:
        config.option.markexpr = "not slow"


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the slow tests, and hand them out first: the last minutes then hold short tests that keep both cores
    busy, instead of one core idling while the other plays a whole game (the sort is stable, so the order within
    each tier, and so module fixtures, stay as collected)."""
    for item in items:
        if is_slow(item) and item.get_closest_marker("slow") is None:
            item.add_marker(pytest.mark.slow)
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


@pytest.fixture(scope="session")
def _worker_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A directory of this worker's own, for caches that are slow to build and safe to share within one process."""
    return tmp_path_factory.mktemp("worker")


@pytest.fixture(autouse=True)
def _own_home(tmp_path_factory: pytest.TempPathFactory, _worker_dir: Path,
              monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Each test gets its own HOME and XDG directories, as do the programs it starts.

    The table keeps its journal, settings, pairings, voice cache, traces and device status file under them
    (``~/.local/share``, ``~/.config``, ``~/.cache``, ``$XDG_RUNTIME_DIR`` or ``/tmp/burrito-table-UID``): shared,
    two tests running at once on the two cores would read each other's files, and a test would write the
    developer's own journal.
    """
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    for var, sub in (("XDG_CONFIG_HOME", ".config"), ("XDG_CACHE_HOME", ".cache"),
                     ("XDG_DATA_HOME", ".local/share"), ("XDG_RUNTIME_DIR", "run")):
        path = home / sub
        path.mkdir(parents=True, mode=0o700)
        monkeypatch.setenv(var, str(path))
    for var in ("BURRITO_STATUS", "BURRITO_TRACES", "BURRITO_PARAMS", "BURRITO_RECEIVER", "BURRITO_WEB_PIN",
                "BURRITO_SEAT_SCREENS"):
        monkeypatch.delenv(var, raising=False)
    # matplotlib builds its font cache under MPLCONFIGDIR (else ~/.config): once per worker, not once per test.
    monkeypatch.setenv("MPLCONFIGDIR", str(_worker_dir / "matplotlib"))
    yield home
