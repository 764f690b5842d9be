"""Keyboard fallback: every seat button has a key, for simulation and for tables
whose panels are not wired yet.

The app owns the window and hands key names or pygame key events to
:class:`KeyboardPanel`; this module never opens a window.  The default map
gives each seat a column of the keyboard, top to bottom in layout order
(SET, BRAWL, WAR, DUEL):

=====  =====  =====  =====  =====  =====  =====  =====  =====  =====  =====  =====
seat 1 seat 2 seat 3 seat 4 seat 5 seat 6 seat 7 seat 8 seat 9 seat10 seat11 seat12
=====  =====  =====  =====  =====  =====  =====  =====  =====  =====  =====  =====
1      2      3      4      5      6      7      8      9      0      f1     f5
q      w      e      r      t      y      u      i      o      p      f2     f6
a      s      d      f      g      h      j      k      l      ;      f3     f7
z      x      c      v      b      n      m      ,      .      /      f4     f8
=====  =====  =====  =====  =====  =====  =====  =====  =====  =====  =====  =====

>>> km = default_keymap(2)
>>> km["q"], km["x"]
((1, 'BRAWL'), (2, 'DUEL'))

A :class:`KeyboardPanel` drives a *target*: either :class:`DirectTarget` (key
edges go straight into a :class:`~hardware.source.PanelSource`) or, in
simulation, :class:`hardware.panels.MockPinTarget`, which drives MockFactory
pins (or the simulated expander) so the very same GPIO code path runs.
"""

from __future__ import annotations

import time
from typing import Any, Protocol

from .pinmap import default_keymap

__all__ = ["ButtonTarget", "DirectTarget", "KeyboardPanel", "default_keymap"]

class ButtonTarget(Protocol):
    """Something that can be told a button went down or up."""

    def set_button(self, seat: int, button: str, pressed: bool, t: float) -> None: ...


class DirectTarget:
    """Key edges straight into a PanelSource (no pins involved)."""

    def __init__(self, source: Any) -> None:
        self.source = source

    def set_button(self, seat: int, button: str, pressed: bool, t: float) -> None:
        self.source.edge(t, seat, button, pressed)


class KeyboardPanel:
    """Turns key names / pygame key events into button edges on a target.

    Auto-repeat is ignored (a key already down stays one press), and keys not in
    the map are reported as not handled so the app can use them itself.
    """

    def __init__(self, keymap: dict[str, tuple[int, str]], target: ButtonTarget) -> None:
        self.keymap = {k.lower(): v for k, v in keymap.items()}
        self.target = target
        self._down: set[str] = set()

    def key(self, name: str, down: bool, t: float | None = None) -> bool:
        """Handle one key edge by name; return True if it belongs to a seat button."""
        name = name.lower()
        target = self.keymap.get(name)
        if target is None:
            return False
        if down == (name in self._down):
            return True  # auto-repeat or a release we never saw pressed
        (self._down.add if down else self._down.discard)(name)
        self.target.set_button(target[0], target[1], down, time.monotonic() if t is None else t)
        return True

    def handle_event(self, event: Any) -> bool:
        """Handle a pygame KEYDOWN/KEYUP event; other events return False."""
        import pygame  # imported only here: pygame.key.name needs no window

        if event.type not in (pygame.KEYDOWN, pygame.KEYUP):
            return False
        return self.key(pygame.key.name(event.key), event.type == pygame.KEYDOWN)

    def release_all(self) -> None:
        """Release every key still down (the window lost focus)."""
        for name in sorted(self._down):
            self.key(name, False)
