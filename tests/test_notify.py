import os
import socket

import pytest

from hardware.notify import Notifier


@pytest.fixture
def path_socket(tmp_path):
    path = tmp_path / "notify"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    sock.settimeout(2)
    yield str(path), sock
    sock.close()


def test_messages_reach_a_path_socket(path_socket):
    path, sock = path_socket
    notifier = Notifier({"NOTIFY_SOCKET": path})
    assert notifier.enabled
    assert notifier.ready()
    assert sock.recv(4096) == b"READY=1"
    assert notifier.watchdog()
    assert sock.recv(4096) == b"WATCHDOG=1"
    assert notifier.status("camera lost\nretrying")
    assert sock.recv(4096) == b"STATUS=camera lost retrying"
    assert notifier.ready(status="watching the table")
    assert sock.recv(4096) == b"READY=1\nSTATUS=watching the table"
    assert notifier.stopping()
    assert sock.recv(4096) == b"STOPPING=1"


def test_messages_reach_an_abstract_socket():
    name = f"azul-test-{os.getpid()}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(b"\0" + name.encode())
        sock.settimeout(2)
        assert Notifier({"NOTIFY_SOCKET": "@" + name}).ready()
        assert sock.recv(4096) == b"READY=1"


def test_without_notify_socket_nothing_is_sent():
    notifier = Notifier({})
    assert not notifier.enabled
    assert not notifier.ready()
    assert not notifier.watchdog()
    assert not notifier.status("hello")


def test_a_vanished_socket_does_not_raise(tmp_path):
    notifier = Notifier({"NOTIFY_SOCKET": str(tmp_path / "gone")})
    assert notifier.enabled
    assert not notifier.watchdog()


def test_a_relative_socket_value_is_ignored():
    assert not Notifier({"NOTIFY_SOCKET": "relative/notify"}).enabled


def test_watchdog_interval_is_half_the_limit_for_this_process():
    env = {"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": str(os.getpid())}
    assert Notifier(env).watchdog_interval == 15.0
    assert Notifier({"WATCHDOG_USEC": "4000000"}).watchdog_interval == 2.0
    assert Notifier({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "1"}).watchdog_interval is None
    assert Notifier({"WATCHDOG_USEC": "0"}).watchdog_interval is None
    assert Notifier({}).watchdog_interval is None
