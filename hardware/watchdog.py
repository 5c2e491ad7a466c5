"""systemd readiness and watchdog notifications (sd_notify) with the standard library only.

Under systemd with ``Type=notify`` the service manager sets ``$NOTIFY_SOCKET``; the kiosk sends
``READY=1`` once its first frame is on screen, ``STATUS=...`` lines that ``systemctl status``
shows, and ``WATCHDOG=1`` from the UI loop: if the loop hangs for ``WatchdogSec``, systemd kills
the kiosk and ``Restart=on-failure`` starts it again, reopening the saved game. Outside systemd
(no ``$NOTIFY_SOCKET``) every call is a cheap no-op.

Feed the watchdog from the UI loop itself (not from a helper thread), so a frozen loop is noticed.
"""

from __future__ import annotations

import os
import socket
import time
from collections.abc import Callable, Mapping


class Notifier:
    """Sends sd_notify messages to ``$NOTIFY_SOCKET`` (a path, or ``@name`` for the abstract
    namespace); disabled when the variable is unset. Send errors never raise: a broken socket
    must not stop the game, so they are counted in ``errors`` and the last one kept."""

    def __init__(self, env: Mapping[str, str] | None = None) -> None:
        env = os.environ if env is None else env
        raw = env.get("NOTIFY_SOCKET", "")
        self.address: str | bytes | None = None
        if raw.startswith("@"):
            self.address = b"\0" + raw[1:].encode()  # Linux abstract namespace
        elif raw.startswith("/"):
            self.address = raw
        self.errors = 0
        self.last_error: str | None = None
        self.watchdog_usec = _watchdog_usec(env)
        self._sock: socket.socket | None = None

    @property
    def enabled(self) -> bool:
        return self.address is not None

    def notify(self, *fields: str) -> bool:
        """Send ``KEY=VALUE`` fields in one datagram; True if it was sent."""
        if self.address is None:
            return False
        message = "\n".join(fields).encode("utf-8", "replace")
        try:
            if self._sock is None:
                self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)
            self._sock.sendto(message, self.address)
        except OSError as exc:
            self.errors += 1
            self.last_error = f"sd_notify to {self.address!r} failed: {exc}"
            return False
        return True

    def ready(self, status: str | None = None) -> bool:
        fields = ["READY=1"] + ([f"STATUS={_one_line(status)}"] if status else [])
        return self.notify(*fields)

    def status(self, text: str) -> bool:
        return self.notify(f"STATUS={_one_line(text)}")

    def watchdog(self) -> bool:
        return self.notify("WATCHDOG=1")

    def stopping(self, status: str | None = None) -> bool:
        fields = ["STOPPING=1"] + ([f"STATUS={_one_line(status)}"] if status else [])
        return self.notify(*fields)

    def close(self) -> None:
        if self._sock is not None:
            self._sock.close()
            self._sock = None


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _watchdog_usec(env: Mapping[str, str]) -> int | None:
    """``$WATCHDOG_USEC`` if it is meant for this process (``$WATCHDOG_PID`` unset or ours)."""
    try:
        usec = int(env.get("WATCHDOG_USEC", ""))
    except ValueError:
        return None
    pid = env.get("WATCHDOG_PID")
    if pid and pid != str(os.getpid()):
        return None
    return usec if usec > 0 else None


class WatchdogFeeder:
    """Rate-limits ``WATCHDOG=1`` from a UI loop that runs at frame rate: call :meth:`tick`
    every frame; it pings at most every ``interval`` seconds (default: a third of systemd's
    watchdog period, or 5 s when systemd gave none)."""

    def __init__(
        self,
        notifier: Notifier,
        interval: float | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.notifier = notifier
        if interval is None:
            usec = notifier.watchdog_usec
            interval = usec / 3e6 if usec else 5.0
        self.interval = interval
        self._clock = clock
        self._last: float | None = None
        self.sent = 0

    def tick(self) -> bool:
        if not self.notifier.enabled:
            return False
        now = self._clock()
        if self._last is not None and now - self._last < self.interval:
            return False
        self._last = now
        if self.notifier.watchdog():
            self.sent += 1
            return True
        return False
