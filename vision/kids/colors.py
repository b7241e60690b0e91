"""Kids tile colours under real light: a white balance from a known light print, then
each pixel put in one of the four tile classes by hue, or in none.

The four colours sit far apart in hue (red ~179, yellow ~22, green ~66, blue ~105 on
OpenCV's 0-179 scale); the gaps between the classes are left out on purpose, so that
skin, wood, shadows and anti-aliased edges fall in no class rather than in a wrong one.
"""

from __future__ import annotations

import cv2
import numpy as np

COLORS = ("red", "yellow", "green", "blue")  # class k + 1 in a label map; 0 = no tile colour
_HUE_RANGES = {"red": ((0, 7), (161, 179)), "yellow": ((13, 34),), "green": ((40, 88),), "blue": ((93, 126),)}
# A pixel half tile, half light print is about half as saturated as the tile: these
# minimums (about 60% of each colour's own saturation) put the blob's edge where the
# tile's is, even where blur or JPEG's coarse colour smears the colour outwards.
MIN_SATURATION = {"red": 120, "yellow": 130, "green": 100, "blue": 120}
MIN_VALUE = 45
# In a washed-out photo (haze, glare, over-exposure) tiles are far less saturated than
# that; the threshold then follows the tiles actually seen (60% of a colour's strongest
# pixels), but never below what the light prints (field tints, pastel art, bowl floors,
# about 50 at most) can reach.
_LOWEST_SATURATION = 72
_DIM = 120  # value below half a balanced print's: no washed-out tile is this dark
# Incandescent light (2700 K) leaves a cream print with about half its blue, and a dim
# photo needs more besides: gains reach this far before they are taken for no print at all.
_GAIN_RANGE = (0.5, 2.5)
_HUE_CLASS = np.zeros(180, np.uint8)  # hue -> class
for _k, _c in enumerate(COLORS, 1):
    for _lo, _hi in _HUE_RANGES[_c]:
        _HUE_CLASS[_lo : _hi + 1] = _k
_HUE_CLASS_LUT = np.concatenate([_HUE_CLASS, np.zeros(76, np.uint8)])  # cv2.LUT wants 256 entries


def balance_gains(pixels_bgr: np.ndarray, target_rgb: tuple[int, int, int]) -> np.ndarray:
    """Per-channel gains (B, G, R) that bring the median of light, unsaturated pixels
    (a known print: a field's cream, a bowl's floor) to `target_rgb`."""
    px = np.asarray(pixels_bgr).reshape(-1, 3)
    if len(px) > 4000:  # a sample is as good as all of them, and much cheaper
        px = px[:: len(px) // 4000]
    gains = np.ones(3, np.float32)
    if len(px) < 20:
        return gains
    channels = px.T.astype(np.float32)  # one row per channel: reductions across it are fast
    brightest = _most(channels)
    exposed = (brightest > 60) & (brightest < 250)  # neither black nor clipped
    # first through the lamp's colour (incandescent light saturates a cream print this
    # much), then, on the print so balanced, only what is as pale as print
    for chroma in (0.5, 0.35):
        light = exposed & _pale_and_light(channels * gains[:, None], chroma)
        if np.count_nonzero(light) < 20:
            break
        measured = np.median(channels[:, light], axis=1)
        gains = np.clip(np.float32(target_rgb[::-1]) / np.maximum(measured, 1.0), *_GAIN_RANGE)
    return gains.astype(np.float32)


def tint(gains: np.ndarray) -> np.ndarray:
    """White-balance gains up to brightness (their logs less their mean): the light's
    colour, however brightly the print that measured it is lit."""
    logs = np.log(np.asarray(gains, np.float64))
    return logs - logs.mean()


def _pale_and_light(channels: np.ndarray, chroma: float) -> np.ndarray:
    """Pixels (one row per channel) no more saturated than `chroma` and among the
    lightest: the print is the lightest thing there, and grey half as bright (a shadow,
    a sleeve, ink) taken for a dim print would make every colour glow."""
    hi, lo = _most(channels), _least(channels)
    pale = hi - lo < chroma * hi
    if not pale.any():
        return pale
    return pale & (hi >= 0.5 * np.percentile(hi[pale], 90))


def _most(channels: np.ndarray) -> np.ndarray:
    """Per pixel the largest of its three channels (rows): element-wise, many times faster
    than numpy's reduction across three rows."""
    return np.maximum(np.maximum(channels[0], channels[1]), channels[2])


def _least(channels: np.ndarray) -> np.ndarray:
    return np.minimum(np.minimum(channels[0], channels[1]), channels[2])


def hue_classes(
    hsv: np.ndarray, least_saturation: int = _LOWEST_SATURATION, least_value: int = MIN_VALUE
) -> np.ndarray:
    """Each pixel's tile colour class by hue alone (1..4, COLORS order; 0 for none), for
    pixels saturated and bright enough to be a tile at all, however pale."""
    classes = cv2.LUT(cv2.extractChannel(hsv, 0), _HUE_CLASS_LUT)
    enough = cv2.inRange(hsv, (0, least_saturation, least_value), (255, 255, 255))
    return cv2.bitwise_and(classes, enough)  # enough is 0 or 255: classes kept or 0


def label_map(
    bgr: np.ndarray,
    gains: np.ndarray,
    *,
    grow_pale: bool = False,
    pale_inset_px: float = 0.0,
    unclipped_hue: bool = False,
) -> tuple[np.ndarray, np.ndarray]:
    """(labels, hsv): labels 1..4 for the tile colours (COLORS order), 0 elsewhere.
    `grow_pale` only where nothing pale shares a tile's hue (a bowl's lavender floor, not
    a board's tinted fields); pale pixels within `pale_inset_px` of the blob's outside
    are not grown (a blurred edge is pale too, and would fatten every tile).
    `unclipped_hue`: hue as if no channel clipped in balancing (below)."""
    gains = np.asarray(gains, np.float32)
    balanced = cv2.transform(bgr, np.diag(gains))  # saturates at 255
    hsv = cv2.cvtColor(balanced, cv2.COLOR_BGR2HSV)
    top = float(gains.max())
    if unclipped_hue and top > 1.0:
        # a channel brightened past 255 clips, and turns the hue (a bright blue tile to
        # cyan): hue, which brightness does not change, from the colours balanced but
        # brightened no further than the photo's (saturation stays as clipped: it pales
        # a bright print's pastels, as the eye sees them)
        hsv[..., 0] = cv2.cvtColor(cv2.transform(bgr, np.diag(gains / top)), cv2.COLOR_BGR2HSV)[..., 0]
    sat = cv2.extractChannel(hsv, 1)
    hue_class = hue_classes(hsv)
    # each colour's saturation threshold, from a histogram of its pixels' saturations
    thresholds = np.full(256, 256, np.int32)
    full = np.full(256, 256, np.int32)
    lit = cv2.inRange(cv2.extractChannel(hsv, 2), _DIM, 255)
    classes = len(COLORS) + 1
    histograms = cv2.calcHist([hue_class, sat], [0, 1], lit, [classes, 256], [0, classes, 0, 256])
    for k, color in enumerate(COLORS, 1):
        counts = histograms[k]
        threshold = full[k] = MIN_SATURATION[color]
        if counts.sum() >= 30:
            strongest = int(np.searchsorted(np.cumsum(counts), 0.9 * counts.sum()))
            threshold = int(np.clip(0.6 * strongest, _LOWEST_SATURATION, threshold))
        thresholds[k] = threshold
    # the lower thresholds are for tiles washed out, which are light; a dark pixel's hue
    # and saturation are little more than noise and tint (the print's dark ink)
    threshold_map = cv2.LUT(hue_class, np.clip(full, 0, 255).astype(np.uint8))
    cv2.copyTo(cv2.LUT(hue_class, np.clip(thresholds, 0, 255).astype(np.uint8)), lit, threshold_map)
    # hue_class is 0 where no class, and so are the labels
    labels = cv2.bitwise_and(hue_class, cv2.compare(sat, threshold_map, cv2.CMP_GE))
    # hysteresis: paler pixels of a colour count where they join its strong pixels (a lit,
    # washed-out top face inside its own saturated rim)
    if not grow_pale:
        return labels, hsv
    weak = (hue_class > 0) & (labels == 0)
    if pale_inset_px > 0:  # one inset for every colour: tiles of two colours rarely touch
        inner = cv2.distanceTransform((hue_class > 0).view(np.uint8), cv2.DIST_L2, 3) > pale_inset_px
        weak &= inner
    for k in range(1, len(COLORS) + 1):
        strong = labels == k
        pale = weak & (hue_class == k)
        if not (strong.any() and pale.any()):
            continue
        labels[pale & joined(strong, pale)] = k
    return labels, hsv


def joined(seeds: np.ndarray, more: np.ndarray) -> np.ndarray:
    """`seeds` with the parts of `more` that touch them (boolean masks, or uint8 0/1)."""
    count, parts = cv2.connectedComponents((seeds | more).astype(np.uint8), connectivity=8)
    touching = np.zeros(count, bool)
    touching[parts[seeds > 0]] = True
    touching[0] = False
    return touching[parts]
