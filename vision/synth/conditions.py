"""How the table is photographed: camera, light, optics, clutter, hands.

`Conditions.random(rng)` spans every condition the renderer supports in the look of
the measured photos; `with_camera_look(rng)` adds another camera's processing to any;
`Conditions.neutral()` is a clean straight-down shot for colour checks.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace

import numpy as np

from .layout import Layout

SIZES = ((1920, 1080), (4000, 3000))


@dataclass(frozen=True)
class Conditions:
    width: int = 1920
    height: int = 1080
    # layout: None = generated round the table with these jitters
    layout: Layout | None = None
    board_jitter_mm: float = 25.0
    board_jitter_deg: float = 5.0
    factory_jitter_mm: float = 10.0
    # camera
    tilt_deg: float = 0.0  # from vertical, 0..45
    azimuth_deg: float = 0.0  # side of the table the camera leans from (0 = south, 90 = west)
    roll_deg: float = 0.0  # in-plane rotation
    hfov_deg: float = 62.0
    framing: float = 1.0  # 1 = everything in play just fits; > 1 = closer, edges leave the frame
    # light
    kelvin: float = 3800.0  # colour temperature of the room light (3800 = the measured look)
    exposure: float = 1.0
    gradient: float = 0.0  # 0..1, brightness falloff across the table
    vignette: float = 0.0  # 0..1, darkening towards the corners
    light_azimuth_deg: float = 135.0
    light_elevation_deg: float = 60.0
    shadow: float = 0.45  # darkness of cast shadows
    glare: float = 0.0  # 0..1, specular highlights on glossy tiles
    # optics and sensor
    motion_blur_px: float = 0.0  # at 1920 px width; scales with the frame
    motion_angle_deg: float = 0.0
    defocus_px: float = 0.0  # at 1920 px width
    noise: float = 0.0  # sensor noise sigma at mid grey, 0..255 units
    jpeg_quality: int | None = None  # None = no compression
    # the camera's own processing before JPEG (a phone's or the Pi's ISP; 1, 1, 0 = the
    # look of the measured photos, which every other condition keeps)
    saturation: float = 1.0  # chroma round each pixel's luma, as a factor
    tone: float = 1.0  # power of the tone curve on 0..1 values: above 1 darkens the mid-tones
    sharpen: float = 0.0  # unsharp mask's amount, its blur 1.5 px at 1920 px width
    # scene
    table: str = "white"  # "white" or "wood"
    cups: int = 0
    bottles: int = 0
    mats: int = 0
    bags: int = 0
    hand: bool = False

    def __post_init__(self) -> None:
        if self.width < 64 or self.height < 64:
            raise ValueError(f"frame size {self.width}x{self.height} is too small")
        if not 0 <= self.tilt_deg <= 45:
            raise ValueError(f"tilt {self.tilt_deg} is outside 0..45 degrees")
        if not 30 <= self.hfov_deg <= 75:
            raise ValueError(f"horizontal field of view {self.hfov_deg} is outside 30..75 degrees")
        if not 0.3 <= self.framing <= 4:
            raise ValueError(f"framing {self.framing} is outside 0.3..4")
        if not 1500 <= self.kelvin <= 10000:
            raise ValueError(f"colour temperature {self.kelvin} K is outside 1500..10000")
        if not 5 <= self.light_elevation_deg <= 90:
            raise ValueError(f"light elevation {self.light_elevation_deg} is outside 5..90 degrees")
        if self.jpeg_quality is not None and not 1 <= self.jpeg_quality <= 100:
            raise ValueError(f"JPEG quality {self.jpeg_quality} is outside 1..100")
        if not 0.5 <= self.saturation <= 2:
            raise ValueError(f"saturation {self.saturation} is outside 0.5..2")
        if not 0.5 <= self.tone <= 2:
            raise ValueError(f"tone {self.tone} is outside 0.5..2")
        if self.table not in ("white", "wood"):
            raise ValueError(f"table {self.table!r} is not 'white' or 'wood'")
        for f in fields(self):
            value = getattr(self, f.name)
            if (
                isinstance(value, float | int)
                and not isinstance(value, bool)
                and value < 0
                and f.name not in ("roll_deg", "azimuth_deg", "motion_angle_deg", "light_azimuth_deg")
            ):
                raise ValueError(f"{f.name} must not be negative, got {value}")

    @staticmethod
    def neutral(width: int = 1920, height: int = 1080) -> Conditions:
        """Straight down, even neutral light, no blur, noise, glare or clutter."""
        return Conditions(width=width, height=height, shadow=0.35)

    def with_camera_look(self, rng: np.random.Generator) -> Conditions:
        """These conditions seen through another camera's processing: saturation and tone
        each 0.8-1.25 (as wide as phones and the Pi's tuning differ), sharpened on two in
        three frames (amount 0.2-1.5)."""
        return replace(self, saturation=float(np.exp(rng.uniform(np.log(0.8), np.log(1.25)))),
                       tone=float(np.exp(rng.uniform(np.log(0.8), np.log(1.25)))),
                       sharpen=float(rng.uniform(0.2, 1.5)) if rng.uniform() < 2 / 3 else 0.0)

    @staticmethod
    def random(rng: np.random.Generator, width: int | None = None, height: int | None = None) -> Conditions:
        """Any condition the renderer supports, phone-like and Pi-camera-like alike."""
        if width is None or height is None:
            width, height = SIZES[int(rng.integers(len(SIZES)))]
        handheld = rng.uniform() < 0.6
        jpeg = None if rng.uniform() < 0.15 else int(rng.integers(40, 96))
        return Conditions(
            width=width,
            height=height,
            board_jitter_mm=float(rng.uniform(0, 50)),
            board_jitter_deg=float(rng.uniform(0, 10)),
            factory_jitter_mm=float(rng.uniform(0, 20)),
            tilt_deg=float(rng.uniform(20, 45) if handheld else rng.uniform(0, 8)),
            azimuth_deg=float(rng.uniform(0, 360)),
            roll_deg=float(rng.normal(0, 6) if handheld else rng.uniform(-180, 180)),
            hfov_deg=float(rng.uniform(55, 72)),
            framing=float(rng.choice([rng.uniform(0.85, 1.0), rng.uniform(1.0, 1.3)], p=[0.8, 0.2])),
            kelvin=float(np.exp(rng.uniform(np.log(2700), np.log(6500)))),
            exposure=float(rng.uniform(0.7, 1.25)),
            gradient=float(rng.uniform(0, 0.6)),
            vignette=float(rng.uniform(0, 0.6)),
            light_azimuth_deg=float(rng.uniform(0, 360)),
            light_elevation_deg=float(rng.uniform(35, 85)),
            shadow=float(rng.uniform(0.2, 0.6)),
            glare=float(rng.uniform(0, 1) if rng.uniform() < 0.6 else 0.0),
            motion_blur_px=float(rng.exponential(1.5) if rng.uniform() < 0.4 else 0.0),
            motion_angle_deg=float(rng.uniform(0, 180)),
            defocus_px=float(rng.exponential(1.0) if rng.uniform() < 0.4 else 0.0),
            noise=float(rng.uniform(0.5, 8)),
            jpeg_quality=jpeg,
            table=str(rng.choice(["white", "wood"])),
            cups=int(rng.integers(0, 4)),
            bottles=int(rng.integers(0, 3)),
            mats=int(rng.integers(0, 4)),
            bags=int(rng.integers(0, 2)),
            hand=bool(rng.uniform() < 0.25),
        )
