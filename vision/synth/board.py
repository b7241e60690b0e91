"""The player board: its artwork (both sides) and where its places are.

Positions are in mm from the board's top-left corner, upright (score track at
the top). The lower panel follows the measured layout of a real board: on a
900 x 600 px rectified crop of that panel, wall cell centres sit at x = 512..848
(step 84) and y = 57..401 (step 86), pattern-line cells end at x = 388 and step
left by 84, floor centres at x = 50 + 90k, y = 545, cells about 78 px.
"""

from __future__ import annotations

from functools import cache, partial
from pathlib import Path

import cv2
import numpy as np

from .designs import CREAM, GREY_CELL_RGB, PRINTED_PALETTE, bgr, design_image
from .scene import printed_color
from .sprites import LazySprite, rounded_rect_alpha, smooth_noise

BOARD_W_MM = 260.0
BOARD_H_MM = 250.0
BOARD_THICKNESS_MM = 2.5
PANEL_X0_MM = 8.5  # left edge of the rectified lower panel
PANEL_Y0_MM = 80.0  # top edge of the rectified lower panel
PANEL_MM_PER_PX = 243.0 / 900.0
CELL_MM = 78 * PANEL_MM_PER_PX
SCORE_X0_MM, SCORE_PITCH_MM = 16.0, 11.4
SCORE_Y0_MM, SCORE_ROW_MM = 15.0, 12.6
SCORE_CELL_MM = 10.0
FLOOR_PENALTIES = ("-1", "-1", "-2", "-2", "-2", "-3", "-3")

_PX_PER_MM = 6.0

# What the board prints in text: (height mm, stroke mm, font) of each kind of label.
_SCORE_TEXT = (3.6, 0.45, cv2.FONT_HERSHEY_SIMPLEX)
_NAME_TEXT = (12.0, 1.4, cv2.FONT_HERSHEY_TRIPLEX)
_FLOOR_TEXT = (4.0, 0.55, cv2.FONT_HERSHEY_SIMPLEX)
_BONUS_TEXT = (5.5, 0.8, cv2.FONT_HERSHEY_SIMPLEX)
BONUS_LABELS = ("+2", "+7", "+10")
# The labels as OpenCV 5.0 drew them (`python -m vision.synth.board` writes them): 5.1
# draws text differently, and the boards every benchmark frame, test and place model was
# made from would change with the OpenCV installed.
_LABELS_PATH = Path(__file__).with_name("board_labels.npz")


def _panel(x_px: float, y_px: float) -> tuple[float, float]:
    return (PANEL_X0_MM + x_px * PANEL_MM_PER_PX, PANEL_Y0_MM + y_px * PANEL_MM_PER_PX)


def wall_cell(row: int, column: int) -> tuple[float, float]:
    return _panel(512 + 84 * column, 57 + 86 * row)


def line_cell(line: int, place: int) -> tuple[float, float]:
    """Centre of pattern line `line` (0-based), place 0 being the one next to the wall."""
    return _panel(388 - 84 * place, 57 + 86 * line)


def floor_cell(place: int) -> tuple[float, float]:
    return _panel(50 + 90 * place, 545)


def score_cell(score: int) -> tuple[float, float]:
    """The score track square a score is marked on (the track wraps after 100)."""
    s = score % 100
    return (SCORE_X0_MM + SCORE_PITCH_MM * (s % 20), SCORE_Y0_MM + SCORE_ROW_MM * (s // 20))


def _labels() -> list[tuple[str, tuple[float, float, int]]]:
    """Every label the board prints, with its style."""
    return ([(str(score), _SCORE_TEXT) for score in range(0, 100, 5)] + [("AZUL", _NAME_TEXT)]
            + [(label, _FLOOR_TEXT) for label in sorted(set(FLOOR_PENALTIES))]
            + [(label, _BONUS_TEXT) for label in BONUS_LABELS])


def _label_key(text: str, style: tuple[float, float, int]) -> str:
    return f"{text} {style[0]} {style[1]} {style[2]}"


def _label_pad(style: tuple[float, float, int], s: float) -> int:
    """The px round a label's text box in its mask: its stroke and two more."""
    return max(1, round(style[1] * s)) + 2


def _drawn_label(text: str, style: tuple[float, float, int], s: float) -> np.ndarray:
    """A label's mask (8-bit: putText draws on nothing else) as the OpenCV installed draws
    it: the text's box, padded (_label_pad), four px more below."""
    height_mm, thickness_mm, font = style
    scale = height_mm * s / 22.0
    thick = max(1, round(thickness_mm * s))
    (w, h), _ = cv2.getTextSize(text, font, scale, thick)
    pad = _label_pad(style, s)
    mask = np.zeros((h + 2 * pad + 4, w + 2 * pad), np.uint8)
    cv2.putText(mask, text, (pad, pad + h), font, scale, 255, thick, cv2.LINE_AA)
    return mask


@cache
def _stored_labels() -> dict[str, np.ndarray]:
    with np.load(_LABELS_PATH) as stored:
        return {key: stored[key] for key in stored.files}


def write_labels(path: Path = _LABELS_PATH) -> None:
    """Store every label the board prints as the OpenCV installed draws it."""
    np.savez_compressed(path, **{_label_key(t, st): _drawn_label(t, st, _PX_PER_MM) for t, st in _labels()})


def _text(
    img: np.ndarray,
    text: str,
    center: tuple[float, float],
    style: tuple[float, float, int],
    color: tuple[float, ...],
    *,
    s: float,
) -> None:
    mask = _stored_labels()[_label_key(text, style)]  # drawn at _PX_PER_MM, as the board is
    pad = _label_pad(style, s)
    w, h = mask.shape[1] - 2 * pad, mask.shape[0] - 2 * pad - 4
    x0, y0 = round(center[0] * s - w / 2) - pad, round(center[1] * s - h / 2) - pad
    roi = img[y0 : y0 + mask.shape[0], x0 : x0 + mask.shape[1]]
    a = (mask[: roi.shape[0], : roi.shape[1]].astype(np.float32) / 255)[..., None]
    roi[:] = roi * (1 - a) + np.float32(color) * a


def _square(
    img: np.ndarray,
    center: tuple[float, float],
    size_mm: float,
    s: float,
    fill: tuple[float, ...],
    *,
    outline: tuple[float, ...] | None = None,
    outline_mm: float = 0.6,
) -> None:
    half = size_mm / 2
    p0 = (round((center[0] - half) * s), round((center[1] - half) * s))
    p1 = (round((center[0] + half) * s), round((center[1] + half) * s))
    cv2.rectangle(img, p0, p1, fill, -1, cv2.LINE_AA)
    if outline is not None:
        cv2.rectangle(img, p0, p1, outline, max(1, round(outline_mm * s)), cv2.LINE_AA)


def _ornament_background(h: int, w: int, s: float, rng: np.random.Generator) -> np.ndarray:
    """Blue ornamental print: a lattice of lighter quatrefoils on deep blue."""
    img = np.empty((h, w, 3), np.float32)
    img[:] = bgr((33, 84, 148))
    light, dark = bgr((74, 128, 188)), bgr((22, 58, 112))
    pitch = 9.0
    for gy in np.arange(pitch / 2, h / s, pitch):
        for gx in np.arange(pitch / 2, w / s, pitch):
            c = (round(gx * s), round(gy * s))
            r = round(2.2 * s)
            for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                cv2.circle(img, (c[0] + dx * r, c[1] + dy * r), round(1.6 * s), light, -1, cv2.LINE_AA)
            cv2.circle(img, c, round(1.1 * s), dark, -1, cv2.LINE_AA)
    mottle = smooth_noise((h, w), 20 * s, rng)
    mottle *= np.float32(0.03)
    mottle += np.float32(1)
    img *= mottle[..., None]
    return img


def _marble(h: int, w: int, s: float, rng: np.random.Generator) -> np.ndarray:
    """Brightness of the cream marble panel (veins and mottle), computed in place to
    keep a board-sized drawing light."""
    low = smooth_noise((h, w), 40 * s, rng)
    yy = np.arange(h, dtype=np.float32)[:, None] / s
    xx = np.arange(w, dtype=np.float32) / s
    shade = 0.05 * xx + 0.03 * yy
    low *= np.float32(2.2)
    shade += low
    del low
    veins = np.abs(np.sin(shade, out=shade), out=shade)
    darken = np.negative(veins, out=veins)
    darken *= np.float32(14)
    np.exp(darken, out=darken)
    darken *= np.float32(0.10)
    np.subtract(np.float32(1), darken, out=darken)
    darken -= np.float32(0.025) * smooth_noise((h, w), 8 * s, rng)
    return darken


def _draw_board(side: str) -> tuple[np.ndarray, np.ndarray]:
    s = _PX_PER_MM
    w, h = round(BOARD_W_MM * s), round(BOARD_H_MM * s)
    rng = np.random.default_rng(7)
    img = _ornament_background(h, w, s, rng)
    cream_line = bgr((226, 204, 150))
    cv2.rectangle(
        img,
        (round(2.5 * s), round(2.5 * s)),
        (w - round(2.5 * s), h - round(2.5 * s)),
        cream_line,
        max(1, round(0.6 * s)),
        cv2.LINE_AA,
    )

    cell_cream = bgr((242, 234, 214))
    ink = bgr((40, 34, 30))
    for score in range(100):
        center = score_cell(score)
        _square(img, center, SCORE_CELL_MM, s, cell_cream)
        if score % 5 == 0:
            _text(img, str(score), center, _SCORE_TEXT, ink, s=s)

    x0, y0 = round(PANEL_X0_MM * s), round(PANEL_Y0_MM * s)
    x1, y1 = round((PANEL_X0_MM + 243) * s), round((PANEL_Y0_MM + 162) * s)
    np.multiply(_marble(y1 - y0, x1 - x0, s, rng)[..., None], np.float32(bgr(CREAM)), out=img[y0:y1, x0:x1])
    cv2.rectangle(img, (x0, y0), (x1, y1), cream_line, max(1, round(0.5 * s)), cv2.LINE_AA)

    _text(img, "AZUL", _panel(115, 55), _NAME_TEXT, bgr((30, 70, 140)), s=s)

    orange = bgr((222, 128, 52))
    for line in range(5):
        for place in range(line + 1):
            _square(img, line_cell(line, place), CELL_MM, s, cell_cream, outline=orange, outline_mm=0.55)
        cx, cy = _panel(452, 57 + 86 * line)
        tri = np.array([[cx - 2.6, cy - 3.6], [cx + 3.0, cy], [cx - 2.6, cy + 3.6]]) * s
        cv2.fillPoly(img, [np.round(tri).astype(np.int32)], bgr((52, 44, 44)), cv2.LINE_AA)

    cell_px = round(CELL_MM * s)
    wall_frame = bgr((120, 100, 80))
    for row in range(5):
        for column in range(5):
            cx, cy = wall_cell(row, column)
            x, y = round((cx - CELL_MM / 2) * s), round((cy - CELL_MM / 2) * s)
            if side == "colored":
                img[y : y + cell_px, x : x + cell_px] = design_image(
                    printed_color(row, column), cell_px, PRINTED_PALETTE
                )
            else:
                img[y : y + cell_px, x : x + cell_px] = bgr(GREY_CELL_RGB)
            cv2.rectangle(
                img, (x, y), (x + cell_px, y + cell_px), wall_frame, max(1, round(0.35 * s)), cv2.LINE_AA
            )

    for place, label in enumerate(FLOOR_PENALTIES):
        cx, cy = floor_cell(place)
        half = CELL_MM / 2
        arch = [(cx - half, cy + half), (cx - half, cy - half / 3)]
        arch += [
            (cx - half * np.cos(a), cy - half / 3 - half * 0.75 * np.sin(a))
            for a in np.linspace(0, np.pi, 24)
        ]
        arch += [(cx + half, cy + half)]
        poly = np.round(np.array(arch) * s).astype(np.int32)
        cv2.fillPoly(img, [poly], cell_cream, cv2.LINE_AA)
        cv2.polylines(img, [poly], True, orange, max(1, round(0.55 * s)), cv2.LINE_AA)
        _text(img, label, (cx, cy - half - 4.2), _FLOOR_TEXT, ink, s=s)

    bx0, by0 = _panel(655, 470)
    bx1, by1 = _panel(890, 592)
    cv2.rectangle(
        img,
        (round(bx0 * s), round(by0 * s)),
        (round(bx1 * s), round(by1 * s)),
        bgr((38, 92, 156)),
        -1,
        cv2.LINE_AA,
    )
    for k, label in enumerate(BONUS_LABELS):
        cx = bx0 + (bx1 - bx0) * (k + 0.5) / 3
        _text(img, label, (cx, (by0 + by1) / 2 + 3), _BONUS_TEXT, bgr(CREAM), s=s)
        _square(img, (cx, by0 + 7), 3.5, s, bgr(CREAM))
    return np.clip(img, 0, 255, out=img), rounded_rect_alpha(w, h, 2.0 * s)


@cache
def board_sprite(side: str) -> LazySprite:
    return LazySprite(partial(_draw_board, side), _PX_PER_MM, min_size=64)


EDGE_BGR = bgr((36, 52, 88))


if __name__ == "__main__":
    write_labels()
