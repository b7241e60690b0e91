"""Azul Kids: the apprentice and master sides, 2-4 players (RULES.md section 3).

The state is a :class:`KidsState`. Whoever must act:

- :attr:`KidsState.needs_fill`: a chance event is due. Push a :class:`Fill`, either the
  tiles seen in the bowls at a real table (checked against the bag) or one made by
  :meth:`KidsState.draw_fill` with a random generator the caller passes in.
- otherwise, until :meth:`KidsState.is_over`, seat :attr:`KidsState.turn` takes: the
  :class:`KidsTake` moves in :attr:`KidsState.legal_moves`. One take is the whole turn,
  passing round the table included, so a master take also names the picture chosen by
  every player who received tiles.

Small bowls count 1-5 and the large bowl is ``BIG``; seats count from 0 and play and
passing go to the next seat. Every tile is always in exactly one place: the bag, a bowl,
a board or the discard (out of the game), 30 of each colour.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol

from companion.i18n import _
from companion.rules.errors import IllegalMoveError, InvalidRefillError, RulesError
from companion.rules.kids_board import APPRENTICE, MASTER, SHAPES, SIDES, KidsBoard

COLORS = ("red", "yellow", "green", "blue")
SHAPE_OF = dict(zip(COLORS, SHAPES, strict=True))  # red squares, yellow hexagons, ...
TILES_PER_COLOR = 30
BOWLS = 5
BOWL_SIZE = 5
BIG = "big"
VARIANTS = SIDES
PLAYERS = (2, 3, 4)
STATE_FORMAT = "azul-kids-state/1"


# --- moves and events ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class KidsTake:
    """Take every ``color`` tile from small bowl ``source`` (1-5; the rest go to the large
    bowl) or from ``BIG``, and place them.

    Master side only: ``picture`` is the id of the one picture the taker places on (None when
    their board has no empty field of that shape) and ``passed`` the pictures chosen, in
    seat order, by each following player who received tiles (None for a board without an
    empty field of that shape).
    """

    source: int | str
    color: str
    picture: str | None = None
    passed: tuple[str | None, ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.passed, tuple):
            object.__setattr__(self, "passed", tuple(self.passed))

    def to_json(self) -> dict:
        """The move as a record's take writes it, without the player."""
        data: dict = {"from": self.source, "color": self.color}
        if self.picture is not None or self.passed:
            data["picture"] = self.picture
            data["passed"] = list(self.passed)
        return data

    def __str__(self) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False)


@dataclass(frozen=True, slots=True)
class Fill:
    """The chance event: the tiles put into the 5 small bowls (colour names), bowl 1 first."""

    bowls: tuple[tuple[str, ...], ...]

    def __post_init__(self) -> None:
        bowls = tuple(tuple(bowl) for bowl in self.bowls)
        object.__setattr__(self, "bowls", bowls)

    def __str__(self) -> str:
        return json.dumps({"fill": [list(bowl) for bowl in self.bowls]}, ensure_ascii=False)


Event = KidsTake | Fill


class RandomSource(Protocol):
    """What :meth:`KidsState.draw_fill` needs of a random generator (``random.Random`` fits)."""

    def randrange(self, stop: int, /) -> int: ...


@dataclass(frozen=True, slots=True)
class Placement:
    """Part of a take's outcome: ``seat`` put ``tiles`` on ``picture`` (an index, None if none)."""

    seat: int
    picture: int | None
    tiles: int


@dataclass(frozen=True, slots=True)
class TakeResult:
    """What a take does: the tiles taken, where they went round the table, what was discarded."""

    tiles: int
    placements: tuple[Placement, ...]
    discarded: int
    winner: int | None  # apprentice: the seat whose board this take filled


@dataclass(frozen=True, slots=True)
class PictureView:
    """One picture of a player's board as the display shows it.

    ``filled`` tells, field by field in board order, whether it holds a tile. Fields of one
    shape in one picture are alike to the rules, so the engine counts them and fills the
    first empty ones first.
    """

    id: str
    stars: int
    shapes: tuple[str, ...]
    filled: tuple[bool, ...]

    @property
    def empty(self) -> dict[str, int]:
        """Empty fields by shape (every shape listed, 0 included)."""
        counts = dict.fromkeys(SHAPES, 0)
        for shape, full in zip(self.shapes, self.filled, strict=True):
            if not full:
                counts[shape] += 1
        return counts

    @property
    def complete(self) -> bool:
        return all(self.filled)


@dataclass(frozen=True, slots=True)
class KidsOutcome:
    """The end of a game: winners (shared when more than one), stars, and whether it stalled.

    ``stalled``: an apprentice game in which bag and bowls ran empty before any board was
    full; nobody wins and the table decides what to do.
    """

    winners: tuple[int, ...]
    stars: tuple[int, ...]
    stalled: bool

    @property
    def shared(self) -> bool:
        return len(self.winners) > 1


# --- the state -------------------------------------------------------------------


_Snapshot = tuple[tuple[tuple[int, ...], ...], tuple[int, ...], tuple[int, ...], tuple[int, ...],
                  tuple[tuple[tuple[int, ...], ...], ...], int, int]


class KidsState:
    """The state of a game of Azul Kids, and the only judge of what is legal.

    Colours and shapes are counted in the order of ``COLORS`` (= ``SHAPES``): bowls, bag
    and discard are counts per colour, a board is a count of tiles per picture and shape.
    """

    __slots__ = ("_capacity", "_stack", "bag", "big", "boards", "bowls", "discarded", "fills",
                 "move_stack", "placed", "turn", "variant")

    def __init__(self, variant: str, boards: Sequence[KidsBoard]) -> None:
        if variant not in VARIANTS:
            raise RulesError(_("unknown variant {variant!r} (apprentice or master)").format(
                variant=variant))
        if len(boards) not in PLAYERS:
            raise RulesError(_("Azul Kids is for 2 to 4 players, not {n}").format(n=len(boards)))
        for seat, board in enumerate(boards):
            if board.side != variant:
                raise RulesError(_("seat {seat}'s board {name!r} is for the {side} side, but the game"
                                   " is played on the {variant} side").format(
                    seat=seat, name=board.name, side=board.side, variant=variant))
        self.variant = variant
        self.boards = tuple(boards)
        self._capacity = tuple(tuple(tuple(p.count(s) for s in SHAPES) for p in board.pictures)
                               for board in self.boards)
        self.bowls = [[0] * 4 for _bowl in range(BOWLS)]
        self.big = [0] * 4
        self.bag = [TILES_PER_COLOR] * 4
        self.discarded = [0] * 4
        self.placed = [[[0] * 4 for _pic in board.pictures] for board in self.boards]
        self.turn = 0
        self.fills = 0
        self.move_stack: list[Event] = []
        self._stack: list[_Snapshot] = []

    @property
    def players(self) -> int:
        return len(self.boards)

    # -- copying and serialising --

    def copy(self) -> KidsState:
        """An independent state with the same position and history."""
        state = KidsState.__new__(KidsState)
        state.variant = self.variant
        state.boards = self.boards
        state._capacity = self._capacity
        state._restore(self._snapshot())
        state.move_stack = self.move_stack[:]
        state._stack = self._stack[:]
        return state

    def _snapshot(self) -> _Snapshot:
        return (tuple(tuple(b) for b in self.bowls), tuple(self.big), tuple(self.bag),
                tuple(self.discarded), tuple(tuple(tuple(p) for p in seat) for seat in self.placed),
                self.turn, self.fills)

    def _restore(self, snapshot: _Snapshot) -> None:
        bowls, big, bag, discarded, placed, self.turn, self.fills = snapshot
        self.bowls = [list(b) for b in bowls]
        self.big, self.bag, self.discarded = list(big), list(bag), list(discarded)
        self.placed = [[list(p) for p in seat] for seat in placed]

    def to_dict(self) -> dict:
        """The position as JSON-ready data (the history is the record's business)."""
        return {
            "format": STATE_FORMAT,
            "variant": self.variant,
            "boards": [board.to_json() for board in self.boards],
            "bowls": [_tiles_of(bowl) for bowl in self.bowls],
            "big": _tiles_of(self.big),
            "bag": _counts_to_dict(self.bag),
            "discarded": _counts_to_dict(self.discarded),
            "placed": [{board.pictures[i].id: {SHAPES[s]: n for s, n in enumerate(counts) if n}
                        for i, counts in enumerate(seat) if any(counts)}
                       for board, seat in zip(self.boards, self.placed, strict=True)],
            "turn": self.turn,
            "fills": self.fills,
        }

    @classmethod
    def from_dict(cls, data: object) -> KidsState:
        """The state :meth:`to_dict` wrote; RulesError naming the problem for anything else."""
        if not isinstance(data, dict) or data.get("format") != STATE_FORMAT:
            raise RulesError(_("not an {format} object").format(format=STATE_FORMAT))
        try:
            boards = data["boards"]
            if not isinstance(boards, list):
                raise RulesError(_("boards must be a list"))
            state = cls(data["variant"], [KidsBoard.from_json(b, _("board {seat}").format(seat=seat))
                                          for seat, b in enumerate(boards)])
            bowls = data["bowls"]
            if not isinstance(bowls, list) or len(bowls) != BOWLS:
                raise RulesError(_("bowls must be a list of {n} bowls").format(n=BOWLS))
            state.bowls = [_counts_of(bowl) for bowl in bowls]
            if any(sum(bowl) > BOWL_SIZE for bowl in state.bowls):
                raise RulesError(_("a small bowl holds at most {n} tiles").format(n=BOWL_SIZE))
            state.big = _counts_of(data["big"])
            state.bag = _counts_from_dict(data["bag"], "bag")
            state.discarded = _counts_from_dict(data["discarded"], "discarded")
            state.placed = state._placed_from(data["placed"])
            turn, fills = data["turn"], data["fills"]
        except KeyError as error:
            raise RulesError(_("{format} lacks {key!r}").format(
                format=STATE_FORMAT, key=error.args[0])) from None
        if not _is_int(turn) or not 0 <= turn < state.players:
            raise RulesError(_("turn must be a seat 0-{last}, not {found!r}").format(
                last=state.players - 1, found=turn))
        if not _is_int(fills) or fills < 0:
            raise RulesError(_("fills must be a whole number 0 or more, not {found!r}").format(
                found=fills))
        state.turn, state.fills = turn, fills
        for color, count in zip(COLORS, state.tiles_in_play(), strict=True):
            if count != TILES_PER_COLOR:
                raise RulesError(_("{count} {color} tiles in the state; the game has {n}").format(
                    count=count, color=color, n=TILES_PER_COLOR))
        if state.variant == APPRENTICE and sum(map(state.is_full, range(state.players))) > 1:
            raise RulesError(_("more than one full apprentice board; the first one ends the game"))
        return state

    def _placed_from(self, data: object) -> list[list[list[int]]]:
        if not isinstance(data, list) or len(data) != self.players:
            raise RulesError(_("placed must be a list with one entry per seat"))
        placed = []
        for seat, (board, pictures) in enumerate(zip(self.boards, data, strict=True)):
            counts = [[0] * 4 for _pic in board.pictures]
            if not isinstance(pictures, dict):
                raise RulesError(_("placed: seat {seat} is not an object").format(seat=seat))
            for picture_id, shapes in pictures.items():
                index = _picture_index(board, picture_id)
                if index is None or not isinstance(shapes, dict):
                    raise RulesError(_("placed: seat {seat} has no picture {id!r}").format(
                        seat=seat, id=picture_id))
                for shape, n in shapes.items():
                    if shape not in SHAPES:
                        raise RulesError(_("unknown shape {found!r} (shapes: {shapes})").format(
                            found=shape, shapes=", ".join(SHAPES)))
                    s = SHAPES.index(shape)
                    if not _is_int(n) or not 0 <= n <= self._capacity[seat][index][s]:
                        raise RulesError(_("placed: seat {seat}'s picture {id!r} cannot hold {n!r}"
                                           " {shape} tiles").format(
                            seat=seat, id=picture_id, n=n, shape=shape))
                    counts[index][s] = n
            placed.append(counts)
        return placed

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, KidsState):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        state = ("over" if self.is_over() else "fill due" if self.needs_fill
                 else f"turn {self.turn}")
        return f"<KidsState {self.players}p {self.variant} fills {self.fills} {state}>"

    # -- where things stand --

    def tiles_in_play(self) -> list[int]:
        """Count of each colour in bag, bowls, boards and discard: always 30."""
        counts = [a + b + c for a, b, c in zip(self.bag, self.big, self.discarded, strict=True)]
        for place in [*self.bowls, *(p for seat in self.placed for p in seat)]:
            for color, n in enumerate(place):
                counts[color] += n
        return counts

    def bowls_empty(self) -> bool:
        return not any(self.big) and not any(any(bowl) for bowl in self.bowls)

    @property
    def needs_fill(self) -> bool:
        """True while a :class:`Fill` must come before anyone can take."""
        if not self.bowls_empty() or not any(self.bag) or self._someone_full():
            return False
        return self.variant == APPRENTICE or self.fills < self.players

    def fill_sizes(self) -> tuple[int, ...]:
        """How many tiles the next fill puts in each bowl: 5 each, in order, while the bag lasts."""
        left = sum(self.bag)
        sizes = []
        for _bowl in range(BOWLS):
            sizes.append(min(BOWL_SIZE, left))
            left -= sizes[-1]
        return tuple(sizes)

    def is_over(self) -> bool:
        """Apprentice: a board is full, or bag and bowls are empty (a stall).
        Master: the bowls are empty and have been filled once per player (or the bag is out)."""
        if self._someone_full():
            return True
        if not self.bowls_empty():
            return False
        if not any(self.bag):
            return True
        return self.variant == MASTER and self.fills >= self.players

    @property
    def stalled(self) -> bool:
        """An apprentice game that cannot finish: bag and bowls empty, no board full."""
        return (self.variant == APPRENTICE and self.bowls_empty() and not any(self.bag)
                and not self._someone_full())

    def outcome(self) -> KidsOutcome | None:
        """Winners and stars once the game is over, else None."""
        if not self.is_over():
            return None
        stars = tuple(self.stars(seat) for seat in range(self.players))
        if self.variant == APPRENTICE:
            winners = tuple(seat for seat in range(self.players) if self.is_full(seat))
        else:
            winners = tuple(seat for seat in range(self.players) if stars[seat] == max(stars))
        return KidsOutcome(winners, stars, self.stalled)

    def _someone_full(self) -> bool:
        return self.variant == APPRENTICE and any(map(self.is_full, range(self.players)))

    def is_full(self, seat: int) -> bool:
        """Every field of ``seat``'s board holds a tile."""
        return not any(self.empty_fields(seat).values())

    def empty_fields(self, seat: int) -> dict[str, int]:
        """``seat``'s empty fields by shape, all pictures together (every shape listed)."""
        counts = dict.fromkeys(SHAPES, 0)
        for capacity, placed in zip(self._capacity[seat], self.placed[seat], strict=True):
            for s, shape in enumerate(SHAPES):
                counts[shape] += capacity[s] - placed[s]
        return counts

    def pictures(self, seat: int) -> tuple[PictureView, ...]:
        """``seat``'s pictures with the fields that hold tiles, for the display."""
        views = []
        for picture, placed in zip(self.boards[seat].pictures, self.placed[seat], strict=True):
            left = dict(zip(SHAPES, placed, strict=True))
            filled = []
            for f in picture.fields:
                filled.append(left[f.shape] > 0)
                left[f.shape] -= 1
            views.append(PictureView(picture.id, picture.stars,
                                     tuple(f.shape for f in picture.fields), tuple(filled)))
        return tuple(views)

    def complete_pictures(self, seat: int) -> tuple[str, ...]:
        """Ids of ``seat``'s pictures with every field filled."""
        return tuple(p.id for p, capacity, placed in zip(
            self.boards[seat].pictures, self._capacity[seat], self.placed[seat], strict=True)
                     if list(capacity) == placed)

    def stars(self, seat: int) -> int:
        """Stars of ``seat``'s complete pictures (apprentice pictures are worth 0)."""
        done = set(self.complete_pictures(seat))
        return sum(p.stars for p in self.boards[seat].pictures if p.id in done)

    # -- what may happen now --

    def generate_legal_moves(self) -> list[KidsTake]:
        """Every legal take for the seat to move (empty while a fill is due or at the end)."""
        if self.needs_fill or self.is_over():
            return []
        moves = []
        for source, counts in self._sources():
            for c, color in enumerate(COLORS):
                if not counts[c]:
                    continue
                if self.variant == APPRENTICE:
                    moves.append(KidsTake(source, color))
                else:
                    for picture, *passed in self._choices(c, counts[c]):
                        moves.append(KidsTake(source, color, picture, tuple(passed)))
        return moves

    @property
    def legal_moves(self) -> KidsLegalMoves:
        return KidsLegalMoves(self)

    def is_legal(self, move: object) -> bool:
        try:
            self.result(move)  # type: ignore[arg-type]
        except IllegalMoveError:
            return False
        return True

    def _sources(self) -> Iterator[tuple[int | str, list[int]]]:
        for number, bowl in enumerate(self.bowls, 1):
            if any(bowl):
                yield number, bowl
        if any(self.big):
            yield BIG, self.big

    def _options(self, seat: int, s: int) -> list[tuple[str | None, int]]:
        """The pictures ``seat`` may choose for tiles of shape index ``s``, with their room."""
        board = self.boards[seat]
        options: list[tuple[str | None, int]] = [
            (p.id, capacity[s] - placed[s])
            for p, capacity, placed in zip(board.pictures, self._capacity[seat], self.placed[seat],
                                           strict=True)
            if capacity[s] > placed[s]]
        return options or [(None, 0)]

    def _choices(self, s: int, tiles: int) -> list[tuple[str | None, ...]]:
        """Master: every sequence of picture choices, taker first, for ``tiles`` of shape ``s``."""
        found: list[tuple[str | None, ...]] = []

        def walk(offset: int, left: int, chosen: tuple[str | None, ...]) -> None:
            if left == 0 or offset == self.players:
                found.append(chosen)
                return
            for picture, room in self._options((self.turn + offset) % self.players, s):
                walk(offset + 1, left - min(left, room), (*chosen, picture))

        walk(0, tiles, ())
        return found

    def result(self, move: KidsTake) -> TakeResult:
        """What ``move`` would do, without doing it; IllegalMoveError quoting it and the reason."""
        refusal = self._refusal(move)
        if isinstance(refusal, str):
            raise IllegalMoveError(_("illegal take {move}: {reason}").format(move=move, reason=refusal))
        return refusal

    def _refusal(self, move: object) -> str | TakeResult:
        """Why ``move`` is illegal, or the result it has."""
        if not isinstance(move, KidsTake):
            return _("not a take")
        if self.is_over():
            return _("the game is over")
        if self.needs_fill:
            return _("the bowls are empty; a fill comes first")
        source, color = move.source, move.color
        if source == BIG:
            counts = self.big
        elif _is_int(source) and 1 <= source <= BOWLS:  # type: ignore[operator]
            counts = self.bowls[source - 1]  # type: ignore[operator]
        else:
            return _("a take comes from small bowl 1-5 or \"big\", not {source!r}").format(source=source)
        if color not in COLORS:
            return _("unknown colour {color!r} (colours: {colors})").format(
                color=color, colors=", ".join(COLORS))
        c = COLORS.index(color)
        where = _("the large bowl") if source == BIG else _("bowl {n}").format(n=source)
        if not counts[c]:
            return _("{where} holds no {color} tile").format(where=where, color=color)
        if self.variant == APPRENTICE:
            if move.picture is not None or move.passed:
                return _("on the apprentice side tiles go anywhere they fit; a take names no picture")
            return self._place_apprentice(c, counts[c])
        return self._place_master(move, c, counts[c])

    def _place_apprentice(self, s: int, tiles: int) -> TakeResult:
        placements = []
        left = tiles
        for offset in range(self.players):
            if not left:
                break
            seat = (self.turn + offset) % self.players
            empty = self.empty_fields(seat)
            put = min(left, empty[SHAPES[s]])
            placements.append(Placement(seat, 0 if put else None, put))
            left -= put
            if put and sum(empty.values()) == put:
                # The first full board wins at once: what is still in hand leaves the game.
                return TakeResult(tiles, tuple(placements), left, seat)
        return TakeResult(tiles, tuple(placements), left, None)

    def _place_master(self, move: KidsTake, s: int, tiles: int) -> str | TakeResult:
        shape = SHAPES[s]
        choices = (move.picture, *move.passed)
        placements = []
        left = tiles
        for offset in range(self.players):
            if not left:
                break
            seat = (self.turn + offset) % self.players
            if offset >= len(choices):
                return _("seat {seat} received {n} tiles but passed names no picture for them").format(
                    seat=seat, n=left)
            choice = choices[offset]
            if choice is not None and not isinstance(choice, str):
                return _("a picture is named by its id (a text) or null, not {choice!r}").format(
                    choice=choice)
            options = dict(self._options(seat, s))
            if choice not in options:
                if None in options:
                    return _("seat {seat}'s board has no empty {shape} field, so its choice is null,"
                             " not {choice!r}").format(seat=seat, shape=shape, choice=choice)
                if choice is None:
                    return _("seat {seat} must choose a picture: {ids} have an empty {shape}"
                             " field").format(seat=seat, ids=", ".join(map(repr, options)), shape=shape)
                if _picture_index(self.boards[seat], choice) is None:
                    return _("seat {seat}'s board has no picture {choice!r}").format(
                        seat=seat, choice=choice)
                return _("seat {seat}'s picture {choice!r} has no empty {shape} field, but {ids}"
                         " {have}").format(seat=seat, choice=choice, shape=shape,
                                           ids=", ".join(map(repr, options)),
                                           have=_("has") if len(options) == 1 else _("have"))
            put = min(left, options[choice])
            index = None if choice is None else _picture_index(self.boards[seat], choice)
            placements.append(Placement(seat, index, put))
            left -= put
        if len(choices) > len(placements):
            return _("{n} players received tiles, but picture and passed name {k} choices").format(
                n=len(placements), k=len(choices))
        return TakeResult(tiles, tuple(placements), left, None)

    # -- making it happen --

    def push(self, event: Event) -> TakeResult | None:
        """Apply a take or a fill after checking it; IllegalMoveError / InvalidRefillError else.

        A take returns its :class:`TakeResult` (where the tiles went); a fill returns None.
        """
        if isinstance(event, Fill):
            counts = self._check_fill(event)
            self._stack.append(self._snapshot())
            self.move_stack.append(event)
            for bowl, bowl_counts in zip(self.bowls, counts, strict=True):
                for c, n in enumerate(bowl_counts):
                    bowl[c] += n
                    self.bag[c] -= n
            self.fills += 1
            return None
        result = self.result(event)
        self._stack.append(self._snapshot())
        self.move_stack.append(event)
        c = COLORS.index(event.color)
        if event.source == BIG:
            self.big[c] = 0
        else:
            bowl = self.bowls[event.source - 1]  # type: ignore[operator]
            bowl[c] = 0
            for other, n in enumerate(bowl):
                self.big[other] += n
                bowl[other] = 0
        for placement in result.placements:
            if placement.tiles:
                self.placed[placement.seat][placement.picture][c] += placement.tiles  # type: ignore[index]
        self.discarded[c] += result.discarded
        self.turn = (self.turn + 1) % self.players
        return result

    def pop(self) -> Event:
        """Undo the last event and return it."""
        if not self.move_stack:
            raise IndexError(_("nothing to undo"))
        self._restore(self._stack.pop())
        return self.move_stack.pop()

    def _check_fill(self, fill: Fill) -> list[list[int]]:
        def refuse(reason: str) -> InvalidRefillError:
            return InvalidRefillError(_("invalid fill {fill}: {reason}").format(fill=fill, reason=reason))

        if not self.needs_fill:
            raise refuse(_("the game is over") if self.is_over()
                         else _("the bowls are filled only when all six are empty"))
        if len(fill.bowls) != BOWLS:
            raise refuse(_("a fill lists {n} small bowls, not {found}").format(
                n=BOWLS, found=len(fill.bowls)))
        counts = []
        for number, (bowl, size) in enumerate(zip(fill.bowls, self.fill_sizes(), strict=True), 1):
            for color in bowl:
                if color not in COLORS:
                    raise refuse(_("unknown colour {color!r} in bowl {n}").format(color=color, n=number))
            if len(bowl) != size:
                raise refuse(_("bowl {n} gets {size} tiles, not {found}: with {bag} in the bag the"
                               " bowls get 5 each in order and the last the rest").format(
                    n=number, size=size, found=len(bowl), bag=sum(self.bag)))
            counts.append([bowl.count(color) for color in COLORS])
        for c, color in enumerate(COLORS):
            wanted = sum(bowl[c] for bowl in counts)
            if wanted > self.bag[c]:
                raise refuse(_("{wanted} {color} tiles, but the bag holds only {n}").format(
                    wanted=wanted, color=color, n=self.bag[c]))
        return counts

    def draw_fill(self, rng: RandomSource) -> Fill:
        """A fill drawn from the bag with ``rng`` (anything with ``randrange``)."""
        if not self.needs_fill:
            raise IllegalMoveError(_("no fill is due now"))
        bag = self.bag[:]
        bowls = []
        for size in self.fill_sizes():
            bowl = []
            for _tile in range(size):
                k = rng.randrange(sum(bag))
                c = 0
                while k >= bag[c]:
                    k -= bag[c]
                    c += 1
                bag[c] -= 1
                bowl.append(COLORS[c])
            bowls.append(tuple(bowl))
        return Fill(tuple(bowls))


class KidsLegalMoves:
    """A view of the legal takes: iterate it, ``len()`` it, or ask ``move in``."""

    __slots__ = ("_state",)

    def __init__(self, state: KidsState) -> None:
        self._state = state

    def __iter__(self) -> Iterator[KidsTake]:
        return iter(self._state.generate_legal_moves())

    def __len__(self) -> int:
        return len(self._state.generate_legal_moves())

    def count(self) -> int:
        return len(self)

    def __contains__(self, move: object) -> bool:
        return self._state.is_legal(move)

    def __bool__(self) -> bool:
        return bool(self._state.generate_legal_moves())

    def __repr__(self) -> str:
        return f"<KidsLegalMoves ({', '.join(str(m) for m in self)})>"


# --- helpers ---------------------------------------------------------------------


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _picture_index(board: KidsBoard, picture_id: object) -> int | None:
    for index, picture in enumerate(board.pictures):
        if picture.id == picture_id:
            return index
    return None


def _counts_to_dict(counts: list[int]) -> dict[str, int]:
    return dict(zip(COLORS, counts, strict=True))


def _counts_from_dict(data: object, what: str) -> list[int]:
    if (not isinstance(data, dict) or set(data) != set(COLORS)
            or not all(_is_int(n) and n >= 0 for n in data.values())):
        raise RulesError(_("{what} must give a count 0 or more for each of {colors}").format(
            what=what, colors=", ".join(COLORS)))
    return [data[color] for color in COLORS]


def _tiles_of(counts: list[int]) -> list[str]:
    return [color for color, n in zip(COLORS, counts, strict=True) for _n in range(n)]


def _counts_of(tiles: object) -> list[int]:
    if not isinstance(tiles, list) or not all(t in COLORS for t in tiles):
        raise RulesError(_("a bowl is a list of colours ({colors}), not {found!r}").format(
            colors=", ".join(COLORS), found=tiles))
    return [tiles.count(color) for color in COLORS]

