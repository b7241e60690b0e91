"""The ArUco aid for fixed kiosks: printed markers measure the table plane.

Only an aid: the markerless recogniser is the default and needs none of this. Where a
café has stuck the kit's markers on its table (`azul-companion kit`), the table markers
give the exact homography image px -> table mm (so rectification and px/mm are exact and
each seat's board area is known), and the optional board tags, paper tabs tucked under
each board's top edge, give each board's pose directly.

Table frame: millimetres, seen from above with seat 0 at the bottom; x right, y down,
origin at the centre of table marker 0 (top-left). Board frame: as in vision.boards,
millimetres from the board's top-left corner as its owner sees it.

Nothing here raises on a bad frame: missing markers give None and a quality saying why.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import cache

import cv2
import numpy as np

from companion.i18n import _

DICTIONARY = "DICT_4X4_50"
# Stated here rather than imported so that the aid does not load the recogniser; a test
# keeps the two equal to vision.boards.BOARD_W_MM / BOARD_H_MM.
BOARD_MM = (260.0, 250.0)
TABLE_MARKER_MM = 60.0
TAG_MM = 30.0
# Tag centres in board mm: beyond the board's top edge (negative y), where a paper tab
# tucked under the board holds them flat on the table; nothing on the board is covered.
TAG_CENTERS_MM = ((45.0, -22.0), (215.0, -22.0))
FIRST_TAG_ID = 10
# A homography from markers bunched in one part of the table extrapolates badly to the
# rest: below this share of the layout's spread it is refused.
MIN_SPREAD = 0.2
# Corners further than this from where the fitted plane puts them belong to a marker that
# is misplaced, turned, or not the one the layout means.
RANSAC_MM = 4.0


@dataclass(frozen=True)
class MarkerPlace:
    """One printed marker: its id, centre and black-square side in mm, and how far it
    is turned clockwise from upright (its top edge towards the frame's -y)."""

    id: int
    center: tuple[float, float]
    size: float
    angle: float = 0.0

    def corners(self) -> np.ndarray:
        """Its corners in the frame's mm, in ArUco's order: top-left, top-right,
        bottom-right, bottom-left of the printed marker."""
        h = self.size / 2
        local = np.array([[-h, -h], [h, -h], [h, h], [-h, h]])
        return local @ _rotation(self.angle).T + np.asarray(self.center, np.float64)


@dataclass(frozen=True)
class Seat:
    """Where a seat's board lies when put in its place: board centre in table mm and
    how far the board is turned clockwise from upright (0 bottom, 90 left, 180 top, 270 right)."""

    seat: int
    center: tuple[float, float]
    rotation: int


@dataclass(frozen=True)
class MarkerLayout:
    """Which marker ids go where. `table` markers are stuck on the table (table mm);
    `tags` are the board tags, per seat, in that seat's board mm."""

    width: float  # table mm between the centres of the left and right table markers
    height: float
    table: tuple[MarkerPlace, ...]
    seats: tuple[Seat, ...]
    tags: tuple[tuple[int, MarkerPlace], ...] = ()  # (seat, place on its board)
    dictionary: str = DICTIONARY
    board: tuple[float, float] = BOARD_MM

    @classmethod
    def for_players(cls, players: int, *, tags: bool = True) -> MarkerLayout:
        """The kit's layout: 2 players face each other on a 900 x 800 mm area; 3 and 4
        players sit round a 1000 x 1000 mm square (3 players leave the right seat empty).
        Table markers 0-3 go clockwise from the top-left corner; seat s has tags 10+2s, 11+2s."""
        if players not in (2, 3, 4):
            raise ValueError(_("players must be 2, 3 or 4, not {n}").format(n=players))
        edge = 20.0 + BOARD_MM[1] / 2  # a board's centre from the table edge it faces
        if players == 2:
            w, h = 900.0, 800.0
            seats = (Seat(0, (w / 2, h - edge), 0), Seat(1, (w / 2, edge), 180))
        else:
            w = h = 1000.0
            seats = (Seat(0, (w / 2, h - edge), 0), Seat(1, (edge, h / 2), 90),
                     Seat(2, (w / 2, edge), 180), Seat(3, (w - edge, h / 2), 270))[:players]
        table = tuple(MarkerPlace(i, c, TABLE_MARKER_MM)
                      for i, c in enumerate(((0.0, 0.0), (w, 0.0), (w, h), (0.0, h))))
        board_tags = tuple((s.seat, MarkerPlace(FIRST_TAG_ID + 2 * s.seat + k, c, TAG_MM))
                           for s in seats for k, c in enumerate(TAG_CENTERS_MM)) if tags else ()
        return cls(w, h, table, seats, board_tags)

    def seat_pose(self, seat: Seat) -> np.ndarray:
        """Board mm -> table mm for a board lying in its seat's place (3 x 3)."""
        r = _rotation(seat.rotation)
        return _rigid(r, np.asarray(seat.center) - r @ (np.asarray(self.board) / 2))


@dataclass(frozen=True)
class Marker:
    """A marker found in a frame: its id and its four corners in image px (ArUco order)."""

    id: int
    corners: np.ndarray  # 4 x 2

    @property
    def center(self) -> np.ndarray:
        return self.corners.mean(axis=0)


@dataclass(frozen=True)
class TableQuality:
    """How well the table markers pinned down the plane, and why not if they did not."""

    expected: int  # table markers in the layout
    seen: int  # of those, found in the frame
    used: int  # of those, consistent with one plane
    rms_mm: float | None  # how far the used corners lie from the fitted plane's, table mm
    spread: float  # 0..1: the used markers' extent as a share of the layout's
    outliers: tuple[int, ...] = ()  # ids seen but left out: misplaced, turned or foreign
    problem: str | None = None  # why there is no homography; None when there is one
    carried: bool = False  # the plane is an earlier frame's (the others describe that frame)

    @property
    def confidence(self) -> float:
        if self.problem is not None or self.rms_mm is None:
            return 0.0
        return float(min(1.0, self.spread) * max(0.0, 1.0 - self.rms_mm / (2 * RANSAC_MM)))


@dataclass(frozen=True)
class BoardRegion:
    """Where a seat's board lies in the image. `source` is "tags" when the board's own
    tags were seen (its actual pose), "seat" when it is where the layout puts the board
    (a prior: the board may lie a few cm off; search around it)."""

    seat: int
    quad: np.ndarray  # image px: the owner's top-left, top-right, bottom-right, bottom-left
    board_h: np.ndarray  # board mm -> image px, as vision.boards.BoardFind.board_h
    rotation: int  # degrees clockwise from upright in the image, nearest of 0/90/180/270
    source: str
    confidence: float


@dataclass(frozen=True)
class Aid:
    """What the markers tell the recogniser about one frame."""

    table_h: np.ndarray | None  # image px -> table mm; None when the table markers failed
    quality: TableQuality
    px_per_mm: float | None  # image px per table mm at the middle of the table
    boards: tuple[BoardRegion, ...]
    layout: MarkerLayout = field(repr=False)
    markers: tuple[Marker, ...] = field(default=(), repr=False)

    def rectify(self, frame: np.ndarray, px_per_mm: float = 2.0, margin_mm: float = 0.0) -> np.ndarray | None:
        """A top-down view of the table area (marker centres, plus a margin), `px_per_mm`
        pixels per mm, its pixel (0, 0) at table mm (-margin, -margin); None without a plane."""
        if self.table_h is None:
            return None
        s, m = px_per_mm, margin_mm
        to_px = np.array([[s, 0, s * m - 0.5], [0, s, s * m - 0.5], [0, 0, 1.0]])
        size = (round((self.layout.width + 2 * m) * s), round((self.layout.height + 2 * m) * s))
        return cv2.warpPerspective(frame, to_px @ self.table_h, size, flags=cv2.INTER_LINEAR)


def detect_markers(frame: np.ndarray, dictionary: str = DICTIONARY) -> list[Marker]:
    """The markers of `dictionary` in a frame (BGR, BGRA or grey; any dtype). A frame
    that is no image gives no markers, never an error."""
    grey = _grey(frame)
    if grey is None:
        return []
    try:
        corners, ids, _rejected = _detector(dictionary).detectMarkers(grey)
    except cv2.error:
        return []
    if ids is None:
        return []
    found: dict[int, Marker] = {}
    for c, i in zip(corners, ids.ravel(), strict=True):
        m = Marker(int(i), np.asarray(c, np.float64).reshape(4, 2))
        # An id seen twice: a stray copy of the kit; keep the larger, nearer one.
        if m.id not in found or _area(m.corners) > _area(found[m.id].corners):
            found[m.id] = m
    return sorted(found.values(), key=lambda m: m.id)


def table_homography(markers: list[Marker], layout: MarkerLayout) -> tuple[np.ndarray | None, TableQuality]:
    """H (image px -> table mm) from every corner of the table markers found, with RANSAC,
    and its quality. H is None when fewer than 3 table markers agree or they bunch together."""
    places = {p.id: p for p in layout.table}
    seen = [m for m in markers if m.id in places]
    n = len(layout.table)

    def refused(problem: str, used: int = 0, rms: float | None = None, spread: float = 0.0,
                outliers: tuple[int, ...] = ()) -> tuple[None, TableQuality]:
        return None, TableQuality(n, len(seen), used, rms, spread, outliers, problem)

    if len(seen) < 3:
        return refused(_("{seen} of {n} table markers seen; at least 3 are needed").format(
            seen=len(seen), n=n))
    img = np.concatenate([m.corners for m in seen]).astype(np.float32)
    mm = np.concatenate([places[m.id].corners() for m in seen]).astype(np.float32)
    h, mask = cv2.findHomography(img, mm, cv2.RANSAC, RANSAC_MM, maxIters=500, confidence=0.999)
    if h is None or mask is None:
        return refused(_("the table markers do not lie on one plane"))
    # A marker counts when most of its corners agree; then refit on whole markers only.
    agree = mask.ravel().reshape(-1, 4).sum(axis=1) >= 3
    used = [m for m, ok in zip(seen, agree, strict=True) if ok]
    outliers = tuple(m.id for m, ok in zip(seen, agree, strict=True) if not ok)
    if len(used) < 3:
        return refused(_("only {used} table markers agree on the table plane; at least 3 are needed").format(
            used=len(used)), len(used), outliers=outliers)
    img = np.concatenate([m.corners for m in used])
    mm = np.concatenate([places[m.id].corners() for m in used])
    h, _mask = cv2.findHomography(img.astype(np.float32), mm.astype(np.float32), 0)
    if h is None or not np.all(np.isfinite(h)) or abs(np.linalg.det(h)) < 1e-12:
        return refused(_("the table markers do not lie on one plane"), len(used), outliers=outliers)
    rms = float(np.sqrt(np.mean(np.sum((apply_h(h, img) - mm) ** 2, axis=1))))
    spread = _hull_area(np.array([places[m.id].center for m in used])) / max(
        _hull_area(np.array([p.center for p in layout.table])), 1e-9)
    if spread < MIN_SPREAD:
        return refused(_("the table markers seen are too close together to measure the table"),
                       len(used), rms, spread, outliers)
    if rms > RANSAC_MM:
        return refused(_("the table markers are not where the layout puts them (off by {mm:.1f} mm)").format(
            mm=rms), len(used), rms, spread, outliers)
    return h, TableQuality(n, len(seen), len(used), rms, float(min(1.0, spread)), outliers)


def board_regions(table_h: np.ndarray | None, layout: MarkerLayout, players: int,
                  markers: Sequence[Marker] = ()) -> list[BoardRegion]:
    """Each seat's board in the image, seats 0..players-1 of the layout: from the board's
    own tags when seen (with the table plane, or from both tags alone), else from the
    seat's place in the layout (needs the table plane). Seats with neither are left out."""
    by_id = {m.id: m for m in markers}
    regions = []
    for seat in layout.seats[:players]:
        tags = [(p, by_id[p.id]) for s, p in layout.tags if s == seat.seat and p.id in by_id]
        region = _from_tags(seat.seat, tags, table_h, layout) if tags else None
        if region is None and table_h is not None:
            to_img = np.linalg.inv(table_h) @ layout.seat_pose(seat)
            region = _region(seat.seat, to_img, layout, "seat", 0.5)
        if region is not None:
            regions.append(region)
    return regions


def aided_regions(frame: np.ndarray, layout: MarkerLayout, players: int,
                  previous: Aid | None = None) -> Aid | None:
    """The recogniser's entry point: the table plane and each seat's board from the
    markers in `frame`; None when the frame shows neither enough table markers nor any
    board tags (then recognise without the aid).

    A kiosk's camera does not move, so when arms hide the table markers the plane of
    `previous` (the last Aid) is carried over, unless a marker this frame does show is
    not where that plane puts it (the camera was knocked)."""
    markers = detect_markers(frame, layout.dictionary)
    h, quality = table_homography(markers, layout)
    if h is None and previous is not None and previous.table_h is not None \
            and _still_fits(previous.table_h, markers, layout):
        h, quality = previous.table_h, replace(previous.quality, carried=True)
    boards = board_regions(h, layout, players, markers)
    if h is None and not boards:
        return None
    ppm = None
    if h is not None:
        ppm = px_per_mm(h, (layout.width / 2, layout.height / 2))
    return Aid(h, quality, ppm, tuple(boards), layout, tuple(markers))


def _still_fits(table_h: np.ndarray, markers: list[Marker], layout: MarkerLayout) -> bool:
    places = {p.id: p for p in layout.table}
    for m in markers:
        if m.id in places:
            off = np.linalg.norm(apply_h(table_h, m.corners) - places[m.id].corners(), axis=1).max()
            if off > 2 * RANSAC_MM:
                return False
    return True


def px_per_mm(table_h: np.ndarray, at_mm: tuple[float, float]) -> float:
    """Image px per table mm around a table point (the square root of the local area scale)."""
    to_img = np.linalg.inv(table_h)
    x, y = at_mm
    d = 1.0
    p = apply_h(to_img, [[x, y], [x + d, y], [x, y + d]])
    jac = np.stack([p[1] - p[0], p[2] - p[0]], axis=1) / d
    return float(math.sqrt(abs(np.linalg.det(jac))))


def apply_h(h: np.ndarray, points: np.ndarray) -> np.ndarray:
    p = np.asarray(points, np.float64).reshape(-1, 2)
    q = np.concatenate([p, np.ones((len(p), 1))], axis=1) @ np.asarray(h, np.float64).T
    return q[:, :2] / q[:, 2:3]


def _from_tags(seat: int, tags: list[tuple[MarkerPlace, Marker]], table_h: np.ndarray | None,
               layout: MarkerLayout) -> BoardRegion | None:
    board_pts = np.concatenate([p.corners() for p, _m in tags])
    img_pts = np.concatenate([m.corners for _p, m in tags])
    if table_h is not None:
        # The board lies on the table: only its turn and shift are unknown, which even one
        # tag's four corners fix well; the table plane supplies the perspective.
        table_pts = apply_h(table_h, img_pts)
        pose, rms = _fit_rigid(board_pts, table_pts)
        if rms > RANSAC_MM:
            return None
        to_img = np.linalg.inv(table_h) @ pose
        return _region(seat, to_img, layout, "tags", max(0.0, 1.0 - rms / (2 * RANSAC_MM)))
    if len(tags) < 2:
        return None  # one small tag's own perspective says too little about a whole board
    # Two tags along one edge leave the perspective across the board loosely pinned: on
    # synthetic frames the far edge is off by 5-25 mm. Good for a search window only.
    to_img, _mask = cv2.findHomography(board_pts.astype(np.float32), img_pts.astype(np.float32), 0)
    if to_img is None or not np.all(np.isfinite(to_img)):
        return None
    return _region(seat, to_img, layout, "tags", 0.3)


def _region(seat: int, board_h: np.ndarray, layout: MarkerLayout, source: str,
            confidence: float) -> BoardRegion:
    bw, bh = layout.board
    quad = apply_h(board_h, [[0, 0], [bw, 0], [bw, bh], [0, bh]])
    mid, top = apply_h(board_h, [[bw / 2, bh / 2], [bw / 2, 0]])
    up = top - mid
    # Clockwise from upright on screen (y down): image-up (0, -1) turned by theta is
    # (sin theta, -cos theta).
    angle = math.degrees(math.atan2(up[0], -up[1])) % 360
    rotation = round(angle / 90) % 4 * 90
    return BoardRegion(seat, quad, board_h, rotation, source, float(confidence))


def _fit_rigid(src: np.ndarray, dst: np.ndarray) -> tuple[np.ndarray, float]:
    """The turn and shift (no scale) taking src onto dst best (Kabsch), and its RMS error."""
    cs, cd = src.mean(axis=0), dst.mean(axis=0)
    u, _s, vt = np.linalg.svd((src - cs).T @ (dst - cd))
    d = np.sign(np.linalg.det(vt.T @ u.T)) or 1.0
    r = vt.T @ np.diag([1.0, d]) @ u.T
    pose = _rigid(r, cd - r @ cs)
    rms = float(np.sqrt(np.mean(np.sum((apply_h(pose, src) - dst) ** 2, axis=1))))
    return pose, rms


def _rigid(r: np.ndarray, t: np.ndarray) -> np.ndarray:
    m = np.eye(3)
    m[:2, :2] = r
    m[:2, 2] = t
    return m


def _rotation(degrees: float) -> np.ndarray:
    """Turn clockwise on screen (y down) by `degrees`."""
    a = math.radians(degrees)
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, -s], [s, c]])


def _area(quad: np.ndarray) -> float:
    return abs(float(cv2.contourArea(np.asarray(quad, np.float32))))


def _hull_area(points: np.ndarray) -> float:
    if len(points) < 3:
        return 0.0
    return _area(cv2.convexHull(np.asarray(points, np.float32)).reshape(-1, 2))


def _grey(frame: object) -> np.ndarray | None:
    try:
        a = np.asarray(frame)
    except (TypeError, ValueError):
        return None
    if a.size == 0 or a.ndim not in (2, 3) or min(a.shape[:2]) < 8:
        return None
    if a.dtype != np.uint8:
        if not (np.issubdtype(a.dtype, np.number) or a.dtype == bool):
            return None
        a = np.clip(np.nan_to_num(a.astype(np.float64)), 0, 255).astype(np.uint8)
    if a.ndim == 3:
        if a.shape[2] == 1:
            a = a[..., 0]
        elif a.shape[2] in (3, 4):
            a = cv2.cvtColor(np.ascontiguousarray(a[..., :3]), cv2.COLOR_BGR2GRAY)
        else:
            return None
    return np.ascontiguousarray(a)


@cache
def _detector(dictionary: str) -> cv2.aruco.ArucoDetector:
    params = cv2.aruco.DetectorParameters()
    # Sub-pixel corners: the homography is only as exact as the corners it is fitted to.
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    # A board tag seen from a kiosk's height is about 30 px, 5 px a cell, and blurred:
    # reading each cell finer, away from its blurred edges, finds all of them on synthetic
    # frames where the defaults miss a few, at no cost in time.
    params.perspectiveRemovePixelPerCell = 10
    params.perspectiveRemoveIgnoredMarginPerCell = 0.25
    return cv2.aruco.ArucoDetector(aruco_dictionary(dictionary), params)


def aruco_dictionary(name: str = DICTIONARY) -> cv2.aruco.Dictionary:
    """The predefined ArUco dictionary `name` (e.g. "DICT_4X4_50")."""
    return cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, name))
