"""Everyday things on the table that are not the game: cups, bottles, tile bags, mats.

They are placed on free table space (never on a board or factory), but tall
ones can still hide parts of the game from an oblique camera.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .camera import Camera
from .designs import bgr
from .solids import cap, solid_of_revolution


@dataclass(frozen=True)
class Thing:
    kind: str  # "cup", "bottle" or "bag"
    x: float
    y: float
    radius: float
    height: float
    color: tuple[float, float, float]  # BGR
    variant: int


_CUP_COLORS = [(245, 245, 240), (200, 60, 50), (40, 70, 140), (235, 200, 80), (60, 60, 64), (120, 170, 120)]
_BOTTLE_COLORS = [(40, 90, 40), (90, 50, 20), (170, 200, 210), (30, 40, 30)]
_BAG_COLORS = [(90, 30, 50), (30, 30, 36), (40, 50, 110), (110, 80, 50)]
_NEAREST_MM = 50.0  # no lens focuses nearer; a thing this close would be a blur anyway


def place_things(
    counts: dict[str, int],
    free: Callable[[float, float, float], bool],
    area: tuple[float, float, float, float],
    rng: np.random.Generator,
) -> list[Thing]:
    """Scatter things over `area` (x0, y0, x1, y1 mm) where free(x, y, radius) is true."""
    things: list[Thing] = []
    for kind, count in counts.items():
        for _ in range(count):
            if kind == "cup":
                radius, height = rng.uniform(36, 46), rng.uniform(80, 110)
                color = _CUP_COLORS[int(rng.integers(len(_CUP_COLORS)))]
            elif kind == "bottle":
                radius, height = rng.uniform(30, 40), rng.uniform(200, 290)
                color = _BOTTLE_COLORS[int(rng.integers(len(_BOTTLE_COLORS)))]
            else:
                radius, height = rng.uniform(60, 85), rng.uniform(30, 55)
                color = _BAG_COLORS[int(rng.integers(len(_BAG_COLORS)))]
            for _ in range(50):
                x, y = rng.uniform(area[0], area[2]), rng.uniform(area[1], area[3])
                clear_of_others = all(math.hypot(x - t.x, y - t.y) > radius + t.radius + 10 for t in things)
                if clear_of_others and free(x, y, radius + 10):
                    things.append(Thing(kind, x, y, radius, height, bgr(color), int(rng.integers(1 << 16))))
                    break
    return things


def in_view(thing: Thing, cam: Camera) -> bool:
    """Whether the whole thing lies in front of the camera. A thing set down beside or
    behind a low, tilted camera would project through the lens's plane into a smear over
    the whole photo (and the truth could not say what it hides): it is left off."""
    ring = _ring(thing)
    base, top = np.zeros((len(ring), 1)), np.full((len(ring), 1), thing.height)
    points = np.concatenate([np.hstack([ring, base]), np.hstack([ring, top])])
    return bool(cam.depth(points).min() > _NEAREST_MM)


def shadow_outline(thing: Thing, offset_per_mm: np.ndarray) -> np.ndarray:
    """Table points (x, y) whose hull is the thing's shadow on the table."""
    ring = _ring(thing)
    return np.concatenate([ring, ring + offset_per_mm * thing.height * 0.9])


def _ring(thing: Thing) -> np.ndarray:
    """Table points (x, y) round the thing's foot."""
    a = np.linspace(0, 2 * np.pi, 24, endpoint=False)
    return np.column_stack([thing.x + thing.radius * np.cos(a), thing.y + thing.radius * np.sin(a)])


def draw_thing(frame: np.ndarray, cam: Camera, thing: Thing, light: np.ndarray) -> np.ndarray:
    """Draw one thing; returns its image silhouette points."""
    c = (thing.x, thing.y)
    r, h = thing.radius, thing.height
    if thing.kind == "cup":
        sil = solid_of_revolution(frame, cam, c, [(0, r * 0.82), (h, r)], thing.color, light=light, gloss=0.5)
        rim = cap(frame, cam, c, r, h, color=np.asarray(thing.color) * 1.05)
        inner = cap(frame, cam, c, r * 0.9, h, color=np.asarray(thing.color) * 0.55, clip_to=rim)
        liquid = bgr((60, 34, 20)) if thing.variant % 2 else bgr((150, 90, 40))
        cap(frame, cam, c, r * 0.86, h - 14, color=liquid, clip_to=inner)
        return sil
    if thing.kind == "bottle":
        neck = r * 0.36
        profile = [
            (0, r),
            (h * 0.62, r),
            (h * 0.8, neck),
            (h * 0.96, neck),
            (h * 0.96, neck * 1.1),
            (h, neck * 1.1),
        ]
        opacity = 0.55 if thing.color[0] > 150 else 0.92  # a clear plastic bottle lets the table through
        sil = solid_of_revolution(
            frame, cam, c, profile, thing.color, light=light, opacity=opacity, gloss=0.8
        )
        cap_color = bgr((200, 200, 200)) if thing.variant % 2 else bgr((40, 40, 40))
        cap(frame, cam, c, neck * 1.1, h, color=cap_color)
        return sil
    wobble = 1 + 0.12 * np.sin(np.linspace(0, 2 * np.pi, 40, endpoint=False) * 3 + thing.variant)
    profile = [(0, r * 0.85), (h * 0.5, r), (h * 0.85, r * 0.8), (h, r * 0.45)]
    sil = solid_of_revolution(frame, cam, c, profile, thing.color, light=light, gloss=0.1, wobble=wobble)
    cap(frame, cam, c, r * 0.45, h, color=np.asarray(thing.color) * 1.1, wobble=wobble)
    return sil
