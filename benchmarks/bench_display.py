"""Display benchmarks: render time per frame, time to the first frame, peak memory of the demo.

    SDL_VIDEODRIVER=dummy ./dev run python benchmarks/bench_display.py [--frames 300] [--turns 20]

Targets: <= 8 ms per frame (median and p95) at 800x480 and 1920x1080; demo peak RSS <= 250 MB.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame

from companion.ui import samples


def render_times(name: str, size: tuple[int, int], frames: int) -> list[float]:
    app = samples.stage(name, size, 4)
    surface = pygame.Surface(size)
    for _warm in range(10):
        app.draw(surface)
    times = []
    for _frame in range(frames):
        started = time.perf_counter()
        app.draw(surface)
        times.append((time.perf_counter() - started) * 1000)
    return times


def demo_command(folder: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "companion", "demo", "--headless", "--frames", str(folder), *args]


def first_frame_seconds() -> float:
    """From starting the process to the first screenshot on disk."""
    with tempfile.TemporaryDirectory() as folder:
        started = time.perf_counter()
        process = subprocess.Popen(demo_command(Path(folder), "--turns", "0", "--table", "true"),
                                   stdout=subprocess.DEVNULL)
        first = Path(folder) / "frame-0000.png"
        while not first.exists() and process.poll() is None:
            time.sleep(0.002)
        seconds = time.perf_counter() - started
        process.wait()
        return seconds


def demo_peak_rss_mb(turns: int, table: str) -> tuple[float, float]:
    with tempfile.TemporaryDirectory() as folder:
        started = time.perf_counter()
        process = subprocess.Popen(demo_command(Path(folder), "--turns", str(turns), "--table", table,
                                                "--seed", "1"), stdout=subprocess.DEVNULL)
        _pid, status, usage = os.wait4(process.pid, 0)
        if status != 0:
            raise SystemExit(f"demo failed with status {status}")
        return usage.ru_maxrss / 1024, time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=300)
    parser.add_argument("--turns", type=int, default=20)
    args = parser.parse_args()
    pygame.font.init()
    for size in ((800, 480), (1920, 1080)):
        for name in ("table", "round", "end"):
            times = render_times(name, size, args.frames)
            p95 = statistics.quantiles(times, n=20)[-1]
            print(f"render {name:5} {size[0]}x{size[1]}: median {statistics.median(times):.2f} ms, "
                  f"p95 {p95:.2f} ms")
    print(f"start to first frame: {first_frame_seconds():.2f} s")
    for table in ("true", "camera"):
        peak, seconds = demo_peak_rss_mb(args.turns, table)
        print(f"demo --table {table} --turns {args.turns}: peak RSS {peak:.0f} MB ({seconds:.1f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
