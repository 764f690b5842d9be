"""Names and colours in the lobby: each player picks one with their seat's buttons, or types one on a keyboard.

A joined panel taps SET to open its name card; then BRAWL / WAR step through a list of fun names (none another
seat has), SET steps through the colours (none another seat has) and DUEL closes the card. With a keyboard
attached, Enter while a card is open types a name instead (Enter again keeps it, Escape drops the typing).
The lobby turns the cards into the setup line's ``players`` (``game.rules.players``) when the game starts, so
the journal, the screens and the announcer all get them.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from game.rules.players import NAME_MAX, Player

#: party names the announcer says well (espeak-ng checked) and the default font draws (ASCII)
FUN_NAMES: tuple[str, ...] = (
    "Salsa", "Guac", "Nacho", "Queso", "Churro", "Taquito", "Chipotle", "Pepper", "Tortilla", "Frijol",
    "Cilantro", "Lime", "Tomatillo", "Habanero", "Chimichanga", "Enchilada", "Fajita", "Mole", "Pico", "Tamale",
    "Elote", "Horchata", "Quesadilla", "Sopapilla",
)
#: seat colours: bright, far from each other and from the screens' role colours on the dark backdrop
COLOURS: tuple[tuple[str, str], ...] = (
    ("#FF5AA0", "pink"), ("#3CC8FF", "sky"), ("#8CFF5A", "lime"), ("#FFA028", "orange"), ("#B478FF", "violet"),
    ("#FFE650", "yellow"), ("#28E6B4", "mint"), ("#FF6450", "coral"), ("#F0F0F0", "white"), ("#A0A0FF", "periwinkle"),
    ("#C8A064", "tan"), ("#FF96DC", "rose"),
)


class TextError(ValueError):
    """Text from outside the table that it will not take: the message names the field and says why."""


def clean_text(raw: object, what: str, limit: int) -> str:
    r"""Text typed on a phone, as the table may draw it (pygame), write it (SQLite, the journal's setup line) and show
    it on every other phone, or :class:`TextError` saying why not.

    Any string is judged, unpaired surrogates (``"\ud800"`` in JSON) and control characters included: it is
    NFC-normalised (an accent typed as a combining mark is one character, as the font and the name rules count
    it), every run of whitespace becomes one space, and the result must be 1 to ``limit`` printable characters
    (``str.isprintable``: no control, format or private-use character). These are the setup line's name rules
    (``game.rules.base.parse_players``), so what a phone names a seat is always a name a resumed game reads back.

    >>> clean_text("  Zoe\u0301  la   Reine ", "'name'", 16)
    'Zoé la Reine'
    >>> try:
    ...     clean_text("a" + chr(0xD800), "'name'", 16)
    ... except TextError as exc:
    ...     print(exc)
    'name' holds a character that is not text (an unpaired surrogate)
    """
    if not isinstance(raw, str):
        raise TextError(f"{what} must be text")
    if len(raw) > 8 * limit + 64:  # checked again below; this only spares normalising a page of text
        raise TextError(f"{what} must be at most {limit} characters")
    try:
        raw.encode("utf-8")
    except UnicodeEncodeError:
        raise TextError(f"{what} holds a character that is not text (an unpaired surrogate)") from None
    text = " ".join(unicodedata.normalize("NFC", raw).split())
    bad = next((c for c in text if not c.isprintable()), None)
    if bad is not None:
        raise TextError(f"{what} must not hold control or invisible characters (U+{ord(bad):04X})")
    if not text:
        raise TextError(f"{what} must not be empty")
    if len(text) > limit:
        raise TextError(f"{what} must be at most {limit} characters, got {len(text)}")
    return text


def clean_name(raw: object) -> str:
    """A player's name from a phone (:func:`clean_text` with the name rules), without ``<`` or ``>``."""
    name = clean_text(raw, "'name'", NAME_MAX)
    if "<" in name or ">" in name:
        raise TextError("'name' must not hold < or >")
    return name


@dataclass
class NameCard:
    """One panel's choice; ``editing`` while its card is open on screen, ``typing`` while a keyboard writes it."""

    name: str | None = None
    colour: str | None = None
    editing: bool = False
    typing: str | None = None


class Naming:
    """Every panel's name card in the lobby, keyed by panel number."""

    def __init__(self) -> None:
        self.cards: dict[int, NameCard] = {}

    def card(self, panel: int) -> NameCard:
        return self.cards.setdefault(panel, NameCard())

    def taken_names(self, but: int) -> set[str]:
        return {c.name.casefold() for p, c in self.cards.items() if p != but and c.name}

    def taken_colours(self, but: int) -> set[str]:
        return {c.colour for p, c in self.cards.items() if p != but and c.colour}

    def open(self, panel: int) -> None:
        """Open the card: a panel with no name yet gets the first free fun name and colour."""
        c = self.card(panel)
        c.editing = True
        if c.name is None:
            self.step_name(panel, 1)
        if c.colour is None:
            self.step_colour(panel)

    def close(self, panel: int) -> None:
        c = self.cards.get(panel)
        if c is not None:
            c.editing = False
            c.typing = None

    def forget(self, panel: int) -> None:
        self.cards.pop(panel, None)

    def editing(self, panel: int) -> bool:
        c = self.cards.get(panel)
        return c is not None and c.editing

    def step_name(self, panel: int, direction: int) -> None:
        c = self.card(panel)
        taken = self.taken_names(panel)
        start = FUN_NAMES.index(c.name) if c.name in FUN_NAMES else (-1 if direction > 0 else 0)
        for k in range(1, len(FUN_NAMES) + 1):
            name = FUN_NAMES[(start + direction * k) % len(FUN_NAMES)]
            if name.casefold() not in taken:
                c.name = name
                return

    def step_colour(self, panel: int) -> None:
        c = self.card(panel)
        taken = self.taken_colours(panel)
        codes = [code for code, _ in COLOURS]
        start = codes.index(c.colour) if c.colour in codes else -1
        for k in range(1, len(codes) + 1):
            code = codes[(start + k) % len(codes)]
            if code not in taken:
                c.colour = code
                return

    def button(self, panel: int, button: str) -> None:
        """A press on a panel whose card is open: BRAWL / WAR name, SET colour, DUEL done."""
        if button in ("BRAWL", "WAR"):
            self.step_name(panel, -1 if button == "BRAWL" else 1)
        elif button == "SET":
            self.step_colour(panel)
        elif button == "DUEL":
            self.close(panel)

    # -- a keyboard ---------------------------------------------------------------------------------

    def typist(self) -> int | None:
        """The panel a keyboard writes to: the open card that is typing, else None."""
        return next((p for p, c in sorted(self.cards.items()) if c.typing is not None), None)

    def key(self, key: str, text: str = "") -> bool:
        """A key from a keyboard (pygame's key name and its text). True if the name cards used it.

        Enter on an open card starts typing; while typing, printable text is added, Backspace deletes, Enter keeps
        the name (if it is not empty and not another seat's), Escape drops it.
        """
        panel = self.typist()
        if panel is None:
            if key not in ("return", "enter"):
                return False
            opened = [p for p, c in sorted(self.cards.items()) if c.editing]
            if not opened:
                return False
            self.cards[opened[-1]].typing = ""
            return True
        c = self.cards[panel]
        assert c.typing is not None
        if key in ("return", "enter"):
            name = " ".join(c.typing.split())
            if name and name.casefold() not in self.taken_names(panel):
                c.name = name
            c.typing = None
        elif key == "escape":
            c.typing = None
        elif key == "backspace":
            c.typing = c.typing[:-1]
        elif text and text.isprintable() and len(c.typing) < NAME_MAX:
            c.typing += text
        return True

    def players(self, seatmap: list[int]) -> dict[int, Player]:
        """The setup line's players: game seat i is panel ``seatmap[i - 1]``."""
        out = {}
        for seat, panel in enumerate(seatmap, start=1):
            c = self.cards.get(panel)
            if c is not None and (c.name or c.colour):
                out[seat] = Player(c.name, c.colour)
        return out


def rgb(colour: str | None) -> tuple[int, int, int] | None:
    """ "#RRGGBB" -> (r, g, b) for pygame."""
    if not colour:
        return None
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)
