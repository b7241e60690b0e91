"""Words for the scoring explanation: the same sentences on the screen and in the terminal."""

from __future__ import annotations

from dataclasses import dataclass

from companion.i18n import _, ngettext
from companion.rules.azul import (
    COLORS,
    BonusScore,
    FloorScore,
    Game,
    LineToFloor,
    ScoreItem,
    TileScore,
)


def color_word(color: int) -> str:
    return _(COLORS[color])


def explain(item: ScoreItem) -> str:
    """One line saying where the points of a scoring item come from."""
    if isinstance(item, TileScore):
        where = _("{color}, row {row}").format(color=color_word(item.color), row=item.row)
        if item.across < 2 and item.down < 2:
            return _("{where}: alone = 1").format(where=where)
        parts = []
        if item.across >= 2:
            parts.append(_("{n} across").format(n=item.across))
        if item.down >= 2:
            parts.append(_("{n} down").format(n=item.down))
        return _("{where}: {parts} = {points}").format(where=where, parts=" + ".join(parts),
                                                        points=item.points)
    if isinstance(item, FloorScore):
        text = ngettext("floor, {n} place: -{penalty}", "floor, {n} places: -{penalty}",
                        item.places).format(n=item.places, penalty=item.penalty)
        if item.lost < item.penalty:
            text += " " + _("(only -{lost}: a score never goes below 0)").format(lost=item.lost)
        return text
    if isinstance(item, LineToFloor):
        return _("{color}, row {row}: column {column} already has {color},"
                 " the line goes to the floor").format(
            color=color_word(item.color), row=item.row, column=item.column)
    if isinstance(item, BonusScore):
        if item.kind == "row":
            return _("row {n} complete: +{points}").format(n=item.index, points=item.points)
        if item.kind == "column":
            return _("column {n} complete: +{points}").format(n=item.index, points=item.points)
        return _("all five {color}: +{points}").format(color=color_word(item.index), points=item.points)
    raise TypeError(item)


@dataclass(frozen=True)
class Breakdown:
    """Where a player's score comes from, in totals that add up to it."""

    wall: int
    floor: int
    rows: int
    columns: int
    colors: int

    @property
    def total(self) -> int:
        return self.wall - self.floor + self.rows + self.columns + self.colors


def breakdown(game: Game, seat: int) -> Breakdown:
    wall = floor = 0
    bonus = {"row": 0, "column": 0, "color": 0}
    for item in game.scoring:
        if item.player != seat:
            continue
        if isinstance(item, TileScore):
            wall += item.points
        elif isinstance(item, FloorScore):
            floor += item.lost
        elif isinstance(item, BonusScore):
            bonus[item.kind] += item.points
    return Breakdown(wall, floor, bonus["row"], bonus["column"], bonus["color"])
