"""Screenshots of every Azul Kids screen, into docs/screenshots/kids-*.png.

    SDL_VIDEODRIVER=dummy ./dev run python benchmarks/kids_screenshots.py [--out DIR]

Each screen at 800x480 (the official 7-inch screen) and 1280x720, master side with 4
players; the table, "none of these" (the list of every take) and the end also on the
apprentice side with 2 players.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pygame

from benchmarks.screenshots import save_small
from companion.ui.kids import samples

SIZES = ((800, 480), (1280, 720))
LIMIT = 150 * 1024


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--out", type=Path, default=Path(__file__).resolve().parent.parent / "docs" / "screenshots"
    )
    args = parser.parse_args()
    pygame.font.init()
    args.out.mkdir(parents=True, exist_ok=True)
    shots = [(name, 4, "master") for name in samples.SCREENS] + [
        ("table", 2, "apprentice"),
        ("entry", 2, "apprentice"),
        ("end", 2, "apprentice"),
    ]
    for size in SIZES:
        for name, players, side in shots:
            surface, _canvas, _app = samples.render(name, size, players, side)
            path = args.out / f"kids-{name}-{side}-{size[0]}x{size[1]}.png"
            save_small(surface, path)
            kb = path.stat().st_size / 1024
            print(f"{path} {kb:.0f} KB")
            if path.stat().st_size >= LIMIT:
                raise SystemExit(f"{path} is {kb:.0f} KB; keep screenshots under {LIMIT // 1024} KB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
