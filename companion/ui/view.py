"""What the display shows, computed once off the render loop: an immutable view of a table.

:func:`build_view` turns an engine state (plus the tracker's question, warnings and last
accepted event) into a :class:`TableView`. Everything costly (the points each legal move
would bring, the round's explanation) happens here, in the worker thread; screens only
draw. The tracker's objects are read by attribute, so any object with the contract's
fields works (the tests' fake tracker included).
"""

from __future__ import annotations

import dataclasses
import itertools
import json
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from companion.explain import Breakdown, breakdown, explain
from companion.i18n import _
from companion.rules.azul import (
    CENTER,
    COLORS,
    DRAFTING,
    FLOOR,
    OVER,
    TILING,
    BonusScore,
    FloorScore,
    Game,
    LineToFloor,
    Outcome,
    Place,
    Refill,
    Take,
    TileScore,
    wall_column,
)
from companion.rules.azul_record import event_to_json, read_event

_serials = itertools.count(1)
_CUMULATIVE = (0, 1, 2, 4, 6, 8, 11, 14)


@dataclass(frozen=True)
class Option:
    """One legal move as a cell of the move table: ``column`` 0..5, the points it brings now."""

    move: Take | Place
    column: int
    points: int


@dataclass(frozen=True)
class MoveGroup:
    """The legal moves of one source and colour (or, on the grey wall, of one pattern line)."""

    source: int | None  # factory 1..9 or CENTER; None for a grey-wall placement
    color: int
    count: int  # tiles taken, or the pattern line being placed
    options: tuple[Option, ...]
    player: int

    @property
    def best(self) -> int:
        return max(option.points for option in self.options)


@dataclass(frozen=True)
class PlayerView:
    seat: int
    name: str
    score: int
    tiles_now: tuple[TileScore, ...]  # what the coming tiling would score, as things stand
    floor_now: int  # the floor penalty due now
    wall: tuple[int, ...]  # 25 colours, -1 empty
    line_colors: tuple[int, ...]
    line_counts: tuple[int, ...]
    floor: tuple[int, ...]
    rows_done: int
    columns_done: int
    colors_done: int

    @property
    def round_points(self) -> int:
        return sum(t.points for t in self.tiles_now) - self.floor_now

    @property
    def bonus_now(self) -> int:
        return self.rows_done * 2 + self.columns_done * 7 + self.colors_done * 10


@dataclass(frozen=True)
class PromptView:
    candidates: tuple[str, ...]
    colors: tuple[int | None, ...]
    selected: int
    player: int | None
    events: tuple[Take | Place | Refill, ...] = ()  # the candidates themselves, best first


@dataclass(frozen=True)
class WarningView:
    code: str
    message: str
    where: dict


@dataclass(frozen=True)
class SeatRound:
    seat: int
    lines: tuple[tuple[str, int], ...]  # each sentence with the points it adds (negative: lost)
    gained: int
    score: int


@dataclass(frozen=True)
class RoundReport:
    number: int
    seats: tuple[SeatRound, ...]


@dataclass(frozen=True)
class Ending:
    outcome: Outcome
    breakdowns: tuple[Breakdown, ...]
    bonuses: tuple[tuple[str, ...], ...]  # each seat's bonus sentences
    verdict: str  # who won
    reason: str  # the tie-break, explained; "" without a tie


@dataclass(frozen=True)
class TableView:
    names: tuple[str, ...]
    variant: str
    round: int
    phase: str
    turn: int
    factories: tuple[tuple[int, ...], ...]
    center: tuple[int, ...]
    center_marker: bool
    seats: tuple[PlayerView, ...]
    moves: tuple[MoveGroup, ...]
    move_columns: tuple[str, ...]
    prompt: PromptView | None = None
    warnings: tuple[WarningView, ...] = ()
    last: str | None = None
    last_color: int | None = None
    report: RoundReport | None = None
    ending: Ending | None = None
    frame: np.ndarray | None = None  # RGB thumbnail of the camera frame
    status: str | None = None  # a problem to show (camera lost, unreadable frame)
    serial: int = field(default_factory=lambda: next(_serials))

    @property
    def over(self) -> bool:
        return self.phase == OVER

    def but(self, **changes: Any) -> TableView:
        """A copy with some fields changed, as a new view (screens redraw what they cached)."""
        return dataclasses.replace(self, serial=next(_serials), **changes)


ENTER = "enter:"  # a command that carries what a person says happened, as a record event


def enter_command(event: Take | Place | Refill, player: int | None = None) -> str:
    """The command telling the tracker that ``event`` happened (``player``: a take's seat)."""
    return ENTER + json.dumps(event_to_json(event, player))


def entered(command: str) -> tuple[Take | Place | Refill, int | None] | None:
    """The event an :func:`enter_command` carries, or None for any other command."""
    if not command.startswith(ENTER):
        return None
    return read_event(json.loads(command.removeprefix(ENTER)))


def build_view(game: Game, names: list[str] | tuple[str, ...], *, prompt: Any = None,
               warnings: Any = (), last: Any = None, frame: np.ndarray | None = None,
               status: str | None = None) -> TableView:
    """The view of ``game`` (never mutated) with the tracker's state beside it."""
    names = tuple(names)
    seats = tuple(_player(game, seat, names[seat]) for seat in range(game.players))
    moves, headers = move_groups(game)
    return TableView(
        names=names, variant=game.variant, round=game.round, phase=game.phase, turn=game.turn,
        factories=tuple(tuple(sorted(c for c, n in f.items() for _i in range(n))) for f in game.factories),
        center=tuple(sorted(c for c, n in game.center.items() for _i in range(n))),
        center_marker=game.center_marker, seats=seats, moves=moves, move_columns=headers,
        prompt=None if prompt is None else PromptView(
            tuple(describe(c, prompt.player, names, named=False) for c in prompt.candidates),
            tuple(_event_color(c) for c in prompt.candidates), prompt.selected, prompt.player,
            tuple(prompt.candidates)),
        warnings=tuple(WarningView(w.code, w.message, dict(w.where)) for w in warnings),
        last=None if last is None else describe(last.event, last.player, names, auto=last.auto,
                                                revised=last.revised),
        last_color=None if last is None else _event_color(last.event),
        report=round_report(game), ending=ending(game, names), frame=frame, status=status)


def _player(game: Game, seat: int, name: str) -> PlayerView:
    board = game.boards[seat]
    tiles, floor = game.tiling_preview(seat)
    return PlayerView(
        seat=seat, name=name, score=board.score, tiles_now=tuple(tiles), floor_now=floor,
        wall=tuple(board.wall), line_colors=tuple(board.line_colors),
        line_counts=tuple(board.line_counts), floor=tuple(board.floor),
        rows_done=board.complete_rows(), columns_done=board.complete_columns(),
        colors_done=len(board.complete_colors()))


def _round_points(game: Game, seat: int) -> int:
    tiles, floor = game.tiling_preview(seat)
    return sum(t.points for t in tiles) - floor


def move_groups(game: Game) -> tuple[tuple[MoveGroup, ...], tuple[str, ...]]:
    """The legal moves grouped by source and colour, each with the points it would bring now.

    "Points now" is the change in what this round's tiling and floor would bring the mover
    as things stand (so a move that finishes a line shows what the line will score).
    """
    if game.phase == DRAFTING:
        seat = game.turn
        before = _round_points(game, seat)
        groups: dict[tuple[int, int], list[Option]] = {}
        for move in game.generate_legal_moves():
            assert isinstance(move, Take)
            trial = game.copy()
            trial.push_unchecked(move)
            if trial.phase == DRAFTING:
                points = _round_points(trial, seat) - before
            else:
                points = _scored_since(trial, len(game.scoring), seat) - before
            column = 5 if move.line == FLOOR else move.line - 1
            groups.setdefault((move.source, move.color), []).append(Option(move, column, points))
        result = []
        for (source, color), options in groups.items():
            place = game.center if source == CENTER else game.factories[source - 1]
            result.append(MoveGroup(source, color, place[color], tuple(options), seat))
        result.sort(key=lambda g: (-g.best, g.source if g.source else 99, g.color))
        return tuple(result), ("1", "2", "3", "4", "5", _("floor"))
    if game.phase == TILING:
        placements: dict[tuple[int, int], list[Option]] = {}
        for move in game.generate_legal_moves():
            assert isinstance(move, Place)
            board = game.boards[move.player]
            color = board.line_colors[move.line - 1]
            points = _placement_points(game, move, color)
            placements.setdefault((move.player, move.line), []).append(Option(move, move.column - 1, points))
        result = [MoveGroup(None, game.boards[p].line_colors[line - 1], line, tuple(options), p)
                  for (p, line), options in placements.items()]
        return tuple(result), ("1", "2", "3", "4", "5")
    return (), ()


def _scored_since(game: Game, start: int, seat: int) -> int:
    """Tile points minus floor penalty scored by ``seat`` from ``game.scoring[start:]`` (no bonuses)."""
    total = 0
    for item in game.scoring[start:]:
        if item.player != seat:
            continue
        if isinstance(item, TileScore):
            total += item.points
        elif isinstance(item, FloorScore):
            total -= item.penalty
    return total


def _placement_points(game: Game, move: Place, color: int) -> int:
    board = game.boards[move.player]
    row, column = move.line - 1, move.column - 1
    if board.col_colors[column] >> color & 1:
        floor = len(board.floor)
        return -(_CUMULATIVE[min(7, floor + move.line)] - _CUMULATIVE[floor])
    trial = board.copy()
    trial.wall[row * 5 + column] = color
    across, down = trial.runs(row, column)
    return TileScore(0, move.player, move.line, move.column, color, across, down).points


def describe(event: Take | Place | Refill, player: int | None, names: tuple[str, ...], *,
             auto: bool | None = None, named: bool = True, revised: bool = False) -> str:
    """An event in plain words, e.g. "Åse: red from factory 3 to line 2" (``named=False``: without
    the player, where the screen says whose move it is; ``revised``: it replaced one the
    companion had accepted wrongly)."""
    if isinstance(event, Refill):
        text = _("New round: the factories are filled")
    else:
        seat = event.player if isinstance(event, Place) else player
        name = names[seat] if seat is not None and 0 <= seat < len(names) else _("someone")
        if isinstance(event, Place):
            text = _("line {line} to wall column {column}").format(line=event.line, column=event.column)
        else:
            source = (_("the centre") if event.source == CENTER
                      else _("factory {n}").format(n=event.source))
            target = _("the floor") if event.line == FLOOR else _("line {n}").format(n=event.line)
            text = _("{color} from {source} to {target}").format(
                color=_(COLORS[event.color]), source=source, target=target)
        if named:
            text = _("{name}: {move}").format(name=name, move=text)
    if auto is False:
        text += " " + _("(confirmed)")
    elif revised:
        text += " " + _("(corrected)")
    return text


def _event_color(event: Take | Place | Refill) -> int | None:
    return event.color if isinstance(event, Take) else None


def round_report(game: Game) -> RoundReport | None:
    """Each point of the last completed round, explained per player."""
    number = len(game.round_scores)
    if number == 0:
        return None
    seats = []
    for seat in range(game.players):
        items = [item for item in game.scoring
                 if isinstance(item, TileScore | FloorScore | LineToFloor)
                 and item.round == number and item.player == seat]
        score = game.round_scores[number - 1][seat]
        previous = game.round_scores[number - 2][seat] if number > 1 else 0
        lines = tuple((explain(item), _item_points(item)) for item in items)
        seats.append(SeatRound(seat, lines, score - previous, score))
    return RoundReport(number, tuple(seats))


def _item_points(item: TileScore | FloorScore | LineToFloor) -> int:
    if isinstance(item, TileScore):
        return item.points
    if isinstance(item, FloorScore):
        return -item.lost
    return 0


def ending(game: Game, names: tuple[str, ...]) -> Ending | None:
    outcome = game.outcome()
    if outcome is None:
        return None
    winners = " & ".join(names[s] for s in outcome.winners)
    if outcome.shared:
        verdict = _("Shared victory: {winners}").format(winners=winners)
    else:
        verdict = _("{winner} wins!").format(winner=winners)
    best = max(outcome.scores)
    tied = [s for s in range(game.players) if outcome.scores[s] == best]
    reason = ""
    if len(tied) > 1:
        rows = ", ".join(_("{name} {n}").format(name=names[s], n=outcome.complete_rows[s]) for s in tied)
        if outcome.shared:
            reason = _("Tied on {points} points and on complete rows ({rows}): "
                       "the victory is shared.").format(points=best, rows=rows)
        else:
            reason = _("Tied on {points} points; the most complete rows wins ({rows}).").format(
                points=best, rows=rows)
    bonuses = tuple(tuple(explain(item) for item in game.scoring
                          if isinstance(item, BonusScore) and item.player == seat)
                    for seat in range(game.players))
    return Ending(outcome, tuple(breakdown(game, s) for s in range(game.players)), bonuses, verdict, reason)


def wall_color(variant: str, row: int, column: int) -> int | None:
    """The colour printed on an empty wall place (coloured wall), or None (grey wall)."""
    if variant != "colored":
        return None
    for color in range(5):
        if wall_column(color, row) == column:
            return color
    return None
