"""The tracker: keeps the rules engine in step with the table the camera sees.

Frames come in (``azul-observation/1``); the tracker waits for a stable view (several
non-occluded frames agreeing place by place, see :mod:`companion.tracking.consensus`) and
then compares it with what the engine predicts:

- at a round start it reads the refill off the factories; a draw the bag and lid can
  have produced is accepted, a misread one is answered with the nearest possible draws;
- during drafting it scores every legal take by how well the table it predicts matches
  the view, and accepts the best at once when it is clearly ahead and explains what
  changed; when two moves look alike it asks (:class:`Prompt`), and Next/Previous and
  Confirm pick one;
- on the grey wall it reads the column each tile went to.

Only what players choose is read: the engine knows the coloured wall, the centre and the
rest. A table that fits no legal move is checked against the usual physical mistakes
(:mod:`companion.tracking.hypotheses`); the tracker then reports a :class:`Warning` and
changes nothing until the table matches a legal state again or a person confirms a move.

Every accepted event goes at once to the record and to the sink (``append(event_json)``,
durable when it returns); holding Undo takes the last one back (the sink's ``undo()``).
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass, field

from companion.i18n import _
from companion.rules.azul import (
    COLORS,
    DRAFTING,
    FACTORIES,
    OVER,
    REFILL,
    TILES_PER_FACTORY,
    TILING,
    Event,
    Game,
    Place,
    Refill,
    Take,
)
from companion.rules.azul_record import Record, apply_event, event_to_json, replay
from companion.rules.errors import RulesError
from companion.tracking import hypotheses as hyp
from companion.tracking.consensus import Consensus, View
from companion.tracking.frame import ObservationError, read_frame
from companion.tracking.layout import TableLayout
from companion.tracking.refills import is_possible, nearest_refills, refill_of
from companion.tracking.tables import (
    Scorer,
    Table,
    after_take,
    placed_boards,
    table_of,
    tiling_table,
)

log = logging.getLogger(__name__)

ACTIONS = ("confirm", "next", "previous", "undo", "menu")

# Distances count places of the table that disagree with the view (see tracking.tables).
GAIN = 1.5  # a move must explain at least this much more than "nothing happened" to be taken alone
GAIN_ASK = 1.0  # ... and this much to be worth a question
MARGIN = 1.5  # the best move must be this much closer than the next one to be taken without asking
LOCAL = 2.0  # the places a move touched may disagree with the view this much at most
REST = 3.0  # the places it did not touch, this much (more: something else changed too)
PERSIST = 2  # frames a question or a warning must stand before it is put to the table
CHOICES = 6  # candidates a question offers at most
SUDOKU_PRIOR = 1.5  # a grey-wall placement that breaks the Sudoku rule needs this much more evidence


@dataclass(frozen=True)
class Accepted:
    """An event was appended to the record."""

    event: Event
    player: int | None  # the seat of a take/place, None for a refill
    auto: bool  # True: accepted without asking
    revised: bool = False  # True: this refill replaces the round's refill, misread when it was laid out


@dataclass(frozen=True)
class Prompt:
    """The tracker asks the table to pick one candidate."""

    candidates: tuple[Event, ...]  # best first
    selected: int  # index of the highlighted candidate (Next/Previous move it)
    player: int | None  # whose move it is about


@dataclass(frozen=True)
class Warning:
    """A physical mistake or a problem the table must fix."""

    code: str
    message: str  # already translated, plain words
    where: dict = field(default_factory=dict)  # what to point at: {"board": 1, "line": 3}, {"factory": 4}


Result = Accepted | Prompt | Warning


@dataclass
class _Decision:
    """What the tracker makes of a view: nothing changed, wait, ask, or warn."""

    kind: str  # "none", "wait", "ask", "warn"
    key: object = None
    candidates: tuple[Event, ...] = ()
    player: int | None = None
    warnings: tuple[Warning, ...] = ()


class Tracker:
    """Follows one game of base Azul from frames and table inputs (see the module doc)."""

    def __init__(self, record: Record, sink: object = None, *, stable_frames: int = 3) -> None:
        self.record = record
        self.game: Game = replay(record)
        self.sink = sink
        players = len(record.players)
        self.layout = TableLayout(players, FACTORIES[players])
        self._consensus = Consensus(stable_frames, read_wall=record.variant == "grey")
        self.prompt: Prompt | None = None
        self.warnings: tuple[Warning, ...] = ()
        self.last: Accepted | None = None
        self.asked = 0  # events confirmed by a person
        self.auto = 0  # events accepted without asking
        self.warned = 0  # warnings reported
        self._view: View | None = None
        self._decision: _Decision | None = None
        self._streak = 0
        self._committed = False
        self._suspect: Event | None = None  # just undone: never taken again without asking
        self._cache: dict[str, object] = {}
        # Factories read otherwise than the refill said, by factory: (counts, version first seen).
        self._doubts: dict[int, tuple[tuple[int, ...], int]] = {}
        self.revised = 0  # refills corrected from later views
        self._frames = 0  # non-occluded frames seen
        self._changed_at = 0  # ... when the last event was accepted

    # --- inputs ----------------------------------------------------------------------

    def observe(self, observation: dict) -> list[Result]:
        """One ``azul-observation/1`` frame; what it led to."""
        try:
            frame = read_frame(observation)
        except ObservationError as error:
            return self._set_warnings((Warning("unreadable", _("Cannot read this frame: {reason}").format(
                reason=error)),))
        if frame.occluded:
            return []
        boards, factories = self.layout.assign(frame)
        if self.layout.seat_places is None:
            return self._set_warnings((Warning("unreadable", _(
                "I see {seen} player boards, but this game has {players} players.").format(
                seen=len(frame.boards), players=self.game.players)),))
        self._consensus.add((boards, factories, frame.center))
        self._frames += 1
        if not self._consensus.full:
            return []
        results: list[Result] = []
        view = self._consensus.view()
        if view != self._view:
            self._view = view
            results += self._settle()
        return results + self._advance()

    def act(self, action: str) -> list[Result]:
        """One input from the table: confirm, next, previous, undo or menu."""
        if action not in ACTIONS:
            raise ValueError(_("unknown action {action!r}; one of {actions}").format(
                action=action, actions=", ".join(ACTIONS)))
        if action == "undo":
            return self._undo()
        prompt = self.prompt
        if prompt is None or action == "menu":
            return []
        if action in ("next", "previous"):
            step = 1 if action == "next" else -1
            self.prompt = Prompt(prompt.candidates, (prompt.selected + step) % len(prompt.candidates),
                                 prompt.player)
            return [self.prompt]
        return self._confirm(prompt.candidates[prompt.selected])

    def answer(self, event: Event) -> list[Result]:
        """A person's answer to the pending question (the offline stream's ``answer`` lines).

        Ignored unless the tracker asks (or is about to: a question seen once already);
        an answer that is not legal now is ignored too.
        """
        asking = self.prompt is not None or (
            self._decision is not None and self._decision.kind in ("ask", "warn"))
        if not asking:
            return []
        try:
            self._legal_copy(event)
        except RulesError:
            return []
        return self._confirm(event)

    # --- deciding --------------------------------------------------------------------

    def _settle(self) -> list[Result]:
        """Accept every event the view makes clear, then remember what is left to decide."""
        out: list[Result] = []
        for _step in range(16):
            if self.game.phase == OVER or self._view is None:
                self._decision = None
                break
            revision = self._doubted_refill(self._view) if self.game.phase == DRAFTING else None
            if revision is not None:
                out.append(revision)
                continue
            decision = self._decide(self._view)
            if isinstance(decision, Accepted):
                out.append(decision)
                continue
            if isinstance(decision, tuple):
                out.append(self._accept(*decision, auto=True))
                continue
            if decision.kind == "none" and self.game.phase == DRAFTING:
                self._doubted_refill(self._view, register=True)
            if self._decision is None or decision.key != self._decision.key:
                self._decision, self._streak, self._committed = decision, 0, False
            else:
                self._decision = decision
            break
        return out

    def _advance(self) -> list[Result]:
        """Count one more frame for the pending decision; put it to the table once it stands."""
        decision = self._decision
        if decision is None or decision.kind == "wait":
            return []
        self._streak += 1
        if self._committed or self._streak < PERSIST:
            return []
        self._committed = True
        if decision.kind == "none":
            # The table matches the engine again: a mistake was put right, a question lapsed.
            self.warnings = ()
            self.prompt = None
            return []
        out: list[Result] = []
        if decision.kind == "warn":
            out += self._set_warnings(decision.warnings)
        if decision.candidates:
            if self.prompt is None or self.prompt.candidates != decision.candidates:
                self.prompt = Prompt(decision.candidates, 0, decision.player)
                out.append(self.prompt)
        elif decision.kind == "warn":
            self.prompt = None
        return out

    def _decide(self, view: View) -> _Decision | tuple[Event, int | None] | Accepted:
        phase = self.game.phase
        if phase == REFILL:
            return self._decide_refill(view)
        if phase == DRAFTING:
            return self._decide_take(view)
        if phase == TILING:
            return self._decide_place(view)
        return _Decision("none")

    def _decide_take(self, view: View) -> _Decision | tuple[Event, int | None] | Accepted:
        game = self.game
        scorer = Scorer(view)
        null = self._cached("null", lambda: table_of(game))
        takes: list[tuple[Take, Table]] = self._cached("takes", self._take_tables)
        null_cost = scorer.cost(null)
        ranked = sorted((scorer.cost(table), k) for k, (_move, table) in enumerate(takes))
        best_cost, k = ranked[0]
        move, table = takes[k]
        gain = null_cost - best_cost
        local = scorer.local(table, null)
        rest = best_cost - local
        if gain < GAIN_ASK or (gain < GAIN and local > 0):
            return _Decision("none", ("none", self._version))
        second = ranked[1][0] if len(ranked) > 1 else math.inf
        # A table that one legal move does not explain: a mistake, or turns missed?
        if local > 0 or rest > 0:
            found = self._explanations(scorer, rest, [takes[i][0] for _c, i in ranked[:4]])
            if found and found[0][0] + MARGIN <= best_cost:
                return self._explained(found, scorer)
        if (local <= LOCAL and rest <= REST and gain >= GAIN and second - best_cost >= MARGIN
                and move != self._suspect):
            return move, game.turn
        if local <= LOCAL * 1.5:
            near = [takes[i][0] for cost, i in ranked if cost <= best_cost + MARGIN + 1][:CHOICES]
            return self._ask(near, game.turn)
        return _Decision("warn", ("unexplained", self._version), self._override(ranked, takes), game.turn,
                         (Warning("no-legal-move", _(
                             "The table does not match any legal move: put it back as it was, "
                             "or confirm a move.")),))

    def _explanations(self, scorer: Scorer, rest: float,
                      firsts: list[Take]) -> list[tuple[float, hyp.Hypothesis]]:
        """Hypotheses beyond one legal move, closest first."""
        game = self.game
        options: list[hyp.Hypothesis] = []
        options += self._cached("mistakes", lambda: hyp.illegal_lines(game) + hyp.left_behind(game))
        if rest > 0:
            options += self._cached("out-of-turn", lambda: hyp.out_of_turn(game))
        index = self._cached("refill-index", self._refill_index)
        if index is not None and (self.sink is None or hasattr(self.sink, "undo")):
            refill: Refill = self.record.events[index]  # type: ignore[assignment]
            for number, factory in enumerate(game.factories):
                seen = scorer.view.factories[number]
                drawn = tuple(refill.factories[number].count(c) for c in range(5))
                if seen is None or not factory or seen.counts == drawn or \
                        tuple(factory.get(c, 0) for c in range(5)) != drawn:
                    continue
                options += self._cached(f"misread {number}", lambda number=number: hyp.misread_refill(
                    self._cached("before-refill", lambda: replay(Record(
                        list(self.record.players), self.record.variant, self.record.events[:index],
                        self.record.movers[:index]))),
                    refill, list(zip(self.record.events[index + 1:], self.record.movers[index + 1:],
                                     strict=True)), game, number))
        if rest >= GAIN:
            for first in firsts:
                options += self._cached(f"seq {first}", lambda first=first: hyp.sequences(game, first))
        return sorted(((scorer.cost(h.table), h) for h in options), key=lambda item: item[0])

    def _explained(self, found: list[tuple[float, hyp.Hypothesis]], scorer: Scorer) -> _Decision | Accepted:
        game = self.game
        cost, best = found[0]
        if best.kind == hyp.SEQUENCE:
            # Two turns passed unseen: ask about the first; the second then follows from the view.
            firsts: list[Event] = []
            for other_cost, h in found:
                if other_cost > cost + MARGIN or len(firsts) == CHOICES:
                    break
                if h.kind == hyp.SEQUENCE and h.moves[0] not in firsts:
                    firsts.append(h.moves[0])
            return self._ask(firsts, game.turn)
        if best.kind == hyp.MISREAD_REFILL and best.refill is not None:
            # The refill was misread at that factory: correct it; the take then explains the view.
            index = self._cached("refill-index", self._refill_index)
            revised = self._revise(index, best.refill)  # type: ignore[arg-type]
            if revised is not None:
                return revised
        warning = self._mistake_warning(best)
        takes: list[tuple[Take, Table]] = self._cached("takes", self._take_tables)
        ranked = sorted((scorer.cost(table), k) for k, (_m, table) in enumerate(takes))
        candidates = list(best.moves) + [m for m in self._override(ranked, takes) if m not in best.moves]
        return _Decision("warn", (best.kind, self._version, best.seat, best.color),
                         tuple(candidates[:CHOICES]), game.turn, (warning,))

    def _override(self, ranked: list[tuple[float, int]],
                  takes: list[tuple[Take, Table]]) -> tuple[Event, ...]:
        """The legal moves a person may confirm to override a warning, best first."""
        return tuple(takes[i][0] for _c, i in ranked[:CHOICES])

    def _decide_place(self, view: View) -> _Decision | tuple[Event, int | None]:
        game = self.game
        scorer = Scorer(view)
        null = self._cached("tiling", lambda: tiling_table(game))
        best: tuple[float, list[tuple[float, Place]], int] | None = None
        for seat, line in game.pending_placements():
            base = scorer.board(seat, null.boards[seat])
            board = game.boards[seat]
            color = board.line_colors[line]
            free = [c for c in range(5) if board.wall[line * 5 + c] < 0]
            breaking = [c for c in free if board.col_colors[c] >> color & 1]
            scored: dict[tuple, tuple[float, Place]] = {}
            for column in free:
                place = Place(seat, line + 1, column + 1)
                options = placed_boards(game, place)
                # Nobody breaks the Sudoku rule on purpose while a column is free for the tile:
                # such a placement must be seen better than the others to be believed.
                prior = SUDOKU_PRIOR if column in breaking and len(breaking) < len(free) else 0.0
                # Columns that give the same board cannot be told apart, and need not be.
                scored.setdefault(options[:2], (scorer.board(seat, options) + prior, place))
            ranked = sorted(scored.values(), key=lambda item: item[0])
            gain = base - ranked[0][0]
            if best is None or gain > best[0]:
                best = (gain, ranked, seat)
        if best is None:
            return _Decision("none", ("none", self._version))
        gain, ranked, seat = best
        cost, place = ranked[0]
        if gain < GAIN_ASK:
            return _Decision("none", ("none", self._version))
        second = ranked[1][0] if len(ranked) > 1 else math.inf
        if gain >= GAIN and cost <= LOCAL and second - cost >= MARGIN and place != self._suspect:
            return place, seat
        return self._ask([p for c, p in ranked if c <= cost + MARGIN + 1][:CHOICES], seat)

    def _decide_refill(self, view: View) -> _Decision | tuple[Event, int | None]:
        game = self.game
        if any(f is None for f in view.factories):
            return _Decision("wait")
        expected = min(TILES_PER_FACTORY * len(game.factories), sum(game.bag) + sum(game.lid))
        reading = [f.counts for f in view.factories]  # type: ignore[union-attr]
        read = sum(sum(c) for c in reading)
        unknown = sum(f.unknown for f in view.factories)  # type: ignore[union-attr]
        if read + unknown < expected or (read < expected and unknown):
            options = self._cache.get("refill-options")
            if options and read < expected:
                # A question left open while play began: the first moves tell the draw apart.
                return self._refill_from_play(view, options)  # type: ignore[arg-type]
            return _Decision("wait")
        boards = self._cached("null", lambda: table_of(game)).boards
        scorer = Scorer(view)
        if sum(scorer.board(seat, options) for seat, options in enumerate(boards)) > REST:
            # The boards are not those the engine ended the round with: play went on unseen,
            # and these factories may belong to a later round. Never take them for this one.
            return _Decision("warn", ("boards-moved-on", self._version), (), None, (Warning(
                "unexpected-table", _("The player boards do not match the game; undo or check "
                                      "the boards before the next round.")),))
        if read == expected and all(sum(c) <= TILES_PER_FACTORY for c in reading):
            refill = refill_of(reading)
            if refill != self._suspect and is_possible(game, refill):
                return refill, None
            options = self._cached(f"near {reading}", lambda: nearest_refills(
                game, reading, limit=12 if self._suspect is None else 40))
            if options:
                if self._suspect in options:
                    options = [o for o in options if o != self._suspect] + [self._suspect]
                self._cache["refill-options"] = options
                return self._ask(options, None)
        return _Decision("warn", ("impossible-refill", self._version), (), None, (Warning(
            "impossible-refill", _("The factories do not hold a draw the bag can have given: "
                                   "check the tiles on the factories.")),))

    def _refill_from_play(self, view: View, options: tuple[Refill, ...]) -> _Decision | tuple[Event, None]:
        """A refill question still open when play has begun: the draw whose first moves fit best."""
        scorer = Scorer(view)
        costs = []
        for refill in options:
            trial = self.game.copy()
            trial.push(refill)
            tables = [table_of(trial)] + [after_take(trial, m) for m in trial.generate_legal_moves()
                                          if isinstance(m, Take)]
            costs.append((min(scorer.cost(t) for t in tables), refill))
        costs.sort(key=lambda item: item[0])
        if len(costs) == 1 or costs[1][0] - costs[0][0] >= MARGIN:
            return costs[0][1], None
        return _Decision("wait")

    def _doubted_refill(self, view: View, register: bool = False) -> Accepted | None:
        """Correct this round's refill when an untouched factory keeps showing other tiles.

        A refill misread while it was on view can still be a possible draw. The factories
        nobody has taken from yet stay on view, so their tiles are read again after every
        move; a factory read the same other way in two states of the table (before and
        after an accepted move) was misread at the refill. Not done without a sink that
        can take events back.
        """
        if self.sink is not None and not hasattr(self.sink, "undo"):
            return None
        index = self._cached("refill-index", self._refill_index)
        if index is None:
            return None
        refill: Refill = self.record.events[index]  # type: ignore[assignment]
        for number, seen in enumerate(view.factories):
            drawn = tuple(refill.factories[number].count(c) for c in range(5))
            now = tuple(self.game.factories[number].get(c, 0) for c in range(5))
            if (seen is None or seen.unknown or now != drawn or not sum(now) or seen.counts == now
                    or sum(seen.counts) != sum(now)):
                if seen is not None and not seen.unknown:
                    self._doubts.pop(number, None)
                continue
            doubt = self._doubts.get(number)
            if doubt is None or doubt[0] != seen.counts:
                if register:
                    self._doubts[number] = (seen.counts, self._version)
            elif (not register and doubt[1] < self._version
                  and self._frames - self._changed_at >= self._consensus.frames):
                # Read so in a view of an earlier state and again in one made only of frames
                # taken after a move was accepted: not one state's glare.
                factories = [tuple(sorted(f)) for f in refill.factories]
                factories[number] = tuple(c for c in range(5) for _n in range(seen.counts[c]))
                return self._revise(index, Refill(tuple(factories)))
        return None

    def _refill_index(self) -> int | None:
        for index in range(len(self.record.events) - 1, -1, -1):
            if isinstance(self.record.events[index], Refill):
                return index
        return None

    def _revise(self, index: int, refill: Refill) -> Accepted | None:
        """Put ``refill`` in place of event ``index`` and play the events after it again."""
        record = self.record
        head = Record(list(record.players), record.variant, record.events[:index], record.movers[:index])
        try:
            game = replay(head)
            apply_event(game, refill)
            for event, player in zip(record.events[index + 1:], record.movers[index + 1:], strict=True):
                apply_event(game, event, player)
        except RulesError:
            self._doubts.clear()
            return None
        if self.sink is not None:
            for _event in record.events[index:]:
                self.sink.undo()  # type: ignore[attr-defined]
            again = [refill, *record.events[index + 1:]]
            for event, player in zip(again, record.movers[index:], strict=True):
                self.sink.append(event_to_json(event, player))  # type: ignore[attr-defined]
        record.events[index] = refill
        self.game = game
        self._changed()
        self._doubts.clear()
        self.revised += 1
        log.info("refill corrected from later views: %s", refill)
        return Accepted(refill, None, auto=True, revised=True)

    def _ask(self, candidates: list, player: int | None) -> _Decision:
        if self._suspect in candidates and len(candidates) > 1:
            candidates = [c for c in candidates if c != self._suspect] + [self._suspect]
        return _Decision("ask", ("ask", self._version, tuple(candidates)), tuple(candidates), player)

    # --- what the engine predicts, per accepted state ----------------------------------

    @property
    def _version(self) -> int:
        return len(self.record.events)

    def _cached(self, key: str, make):  # type: ignore[no-untyped-def]
        if key not in self._cache:
            self._cache[key] = make()
        return self._cache[key]

    def _take_tables(self) -> list[tuple[Take, Table]]:
        game = self.game
        seen: set[Table] = set()
        out = []
        for move in game.generate_legal_moves():
            if not isinstance(move, Take):
                continue
            table = after_take(game, move)
            if table not in seen:  # moves the table cannot tell apart leave the same table
                seen.add(table)
                out.append((move, table))
        return out

    # --- changing the game -----------------------------------------------------------

    def _legal_copy(self, event: Event) -> tuple[Game, int | None]:
        game = self.game
        if isinstance(event, Take):
            player: int | None = game.turn
        elif isinstance(event, Place):
            player = event.player
        else:
            player = None
        trial = game.copy()
        apply_event(trial, event, player)
        return trial, player

    def _accept(self, event: Event, player: int | None, auto: bool) -> Accepted:
        trial, player = self._legal_copy(event)
        if self.sink is not None:
            self.sink.append(event_to_json(event, player))  # type: ignore[attr-defined]
        self.record.append(event, player)
        self.game = trial
        self._changed()
        if isinstance(event, Refill):
            self._doubts.clear()
        self.last = Accepted(event, player, auto)
        if auto:
            self.auto += 1
        else:
            self.asked += 1
        return self.last

    def _confirm(self, event: Event) -> list[Result]:
        try:
            accepted = self._accept(event, None, auto=False)
        except RulesError as error:
            log.warning("confirmed event refused: %s", error)
            return []
        return [accepted, *self._settle(), *self._advance()]

    def _undo(self) -> list[Result]:
        if not self.record.events:
            return []
        event = self.record.events.pop()
        self.record.movers.pop()
        undo = getattr(self.sink, "undo", None)
        if undo is not None:
            undo()
        elif self.sink is not None:
            log.warning("the record sink cannot take events back; its copy keeps %s", event)
        self.game = replay(self.record)
        self._changed()
        self._suspect = event
        self.last = None
        # The table still shows the move: decide again at once, asking this time.
        return [*self._settle(), *self._advance()]

    def _changed(self) -> None:
        self._changed_at = self._frames
        self._cache.clear()
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

    def _mistake_warning(self, found: hyp.Hypothesis) -> Warning:
        names = self.record.players
        name = names[found.seat]
        color = _(COLORS[found.color])
        line = found.where.get("line")
        if found.kind == hyp.OUT_OF_TURN:
            message = _("{name} moved, but it is {turn}'s turn: put the tiles back.").format(
                name=name, turn=names[self.game.turn])
        elif found.kind == hyp.WRONG_LINE_COLOR:
            message = _("{name}: pattern line {line} holds another colour; the {color} tiles "
                        "must go on another line or the floor.").format(name=name, line=line, color=color)
        elif found.kind == hyp.ROW_HAS_COLOR:
            message = _("{name}: wall row {line} already has {color}, so pattern line {line} "
                        "cannot take it.").format(name=name, line=line, color=color)
        elif found.kind == hyp.LINE_FULL:
            message = _("{name}: pattern line {line} is already full.").format(name=name, line=line)
        else:
            message = _("{name} took {color} but left some {color} tiles behind: take them all.").format(
                name=name, color=color)
        return Warning(found.kind, message, dict(found.where))
