"""Board frames: the thin violet band round every Kids board, found as four straight
outer edges even where part of it is hidden.

A board's frame is seldom one clean ring: an arm cuts it in two, a violet place mat
swallows one side, the photo's edge cuts a corner off. So the band is first told from
thick violet things (the tray, mats) by an opening, then each piece of band is read as
straight lines along the outside of its convex hull (the frame's outer edge; its inner
edge and the cut ends lie inside the hull). Four lines round a piece make a board; a
piece with fewer is joined with a neighbouring piece that completes it (an arm across
the board). A frame that still shows only three sides (one out of the photo) is
completed on the table's plane, known from a board found whole (complete_frame), and
one showing only two sides meeting at a corner is completed there both ways round
(complete_corner), for the print to decide. The image's own border is never taken for
an edge. A band that runs into other violet (a violet mat, the tray) is taken out with
it, but still closes round the board's light inside: that four-cornered hole gives the
frame from inside (frames_from_holes).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field

import cv2
import numpy as np

_THICK_PX = 13  # violet thicker than this (small-mask px) is no frame: the tray, a mat
_ON_HULL_PX = 2.5  # an outline point this close to its hull lies on the frame's outer edge
_LINE_TOL_PX = 2.0  # an outer-edge point this close to a line supports it
_MIN_SIDE_PX = 16  # the least run of straight outer edge that counts as a side
_MAX_PIECES = 14  # pieces tried for joining, largest first


def thin_band(violet: np.ndarray) -> np.ndarray:
    """The violet pixels of thin bands (board frames), without thick violet (tray, mats)."""
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (_THICK_PX, _THICK_PX))
    thick = cv2.morphologyEx(violet, cv2.MORPH_OPEN, kernel)
    thick = cv2.dilate(thick, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5)))
    return cv2.bitwise_and(violet, cv2.bitwise_not(thick))


@dataclass
class Frames:
    """What the violet bands show: whole frames (quads, clockwise from any corner),
    frames with one side unseen (three sides: a side out of the photo or under things)
    and frames showing only a corner (two adjacent sides: an arm over the rest), each
    side as (point, outward unit normal). All in the mask's px."""

    quads: list[np.ndarray] = field(default_factory=list)
    open: list[list[tuple[np.ndarray, np.ndarray]]] = field(default_factory=list)
    corners: list[list[tuple[np.ndarray, np.ndarray]]] = field(default_factory=list)  # two sides

    def add_open(self, sides: list[tuple[np.ndarray, np.ndarray]] | None) -> None:
        if sides is not None:
            (self.open if len(sides) == 3 else self.corners).append(sides)


def find_frames(violet: np.ndarray, min_area: float) -> Frames:
    """Candidate board frames in a violet mask. Candidates may overlap or be wrong: the
    caller checks each against the definitions."""
    band = thin_band(violet)
    contours, _ = cv2.findContours(band, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    size = (violet.shape[1], violet.shape[0])
    pieces = []
    for c in contours:
        if len(c) < 2 * _MIN_SIDE_PX:
            continue
        hull_area = float(cv2.contourArea(cv2.convexHull(c)))
        if hull_area >= 0.08 * min_area:
            pieces.append((hull_area, c))
    pieces.sort(key=lambda t: -t[0])
    out = Frames()
    open_pieces = []
    for area, c in pieces:
        quad, sides = _frame_of([c], size) if area >= 0.5 * min_area else (None, None)
        if quad is not None:
            out.quads.append(quad)
            continue
        open_pieces.append(c)
        out.add_open(sides)
    open_pieces = open_pieces[:_MAX_PIECES]
    boxes = [cv2.boundingRect(c) for c in open_pieces]
    for i, j in itertools.combinations(range(len(open_pieces)), 2):
        if not _near(boxes[i], boxes[j]):
            continue
        quad, sides = _frame_of([open_pieces[i], open_pieces[j]], size)
        if quad is not None and cv2.contourArea(quad.astype(np.float32)) >= min_area:
            out.quads.append(quad)
        else:
            out.add_open(sides)
    return out


def frames_from_holes(
    violet: np.ndarray, min_area: float, board_mm: tuple[float, float], band_mm: float
) -> list:
    """Board frames found from inside: a board's frame, however much violet touches it
    from outside (a violet mat, the tray), closes round the board's light inside, a
    four-cornered hole in the violet. The outer edge lies `band_mm` further out; each
    quad is returned as the frame's outer corners, clockwise (mask px)."""
    contours, hierarchy = cv2.findContours(violet, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is None:
        return []
    w, h = board_mm
    out = []
    for c, (_, _, _, parent) in zip(contours, hierarchy[0], strict=True):
        if parent == -1 or cv2.contourArea(c) < 0.5 * min_area:
            continue
        inner = cv2.approxPolyDP(c, 0.02 * cv2.arcLength(c, True), True).reshape(-1, 2).astype(np.float64)
        if len(inner) != 4 or not cv2.isContourConvex(inner.astype(np.float32).reshape(-1, 1, 2)):
            continue
        x, y = inner[:, 0], inner[:, 1]
        if float(np.dot(x, np.roll(y, -1)) - np.dot(np.roll(x, -1), y)) < 0:
            inner = inner[::-1]  # clockwise in the image
        inner = _refined(inner, c.reshape(-1, 2).astype(np.float64))
        if inner is None:
            continue
        sides = np.hypot(*(np.roll(inner, -1, axis=0) - inner).T)
        if sides[1] + sides[3] > sides[0] + sides[2]:
            inner = np.roll(inner, -1, axis=0)  # the first side a long one
            sides = np.roll(sides, -1)
        long_side, short_side = sides[0] + sides[2], sides[1] + sides[3]
        if not 1.2 < long_side / max(short_side, 1e-6) < 2.0:
            continue  # not a board's inside (a part of one an arm cuts off, say)
        model = np.float32(
            [[band_mm, band_mm], [w - band_mm, band_mm], [w - band_mm, h - band_mm], [band_mm, h - band_mm]]
        )
        hom = cv2.getPerspectiveTransform(model, inner.astype(np.float32))
        corners = np.float32([[0, 0], [w, 0], [w, h], [0, h]]).reshape(-1, 1, 2)
        out.append(cv2.perspectiveTransform(corners, hom).reshape(-1, 2).astype(np.float64))
    return out


def _refined(quad: np.ndarray, outline: np.ndarray) -> np.ndarray | None:
    """A hole's four corners from straight lines fitted along its sides (the middle of
    each side: corners are rounded in the mask)."""
    lines = []
    for k in range(4):
        a, b = quad[k], quad[(k + 1) % 4]
        d = b - a
        length = float(np.hypot(*d))
        if length < _MIN_SIDE_PX:
            return None
        u = d / length
        along = (outline - a) @ u
        off = np.abs((outline - a) @ np.array([-u[1], u[0]]))
        near = (along > 0.15 * length) & (along < 0.85 * length) & (off < 3.0)
        if near.sum() < 5:
            return None
        vx, vy, x0, y0 = cv2.fitLine(outline[near].astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        normal = np.array([-vy, vx], np.float64)
        lines.append((0.0, np.array([x0, y0], np.float64), normal, 0.0))
    corners = [_intersect(lines[k - 1], lines[k]) for k in range(4)]
    return None if any(c is None for c in corners) else np.array(corners)


def complete_frame(
    sides: list[tuple[np.ndarray, np.ndarray]], h: np.ndarray, board_mm: tuple[float, float]
) -> np.ndarray | None:
    """The image quad of a frame seen on three sides, completed on the table's plane
    (`h`: plane mm -> image px, from a board found whole, which lies on the same table):
    the two opposite sides' distance says which way the board lies, and the unseen side
    lies the other side's length from the middle one."""
    plane = _on_plane(sides, h, board_mm)
    if plane is None:
        return None
    a, b, c = plane
    if a[:2] @ c[:2] > -0.95 or abs(a[:2] @ b[:2]) > 0.2 or abs(c[:2] @ b[:2]) > 0.2:
        return None  # not three sides of a rectangle on this plane
    across = abs(a[2] + c[2])  # the middle side's length
    long_side, short_side = max(board_mm), min(board_mm)
    across_nominal, along = (long_side, short_side)
    if abs(across - short_side) < abs(across - long_side):
        across_nominal, along = short_side, long_side
    if abs(across - across_nominal) > 0.12 * across_nominal:
        return None
    return _image_quad([a, b, c, _opposite(b, along)], h)


def complete_from_above(
    sides: list[tuple[np.ndarray, np.ndarray]], board_mm: tuple[float, float]
) -> list[np.ndarray]:
    """The image quads a frame seen on three sides may have when no board was found
    whole to give the table's plane: the camera taken to look straight down, the
    opposite sides lie either of the board's lengths apart, and the unseen side the
    other length from the middle one. Both are given for the print to decide."""
    (pa, na), _, (pc, _) = sides
    across = abs(float(na @ (pc - pa)))
    out = []
    for length in board_mm:
        scale = across / length  # px per mm if the opposite sides lie `length` apart
        quad = complete_frame(sides, np.diag([scale, scale, 1.0]), board_mm)
        if quad is not None:
            out.append(quad)
    return out


def complete_corner(
    sides: list[tuple[np.ndarray, np.ndarray]], h: np.ndarray, board_mm: tuple[float, float]
) -> list[np.ndarray]:
    """The image quads a frame seen on two adjacent sides (a corner, an arm over the
    rest) may have on the table's plane (`h` as for complete_frame): the board may lie
    with its long side along either, so both are given for the print to decide."""
    plane = _on_plane(sides, h, board_mm)
    if plane is None:
        return []
    a, b = plane
    if abs(a[:2] @ b[:2]) > 0.2:
        return []  # not a rectangle's corner on this plane
    out = []
    for along_a, along_b in (board_mm, board_mm[::-1]):
        quad = _image_quad([a, b, _opposite(a, along_b), _opposite(b, along_a)], h)
        if quad is not None:
            out.append(quad)
    return out


def quad_sides(quad: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
    """A quad's sides in order round it, each as (middle point, outward unit normal)."""
    centre = quad.mean(axis=0)
    sides = []
    for k in range(4):
        a, b = quad[k], quad[(k + 1) % 4]
        d = (b - a) / max(float(np.hypot(*(b - a))), 1e-9)
        n = np.array([-d[1], d[0]])
        sides.append(((a + b) / 2, n if n @ ((a + b) / 2 - centre) > 0 else -n))
    return sides


def _on_plane(
    sides: list[tuple[np.ndarray, np.ndarray]], h: np.ndarray, board_mm: tuple[float, float]
) -> list[np.ndarray] | None:
    """Image lines (point, outward normal) as plane lines (a, b, c), a x + b y + c = 0
    with (a, b) the outward unit normal; None if one lies on the horizon."""
    sense = 1.0 if (h @ np.array([board_mm[0] / 2, board_mm[1] / 2, 1.0]))[2] > 0 else -1.0
    plane = []
    for p, n in sides:
        line = sense * (h.T @ np.array([n[0], n[1], -float(n @ p)]))  # outward stays outward
        norm = math.hypot(line[0], line[1])
        if norm < 1e-12:
            return None
        plane.append(line / norm)
    return plane


def _opposite(line: np.ndarray, distance: float) -> np.ndarray:
    """The plane line parallel to `line`, `distance` further in, facing the other way."""
    return np.array([-line[0], -line[1], -(line[2] + distance)])


def _image_quad(ring: list[np.ndarray], h: np.ndarray) -> np.ndarray | None:
    """The image corners of four plane lines in order round a rectangle."""
    corners = []
    for k in range(4):
        x = np.cross(ring[k - 1], ring[k])
        if abs(x[2]) < 1e-12:
            return None
        corners.append(x[:2] / x[2])
    image = h @ np.column_stack([np.array(corners), np.ones(4)]).T
    return (image[:2] / image[2]).T


def _near(a: tuple, b: tuple) -> bool:
    """Two pieces' boxes close enough to be one frame cut by an arm."""
    gap_x = max(a[0] - (b[0] + b[2]), b[0] - (a[0] + a[2]), 0)
    gap_y = max(a[1] - (b[1] + b[3]), b[1] - (a[1] + a[3]), 0)
    reach = 0.8 * max(a[2], a[3], b[2], b[3])
    return math.hypot(gap_x, gap_y) < reach


def _frame_of(contours: list[np.ndarray], size: tuple[int, int]) -> tuple[np.ndarray | None, list | None]:
    """(quad, None) for a whole frame, (None, three or two sides) for a frame with one
    or two sides unseen, else (None, None)."""
    pts = _outer_points(np.concatenate(contours), size)
    if len(pts) < 3 * _MIN_SIDE_PX:
        return None, None
    oriented = _oriented(_lines(pts), pts.mean(axis=0))
    quad = _quad_from_lines(oriented, size)
    if quad is not None:
        return quad, None
    return None, _three_sides(oriented) or _two_sides(oriented)


def _outer_points(contour: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """Outline points on the outline's convex hull and off the image's border."""
    pts = contour.reshape(-1, 2).astype(np.float64)
    hull = cv2.convexHull(contour.reshape(-1, 1, 2)).reshape(-1, 2).astype(np.float64)
    if len(hull) < 3:
        return pts[:0]
    near = _dist_to_segments(pts, hull, np.roll(hull, -1, axis=0)) < _ON_HULL_PX
    w, h = size
    border = (pts[:, 0] <= 1) | (pts[:, 1] <= 1) | (pts[:, 0] >= w - 2) | (pts[:, 1] >= h - 2)
    return pts[near & ~border]


def _dist_to_segments(pts: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Each point's distance to the nearest of the segments a[k]-b[k]."""
    d = b - a
    length2 = np.maximum((d**2).sum(axis=1), 1e-9)
    px = pts[:, None, 0] - a[None, :, 0]
    py = pts[:, None, 1] - a[None, :, 1]
    t = np.clip((px * d[None, :, 0] + py * d[None, :, 1]) / length2[None, :], 0, 1)
    ex = px - t * d[None, :, 0]
    ey = py - t * d[None, :, 1]
    return np.sqrt(ex**2 + ey**2).min(axis=1)


def _lines(pts: np.ndarray) -> list[tuple[np.ndarray, np.ndarray, float]]:
    """Straight runs of outer edge, longest support first: (point, unit direction, span)."""
    out = []
    free = np.ones(len(pts), bool)
    for _ in range(6):
        cand = pts[free]
        if len(cand) < _MIN_SIDE_PX:
            break
        hull = cv2.convexHull(cand.astype(np.float32)).reshape(-1, 2).astype(np.float64)
        n = len(hull)
        if n < 2:
            break
        # proposals: every chord between hull vertices up to 3 apart
        a = np.concatenate([hull] * 3)
        b = np.concatenate([np.roll(hull, -k, axis=0) for k in (1, 2, 3)])
        d = b - a
        length = np.hypot(d[:, 0], d[:, 1])
        keep = length > 2
        a, d, length = a[keep], d[keep], length[keep]
        normal = np.column_stack([-d[:, 1], d[:, 0]]) / length[:, None]
        dist = np.abs(
            (cand[None, :, 0] - a[:, None, 0]) * normal[:, None, 0]
            + (cand[None, :, 1] - a[:, None, 1]) * normal[:, None, 1]
        )
        support = (dist < _LINE_TOL_PX).sum(axis=1)
        k = int(np.argmax(support))
        p, u = a[k], d[k] / length[k]
        for _refit in range(2):
            normal_k = np.array([-u[1], u[0]])
            inliers = np.abs((cand - p) @ normal_k) < _LINE_TOL_PX
            if inliers.sum() < 5:
                break
            vx, vy, x0, y0 = cv2.fitLine(
                cand[inliers].astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01
            ).ravel()
            p, u = np.array([x0, y0], np.float64), np.array([vx, vy], np.float64)
        normal_k = np.array([-u[1], u[0]])
        inliers = np.abs((cand - p) @ normal_k) < _LINE_TOL_PX
        along = (cand[inliers] - p) @ u
        span = float(along.max() - along.min()) if inliers.any() else 0.0
        if inliers.sum() < _MIN_SIDE_PX or span < _MIN_SIDE_PX or inliers.sum() < 0.5 * span:
            break
        out.append((p, u, span))
        idx = np.flatnonzero(free)
        free[idx[np.abs((cand - p) @ normal_k) < 2 * _LINE_TOL_PX]] = False
    return out


def _oriented(lines: list, centre: np.ndarray) -> list[tuple[float, np.ndarray, np.ndarray, float]]:
    """Lines as (angle of the outward normal, point, outward normal, span), outward
    meaning away from `centre`."""
    oriented = []
    for p, u, span in lines:
        normal = np.array([-u[1], u[0]])
        if normal @ (centre - p) > 0:
            normal = -normal
        oriented.append((math.atan2(normal[1], normal[0]), p, normal, span))
    return oriented


def _three_sides(oriented: list) -> list[tuple[np.ndarray, np.ndarray]] | None:
    """The best-supported three lines that make three sides of a board, in order round
    it (the middle one between two opposite ones)."""
    best = None
    for combo in itertools.combinations(oriented, 3):
        ring = sorted(combo, key=lambda t: t[0])
        for k in range(3):
            a, b, c = ring[k], ring[(k + 1) % 3], ring[(k + 2) % 3]
            ab, bc = (b[0] - a[0]) % (2 * math.pi), (c[0] - b[0]) % (2 * math.pi)
            if math.radians(40) < ab < math.radians(140) and math.radians(40) < bc < math.radians(140):
                support = a[3] + b[3] + c[3]
                if best is None or support > best[0]:
                    best = (support, [(a[1], a[2]), (b[1], b[2]), (c[1], c[2])])
    return None if best is None else best[1]


def _two_sides(oriented: list) -> list[tuple[np.ndarray, np.ndarray]] | None:
    """The best-supported two lines that make a corner of a board, in order round it."""
    best = None
    for a, b in itertools.permutations(oriented, 2):
        if math.radians(40) < (b[0] - a[0]) % (2 * math.pi) < math.radians(140):
            support = a[3] + b[3]
            if best is None or support > best[0]:
                best = (support, [(a[1], a[2]), (b[1], b[2])])
    return None if best is None else best[1]


def _quad_from_lines(oriented: list, size: tuple[int, int]) -> np.ndarray | None:
    """The best four lines that close round as a convex quad with near-right corners (a
    rectangle in perspective), as its corners in order round it."""
    if len(oriented) < 4:
        return None
    best = None
    for combo in itertools.combinations(oriented, 4):
        ring = sorted(combo, key=lambda t: t[0])
        steps = [(ring[(i + 1) % 4][0] - ring[i][0]) % (2 * math.pi) for i in range(4)]
        if not all(math.radians(40) < s < math.radians(140) for s in steps):
            continue
        corners = []
        for i in range(4):
            c = _intersect(ring[i - 1], ring[i])
            if c is None:
                break
            corners.append(c)
        if len(corners) < 4:
            continue
        quad = np.array(corners)
        if not _plausible(quad, size):
            continue
        support = sum(t[3] for t in ring)
        if best is None or support > best[0]:
            best = (support, quad)
    return None if best is None else best[1]


def _intersect(l1: tuple, l2: tuple) -> np.ndarray | None:
    _, p1, n1, _ = l1
    _, p2, n2, _ = l2
    m = np.array([n1, n2])
    if abs(np.linalg.det(m)) < 1e-6:
        return None
    return np.linalg.solve(m, np.array([n1 @ p1, n2 @ p2]))


def _plausible(quad: np.ndarray, size: tuple[int, int]) -> bool:
    """A board seen from above: convex, sides 2:3 give or take perspective, and not far
    outside the photo."""
    if not cv2.isContourConvex(np.round(quad * 16).astype(np.int32).reshape(-1, 1, 2)):
        return False
    sides = np.hypot(*(np.roll(quad, -1, axis=0) - quad).T)
    if sides.min() < _MIN_SIDE_PX or sides.max() > 6 * sides.min():
        return False
    w, h = size
    reach = sides.max()
    return bool(
        (quad[:, 0] > -reach).all()
        and (quad[:, 0] < w + reach).all()
        and (quad[:, 1] > -reach).all()
        and (quad[:, 1] < h + reach).all()
    )
