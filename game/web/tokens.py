"""Who may see and do what on the companion: seat join codes and tokens, operator sessions, the PIN limiter.

A seat's QR code carries a *join code* for one panel in one table session (a lobby and the game started from it).
A phone trades the code for a *seat token* once: the code is then spent and the QR code on the table shows a new
one, so a photo of the code joins nobody. A panel has at most one live token: a new join revokes the older phone.
A new session (the table went back to the lobby) revokes every token and code of the old one, so a token never
outlives its game. When the game starts the session is *sealed*: every code shown in the lobby dies and nobody
joins until the next lobby, so a photo of a seat's QR code cannot be used to read that seat's hand mid-game (a
phone that joined keeps its token and reconnects). Tokens are 256-bit random strings compared in constant time; nothing about them is guessable
from the seat number.
"""

from __future__ import annotations

import hmac
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class SeatGrant:
    """What a valid seat token is bound to."""

    panel: int
    session: str


class TokenBook:
    """Join codes and seat tokens of the current table session; thread-safe (the server and the loop share it)."""

    def __init__(self, panels: int, session: str | None = None) -> None:
        self.panels = panels
        self._lock = threading.Lock()
        self.session = session or secrets.token_hex(4)
        self._codes: dict[int, str] = {}
        self._tokens: dict[str, SeatGrant] = {}
        self._by_panel: dict[int, str] = {}
        self.sealed = False
        #: called (outside the lock) after tokens were revoked, so open sockets can be closed at once
        self.on_revoke: list[Callable[[], None]] = []
        self._new_codes()

    def _revoked(self) -> None:
        for fn in list(self.on_revoke):
            fn()

    def _new_codes(self) -> None:
        self._codes = {p: secrets.token_urlsafe(9) for p in range(1, self.panels + 1)}

    def new_session(self, session: str | None = None) -> str:
        """A new lobby: every earlier code and token stops working."""
        with self._lock:
            self.session = session or secrets.token_hex(4)
            self._tokens.clear()
            self._by_panel.clear()
            self.sealed = False
            self._new_codes()
            session = self.session
        self._revoked()
        return session

    def seal(self) -> None:
        """The game started: no more joins this session, and the codes the lobby showed stop working."""
        with self._lock:
            self.sealed = True
            self._new_codes()

    def join_code(self, panel: int) -> str:
        with self._lock:
            return self._codes[panel]

    def join(self, code: str) -> tuple[str, SeatGrant] | None:
        """Spend a join code: a fresh seat token and what it is bound to, or None for an unknown or spent code."""
        with self._lock:
            if self.sealed or not code.isascii():  # codes are ASCII: anything else is no code (and not encodable)
                return None
            panel = next((p for p, good in self._codes.items() if hmac.compare_digest(good.encode(), code.encode())),
                         None)
            if panel is None:
                return None
            old = self._by_panel.pop(panel, None)
            if old is not None:
                self._tokens.pop(old, None)
            token = secrets.token_urlsafe(32)
            grant = SeatGrant(panel, self.session)
            self._tokens[token] = grant
            self._by_panel[panel] = token
            self._codes[panel] = secrets.token_urlsafe(9)
        if old is not None:
            self._revoked()
        return token, grant

    def check(self, token: str | None) -> SeatGrant | None:
        """The grant of a live token of this session, else None (no token, unknown, revoked, an older session)."""
        if not token:
            return None
        with self._lock:
            grant = self._tokens.get(token)
            if grant is None or grant.session != self.session:
                return None
            return grant

    def revoke_panel(self, panel: int) -> bool:
        """The operator frees a seat: its phone is logged out, and its QR code changes."""
        with self._lock:
            token = self._by_panel.pop(panel, None)
            if token is not None:
                self._tokens.pop(token, None)
            if panel in self._codes:
                self._codes[panel] = secrets.token_urlsafe(9)
        if token is not None:
            self._revoked()
        return token is not None

    def joined(self) -> list[int]:
        with self._lock:
            return sorted(self._by_panel)


class PinGate:
    """The operator PIN, rate-limited: ``max_fails`` wrong PINs in ``window_s`` lock logins for ``lockout_s``.

    The limit is counted per client address and also for the whole table (``max_fails * 4``), so a guesser on many
    addresses is slowed as well. Sessions are random tokens that expire after ``session_s``.
    """

    def __init__(self, pin: str, *, max_fails: int = 5, window_s: float = 60.0, lockout_s: float = 60.0,
                 session_s: float = 8 * 3600.0, clock: Callable[[], float] = time.monotonic) -> None:
        if not (pin.isascii() and pin.isdigit()) or not 4 <= len(pin) <= 12:
            raise ValueError(f"the operator PIN must be 4-12 digits, got {len(pin)} characters")
        self.pin = pin
        self.max_fails = max_fails
        self.window_s = window_s
        self.lockout_s = lockout_s
        self.session_s = session_s
        self.clock = clock
        self._lock = threading.Lock()
        self._fails: dict[str, deque[float]] = {}
        self._all: deque[float] = deque()
        self._locked_until: dict[str, float] = {}
        self._sessions: dict[str, float] = {}

    def retry_after(self, client: str) -> float:
        """Seconds until ``client`` may try again (0 when it may now)."""
        now = self.clock()
        with self._lock:
            until = max(self._locked_until.get(client, 0.0), self._locked_until.get("*", 0.0))
        return max(0.0, until - now)

    def login(self, client: str, pin: str) -> str | None:
        """A session token for the right PIN; None for a wrong one. Call :meth:`retry_after` first."""
        now = self.clock()
        ok = pin.isascii() and hmac.compare_digest(self.pin.encode(), pin.encode())
        with self._lock:
            if ok:
                token = secrets.token_urlsafe(32)
                self._sessions[token] = now + self.session_s
                self._fails.pop(client, None)
                return token
            for key, limit, q in ((client, self.max_fails, self._fails.setdefault(client, deque())),
                                  ("*", self.max_fails * 4, self._all)):
                q.append(now)
                while q and q[0] < now - self.window_s:
                    q.popleft()
                if len(q) >= limit:
                    self._locked_until[key] = now + self.lockout_s
                    q.clear()
            return None

    def check(self, token: str | None) -> bool:
        if not token:
            return False
        now = self.clock()
        with self._lock:
            for t in [t for t, exp in self._sessions.items() if exp < now]:
                del self._sessions[t]
            return token.isascii() and any(hmac.compare_digest(t.encode(), token.encode()) for t in self._sessions)


def new_pin() -> str:
    """A 6-digit PIN printed at start when the config has none."""
    return f"{secrets.randbelow(10**6):06d}"
