"""A plain reference for base Azul (coloured and grey wall), written only from
/work/shared/spec/game-record.md and /work/shared/RULES.md sections 1-2.

It exists so the test suite can cross-check the real rules engine against an
independent reading of the rules. It must never import the engine. It favours
obviously-correct code over speed: tiles are plain lists and colour counts.
"""

from __future__ import annotations

import random

COLOURS = ("blue", "yellow", "red", "black", "white")
FLOOR_PENALTIES = (1, 1, 2, 2, 2, 3, 3)
FLOOR_PLACES = 7
FACTORY_COUNT = {2: 5, 3: 7, 4: 9}
TILES_PER_COLOUR = 20
MARKER = "first-player marker"

DRAFTING = "drafting"
TILING = "tiling"  # grey wall only: waiting for place events
BETWEEN_ROUNDS = "between rounds"  # waiting for a refill
OVER = "over"


class Rejected(ValueError):
    """A record breaks the format or a rule. index: 0-based event index, or None for the header."""

    def __init__(self, index: int | None, reason: str) -> None:
        where = "record header" if index is None else f"event {index}"
        super().__init__(f"{where}: {reason}")
        self.index = index
        self.reason = reason


class _Illegal(Exception):
    """Raised by the game model; replay() turns it into Rejected with the event index."""


def is_number(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def printed_column(colour: str, row: int) -> int:
    """1-based column of a colour in a 1-based row of the printed wall."""
    return (COLOURS.index(colour) + row - 1) % 5 + 1


def count_tiles(tiles: list[str]) -> dict[str, int]:
    return {colour: tiles.count(colour) for colour in COLOURS}


def run_length(wall: list[list[str | None]], row: int, col: int, d_row: int, d_col: int) -> int:
    """Length of the contiguous run through (row, col) along one direction, 0-based cells."""
    length = 1
    for sign in (1, -1):
        r, c = row + sign * d_row, col + sign * d_col
        while 0 <= r < 5 and 0 <= c < 5 and wall[r][c] is not None:
            length += 1
            r, c = r + sign * d_row, c + sign * d_col
    return length


def tile_points(wall: list[list[str | None]], row: int, col: int) -> int:
    """Points for the tile just placed at 0-based (row, col)."""
    across = run_length(wall, row, col, 0, 1)
    down = run_length(wall, row, col, 1, 0)
    if across == 1 and down == 1:
        return 1
    return (across if across >= 2 else 0) + (down if down >= 2 else 0)


def complete_rows(wall: list[list[str | None]]) -> int:
    return sum(1 for row in wall if all(cell is not None for cell in row))


def complete_columns(wall: list[list[str | None]]) -> int:
    return sum(1 for c in range(5) if all(wall[r][c] is not None for r in range(5)))


def complete_colours(wall: list[list[str | None]]) -> int:
    cells = [cell for row in wall for cell in row]
    return sum(1 for colour in COLOURS if cells.count(colour) == 5)


class Game:
    """The whole table. Seats, rows, lines and columns are 0-based inside; events use 1-based."""

    def __init__(self, players: int, variant: str) -> None:
        self.players = players
        self.variant = variant
        self.bag = {colour: TILES_PER_COLOUR for colour in COLOURS}
        self.lid = {colour: 0 for colour in COLOURS}
        self.factories: list[list[str]] = []
        self.centre: list[str] = []
        self.marker_in_centre = False
        self.marker_holder: int | None = None  # who took the marker this round
        # lines[p][r] = [colour or None, count]; line r holds up to r + 1 tiles
        self.lines = [[[None, 0] for _ in range(5)] for _ in range(players)]
        self.walls = [[[None] * 5 for _ in range(5)] for _ in range(players)]
        self.floors: list[list[str]] = [[] for _ in range(players)]
        self.scores = [0] * players
        self.round_scores: list[list[int]] = []
        self.rounds = 0
        self.starter = 0
        self.turn = 0
        self.phase = BETWEEN_ROUNDS
        self.winners: list[int] = []

    # ----- refill -----

    def refill(self, factories: list[list[str]]) -> None:
        if self.phase == OVER:
            raise _Illegal("the game is over")
        if self.phase != BETWEEN_ROUNDS:
            raise _Illegal("a refill may only open a round")
        if len(factories) != FACTORY_COUNT[self.players]:
            raise _Illegal(
                f"{self.players} players use {FACTORY_COUNT[self.players]} factories, "
                f"the refill has {len(factories)}"
            )
        for number, factory in enumerate(factories, start=1):
            if len(factory) > 4:
                raise _Illegal(f"factory {number} has {len(factory)} tiles, at most 4 fit")
        drawn = count_tiles([tile for factory in factories for tile in factory])
        need = 4 * len(factories)
        in_bag = sum(self.bag.values())
        in_lid = sum(self.lid.values())
        expected = min(need, in_bag + in_lid)
        if sum(drawn.values()) != expected:
            raise _Illegal(
                f"the refill draws {sum(drawn.values())} tiles, bag and lid allow exactly {expected}"
            )
        if in_bag >= need:
            for colour in COLOURS:
                if drawn[colour] > self.bag[colour]:
                    raise _Illegal(f"the bag holds only {self.bag[colour]} {colour}")
            for colour in COLOURS:
                self.bag[colour] -= drawn[colour]
        else:
            # the bag is emptied, the lid's tiles go into it and drawing goes on
            for colour in COLOURS:
                if drawn[colour] < self.bag[colour]:
                    raise _Illegal(f"the bag ran out, so all {self.bag[colour]} {colour} are drawn")
                if drawn[colour] - self.bag[colour] > self.lid[colour]:
                    raise _Illegal(f"bag and lid hold only {self.bag[colour] + self.lid[colour]} {colour}")
            for colour in COLOURS:
                self.bag[colour] = self.bag[colour] + self.lid[colour] - drawn[colour]
                self.lid[colour] = 0
        self.factories = [list(factory) for factory in factories]
        self.centre = []
        self.marker_in_centre = True
        self.marker_holder = None
        self.rounds += 1
        self.turn = self.starter
        self.phase = DRAFTING
        if self.drafting_done():
            self.end_drafting()

    # ----- drafting -----

    def drafting_done(self) -> bool:
        return not self.centre and all(not factory for factory in self.factories)

    def row_has(self, player: int, row: int, colour: str) -> bool:
        wall_row = self.walls[player][row]
        if self.variant == "colored":
            return wall_row[printed_column(colour, row + 1) - 1] is not None
        return colour in wall_row

    def line_problem(self, player: int, row: int, colour: str) -> str | None:
        """Why pattern line row (0-based) cannot take colour, or None if it can."""
        line_colour, count = self.lines[player][row]
        if count == row + 1:
            return f"pattern line {row + 1} is full"
        if line_colour is not None and line_colour != colour:
            return f"pattern line {row + 1} holds {line_colour}"
        if self.row_has(player, row, colour):
            return f"wall row {row + 1} already has {colour}"
        return None

    def source_tiles(self, source: int | str) -> list[str]:
        return self.centre if source == "center" else self.factories[source - 1]

    def take(self, player: int, source: int | str, colour: str, target: int | str) -> None:
        if self.phase == OVER:
            raise _Illegal("the game is over")
        if self.phase == BETWEEN_ROUNDS:
            raise _Illegal("a take before the round's refill")
        if self.phase == TILING:
            raise _Illegal("a take while grey-wall placements are pending")
        if player != self.turn:
            raise _Illegal(f"it is player {self.turn}'s turn, not player {player}'s")
        if source != "center" and not 1 <= source <= len(self.factories):
            raise _Illegal(f"there is no factory {source}")
        tiles = self.source_tiles(source)
        where = "the centre" if source == "center" else f"factory {source}"
        if not tiles:
            raise _Illegal(f"{where} is empty")
        if colour not in tiles:
            raise _Illegal(f"{where} has no {colour}")
        if target != "floor":
            problem = self.line_problem(player, target - 1, colour)
            if problem is not None:
                raise _Illegal(problem)

        taken = tiles.count(colour)
        if source == "center":
            self.centre = [tile for tile in self.centre if tile != colour]
            if self.marker_in_centre:
                self.marker_in_centre = False
                self.marker_holder = player
                if len(self.floors[player]) < FLOOR_PLACES:
                    self.floors[player].append(MARKER)
        else:
            self.centre.extend(tile for tile in tiles if tile != colour)
            self.factories[source - 1] = []

        overflow = taken
        if target != "floor":
            line = self.lines[player][target - 1]
            placed = min(taken, target - line[1])
            line[0] = colour
            line[1] += placed
            overflow = taken - placed
        self.to_floor(player, colour, overflow)

        self.turn = (player + 1) % self.players
        if self.drafting_done():
            self.end_drafting()

    def to_floor(self, player: int, colour: str, count: int) -> None:
        for _ in range(count):
            if len(self.floors[player]) < FLOOR_PLACES:
                self.floors[player].append(colour)
            else:
                self.lid[colour] += 1

    def legal_takes(self) -> list[tuple[int | str, str, int | str]]:
        """Every (source, colour, target) the player to move may choose, in a fixed order."""
        if self.phase != DRAFTING:
            return []
        sources: list[int | str] = [n for n in range(1, len(self.factories) + 1)]
        sources.append("center")
        moves: list[tuple[int | str, str, int | str]] = []
        for source in sources:
            tiles = self.source_tiles(source)
            for colour in COLOURS:
                if colour not in tiles:
                    continue
                for row in range(5):
                    if self.line_problem(self.turn, row, colour) is None:
                        moves.append((source, colour, row + 1))
                moves.append((source, colour, "floor"))
        return moves

    # ----- wall-tiling -----

    def complete_lines(self, player: int) -> list[int]:
        """1-based numbers of the player's complete pattern lines, top to bottom."""
        return [row + 1 for row in range(5) if self.lines[player][row][1] == row + 1]

    def end_drafting(self) -> None:
        if self.variant == "grey":
            self.phase = TILING
            self.finish_tiling_if_done()
            return
        for player in range(self.players):
            for line in self.complete_lines(player):
                colour = self.lines[player][line - 1][0]
                self.put_on_wall(player, line, printed_column(colour, line))
        self.finish_round()

    def put_on_wall(self, player: int, line: int, column: int) -> None:
        colour = self.lines[player][line - 1][0]
        wall = self.walls[player]
        wall[line - 1][column - 1] = colour
        self.scores[player] += tile_points(wall, line - 1, column - 1)
        self.lid[colour] += line - 1
        self.lines[player][line - 1] = [None, 0]

    def place(self, player: int, line: int, column: int) -> None:
        if self.phase == OVER:
            raise _Illegal("the game is over")
        if self.variant != "grey":
            raise _Illegal("place events belong to the grey wall only")
        if self.phase != TILING:
            raise _Illegal("a place outside wall-tiling")
        pending = self.complete_lines(player)
        if line not in pending:
            raise _Illegal(f"player {player}'s pattern line {line} is not complete")
        if line != pending[0]:
            raise _Illegal(f"player {player} must place line {pending[0]} before line {line}")
        wall = self.walls[player]
        if wall[line - 1][column - 1] is not None:
            raise _Illegal(f"wall row {line} column {column} is already taken")
        colour = self.lines[player][line - 1][0]
        if any(wall[r][column - 1] == colour for r in range(5)):
            # Sudoku rule broken: the whole line goes to the floor and scores nothing
            self.lines[player][line - 1] = [None, 0]
            self.to_floor(player, colour, line)
        else:
            self.put_on_wall(player, line, column)
        self.finish_tiling_if_done()

    def finish_tiling_if_done(self) -> None:
        if all(not self.complete_lines(player) for player in range(self.players)):
            self.finish_round()

    def finish_round(self) -> None:
        for player in range(self.players):
            floor = self.floors[player]
            penalty = sum(FLOOR_PENALTIES[: len(floor)])
            self.scores[player] = max(0, self.scores[player] - penalty)
            for item in floor:
                if item != MARKER:
                    self.lid[item] += 1
            self.floors[player] = []
        self.round_scores.append(list(self.scores))
        if self.marker_holder is not None:
            self.starter = self.marker_holder
        if any(complete_rows(wall) > 0 for wall in self.walls):
            self.end_game()
        else:
            self.phase = BETWEEN_ROUNDS

    def end_game(self) -> None:
        for player, wall in enumerate(self.walls):
            self.scores[player] += (
                2 * complete_rows(wall) + 7 * complete_columns(wall) + 10 * complete_colours(wall)
            )
        best = max(self.scores)
        leaders = [p for p in range(self.players) if self.scores[p] == best]
        most_rows = max(complete_rows(self.walls[p]) for p in leaders)
        self.winners = [p for p in leaders if complete_rows(self.walls[p]) == most_rows]
        self.phase = OVER

    def summary(self) -> dict:
        return {
            "format": "azul-summary/1",
            "scores": list(self.scores),
            "winners": list(self.winners),
            "rounds": self.rounds,
            "round_scores": [list(scores) for scores in self.round_scores],
            "over": self.phase == OVER,
        }


# ----- reading a record -----


def check_header(record: object) -> Game:
    if not isinstance(record, dict):
        raise Rejected(None, "a record must be a JSON object")
    if record.get("format") != "azul-record/1":
        raise Rejected(None, f"format must be 'azul-record/1', not {record.get('format')!r}")
    if record.get("game") != "azul":
        raise Rejected(None, f"game must be 'azul', not {record.get('game')!r}")
    variant = record.get("variant")
    if variant not in ("colored", "grey"):
        raise Rejected(None, f"variant must be 'colored' or 'grey', not {variant!r}")
    players = record.get("players")
    if not isinstance(players, list) or not 2 <= len(players) <= 4:
        raise Rejected(None, "players must be a list of 2 to 4 names")
    if not all(isinstance(name, str) for name in players):
        raise Rejected(None, "every player name must be a string")
    if not isinstance(record.get("events"), list):
        raise Rejected(None, "events must be a list")
    return Game(len(players), variant)


def check_colour(value: object) -> str:
    if not isinstance(value, str) or value not in COLOURS:
        raise _Illegal(f"unknown colour {value!r}")
    return value


def check_number(value: object, name: str, low: int, high: int) -> int:
    if not is_number(value) or not low <= value <= high:
        raise _Illegal(f"{name} must be a whole number from {low} to {high}, not {value!r}")
    return value


def check_fields(value: object, kind: str, fields: set[str]) -> dict:
    if not isinstance(value, dict) or set(value) != fields:
        raise _Illegal(f"a {kind} must be an object with exactly the keys {sorted(fields)}")
    return value


def apply_event(game: Game, event: object) -> None:
    if not isinstance(event, dict) or len(event) != 1:
        raise _Illegal("an event must be an object with exactly one key")
    (kind, value), = event.items()
    if kind == "refill":
        if not isinstance(value, list) or not all(isinstance(f, list) for f in value):
            raise _Illegal("a refill must be a list of factories, each a list of colours")
        game.refill([[check_colour(tile) for tile in factory] for factory in value])
    elif kind == "take":
        take = check_fields(value, "take", {"player", "from", "color", "to"})
        player = check_number(take["player"], "player", 0, game.players - 1)
        source = take["from"]
        if source != "center":
            source = check_number(source, "from", 1, FACTORY_COUNT[game.players])
        colour = check_colour(take["color"])
        target = take["to"]
        if target != "floor":
            target = check_number(target, "to", 1, 5)
        game.take(player, source, colour, target)
    elif kind == "place":
        place = check_fields(value, "place", {"player", "line", "column"})
        player = check_number(place["player"], "player", 0, game.players - 1)
        line = check_number(place["line"], "line", 1, 5)
        column = check_number(place["column"], "column", 1, 5)
        game.place(player, line, column)
    else:
        raise _Illegal(f"unknown event {kind!r}")


def replay(record: dict) -> dict:
    """Replay an azul-record/1 and return its azul-summary/1, or raise Rejected."""
    game = check_header(record)
    for index, event in enumerate(record["events"]):
        try:
            apply_event(game, event)
        except _Illegal as problem:
            raise Rejected(index, str(problem)) from None
    return game.summary()


# ----- random games -----


def draw_factories(game: Game, rng: random.Random) -> list[list[str]]:
    """Draw tile by tile as at a table: when the bag runs out, the lid is tipped into it."""
    bag = dict(game.bag)
    lid = dict(game.lid)
    factories: list[list[str]] = []
    for _ in range(FACTORY_COUNT[game.players]):
        factory: list[str] = []
        for _ in range(4):
            if sum(bag.values()) == 0:
                for colour in COLOURS:
                    bag[colour] += lid[colour]
                    lid[colour] = 0
            tiles = [colour for colour in COLOURS for _ in range(bag[colour])]
            if not tiles:
                break
            tile = rng.choice(tiles)
            bag[tile] -= 1
            factory.append(tile)
        factories.append(factory)
    return factories


def random_record(seed: int, players: int, variant: str, max_rounds: int = 30) -> dict:
    """A whole random game (or max_rounds rounds of one) as an azul-record/1 dict."""
    rng = random.Random(seed)
    game = Game(players, variant)
    events: list[dict] = []
    while game.phase != OVER:
        if game.phase == BETWEEN_ROUNDS:
            if game.rounds >= max_rounds:
                break
            factories = draw_factories(game, rng)
            events.append({"refill": factories})
            game.refill(factories)
        elif game.phase == DRAFTING:
            source, colour, target = rng.choice(game.legal_takes())
            player = game.turn
            events.append(
                {"take": {"player": player, "from": source, "color": colour, "to": target}}
            )
            game.take(player, source, colour, target)
        else:
            waiting = [p for p in range(players) if game.complete_lines(p)]
            player = rng.choice(waiting)
            line = game.complete_lines(player)[0]
            free = [c + 1 for c in range(5) if game.walls[player][line - 1][c] is None]
            column = rng.choice(free)
            events.append({"place": {"player": player, "line": line, "column": column}})
            game.place(player, line, column)
    return {
        "format": "azul-record/1",
        "game": "azul",
        "variant": variant,
        "players": [f"P{seat}" for seat in range(players)],
        "events": events,
    }
