"""Tell systemd how the service is doing: the sd_notify protocol, by hand.

systemd passes a datagram socket in ``$NOTIFY_SOCKET`` (a path, or an abstract
socket name written with a leading ``@``); each message is ``KEY=value`` lines.
Without the variable (tests, a terminal) every call is a quiet no-op, and a
failed send never stops the kiosk: it only returns False.
"""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import Mapping

log = logging.getLogger(__name__)


class Notifier:
    """Sends READY=1, WATCHDOG=1, STATUS=... to the service manager, if there is one."""

    def __init__(self, env: Mapping[str, str] | None = None) -> None:
        env = os.environ if env is None else env
        self.address = _address(env.get("NOTIFY_SOCKET", ""))
        self.watchdog_interval = _watchdog_interval(env)

    @property
    def enabled(self) -> bool:
        return self.address is not None

    def send(self, **fields: str | int) -> bool:
        """Send one message of ``KEY=value`` fields; True if it was handed to systemd."""
        if self.address is None:
            return False
        message = "\n".join(f"{key}={value}" for key, value in fields.items()).encode()
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
                sock.sendto(message, self.address)
        except OSError as error:
            log.warning("sd_notify to %r failed: %s", self.address, error)
            return False
        return True

    def ready(self, status: str | None = None) -> bool:
        if status is None:
            return self.send(READY=1)
        return self.send(READY=1, STATUS=status)

    def watchdog(self) -> bool:
        return self.send(WATCHDOG=1)

    def status(self, text: str) -> bool:
        # One datagram is one message: a newline would start a bogus field.
        return self.send(STATUS=" ".join(text.splitlines()))

    def stopping(self) -> bool:
        return self.send(STOPPING=1)


def _address(value: str) -> str | bytes | None:
    if not value:
        return None
    if value.startswith("@"):
        return b"\0" + value[1:].encode()
    if value.startswith("/"):
        return value
    log.warning("NOTIFY_SOCKET=%r is neither a path nor an abstract name; ignoring it", value)
    return None


def _watchdog_interval(env: Mapping[str, str]) -> float | None:
    """Seconds between WATCHDOG=1 pings (half the limit), or None without a watchdog."""
    usec = env.get("WATCHDOG_USEC", "")
    pid = env.get("WATCHDOG_PID", "")
    # WATCHDOG_PID names the process systemd watches; a child inherits the variable.
    if not usec.isdigit() or int(usec) == 0 or (pid and pid != str(os.getpid())):
        return None
    return int(usec) / 2_000_000
