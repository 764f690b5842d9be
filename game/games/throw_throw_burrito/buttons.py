"""Throw Throw Burrito's seat buttons: the table's standard burrito buttons, unchanged.

The gestures (docs/hardware.md, "What the buttons mean") are those of :class:`game.table.buttons.ButtonMapper`:
SET press an ordinary set, kept pending for the take-back time; SET hold takes the seat's newest pending set back;
BRAWL / WAR / DUEL declare that battle; a Duel's declarer picks two duellists with BRAWL / WAR / SET / DUEL;
BRAWL + WAR held 5 s opens the table menu. Throw Throw Burrito is the game those buttons were made for, so its
mapper adds nothing; it is a class of its own so that the game, like every other, names its mapper here.
"""

from __future__ import annotations

from game.table.buttons import ButtonMapper


class ThrowThrowBurritoButtons(ButtonMapper):
    """Seat events -> Throw Throw Burrito table events (sets, battle calls, duel picks)."""
