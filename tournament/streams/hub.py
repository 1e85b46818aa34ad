"""The fan-out of one app server's process: every stream it holds subscribes here to its topics; one reader
reads what the topics show (``topics.read``, a few queries for all of them) and wakes the streams whose topics
changed. However many phones follow a table or a tournament, the database is read once a change, not once a
phone.

When it reads:
- at an announcement (PostgreSQL: ``LISTEN`` on ``announcements.CHANNEL``, the writers' ``NOTIFY`` delivered
  at their commit, from whichever app server wrote): the announced topics only, at once;
- every ``settings.STREAM_CHECK_SECONDS`` (half a second on SQLite, where nothing is announced; a few seconds
  on PostgreSQL, for the writes that announce nothing): every topic served;
- when a stream subscribes to a topic not yet read.

A stream's events (``stream``): ``retry`` first, then an event when its topics' tokens are not the ones of the
``Last-Event-ID`` it came back with (or the ``last`` its page was rendered with), then one at every change, a
comment every ``HEARTBEAT_SECONDS`` to keep proxies from closing an idle connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import weakref
from concurrent.futures import ThreadPoolExecutor

from django.conf import settings
from django.db import connection

from tournament.models.announcements import CHANNEL
from tournament.streams import topics as topic_reads
from tournament.streams.topics import Topic

log = logging.getLogger(__name__)

HEARTBEAT_SECONDS = 15
RECONNECT_SECONDS = 2  # the browser's wait before it reconnects a dropped stream (its ``retry``)


class Subscription:
    def __init__(self, topics: frozenset[Topic]):
        self.topics = topics
        self.changed = asyncio.Event()


def _read(wanted: set[Topic]) -> dict[Topic, dict]:
    """In the hub's own thread, with its own database connection (dropped after a failure: the next read
    connects again)."""
    try:
        return topic_reads.read(wanted)
    except Exception:
        connection.close()
        raise


class Hub:
    def __init__(self):
        self.by_topic: dict[Topic, set[Subscription]] = {}
        self.shown: dict[Topic, dict] = {}
        self._due: set[Topic] = set()
        self._waiting: set[Subscription] = set()  # subscribed to a topic not read yet
        self.reads = 0  # how many times the database was read (the tests count them)
        self.periodic_reads = 0  # of which at the period's end, every topic served
        self._wake = asyncio.Event()
        self._reader = ThreadPoolExecutor(max_workers=1, thread_name_prefix="streams")
        self._tasks = [asyncio.create_task(self._run())]
        if connection.vendor == "postgresql":
            self._tasks.append(asyncio.create_task(self._listen()))

    def subscribe(self, topics: frozenset[Topic]) -> Subscription:
        subscription = Subscription(topics)
        for topic in topics:
            self.by_topic.setdefault(topic, set()).add(subscription)
        unread = {t for t in topics if t not in self.shown}
        if unread:
            self._waiting.add(subscription)
            self._read_soon(unread)
        else:
            subscription.changed.set()  # compared with its ``last`` at once
        return subscription

    def unsubscribe(self, subscription: Subscription) -> None:
        self._waiting.discard(subscription)
        for topic in subscription.topics:
            held = self.by_topic.get(topic)
            if held is not None:
                held.discard(subscription)
                if not held:
                    del self.by_topic[topic]
                    self.shown.pop(topic, None)

    def _read_soon(self, wanted: set[Topic]) -> None:
        self._due |= wanted
        self._wake.set()

    def announced(self, payload: str) -> None:
        kind, _, pk = payload.partition(":")
        if not (pk.isascii() and pk.isdigit()):
            return
        wanted = {(kind, int(pk))} & self.by_topic.keys()
        if kind == "table":  # a move: the round pages' sums of moves too
            wanted |= {t for t in self.by_topic if t[0] == "play"}
        if kind == "tournament":  # (its standings are a part of it)
            wanted |= {("standings", int(pk))} & self.by_topic.keys()
        if wanted:
            self._read_soon(wanted)

    async def _run(self):
        loop = asyncio.get_running_loop()
        every = settings.STREAM_CHECK_SECONDS
        last_whole = loop.time()
        while True:
            # woken by an announcement or a new subscription, or at the period's end; every topic served is
            # read once a period however often announcements wake the hub (a busy server's moves must not
            # keep the writes that announce nothing, a seat moved, from ever being read)
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout_at(last_whole + every):
                    await self._wake.wait()
            self._wake.clear()
            periodic = loop.time() >= last_whole + every
            if periodic:
                wanted, last_whole = set(self.by_topic), loop.time()
            else:
                wanted = self._due & self.by_topic.keys()
            self._due = set()
            if not wanted:
                continue
            self.reads += 1
            self.periodic_reads += periodic
            try:
                shown = await loop.run_in_executor(self._reader, _read, wanted)
            except Exception:
                log.exception("The event streams could not read what changed; trying again")
                self._due |= wanted
                await asyncio.sleep(settings.STREAM_CHECK_SECONDS)
                continue
            for topic, now in shown.items():
                if topic in self.by_topic and self.shown.get(topic, {}).get("token") != now["token"]:
                    self.shown[topic] = now
                    for subscription in self.by_topic[topic]:
                        subscription.changed.set()
            for subscription in [s for s in self._waiting if s.topics <= self.shown.keys()]:
                self._waiting.discard(subscription)
                subscription.changed.set()

    async def _listen(self):
        import psycopg  # PostgreSQL only

        loop = asyncio.get_running_loop()
        while True:
            try:
                params = await loop.run_in_executor(self._reader, lambda: connection.get_connection_params())
                for django_only in ("cursor_factory", "context", "prepare_threshold"):
                    params.pop(django_only, None)
                async with await psycopg.AsyncConnection.connect(**params, autocommit=True) as listening:
                    await listening.execute(f"LISTEN {CHANNEL}")
                    self._read_soon(set(self.by_topic))  # what changed while nobody listened
                    async for note in listening.notifies():
                        self.announced(note.payload)
            except (psycopg.Error, OSError):
                log.warning("The streams lost PostgreSQL's announcements; listening again", exc_info=True)
                await asyncio.sleep(1)

    def event(self, topics: frozenset[Topic], last: str) -> tuple[str, str] | None:
        """The stream's id now and its event, when its topics are not at ``last`` (None: nothing to tell, or
        not read yet)."""
        if not all(t in self.shown for t in topics):
            return None
        now = topic_reads.stream_id(self.shown, topics)
        if now == last:
            return None
        return now, message(now, topic_reads.changed_since(last, self.shown, topics), self.shown)


def message(stream_id: str, changed: list[Topic], shown: dict[Topic, dict]) -> str:
    """An event: its id (the stream's position), and what changed — the topics, and a table's game's version
    and the sequence number of its latest move, a tournament's sum of moves for the round page."""
    data: dict = {"changed": [f"{kind}{pk}" for kind, pk in changed]}
    for topic in changed:
        data.update({k: v for k, v in shown[topic].items() if k != "token"})
    return f"id: {stream_id}\nevent: change\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


_hubs: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Hub] = weakref.WeakKeyDictionary()


def hub() -> Hub:
    """This process's hub (one an event loop: the ASGI server's)."""
    loop = asyncio.get_running_loop()
    if loop not in _hubs:
        _hubs[loop] = Hub()
    return _hubs[loop]


def close_all() -> None:
    """Each hub's database connection closed, once its server stopped (the tests' servers: a database
    dropped after them must not be in use)."""
    for each in list(_hubs.values()):
        each._reader.submit(lambda: connection.close()).result()  # (the thread's own connection)
        each._reader.shutdown()
    _hubs.clear()


async def stream(topics: frozenset[Topic], last: str):
    """A stream's events while the browser holds it (the ASGI server cancels it when the browser goes)."""
    here = hub()
    subscription = here.subscribe(topics)
    try:
        yield f"retry: {RECONNECT_SECONDS * 1000}\n\n"
        while True:
            try:  # (not wait_for: on Python 3.11 it may lose the cancel of a browser gone as an event comes)
                async with asyncio.timeout(HEARTBEAT_SECONDS):
                    await subscription.changed.wait()
            except TimeoutError:
                yield ": still here\n\n"
                continue
            subscription.changed.clear()
            event = here.event(topics, last)
            if event is not None:
                last, text = event
                yield text
    finally:
        here.unsubscribe(subscription)
