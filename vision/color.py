"""Colour under real light: white balance from the table's own cream, and tile colours
told apart by the mix of colours in a cell rather than by one mean colour.

Every frame is normalised so that the player boards' cream panel looks like
`CREAM_RGB`; tile prototypes are stated in that normalised space, from the measured
medians of real tiles (real-table.md). A cell is described by a histogram of
"colour words" (each pixel goes to its nearest word) and classified by how likely
its histogram is under each class's expected mix; the margin between the best and
the second-best class becomes the confidence.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import cv2
import numpy as np

COLORS = ("blue", "yellow", "red", "black", "white")
MARKER = "marker"
UNKNOWN = "unknown"
CREAM_RGB = (234, 224, 200)

# Colour words, RGB in the normalised space. Tiles: the measured medians and the inks
# of their patterns; printed wall cells: the same designs mixed with the cream.
WORDS: dict[str, tuple[int, int, int]] = {
    "cream": CREAM_RGB,
    "white": (240, 242, 238),
    "shade": (150, 142, 124),  # cream or white in a shadow
    "grey": (168, 166, 160),  # the grey side's wall cells
    "teal": (101, 199, 200),
    "darkteal": (40, 130, 128),
    "dark": (26, 27, 31),
    "blue": (29, 134, 171),
    "navy": (30, 50, 120),
    "orange": (243, 138, 67),
    "red": (239, 60, 69),
    "darkred": (170, 40, 40),
    "pale_blue": (142, 183, 187),
    "pale_orange": (238, 185, 147),
    "pale_red": (236, 150, 141),
    "pale_teal": (174, 213, 200),
    "pale_dark": (140, 136, 127),
    # the deep and the light blue of the boards' frame and the factories' sunburst
    "print_blue": (33, 84, 148),
    "print_light": (60, 122, 190),
    # catch-alls for what is no tile nor print (a hand, a sleeve, a cup): a place made of
    # these is explained by no candidate and reads as unknown
    "green": (60, 170, 60),
    "skin": (215, 150, 120),
    "purple": (140, 60, 150),
}
# Words of the factory disc's own print: what an empty place on a disc shows.
DISC_PRINT_WORDS = ("print_blue", "print_light", "navy")
WORD_NAMES = tuple(WORDS)
_W = {name: i for i, name in enumerate(WORD_NAMES)}


def _mix(**weights: float) -> np.ndarray:
    p = np.full(len(WORD_NAMES), 0.004)
    for name, w in weights.items():
        p[_W[name]] += w
    return p / p.sum()


# Expected word mixes. Several mixes per class stand for the looks a class takes
# (lit or shaded, pattern large or small in the sampled window).
TILE_MIXES: dict[str, list[np.ndarray]] = {
    "blue": [_mix(blue=0.9, navy=0.05, teal=0.05), _mix(blue=0.6, navy=0.35, darkteal=0.05)],
    "yellow": [_mix(orange=0.75, red=0.1, darkred=0.1, pale_orange=0.05),
               _mix(orange=0.55, darkred=0.3, red=0.15)],
    "red": [_mix(red=0.85, darkred=0.1, pale_red=0.05), _mix(red=0.5, darkred=0.5)],
    "black": [_mix(dark=0.8, darkteal=0.15, navy=0.05), _mix(dark=0.6, darkteal=0.3, teal=0.1)],
    "white": [_mix(teal=0.55, white=0.2, cream=0.1, pale_teal=0.15),
              _mix(teal=0.35, pale_teal=0.25, white=0.25, cream=0.15),
              _mix(darkteal=0.3, teal=0.3, shade=0.2, pale_teal=0.2)],
    MARKER: [_mix(white=0.5, cream=0.3, navy=0.17, shade=0.03),
             _mix(white=0.35, cream=0.25, shade=0.2, navy=0.2)],
}
# Cream in a cast shadow keeps its low saturation and loses lightness: depending on how
# deep the shadow is it reads as "shade", "grey" or "pale_dark".
EMPTY_MIXES = [_mix(cream=0.9, white=0.05, shade=0.05), _mix(cream=0.5, shade=0.45, white=0.05),
               _mix(shade=0.8, cream=0.1, pale_dark=0.1), _mix(shade=0.4, grey=0.4, cream=0.2),
               _mix(grey=0.6, shade=0.2, pale_dark=0.2), _mix(pale_dark=0.6, shade=0.2, grey=0.2)]
PRINTED_MIXES: dict[str, list[np.ndarray]] = {
    "blue": [_mix(pale_blue=0.9, pale_teal=0.1), _mix(pale_blue=0.6, shade=0.3, grey=0.1)],
    "yellow": [_mix(pale_orange=0.8, pale_red=0.15, cream=0.05),
               _mix(pale_orange=0.5, shade=0.3, pale_red=0.2)],
    "red": [_mix(pale_red=0.9, pale_orange=0.1), _mix(pale_red=0.6, shade=0.3, pale_orange=0.1)],
    "black": [_mix(pale_dark=0.7, grey=0.1, pale_teal=0.1, shade=0.1),
              _mix(shade=0.6, pale_dark=0.3, grey=0.1)],
    "white": [_mix(pale_teal=0.55, cream=0.3, white=0.15), _mix(pale_teal=0.4, shade=0.3, cream=0.3)],
    "grey": [_mix(grey=0.8, pale_dark=0.1, shade=0.1), _mix(shade=0.5, grey=0.3, pale_dark=0.2)],
}



def _learned(path: Path) -> None:
    """Add the word mixes measured on frames with known truth (vision/prototypes.json,
    made by benchmarks/calibrate_vision.py) to the ones stated above. Both stay: the
    stated mixes carry the real tiles' measured colours, the measured ones the looks
    (shading, blur, glare) that a mean colour does not describe."""
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return
    if tuple(data.get("words", ())) != WORD_NAMES:
        return  # made for another word list: stale, ignore
    for label, mixes in data.get("mixes", {}).items():
        arrays = [np.asarray(m, np.float64) * 0.95 + 0.05 / len(WORD_NAMES) for m in mixes]
        kind, _, name = label.partition(":")
        if kind == "empty":
            EMPTY_MIXES.extend(arrays)
        elif kind == "printed" and name in PRINTED_MIXES:
            PRINTED_MIXES[name].extend(arrays)
        elif kind == "tile" and name in TILE_MIXES:
            TILE_MIXES[name].extend(arrays)


_learned(Path(__file__).with_name("prototypes.json"))

_LAB_WEIGHT = np.array([0.6, 1.0, 1.0], np.float32)  # lightness counts less: shading changes it


def _lab(rgb_rows: np.ndarray) -> np.ndarray:
    """(N, 3) RGB 0..255 -> (N, 3) weighted Lab."""
    bgr = np.ascontiguousarray(np.asarray(rgb_rows, np.float32)[:, ::-1].reshape(-1, 1, 3) / 255.0)
    return cv2.cvtColor(bgr, cv2.COLOR_BGR2Lab).reshape(-1, 3) * _LAB_WEIGHT


_WORD_LAB = _lab(np.array([WORDS[n] for n in WORD_NAMES], np.float32))


@dataclass(frozen=True)
class WhiteBalance:
    """Per-channel gains (B, G, R) that bring the frame's cream to CREAM_RGB."""

    gains: np.ndarray

    def apply(self, bgr: np.ndarray) -> np.ndarray:
        """An H x W x 3 image balanced, as float32 clipped to 255 (the gains are positive)."""
        g = [float(v) for v in self.gains]
        # OpenCV's multiply rounds each product once to float32, as numpy's does, in a
        # third of the time; so does its cut at 255.
        out = cv2.multiply(bgr, (g[0], g[1], g[2], 0.0), dtype=cv2.CV_32F)
        cv2.threshold(out, 255.0, 255.0, cv2.THRESH_TRUNC, dst=out)
        return out

    def apply_u8(self, bgr: np.ndarray) -> np.ndarray:
        """`apply` for an 8-bit image, kept 8-bit (rounded, saturated) in one pass."""
        return cv2.transform(bgr, np.diag(self.gains).astype(np.float32))

    @staticmethod
    def from_reference(measured_bgr: np.ndarray) -> WhiteBalance:
        target = np.array(CREAM_RGB[::-1], np.float32)
        measured = np.maximum(np.asarray(measured_bgr, np.float32), 1.0)
        return WhiteBalance(target / measured)

    @staticmethod
    def identity() -> WhiteBalance:
        # Cameras balance white themselves; what they leave over is a mild cast that the
        # detection masks tolerate, and each board's cream corrects it where colour matters.
        return WhiteBalance(np.ones(3, np.float32))

    @staticmethod
    def from_brightest(bgr: np.ndarray) -> WhiteBalance:
        """A rough balance for finding things: the brightest tenth of the frame (white
        table, cream panels, white tiles) taken as near-neutral. A warm room light that
        the camera left uncorrected otherwise pales the boards' blue out of its range."""
        px = bgr.reshape(-1, 3)[::7].astype(np.float32)  # a sample is plenty for a tenth
        bright = px.sum(axis=1)
        ref = px[bright >= np.percentile(bright, 90)].mean(axis=0)
        if ref.min() < 20:
            return WhiteBalance.identity()
        gains = np.clip(ref.mean() / ref, 0.6, 1.6)
        return WhiteBalance((gains / gains.mean()).astype(np.float32))

    @staticmethod
    def combine(balances: list[WhiteBalance]) -> WhiteBalance:
        """One balance for the table between the boards: the median of the boards'."""
        if not balances:
            return WhiteBalance.identity()
        return WhiteBalance(np.median(np.stack([b.gains for b in balances]), axis=0).astype(np.float32))


def _nearest_words(bgr_pixels: np.ndarray) -> np.ndarray:
    lab = _lab(np.asarray(bgr_pixels, np.float32)[:, ::-1])
    return ((lab[:, None, :] - _WORD_LAB[None, :, :]) ** 2).sum(axis=2).argmin(axis=1)


# Nearest word of every colour quantised to 6 bits a channel: a table lookup per pixel.
_Q = 6
_GLARE = 248  # every channel at least this: clipped glare, no colour word
# A pixel's key in the table, (B, G, R) quantised, as one float weighting of its channels.
_KEY_WEIGHTS = np.array([[1 << (2 * _Q), 1 << _Q, 1]], np.float32)


@cache
def _lut() -> np.ndarray:
    """The lookup table, made on first use one blue level at a time: all at once, its
    temporaries took 100 MB and a second at import, for a 0.5 MB table. Glare is -1:
    a channel is at least _GLARE exactly when its quantised level is (248 is a multiple
    of the quantum), so the table says it too."""
    levels = (np.arange(1 << _Q, dtype=np.float32) + 0.5) * (256 >> _Q)
    green, red = np.meshgrid(levels, levels, indexing="ij")
    plane = np.stack([np.zeros_like(green), green, red], axis=-1).reshape(-1, 3)
    table = np.empty(1 << (3 * _Q), np.int16)
    size = plane.shape[0]
    for i, blue in enumerate(levels):
        plane[:, 0] = blue
        table[i * size:(i + 1) * size] = _nearest_words(plane)
    bright = np.arange(1 << _Q) >= _GLARE >> (8 - _Q)
    table.reshape(1 << _Q, 1 << _Q, 1 << _Q)[np.ix_(bright, bright, bright)] = -1
    return table


def word_indices(bgr_pixels: np.ndarray) -> np.ndarray:
    """Nearest colour word of each (N, 3) normalised BGR pixel; -1 for clipped glare."""
    px = np.asarray(bgr_pixels).reshape(-1, 1, 3)
    if not len(px):
        return np.zeros(0, np.int16)
    if px.dtype != np.uint8:  # 8-bit pixels need no clipping (nor a copy)
        px = np.clip(px, 0, 255).astype(np.uint8)
    # OpenCV weighs the channels in one pass (exactly: keys are below 2^18), where numpy
    # took three strided ones; np.take gathers twice as fast as indexing.
    key = cv2.transform((px >> (8 - _Q)).astype(np.float32), _KEY_WEIGHTS)
    return np.take(_lut(), key.reshape(-1).astype(np.intp))


def histograms(word_idx: np.ndarray, groups: np.ndarray, n_groups: int) -> tuple[np.ndarray, np.ndarray]:
    """Word counts per group (cell) and the count of glare pixels per group."""
    valid = word_idx >= 0
    n_words = len(WORD_NAMES)
    key = groups[valid] * n_words + word_idx[valid]
    counts = np.bincount(key, minlength=n_groups * n_words).astype(np.float64).reshape(n_groups, n_words)
    glare = np.bincount(groups[~valid], minlength=n_groups).astype(np.float64)
    return counts, glare


@dataclass(frozen=True)
class Reading:
    """One place's reading: a colour, "marker", None (empty) or "unknown"."""

    value: str | None
    confidence: float


_LOG_MIXES: dict[int, tuple[list[np.ndarray], np.ndarray]] = {}


def _log_mixes(mixes: list[np.ndarray]) -> np.ndarray:
    """log of a list of mixes as one matrix, kept: the lists above are fixed after import."""
    kept = _LOG_MIXES.get(id(mixes))
    if kept is None or kept[0] is not mixes or len(kept[1]) != len(mixes):
        kept = (mixes, np.log(np.stack(mixes)))
        _LOG_MIXES[id(mixes)] = kept
    return kept[1]


def _score(hist: np.ndarray, mixes: list[np.ndarray]) -> float:
    """Mean log-likelihood per pixel of the histogram under the best of the mixes."""
    n = hist.sum()
    if n <= 0:
        return -np.inf
    return float((_log_mixes(mixes) @ hist).max() / n)


def classify(hist: np.ndarray, glare: float, candidates: dict[str | None, list[np.ndarray]],
             min_confidence: float = 0.6) -> Reading:
    """Pick the candidate whose mixes explain the histogram best; "unknown" when glare
    hides the cell, nothing explains it well, or two candidates come too close."""
    total = hist.sum() + glare
    if total <= 0 or glare / total > 0.45:
        return Reading(UNKNOWN, 0.0)
    scores = sorted(((_score(hist, m), name) for name, m in candidates.items()),
                    key=lambda t: t[0], reverse=True)
    best, name = scores[0]
    second = scores[1][0] if len(scores) > 1 else -np.inf
    margin = best - second
    # A margin of ~0.5 nats per pixel is a clear call; the absolute score tells an
    # unexplained cell (a hand, a cup) from a known one.
    confidence = float(1 / (1 + np.exp(-(margin - 0.25) * 12)))
    fit = float(1 / (1 + np.exp(-(best + 2.6) * 4)))
    confidence *= fit
    if confidence < min_confidence:
        return Reading(UNKNOWN, confidence)
    return Reading(name, confidence)
