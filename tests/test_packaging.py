"""The wheel that a Pi installs carries every file the program reads at run time."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).parent.parent
SOURCE_ONLY = {".po", ".pot"}  # translators' sources; the compiled .mo files ship


def test_the_wheel_holds_every_data_file(tmp_path):
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(tmp_path),
                    str(ROOT)], check=True, capture_output=True, timeout=300)
    (wheel,) = tmp_path.glob("azul_companion-*.whl")
    shipped = set(zipfile.ZipFile(wheel).namelist())
    tracked = subprocess.run(["git", "ls-files", "companion", "vision", "hardware"], cwd=ROOT, check=True,
                             capture_output=True, text=True).stdout.split()
    needed = {name for name in tracked if Path(name).suffix not in SOURCE_ONLY}
    assert needed - shipped == set()
    assert "companion/cli.py" in shipped and "vision/prototypes.json" in shipped
