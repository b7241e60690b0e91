"""What the camera adds on top of the scene: light colour and falloff, vignetting,
blur, sensor noise and JPEG compression."""

from __future__ import annotations

import math

import cv2
import numpy as np

from .camera import Camera, back_project

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


def apply_light(frame: np.ndarray, field: np.ndarray, gain: np.ndarray) -> None:
    h, w = frame.shape[:2]
    full = cv2.resize(field, (w, h), interpolation=cv2.INTER_CUBIC)
    frame *= full[..., None]
    frame *= gain


def blur(frame: np.ndarray, defocus_px: float, motion_px: float, motion_angle_deg: float) -> np.ndarray:
    if defocus_px > 0.3:
        r = max(1, round(defocus_px))
        disc = np.zeros((2 * r + 1, 2 * r + 1), np.float32)
        cv2.circle(disc, (r, r), r, 1.0, -1, cv2.LINE_AA)
        frame = cv2.filter2D(frame, -1, disc / disc.sum(), borderType=cv2.BORDER_REFLECT)
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
        frame = cv2.filter2D(frame, -1, line / line.sum(), borderType=cv2.BORDER_REFLECT)
    return frame


def sensor_noise(frame: np.ndarray, sigma: float, rng: np.random.Generator) -> None:
    """Signal-dependent noise: fine luminance grain plus blotchier colour noise."""
    if sigma <= 0:
        return
    h, w = frame.shape[:2]
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    level = np.sqrt(np.clip(gray, 0, 255) * (0.75 / 128) + 0.25)
    grain = rng.standard_normal((h, w), dtype=np.float32)
    grain *= level
    grain *= sigma
    frame += grain[..., None]
    ch, cw = max(1, h // 3), max(1, w // 3)
    chroma = rng.standard_normal((ch, cw, 3), dtype=np.float32) * (0.7 * sigma)
    frame += cv2.resize(chroma, (w, h), interpolation=cv2.INTER_LINEAR)


def finish(frame: np.ndarray, jpeg_quality: int | None) -> np.ndarray:
    """Quantise to 8 bits, and round-trip through JPEG if asked."""
    out = np.clip(frame + 0.5, 0, 255).astype(np.uint8)
    if jpeg_quality is None:
        return out
    ok, data = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(jpeg_quality)])
    if not ok:
        raise RuntimeError("JPEG encoding failed")
    return cv2.imdecode(data, cv2.IMREAD_COLOR)
