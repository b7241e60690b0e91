"""Propose an `azul-kids-board/1` definition from a photo of an empty Kids board.

    draft = propose_board(photo_bgr, side="master", name="Sea (ours)")

The board is found as the largest four-cornered shape in the photo (or taken to fill
the photo), rectified, and its printed field outlines are found: light shapes closed by
a dark outline. Each field gets its shape (from its outline's geometry: fields are
printed upright, so a four-cornered outline standing on a corner is a diamond), its
centre `at` and its `outline`, board-relative. On a master side, fields inside one
printed frame form one picture. A person then completes the draft: picture ids and
the stars printed beside each picture (the draft has stars 0 and ids picture-1, ...).

    ./dev run python -m vision.kids_board_photo PHOTO --side master --name "Sea (ours)" > board.json
"""

from __future__ import annotations

import argparse
import json
import math
import sys

import cv2
import numpy as np

from companion.i18n import _
from companion.rules.kids_board import APPRENTICE, BOARD_FORMAT, MASTER_PICTURE_FIELDS, SIDES, KidsBoard
from vision.geometry import fit_quad, order_clockwise

_WIDTH_PX = 900  # the rectified board's width
_FIELD_AREA = (0.002, 0.05)  # a field's share of the board's area
_ROW_TOLERANCE = 0.06  # fields whose centres differ less than this in y are read as one row


class PhotoError(ValueError):
    """The photo shows no board whose fields can be found."""


def find_board(image: np.ndarray) -> np.ndarray:
    """Image corners (TL, TR, BR, BL) of the board: the largest convex four-cornered
    outline covering 5% or more of the photo, else the whole photo."""
    h, w = image.shape[:2]
    scale = min(1.0, 960 / max(w, h))
    small = cv2.resize(image, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_AREA)
    gray = cv2.GaussianBlur(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY), (5, 5), 0)
    edges = cv2.dilate(cv2.Canny(gray, 30, 90), np.ones((3, 3), np.uint8))
    contours, _unused = cv2.findContours(edges, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    best, best_area = None, 0.05 * small.shape[0] * small.shape[1]
    for c in contours:
        hull = cv2.convexHull(c)
        area = float(cv2.contourArea(hull))
        if area <= best_area:
            continue
        quad = fit_quad(c)
        if quad is None:
            continue
        if abs(float(cv2.contourArea(quad.astype(np.float32))) - area) < 0.06 * area:
            best, best_area = quad, area
    if best is None:
        return np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float64)
    return order_clockwise(best / scale)


def propose_board(image: np.ndarray, side: str = APPRENTICE, name: str = "My board") -> dict:
    """A draft board definition (a JSON-ready dict, valid `azul-kids-board/1`)."""
    if side not in SIDES:
        raise PhotoError(_("side must be 'apprentice' or 'master', not {found!r}").format(found=side))
    if image is None or image.ndim != 3 or image.shape[2] != 3 or min(image.shape[:2]) < 64:
        raise PhotoError(_("expected a colour photo of at least 64 x 64 pixels"))
    quad = find_board(image)
    top = (np.linalg.norm(quad[1] - quad[0]) + np.linalg.norm(quad[2] - quad[3])) / 2
    left = (np.linalg.norm(quad[3] - quad[0]) + np.linalg.norm(quad[2] - quad[1])) / 2
    width, height = _WIDTH_PX, max(64, round(_WIDTH_PX * left / max(1.0, top)))
    dst = np.float32([[0, 0], [width, 0], [width, height], [0, height]])
    board = cv2.warpPerspective(image, cv2.getPerspectiveTransform(np.float32(quad), dst), (width, height))
    fields, frames = _outlines(board)
    if not fields:
        raise PhotoError(_("found no printed field outlines on the board in the photo"))
    fields.sort(key=lambda f: f["centre"][1])
    rows: list[list[dict]] = []
    for f in fields:  # reading order: rows from the top, left to right
        if rows and abs(f["centre"][1] - rows[-1][0]["centre"][1]) < _ROW_TOLERANCE * height:
            rows[-1].append(f)
        else:
            rows.append([f])
    ordered = [f for row in rows for f in sorted(row, key=lambda f: f["centre"][0])]
    groups = _pictures(ordered, frames) if side != APPRENTICE else [ordered]
    size = np.array([width, height], np.float64)

    def rel(points: np.ndarray) -> list:
        return [[round(float(x), 3), round(float(y), 3)] for x, y in np.clip(points / size, 0, 1)]

    pictures = []
    for k, group in enumerate(groups, 1):
        pictures.append(
            {
                "id": "picture" if side == APPRENTICE else f"picture-{k}",
                "stars": 0,
                "fields": [
                    {"shape": f["shape"], "at": rel(f["centre"][None])[0], "outline": rel(f["outline"])}
                    for f in group
                ],
            }
        )
    draft = {
        "format": BOARD_FORMAT,
        "name": name,
        "side": side,
        "note": _(
            "Draft proposed from a photo: check every field's shape, name the pictures "
            "and write the stars printed beside them."
        ),
        "pictures": pictures,
    }
    KidsBoard.from_json(draft, _("draft"))  # a draft that is no valid board is a bug here
    return draft


def _outlines(board: np.ndarray) -> tuple[list[dict], list[np.ndarray]]:
    """Field outlines (light shapes closed by dark ink) and larger printed frames."""
    h, w = board.shape[:2]
    gray = cv2.cvtColor(board, cv2.COLOR_BGR2GRAY)
    block = max(15, (w // 40) | 1)
    ink = cv2.adaptiveThreshold(gray, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV, block, 12)
    ink = cv2.morphologyEx(ink, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    n, comp, stats, _unused = cv2.connectedComponentsWithStats(255 - ink, connectivity=4)
    fields, frames = [], []
    area_total = float(w * h)
    for i in range(1, n):
        x, y, bw, bh, area = stats[i]
        if x == 0 or y == 0 or x + bw >= w or y + bh >= h:
            continue
        share = area / area_total
        if share < _FIELD_AREA[0]:
            continue
        mask = (comp[y : y + bh, x : x + bw] == i).astype(np.uint8)
        contours, _unused = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        contour = np.add(max(contours, key=cv2.contourArea), (x, y))
        hull = cv2.convexHull(contour)
        if share > _FIELD_AREA[1] or area < 0.9 * float(cv2.contourArea(hull)):
            # a printed frame round other fields (they are holes in it), or no field
            frames.append(hull.reshape(-1, 2).astype(np.float64))
            continue
        shape = _field_shape(contour)
        if shape is None:
            continue
        # the printed ink lies just outside the light inside: grow the outline by half its width
        m = cv2.moments(hull)
        centre = np.array([m["m10"] / m["m00"], m["m01"] / m["m00"]])
        pts = _outline_points(hull.reshape(-1, 2).astype(np.float64), shape)
        pts = centre + (pts - centre) * (1 + 1.5 / max(1.0, math.sqrt(m["m00"] / math.pi)))
        fields.append({"shape": shape, "centre": centre, "outline": pts})
    return fields, frames


def _field_shape(contour: np.ndarray) -> str | None:
    """A field outline's shape. Fields may be drawn stretched (an oval circle, a wide
    hexagon) but are printed upright, so corners are counted rather than compared with
    a tile's regular shape: an ellipse that fits closely is a circle; four corners on
    the axes make a diamond, four off them a square; six corners a hexagon."""
    hull = cv2.convexHull(contour).reshape(-1, 2).astype(np.float32)
    if len(hull) < 4:
        return None
    # A crisp quadrilateral's hull has just 4 points: too few to fit an ellipse, and no circle.
    if len(hull) >= 5:
        (cx, cy), (a, b), angle = cv2.fitEllipse(hull)
        t = math.radians(angle)
        d = contour.reshape(-1, 2) - (cx, cy)
        u = (d[:, 0] * math.cos(t) + d[:, 1] * math.sin(t)) / max(1e-6, a / 2)
        v = (-d[:, 0] * math.sin(t) + d[:, 1] * math.cos(t)) / max(1e-6, b / 2)
        if np.abs(np.hypot(u, v) - 1).max() < 0.06:
            return "circle"
    peri = cv2.arcLength(hull, True)
    for eps in (0.035, 0.05):
        approx = cv2.approxPolyDP(hull, eps * peri, True).reshape(-1, 2)
        if len(approx) == 4:
            centre = approx.mean(axis=0)
            angles = np.degrees(np.arctan2(*(approx - centre).T[::-1])) % 90
            on_axis = np.mean(np.minimum(angles, 90 - angles))  # 0 = corners on the axes
            return "diamond" if on_axis < 22.5 else "square"
        if len(approx) == 6:
            return "hexagon"
    return None


def _outline_points(hull: np.ndarray, shape: str) -> np.ndarray:
    if shape == "circle":
        (cx, cy), (a, b), angle = cv2.fitEllipse(hull.astype(np.float32))
        t = np.radians(angle)
        k = np.linspace(0, 2 * np.pi, 8, endpoint=False)
        u, v = a / 2 * np.cos(k), b / 2 * np.sin(k)
        return np.column_stack([cx + u * np.cos(t) - v * np.sin(t), cy + u * np.sin(t) + v * np.cos(t)])
    corners = {"square": 4, "diamond": 4, "hexagon": 6}[shape]
    peri = cv2.arcLength(hull.astype(np.float32), True)
    for eps in (0.02, 0.03, 0.04, 0.06, 0.08):
        approx = cv2.approxPolyDP(hull.astype(np.float32), eps * peri, True).reshape(-1, 2)
        if len(approx) <= corners:
            return approx.astype(np.float64)
    return approx.astype(np.float64)


def _pictures(fields: list[dict], frames: list[np.ndarray]) -> list[list[dict]]:
    """Fields grouped by the smallest printed frame round them; at most 6 per picture."""
    groups: dict[int, list[dict]] = {}
    areas = [float(cv2.contourArea(f.astype(np.float32))) for f in frames]
    for f in fields:
        inside = [
            k
            for k, frame in enumerate(frames)
            if cv2.pointPolygonTest(frame.astype(np.float32), tuple(map(float, f["centre"])), False) > 0
        ]
        key = min(inside, key=lambda k: areas[k]) if inside else -1 - len(groups)
        groups.setdefault(key, []).append(f)
    most = MASTER_PICTURE_FIELDS[1]
    return [g[i : i + most] for g in groups.values() for i in range(0, len(g), most)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=_("Propose a Kids board definition from a photo of the empty board.")
    )
    parser.add_argument("photo")
    parser.add_argument("--side", choices=SIDES, default=APPRENTICE)
    parser.add_argument("--name", default=_("My board"))
    args = parser.parse_args(argv)
    image = cv2.imread(args.photo, cv2.IMREAD_COLOR)
    if image is None:
        print(_("{path}: cannot read the photo").format(path=args.photo), file=sys.stderr)
        return 2
    try:
        draft = propose_board(image, args.side, args.name)
    except PhotoError as error:
        print(f"{args.photo}: {error}", file=sys.stderr)
        return 2
    print(json.dumps(draft, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
