"""A table's MQTT publisher: queued, bounded, never in the way of play.

The table app calls :meth:`Publisher.table_changed` after every journaled event (and at a game's start), and
:meth:`Publisher.watch_devices` polls the device host's health on a thread of its own. Those calls only append to a bounded buffer under a
lock and return: JSON encoding, the game record at the end, and all network work happen on the publisher's own thread
and paho's network thread. Faults never reach the caller.

Delivery: QoS 1 with a persistent session (``clean_session=False``, a fixed client id). Messages wait in the buffer
while the broker is down (at most ``limit``; the oldest is dropped and counted beyond it) and are handed to paho only
while connected, at most ``max_inflight`` unacknowledged at once; paho resends unacknowledged ones after a reconnect.
A message that arrives twice is harmless: the venue upserts by (table, game, seq). Status, standings and device health
are state, not history: a newer one replaces an older one still waiting (``key``), and they are retained.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from firmware_bridge.supervise import Supervised
from game.registry import game_for
from game.stats import game_record
from game.venue.topics import SCHEMA_VERSION, Broker, check_name, parse_broker, table_topic

log = logging.getLogger(__name__)

HEALTH_EVERY_S = 30.0  # a device's health is republished this often, and at once when its link changes


@dataclass
class Outgoing:
    """One message waiting: ``body`` is a dict, or a function making it (run on the publisher's thread)."""

    topic: str
    body: dict[str, Any] | Callable[[], dict[str, Any]]
    retain: bool = False


class Publisher:
    """Publishes one table's games, calls, standings, status and device health to ``burrito-table/<venue>/<table>``."""

    def __init__(self, broker: str | Broker, venue: str, table: str, *, limit: int = 10_000, max_inflight: int = 100,
                 keepalive: int = 15, client_id: str | None = None) -> None:
        self.broker = parse_broker(broker) if isinstance(broker, str) else broker
        self.venue, self.table = check_name("venue", venue), check_name("table", table)
        self.limit = limit
        self.max_inflight = max_inflight
        self.keepalive = keepalive
        self._lock = threading.Condition()
        self._pending: OrderedDict[Any, Outgoing] = OrderedDict()  # key -> message, oldest first
        self._inflight: dict[int, Outgoing] = {}  # paho mid -> message handed over, not yet acknowledged
        self._early: set[int] = set()  # mids acknowledged before the pump recorded them
        self._n = 0  # keys for history messages (state messages use their own key)
        self._stop = False
        self._thread: Supervised | None = None
        self._health: Supervised | None = None
        self.connected = False
        #: counters: queued, published (handed to paho), acked, dropped (buffer full), replaced (newer state),
        #: connects, disconnects, errors (payloads that could not be made)
        self.counts = dict.fromkeys(("queued", "published", "acked", "dropped", "replaced", "connects",
                                     "disconnects", "errors"), 0)
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id or f"burrito-table-{venue}-{table}",
                                  clean_session=False)
        if self.broker.username:
            self.client.username_pw_set(self.broker.username, self.broker.password)
        self.client.will_set(self.topic("status"), json.dumps(self._status("offline")), qos=1, retain=True)
        self.client.reconnect_delay_set(1, 2)  # a lost broker is retried every 2 s at most
        self.client.max_inflight_messages_set(max_inflight)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_publish = self._on_publish
        # the app's side: what has been queued so far
        self._status_now: tuple[str, dict[str, Any]] = ("online", {})
        self._setup: dict[str, Any] = {}  # the game in play's setup line and start time, from the journal
        self._started = 0.0
        self._game: int | None = None
        self._game_key = ""
        self._sent_events = 0
        self._ended = False

    def topic(self, *parts: str) -> str:
        return table_topic(self.venue, self.table, *parts)

    # -- lifecycle --------------------------------------------------------------------------------------

    def start(self) -> Publisher:
        """Connect in the background (an unreachable broker is retried, never waited for) and start sending."""
        self.queue_status("online")
        self.client.connect_async(self.broker.host, self.broker.port, keepalive=self.keepalive)
        self.client.loop_start()
        self._thread = Supervised("venue publisher", self._pump, backoff=(0.2, 5.0)).start()
        return self

    def flush(self, timeout: float) -> bool:
        """Wait up to ``timeout`` s for every queued message to be acknowledged (tests, a clean shutdown)."""
        end = time.monotonic() + timeout
        with self._lock:
            while self._pending or self._inflight:
                left = end - time.monotonic()
                if left <= 0:
                    return False
                self._lock.wait(min(left, 0.05))
        return True

    def stop(self, timeout: float = 2.0) -> None:
        """Say "offline" (retained), flush what can be flushed in ``timeout`` s, disconnect."""
        self.queue_status("offline")
        self.flush(timeout)
        with self._lock:
            self._stop = True
            self._lock.notify_all()
        for part in (self._thread, self._health):
            if part is not None:
                part.stop(timeout=2.0)
        try:
            self.client.disconnect()
        finally:
            self.client.loop_stop()

    def stats(self) -> dict[str, Any]:
        with self._lock:
            return dict(self.counts, waiting=len(self._pending), inflight=len(self._inflight), connected=self.connected)

    # -- paho callbacks (paho's network thread) ---------------------------------------------------------

    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        if reason.is_failure:
            log.warning("broker %s:%s refused the table: %s", self.broker.host, self.broker.port, reason)
            return
        with self._lock:
            self.connected = True
            self.counts["connects"] += 1
            self._lock.notify_all()
        # The status again after a reconnect: the broker may have published the last will meanwhile.
        self.queue_status(*self._status_now)

    def _on_disconnect(self, client: Any, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        with self._lock:
            self.connected = False
            self.counts["disconnects"] += 1

    def _on_publish(self, client: Any, userdata: Any, mid: int, reason: Any, properties: Any) -> None:
        with self._lock:
            if self._inflight.pop(mid, None) is not None:
                self.counts["acked"] += 1
            else:
                self._early.add(mid)
            self._lock.notify_all()

    # -- the sending thread -----------------------------------------------------------------------------

    def _pump(self, stop: threading.Event) -> None:
        """The sending loop, run by its supervisor: a failure outside one message's own handling is logged once
        and the loop restarts, so messages queued after it still go out."""
        while True:
            with self._lock:
                while not self._stop and not (self.connected and self._pending
                                              and len(self._inflight) < self.max_inflight):
                    self._lock.wait(0.5)
                if self._stop:
                    return
                _, msg = self._pending.popitem(last=False)
            try:
                body = msg.body() if callable(msg.body) else msg.body
                payload = json.dumps(body, separators=(",", ":"))
            except Exception as exc:  # noqa: BLE001 - one bad payload must not stop the others
                log.error("cannot make the message for %s: %s", msg.topic, exc)
                with self._lock:
                    self.counts["errors"] += 1
                continue
            # Outside the lock: a slow socket write must never hold up the table's thread queueing a message.
            try:
                info = self.client.publish(msg.topic, payload, qos=1, retain=msg.retain)
            except Exception as exc:  # noqa: BLE001 - paho refused it (too large, say): count it, carry on
                log.error("cannot publish to %s: %s", msg.topic, exc)
                with self._lock:
                    self.counts["errors"] += 1
                continue
            with self._lock:
                if info.mid in self._early:  # acknowledged before we got here
                    self._early.discard(info.mid)
                    self.counts["acked"] += 1
                else:
                    self._inflight[info.mid] = Outgoing(msg.topic, body, msg.retain)
                self.counts["published"] += 1
                self._lock.notify_all()
                if info.rc not in (mqtt.MQTT_ERR_SUCCESS, mqtt.MQTT_ERR_NO_CONN):
                    log.warning("publish to %s: %s", msg.topic, mqtt.error_string(info.rc))

    # -- queueing (any thread; never blocks on the network) ---------------------------------------------

    def _queue(self, msg: Outgoing, key: Any = None) -> None:
        with self._lock:
            if key is None:
                self._n += 1
                key = self._n
            elif key in self._pending:
                del self._pending[key]
                self.counts["replaced"] += 1
            self._pending[key] = msg
            self.counts["queued"] += 1
            while len(self._pending) + len(self._inflight) > self.limit and self._pending:
                self._pending.popitem(last=False)
                self.counts["dropped"] += 1
            self._lock.notify_all()

    def _status(self, state: str, **extra: Any) -> dict[str, Any]:
        return {"v": SCHEMA_VERSION, "kind": "status", "venue": self.venue, "table": self.table, "state": state,
                "sent": time.time(), **extra}

    def queue_status(self, state: str, extra: dict[str, Any] | None = None) -> None:
        """The table's retained status ("online", "playing", "idle", "offline"), re-sent after every reconnect."""
        self._status_now = (state, dict(extra or {}))
        extra = self._status_now[1]
        self._queue(Outgoing(self.topic("status"), self._status(state, **extra), retain=True), key="status")

    def _game_msg(self, kind: str, seq: int, **body: Any) -> dict[str, Any]:
        return {"v": SCHEMA_VERSION, "kind": kind, "venue": self.venue, "table": self.table, "game": self._game_key,
                "seq": seq, "sent": time.time(), **body}

    def game_started(self, game_id: int, setup: dict[str, Any], started: float) -> None:
        """A new (or resumed) game: its key is the journal's game id and start time, stable across a resume."""
        self._game, self._game_key = game_id, f"{game_id}-{int(started)}"
        self._sent_events, self._ended = 0, False
        head = {k: setup.get(k) for k in ("game", "seats", "players") if k in setup}
        self._queue(Outgoing(self.topic("game", "started"), self._game_msg("started", 0, setup=head, started=started)))
        self.queue_status("playing", {"game": self._game_key, "name": setup.get("game")})

    def call(self, seq: int, event: dict[str, Any]) -> None:
        """One journaled event (a call, a set, a move) with its journal sequence number."""
        self._queue(Outgoing(self.topic("game", "call"), self._game_msg("call", seq, event=event)))

    def standings(self, seq: int, lines: list[str]) -> None:
        self._queue(Outgoing(self.topic("game", "standings"), self._game_msg("standings", seq, lines=lines),
                             retain=True), key="standings")

    def game_ended(self, game_id: int, setup: dict[str, Any], events: list[dict[str, Any]], started: float) -> None:
        """The game's record (``game.stats``), folded on the publisher's thread, not the table's."""
        seq = len(events) + 1
        msg = self._game_msg("ended", seq)
        events = list(events)

        def body() -> dict[str, Any]:
            rec = game_record(game_id, setup, events, started, finished=True)
            return dict(msg, record=rec.as_dict())

        self._queue(Outgoing(self.topic("game", "ended"), body))
        self._ended = True
        self.queue_status("idle", {"game": self._game_key})

    # -- the table app's hook -----------------------------------------------------------------------------

    def table_changed(self, app: Any) -> None:
        """Called by the table app after cues (a game start, every written event, time running on)."""
        try:
            self._table_changed(app)
        except Exception as exc:  # noqa: BLE001 - publishing never breaks play
            log.error("publisher: %s", exc)
            with self._lock:
                self.counts["errors"] += 1

    def _table_changed(self, app: Any) -> None:
        live = app.live
        if live is None:
            return
        if live.game_id != self._game:
            row = app.journal.db.execute("SELECT setup, started FROM games WHERE id = ?", (live.game_id,)).fetchone()
            self._setup, self._started = json.loads(row[0]), float(row[1])
            self.game_started(live.game_id, self._setup, self._started)
        events = live.table.events
        over = live.table.over
        if self._sent_events < len(events) or (over and not self._ended):
            while self._sent_events < len(events):
                self._sent_events += 1
                self.call(self._sent_events, events[self._sent_events - 1])
            ending = game_for(live.table.rules.name).standings(live.table.summary())  # as replay writes them
            lines = [ln.strip() for ln in ending if ln.strip() and ln.strip() != "Standings"]
            self.standings(len(events), lines)
        if over and not self._ended:
            self.game_ended(live.game_id, self._setup, events, self._started)

    def watch_devices(self, health: Callable[[], list[Any]], every: float = HEALTH_EVERY_S) -> None:
        """Publish every device's health (``DeviceHost.health``) now and every ``every`` s, and at once when a
        device goes online or offline (checked each second); on the publisher's own thread."""

        def run(stop: threading.Event) -> None:
            last: dict[str, tuple[bool, float]] = {}
            while not self._stop and not stop.is_set():
                now = time.monotonic()
                for h in health():  # a failure here is its supervisor's: logged once, retried with backoff
                    seen = last.get(h.name)
                    if seen is None or seen[0] != h.online or now - seen[1] >= every:
                        last[h.name] = (h.online, now)
                        self.device_health(h)
                stop.wait(1.0)

        self._health = Supervised("venue device health", run, backoff=(1.0, 30.0)).start()

    def device_health(self, h: Any) -> None:
        """One device's health (a ``DeviceHealth``), retained; a newer one replaces an older one still waiting."""
        body = {"v": SCHEMA_VERSION, "kind": "health", "venue": self.venue, "table": self.table, "device": h.name,
                "device_kind": h.kind, "seat": h.seat, "link": "online" if h.online else "offline",
                "battery_pct": h.battery_pct, "battery_mv": h.battery_mv, "link_pct": h.link_pct,
                "rssi_dbm": h.rssi_dbm, "events": h.events, "duplicates": h.duplicates, "sent": time.time()}
        self._queue(Outgoing(self.topic("device", h.name, "health"), body, retain=True), key=("health", h.name))
