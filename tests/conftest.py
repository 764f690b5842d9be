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

#: Modules whose tests are slow: whole games played, or seconds of CPU each. Measured under xdist on two cores shared
#: with other runs (load 16-25), where these took 5-340 s each; the rest of the suite, ~12 % of its test time.
SLOW_MODULES: frozenset[str] = frozenset({
    "test_acceptance_play.py",  # every game at every seat count through the real play loop, Xvfb and xdotool
    "test_soak_play.py",  # random presses for minutes of table time
    "test_fault_injection.py",  # well over a hundred real SIGKILLs
    "test_web_browser.py",  # headless Chromium
    "test_firmware_micropython.py",  # the firmware under MicroPython's WebAssembly port
    "test_detect_robust.py",  # physics-simulated traces through the detector, most of them seconds each
    "test_detect_events.py",  # every kind of motion at 400, 833 and 1600 Hz
    "test_properties_ttb.py",  # hypothesis over whole games
    "test_app_zb_demo.py",  # a whole Zombie Burrito demo game
    "test_tvb_properties.py",  # hypothesis over whole Taco vs Burrito games
    "test_zb_properties.py",  # hypothesis over whole Zombie Burrito games
})

#: Single slow tests in modules that are otherwise fast: "module.py::test_name" (any parametrization).
SLOW_TESTS: frozenset[str] = frozenset({
    "test_app_demo.py::test_demo_with_no_display_goes_headless_by_itself_and_plays_a_full_game_to_the_standings",
    "test_app_layout.py::test_every_screen_of_every_game_passes_the_layout_check",
    "test_app_sound.py::test_the_committed_clips_are_exactly_what_the_generation_script_makes",
    "test_app_taco.py::test_headless_demo_plays_a_whole_game_at_the_buttons_and_prints_standings",
    "test_app_taco_mode.py::test_one_person_plays_a_whole_game_by_keyboard_against_bots",
    "test_detect_cli.py::test_large_file_runs_through_the_cli",
    "test_detect_detector.py::test_same_motion_at_different_rates_gives_same_events",
    "test_detect_gyro_files.py::test_detect_feeds_the_gyro_columns_to_the_detector",
    "test_detect_gyro_files.py::test_plot_draws_the_angular_rate_on_a_second_axis",
    "test_detect_tune_plot.py::test_tune_cross_validates_prints_before_after_per_kind_and_writes_a_parameter_file",
    "test_detector_gyro.py::test_a_pickup_from_where_a_trace_began_lying_is_stamped_where_the_hand_took_it",
    "test_detector_gyro.py::test_with_the_gyroscope_a_let_go_that_swings_the_vector_is_still_a_launch",
    "test_detector_gyro.py::test_with_the_gyroscope_a_pump_fakes_brake_held_at_1_g_is_no_flight",
    "test_detector_gyro.py::test_with_the_gyroscope_the_let_go_is_placed_from_the_release_stamp_not_the_candidate",
    "test_detector_gyro.py::test_with_the_gyroscope_true_throws_are_still_found",
    "test_fuzz_log.py::test_bytes_spliced_into_a_real_setup_give_a_clean_error_or_a_result",
    "test_fuzz_log.py::test_json_lines_of_hostile_values_give_a_clean_error_or_a_result",
    "test_journal.py::test_a_killed_table_resumes_the_unfinished_game_to_exactly_the_same_state",
    "test_lint.py::test_mypy_finds_nothing",
    "test_party_host.py::test_the_announcer_says_the_names",
    "test_party_host.py::test_the_demo_speaks_its_calls_where_espeak_ng_is_installed",
    "test_web_cli.py::test_lobby_codes_sit_apart_on_screen_for_every_table_size",
    "test_web_cli.py::test_no_web_serves_nothing_and_bad_options_are_one_line",
    "test_web_cli.py::test_play_serves_the_companion_and_prints_how_to_join",
    "test_web_security.py::test_spectator_socket_is_read_only_and_public",
    "test_venue_mqtt.py::test_venue_command_subscribes_stores_and_prints_the_board_and_its_screen_runs_headless",
    "test_wire_calibration.py::test_throw_fetch_call_record_push_every_device_reports_the_new_parameters",
    "test_wire_gyro_record.py::test_a_six_axis_trace_recorded_over_the_pty_keeps_its_gyro_columns",
    "test_wire_hardening.py::test_garbage_truncated_and_merged_frames_never_raise_out_of_the_reader",
    "test_wire_host.py::test_fuzzed_stream_loses_no_acked_event_and_counts_every_drop",
    "test_wire_traces.py::test_traces_push_reaches_a_running_table_through_its_parameter_file",
    "test_wire_virtual.py::test_a_battle_arrives_complete_once_each_and_on_table_time",
    "test_wire_virtual.py::test_a_device_switched_off_goes_offline_and_back_online_after_reboot",
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
    """Each test gets its own HOME and XDG_RUNTIME_DIR, as do the programs it starts.

    The table keeps its journal, settings, pairings, voice cache, traces and device status file under them
    (``~/.local/share``, ``~/.config``, ``~/.cache``, ``$XDG_RUNTIME_DIR`` or ``/tmp/burrito-table-UID``): shared,
    two tests running at once on the two cores would read each other's files, and a test would write the
    developer's own journal.
    """
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    # ~/.config, ~/.cache and ~/.local/share follow HOME once these are unset; they are left for the programs to
    # create (created beforehand, the X keyboard stopped reaching ``play`` under Xvfb in the xdotool test).
    for var in ("XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME"):
        monkeypatch.delenv(var, raising=False)
    run = home / "run"
    run.mkdir(mode=0o700)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(run))
    for var in ("BURRITO_STATUS", "BURRITO_TRACES", "BURRITO_PARAMS", "BURRITO_RECEIVER", "BURRITO_WEB_PIN",
                "BURRITO_SEAT_SCREENS"):
        monkeypatch.delenv(var, raising=False)
    # matplotlib builds its font cache under MPLCONFIGDIR (else ~/.config): once per worker, not once per test.
    monkeypatch.setenv("MPLCONFIGDIR", str(_worker_dir / "matplotlib"))
    yield home
