"""The Azul Kids tracker: keeps the Kids rules engine in step with the table the camera sees.

The same contract as the base-game tracker (tracker-contract.md): ``observe`` one
``azul-kids-observation/1`` (docs/kids-observation.md) or ``act`` on one of ``ACTIONS``;
each returns what happened (:class:`Accepted`, :class:`Prompt`, :class:`Warning`).

Frames make a stable view: for every place (a field of a picture, a bowl) the value a
majority of the last ``stable_frames`` non-occluded frames agree on; a place without one
is unknown and counts neither way. The view is then compared with what the engine
predicts:

- when a fill is due, the bowls are read: once each holds as many tiles as the fill
  puts there (5, or what the bag has left), the tiles are the fill, checked against
  the bag;
- otherwise every legal take (master: with every choice of picture, the taker's and
  those of the players tiles are passed to) predicts the boards and bowls after it. Boards
  are compared picture by picture as tiles of each colour, so a tile may lie on any field
  of its shape. The take that explains the view clearly best is accepted; when two explain
  it about equally the table is asked (:class:`Prompt`; Next/Previous and Confirm pick one).
  A view that only part of a take explains (tiles still in hand, not yet passed on) is
  waited for.
- a tile on a field of another shape is a :class:`Warning` ("wrong-shape") pointing at it;
  nothing is accepted until it is moved.

Every accepted event goes to the sink first (``append(event_json)``, durable when it
returns: a :class:`~companion.store.GameStore`) and only then to the record, so the record
never holds an event the sink does not; Undo takes the last one back the same way (the
sink's ``undo()`` first) and the tracker then asks before it takes that event again.

``enter(event)`` records what a person says happened, asked or not (the display's "none of
these"); an event that is not legal now is refused with a :class:`Warning` ("refused").
"""

from __future__ import annotations

import dataclasses
import logging
import math
from collections import Counter, deque
from dataclasses import dataclass, field

from companion.i18n import _
from companion.rules.errors import RulesError
from companion.rules.kids import BIG, BOWLS, COLORS, SHAPE_OF, Fill, KidsState, KidsTake
from companion.rules.kids_record import KidsRecord, PlayerTake, event_to_json, replay

log = logging.getLogger(__name__)

ACTIONS = ("confirm", "next", "previous", "undo", "menu")

# Costs count tiles: a field of the view that disagrees, a tile too many or too few in a bowl.
GAIN = 1.5  # a take must explain this much more than "nothing happened" to be accepted alone
GAIN_ASK = 1.0  # ... and this much to be worth a question
MARGIN = 1.5  # the best take must be this much closer than the next one to be taken without asking
LOCAL = 1.0  # the best take may disagree with the view this much and still be taken alone
FAR = 4.0  # beyond this a question would only guess: the table gets a warning instead
PERSIST = 2  # frames a question or a warning must stand before it is put to the table
CHOICES = 6  # candidates a question offers at most
STALL = 40  # frames without progress before the table is told the tracker is stuck
MIN_CONFIDENCE = 0.5  # a field read less surely than this counts as unknown
EMPTY = "empty"
SOURCES = (*range(1, BOWLS + 1), BIG)

Counts = tuple[int, ...]
Event = KidsTake | Fill


@dataclass(frozen=True)
class Accepted:
    """An event was appended to the record."""

    event: Event
    player: int | None  # the seat of a take, None for a fill
    auto: bool  # True: accepted without asking


@dataclass(frozen=True)
class Prompt:
    """The tracker asks the table to pick one candidate."""

    candidates: tuple[Event, ...]  # best first
    selected: int  # index of the highlighted candidate (Next/Previous move it)
    player: int | None  # whose take it is about (None: a fill)


@dataclass(frozen=True)
class Warning:
    """A physical mistake or a problem the table must fix."""

    code: str  # "wrong-shape", "impossible-fill", "no-legal-take", "unreadable", "stalled", "refused"
    message: str  # already translated, plain words
    where: dict = field(default_factory=dict)  # {"board": 1, "picture": "whale", "field": 2}, {"bowl": 3}


Result = Accepted | Prompt | Warning


def canonical(event: Event) -> Event:
    """``event`` as the tracker writes it: a bowl's tiles have no order, so a fill lists
    each bowl's tiles in COLORS order (a take is itself)."""
    if isinstance(event, Fill):
        return Fill(tuple(tuple(sorted(bowl, key=COLORS.index)) for bowl in event.bowls))
    return event


# --- the stable view ---------------------------------------------------------------


@dataclass(frozen=True)
class KidsView:
    """What the frames agree on: ``fields[seat][picture][field]`` a colour, EMPTY or None
    (unknown); ``bowls`` bowls 1-5 then the big one, each counts per colour or None."""

    fields: tuple[tuple[tuple[str | None, ...], ...], ...]
    bowls: tuple[Counts | None, ...]


class FrameError(ValueError):
    """An observation that is not a readable ``azul-kids-observation/1``."""


def read_frame(observation: object, game: KidsState) -> tuple[bool, dict]:
    """(occluded, places) of one frame: every place keyed, with its value or None (unknown).

    FrameError when the frame is not an observation or shows another number of boards.
    """
    if not isinstance(observation, dict) or observation.get("format") != "azul-kids-observation/1":
        raise FrameError(_("not an azul-kids-observation/1 object"))
    boards, bowls = observation.get("boards"), observation.get("bowls")
    if not isinstance(boards, list) or not isinstance(bowls, list):
        raise FrameError(_("boards and bowls must be lists"))
    if observation.get("occluded"):
        return True, {}
    if len(boards) != game.players:
        raise FrameError(
            _("I see {seen} boards, but this game has {players} players.").format(
                seen=len(boards), players=game.players
            )
        )
    places: dict = {}
    for seat, (board, seen) in enumerate(zip(game.boards, boards, strict=True)):
        pictures = seen.get("pictures") if isinstance(seen, dict) else None
        by_id = (
            {p.get("id"): p for p in pictures if isinstance(p, dict)} if isinstance(pictures, list) else {}
        )
        for p, picture in enumerate(board.pictures):
            read = by_id.get(picture.id, {})
            values = read.get("fields")
            sure = read.get("confidence")
            if not isinstance(values, list) or len(values) != len(picture.fields):
                values = [None] * len(picture.fields)
                sure = [0.0] * len(picture.fields)
            if not isinstance(sure, list) or len(sure) != len(values):
                sure = [1.0] * len(values)
            for f, (value, confidence) in enumerate(zip(values, sure, strict=True)):
                known = isinstance(confidence, int | float) and confidence >= MIN_CONFIDENCE
                if value is None and known:
                    places[(seat, p, f)] = EMPTY
                elif value in COLORS and known:
                    places[(seat, p, f)] = value
                else:
                    places[(seat, p, f)] = None
    by_number = {b.get("bowl"): b for b in bowls if isinstance(b, dict)}
    for source in SOURCES:
        bowl = by_number.get(source)
        places[source] = _bowl_counts(bowl) if bowl is not None else None
    return False, places


def _bowl_counts(bowl: dict) -> Counts | None:
    tiles = bowl.get("tiles")
    if bowl.get("occluded") or bowl.get("unknown") or not isinstance(tiles, dict):
        return None
    if any(color not in COLORS or not isinstance(n, int) or n < 0 for color, n in tiles.items()):
        return None
    return tuple(tiles.get(color, 0) for color in COLORS)


class StableView:
    """The last ``frames`` non-occluded frames' places, and the value each place's majority shows."""

    def __init__(self, frames: int = 3) -> None:
        if frames < 1:
            raise ValueError("frames must be at least 1")
        self.frames = frames
        self.need = frames // 2 + 1
        self._window: deque[dict] = deque(maxlen=frames)

    @property
    def full(self) -> bool:
        return len(self._window) == self.frames

    def add(self, places: dict) -> None:
        self._window.append(places)

    def view(self, game: KidsState) -> KidsView:
        def majority(key: object) -> object:
            known = [frame.get(key) for frame in self._window if frame.get(key) is not None]
            if not known:
                return None
            value, votes = Counter(known).most_common(1)[0]
            return value if votes >= self.need else None

        fields = tuple(
            tuple(
                tuple(majority((seat, p, f)) for f in range(len(picture.fields)))
                for p, picture in enumerate(board.pictures)
            )
            for seat, board in enumerate(game.boards)
        )
        return KidsView(fields, tuple(majority(source) for source in SOURCES))  # type: ignore[misc]


# --- what the engine predicts -----------------------------------------------------


@dataclass(frozen=True)
class _Table:
    """A predicted table: tiles per colour on each touched picture, and every bowl."""

    pictures: tuple[tuple[tuple[int, int], Counts], ...]  # ((seat, picture), counts), touched only
    bowls: tuple[Counts, ...]  # bowls 1-5, big


@dataclass(frozen=True)
class _Option:
    cost: float
    move: KidsTake
    complete: bool  # False: the tiles are still being passed round (part of the take seen)


def _picture_cost(view: tuple[str | None, ...], predicted: Counts) -> float:
    """How far a picture's fields, as seen, are from holding ``predicted`` tiles per colour."""
    seen = [0] * len(COLORS)
    unknown = 0
    for value in view:
        if value is None:
            unknown += 1
        elif value != EMPTY:
            seen[COLORS.index(value)] += 1
    over = sum(max(0, s - p) for s, p in zip(seen, predicted, strict=True))
    short = sum(max(0, p - s) for s, p in zip(seen, predicted, strict=True))
    return over + max(0, short - unknown)


def _bowl_cost(view: Counts | None, predicted: Counts) -> float:
    if view is None:
        return 0.0
    return float(sum(abs(v - p) for v, p in zip(view, predicted, strict=True)))


class _Predictions:
    """The engine's state, the tables every legal take leads to, and their costs against a view."""

    def __init__(self, game: KidsState) -> None:
        self.game = game
        self.placed = {
            (seat, p): tuple(counts)
            for seat, pictures in enumerate(game.placed)
            for p, counts in enumerate(pictures)
        }
        self.bowls = (*(tuple(b) for b in game.bowls), tuple(game.big))
        self.tables: list[tuple[KidsTake, _Table, bool]] = []
        if not game.needs_fill and not game.is_over():
            for move in game.generate_legal_moves():
                self.tables.extend(self._tables(move))

    def _tables(self, move: KidsTake) -> list[tuple[KidsTake, _Table, bool]]:
        game = self.game
        result = game.result(move)
        c = COLORS.index(move.color)
        bowls = [list(b) for b in self.bowls]
        source = bowls[-1] if move.source == BIG else bowls[move.source - 1]  # type: ignore[operator]
        source[c] = 0
        if move.source != BIG:
            for other, n in enumerate(source):
                bowls[-1][other] += n
                source[other] = 0
        after = tuple(tuple(b) for b in bowls)
        placements = [p for p in result.placements if p.tiles]
        out = []
        pictures: list[tuple[tuple[int, int], Counts]] = []
        # Every stage of the passing round: tiles in hand, then each seat's placing.
        for done in range(len(placements) + 1):
            out.append((move, _Table(tuple(pictures), after), done == len(placements)))
            if done < len(placements):
                p = placements[done]
                key = (p.seat, p.picture)
                counts = list(self.placed[key])  # type: ignore[index]
                counts[c] += p.tiles
                pictures.append((key, tuple(counts)))  # type: ignore[arg-type]
        return out

    def costs(self, view: KidsView) -> tuple[float, list[_Option]]:
        """The cost of "nothing happened" and of every take (complete or part-way), best first."""
        picture_null = {
            key: _picture_cost(view.fields[key[0]][key[1]], counts) for key, counts in self.placed.items()
        }
        bowl_null = [_bowl_cost(v, p) for v, p in zip(view.bowls, self.bowls, strict=True)]
        null = sum(picture_null.values()) + sum(bowl_null)
        options = []
        boards = null - sum(bowl_null)
        for move, table, complete in self.tables:
            cost = boards + sum(_bowl_cost(v, p) for v, p in zip(view.bowls, table.bowls, strict=True))
            for key, counts in table.pictures:
                cost += _picture_cost(view.fields[key[0]][key[1]], counts) - picture_null[key]
            options.append(_Option(cost, move, complete))
        options.sort(key=lambda o: (o.cost, not o.complete))
        return null, options


# --- the tracker -------------------------------------------------------------------


@dataclass
class _Decision:
    """What the tracker makes of a view: nothing changed, wait, ask, or warn."""

    kind: str  # "none", "wait", "ask", "warn"
    key: object = None
    candidates: tuple[Event, ...] = ()
    player: int | None = None
    warnings: tuple[Warning, ...] = ()


class KidsTracker:
    """Follows one game of Azul Kids from frames and table inputs (see the module doc)."""

    def __init__(self, record: KidsRecord, sink: object = None, *, stable_frames: int = 3) -> None:
        self.record = record
        self.game: KidsState = replay(record)
        self.sink = sink
        self.prompt: Prompt | None = None
        self.warnings: tuple[Warning, ...] = ()
        self.last: Accepted | None = None
        self.asked = 0  # events confirmed by a person
        self.auto = 0  # events accepted without asking
        self.warned = 0  # warnings reported
        self._stable = StableView(stable_frames)
        self._view: KidsView | None = None
        self._decision: _Decision | None = None
        self._streak = 0
        self._committed = False
        self._suspect: Event | None = None  # just undone: never taken again without asking
        self._predictions: _Predictions | None = None
        self._bad_frames = 0
        self._frames = 0
        self._changed_at = 0
        self._stalled = False

    # --- inputs ----------------------------------------------------------------------

    def observe(self, observation: dict) -> list[Result]:
        """One ``azul-kids-observation/1`` frame; what it led to."""
        try:
            occluded, places = read_frame(observation, self.game)
        except FrameError as error:
            self._bad_frames += 1
            if self._bad_frames < PERSIST:
                return []
            return self._set_warnings((Warning("unreadable", str(error)),))
        if occluded:
            return []
        if self._bad_frames:
            self._bad_frames = 0
            self._set_warnings(tuple(w for w in self.warnings if w.code != "unreadable"))
        self._stable.add(places)
        self._frames += 1
        if not self._stable.full:
            return []
        results: list[Result] = []
        view = self._stable.view(self.game)
        if view != self._view or (self._decision is not None and self._decision.kind == "wait"):
            self._view = view
            results += self._settle()
        return results + self._advance()

    def act(self, action: str) -> list[Result]:
        """One input from the table: confirm, next, previous, undo or menu."""
        if action not in ACTIONS:
            raise ValueError(
                _("unknown action {action!r}; one of {actions}").format(
                    action=action, actions=", ".join(ACTIONS)
                )
            )
        if action == "undo":
            return self._undo()
        prompt = self.prompt
        if prompt is None or action == "menu":
            return []
        if action in ("next", "previous"):
            step = 1 if action == "next" else -1
            self.prompt = Prompt(
                prompt.candidates, (prompt.selected + step) % len(prompt.candidates), prompt.player
            )
            return [self.prompt]
        return self._confirm(prompt.candidates[prompt.selected])

    def enter(self, event: Event) -> list[Result]:
        """What a person says happened, asked or not: the display's "none of these".

        The event must be legal now (the due fill, checked against the bag, or a take by
        the player to move); otherwise nothing changes and a warning says why.
        """
        event = canonical(event)
        try:
            self.game.copy().push(event)
        except RulesError as error:
            return self._set_warnings((Warning("refused", _(
                "That cannot have happened here: {reason}").format(reason=error)),))
        return self._confirm(event)

    # --- deciding --------------------------------------------------------------------

    def _settle(self) -> list[Result]:
        """Accept every event the view makes clear, then remember what is left to decide."""
        out: list[Result] = []
        for _step in range(8):
            if self.game.is_over() or self._view is None:
                self._decision = None
                break
            decision = self._decide(self._view)
            if isinstance(decision, Accepted):
                out.append(decision)
                continue
            if self._decision is None or decision.key != self._decision.key:
                self._decision, self._streak, self._committed = decision, 0, False
            else:
                self._decision = decision
            break
        return out

    def _advance(self) -> list[Result]:
        """Count one more frame for the pending decision; put it to the table once it stands."""
        out: list[Result] = []
        decision = self._decision
        if (
            not self._stalled
            and self._frames - self._changed_at >= STALL
            and decision is not None
            and decision.kind != "none"
            and not self.game.is_over()
        ):
            self._stalled = True
            out += self._set_warnings(
                (
                    *self.warnings,
                    Warning(
                        "stalled", _("I cannot follow the table: check the tiles, or confirm the last move.")
                    ),
                )
            )
        if decision is None or decision.kind == "wait":
            return out
        self._streak += 1
        if self._committed or self._streak < PERSIST:
            return out
        self._committed = True
        if decision.kind == "none":
            # The table matches the engine again: a mistake was put right, a question lapsed.
            self.warnings = ()
            self.prompt = None
            return out
        if decision.kind == "warn":
            out += self._set_warnings(decision.warnings)
        if decision.candidates:
            # A warning's candidates let a person override it by confirming a take.
            if self.prompt is None or self.prompt.candidates != decision.candidates:
                self.prompt = Prompt(decision.candidates, 0, decision.player)
                out.append(self.prompt)
        else:
            self.prompt = None
        return out

    def _decide(self, view: KidsView) -> _Decision | Accepted:
        wrong = self._wrong_shapes(view)
        if wrong:
            return _Decision(
                "warn",
                ("wrong", self._version, tuple(tuple(sorted(w.where.items())) for w in wrong)),
                warnings=wrong,
            )
        if self.game.needs_fill:
            return self._decide_fill(view)
        return self._decide_take(view)

    def _decide_fill(self, view: KidsView) -> _Decision | Accepted:
        game = self.game
        sizes = game.fill_sizes()
        bowls = view.bowls[:BOWLS]
        if any(b is None for b in bowls):
            return _Decision("wait")
        totals = [sum(b) for b in bowls]  # type: ignore[arg-type]
        if not any(totals):
            return _Decision("none", ("none", self._version))
        for number, (total, size) in enumerate(zip(totals, sizes, strict=True), 1):
            if total > size:
                return _Decision(
                    "warn",
                    ("too-many", self._version, number),
                    warnings=(
                        Warning(
                            "impossible-fill",
                            _("Bowl {n} holds {found} tiles; it gets {size}.").format(
                                n=number, found=total, size=size
                            ),
                            {"bowl": number},
                        ),
                    ),
                )
        if totals != list(sizes):
            return _Decision("wait")  # the bowls are still being filled
        fill = canonical(
            Fill(
                tuple(
                    tuple(
                        color
                        for color, n in zip(COLORS, b, strict=True)  # type: ignore[arg-type]
                        for _tile in range(n)
                    )
                    for b in bowls
                )
            )
        )
        trial = game.copy()
        try:
            trial.push(fill)
        except RulesError:
            short = next(color for c, color in enumerate(COLORS) if sum(b[c] for b in bowls) > game.bag[c])  # type: ignore[index]
            return _Decision(
                "warn",
                ("bag", self._version, fill),
                warnings=(
                    Warning(
                        "impossible-fill",
                        _("The bowls hold more {color} tiles than the bag had left.").format(color=_(short)),
                        {"bowl": None, "color": short},
                    ),
                ),
            )
        if fill == self._suspect:
            return self._ask([fill], None)
        return self._accept(fill, auto=True)

    def _decide_take(self, view: KidsView) -> _Decision | Accepted:
        game = self.game
        if self._predictions is None:
            self._predictions = _Predictions(game)
        null, options = self._predictions.costs(view)
        if null == 0 or not options:
            return _Decision("none", ("none", self._version))
        best = options[0]
        complete = [o for o in options if o.complete]
        if null - best.cost < GAIN_ASK:
            return _Decision("none", ("none", self._version))
        if not best.complete and (not complete or complete[0].cost > best.cost):
            return _Decision("wait")  # tiles in hand: the take is not over yet
        first = complete[0]
        second = next((o.cost for o in complete[1:] if o.move != first.move), math.inf)
        # A take of one tile nobody can place shows only as a tile gone from a bowl: taken
        # alone when nothing else disagrees with the view.
        gain = null - first.cost
        if (
            first.cost <= LOCAL
            and (gain >= GAIN or first.cost == 0)
            and second - first.cost >= MARGIN
            and first.move != self._suspect
        ):
            return self._accept(first.move, auto=True)
        near: list[Event] = []
        for option in complete:
            if option.cost > first.cost + MARGIN or len(near) == CHOICES:
                break
            if option.move not in near:
                near.append(option.move)
        if first.cost <= FAR:
            return self._ask(near, game.turn)
        return _Decision(
            "warn",
            ("unexplained", self._version),
            tuple(near),
            game.turn,
            (
                Warning(
                    "no-legal-take",
                    _(
                        "The table does not match any take: put the tiles back as they were, "
                        "or confirm a take."
                    ),
                    {"board": game.turn},
                ),
            ),
        )

    def _wrong_shapes(self, view: KidsView) -> tuple[Warning, ...]:
        """A tile lying on a field of another shape, wherever the view shows one."""
        found = []
        for seat, board in enumerate(self.game.boards):
            for p, picture in enumerate(board.pictures):
                for f, (spot, value) in enumerate(zip(picture.fields, view.fields[seat][p], strict=True)):
                    if value in COLORS and SHAPE_OF[value] != spot.shape:
                        found.append(
                            Warning(
                                "wrong-shape",
                                _(
                                    "{name}: a {color} tile lies on a {field} field; "
                                    "it belongs on a {shape} field."
                                ).format(
                                    name=self.record.players[seat],
                                    color=_(value),
                                    field=_(spot.shape),
                                    shape=_(SHAPE_OF[value]),
                                ),
                                {"board": seat, "picture": picture.id, "field": f, "color": value},
                            )
                        )
        return tuple(found)

    def _ask(self, candidates: list[Event], player: int | None) -> _Decision:
        if self._suspect in candidates and len(candidates) > 1:
            candidates = [c for c in candidates if c != self._suspect] + [self._suspect]
        return _Decision("ask", ("ask", self._version, tuple(candidates)), tuple(candidates), player)

    # --- changing the game -----------------------------------------------------------

    @property
    def _version(self) -> int:
        return len(self.record.events)

    def _accept(self, event: Event, auto: bool) -> Accepted:
        trial = self.game.copy()
        player = None if isinstance(event, Fill) else trial.turn
        trial.push(event)  # RulesError when it is not legal now: nothing changes
        entry = event if isinstance(event, Fill) else PlayerTake(player, event)  # type: ignore[arg-type]
        if self.sink is not None:
            self.sink.append(event_to_json(entry, self.record.variant))  # type: ignore[attr-defined]
        self.record = dataclasses.replace(self.record, events=(*self.record.events, entry))
        self.game = trial
        self.last = Accepted(event, player, auto)
        if auto:
            self.auto += 1
        else:
            self.asked += 1
        self._changed()
        return self.last

    def _confirm(self, event: Event) -> list[Result]:
        try:
            accepted = self._accept(event, auto=False)
        except RulesError as error:
            log.warning("confirmed event refused: %s", error)
            return []
        return [accepted, *self._settle(), *self._advance()]

    def _undo(self) -> list[Result]:
        if not self.record.events:
            return []
        entry = self.record.events[-1]
        undo = getattr(self.sink, "undo", None)
        if undo is not None:
            undo()  # first: if the sink cannot take it back, the record keeps it too
        elif self.sink is not None:
            log.warning("the record sink cannot take events back; its copy keeps %s", entry)
        self.record = dataclasses.replace(self.record, events=self.record.events[:-1])
        self.game = replay(self.record)
        self._changed()
        self._suspect = entry if isinstance(entry, Fill) else entry.move
        self.last = None
        # The table still shows the event: decide again at once, asking this time.
        return [*self._settle(), *self._advance()]

    def _changed(self) -> None:
        self._changed_at = self._frames
        self._stalled = False
        self._predictions = None
        self.prompt = None
        self.warnings = ()
        self._decision = None
        self._streak = 0
        self._committed = False
        self._suspect = None

    def _set_warnings(self, warnings: tuple[Warning, ...]) -> list[Result]:
        new = [w for w in warnings if w not in self.warnings]
        self.warnings = warnings
        self.warned += len(new)
        return list(new)
