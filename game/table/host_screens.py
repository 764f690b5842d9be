"""The party host's screens: how-to-play pages, attract mode's last winners and the house settings page (device
warnings take the top band of a live game's screen: ``game.table.host``).

Importing this module registers them with ``game.table.screens`` (``HOST_SCREENS``), which looks them
up after its own screens, so they never replace a game's. ``python -m game.table.host_screens DIR`` writes their
pictures (``docs/screens``).
"""

from __future__ import annotations

from dataclasses import replace

import pygame

from game.table import screens as sc
from game.table.attract import draw_winners
from game.table.howto import draw_howto
from game.table.present import View
from game.table.screens import CYAN, DARK, GOLD, WHITE, Painter


def draw_settings(p: Painter, v: View) -> None:
    """The table menu's settings page: a compact list (eight lines fit the menu box)."""
    sc.scoreboard_base(p, replace(v, hint=""), dim=True)  # the hint goes in the box, once
    box = sc.big_box(p, v.title, CYAN, height=860)
    n = max(1, len(v.options))
    step = (box.height - p.px(200)) / n
    for i, opt in enumerate(v.options):
        y = box.top + p.px(100) + step * (i + 0.5)
        if i == v.cursor:
            sel = pygame.Rect(0, 0, int(box.width * 0.86), int(step * 0.86))
            sel.center = (box.centerx, int(y))
            p.panel(sel, CYAN, WHITE, width=4)
        p.text(opt, 50, DARK if i == v.cursor else WHITE, (box.centerx, y), shadow=i != v.cursor, max_w=box.width * 0.82)
    hint = pygame.Rect(box.left + p.px(30), box.bottom - p.px(110), box.width - p.px(60), p.px(100))
    p.fit(v.hint, 42, GOLD, hint, max_lines=2)


sc.HOST_SCREENS.update({"howto": draw_howto, "attract_winners": draw_winners, "settings": draw_settings})


def sample_views() -> dict[str, View]:
    """One View per party-host screen, fixed made-up content: the screenshot tests and ``docs/screens``."""
    from game.registry import GAMES
    from game.table.howto import howto_view, pages_of
    from game.table.present import SeatView
    from game.table.screens import sample_seats
    from game.table.settings import SETTINGS_ITEMS, HouseSettings, shown

    lobby = [SeatView(seat=0, panel=p, role="joined" if p in (1, 2, 4, 5) else "empty") for p in range(1, 7)]
    lobby[0].name, lobby[0].colour = "Salsa", (255, 90, 160)
    lobby[1].name, lobby[1].colour = "Guac", (60, 200, 255)
    lobby[1].note = "BRAWL/WAR name  SET colour  DUEL ok"
    lobby[3].name, lobby[3].colour = "Zoe_", (140, 255, 90)
    lobby[3].note = "type, Enter keeps"
    named = sample_seats(4)
    for sv, (name, colour) in zip(named, (("Salsa", (255, 90, 160)), ("Guac", (60, 200, 255)), ("", None),
                                          ("Zoe", (140, 255, 90)))):
        sv.name, sv.colour = name, colour
    named[1].role = "fighter"
    settings = HouseSettings(tie_window_ms=50)
    titles = [m.title for m in GAMES.values()] or ["Burrito"]
    items = [shown(settings, k) if k != "switch" else f"Switch game now: {titles[1 % len(titles)]}"
             for k in SETTINGS_ITEMS]
    ticker = ["Round 1! Zoe counts: 3, 2, 1, Burrito!", "Salsa lays down a set: +1", "Guac lays down a set: +1"]
    howtos = {}
    for name in GAMES:  # "howto_ttb": a page of each installed game, named by its initials
        pages = pages_of(name)
        if pages:
            howtos["howto_" + "".join(w[0] for w in name.split("-"))] = howto_view(name, 3 % len(pages))
    return {
        **howtos,
        "attract_winners": View("attract_winners", [], title="LAST WINNERS", hint="press any button to play",
                                options=[f"{titles[0]}: Zoe", f"{titles[1 % len(titles)]}: the Survivors (Salsa, Seat 4)",
                                         f"{titles[2 % len(titles)]}: Guac", f"{titles[0]}: Seat 2"]),
        "lobby_names": View("lobby", lobby, title="Throw Throw Burrito", options=["standard", "small room"], cursor=0,
                            sub="4 seats ready - DUEL on a ready seat starts",
                            hint="BRAWL / WAR: game and variant    hold SET: leave",
                            extra={"host_hint": "joined: tap SET for your name  -  hold WAR: how to play  -  "
                                                "hold BRAWL: learning on"}),
        "scoreboard_names": View("scoreboard", named, round=1, tokens_left=5, ticker=ticker,
                                 hint="LEARNING: SET: I laid a set of 3   -   BRAWL / WAR / DUEL: I laid that battle set (2 points)",
                                 banner="DEVICES: burrito-2 offline   |   badge-3 (seat 3) battery 9%",
                                 extra={"device_warnings": ["burrito-2 offline", "badge-3 (seat 3) battery 9%"]}),
        "settings": View("settings", sample_seats(), title="HOUSE SETTINGS", options=items, cursor=4,
                         hint="BRAWL / WAR move  -  SET change  -  DUEL back   (windows: from the next game)"),
        "menu_host": View("menu", sample_seats(), title="TABLE MENU",
                          options=["Back to the game", "Restart: new game", "House settings, switch game",
                                   "Shut down the table"], cursor=2,
                          hint="BRAWL / WAR move  -  SET choose  -  DUEL back", tokens_left=3),
    }


def main(argv: list[str] | None = None) -> int:
    import sys
    from pathlib import Path

    argv = sys.argv[1:] if argv is None else argv
    out = Path(argv[0] if argv else "docs/screens")
    out.mkdir(parents=True, exist_ok=True)
    pygame.font.init()
    for name, v in sample_views().items():
        pygame.image.save(sc.render(v, (1280, 720)), str(out / f"{name}.png"))
        print(out / f"{name}.png")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
