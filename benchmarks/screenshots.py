"""Screenshots of every screen at every supported size, into docs/screenshots/.

    SDL_VIDEODRIVER=dummy ./dev run python benchmarks/screenshots.py [--out DIR] [--players N]
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import cv2
import numpy as np
import pygame

from companion.ui import samples
from companion.ui.layout import SIZES


def save_small(surface: pygame.Surface, path: Path) -> None:
    """A PNG at the strongest compression, on a 64-level palette per channel (flat UI colours survive)."""
    rgb = pygame.surfarray.array3d(surface).swapaxes(0, 1)
    bgr = np.ascontiguousarray(rgb[:, :, ::-1] & 0xFC)
    if not cv2.imwrite(str(path), bgr, [cv2.IMWRITE_PNG_COMPRESSION, 9]):
        raise SystemExit(f"cannot write {path}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    docs = Path(__file__).resolve().parent.parent / "docs" / "screenshots"
    parser.add_argument("--out", type=Path, default=docs)
    parser.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
    parser.add_argument("--sizes", default=",".join(f"{w}x{h}" for w, h in SIZES))
    parser.add_argument("--screens", default=",".join(samples.SCREENS))
    args = parser.parse_args()
    pygame.font.init()
    args.out.mkdir(parents=True, exist_ok=True)
    for text in args.sizes.split(","):
        size = tuple(int(v) for v in text.split("x"))
        for name in args.screens.split(","):
            surface, _canvas, _app = samples.render(name, size, args.players)
            path = args.out / f"{name}-{size[0]}x{size[1]}.png"
            save_small(surface, path)
            print(f"{path} {path.stat().st_size // 1024} KB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
