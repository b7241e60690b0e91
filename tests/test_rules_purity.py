"""companion/rules stays pure: no display, vision, hardware or hidden randomness."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

RULES = Path(__file__).parent.parent / "companion" / "rules"
FORBIDDEN = {"pygame", "cv2", "numpy", "random", "hardware", "gpiozero", "picamera2", "vision"}


@pytest.mark.parametrize("path", sorted(RULES.glob("*.py")), ids=lambda p: p.name)
def test_rules_modules_import_nothing_forbidden(path):
    tree = ast.parse(path.read_text())
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            imported.add(node.module.split(".")[0])
    assert not imported & FORBIDDEN, f"{path.name} imports {sorted(imported & FORBIDDEN)}"


def test_importing_the_rules_loads_none_of_them():
    # Transitively too: a fresh interpreter imports every rules module and lists what got loaded.
    names = ", ".join(f"companion.rules.{p.stem}" for p in sorted(RULES.glob("*.py")) if p.stem != "__init__")
    code = (f"import importlib, sys\nfor n in '{names}'.split(', '): importlib.import_module(n)\n"
            "print(' '.join(sorted(m.split('.')[0] for m in sys.modules)))")
    loaded = set(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                check=True).stdout.split())
    assert not loaded & FORBIDDEN
