"""Exact statistics the recogniser takes often, for a fraction of the general tools' time:
medians and percentiles of short or integer arrays (numpy's values), and the parts of a
mask with their areas and centres (OpenCV's)."""

from __future__ import annotations

import math

import cv2
import numpy as np


def median(values: np.ndarray) -> float:
    """np.median of a short 1-d float array (the same value, NaN too)."""
    s = np.sort(values)
    n = len(s)
    if n == 0 or math.isnan(s[-1]):
        return math.nan
    return float(s[n // 2]) if n % 2 else float((s[n // 2 - 1] + s[n // 2]) / 2)


def percentile(values: np.ndarray, q: float, where: np.ndarray | None = None) -> float:
    """np.percentile(values[where], q) of integer values (its linear method, the same
    value): 8-bit values by their histogram, others by one partition."""
    if values.dtype == np.uint8 and values.ndim <= 2:
        # Counting is linear and has no copy: the two ranks are read off the running counts.
        mask = None if where is None else where.view(np.uint8)
        counts = cv2.calcHist([np.ascontiguousarray(values)], [0], mask, [256], [0, 256]).ravel()
        return counted_percentile(counts, q)
    a = (values if where is None else values[where]).ravel()
    lo, hi, g = _ranks(a.size, q)
    part = np.partition(a, (lo, hi))
    return _between(float(part[lo]), float(part[hi]), g)


def counted_percentile(counts: np.ndarray, q: float) -> float:
    """np.percentile (linear) of the values 0, 1, 2, ... counted `counts` times each."""
    running = np.cumsum(counts)
    lo, hi, g = _ranks(int(running[-1]), q)
    x, y = np.searchsorted(running, (lo + 1, hi + 1))
    return _between(float(x), float(y), g)


def _ranks(size: int, q: float) -> tuple[int, int, float]:
    if size == 0:
        raise ValueError("percentile of no values")
    virtual = (size - 1) * (q / 100)
    lo = math.floor(virtual)
    return lo, min(lo + 1, size - 1), virtual - lo


def _between(x: float, y: float, g: float) -> float:
    # numpy's linear interpolation, in its order of operations, for the same rounding
    return y - (y - x) * (1 - g) if g >= 0.5 else x + (y - x) * g


def components(mask: np.ndarray, connectivity: int = 8) -> tuple[int, np.ndarray, np.ndarray, np.ndarray]:
    """cv2.connectedComponentsWithStats (the same count, labels, stats and centroids) by
    the block-based scan: OpenCV's default with stats takes about three times as long."""
    return cv2.connectedComponentsWithStatsWithAlgorithm(mask, connectivity, cv2.CV_32S, cv2.CCL_BBDT)
