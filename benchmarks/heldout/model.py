"""An independent observation model: true Azul games in, `azul-observation/1` streams out.

Written from the specs alone (observation.md, game-record.md, real-table.md), without
looking at the tracker or its developers' simulator, so that the tracker can be judged on
streams it was never tuned on. It plays a game with the rules engine, lays the physical
table out in a 1920x1080 image, and writes what a camera and recogniser would report,
frame by frame, with the kinds of mistakes real vision makes:

- every place (pattern-line cell, floor place, wall cell, factory tile, centre tile) read
  in a frame is reported wrong with probability ``misread``: a colour confused the way
  real-table.md says colours meet (white/marker, white/blue, red/yellow, blue/black in
  shade), a tile missed, or a tile seen where there is none (on the coloured wall: the
  printed design taken for a tile). Part of the misreads (``sticky``) hold for a whole
  still state, as glare or a shadow does; the rest flicker frame to frame;
- honest "unknown" places and unreadable counts (``null``) with lower confidence;
- whole objects (factories, boards, the centre pile) missing from a frame;
- centre counts off by one where tiles overlap in the pile;
- objects reported at a wrong position for a frame;
- hands: occluded frames during every move, showing the move half done (tiles lifted,
  leftovers not yet pushed to the centre, a half-filled round of factories), and now and
  then a frame or two of a half-done move in which the hand was not detected;
- a hand passing over a still table, and the wall-tiling seen half done (some players
  finished, others not) long enough to look still.

Every still state is seen in 3 or more consecutive non-occluded frames. After the still
state that follows each take or place, the stream holds the truthful person's answer.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator
from copy import deepcopy
from dataclasses import dataclass, field

from companion.bots import GreedyBot
from companion.rules.azul import COLORS, DRAFTING, OVER, REFILL, TILING, Game, Place, Refill, Take
from companion.rules.azul_record import Record, event_to_json

FORMAT = "azul-observation/1"
WIDTH, HEIGHT = 1920, 1080
NAMES = ("Ann", "Bo", "Cy", "Di")
MAX_ROUNDS = 30  # a 4-player game can, rarely, never end

UNKNOWN = "unknown"
_NO_ERROR = object()

# Which wrong colour a misread tile shows, after real-table.md's closest pairs.
_CONFUSIONS = {
    "white": (("blue", 0.45), ("marker", 0.35), ("yellow", 0.1), ("black", 0.1)),
    "blue": (("black", 0.45), ("white", 0.45), ("red", 0.05), ("yellow", 0.05)),
    "black": (("blue", 0.7), ("white", 0.15), ("red", 0.15)),
    "red": (("yellow", 0.8), ("black", 0.1), ("blue", 0.1)),
    "yellow": (("red", 0.7), ("white", 0.2), ("black", 0.1)),
    "marker": (("white", 0.9), ("blue", 0.1)),
}
# What a tile "seen where there is none" looks like: light, glossy things first.
_PHANTOMS = (("white", 0.3), ("yellow", 0.25), ("blue", 0.2), ("red", 0.15), ("black", 0.1))


def _weighted(rng: random.Random, pairs: tuple[tuple[str, float], ...]) -> str:
    names = [name for name, _w in pairs]
    weights = [w for _n, w in pairs]
    return rng.choices(names, weights)[0]


# --- what the table holds, in the words of an observation ----------------------


@dataclass
class Table:
    """The physical table at one moment: what a perfect recogniser would report."""

    boards: list[dict]  # {"lines": [[colour|None, count]], "floor": [...], "wall": 5x5}
    factories: list[list[str]]
    center: dict[str, int]
    marker: bool

    def copy(self) -> Table:
        return deepcopy(self)


def table_of(game: Game) -> Table:
    """The table as the engine's state says it looks (no tile arrangement yet)."""
    state = game.to_dict()
    boards = [{
        "lines": [[line["color"], line["count"]] for line in board["lines"]],
        "floor": list(board["floor"]),
        "wall": [list(row) for row in board["wall"]],
    } for board in state["boards"]]
    center: dict[str, int] = {}
    for name in state["center"]["tiles"]:
        center[name] = center.get(name, 0) + 1
    return Table(boards, [list(f) for f in state["factories"]], center, state["center"]["marker"])


# --- the game that is played ---------------------------------------------------


@dataclass
class Played:
    """A game as played: its events (with movers), the record, and the finished game."""

    players: int
    variant: str
    events: list[tuple[object, int | None]]
    record: Record
    game: Game


def play_game(players: int, variant: str, rng: random.Random) -> Played:
    """GreedyBot plays every seat (and chooses the grey wall's columns); refills drawn by rng."""
    game = Game(players, variant)
    bot = GreedyBot(rng)
    record = Record(list(NAMES[:players]), variant)
    events: list[tuple[object, int | None]] = []
    while game.phase != OVER:
        if game.phase == REFILL:
            if game.round >= MAX_ROUNDS:
                break
            event: object = game.draw_refill(rng)
            player = None
        else:
            event = bot.choose(game)
            player = game.turn if isinstance(event, Take) else None
        game.push(event)  # type: ignore[arg-type]
        record.append(event, player)  # type: ignore[arg-type]
        events.append((event, player))
    return Played(players, variant, events, record, game)


# --- where things lie in the image ---------------------------------------------

# Seats clockwise as seen from above: bottom, left, top, right; the board turned so that
# its owner sees it upright.
_SEAT_SPOTS = {
    2: ((960, 960, 0), (960, 120, 180)),
    3: ((960, 960, 0), (170, 540, 90), (960, 120, 180)),
    4: ((960, 960, 0), (170, 540, 90), (960, 120, 180), (1750, 540, 270)),
}


@dataclass
class Layout:
    board_centers: list[tuple[float, float]]
    rotations: list[int]
    factory_centers: list[tuple[float, float]]
    pile_center: tuple[float, float]


def make_layout(players: int, factories: int, rng: random.Random) -> Layout:
    spots = _SEAT_SPOTS[players]
    boards = [(x + rng.uniform(-40, 40), y + rng.uniform(-15, 15)) for x, y, _r in spots]
    cx, cy = 960 + rng.uniform(-20, 20), 540 + rng.uniform(-10, 10)
    radius = {5: 220, 7: 250, 9: 270}[factories]
    # Factory 1 nearest the bottom edge, then clockwise as seen from above (bottom, left,
    # top, right in the image); the turn of the circle stays small enough to keep that so.
    turn = rng.uniform(-0.2, 0.2) * math.pi / factories
    centers = []
    for k in range(factories):
        phi = turn + 2 * math.pi * k / factories
        r = radius + rng.uniform(-3, 3)
        centers.append((cx - r * math.sin(phi), cy + r * math.cos(phi)))
    return Layout(boards, [r for _x, _y, r in spots], centers, (cx, cy))


# --- the noise -----------------------------------------------------------------


@dataclass
class Noise:
    """Error rates; :meth:`at` derives all of them from the misread rate."""

    misread: float = 0.02  # P(a read place is reported wrong) in a frame
    sticky: float = 0.25  # share of misreads that last the whole still state
    unknown: float = 0.02  # P(a place is reported "unknown")
    drop: float = 0.005  # P(an object is missing from a frame)
    count_slip: float = 0.02  # P(a centre count of 2+ overlapping tiles is off by one)
    misplace: float = 0.005  # P(an object's centre is reported far off for a frame)
    glimpse: float = 0.05  # P(a move shows 1-2 non-occluded half-done frames)
    pass_over: float = 0.1  # P(a hand passes over a still table)
    half_tiled: float = 0.3  # P(wall-tiling is seen still while half done)

    @classmethod
    def at(cls, misread: float) -> Noise:
        return cls(misread=misread, unknown=misread, drop=misread / 4, count_slip=misread,
                   misplace=misread / 4, glimpse=0.05 if misread else 0.0)


@dataclass
class Tally:
    """What the model did, to check that the rates mean what they say."""

    places: int = 0
    wrong: int = 0
    unknown: int = 0
    frames: int = 0
    occluded: int = 0

    @property
    def misread_rate(self) -> float:
        return self.wrong / self.places if self.places else 0.0


@dataclass
class Hand:
    """What a hand covers in an occluded frame: objects ("board", i), ("factory", k), ("center",)."""

    covers: set[tuple] = field(default_factory=set)


class Recogniser:
    """Reads a Table into observations with errors; one per game, seeded."""

    def __init__(self, players: int, variant: str, layout: Layout, noise: Noise, rng: random.Random):
        self.players = players
        self.side = "colored" if variant == "colored" else "grey"
        self.layout = layout
        self.noise = noise
        self.rng = rng
        self.tally = Tally()
        self.sticky: dict[tuple, object] | None = None
        self.arrangement: dict[int, list[int]] = {}
        self.drift: list[tuple[float, float]] = []

    # -- still states --

    def settle(self) -> None:
        """A new still state: new lasting errors, tile arrangements and small drifts."""
        self.sticky = {}
        self.arrangement = {}
        self.drift = [(self.rng.uniform(-3, 3), self.rng.uniform(-3, 3))
                      for _i in range(len(self.layout.factory_centers) + self.players + 1)]

    def unsettle(self) -> None:
        self.sticky = None

    # -- one place --

    def _wrong(self, value: object, context: str, printed: str | None) -> object:
        rng = self.rng
        if value is None:
            if printed is not None:
                return printed  # the printed wall design taken for a tile
            return _weighted(rng, _PHANTOMS)
        if rng.random() < 0.25:
            return None  # a tile missed (glare, a shadow)
        pairs = _CONFUSIONS[value]  # type: ignore[index]
        if context != "floor-or-center":
            pairs = tuple(p for p in pairs if p[0] != "marker")
        return _weighted(rng, pairs)

    def read(self, key: tuple, value: object, context: str, printed: str | None = None,
             covered: bool = False) -> object:
        """One place as reported: the truth, a misread, or "unknown"."""
        noise, rng = self.noise, self.rng
        self.tally.places += 1
        if covered and rng.random() < 0.5:
            self.tally.unknown += 1
            return UNKNOWN
        if self.sticky is not None and noise.misread:
            lasting = self.sticky.get(key)
            if lasting is None:
                lasting = (self._wrong(value, context, printed)
                           if rng.random() < noise.misread * noise.sticky else _NO_ERROR)
                self.sticky[key] = lasting
            if lasting is not _NO_ERROR:
                self.tally.wrong += 1
                return lasting
        r = rng.random()
        flicker = noise.misread * (1 - noise.sticky) if self.sticky is not None else noise.misread
        if r < flicker:
            self.tally.wrong += 1
            return self._wrong(value, context, printed)
        if r < flicker + noise.unknown:
            self.tally.unknown += 1
            return UNKNOWN
        return value

    # -- objects --

    def _position(self, index: int, home: tuple[float, float]) -> list[int]:
        dx, dy = self.drift[index] if self.drift else (0.0, 0.0)
        x, y = home[0] + dx + self.rng.uniform(-2, 2), home[1] + dy + self.rng.uniform(-2, 2)
        if self.rng.random() < self.noise.misplace:
            angle = self.rng.uniform(0, 2 * math.pi)
            distance = self.rng.uniform(30, 80)
            x, y = x + distance * math.cos(angle), y + distance * math.sin(angle)
        return [round(min(max(x, 0), WIDTH - 1)), round(min(max(y, 0), HEIGHT - 1))]

    def _confidence(self, wrong: int, unknown: int, covered: bool) -> float:
        # Errors lower the confidence a little (a recogniser half knows when it struggles),
        # but a confident wrong reading stays possible.
        value = self.rng.uniform(0.9, 0.995) - 0.04 * wrong - 0.12 * unknown - (0.3 if covered else 0)
        return round(min(max(value, 0.05), 1.0), 3)

    def _board(self, seat: int, board: dict, covered: bool) -> dict:
        before = (self.tally.wrong, self.tally.unknown)
        lines = []
        for row, (color, count) in enumerate(board["lines"]):
            # Cells fill from the right (next to the wall); cell 0 is the rightmost.
            cells = [self.read(("line", seat, row, cell), color if cell < count else None, "line",
                               covered=covered) for cell in range(row + 1)]
            lines.append(_line_reading(cells, self.rng))
        floor_truth = list(board["floor"]) + [None] * (7 - len(board["floor"]))
        floor = [self.read(("floor", seat, i), v, "floor-or-center", covered=covered)
                 for i, v in enumerate(floor_truth)]
        wall = []
        for r in range(5):
            row = []
            for c in range(5):
                printed = COLORS[(c - r) % 5] if self.side == "colored" else None
                row.append(self.read(("wall", seat, r, c), board["wall"][r][c], "wall", printed,
                                     covered=covered))
            wall.append(row)
        wrong, unknown = self.tally.wrong - before[0], self.tally.unknown - before[1]
        return {
            "center": self._position(len(self.layout.factory_centers) + seat,
                                     self.layout.board_centers[seat]),
            "rotation": self.layout.rotations[seat],
            "side": self.side,
            "lines": lines,
            "floor": floor,
            "wall": wall,
            "confidence": self._confidence(wrong, unknown, covered),
        }

    def _factory(self, number: int, tiles: list[str], covered: bool) -> dict:
        before = (self.tally.wrong, self.tally.unknown)
        order = self.arrangement.get(number)
        if order is None or len(order) != len(tiles):
            order = list(range(len(tiles)))
            self.rng.shuffle(order)
            if self.sticky is not None:
                self.arrangement[number] = order
        seen: list[str] = []
        unknown = 0
        for slot in range(4):
            value = tiles[order[slot]] if slot < len(tiles) else None
            reading = self.read(("factory", number, slot), value, "factory", covered=covered)
            if reading == UNKNOWN:
                unknown += 1
            elif reading is not None:
                seen.append(reading)  # type: ignore[arg-type]
        wrong, unknowns = self.tally.wrong - before[0], self.tally.unknown - before[1]
        return {"center": self._position(number - 1, self.layout.factory_centers[number - 1]),
                "tiles": seen, "unknown": unknown,
                "confidence": self._confidence(wrong, unknowns, covered)}

    def _center(self, counts: dict[str, int], marker: bool, covered: bool) -> dict:
        seen: dict[str, int] = {}
        unknown = 0
        seen_marker = False
        tiles = [name for name in COLORS for _i in range(counts.get(name, 0))]
        # A pile holds at most a few spare places where a tile may be seen that is not there.
        places: list[object] = [*tiles, "marker" if marker else None, None, None]
        for i, value in enumerate(places):
            reading = self.read(("center", i), value, "floor-or-center", covered=covered)
            if reading == UNKNOWN:
                unknown += 1
            elif reading == "marker":
                seen_marker = True
            elif reading is not None:
                seen[reading] = seen.get(reading, 0) + 1  # type: ignore[index]
        for name in list(seen):
            if seen[name] >= 2 and self.rng.random() < self.noise.count_slip:
                self.tally.wrong += 1
                seen[name] += self.rng.choice((-1, 1))
        return {"tiles": {name: n for name, n in seen.items() if n > 0}, "marker": seen_marker,
                "unknown": unknown}

    def observe(self, table: Table, hand: Hand | None = None) -> dict:
        """One frame of ``table``; ``hand`` makes it an occluded frame."""
        covers = hand.covers if hand else set()
        rng, drop = self.rng, self.noise.drop
        self.tally.frames += 1
        self.tally.occluded += hand is not None
        boards = []
        for seat, board in enumerate(table.boards):
            covered = ("board", seat) in covers
            if rng.random() < (0.4 if covered else drop / 2):
                continue
            boards.append(self._board(seat, board, covered))
        factories = []
        for number, tiles in enumerate(table.factories, 1):
            covered = ("factory", number) in covers
            if rng.random() < (0.4 if covered else drop):
                continue
            factories.append(self._factory(number, tiles, covered))
        covered = ("center",) in covers
        if rng.random() < (0.3 if covered else drop / 2):
            center = {"tiles": {}, "marker": False, "unknown": 0}
        else:
            center = self._center(table.center, table.marker, covered)
        return {"format": FORMAT, "image": {"width": WIDTH, "height": HEIGHT},
                "occluded": hand is not None, "boards": boards, "factories": factories,
                "center": center}


def _line_reading(cells: list[object], rng: random.Random) -> dict:
    """A pattern line from its cells: count of tiles seen, the colour most of them show."""
    if UNKNOWN in cells:
        tiles = [c for c in cells if c not in (None, UNKNOWN)]
        return {"color": _majority(tiles, rng) if tiles else UNKNOWN, "count": None}
    tiles = [c for c in cells if c is not None]
    return {"color": _majority(tiles, rng) if tiles else None, "count": len(tiles)}


def _majority(tiles: list[object], rng: random.Random) -> object:
    counts: dict[object, int] = {}
    for t in tiles:
        counts[t] = counts.get(t, 0) + 1
    best = max(counts.values())
    return rng.choice([t for t, n in counts.items() if n == best])


# --- the frames of a game -------------------------------------------------------


def _still_frames(rng: random.Random) -> int:
    return rng.choices((3, 4, 5, 6, 7, 8, 10, 14), (12, 20, 20, 16, 12, 10, 6, 4))[0]


class StreamWriter:
    """Turns a played game into stream lines (dicts), frame by frame."""

    def __init__(self, played: Played, noise: Noise, rng: random.Random):
        self.played = played
        self.rng = rng
        game = Game(played.players, played.variant)
        layout = make_layout(played.players, len(game.factories), rng)
        self.seer = Recogniser(played.players, played.variant, layout, noise, rng)
        self.noise = noise
        self.lines: list[dict] = []

    def frame(self, table: Table, hand: Hand | None = None) -> None:
        self.lines.append({"observation": self.seer.observe(table, hand)})

    def still(self, table: Table) -> None:
        self.seer.settle()
        frames = _still_frames(self.rng)
        for _i in range(frames):
            self.frame(table)
        if self.rng.random() < self.noise.pass_over:
            # A hand points at something and leaves; the table stays as it was.
            spot = self.rng.randrange(len(table.boards))
            self.seer.unsettle()
            for _i in range(self.rng.randint(1, 3)):
                self.frame(table, Hand({("board", spot), ("center",)}))
            self.seer.settle()
            for _i in range(self.rng.randint(1, 4)):
                self.frame(table)
        self.seer.unsettle()

    def hands(self, stages: list[tuple[Table, Hand]]) -> None:
        for table, hand in stages:
            for _i in range(self.rng.randint(1, 2)):
                self.frame(table, hand)

    def glimpse(self, table: Table) -> None:
        """A half-done move in which the hand was not detected, too short to look still."""
        if self.rng.random() < self.noise.glimpse:
            for _i in range(self.rng.randint(1, 2)):
                self.frame(table)

    def lines_of_game(self) -> list[dict]:
        played = self.played
        self.lines.append({"setup": {"game": "azul", "variant": played.variant,
                                     "players": list(NAMES[:played.players])}})
        game = Game(played.players, played.variant)
        shown = table_of(game)
        self.still(shown)
        for event, player in played.events:
            before = game.copy()
            game.push(event)  # type: ignore[arg-type]
            if isinstance(event, Refill):
                after = table_of(game)
                if game.phase == DRAFTING:
                    self._refill(shown, after)
                    shown = after
                    self.still(shown)
                else:
                    # Bag and lid were empty: the round tiled at once.
                    self._tiling(shown, after)
                    shown = after
                    self.still(shown)
                continue
            if isinstance(event, Take):
                ends_drafting = game.phase != DRAFTING
                after = table_of(before.preview(event)) if ends_drafting else table_of(game)
                self._take(before, event, shown, after)
                shown = after
                self.still(shown)
                self.lines.append({"answer": event_to_json(event, player)})
                if ends_drafting and game.phase != TILING:
                    final = table_of(game)
                    self._tiling(shown, final)
                    shown = final
                    self.still(shown)
                continue
            assert isinstance(event, Place)
            after = table_of(game)
            self.hands([(shown, Hand({("board", event.player)})),
                        (after, Hand({("board", event.player)}))])
            shown = after
            self.still(shown)
            self.lines.append({"answer": event_to_json(event)})
        return self.lines

    # -- moves seen half done --

    def _take(self, before: Game, take: Take, shown: Table, after: Table) -> None:
        seat = before.turn
        color = COLORS[take.color]
        lifted = shown.copy()
        if take.source == 0:
            lifted.center.pop(color, None)
            source: tuple = ("center",)
        else:
            lifted.factories[take.source - 1] = [t for t in lifted.factories[take.source - 1] if t != color]
            source = ("factory", take.source)
        placed = lifted.copy()
        placed.boards[seat] = deepcopy(after.boards[seat])
        placed.marker = after.marker
        hand_source, hand_board = Hand({source}), Hand({("board", seat)})
        stages = [(shown, hand_source), (lifted, hand_source), (placed, hand_board)]
        self.hands(stages)
        if take.source != 0 and lifted.factories[take.source - 1]:
            # The leftovers are pushed to the centre after the tiles are placed.
            self.glimpse(placed)
            self.hands([(placed, hand_source), (after, hand_source)])
        else:
            self.glimpse(placed)
            self.hands([(after, hand_board)])

    def _refill(self, shown: Table, after: Table) -> None:
        n = len(after.factories)
        partial = shown.copy()
        marker_at = self.rng.randrange(n + 1)
        for k in range(n):
            partial = partial.copy()
            partial.factories[k] = list(after.factories[k])
            if k == marker_at:
                partial.marker = after.marker
            if self.rng.random() < 0.5:
                self.frame(partial, Hand({("factory", k + 1), ("factory", min(k + 2, n))}))
        self.frame(after, Hand({("center",)}))

    def _tiling(self, shown: Table, after: Table) -> None:
        seats = list(range(len(after.boards)))
        self.rng.shuffle(seats)
        half = shown.copy()
        everyone = Hand({("board", s) for s in seats})
        self.hands([(shown, everyone)])
        done = self.rng.randint(1, max(1, len(seats) - 1))
        for seat in seats[:done]:
            half.boards[seat] = deepcopy(after.boards[seat])
        self.hands([(half, everyone)])
        if self.rng.random() < self.noise.half_tiled:
            self.still(half)  # the slower players have not tiled yet
            self.hands([(half, Hand({("board", s) for s in seats[done:]}))])
        self.hands([(after, everyone)])


# --- games and their streams ---------------------------------------------------


def game_shape(index: int) -> tuple[int, str]:
    """Players and variant of game ``index``: 2, 3, 4 players in turn, walls alternating."""
    return (2, 3, 4)[index % 3], ("colored", "grey")[index % 2]


def make_game(index: int, seed: int) -> Played:
    players, variant = game_shape(index)
    return play_game(players, variant, random.Random(f"heldout-game:{seed}:{index}"))


def make_stream(played: Played, noise: Noise, index: int, seed: int) -> tuple[list[dict], Tally]:
    rng = random.Random(f"heldout-noise:{seed}:{index}:{noise.misread!r}")
    writer = StreamWriter(played, noise, rng)
    lines = writer.lines_of_game()
    return lines, writer.seer.tally


def iter_games(count: int, seed: int) -> Iterator[tuple[int, Played]]:
    for index in range(count):
        yield index, make_game(index, seed)
