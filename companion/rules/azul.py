"""Base Azul: coloured wall and grey wall, 2-4 players.

The state is a :class:`Game`. Whoever must act is told by :attr:`Game.phase`:

- ``REFILL``: a chance event is due. Push a :class:`Refill`, either the draw seen at a
  real table (validated against what bag and lid can give) or one made by
  :meth:`Game.draw_refill` with a seeded random generator.
- ``DRAFTING``: :attr:`Game.turn` takes tiles; :meth:`Game.legal_moves` lists the
  :class:`Take` moves.
- ``TILING``: grey wall only, players choose a column for each complete pattern line;
  the legal moves are :class:`Place` moves (the coloured wall tiles by itself).
- ``OVER``: :meth:`Game.outcome` tells who won.

Numbers follow the players' words: factories 1..N with ``CENTER`` = 0, pattern lines 1..5
with ``FLOOR`` = 0 as a target, wall columns 1..5, seats from 0. Colours are ints in the
order of ``COLORS``; the printed wall puts colour ``c`` of row ``r`` (both 0-based) in
column ``(c + r) % 5``.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Protocol

from companion.i18n import _
from companion.rules.errors import IllegalMoveError, InvalidRefillError

COLORS = ("blue", "yellow", "red", "black", "white")
BLUE, YELLOW, RED, BLACK, WHITE = range(5)
COLOR_LETTERS = "byrkw"
MARKER = 5  # the first-player marker, as it lies on a floor line

CENTER = 0
FLOOR = 0
FLOOR_PENALTIES = (1, 1, 2, 2, 2, 3, 3)
FLOOR_PLACES = len(FLOOR_PENALTIES)
TILES_PER_COLOR = 20
TILES_PER_FACTORY = 4
FACTORIES = {2: 5, 3: 7, 4: 9}
VARIANTS = ("colored", "grey")

ROW_BONUS, COLUMN_BONUS, COLOR_BONUS = 2, 7, 10

REFILL, DRAFTING, TILING, OVER = "refill", "drafting", "tiling", "over"

_CUMULATIVE_PENALTY = tuple(sum(FLOOR_PENALTIES[:k]) for k in range(FLOOR_PLACES + 1))


def wall_column(color: int, row: int) -> int:
    """The 0-based column of ``color`` in 0-based ``row`` of the printed wall."""
    return (color + row) % 5


def color_name(color: int) -> str:
    return "marker" if color == MARKER else COLORS[color]


def parse_color(name: str) -> int:
    try:
        return COLORS.index(name)
    except ValueError:
        raise ValueError(_("unknown colour {name!r}").format(name=name)) from None


# --- moves and events ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Take:
    """Take every tile of ``color`` from ``source`` and put them on pattern ``line``.

    ``source`` is a factory 1..9 or ``CENTER``; ``line`` is 1..5 or ``FLOOR``.
    Notation: source (digit or ``c``), colour letter (``byrkw``), line (digit or ``f``),
    e.g. ``"3r2"`` or ``"cbf"``.
    """

    source: int
    color: int
    line: int

    def notation(self) -> str:
        source = "c" if self.source == CENTER else str(self.source)
        line = "f" if self.line == FLOOR else str(self.line)
        return f"{source}{COLOR_LETTERS[self.color]}{line}"

    @classmethod
    def parse(cls, text: str) -> Take:
        if len(text) != 3 or text[1] not in COLOR_LETTERS:
            raise ValueError(_("not a take in notation like '3r2' or 'cbf': {text!r}").format(text=text))
        source, letter, line = text
        if not (source == "c" or source in "123456789") or not (line == "f" or line in "12345"):
            raise ValueError(_("not a take in notation like '3r2' or 'cbf': {text!r}").format(text=text))
        return cls(
            CENTER if source == "c" else int(source),
            COLOR_LETTERS.index(letter),
            FLOOR if line == "f" else int(line),
        )

    def __str__(self) -> str:
        return self.notation()


@dataclass(frozen=True, slots=True)
class Place:
    """Grey wall: ``player`` moves complete pattern ``line`` (1..5) to wall ``column`` (1..5).

    Notation: ``"p1:2@4"`` (player 1, line 2, column 4).
    """

    player: int
    line: int
    column: int

    def notation(self) -> str:
        return f"p{self.player}:{self.line}@{self.column}"

    @classmethod
    def parse(cls, text: str) -> Place:
        try:
            head, column = text.split("@")
            player, line = head.removeprefix("p").split(":")
            return cls(int(player), int(line), int(column))
        except ValueError:
            raise ValueError(
                _("not a placement in notation like 'p1:2@4': {text!r}").format(text=text)) from None

    def __str__(self) -> str:
        return self.notation()


@dataclass(frozen=True, slots=True)
class Refill:
    """The chance event that opens a round: the tiles drawn onto each factory (colour ints)."""

    factories: tuple[tuple[int, ...], ...]

    def __str__(self) -> str:
        return " ".join("".join(COLOR_LETTERS[c] for c in f) or "-" for f in self.factories)


Move = Take | Place
Event = Take | Place | Refill


class RandomSource(Protocol):
    """What :meth:`Game.draw_refill` needs of a random generator (``random.Random`` fits)."""

    def randrange(self, stop: int, /) -> int: ...


# --- the scoring explanation -----------------------------------------------------


@dataclass(frozen=True, slots=True)
class TileScore:
    """A tile moved to the wall and what it scored: ``across`` and ``down`` are its runs."""

    round: int
    player: int
    row: int  # 1..5
    column: int  # 1..5
    color: int
    across: int
    down: int

    @property
    def points(self) -> int:
        return tile_points(self.across, self.down)


@dataclass(frozen=True, slots=True)
class FloorScore:
    """Floor penalty of a round: ``places`` filled, ``penalty`` due, ``lost`` actually taken.

    ``lost`` is smaller than ``penalty`` only when the score would have gone below 0.
    """

    round: int
    player: int
    places: int
    penalty: int
    lost: int


@dataclass(frozen=True, slots=True)
class LineToFloor:
    """Grey wall: a line placed in a column that already held its colour went to the floor."""

    round: int
    player: int
    row: int
    column: int
    color: int
    tiles: int


@dataclass(frozen=True, slots=True)
class BonusScore:
    """An end-game bonus: ``kind`` is "row", "column" or "color"; ``index`` its row (1..5),
    column (1..5) or colour."""

    player: int
    kind: str
    index: int
    points: int


ScoreItem = TileScore | FloorScore | LineToFloor | BonusScore


def tile_points(across: int, down: int) -> int:
    """A placed tile scores its runs of 2 or more each way, or 1 if it stands alone."""
    if across < 2 and down < 2:
        return 1
    return (across if across >= 2 else 0) + (down if down >= 2 else 0)


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of a game: final scores and the winners, with the reason for a tie-break."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]
    complete_rows: tuple[int, ...]
    tie_broken_by_rows: bool

    @property
    def shared(self) -> bool:
        return len(self.winners) > 1


# --- a player's board ------------------------------------------------------------


class PlayerBoard:
    """Pattern lines, wall, floor line and score of one seat.

    ``targets[c]`` is a bitmask of the pattern lines (bit 0 = line 1) that may take colour
    ``c`` now; it is kept up to date on every change so listing moves costs little.
    """

    __slots__ = ("col_colors", "floor", "line_colors", "line_counts", "row_colors", "score",
                 "targets", "wall")

    def __init__(self) -> None:
        self.line_colors = [-1] * 5
        self.line_counts = [0] * 5
        self.wall = [-1] * 25  # row-major colours, -1 for an empty cell
        self.row_colors = [0] * 5  # bitmask of the colours in each wall row
        self.col_colors = [0] * 5  # bitmask of the colours in each wall column
        self.floor: list[int] = []
        self.score = 0
        self.targets = [31] * 5

    def copy(self) -> PlayerBoard:
        board = PlayerBoard.__new__(PlayerBoard)
        board.line_colors = self.line_colors[:]
        board.line_counts = self.line_counts[:]
        board.wall = self.wall[:]
        board.row_colors = self.row_colors[:]
        board.col_colors = self.col_colors[:]
        board.floor = self.floor[:]
        board.score = self.score
        board.targets = self.targets[:]
        return board

    def _refresh_line(self, line: int) -> None:
        count = self.line_counts[line]
        if count == 0:
            accepts = 31 & ~self.row_colors[line]
        elif count <= line:
            accepts = 1 << self.line_colors[line]
        else:
            accepts = 0
        bit = 1 << line
        targets = self.targets
        for c in range(5):
            if accepts >> c & 1:
                targets[c] |= bit
            else:
                targets[c] &= ~bit

    def line_refusal(self, line: int, color: int) -> str | None:
        """Why pattern ``line`` (0-based) may not take ``color`` now, or None if it may."""
        count = self.line_counts[line]
        if count > line:
            return _("pattern line {line} is full").format(line=line + 1)
        if count and self.line_colors[line] != color:
            return _("pattern line {line} holds {held}, not {color}").format(
                line=line + 1, held=_(COLORS[self.line_colors[line]]), color=_(COLORS[color]))
        if self.row_colors[line] >> color & 1:
            return _("wall row {line} already has {color}").format(line=line + 1, color=_(COLORS[color]))
        return None

    def runs(self, row: int, column: int) -> tuple[int, int]:
        """Lengths of the horizontal and vertical runs through a filled cell (0-based)."""
        wall = self.wall
        base = row * 5
        left = column
        while left > 0 and wall[base + left - 1] >= 0:
            left -= 1
        right = column
        while right < 4 and wall[base + right + 1] >= 0:
            right += 1
        top = row
        while top > 0 and wall[(top - 1) * 5 + column] >= 0:
            top -= 1
        bottom = row
        while bottom < 4 and wall[(bottom + 1) * 5 + column] >= 0:
            bottom += 1
        return right - left + 1, bottom - top + 1

    def complete_rows(self) -> int:
        return sum(1 for mask in self.row_colors if mask == 31)

    def complete_columns(self) -> int:
        return sum(1 for column in range(5) if all(self.wall[r * 5 + column] >= 0 for r in range(5)))

    def complete_colors(self) -> list[int]:
        return [c for c in range(5) if self.wall.count(c) == 5]

    def to_dict(self) -> dict:
        return {
            "lines": [
                {"color": COLORS[c] if n else None, "count": n}
                for c, n in zip(self.line_colors, self.line_counts, strict=True)
            ],
            "wall": [[COLORS[c] if c >= 0 else None for c in self.wall[r * 5 : r * 5 + 5]]
                     for r in range(5)],
            "floor": [color_name(c) for c in self.floor],
            "score": self.score,
        }

    @classmethod
    def from_dict(cls, data: dict) -> PlayerBoard:
        board = cls()
        for i, line in enumerate(data["lines"]):
            board.line_counts[i] = line["count"]
            board.line_colors[i] = parse_color(line["color"]) if line["count"] else -1
        for r, row in enumerate(data["wall"]):
            for col, name in enumerate(row):
                if name is not None:
                    c = parse_color(name)
                    board.wall[r * 5 + col] = c
                    board.row_colors[r] |= 1 << c
                    board.col_colors[col] |= 1 << c
        board.floor = [MARKER if name == "marker" else parse_color(name) for name in data["floor"]]
        board.score = data["score"]
        for line in range(5):
            board._refresh_line(line)
        return board


# Every Take that can ever exist, made once: listing moves only concatenates tuples.
# _TAKES[source][color][mask] holds the takes to the lines in ``mask`` and to the floor.
_TAKES: tuple[tuple[tuple[tuple[Take, ...], ...], ...], ...] = tuple(
    tuple(
        tuple(
            (*(Take(source, color, line + 1) for line in range(5) if mask >> line & 1),
             Take(source, color, FLOOR))
            for mask in range(32)
        )
        for color in range(5)
    )
    for source in range(10)
)


# --- the game --------------------------------------------------------------------


class Game:
    """The state of a game of base Azul, and the only judge of what is legal.

    >>> game = Game(players=2)
    >>> game.push(Refill(((0, 0, 1, 2),) * 5))  # doctest: +SKIP
    """

    __slots__ = ("bag", "boards", "center", "center_marker", "factories", "lid", "marker_holder",
                 "on_table", "phase", "players", "round", "round_scores", "scoring", "starter",
                 "turn", "variant")

    def __init__(self, players: int = 2, variant: str = "colored") -> None:
        if players not in FACTORIES:
            raise ValueError(_("Azul is for 2 to 4 players, not {n}").format(n=players))
        if variant not in VARIANTS:
            raise ValueError(_("unknown variant {variant!r} (colored or grey)").format(variant=variant))
        self.players = players
        self.variant = variant
        self.boards = [PlayerBoard() for _seat in range(players)]
        self.factories: list[dict[int, int]] = [{} for _f in range(FACTORIES[players])]
        self.center: dict[int, int] = {}
        self.center_marker = False
        self.bag = [TILES_PER_COLOR] * 5
        self.lid = [0] * 5
        self.marker_holder: int | None = None
        self.on_table = 0  # tiles on factories and in the centre
        self.phase = REFILL
        self.round = 0
        self.round_scores: list[list[int]] = []
        self.scoring: list[ScoreItem] = []
        self.starter = 0
        self.turn = 0

    # -- copying and serialising --

    def copy(self) -> Game:
        game = Game.__new__(Game)
        game.players = self.players
        game.variant = self.variant
        game.boards = [board.copy() for board in self.boards]
        game.factories = [f.copy() for f in self.factories]
        game.center = self.center.copy()
        game.center_marker = self.center_marker
        game.bag = self.bag[:]
        game.lid = self.lid[:]
        game.marker_holder = self.marker_holder
        game.on_table = self.on_table
        game.phase = self.phase
        game.round = self.round
        game.round_scores = [scores[:] for scores in self.round_scores]
        game.scoring = self.scoring[:]
        game.starter = self.starter
        game.turn = self.turn
        return game

    def to_dict(self) -> dict:
        """The whole state as JSON-ready data (the scoring explanation included)."""
        return {
            "format": "azul-state/1",
            "variant": self.variant,
            "players": self.players,
            "phase": self.phase,
            "round": self.round,
            "turn": self.turn,
            "starter": self.starter,
            "marker_holder": self.marker_holder,
            "bag": _counts_to_dict(self.bag),
            "lid": _counts_to_dict(self.lid),
            "factories": [_tiles_of(f) for f in self.factories],
            "center": {"tiles": _tiles_of(self.center), "marker": self.center_marker},
            "boards": [board.to_dict() for board in self.boards],
            "round_scores": [scores[:] for scores in self.round_scores],
            "scoring": [_score_item_to_dict(item) for item in self.scoring],
        }

    @classmethod
    def from_dict(cls, data: dict) -> Game:
        if data.get("format") != "azul-state/1":
            raise ValueError(_("not an azul-state/1 object"))
        game = cls(data["players"], data["variant"])
        game.phase = data["phase"]
        game.round = data["round"]
        game.turn = data["turn"]
        game.starter = data["starter"]
        game.marker_holder = data["marker_holder"]
        game.bag = [data["bag"][name] for name in COLORS]
        game.lid = [data["lid"][name] for name in COLORS]
        game.factories = [_counts_of(tiles) for tiles in data["factories"]]
        game.center = _counts_of(data["center"]["tiles"])
        game.center_marker = data["center"]["marker"]
        game.boards = [PlayerBoard.from_dict(board) for board in data["boards"]]
        game.on_table = sum(sum(f.values()) for f in game.factories) + sum(game.center.values())
        game.round_scores = [list(scores) for scores in data["round_scores"]]
        game.scoring = [_score_item_from_dict(item) for item in data["scoring"]]
        return game

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        scores = ", ".join(str(b.score) for b in self.boards)
        return (f"<Game {self.players}p {self.variant} round {self.round} {self.phase}"
                f" turn {self.turn} scores [{scores}]>")

    # -- what may happen now --

    def generate_legal_moves(self) -> list[Move]:
        """Every legal move for whoever must act now (empty while a refill is due or at the end)."""
        if self.phase == DRAFTING:
            targets = self.boards[self.turn].targets
            moves: list[Move] = []
            extend = moves.extend
            if self.center:
                row = _TAKES[CENTER]
                # Sorted, so the order of moves depends on the position alone, not on its history.
                for color in sorted(self.center):
                    extend(row[color][targets[color]])
            for source, factory in enumerate(self.factories, 1):
                if factory:
                    row = _TAKES[source]
                    for color in factory:
                        extend(row[color][targets[color]])
            return moves
        if self.phase == TILING:
            return [Place(player, line + 1, column + 1)
                    for player, line in self.pending_placements()
                    for column in range(5) if self.boards[player].wall[line * 5 + column] < 0]
        return []

    @property
    def legal_moves(self) -> LegalMoves:
        return LegalMoves(self)

    def is_legal(self, move: Move) -> bool:
        return self._refusal(move) is None

    def pending_placements(self) -> list[tuple[int, int]]:
        """Grey wall tiling: (seat, 0-based line) of each player's next complete line to place."""
        pending = []
        for seat, board in enumerate(self.boards):
            for line in range(5):
                if board.line_counts[line] == line + 1:
                    pending.append((seat, line))
                    break
        return pending

    def _refusal(self, move: Move) -> str | None:
        """Why ``move`` is illegal now, or None if it is legal."""
        if isinstance(move, Take):
            if self.phase != DRAFTING:
                return _("no tiles may be taken now ({phase})").format(phase=_(self.phase))
            if not 0 <= move.color < 5:
                return _("unknown colour {color}").format(color=move.color)
            if move.source == CENTER:
                if not self.center.get(move.color):
                    return _("the centre has no {color} tiles").format(color=_(COLORS[move.color]))
            elif 1 <= move.source <= len(self.factories):
                if not self.factories[move.source - 1].get(move.color):
                    return _("factory {n} has no {color} tiles").format(
                        n=move.source, color=_(COLORS[move.color]))
            else:
                return _("there is no factory {n}").format(n=move.source)
            if move.line == FLOOR:
                return None
            if not 1 <= move.line <= 5:
                return _("there is no pattern line {n}").format(n=move.line)
            return self.boards[self.turn].line_refusal(move.line - 1, move.color)
        if isinstance(move, Place):
            if self.phase != TILING:
                return _("no tile may be placed on the wall now ({phase})").format(phase=_(self.phase))
            if not 0 <= move.player < self.players:
                return _("there is no player {n}").format(n=move.player)
            if not (1 <= move.line <= 5 and 1 <= move.column <= 5):
                return _("line and column must be 1 to 5")
            pending = dict(self.pending_placements())
            if move.player not in pending:
                return _("player {n} has no complete pattern line to place").format(n=move.player)
            if pending[move.player] != move.line - 1:
                return _("player {n} must place pattern line {line} first").format(
                    n=move.player, line=pending[move.player] + 1)
            if self.boards[move.player].wall[(move.line - 1) * 5 + move.column - 1] >= 0:
                return _("wall row {row}, column {column} is taken").format(row=move.line, column=move.column)
            return None
        return _("not a move: {move!r}").format(move=move)

    # -- playing --

    def push(self, event: Event) -> None:
        """Apply a move or a refill, or raise IllegalMoveError / InvalidRefillError."""
        if isinstance(event, Refill):
            self._refill(event)
            return
        reason = self._refusal(event)
        if reason is not None:
            raise IllegalMoveError(_("illegal {move}: {reason}").format(move=event, reason=reason))
        if isinstance(event, Take):
            self._take(event.source, event.color, event.line)
        else:
            self._place(event.player, event.line - 1, event.column - 1)

    def push_unchecked(self, move: Move) -> None:
        """Apply a move taken from :meth:`generate_legal_moves` without checking it again."""
        if isinstance(move, Take):
            self._take(move.source, move.color, move.line)
        else:
            self._place(move.player, move.line - 1, move.column - 1)

    def preview(self, move: Take) -> Game:
        """A copy after ``move`` as the table shows it before wall-tiling.

        The engine tiles the walls the moment drafting ends; a real table shows the
        drafted boards for a while first. The copy is for comparing with what the camera
        sees: when the take ended drafting it has no moves and must not be played on.
        """
        reason = self._refusal(move)
        if reason is not None:
            raise IllegalMoveError(_("illegal {move}: {reason}").format(move=move, reason=reason))
        game = self.copy()
        game._take(move.source, move.color, move.line, tile=False)
        return game

    def _take(self, source: int, color: int, line: int, tile: bool = True) -> None:
        board = self.boards[self.turn]
        center = self.center
        if source == CENTER:
            count = center.pop(color)
            if self.center_marker:
                self.center_marker = False
                self.marker_holder = self.turn
                if len(board.floor) < FLOOR_PLACES:
                    board.floor.append(MARKER)
        else:
            factory = self.factories[source - 1]
            count = factory.pop(color)
            for other, n in factory.items():
                center[other] = center.get(other, 0) + n
            factory.clear()
        self.on_table -= count
        if line != FLOOR:
            row = line - 1
            put = min(count, line - board.line_counts[row])
            board.line_counts[row] += put
            board.line_colors[row] = color
            board._refresh_line(row)
            count -= put
        if count:
            self._to_floor(board, color, count)
        self.turn = (self.turn + 1) % self.players
        if not self.on_table and tile:
            self._end_drafting()

    def _to_floor(self, board: PlayerBoard, color: int, count: int) -> None:
        room = min(count, FLOOR_PLACES - len(board.floor))
        if room > 0:
            board.floor.extend([color] * room)
            count -= room
        if count:
            self.lid[color] += count

    def _end_drafting(self) -> None:
        if self.variant == "colored":
            for seat, board in enumerate(self.boards):
                for row in range(5):
                    if board.line_counts[row] == row + 1:
                        color = board.line_colors[row]
                        self._tile(seat, board, row, wall_column(color, row), color)
            self._end_round()
        elif self.pending_placements():
            self.phase = TILING
        else:
            self._end_round()

    def _tile(self, seat: int, board: PlayerBoard, row: int, column: int, color: int) -> None:
        """Move pattern line ``row``'s rightmost tile to the wall, score it, the rest to the lid."""
        board.wall[row * 5 + column] = color
        board.row_colors[row] |= 1 << color
        board.col_colors[column] |= 1 << color
        across, down = board.runs(row, column)
        board.score += tile_points(across, down)
        self.scoring.append(TileScore(self.round, seat, row + 1, column + 1, color, across, down))
        self.lid[color] += row
        board.line_counts[row] = 0
        board.line_colors[row] = -1
        board._refresh_line(row)

    def _place(self, seat: int, row: int, column: int) -> None:
        board = self.boards[seat]
        color = board.line_colors[row]
        if board.col_colors[column] >> color & 1:
            # The Sudoku rule is broken: the whole line goes to the floor instead.
            self.scoring.append(LineToFloor(self.round, seat, row + 1, column + 1, color, row + 1))
            board.line_counts[row] = 0
            board.line_colors[row] = -1
            board._refresh_line(row)
            self._to_floor(board, color, row + 1)
        else:
            self._tile(seat, board, row, column, color)
        if not self.pending_placements():
            self._end_round()

    def _end_round(self) -> None:
        for seat, board in enumerate(self.boards):
            places = len(board.floor)
            if places:
                penalty = _CUMULATIVE_PENALTY[places]
                lost = min(penalty, board.score)
                board.score -= lost
                self.scoring.append(FloorScore(self.round, seat, places, penalty, lost))
                for color in board.floor:
                    if color != MARKER:
                        self.lid[color] += 1
                board.floor.clear()
        self.round_scores.append([board.score for board in self.boards])
        if self.marker_holder is not None:
            self.starter = self.marker_holder
            self.marker_holder = None
        self.turn = self.starter
        if any(31 in board.row_colors for board in self.boards):
            self._add_bonuses()
            self.phase = OVER
        else:
            self.phase = REFILL

    def _add_bonuses(self) -> None:
        for seat, board in enumerate(self.boards):
            for row in range(5):
                if board.row_colors[row] == 31:
                    self._bonus(seat, board, "row", row + 1, ROW_BONUS)
            for column in range(5):
                if all(board.wall[r * 5 + column] >= 0 for r in range(5)):
                    self._bonus(seat, board, "column", column + 1, COLUMN_BONUS)
            for color in board.complete_colors():
                self._bonus(seat, board, "color", color, COLOR_BONUS)

    def _bonus(self, seat: int, board: PlayerBoard, kind: str, index: int, points: int) -> None:
        board.score += points
        self.scoring.append(BonusScore(seat, kind, index, points))

    # -- chance: the refill --

    def _check_refill(self, refill: Refill) -> list[int]:
        """The tile counts the refill draws, or raise InvalidRefillError saying why it cannot be."""
        if self.phase != REFILL:
            raise InvalidRefillError(_("a refill only opens a round, and this round is {phase}").format(
                phase=_(self.phase)))
        expected = len(self.factories)
        if len(refill.factories) != expected:
            raise InvalidRefillError(_("{n} factories refilled, but {players} players use {expected}").format(
                n=len(refill.factories), players=self.players, expected=expected))
        drawn = [0] * 5
        for number, tiles in enumerate(refill.factories, 1):
            if len(tiles) > TILES_PER_FACTORY:
                raise InvalidRefillError(_("factory {n} holds {count} tiles; at most 4 fit").format(
                    n=number, count=len(tiles)))
            for color in tiles:
                if not 0 <= color < 5:
                    raise InvalidRefillError(_("factory {n} holds an unknown colour").format(n=number))
                drawn[color] += 1
        bag, lid = self.bag, self.lid
        need = TILES_PER_FACTORY * expected
        available = sum(bag) + sum(lid)
        if sum(drawn) != min(need, available):
            raise InvalidRefillError(
                _("{drawn} tiles drawn, but the bag ({bag}) and lid ({lid}) give exactly {must}").format(
                    drawn=sum(drawn), bag=sum(bag), lid=sum(lid), must=min(need, available)))
        if sum(bag) >= need:
            for color in range(5):
                if drawn[color] > bag[color]:
                    raise InvalidRefillError(
                        _("{drawn} {color} tiles drawn, but the bag holds only {held}").format(
                            drawn=drawn[color], color=_(COLORS[color]), held=bag[color]))
            return drawn
        # The bag runs out: all of it is drawn, the lid refills it, and drawing goes on.
        for color in range(5):
            if drawn[color] < bag[color]:
                raise InvalidRefillError(
                    _("the bag ran out, so all {held} {color} tiles in it are drawn, not {drawn}").format(
                        held=bag[color], color=_(COLORS[color]), drawn=drawn[color]))
            if drawn[color] > bag[color] + lid[color]:
                raise InvalidRefillError(
                    _("{drawn} {color} tiles drawn, but the bag and lid hold only {held}").format(
                        drawn=drawn[color], color=_(COLORS[color]), held=bag[color] + lid[color]))
        return drawn

    def _refill(self, refill: Refill) -> None:
        drawn = self._check_refill(refill)
        if sum(self.bag) >= TILES_PER_FACTORY * len(self.factories):
            self.bag = [b - d for b, d in zip(self.bag, drawn, strict=True)]
        else:
            self.bag = [b + t - d for b, t, d in zip(self.bag, self.lid, drawn, strict=True)]
            self.lid = [0] * 5
        for factory, tiles in zip(self.factories, refill.factories, strict=True):
            for color in sorted(tiles):
                factory[color] = factory.get(color, 0) + 1
        self.on_table = sum(drawn)
        self.center_marker = True
        self.round += 1
        self.phase = DRAFTING
        if not self.on_table:
            # Bag and lid were empty: nothing to draft, the round goes straight to tiling.
            self._end_drafting()

    def draw_refill(self, rng: RandomSource) -> Refill:
        """A refill drawn tile by tile from the bag (then the lid), as at a table; not pushed."""
        if self.phase != REFILL:
            raise InvalidRefillError(_("a refill only opens a round, and this round is {phase}").format(
                phase=_(self.phase)))
        bag, lid = self.bag[:], self.lid[:]
        left = sum(bag)
        factories = []
        for _f in self.factories:
            tiles = []
            for _t in range(TILES_PER_FACTORY):
                if not left:
                    bag, lid = lid, [0] * 5
                    left = sum(bag)
                    if not left:
                        break
                pick = rng.randrange(left)
                color = 0
                while pick >= bag[color]:
                    pick -= bag[color]
                    color += 1
                bag[color] -= 1
                left -= 1
                tiles.append(color)
            factories.append(tuple(tiles))
        return Refill(tuple(factories))

    # -- the end --

    def is_over(self) -> bool:
        return self.phase == OVER

    def outcome(self) -> Outcome | None:
        """Scores and winners once the game is over, else None."""
        if self.phase != OVER:
            return None
        scores = tuple(board.score for board in self.boards)
        rows = tuple(board.complete_rows() for board in self.boards)
        best = max(scores)
        leaders = [seat for seat in range(self.players) if scores[seat] == best]
        most_rows = max(rows[seat] for seat in leaders)
        winners = tuple(seat for seat in leaders if rows[seat] == most_rows)
        return Outcome(scores, winners, rows, len(leaders) > 1 and len(winners) < len(leaders))

    # -- looking ahead --

    def tiling_preview(self, seat: int) -> tuple[list[TileScore], int]:
        """What the coming tiling would bring ``seat`` as things stand: the tiles that would
        score (complete lines on the coloured wall) and the floor penalty due now."""
        game = self.copy()
        board = game.boards[seat]
        items: list[TileScore] = []
        if self.variant == "colored":
            for row in range(5):
                if board.line_counts[row] == row + 1:
                    color = board.line_colors[row]
                    game._tile(seat, board, row, wall_column(color, row), color)
                    items.append(game.scoring[-1])  # type: ignore[arg-type]
        return items, _CUMULATIVE_PENALTY[len(board.floor)]

    def tiles_in_play(self) -> list[int]:
        """Count of each colour everywhere (bag, lid, factories, centre, boards): always 20."""
        counts = [b + t for b, t in zip(self.bag, self.lid, strict=True)]
        for place in [*self.factories, self.center]:
            for color, n in place.items():
                counts[color] += n
        for board in self.boards:
            for color, n in zip(board.line_colors, board.line_counts, strict=True):
                if n:
                    counts[color] += n
            for color in board.wall:
                if color >= 0:
                    counts[color] += 1
            for color in board.floor:
                if color != MARKER:
                    counts[color] += 1
        return counts


class LegalMoves:
    """A view of the legal moves: iterate it, ``len()`` it, or ask ``move in``."""

    __slots__ = ("_game",)

    def __init__(self, game: Game) -> None:
        self._game = game

    def __iter__(self) -> Iterator[Move]:
        return iter(self._game.generate_legal_moves())

    def __len__(self) -> int:
        return len(self._game.generate_legal_moves())

    def count(self) -> int:
        return len(self)

    def __contains__(self, move: object) -> bool:
        return isinstance(move, Take | Place) and self._game.is_legal(move)

    def __bool__(self) -> bool:
        return bool(self._game.generate_legal_moves())

    def __repr__(self) -> str:
        return f"<LegalMoves ({', '.join(str(m) for m in self)})>"


# --- helpers for serialising -----------------------------------------------------


def _counts_to_dict(counts: list[int]) -> dict[str, int]:
    return {name: counts[i] for i, name in enumerate(COLORS)}


def _tiles_of(counts: dict[int, int]) -> list[str]:
    return [COLORS[c] for c in sorted(counts) for _n in range(counts[c])]


def _counts_of(tiles: list[str]) -> dict[int, int]:
    counts: dict[int, int] = {}
    for name in tiles:
        c = parse_color(name)
        counts[c] = counts.get(c, 0) + 1
    return counts


_SCORE_ITEMS = {cls.__name__: cls for cls in (TileScore, FloorScore, LineToFloor, BonusScore)}


def _score_item_to_dict(item: ScoreItem) -> dict:
    return {"kind": type(item).__name__,
            **{name: getattr(item, name) for name in item.__slots__}}  # type: ignore[union-attr]


def _score_item_from_dict(data: dict) -> ScoreItem:
    fields = dict(data)
    return _SCORE_ITEMS[fields.pop("kind")](**fields)
