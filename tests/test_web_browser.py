"""The phone companion in a real browser: Debian's Chromium and chromedriver, driven by Selenium.

Two "phones" (two tabs of one headless Chromium, each with its own ``sessionStorage`` and so its own seat token)
join from their seats' QR links, one names itself, and they pick "Taco vs Burrito: vs bots" and start it with
their seat buttons. The person on phone 1 plays a whole game from the phone (cards, options, NO BUENO) against the
bot at seat 2, through the same ``legal_moves`` as the buttons. Phone 2 (the bot's panel) must never show a card
that only seat 1 ever held. The test FAILS (it never skips) when Chromium or its driver is missing: run
``tests/install-system-deps.sh``.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from webtable import PIN, LiveTable

from game.games.taco_vs_burrito import buttons as taco_buttons
from game.games.taco_vs_burrito import rules as tvb
from game.games.taco_vs_burrito.mode import GAME as TACO
from game.journal import Journal
from game.web.qr import join_url

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
#: top first; dealt one by one from seat 1: seat 1 alone ever holds the hot-sauce-boss and tummy-ache-3
DECK = ["no-bueno", "ingredient-1", "hot-sauce-boss", "ingredient-2", "ingredient-1", "no-bueno", "tummy-ache-3",
        "ingredient-3", "ingredient-2", "ingredient-1", "ingredient-3", "ingredient-1", "ingredient-2", "ingredient-3"]
ONLY_SEAT_1 = {"hot-sauce-boss", "tummy-ache-3"}
SCREENSHOT = Path(__file__).resolve().parents[1] / "docs" / "screens" / "phone.png"


def browser() -> tuple[Any, str]:
    for path in (CHROMIUM, CHROMEDRIVER):
        if not os.path.exists(path):
            pytest.fail(f"{path} is missing: run tests/install-system-deps.sh (Debian: chromium chromium-driver)")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    profile = tempfile.mkdtemp(prefix="bt-chromium-")
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", f"--user-data-dir={profile}", "--window-size=412,915"):
        opts.add_argument(flag)
    opts.add_experimental_option("mobileEmulation", {"deviceMetrics": {"width": 412, "height": 915, "pixelRatio": 2}})
    driver = webdriver.Chrome(options=opts, service=Service(CHROMEDRIVER))
    driver.set_page_load_timeout(15)
    return driver, profile


@pytest.fixture
def table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[LiveTable]:
    """A live table whose Taco vs Burrito games use a short deck and block window, with quick bots: a whole game
    in seconds. The lobby, the phones and the rules are otherwise the product's."""
    setup = TACO.setup

    def short(seats: int, variant: int = 0, seed: int | None = None) -> dict[str, Any]:
        obj = setup(seats, variant, seed)
        obj["options"].update(deck=list(DECK), no_bueno_window_ms=700)
        return obj

    monkeypatch.setattr(TACO, "setup", short)
    monkeypatch.setattr(taco_buttons, "THINK_S", (0.05, 0.15))
    t = LiveTable(tmp_path, publish_s=0.03)
    try:
        yield t
    finally:
        t.close()


def test_two_phones_join_and_one_plays_taco_vs_burrito_to_the_end(table: LiveTable, tmp_path: Path) -> None:
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    driver, profile = browser()
    try:
        wait = WebDriverWait(driver, 10, poll_frequency=0.05)
        driver.get(join_url(table.base, table.join_code(1)))
        phone1 = driver.current_window_handle
        wait.until(lambda d: "panel 1" in d.find_element(By.ID, "who").text)
        driver.switch_to.new_window("tab")
        phone2 = driver.current_window_handle
        driver.get(join_url(table.base, table.join_code(2)))
        wait.until(lambda d: "panel 2" in d.find_element(By.ID, "who").text)
        assert driver.current_url.endswith("/play")  # the spent join code is gone from the address bar

        def on(handle: str) -> None:
            driver.switch_to.window(handle)

        def tap(handle: str, button: str) -> None:
            on(handle)
            driver.find_element(By.ID, f"b-{button}").click()

        tap(phone2, "SET")  # any button joins the seat
        tap(phone1, "SET")
        on(phone1)
        driver.find_element(By.ID, "name").send_keys("Ana")
        driver.execute_script("document.getElementById('colour').value = '#ff5a64'")
        driver.find_element(By.ID, "name-save").click()
        table.wait(lambda: table.app.lobby is not None and table.app.lobby.joined == {1, 2}
                   and table.app.host.naming.card(1).name == "Ana", what="both phones joined, phone 1 named")
        tap(phone1, "BRAWL")  # back one choice from Throw Throw Burrito standard: Taco vs Burrito vs bots
        table.wait(lambda: table.app.lobby is not None and "vs bots" in table.bridge.snapshot.public["variant"])
        tap(phone1, "DUEL")  # start
        table.wait(lambda: table.app.live is not None, what="the game to start")
        with table.lock:
            live = table.app.live
            assert live is not None
            game_id = live.game_id
        with Journal(table.journal_path) as journal:  # a reader of its own, as `replay --journal` is
            setup, _ = journal.load(game_id)
        assert setup["players"] == {"1": {"name": "Ana", "colour": "#FF5A64"}}

        on(phone1)
        wait.until(lambda d: "Ana" in d.find_element(By.ID, "who").text and d.find_elements(By.CSS_SELECTOR, "#hand .card"))
        seen = {"shot": False, "blocked": False, "moves": 0}

        def look_and_act() -> bool:
            """Both phones once, and one action on phone 1 if it has one; True once the game is over."""
            with table.lock:
                over = table.app.over
            # phone 2 is seat 2's (the bot's): it shows seat 2's hand, never a card only seat 1 ever held
            on(phone2)
            shown2 = {b.get_attribute("data-card") for b in driver.find_elements(By.CSS_SELECTOR, "#hand .card")}
            assert not shown2 & ONLY_SEAT_1, shown2
            if over:
                return True
            on(phone1)
            block = driver.find_element(By.ID, "no-bueno")
            options = driver.find_elements(By.CSS_SELECTOR, "#options .option")
            cards = [b for b in driver.find_elements(By.CSS_SELECTOR, "#hand .card") if b.is_enabled()]
            if block.is_enabled() and not seen["blocked"]:
                block.click()
                seen["blocked"] = True
            elif options:
                if not seen["shot"] and len(options) >= 2:
                    driver.save_screenshot(str(tmp_path / "phone.png"))  # a card picked, its options shown
                    seen["shot"] = True
                options[0].click()
                seen["moves"] += 1
            elif cards:
                cards[min(1, len(cards) - 1)].click()
                return False
            time.sleep(0.05)
            return False

        deadline = time.monotonic() + 40
        while time.monotonic() < deadline:
            try:
                if look_and_act():
                    break
            except StaleElementReferenceException:
                continue  # the page redrew its buttons between finding one and clicking it: look again
        moves, blocked, shot = seen["moves"], seen["blocked"], seen["shot"]
        with table.lock:
            assert table.app.over, "the game did not end in time"
            st = table.app.state
            events = list(live.table.events)
        on(phone1)
        wait.until(lambda d: "Game over" in d.find_element(By.ID, "taco-line").text)
        assert tvb.is_over(st) and moves >= 3
        human = [e for e in events if e.get("seat") == 1 and e["event"] in ("place", "play", "discard", "choose")]
        assert len(human) == moves  # every move the phone made was written, none twice, none refused
        assert blocked and any(e["event"] == "block" and e["seat"] == 1 for e in events)  # NO BUENO from the phone
        assert shot and (tmp_path / "phone.png").stat().st_size > 10_000
        # a spectator sees the scoreboard and the play-by-play; the operator sees the game in the history
        driver.switch_to.new_window("tab")
        driver.get(f"{table.base}/watch")
        wait.until(lambda d: "Ana" in d.find_element(By.ID, "scores").text
                   and "over" in d.find_element(By.ID, "ticker").text.lower())
        assert not driver.find_elements(By.CSS_SELECTOR, "button")  # read-only: nothing to press
        driver.get(f"{table.base}/operator")
        driver.find_element(By.ID, "pin").send_keys(PIN)
        driver.find_element(By.CSS_SELECTOR, "#login-form button").click()
        wait.until(lambda d: "taco vs burrito" in d.find_element(By.ID, "history").text)
        assert "Ana" in driver.find_element(By.ID, "history").text and "yes" in driver.find_element(By.ID, "history").text
        if os.environ.get("BURRITO_SAVE_SCREENS"):
            driver.save_screenshot(str(SCREENSHOT.with_name("operator.png")))
        if os.environ.get("BURRITO_SAVE_SCREENS"):
            shutil.copy(tmp_path / "phone.png", SCREENSHOT)
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)
