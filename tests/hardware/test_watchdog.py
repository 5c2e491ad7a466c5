from __future__ import annotations

import os
import socket
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from hardware.watchdog import Notifier, WatchdogFeeder


@pytest.fixture()
def listener(tmp_path: Path) -> Iterator[tuple[socket.socket, str]]:
    path = tmp_path / "notify.sock"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    sock.settimeout(5)
    yield sock, str(path)
    sock.close()


def recv(sock: socket.socket) -> list[str]:
    return sock.recv(4096).decode().split("\n")


def test_no_socket_is_a_no_op() -> None:
    notifier = Notifier(env={})
    assert not notifier.enabled
    assert notifier.ready("hello") is False
    assert notifier.watchdog() is False
    assert WatchdogFeeder(notifier).tick() is False
    assert notifier.errors == 0


def test_messages_arrive(listener: tuple[socket.socket, str]) -> None:
    sock, path = listener
    notifier = Notifier(env={"NOTIFY_SOCKET": path})
    assert notifier.enabled
    assert notifier.ready("game loaded:\n12 actions")
    assert recv(sock) == ["READY=1", "STATUS=game loaded: 12 actions"]
    assert notifier.watchdog()
    assert recv(sock) == ["WATCHDOG=1"]
    assert notifier.status("camera failed, using buttons")
    assert recv(sock) == ["STATUS=camera failed, using buttons"]
    assert notifier.stopping()
    assert recv(sock) == ["STOPPING=1"]
    notifier.close()


def test_abstract_namespace() -> None:
    name = f"companion-test-{uuid.uuid4().hex}"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(b"\0" + name.encode())
    sock.settimeout(5)
    try:
        notifier = Notifier(env={"NOTIFY_SOCKET": "@" + name})
        assert notifier.watchdog()
        assert recv(sock) == ["WATCHDOG=1"]
    finally:
        sock.close()


def test_vanished_socket_counts_errors_and_does_not_raise(tmp_path: Path) -> None:
    notifier = Notifier(env={"NOTIFY_SOCKET": str(tmp_path / "gone.sock")})
    assert notifier.watchdog() is False
    assert notifier.errors == 1
    assert notifier.last_error is not None and "gone.sock" in notifier.last_error


def test_feeder_rate_limits_from_watchdog_usec(listener: tuple[socket.socket, str]) -> None:
    sock, path = listener
    now = [0.0]
    env = {"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "15000000", "WATCHDOG_PID": str(os.getpid())}
    feeder = WatchdogFeeder(Notifier(env=env), clock=lambda: now[0])
    assert feeder.interval == pytest.approx(5.0)
    sent = []
    for frame in range(600):  # 20 s of frames at 30 fps
        now[0] = frame / 30
        sent.append(feeder.tick())
    assert sum(sent) == 4  # at 0, 5, 10, 15 s
    assert feeder.sent == 4
    for _ in range(4):
        assert recv(sock) == ["WATCHDOG=1"]


def test_watchdog_for_another_pid_is_ignored() -> None:
    env = {"NOTIFY_SOCKET": "/x", "WATCHDOG_USEC": "15000000", "WATCHDOG_PID": "1"}
    assert Notifier(env=env).watchdog_usec is None or os.getpid() == 1
