"""What the camera adds on top of the scene: light colour and falloff, vignetting,
blur, sensor noise, its own processing (saturation, tone curve, sharpening) and JPEG
compression."""

from __future__ import annotations

import math
from typing import Any

import cv2
import numpy as np

from .camera import Camera, back_project
from .compose import scratch

REFERENCE_KELVIN = 3800.0  # the look of the measured photos: no cast at this temperature
AWB_RESIDUAL = 0.5  # the camera's white balance removes about half of a light's cast


def kelvin_rgb(kelvin: float) -> np.ndarray:
    """Approximate sRGB colour of a black body (Tanner Helland's fit), 0..1."""
    t = kelvin / 100
    r = 255.0 if t <= 66 else 329.698727446 * (t - 60) ** -0.1332047592
    g = (
        99.4708025861 * math.log(t) - 161.1195681661
        if t <= 66
        else 288.1221695283 * (t - 60) ** -0.0755148492
    )
    b = 255.0 if t >= 66 else (0.0 if t <= 19 else 138.5177312231 * math.log(t - 10) - 305.0447927307)
    return np.clip(np.array([r, g, b]), 1, 255) / 255


def colour_gain(kelvin: float) -> np.ndarray:
    """BGR gains of the light's colour cast left over after white balance."""
    ratio = kelvin_rgb(kelvin) / kelvin_rgb(REFERENCE_KELVIN)
    ratio = ratio / ratio.mean() * 1.0
    gain = ratio**AWB_RESIDUAL
    gain /= gain @ np.array([0.299, 0.587, 0.114])  # keep brightness
    return gain[::-1].astype(np.float32)


def light_field(
    cam: Camera,
    rng: np.random.Generator,
    *,
    exposure: float,
    gradient: float,
    vignette: float,
    light_azimuth_deg: float,
) -> np.ndarray:
    """Brightness over the frame (small, to be resized): a lamp-side gradient
    across the table plus lens vignetting."""
    w, h = cam.width, cam.height
    gw, gh = 64, max(2, round(64 * h / w))
    xs = (np.arange(gw) + 0.5) * w / gw
    ys = (np.arange(gh) + 0.5) * h / gh
    gx, gy = np.meshgrid(xs, ys)
    # the lamp's side of the table, as a direction in the image
    a = math.radians(light_azimuth_deg)
    middle = back_project(cam, np.array([[w / 2, h / 2]]))[0]
    ends = cam.project(
        np.array([[*middle, 0], [middle[0] - 100 * math.sin(a), middle[1] + 100 * math.cos(a), 0]])
    )
    direction = ends[1] - ends[0]
    direction /= max(1e-6, np.linalg.norm(direction))
    along = ((gx - w / 2) * direction[0] + (gy - h / 2) * direction[1]) / (0.5 * math.hypot(w, h))
    field = 1 + gradient * 0.5 * along + gradient * 0.1 * rng.uniform(-1, 1)
    r2 = ((gx - w / 2) ** 2 + (gy - h / 2) ** 2) / (0.25 * (w * w + h * h))
    field *= 1 - vignette * 0.6 * r2
    return (field * exposure).astype(np.float32)


def _strips(height: int, width: int, multiple: int = 1) -> list[tuple[int, int]]:
    """Row ranges small enough that a few float32 BGR temporaries stay in cache."""
    rows = max(16, (1 << 18) // max(1, width)) // multiple * multiple
    return [(r0, min(height, r0 + rows)) for r0 in range(0, height, rows)]


def _light_rows(rows: np.ndarray, light: np.ndarray, gain: tuple[float, ...]) -> None:
    colour = cv2.cvtColor(light, cv2.COLOR_GRAY2BGR)
    cv2.multiply(colour, gain, dst=colour)
    cv2.multiply(rows, colour, dst=rows)


def _grain_rows(rows: np.ndarray, grain: np.ndarray, sigma: float, rng: np.random.Generator) -> None:
    """Luminance grain, stronger in brighter rows (drawn row-band by row-band: the same
    numbers as one full-frame draw)."""
    rng.standard_normal(out=grain, dtype=np.float32)
    gray = cv2.cvtColor(rows, cv2.COLOR_BGR2GRAY)
    np.clip(gray, 0, 255, out=gray)
    gray *= np.float32(0.75 / 128)
    gray += np.float32(0.25)
    grain *= np.sqrt(gray, out=gray)
    grain *= sigma
    cv2.add(rows, cv2.cvtColor(grain, cv2.COLOR_GRAY2BGR), dst=rows)


def _quantise_rows(rows: np.ndarray, out: np.ndarray) -> None:
    rows += np.float32(0.5)
    np.clip(rows, 0, 255, out=rows)
    out[:] = rows


def _jpeg(image: np.ndarray, jpeg_quality: int | None) -> np.ndarray:
    if jpeg_quality is None:
        return image
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(jpeg_quality)])
    if not ok:
        raise RuntimeError("JPEG encoding failed")
    return cv2.imdecode(data, cv2.IMREAD_COLOR)


def _light_full(field: np.ndarray, h: int, w: int) -> np.ndarray:
    return cv2.resize(field, (w, h), dst=scratch("light", (h, w)), interpolation=cv2.INTER_CUBIC)


def _gain4(gain: np.ndarray) -> tuple[float, float, float, float]:
    b, g, r = (float(x) for x in gain)
    return (b, g, r, 0.0)


def apply_light(frame: np.ndarray, field: np.ndarray, gain: np.ndarray) -> None:
    h, w = frame.shape[:2]
    light, gain4 = _light_full(field, h, w), _gain4(gain)
    for r0, r1 in _strips(h, w):
        _light_rows(frame[r0:r1], light[r0:r1], gain4)


def blur(frame: np.ndarray, defocus_px: float, motion_px: float, motion_angle_deg: float) -> np.ndarray:
    spare = None  # one buffer for both passes
    if defocus_px > 0.3:
        r = max(1, round(defocus_px))
        disc = np.zeros((2 * r + 1, 2 * r + 1), np.float32)
        cv2.circle(disc, (r, r), r, 1.0, -1, cv2.LINE_AA)
        spare = np.empty_like(frame)
        cv2.filter2D(frame, -1, disc / disc.sum(), dst=spare, borderType=cv2.BORDER_REFLECT)
        frame, spare = spare, frame
    if motion_px > 0.5:
        n = max(3, round(motion_px) | 1)
        line = np.zeros((n, n), np.float32)
        a = math.radians(motion_angle_deg)
        c = n // 2
        d = (n - 1) / 2
        cv2.line(
            line,
            (round(c - d * math.cos(a)), round(c - d * math.sin(a))),
            (round(c + d * math.cos(a)), round(c + d * math.sin(a))),
            1.0,
            1,
            cv2.LINE_AA,
        )
        spare = np.empty_like(frame) if spare is None else spare
        cv2.filter2D(frame, -1, line / line.sum(), dst=spare, borderType=cv2.BORDER_REFLECT)
        frame = spare
    return frame


def _add_noise_and_quantise(
    frame: np.ndarray,
    sigma: float,
    rng: np.random.Generator,
    *,
    light: tuple[np.ndarray, tuple[float, ...]] | None = None,
    out: np.ndarray | None = None,
) -> None:
    """Light (if given), sensor noise, and quantisation into `out` (if given), in two
    passes of row bands: the grain, then (once all of it is drawn, as the random
    numbers come in that order) the colour noise."""
    h, w = frame.shape[:2]
    strips = _strips(h, w)
    grain = np.empty((strips[0][1] - strips[0][0], w), np.float32) if sigma > 0 else None
    if light is not None or grain is not None:
        for r0, r1 in strips:
            rows = frame[r0:r1]
            if light is not None:
                _light_rows(rows, light[0][r0:r1], light[1])
            if grain is not None:
                _grain_rows(rows, grain[: r1 - r0], sigma, rng)
    chroma = None
    if sigma > 0:
        ch, cw = max(1, h // 3), max(1, w // 3)
        chroma = rng.standard_normal((ch, cw, 3), dtype=np.float32) * (0.7 * sigma)
        if h != 3 * ch:
            frame += cv2.resize(chroma, (w, h), interpolation=cv2.INTER_LINEAR)
            chroma = None
    if chroma is None and out is None:
        return
    ch = h // 3
    for r0, r1 in _strips(h, w, multiple=3):
        rows = frame[r0:r1]
        if chroma is not None:
            # With a ratio of exactly 3, resizing the few chroma rows a band needs (and
            # a row either side) gives the same pixels as one full-frame resize.
            s0, s1 = max(0, r0 // 3 - 1), min(ch, r1 // 3 + 1)
            part = cv2.resize(chroma[s0:s1], (w, 3 * (s1 - s0)), interpolation=cv2.INTER_LINEAR)
            cv2.add(rows, part[r0 - 3 * s0 : r1 - 3 * s0], dst=rows)
        if out is not None:
            _quantise_rows(rows, out[r0:r1])


def sensor_noise(frame: np.ndarray, sigma: float, rng: np.random.Generator) -> None:
    """Signal-dependent noise: fine luminance grain plus blotchier colour noise."""
    if sigma > 0:
        _add_noise_and_quantise(frame, sigma, rng)


def finish(frame: np.ndarray, jpeg_quality: int | None) -> np.ndarray:
    """Quantise to 8 bits (rounding, in place of the frame), and round-trip through JPEG if asked."""
    h, w = frame.shape[:2]
    out = np.empty(frame.shape, np.uint8)
    for r0, r1 in _strips(h, w):
        _quantise_rows(frame[r0:r1], out[r0:r1])
    return _jpeg(out, jpeg_quality)


# Luma weights (B, G, R): saturation scales each pixel's colour round its luma.
_LUMA_BGR = np.array([0.114, 0.587, 0.299], np.float32)


def camera_look(image: np.ndarray, saturation: float, tone: float, sharpen: float,
                size_scale: float = 1.0) -> np.ndarray:
    """An 8-bit frame as another camera's processing renders it: its chroma scaled by
    `saturation`, its 0..1 values raised to `tone`, then sharpened by an unsharp mask of
    amount `sharpen` (blur 1.5 px at 1920 px width, times `size_scale`). (1, 1, 0): the
    frame itself."""
    out = image
    if saturation != 1.0:
        mix = saturation * np.eye(3, dtype=np.float32) + (1 - saturation) * _LUMA_BGR[None, :]
        out = cv2.transform(out, mix)
    if tone != 1.0:
        curve = np.clip(255 * (np.arange(256) / 255) ** tone + 0.5, 0, 255).astype(np.uint8)
        out = cv2.LUT(out, curve)
    if sharpen > 0:
        soft = cv2.GaussianBlur(out, (0, 0), 1.5 * size_scale)
        out = cv2.addWeighted(out, 1 + sharpen, soft, -sharpen, 0)
    return out


def develop(
    frame: np.ndarray,
    field: np.ndarray,
    gain: np.ndarray,
    *,
    defocus_px: float,
    motion_px: float,
    motion_angle_deg: float,
    noise: float,
    rng: np.random.Generator,
    jpeg_quality: int | None,
    look: tuple[float, float, float] = (1.0, 1.0, 0.0),
) -> np.ndarray:
    """apply_light, blur, sensor_noise and finish, in that order and with the same
    result, but in fewer passes over the frame (the frame is used up); `look`: the
    camera's processing before JPEG (camera_look's saturation, tone and sharpening, the
    last's blur at the frame's own scale)."""
    h, w = frame.shape[:2]
    light = None
    if defocus_px > 0.3 or motion_px > 0.5:
        apply_light(frame, field, gain)
        frame = blur(frame, defocus_px, motion_px, motion_angle_deg)
    else:
        light = (_light_full(field, h, w), _gain4(gain))
    out = np.empty(frame.shape, np.uint8)
    _add_noise_and_quantise(frame, noise, rng, light=light, out=out)
    return _jpeg(camera_look(out, *look, size_scale=w / 1920), jpeg_quality)


def photograph(frame: np.ndarray, cam: Any, cond: Any, rng: np.random.Generator) -> np.ndarray:
    """The camera stage every synthetic frame goes through: the light falling on the scene,
    then develop() with blur scaled to the frame's width (the frame is used up)."""
    field = light_field(cam, rng, exposure=cond.exposure, gradient=cond.gradient, vignette=cond.vignette,
                        light_azimuth_deg=cond.light_azimuth_deg)
    size_scale = frame.shape[1] / 1920
    return develop(frame, field, colour_gain(cond.kelvin), defocus_px=cond.defocus_px * size_scale,
                   motion_px=cond.motion_blur_px * size_scale, motion_angle_deg=cond.motion_angle_deg,
                   noise=cond.noise, rng=rng, jpeg_quality=cond.jpeg_quality,
                   look=(cond.saturation, cond.tone, cond.sharpen))
