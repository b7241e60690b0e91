"""The `azul-companion` command as a user runs it: a real process, real stdout."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

EXAMPLES = Path(__file__).parent.parent / "companion" / "examples"
HEAVY = {"pygame", "cv2", "numpy", "gpiozero", "picamera2", "paho"}


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "companion", *args], capture_output=True, text=True,
                          timeout=120, check=False)


def test_replay_json_stdout_is_exactly_one_summary_per_file():
    files = sorted(str(p) for p in EXAMPLES.glob("*.json"))
    result = run("replay", "--json", *files)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == len(files)
    assert all(json.loads(line)["format"].endswith("-summary/1") for line in lines)


def test_building_the_command_line_loads_no_heavy_module():
    # Every subcommand registers itself; none may pull in pygame, OpenCV or hardware to do so:
    # that would slow `replay` and `--help`, and pygame's import banner would pollute stdout.
    code = ("import sys\nfrom companion.cli import build_parser\nbuild_parser()\n"
            "print(' '.join(sorted({m.split('.')[0] for m in sys.modules})))")
    loaded = set(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                check=True).stdout.split())
    assert not loaded & HEAVY, sorted(loaded & HEAVY)


def test_help_lists_the_commands_and_exits_zero():
    result = run("--help")
    assert result.returncode == 0 and "replay" in result.stdout


def test_an_unknown_command_is_a_usage_error():
    result = run("frobnicate")
    assert result.returncode == 2 and "invalid choice" in result.stderr
