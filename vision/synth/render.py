"""render_table: a camera frame of an Azul table, and what it truly shows."""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from . import board as bd
from .camera import Camera, fit_camera
from .clutter import draw_thing, in_view, place_things, shadow_outline
from .compose import (
    ShadowLayer,
    blend_layer,
    draw_sprite,
    fill_polygon,
    pose_matrix,
    scratch,
    sprite_homography,
    warp_layer,
)
from .conditions import Conditions
from .factory import DISC_RADIUS_MM, DISC_THICKNESS_MM, disc_sprite
from .factory import EDGE_BGR as DISC_EDGE_BGR
from .hand import SKIN_RGB, SLEEVE_RGB, WRIST_TO_SPRITE_CENTRE_MM, hand_sprite
from .layout import Layout, factory_positions, pile_positions
from .photo import photograph
from .scene import TableContent
from .solids import box_sides, solid_of_revolution
from .table import draw_mat, draw_table
from .tiles import TILE_MM, TILE_THICKNESS_MM, side_bgr, tile_sprite
from .truth import MIDDLE_RADIUS_MM, BoardRecord, FactoryRecord, TileRecord, build_truth

CUBE_MM = 8.0
_MAT_BGR = [(70, 70, 74), (60, 110, 160), (150, 150, 150), (40, 60, 90), (110, 160, 190), (90, 60, 120)]


@dataclass
class _Tile:
    color: str
    x: float
    y: float
    base: float  # height of the surface it lies on
    angle: float
    record: TileRecord | None  # where the truth wants its top quad


def _square(x: float, y: float, angle_deg: float, size: float) -> np.ndarray:
    a = math.radians(angle_deg)
    c, s = math.cos(a), math.sin(a)
    half = size / 2
    local = np.array([[-half, -half], [half, -half], [half, half], [-half, half]])
    return np.column_stack([x + c * local[:, 0] - s * local[:, 1], y + s * local[:, 0] + c * local[:, 1]])


def _on_board(placement, local_xy: tuple[float, float]) -> tuple[float, float]:
    """Board mm (from its top-left corner) -> table mm."""
    a = math.radians(placement.rotation_deg)
    c, s = math.cos(a), math.sin(a)
    u, v = local_xy[0] - bd.BOARD_W_MM / 2, local_xy[1] - bd.BOARD_H_MM / 2
    return placement.x + c * u - s * v, placement.y + s * u + c * v


def _cell_quad(cam: Camera, placement, local_xy: tuple[float, float], size: float) -> np.ndarray:
    x, y = _on_board(placement, local_xy)
    quad = _square(x, y, placement.rotation_deg, size)
    return cam.project(np.column_stack([quad, np.full(4, bd.BOARD_THICKNESS_MM)]))


def _light_vector(c: Conditions) -> np.ndarray:
    az, el = math.radians(c.light_azimuth_deg), math.radians(c.light_elevation_deg)
    return np.array([-math.sin(az) * math.cos(el), math.cos(az) * math.cos(el), math.sin(el)])


def render_table(
    content: TableContent, conditions: Conditions, rng: np.random.Generator | int
) -> tuple[np.ndarray, dict]:
    """Draw one camera frame (BGR uint8, conditions.width x height) of the table holding
    `content`, and return it with its ground truth (observation + "geometry")."""
    rng = rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)
    cond = conditions
    layout = cond.layout or Layout.around_table(
        len(content.boards),
        len(content.factories),
        rng,
        board_jitter_mm=cond.board_jitter_mm,
        board_jitter_deg=cond.board_jitter_deg,
        factory_jitter_mm=cond.factory_jitter_mm,
    )
    if len(layout.boards) != len(content.boards) or len(layout.factories) != len(content.factories):
        raise ValueError(
            f"layout has {len(layout.boards)} boards and {len(layout.factories)} factories, "
            f"content has {len(content.boards)} and {len(content.factories)}"
        )
    w, h = cond.width, cond.height
    cam = fit_camera(
        layout.extent_points(),
        tilt_deg=cond.tilt_deg,
        azimuth_deg=cond.azimuth_deg,
        roll_deg=cond.roll_deg,
        hfov_deg=cond.hfov_deg,
        width=w,
        height=h,
        framing=cond.framing,
    )
    light = _light_vector(cond)
    drop = -light[:2] / light[2]  # shadow displacement per mm of height
    scale = cam.px_per_mm(np.array([[*layout.center, 0.0]]))  # px per mm in the middle
    max_scale = cam.px_per_mm(layout.extent_points())

    frame = scratch("frame", (h, w, 3))
    ext = layout.extent_points()
    # a real table is at least about 90 x 80 cm, whatever lies on it
    grow_x = max(0.0, 900 - np.ptp(ext[:, 0])) / 2
    grow_y = max(0.0, 800 - np.ptp(ext[:, 1])) / 2
    rect = (
        ext[:, 0].min() - grow_x - rng.uniform(60, 400),
        ext[:, 1].min() - grow_y - rng.uniform(60, 400),
        ext[:, 0].max() + grow_x + rng.uniform(60, 400),
        ext[:, 1].max() + grow_y + rng.uniform(60, 400),
    )
    draw_table(frame, cam, cond.table, rect, rng)

    def free(x: float, y: float, radius: float) -> bool:
        if (
            math.hypot(x - layout.center[0], y - layout.center[1])
            < layout.center_radius + 2 * DISC_RADIUS_MM + radius
        ):
            return False
        return all(math.hypot(x - b.x, y - b.y) > 185 + radius for b in layout.boards)

    for _ in range(cond.mats):
        size = (rng.uniform(280, 450), rng.uniform(200, 320))
        x, y = rng.uniform(rect[0], rect[2]), rng.uniform(rect[1], rect[3])
        if math.hypot(x - layout.center[0], y - layout.center[1]) > layout.center_radius + 150:
            color = _MAT_BGR[int(rng.integers(len(_MAT_BGR)))]
            draw_mat(
                frame,
                cam,
                (x, y),
                size,
                rng.uniform(0, 180),
                color_bgr=color,
                oval=rng.uniform() < 0.3,
                rng=rng,
            )

    things = place_things({"cup": cond.cups, "bottle": cond.bottles, "bag": cond.bags}, free, rect, rng)
    things = [t for t in things if in_view(t, cam)]

    # boards and discs, with their own thin shadows on the table
    under = ShadowLayer(w, h)
    for b in layout.boards:
        fp = _board_footprint(b)
        under.add(
            cam.project(
                np.column_stack([np.concatenate([fp, fp + drop * bd.BOARD_THICKNESS_MM * 2]), np.zeros(8)])
            ),
            cond.shadow,
        )
    for fx, fy in layout.factories:
        ring = _circle(fx, fy, DISC_RADIUS_MM)
        under.add(
            cam.project(
                np.column_stack(
                    [np.concatenate([ring, ring + drop * DISC_THICKNESS_MM * 2]), np.zeros(2 * len(ring))]
                )
            ),
            cond.shadow,
        )
    under.apply(frame, 1.2 * scale)

    board_records = []
    for i, b in enumerate(layout.boards):
        content_board = content.boards[i]
        box_sides(
            frame, cam, _board_footprint(b), 0.0, bd.BOARD_THICKNESS_MM, side_bgr=bd.EDGE_BGR, light=light
        )
        draw_sprite(
            frame,
            bd.board_sprite(content_board.side),
            cam.homography(bd.BOARD_THICKNESS_MM),
            pose_matrix(b.x, b.y, b.rotation_deg),
            max_scale,
        )
        board_records.append(_board_record(cam, i, b))
    factory_records = []
    for i, (fx, fy) in enumerate(layout.factories):
        solid_of_revolution(
            frame,
            cam,
            (fx, fy),
            [(0.0, DISC_RADIUS_MM), (DISC_THICKNESS_MM, DISC_RADIUS_MM)],
            DISC_EDGE_BGR,
            light=light,
            gloss=0.0,
            segments=48,
        )
        draw_sprite(
            frame, disc_sprite(), cam.homography(DISC_THICKNESS_MM), pose_matrix(fx, fy, 0.0), max_scale
        )
        center = cam.project(np.array([[fx, fy, DISC_THICKNESS_MM]]))[0]
        outline, middle = (
            cam.project(np.column_stack([_circle(fx, fy, r), np.full(24, DISC_THICKNESS_MM)]))
            for r in (DISC_RADIUS_MM, MIDDLE_RADIUS_MM)
        )
        factory_records.append(FactoryRecord(i, center, outline, middle))

    tiles = _place_tiles(content, layout, board_records, factory_records, rng)
    center_records = [t.record for t in tiles if t.record is not None and t.record.place == ("center",)]

    # tile shadows and contact shadows
    low = ShadowLayer(w, h)
    for t in tiles:
        size = CUBE_MM if t.color == "cube" else TILE_MM
        height = CUBE_MM if t.color == "cube" else TILE_THICKNESS_MM
        fp = _square(t.x, t.y, t.angle, size * 1.04)
        shadow = np.concatenate([fp, fp + drop * height])
        low.add(cam.project(np.column_stack([shadow, np.full(8, t.base)])), cond.shadow * 1.2)
    low.apply(frame, 0.9 * scale)

    glare_spot = _glare_spot(cam, light, layout.center, bd.BOARD_THICKNESS_MM + TILE_THICKNESS_MM)
    glare_sigma = rng.uniform(60, 220)
    depth = cam.depth(np.array([[t.x, t.y, t.base] for t in tiles])) if tiles else []
    for k in np.argsort(-np.asarray(depth)) if tiles else []:
        _draw_tile(
            frame,
            cam,
            tiles[k],
            light,
            rng,
            glare=cond.glare,
            glare_spot=glare_spot,
            glare_sigma=glare_sigma,
            max_scale=max_scale,
        )

    # tall things and the hand: soft shadows, then drawn far to near; they hide the game
    occluder = np.zeros((h, w), np.uint8)
    high = ShadowLayer(w, h)
    for thing in things:
        high.add(cam.project(np.column_stack([shadow_outline(thing, drop), np.zeros(48)])), cond.shadow * 0.8)
    hand = _hand_pose(layout, rng) if cond.hand else None
    if hand is not None:
        sprite, pose, height = hand
        img, sc = sprite.level_for(scale)
        shadow_pose = np.array([[1, 0, drop[0] * height], [0, 1, drop[1] * height], [0, 0, 1]]) @ pose
        high.add_warped(
            img, sprite_homography(cam.homography(0.0), shadow_pose, sc, img.shape[1::-1]), cond.shadow * 0.8
        )
    high.apply(frame, 6.0 * scale)
    for thing in sorted(things, key=lambda t: -cam.depth(np.array([[t.x, t.y, 0.0]]))[0]):
        silhouette = draw_thing(frame, cam, thing, light)
        hull = cv2.convexHull(np.round(silhouette).astype(np.int32))
        cv2.fillConvexPoly(occluder, hull, 255)
    if hand is not None:
        _draw_hand(frame, occluder, cam, hand, rng)
    play = np.zeros((h, w), np.uint8)
    cv2.fillConvexPoly(
        play, cv2.convexHull(np.round(cam.project(layout.extent_points())).astype(np.int32)), 255
    )
    play_covered = bool(cv2.countNonZero(cv2.bitwise_and(play, occluder)))

    image = photograph(frame, cam, cond, rng)

    middle = cam.project(np.array([[*layout.center, 0.0]]))[0]
    camera_info = {
        "K": cam.K.round(3).tolist(),
        "R": cam.R.round(6).tolist(),
        "t": cam.t.round(3).tolist(),
        "position_mm": cam.position.round(1).tolist(),
        "px_per_mm": round(scale, 3),
    }
    truth = build_truth(
        content,
        board_records,
        factory_records,
        center_records,
        middle,
        occluder=occluder,
        play_covered=play_covered,
        camera_info=camera_info,
    )
    return image, truth


def _circle(x: float, y: float, r: float, n: int = 24) -> np.ndarray:
    a = np.linspace(0, 2 * np.pi, n, endpoint=False)
    return np.column_stack([x + r * np.cos(a), y + r * np.sin(a)])


def _board_footprint(b) -> np.ndarray:
    a = math.radians(b.rotation_deg)
    c, s = math.cos(a), math.sin(a)
    hw, hh = bd.BOARD_W_MM / 2, bd.BOARD_H_MM / 2
    local = np.array([[-hw, -hh], [hw, -hh], [hw, hh], [-hw, hh]])
    return np.column_stack([b.x + c * local[:, 0] - s * local[:, 1], b.y + s * local[:, 0] + c * local[:, 1]])


def _board_record(cam: Camera, index: int, b) -> BoardRecord:
    center = cam.project(np.array([[b.x, b.y, bd.BOARD_THICKNESS_MM]]))[0]
    top = cam.project(np.array([[*_on_board(b, (bd.BOARD_W_MM / 2, 0.0)), bd.BOARD_THICKNESS_MM]]))[0]
    outline = cam.project(np.column_stack([_board_footprint(b), np.full(4, bd.BOARD_THICKNESS_MM)]))
    cell = bd.CELL_MM
    return BoardRecord(
        content_index=index,
        center=center,
        up=top - center,
        outline=outline,
        lines=[[_cell_quad(cam, b, bd.line_cell(k, j), cell) for j in range(k + 1)] for k in range(5)],
        floor=[_cell_quad(cam, b, bd.floor_cell(i), cell) for i in range(7)],
        wall=[[_cell_quad(cam, b, bd.wall_cell(r, c), cell) for c in range(5)] for r in range(5)],
    )


def _place_tiles(
    content: TableContent,
    layout: Layout,
    boards: list[BoardRecord],
    factories: list[FactoryRecord],
    rng: np.random.Generator,
) -> list[_Tile]:
    tiles: list[_Tile] = []
    base = bd.BOARD_THICKNESS_MM

    def on_board(
        b, rec: BoardRecord, color: str, local: tuple[float, float], place: tuple, *, loose: float
    ) -> None:
        x, y = _on_board(b, (local[0] + rng.normal(0, loose), local[1] + rng.normal(0, loose)))
        record = TileRecord(color, np.zeros((4, 2)), place)
        rec.tiles.append(record)
        tiles.append(_Tile(color, x, y, base, b.rotation_deg + rng.normal(0, 2.5 * loose), record))

    for b, rec, board in zip(layout.boards, boards, content.boards, strict=True):
        for k, (color, count) in enumerate(board.lines):
            for j in range(count):
                on_board(b, rec, color, bd.line_cell(k, j), ("line", k, j), loose=0.9)
        for i, tile in enumerate(board.floor):
            if tile is not None:
                on_board(b, rec, tile, bd.floor_cell(i), ("floor", i), loose=1.2)
        for r, row in enumerate(board.wall):
            for c, tile in enumerate(row):
                if tile is not None:
                    on_board(b, rec, tile, bd.wall_cell(r, c), ("wall", r, c), loose=0.5)
        cx, cy = _on_board(b, bd.score_cell(board.score))
        tiles.append(
            _Tile(
                "cube",
                cx + rng.normal(0, 0.5),
                cy + rng.normal(0, 0.5),
                base,
                b.rotation_deg + rng.normal(0, 6),
                None,
            )
        )
    for (fx, fy), rec, content_tiles in zip(layout.factories, factories, content.factories, strict=True):
        for color, (dx, dy, angle) in zip(
            content_tiles, factory_positions(len(content_tiles), rng), strict=True
        ):
            record = TileRecord(color, np.zeros((4, 2)), ("factory",))
            rec.tiles.append(record)
            tiles.append(_Tile(color, fx + dx, fy + dy, DISC_THICKNESS_MM, angle, record))
    pile = [c for c, n in sorted(content.center_tiles.items()) for _ in range(n)]
    if content.center_marker:
        pile.append("marker")
    order = rng.permutation(len(pile))
    for k, (x, y, angle) in zip(
        order, pile_positions(len(pile), layout.center, layout.center_radius, rng), strict=True
    ):
        record = TileRecord(pile[k], np.zeros((4, 2)), ("center",))
        tiles.append(_Tile(pile[k], x, y, 0.0, angle, record))
    return tiles


def _glare_spot(cam: Camera, light: np.ndarray, center: tuple[float, float], height: float) -> np.ndarray:
    """Table point where the lamp's mirror image appears on the glossy tops at `height`."""
    eye = cam.position
    lamp = np.array([center[0], center[1], 0.0]) + light * 1600.0
    mirrored = np.array([lamp[0], lamp[1], 2 * height - lamp[2]])
    t = (eye[2] - height) / (eye[2] - mirrored[2])
    return (eye + t * (mirrored - eye))[:2]


def _draw_tile(
    frame: np.ndarray,
    cam: Camera,
    t: _Tile,
    light: np.ndarray,
    rng: np.random.Generator,
    *,
    glare: float,
    glare_spot: np.ndarray,
    glare_sigma: float,
    max_scale: float,
) -> None:
    cube = t.color == "cube"
    size = CUBE_MM if cube else TILE_MM
    height = CUBE_MM if cube else TILE_THICKNESS_MM
    fp = _square(t.x, t.y, t.angle, size)
    top_h = t.base + height
    side = (24.0, 24.0, 26.0) if cube else side_bgr(t.color)
    top = box_sides(frame, cam, fp, t.base, top_h, side_bgr=side, light=light)
    if t.record is not None:
        t.record.top = top
    if cube:
        fill_polygon(frame, top, (40.0, 40.0, 44.0))
        return
    sprite = tile_sprite(t.color)
    img, sc = sprite.level_for(max_scale)
    H = sprite_homography(cam.homography(top_h), pose_matrix(t.x, t.y, t.angle), sc, img.shape[1::-1])
    warped = warp_layer(img, H, frame.shape[1], frame.shape[0])
    if warped is None:
        return
    blend_layer(frame, *warped)
    if glare <= 0:
        return
    d = float(np.hypot(*(np.array([t.x, t.y]) - glare_spot)))
    strength = glare * math.exp(-0.5 * (d / glare_sigma) ** 2) * rng.uniform(0.3, 1.3)
    if rng.uniform() < 0.08 * glare:  # another lamp or window catching this tile
        strength = max(strength, glare * rng.uniform(0.4, 1.0))
    if strength < 0.05:
        return
    (x0, y0, x1, y1), layer = warped
    spot = rng.uniform(-5, 5, 2)
    centre = cam.project(np.array([[t.x + spot[0], t.y + spot[1], top_h]]))[0]
    radius = rng.uniform(3, 8) * cam.px_per_mm(np.array([[t.x, t.y, top_h]]))
    yy, xx = np.mgrid[y0:y1, x0:x1].astype(np.float32)
    blob = np.exp(-0.5 * (((xx - centre[0]) ** 2 + (yy - centre[1]) ** 2) / radius**2))
    weight = (np.minimum(1.0, strength) * blob * layer[..., 3])[..., None]
    region = frame[y0:y1, x0:x1]
    region += (np.float32(262.0) - region) * weight


def _hand_pose(layout: Layout, rng: np.random.Generator):
    """A hand reaching from a random side towards something in play."""
    targets = [(f[0], f[1]) for f in layout.factories] + [(b.x, b.y) for b in layout.boards] + [layout.center]
    tx, ty = targets[int(rng.integers(len(targets)))]
    tx, ty = tx + rng.normal(0, 30), ty + rng.normal(0, 30)
    # the arm comes from a player's seat, beyond the board, towards the target
    seat = layout.boards[int(rng.integers(len(layout.boards)))]
    out = np.array([seat.x - layout.center[0], seat.y - layout.center[1]])
    out = out / max(1e-6, float(np.linalg.norm(out))) * 250 + rng.normal(0, 120, 2)
    reach = math.atan2(ty - (seat.y + out[1]), tx - (seat.x + out[0]))
    angle = math.degrees(reach)
    wrist = (tx - 70 * math.cos(reach), ty - 70 * math.sin(reach))
    sprite = hand_sprite(
        int(rng.integers(len(SKIN_RGB))), int(rng.integers(len(SLEEVE_RGB))), int(rng.integers(3))
    )
    pose = pose_matrix(*wrist, angle) @ np.array([[1, 0, WRIST_TO_SPRITE_CENTRE_MM], [0, 1, 0], [0, 0, 1.0]])
    return sprite, pose, float(rng.uniform(50, 160))


def _draw_hand(frame: np.ndarray, occluder: np.ndarray, cam: Camera, hand, rng: np.random.Generator) -> None:
    sprite, pose, height = hand
    h, w = frame.shape[:2]
    H_plane = cam.homography(height)
    img, sc = sprite.level_for(cam.px_per_mm(np.array([[pose[0, 2], pose[1, 2], height]])))
    warped = warp_layer(img, sprite_homography(H_plane, pose, sc, img.shape[1::-1]), w, h)
    if warped is None:
        return
    roi, layer = warped
    if rng.uniform() < 0.5:  # hands move: smear it a little
        k = max(1, round(rng.uniform(1, 6) * w / 1920)) | 1
        layer = cv2.GaussianBlur(layer, (k, k), 0)
    blend_layer(frame, roi, layer)
    x0, y0, x1, y1 = roi
    occluder[y0:y1, x0:x1][layer[..., 3] > 0.5] = 255
