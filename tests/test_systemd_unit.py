"""The kiosk's systemd unit: systemd itself must accept it, and it must stay locked down."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

UNIT = Path(__file__).resolve().parent.parent / "systemd" / "azul-companion.service"
MAX_EXPOSURE = 4.0


def unit_settings(text):
    """{(section, key): [values]} of a unit file (keys may repeat)."""
    settings, section = {}, None
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            section = line.strip("[]")
            continue
        key, _sep, value = line.partition("=")
        settings.setdefault((section, key.strip()), []).append(value.strip())
    return settings


def installed_copy(tmp_path, extra=""):
    """The unit with ExecStart pointing at a program that exists here (verify checks it)."""
    text = UNIT.read_text()
    (exec_start,) = unit_settings(text)[("Service", "ExecStart")]
    program = exec_start.split()[0]
    assert program == "/opt/azul-companion/venv/bin/azul-companion"
    text = text.replace(f"ExecStart={program}", f"ExecStart={sys.executable}", 1)
    text = text.replace("[Service]\n", f"[Service]\n{extra}", 1)
    path = tmp_path / UNIT.name
    path.write_text(text)
    return path


def systemd_analyze(*args):
    env = {**os.environ, "SYSTEMD_COLORS": "0", "SYSTEMD_PAGER": ""}
    return subprocess.run(["systemd-analyze", "--no-pager", *args], capture_output=True,
                          text=True, env=env, check=False, timeout=120)


def test_systemd_analyze_verify_accepts_the_unit_without_a_word(tmp_path):
    result = systemd_analyze("verify", "--man=no", str(installed_copy(tmp_path)))
    assert result.returncode == 0, result.stderr
    assert result.stdout + result.stderr == ""


@pytest.mark.parametrize("typo", ["WatchdogSecs=30\n", "ProtectSystem=strictest\n"])
def test_verify_would_catch_a_typo(tmp_path, typo):
    result = systemd_analyze("verify", "--man=no", str(installed_copy(tmp_path, typo)))
    assert result.stdout + result.stderr != ""


def test_security_exposure_is_low(tmp_path):
    result = systemd_analyze("security", "--offline=true", str(installed_copy(tmp_path)))
    assert result.returncode == 0, result.stderr
    match = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", result.stdout)
    assert match, result.stdout
    assert float(match.group(1)) <= MAX_EXPOSURE, result.stdout


def test_the_unit_is_a_watched_kiosk_on_tty1():
    settings = unit_settings(UNIT.read_text())

    def value(key, section="Service"):
        (found,) = settings[(section, key)]
        return found

    assert value("Type") == "notify"
    assert int(value("WatchdogSec")) > 0
    assert value("Restart") == "on-failure"
    assert value("User") not in ("", "root")
    assert set(value("SupplementaryGroups").split()) == {"video", "input", "gpio", "render"}
    environment = " ".join(settings[("Service", "Environment")]).split()
    assert "SDL_VIDEODRIVER=kmsdrm" in environment
    assert value("TTYPath") == "/dev/tty1"
    assert value("Conflicts", "Unit") == "getty@tty1.service"
    assert value("StateDirectory") == "azul-companion"
    assert value("ExecStart").endswith("azul-companion run")
    for key, wanted in [("NoNewPrivileges", "yes"), ("ProtectSystem", "strict"),
                        ("ProtectHome", "yes"), ("PrivateTmp", "yes"),
                        ("DevicePolicy", "closed")]:
        assert value(key) == wanted, key
    assert value("WantedBy", "Install") == "multi-user.target"
