"""The printable ArUco kit: marker sheets at their exact size, and a placement guide.

Pages are drawn in millimetres on A4 at 300 dpi; a marker's side in pixels is its size in
mm / 25.4 * 300, rounded. The PDF is written by hand (one Flate-compressed grey image
per page) so that the kit needs nothing beyond OpenCV and numpy.
"""

from __future__ import annotations

import math
import os
import unicodedata
import zlib
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from companion.i18n import _

from .aruco import BOARD_MM, TAG_CENTERS_MM, MarkerLayout, Seat, aruco_dictionary

DPI = 300
A4_MM = (210.0, 297.0)
MARGIN_MM = 15.0
# White kept round each marker inside its cut line: more than one marker cell (a sixth
# of its side), which ArUco needs to see the black border as a border.
QUIET_MM = 12.0
TAG_QUIET_MM = 6.0
TAG_GLUE_MM = 25.0  # the strip that goes under the board
RULER_MM = 100

# Fields of view (horizontal, vertical, degrees) of the cameras in docs/install-pi.md.
CAMERAS = (
    ("Camera Module 3", 66.0, 41.0),
    ("Camera Module 3 Wide", 102.0, 67.0),
    ("Camera Module 2", 62.0, 49.0),
    ("HQ camera, 6 mm lens", 55.0, 43.0),
)
SENSOR_PX = 2304  # the Module 3's default full-field width in the companion


def px_per_mm(dpi: int = DPI) -> float:
    return dpi / 25.4


def mm_to_px(mm: float, dpi: int = DPI) -> int:
    return round(mm * px_per_mm(dpi))


@dataclass(frozen=True)
class KitFile:
    name: str
    data: bytes


def build_kit(dpi: int = DPI) -> list[KitFile]:
    """Every file of the kit, in memory, so that nothing is written half."""
    pages = [table_sheet(dpi), tag_sheet(dpi)]
    files = [KitFile("markers-table.png", _png(pages[0], dpi)),
             KitFile("markers-boards.png", _png(pages[1], dpi)),
             KitFile("markers.pdf", pdf_of_pages(pages, dpi)),
             KitFile("placement.png", _png(placement_diagram(), 150)),
             KitFile("placement.md", placement_guide().encode("utf-8"))]
    return files


def write_kit(out: Path, dpi: int = DPI) -> list[Path]:
    """Write the kit into `out` (made if missing); OSError when it cannot. Each file goes
    to a temporary name first, so a failure leaves no truncated file behind."""
    files = build_kit(dpi)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for f in files:
        path = out / f.name
        tmp = out / f".{f.name}.tmp"
        try:
            tmp.write_bytes(f.data)
            os.replace(tmp, path)
        finally:
            tmp.unlink(missing_ok=True)
        written.append(path)
    return written


class _Page:
    """A white A4 page drawn in millimetres."""

    def __init__(self, dpi: int) -> None:
        self.dpi = dpi
        self.k = px_per_mm(dpi)
        self.img = np.full((mm_to_px(A4_MM[1], dpi), mm_to_px(A4_MM[0], dpi)), 255, np.uint8)

    def px(self, x: float, y: float) -> tuple[int, int]:
        return round(x * self.k), round(y * self.k)

    def marker(self, marker_id: int, x: float, y: float, size: float, dictionary: str) -> None:
        """The marker with its top-left corner at (x, y) mm, `size` mm square."""
        side = mm_to_px(size, self.dpi)
        x0, y0 = self.px(x, y)
        self.img[y0:y0 + side, x0:x0 + side] = cv2.aruco.generateImageMarker(
            aruco_dictionary(dictionary), marker_id, side)

    def text(self, s: str, x: float, y: float, height: float, *, bold: bool = False, grey: int = 0,
             centre: bool = False) -> None:
        """`s` with its baseline at y mm and cap height `height` mm."""
        draw_text(self.img, s, self.px(x, y), height * self.k, grey, bold=bold, centre=centre)

    def dashed_rect(self, x0: float, y0: float, x1: float, y1: float) -> None:
        for a, b in (((x0, y0), (x1, y0)), ((x1, y0), (x1, y1)), ((x1, y1), (x0, y1)), ((x0, y1), (x0, y0))):
            self.dashed(a, b)

    def dashed(self, a: tuple[float, float], b: tuple[float, float], dash: float = 3.0,
               grey: int = 90) -> None:
        length = math.dist(a, b)
        n = max(1, int(length / dash))
        for i in range(0, n, 2):
            t0, t1 = i / n, min(1.0, (i + 1) / n)
            p = (a[0] + (b[0] - a[0]) * t0, a[1] + (b[1] - a[1]) * t0)
            q = (a[0] + (b[0] - a[0]) * t1, a[1] + (b[1] - a[1]) * t1)
            cv2.line(self.img, self.px(*p), self.px(*q), grey, max(1, round(0.25 * self.k)), cv2.LINE_AA)

    def ruler(self, x: float, y: float) -> None:
        """A 100 mm scale with mm ticks: measures whether the printer kept the size."""
        thin, thick = max(1, round(0.15 * self.k)), max(2, round(0.3 * self.k))
        cv2.line(self.img, self.px(x, y), self.px(x + RULER_MM, y), 0, thick)
        for mm in range(RULER_MM + 1):
            tick = 6.0 if mm % 10 == 0 else 4.0 if mm % 5 == 0 else 2.5
            width = thick if mm % 10 == 0 else thin
            cv2.line(self.img, self.px(x + mm, y), self.px(x + mm, y - tick), 0, width)
            if mm % 10 == 0:
                self.text(str(mm // 10), x + mm, y - 7.5, 2.2, centre=True)
        self.text(_("cm"), x + RULER_MM + 3, y - 1, 2.5)
        self.text(_("This ruler must measure exactly 100 mm. "
                    "If not, print again at 100 % (\"actual size\")."), x, y + 6, 2.6)


def table_sheet(dpi: int = DPI) -> np.ndarray:
    """Page 1: the four table markers, 60 mm, for the corners of the play area."""
    layout = MarkerLayout.for_players(4)
    page = _Page(dpi)
    page.text(_("Azul Table Companion: table markers"), MARGIN_MM, 22, 5.0, bold=True)
    subtitle = _("ArUco {dictionary}, {size:.0f} mm. Print on A4 at 100 %, cut along the dashed lines.")
    page.text(subtitle.format(dictionary=layout.dictionary.removeprefix("DICT_"), size=layout.table[0].size),
              MARGIN_MM, 30, 2.8)
    corners = (_("top-left corner"), _("top-right corner"), _("bottom-right corner"), _("bottom-left corner"))
    cell_w = layout.table[0].size + 2 * QUIET_MM
    cell_h = cell_w + 14.0
    gap_x = A4_MM[0] - 2 * MARGIN_MM - 2 * cell_w
    for place, where in zip(layout.table, corners, strict=True):
        col, row = place.id % 2, place.id // 2
        x0, y0 = MARGIN_MM + col * (cell_w + gap_x), 40.0 + row * (cell_h + 10.0)
        page.dashed_rect(x0, y0, x0 + cell_w, y0 + cell_h)
        page.text(_("TOP: away from seat 0"), x0 + cell_w / 2, y0 + 7.5, 2.4, centre=True, grey=60)
        page.marker(place.id, x0 + QUIET_MM, y0 + QUIET_MM, place.size, layout.dictionary)
        page.text(_("Table marker {id}").format(id=place.id), x0 + cell_w / 2, y0 + cell_w + 3.5, 3.6,
                  bold=True, centre=True)
        page.text(where, x0 + cell_w / 2, y0 + cell_w + 9.5, 2.8, centre=True)
    page.ruler(MARGIN_MM, 262.0)
    page.text(_("Stick each marker with its centre on a corner of the play area; see placement.md."),
              MARGIN_MM, 282.0, 2.6)
    return page.img


def tag_sheet(dpi: int = DPI) -> np.ndarray:
    """Page 2: two tags per seat, on tabs that tuck under the board's top edge."""
    layout = MarkerLayout.for_players(4)
    page = _Page(dpi)
    page.text(_("Azul Table Companion: board tags (optional)"), MARGIN_MM, 22, 5.0, bold=True)
    page.text(_("Tuck the grey strip under the board's top edge (beyond the score track) so that the"),
              MARGIN_MM, 30, 2.8)
    page.text(_("dashed line lies on the edge, and tape it under the board. "
                "The tag itself lies on the table."), MARGIN_MM, 35, 2.8)
    size = layout.tags[0][1].size
    w = size + 2 * TAG_QUIET_MM
    # From the tab's top cut line: quiet zone, marker, the gap down to the board's edge, glue strip.
    to_edge = -(TAG_CENTERS_MM[0][1] - size / 2 - TAG_QUIET_MM)
    h = to_edge + TAG_GLUE_MM
    gap = (A4_MM[0] - 2 * MARGIN_MM - 4 * w) / 3
    sides = (_("left tag"), _("right tag"))
    for seat, place in layout.tags:
        k = (place.id - layout.tags[0][1].id) % 2
        x0, y0 = MARGIN_MM + seat * (w + gap), 46.0 + k * (h + 12.0)
        page.dashed_rect(x0, y0, x0 + w, y0 + h)
        page.marker(place.id, x0 + TAG_QUIET_MM, y0 + TAG_QUIET_MM, size, layout.dictionary)
        edge = y0 + to_edge
        cv2.rectangle(page.img, page.px(x0, edge), page.px(x0 + w, y0 + h), 225, -1)
        page.dashed((x0, edge), (x0 + w, edge), dash=1.5, grey=0)
        page.text(_("board edge"), x0 + w / 2, edge + 4.5, 2.2, centre=True)
        page.text(_("seat {seat}").format(seat=seat), x0 + w / 2, edge + 10.5, 3.2, bold=True, centre=True)
        page.text(sides[k], x0 + w / 2, edge + 15.5, 2.4, centre=True)
        page.text(_("{mm:.0f} mm from left").format(mm=TAG_CENTERS_MM[k][0]), x0 + w / 2, edge + 20.0, 2.2,
                  centre=True)
        page.text(_("id {id}").format(id=place.id), x0 + w / 2, edge + 24.0, 2.2, centre=True, grey=70)
    page.text(_("\"From left\": from the board's left corner to the middle of the tag, "
                "as its owner sees it."), MARGIN_MM, 46.0 + 2 * h + 12.0 + 8.0, 2.6)
    page.ruler(MARGIN_MM, 262.0)
    page.text(_("Two players use seats 0-1, three players seats 0-2, four players all."),
              MARGIN_MM, 282.0, 2.6)
    return page.img


def camera_heights(layout: MarkerLayout) -> list[tuple[str, float, float]]:
    """(camera, height in cm, table-marker side in image px at SENSOR_PX across) for a
    camera looking straight down at the middle: the lowest height that keeps every
    table marker, and a 4 cm margin, in the picture with its long side along the table's."""
    reach = layout.table[0].size / 2 + 40.0
    long_side = max(layout.width, layout.height) + 2 * reach
    short_side = min(layout.width, layout.height) + 2 * reach
    rows = []
    for name, hfov, vfov in CAMERAS:
        need = max(long_side / (2 * math.tan(math.radians(hfov / 2))),
                   short_side / (2 * math.tan(math.radians(vfov / 2))))
        cm = math.ceil(need / 50.0) * 5.0
        seen_mm = 2 * cm * 10 * math.tan(math.radians(hfov / 2))
        rows.append((name, cm, layout.table[0].size * SENSOR_PX / seen_mm))
    return rows


def placement_diagram() -> np.ndarray:
    """Where everything goes, for 2 players and for 3-4 players, side by side (BGR)."""
    panels = [_layout_panel(MarkerLayout.for_players(n), title)
              for n, title in ((2, _("2 players")), (4, _("3 or 4 players")))]
    h = max(p.shape[0] for p in panels)
    panels = [np.pad(p, ((0, h - p.shape[0]), (0, 0), (0, 0)), constant_values=255) for p in panels]
    return np.concatenate(panels, axis=1)


def _layout_panel(layout: MarkerLayout, title: str) -> np.ndarray:
    s = 0.9  # px per mm
    pad = 110
    w = round(1000 * s) + 2 * pad + 40
    top = 150
    h = top + round(1000 * s) + pad + 250
    img = np.full((h, w, 3), 255, np.uint8)
    ox = (w - layout.width * s) / 2

    def px(x: float, y: float) -> tuple[int, int]:
        return round(ox + x * s), round(top + 30 + y * s)

    draw_text(img, title, (w // 2, 50), 30, (0, 0, 0), bold=True, centre=True)
    # The play area between the table markers, and the factories' loose circle in its middle.
    cv2.rectangle(img, px(0, 0), px(layout.width, layout.height), (205, 205, 205), 2, cv2.LINE_AA)
    mid = px(layout.width / 2, layout.height / 2)
    radius = round((175 if len(layout.seats) == 2 else 250) * s)
    cv2.circle(img, mid, radius, (120, 170, 230), 2, cv2.LINE_AA)
    draw_text(img, _("factories"), (mid[0], mid[1] + 8), 15, (60, 110, 170), centre=True)
    for seat in layout.seats:
        _draw_board(img, layout, seat, px, s)
    for place in layout.table:
        _draw_marker(img, place.corners(), px, str(place.id), 20)
    # Dimensions along the top and the left side.
    y = px(0, 0)[1] - 55
    cv2.arrowedLine(img, (px(0, 0)[0], y), (px(layout.width, 0)[0], y), (0, 0, 0), 2, tipLength=0.02)
    cv2.arrowedLine(img, (px(layout.width, 0)[0], y), (px(0, 0)[0], y), (0, 0, 0), 2, tipLength=0.02)
    draw_text(img, _("{mm:.0f} mm between marker centres").format(mm=layout.width),
              (mid[0], y - 10), 17, (0, 0, 0), centre=True)
    x = px(0, 0)[0] - 55
    cv2.arrowedLine(img, (x, px(0, 0)[1]), (x, px(0, layout.height)[1]), (0, 0, 0), 2, tipLength=0.02)
    cv2.arrowedLine(img, (x, px(0, layout.height)[1]), (x, px(0, 0)[1]), (0, 0, 0), 2, tipLength=0.02)
    draw_text(img, _("{mm:.0f} mm").format(mm=layout.height), (x, mid[1] + 8), 17, (0, 0, 0), centre=True,
              background=(255, 255, 255))
    # Camera heights under the table.
    y = px(0, layout.height)[1] + 80
    draw_text(img, _("Camera height, looking straight down at the middle:"), (pad // 2, y), 18, (0, 0, 0),
              bold=True)
    for name, cm, _marker_px in camera_heights(layout):
        y += 34
        draw_text(img, f"{name}: {cm:.0f} cm", (pad // 2 + 20, y), 17, (40, 40, 40))
    return img


def _draw_board(img: np.ndarray, layout: MarkerLayout, seat: Seat, px, s: float) -> None:
    pose = layout.seat_pose(seat)
    bw, bh = BOARD_MM

    def to_px(points) -> np.ndarray:
        p = np.asarray(points, np.float64) @ pose[:2, :2].T + pose[:2, 2]
        return np.array([px(*q) for q in p], np.int32)

    cv2.fillPoly(img, [to_px([[0, 0], [bw, 0], [bw, bh], [0, bh]])], (200, 130, 40), cv2.LINE_AA)
    # The score track (the board's top third) in a paler blue shows which way the board faces.
    cv2.fillPoly(img, [to_px([[8, 8], [bw - 8, 8], [bw - 8, 78], [8, 78]])], (235, 205, 160), cv2.LINE_AA)
    cv2.fillPoly(img, [to_px([[8, 85], [bw - 8, 85], [bw - 8, bh - 8], [8, bh - 8]])], (225, 240, 245),
                 cv2.LINE_AA)
    centre = to_px([[bw / 2, bh * 0.62]])[0]
    draw_text(img, _("seat {seat}").format(seat=seat.seat), (int(centre[0]), int(centre[1])), 22, (0, 0, 0),
              bold=True, centre=True)
    draw_text(img, _("score track"), tuple(int(v) for v in to_px([[bw / 2, 48]])[0] + (0, 6)), 13,
              (90, 60, 20), centre=True)
    for s_, place in layout.tags:
        if s_ == seat.seat:
            corners = place.corners() @ pose[:2, :2].T + pose[:2, 2]
            _draw_marker(img, corners, px, str(place.id), 14)


def _draw_marker(img: np.ndarray, corners_mm: np.ndarray, px, label: str, text_px: int) -> None:
    quad = np.array([px(*c) for c in corners_mm], np.int32)
    cv2.fillPoly(img, [quad], (0, 0, 0), cv2.LINE_AA)
    c = quad.mean(axis=0)
    draw_text(img, label, (round(c[0]), round(c[1] + text_px / 2)), text_px, (255, 255, 255), bold=True,
              centre=True)


def placement_guide() -> str:
    """placement.md: the steps, where each marker goes, and the camera heights."""
    lines = [
        "# " + _("Azul Table Companion: ArUco kit placement"), "",
        _("This kit is only an aid for a fixed kiosk table: the companion works without it. Print "
          "`markers.pdf` at 100 % (\"actual size\", no \"fit to page\") on A4, check that the ruler "
          "on each page measures 100 mm, and cut along the dashed lines."), "",
        "![" + _("placement diagram") + "](placement.png)", "",
        "## " + _("Table markers (page 1)"), "",
        _("Seen from above with seat 0 at the bottom, table marker 0 goes top-left and the others "
          "follow clockwise. Put each marker's centre on a corner of the play area, the side marked "
          "TOP away from seat 0. Measure the distances below to within 5 mm and check that the two "
          "diagonals are equally long. Cover the markers with matt tape, not glossy film: reflections "
          "hide them."), "",
    ]
    for n, title in ((2, _("2 players")), (4, _("3 or 4 players"))):
        layout = MarkerLayout.for_players(n)
        lines += [f"### {title}", "",
                  "| " + _("marker") + " | " + _("where") + " | " + _("centre, mm right of marker 0") + " | "
                  + _("centre, mm below marker 0") + " |", "|---|---|---|---|"]
        names = (_("top-left"), _("top-right"), _("bottom-right"), _("bottom-left"))
        for place, where in zip(layout.table, names, strict=True):
            lines.append(f"| {place.id} | {where} | {place.center[0]:.0f} | {place.center[1]:.0f} |")
        lines += ["", "| " + _("seat") + " | " + _("board") + " | " + _("tags") + " |", "|---|---|---|"]
        sides = {0: _("bottom edge, upright"), 90: _("left edge, turned a quarter clockwise"),
                 180: _("top edge, upside down"), 270: _("right edge, turned a quarter anticlockwise")}
        for seat in layout.seats:
            ids = ", ".join(str(p.id) for s, p in layout.tags if s == seat.seat)
            lines.append(f"| {seat.seat} | {sides[seat.rotation]} | {ids} |")
        lines += ["", _("Boards lie 20 mm in from the play area's edge, centred on it, score track towards "
                        "the middle."), "",
                  "| " + _("camera") + " | " + _("height") + " | " + _("table marker in the picture") + " | "
                  + _("board tag in the picture") + " |", "|---|---|---|---|"]
        tag_share = layout.tags[0][1].size / layout.table[0].size
        for name, cm, marker_px in camera_heights(layout):
            size = _("{px:.0f} px at {width} px wide")
            lines.append(f"| {name} | {cm:.0f} cm | {size.format(px=marker_px, width=SENSOR_PX)} | "
                         f"{size.format(px=marker_px * tag_share, width=SENSOR_PX)} |")
        lines.append("")
    lines += [
        "## " + _("Board tags (page 2, optional)"), "",
        _("Each seat has two tags. Tuck a tag's grey strip under its board's top edge (the edge beyond "
          "the score track), with the dashed line exactly on the edge and the tag's middle {left:.0f} mm "
          "(left tag) or {right:.0f} mm (right tag) from the board's left corner as its owner sees it; "
          "tape the strip under the board. The tag then lies flat on the table and moves with the board. "
          "With tags the companion knows each board's exact place even if it is pushed aside.").format(
            left=TAG_CENTERS_MM[0][0], right=TAG_CENTERS_MM[1][0]), "",
        "## " + _("Camera"), "",
        _("Mount the camera looking straight down at the middle of the play area, the picture's long "
          "side along the table's long side, at about the height above (a tilt of up to 45 degrees "
          "still works). All four table markers must be in the picture; three are enough while a hand "
          "covers one. Then enable the aid as described in docs/aruco-kit.md."), "",
    ]
    return "\n".join(lines)


def draw_text(img: np.ndarray, text: str, org: tuple[int, int], cap_px: float, color, *, bold: bool = False,
              centre: bool = False, background=None) -> None:
    """`text` with its baseline at `org` and capitals `cap_px` pixels tall."""
    if not _UNICODE_TEXT:
        text = ascii_text(text)
    font = cv2.FONT_HERSHEY_DUPLEX if bold else cv2.FONT_HERSHEY_SIMPLEX
    (_w, cap), _base = cv2.getTextSize("H", font, 1.0, 1)
    scale = cap_px / cap
    thickness = max(1, round(scale * (2.2 if bold else 1.4)))
    (width, height), base = cv2.getTextSize(text, font, scale, thickness)
    x = org[0] - width // 2 if centre else org[0]
    if background is not None:
        pad = round(cap_px / 3)
        cv2.rectangle(img, (x - pad, org[1] - height - pad), (x + width + pad, org[1] + base), background, -1)
    cv2.putText(img, text, (x, org[1]), font, scale, color, thickness, cv2.LINE_AA)


# OpenCV 5 draws text with a Unicode font; 4.x has the ASCII-only Hershey fonts, for which
# accents are dropped and other letters spelled out.
_UNICODE_TEXT = int(cv2.__version__.split(".")[0]) >= 5


_SPELLED = str.maketrans({"ø": "o", "Ø": "O", "æ": "ae", "Æ": "AE", "å": "aa", "Å": "AA", "ß": "ss",
                          "ł": "l", "Ł": "L", "œ": "oe", "Œ": "OE", "–": "-", "—": "-", "’": "'",
                          "“": '"', "”": '"', "„": '"', "×": "x", "°": " deg"})


def ascii_text(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text.translate(_SPELLED))
    return "".join(c for c in decomposed if ord(c) < 128)


def _png(img: np.ndarray, dpi: int) -> bytes:
    ok, buf = cv2.imencode(".png", img, [cv2.IMWRITE_PNG_COMPRESSION, 9])
    if not ok:
        raise OSError(_("cannot encode a PNG image"))
    return _with_dpi(buf.tobytes(), dpi)


def _with_dpi(png: bytes, dpi: int) -> bytes:
    """`png` with a pHYs chunk, so that image viewers and printers know its physical size."""
    ppm = round(dpi / 0.0254)
    body = b"pHYs" + ppm.to_bytes(4, "big") * 2 + b"\x01"
    chunk = (9).to_bytes(4, "big") + body + zlib.crc32(body).to_bytes(4, "big")
    end_of_ihdr = 8 + 4 + 4 + 13 + 4
    return png[:end_of_ihdr] + chunk + png[end_of_ihdr:]


def pdf_of_pages(pages: list[np.ndarray], dpi: int = DPI) -> bytes:
    """A PDF with one grey page image per page, each at its physical size at `dpi`."""
    objects: list[bytes] = []

    def add(body: bytes) -> int:
        objects.append(body)
        return len(objects)

    catalog = add(b"")  # filled in once the pages tree's number is known
    tree = add(b"")
    kids = []
    for img in pages:
        height, width = img.shape[:2]
        w_pt, h_pt = width * 72 / dpi, height * 72 / dpi
        data = zlib.compress(np.ascontiguousarray(img, np.uint8).tobytes(), 9)
        image = add(b"<< /Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceGray "
                    b"/BitsPerComponent 8 /Filter /FlateDecode /Length %d >>\nstream\n%s\nendstream"
                    % (width, height, len(data), data))
        draw = b"q %.4f 0 0 %.4f 0 0 cm /Im0 Do Q" % (w_pt, h_pt)
        content = add(b"<< /Length %d >>\nstream\n%s\nendstream" % (len(draw), draw))
        kids.append(add(b"<< /Type /Page /Parent %d 0 R /MediaBox [0 0 %.4f %.4f] /Resources << /XObject "
                        b"<< /Im0 %d 0 R >> >> /Contents %d 0 R >>" % (tree, w_pt, h_pt, image, content)))
    objects[catalog - 1] = b"<< /Type /Catalog /Pages %d 0 R >>" % tree
    objects[tree - 1] = b"<< /Type /Pages /Kids [%s] /Count %d >>" % (
        b" ".join(b"%d 0 R" % k for k in kids), len(kids))
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root %d 0 R >>\n" % (len(objects) + 1, catalog)
    out += b"startxref\n%d\n%%%%EOF\n" % xref
    return bytes(out)
