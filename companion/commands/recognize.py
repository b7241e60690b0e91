"""`azul-companion recognize IMAGE... [--players N] [--markers] [--json] [--debug-dir DIR]`:
what the camera sees in still images, as azul-observation/1."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from companion.i18n import _


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "recognize", help=_("read boards, factories and the centre from photos"),
        description=_("Recognise an Azul table in images and print what was seen."))
    parser.add_argument("images", nargs="+", metavar="IMAGE", type=Path)
    parser.add_argument("--players", type=int, choices=(2, 3, 4),
                        help=_("number of players (keeps at most that many boards)"))
    parser.add_argument("--markers", action="store_true",
                        help=_("the table carries the kit's ArUco markers for --players players "
                               "(azul-companion kit): look for boards where they say too"))
    parser.add_argument("--json", action="store_true",
                        help=_("print one azul-observation/1 object per image per line"))
    parser.add_argument("--debug-dir", type=Path, metavar="DIR",
                        help=_("write an annotated overlay of each image here"))
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    # Imported here so that other subcommands start without building the recogniser's tables.
    import cv2

    from vision.aruco import MarkerLayout, aided_regions
    from vision.debug import overlay
    from vision.io import ImageError, load_image
    from vision.recognize import analyse

    if args.markers and args.players is None:
        print(_("recognize: --markers needs --players: the kit lays its markers out for the "
                "number of players"), file=sys.stderr)
        return 2
    if args.debug_dir is not None:
        try:
            args.debug_dir.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            print(_("{path}: cannot create the debug directory: {reason}").format(
                path=args.debug_dir, reason=error.strerror or error), file=sys.stderr)
            return 2
    status = 0
    for path in args.images:
        try:
            frame = load_image(path)
        except ImageError as error:
            print(f"{path}: {error}", file=sys.stderr)
            status = 2
            continue
        # Each image on its own: still photos need not come from one camera that stayed put.
        layout = MarkerLayout.for_players(args.players) if args.markers else None
        aid = aided_regions(frame, layout, args.players) if layout is not None else None
        rec = analyse(frame, players=args.players, aid=aid)
        if args.json:
            print(json.dumps(rec.observation), flush=True)
        else:
            print(summary(path, rec.observation), flush=True)
            if args.markers:
                print("  " + markers_said(aid), flush=True)
        if args.debug_dir is not None:
            out = args.debug_dir / f"{path.stem}.overlay.png"
            if not cv2.imwrite(str(out), overlay(frame, rec)):
                print(_("{path}: cannot write {out}").format(path=path, out=out), file=sys.stderr)
                status = 2
    return status


def markers_said(aid: Any) -> str:
    """What the kit's markers in an image said (a vision.aruco.Aid, or None for none seen)."""
    if aid is None:
        return _("markers: none of the kit's markers seen")
    q = aid.quality
    if aid.table_h is None:
        text = _("markers: no table plane ({problem})").format(problem=q.problem)
    else:
        text = _("markers: {used} of {expected} table markers, {mm:.1f} mm off the layout").format(
            used=q.used, expected=q.expected, mm=q.rms_mm)
    tagged = [str(region.seat) for region in aid.boards if region.source == "tags"]
    if tagged:
        text += "; " + _("board tags of seats {seats}").format(seats=", ".join(tagged))
    return text


_LETTERS = {None: ".", "unknown": "?", "marker": "1", "blue": "B", "yellow": "Y", "red": "R",
            "black": "K", "white": "W"}


def _place(value: str | None) -> str:
    return _LETTERS.get(value, "?")


def summary(path: Path, obs: dict) -> str:
    """A readable account of one observation."""
    lines = [f"{path}: " + _("{w}x{h}, {boards} boards, {factories} factories{occluded}").format(
        w=obs["image"]["width"], h=obs["image"]["height"], boards=len(obs["boards"]),
        factories=len(obs["factories"]), occluded=_(", partly hidden") if obs["occluded"] else "")]
    if not obs["boards"]:
        lines.append("  " + _("no player board found"))
    for seat, b in enumerate(obs["boards"]):
        text = _("seat {seat}: {side} side, turned {rotation} degrees, confidence {conf:.2f}")
        lines.append("  " + text.format(seat=seat, side=_(b["side"]), rotation=b["rotation"],
                                        conf=b["confidence"]))
        for k, line in enumerate(b["lines"], start=1):
            count = "?" if line["count"] is None else line["count"]
            colour = _("empty") if line["color"] is None else _(line["color"])
            wall = " ".join(_place(v) for v in b["wall"][k - 1])
            line_text = _("line {k}: {count} {colour}").format(k=k, count=count, colour=colour)
            lines.append("    " + line_text.ljust(28) + _("wall row {k}: {row}").format(k=k, row=wall))
        lines.append("    " + _("floor: {places}").format(places=" ".join(_place(v) for v in b["floor"])))
    for number, f in enumerate(obs["factories"], start=1):
        tiles = ", ".join(_(t) for t in f["tiles"]) or _("empty")
        extra = _(" and {n} unreadable").format(n=f["unknown"]) if f["unknown"] else ""
        lines.append("  " + _("factory {n}: {tiles}{extra}").format(n=number, tiles=tiles, extra=extra))
    c = obs["center"]
    tiles = ", ".join(f"{n} {_(col)}" for col, n in c["tiles"].items()) or _("no tiles")
    lines.append("  " + _("centre: {tiles}{marker}{extra}").format(
        tiles=tiles, marker=_(", first-player marker") if c["marker"] else "",
        extra=_(", {n} unreadable").format(n=c["unknown"]) if c["unknown"] else ""))
    return "\n".join(lines)
