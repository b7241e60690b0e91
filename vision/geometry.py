"""Homographies, quadrilaterals and the camera seen through them.

A board's homography maps board millimetres (x right, y down as its owner sees it)
to image pixels. From it and a guess of the focal length we recover where the camera
is, which tells how far a 7 mm tile's top face is displaced from the cell under it.
"""

from __future__ import annotations

import math

import cv2
import numpy as np


def rolled(a: np.ndarray, shift: int) -> np.ndarray:
    """np.roll(a, shift, axis=0), for the short arrays the recogniser turns round (a quad's
    corners, a disc's sectors), where np.roll's overhead is nearly all its time."""
    n = len(a)
    return a[(np.arange(n) - shift) % n]


def order_clockwise(quad: np.ndarray) -> np.ndarray:
    """Four image points ordered clockwise on screen (y down), starting top-left-most."""
    q = np.asarray(quad, np.float64).reshape(4, 2)
    c = q.mean(axis=0)
    angles = np.arctan2(q[:, 1] - c[1], q[:, 0] - c[0])
    q = q[np.argsort(angles)]  # increasing angle with y down = clockwise on screen
    start = int(np.argmin(q.sum(axis=1)))
    return rolled(q, -start)


def apply_h(h: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Points (N x 2, or one point) mapped by the homography `h`: N x 2."""
    p = np.asarray(points, np.float64).reshape(-1, 1, 2)
    if not len(p):
        return np.empty((0, 2))
    return cv2.perspectiveTransform(p, np.asarray(h, np.float64)).reshape(-1, 2)


def stretches(m: np.ndarray) -> tuple[float, float]:
    """The most and the least a 2 x 2 linear map stretches (its singular values), in
    closed form: (s1 + s2)^2 and (s1 - s2)^2 are the squared norm plus and minus twice
    the absolute determinant."""
    (a, b), (c, d) = m[0, :2], m[1, :2]
    norm2, det = a * a + b * b + c * c + d * d, abs(a * d - b * c)
    plus, minus = math.sqrt(norm2 + 2 * det), math.sqrt(max(0.0, norm2 - 2 * det))
    return float((plus + minus) / 2), float(abs(plus - minus) / 2)


def rect_homography(dst_quad: np.ndarray, width: float, height: float) -> np.ndarray:
    """H mapping the rectangle (0,0)-(width,height) onto dst_quad (TL, TR, BR, BL)."""
    src = np.float32([[0, 0], [width, 0], [width, height], [0, height]])
    return cv2.getPerspectiveTransform(src, np.float32(dst_quad))


def in_frame_points(h: np.ndarray, points: list | np.ndarray, img_w: int, img_h: int) -> np.ndarray:
    """Which points of a picture mapped by `h` into an image land inside it (and in
    front of the camera); in_frame judges its pixels' centres so."""
    p = np.asarray(points, np.float64).reshape(-1, 2)
    q = np.column_stack([p, np.ones(len(p))]) @ np.asarray(h, np.float64).T
    x, y, w = q[:, 0], q[:, 1], q[:, 2]
    # (the image's bounds multiplied through by w, which must be positive)
    return (w > 0) & (x >= 0) & (y >= 0) & (x <= (img_w - 1) * w) & (y <= (img_h - 1) * w)


def in_frame(h: np.ndarray, width: int, height: int, img_w: int, img_h: int) -> np.ndarray:
    """Which pixels of a width x height picture mapped by `h` into an image land inside it."""
    # The image's outline taken back into the picture is a quadrilateral, when all its
    # corners lie in front of the camera: filling it is far cheaper than mapping every pixel.
    right, bottom = img_w - 1, img_h - 1
    corners = np.array([[0, 0, 1], [right, 0, 1], [right, bottom, 1], [0, bottom, 1]], np.float64)
    back = corners @ np.linalg.inv(h).T
    if (back[:, 2] > 0).all():
        quad = back[:, :2] / back[:, 2:3] - 0.5
        if np.isfinite(quad).all() and np.abs(quad).max() < 1e6:
            mask = np.zeros((height, width), np.uint8)
            cv2.fillConvexPoly(mask, np.round(quad * 16).astype(np.int32), 1, cv2.LINE_8, 4)
            return mask.astype(bool)
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float64)
    centres = np.column_stack([xx.ravel() + 0.5, yy.ravel() + 0.5])
    return in_frame_points(h, centres, img_w, img_h).reshape(height, width)


# A typical lens's focal length, as a share of the frame's longer side: phones and the
# Pi camera see 55-72 degrees across.
TYPICAL_FOCAL = 0.8


def plane_aspect(quad: np.ndarray, width: int, height: int) -> float:
    """How much longer a rectangle seen as `quad` (TL, TR, BR, BL) is from its first
    corner to its second than to its fourth, on its own plane, seen by a typical lens
    with the principal point at the image centre."""
    f = TYPICAL_FOCAL * max(width, height)
    k_inv = np.linalg.inv(np.array([[f, 0, width / 2], [0, f, height / 2], [0, 0, 1.0]]))
    m = k_inv @ rect_homography(quad, 1.0, 1.0)
    return float(np.linalg.norm(m[:, 0]) / np.linalg.norm(m[:, 1]))


def focal_from_homography(h: np.ndarray, width: int, height: int) -> float:
    """Focal length (px) that makes the plane's axes orthogonal and equally long,
    principal point at the image centre; a typical phone/Pi lens when ill-posed."""
    shift = np.array([[1, 0, -width / 2], [0, 1, -height / 2], [0, 0, 1.0]])
    m = shift @ h
    h1, h2 = m[:, 0], m[:, 1]
    guesses = []
    den = h1[2] * h2[2]
    if abs(den) > 1e-12:
        guesses.append(-(h1[0] * h2[0] + h1[1] * h2[1]) / den)
    den = h1[2] ** 2 - h2[2] ** 2
    if abs(den) > 1e-12:
        guesses.append(-(h1[0] ** 2 + h1[1] ** 2 - h2[0] ** 2 - h2[1] ** 2) / den)
    default = 0.85 * max(width, height)
    size = max(width, height)
    good = [np.sqrt(g) for g in guesses if g > 0 and 0.45 * size < np.sqrt(g) < 2.5 * size]
    return float(sum(good) / len(good)) if good else default  # (the median of at most two)


def camera_in_plane(h: np.ndarray, width: int, height: int) -> np.ndarray:
    """Camera centre (x, y, height above the plane) in the plane's own units."""
    f = focal_from_homography(h, width, height)
    k = np.array([[f, 0, width / 2], [0, f, height / 2], [0, 0, 1.0]])
    m = np.linalg.inv(k) @ h
    lam = 2.0 / (np.linalg.norm(m[:, 0]) + np.linalg.norm(m[:, 1]))
    r1, r2, t = m[:, 0] * lam, m[:, 1] * lam, m[:, 2] * lam
    if t[2] < 0:  # the plane must lie in front of the camera
        r1, r2, t = -r1, -r2, -t
    # (np.cross, as numpy works it out, but without its overhead)
    r3 = [r1[1] * r2[2] - r1[2] * r2[1], r1[2] * r2[0] - r1[0] * r2[2], r1[0] * r2[1] - r1[1] * r2[0]]
    r = np.column_stack([r1, r2, r3])
    u, _, vt = np.linalg.svd(r)
    r = u @ vt
    c = -r.T @ t
    return np.array([c[0], c[1], abs(c[2])])


def parallax(camera: np.ndarray, points: np.ndarray, lift: float) -> np.ndarray:
    """Where on the plane a point `lift` above each of `points` appears, minus the point:
    the shift of a tile's top face, away from the camera's foot."""
    p = np.asarray(points, np.float64).reshape(-1, 2)
    height = max(float(camera[2]), lift * 4)
    return (p - camera[:2]) * (lift / (height - lift))


def fit_quad(contour: np.ndarray) -> np.ndarray | None:
    """Four corners of a convex outline (its hull simplified to 4 points), each side then
    refitted as a line through the outline points along it."""
    hull = cv2.convexHull(contour.reshape(-1, 1, 2).astype(np.float32))
    peri = cv2.arcLength(hull, True)
    quad = None
    for eps in (0.02, 0.03, 0.045, 0.06, 0.08):
        approx = cv2.approxPolyDP(hull, eps * peri, True)
        if len(approx) == 4:
            quad = approx.reshape(4, 2).astype(np.float64)
            break
        if len(approx) < 4:
            break
    if quad is None:
        quad = cv2.boxPoints(cv2.minAreaRect(hull)).astype(np.float64)
    quad = order_clockwise(quad)
    pts = contour.reshape(-1, 2).astype(np.float64)
    lines = []
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        ab = b - a
        length = np.linalg.norm(ab)
        if length < 1e-6:
            return None
        n = np.array([-ab[1], ab[0]]) / length
        along = (pts - a) @ ab / length**2
        dist = np.abs((pts - a) @ n)
        sel = pts[(along > 0.12) & (along < 0.88) & (dist < max(2.0, 0.03 * length))]
        if len(sel) >= 5:
            vx, vy, x0, y0 = cv2.fitLine(sel.astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
            lines.append((np.array([x0, y0], np.float64), np.array([vx, vy], np.float64)))
        else:
            lines.append((a, ab / length))
    out = []
    for i in range(4):
        (p1, d1), (p2, d2) = lines[i - 1], lines[i]
        m = np.array([d1, -d2]).T
        if abs(np.linalg.det(m)) < 1e-9:
            out.append(quad[i])
            continue
        s = np.linalg.solve(m, p2 - p1)
        out.append(p1 + s[0] * d1)
    out = np.array(out)
    if np.linalg.norm(out - quad, axis=1).max() > 0.15 * peri / 4:
        return quad
    return out


def clockwise_from_bottom(centers: list[np.ndarray], middle: np.ndarray) -> list[int]:
    """Indices in the spec's order: the one nearest the bottom edge, then clockwise
    as seen from above (on screen, y down, clockwise means increasing angle)."""
    if not centers:
        return []
    first = max(range(len(centers)), key=lambda i: centers[i][1])
    a0 = math.atan2(centers[first][1] - middle[1], centers[first][0] - middle[0])

    def key(i: int) -> float:
        a = math.atan2(centers[i][1] - middle[1], centers[i][0] - middle[0])
        return (a - a0) % (2 * math.pi)

    return sorted(range(len(centers)), key=key)
