"""The tracker: keeps the rules engine in step with the table the camera sees.

Frames come in (``azul-observation/1``); the tracker waits for a stable view (several
non-occluded frames agreeing place by place, see :mod:`companion.tracking.consensus`) and
then compares it with what the engine predicts:

- a refill is evidence gathered over the whole round (:mod:`companion.tracking.evidence`):
  at a round start the draw most of the frames support is accepted (the nearest possible
  draw when the reading is not one), and revised whenever the round shows otherwise:
  an untouched factory seen another way in later still states, or a take that moved
  other tiles than the refill said (:mod:`companion.tracking.revision`). A revision
  takes the events since the refill back through the sink, appends the corrected refill
  and plays the takes again; only a possible draw is ever put in;
- during drafting it scores every legal take, and every take "with its factory
  corrected", by how well the table it predicts matches the view, and accepts the best
  at once when it is clearly ahead and explains what changed; when two moves look
  alike it asks (:class:`Prompt`), and Next/Previous and Confirm pick one;
- on the grey wall it reads the column each tile went to;
- a take or placement it accepted without asking is replaced when later still states keep
  showing another one clearly better (more of them than showed the table as accepted;
  :mod:`companion.tracking.retro`), or when a person's answer only fits once it is.

Only what players choose is read: the engine knows the coloured wall, the centre and the
rest. A table that fits no legal move is checked against the usual physical mistakes
(:mod:`companion.tracking.hypotheses`); the tracker then reports a :class:`Warning` and
changes nothing until the table matches a legal state again or a person confirms a move.
When nothing fits for long it says so ("stalled") and keeps trying each new view.

Every accepted event goes at once to the record and to the sink (``append(event_json)``,
durable when it returns); holding Undo takes the last one back (the sink's ``undo()``).
An offline stream cannot answer a question about a refill (``ask_refills=False``): the
tracker then never asks one and relies on the round's evidence alone.
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
    FLOOR,
    OVER,
    REFILL,
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
from companion.tracking import retro
from companion.tracking import revision as rev
from companion.tracking.consensus import Consensus, View
from companion.tracking.evidence import Counts, FactoryEvidence
from companion.tracking.frame import EMPTY, ObservationError, read_frame
from companion.tracking.layout import TableLayout
from companion.tracking.refills import counts_of_refill, ranked_refills, refill_sizes
from companion.tracking.tables import (
    Scorer,
    Table,
    after_take,
    in_places,
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
LINE_MARGIN = 1.0  # ... or this much, when the moves that close differ only in the line
LOCAL = 2.0  # the places a move touched may disagree with the view this much at most
REST = 3.0  # the places it did not touch, this much (more: something else changed too)
EXACT_ROOM = 1.5  # REST (takes), LOCAL (placements) this much more when the event's own places match
EXACT_MARGIN = 2.0  # ... exactly and it leads the next event by this much
ANSWER_MARGIN = 1.0  # a truthful answer about a later turn settles the turn asked by one place of the view
PERSIST = 2  # frames a question or a warning must stand before it is put to the table
CHOICES = 6  # candidates a question offers at most
SUDOKU_PRIOR = 1.5  # a grey-wall placement that breaks the Sudoku rule needs this much more evidence
CENTER_ONLY = 1.0  # a correction the centre alone shows costs this much more: the centre stays on view
REVOTE = 1.0  # an untouched factory is corrected once another reading leads by this many still states
REFILL_TIE = 0.25  # live, a refill question is asked only when two draws are this close
STALL = 40  # frames without progress before the table is told the tracker is stuck
REVISITS = 2  # a refill may be put back in place this often in a round, no more
RETRO_MARGIN = 1.5  # a corrected refill must fit the table this much better to replace the accepted one
RETRO_LEAN = 0.75  # ... or this much better in LEAN_STATES still states
LEAN_STATES = 3
SECOND_LOOK = 8  # takes and placements, counted back from the last, that may be replaced by another
REPLACE_LEAD = 0.5  # ... by one that fits the table RETRO_MARGIN better and leads the others this much


@dataclass(frozen=True)
class Accepted:
    """An event was appended to the record."""

    event: Event
    player: int | None  # the seat of a take/place, None for a refill
    auto: bool  # True: accepted without asking
    revised: bool = False  # True: this replaces an event accepted earlier (a misread refill or move)


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


@dataclass(frozen=True)
class _Correction:
    """A refill correction: each (0-based factory, what it really held) of ``changes``."""

    changes: rev.Changes


@dataclass(frozen=True)
class _Option:
    """One way the view may have come about: a take, maybe with its factory corrected."""

    cost: float
    move: Take
    table: Table
    correction: _Correction | None = None


class Tracker:
    """Follows one game of base Azul from frames and table inputs (see the module doc)."""

    def __init__(self, record: Record, sink: object = None, *, stable_frames: int = 3,
                 ask_refills: bool = True) -> None:
        self.record = record
        self.game: Game = replay(record)
        self.sink = sink
        self.ask_refills = ask_refills
        players = len(record.players)
        self.layout = TableLayout(players, FACTORIES[players])
        self._consensus = Consensus(stable_frames, read_wall=record.variant == "grey")
        self.prompt: Prompt | None = None
        self.warnings: tuple[Warning, ...] = ()
        self.last: Accepted | None = None
        self.asked = 0  # events confirmed by a person
        self.auto = 0  # events accepted without asking
        self.warned = 0  # warnings reported
        self.revised = 0  # refills corrected from later views
        self.replaced = 0  # takes and placements replaced from later views or a person's answer
        self._view: View | None = None
        self._decision: _Decision | None = None
        self._streak = 0
        self._committed = False
        self._suspect: Event | None = None  # just undone: never taken again without asking
        self._cache: dict[str, object] = {}
        self._evidence = FactoryEvidence(FACTORIES[players])
        self._evidence_round = self._round_key()
        self._base: tuple[int, Game] | None = None  # (refill index, state it was drawn from)
        self._alternatives: dict[int, set[Counts]] = {}  # other contents a taken factory may have had
        # retro corrections: how far each led, by still state
        self._strikes: dict[tuple[int, Counts], dict[int, float]] = {}
        self._tried: dict[Refill, int] = {}  # refills this round has had, and how often
        self._doubts: dict[tuple[int, Event], set[int]] = {}  # other events the still states favoured
        self._replaced: dict[tuple[int, Event], int] = {}  # events put in by second thoughts, how often
        self._confirmed: set[int] = set()  # events a person confirmed: never replaced
        self._resumed = len(record.events)  # ... nor the events of the record the tracker resumed from
        self._accepted_at: dict[int, int] = {}  # the still state each event was accepted in
        self._matched: set[int] = set()  # still states that showed the table as the engine has it
        self._states = 0  # still states closed so far
        self._frames = 0  # non-occluded frames seen
        self._changed_at = 0  # ... when the last event was accepted
        self._refill_seen_at: int | None = None  # ... when this round's factories were first read
        self._stalled = False
        self._lapsed: Prompt | None = None  # the question about this turn the view took back

    # --- inputs ----------------------------------------------------------------------

    def observe(self, observation: dict) -> list[Result]:
        """One ``azul-observation/1`` frame; what it led to."""
        try:
            frame = read_frame(observation)
        except ObservationError as error:
            return self._set_warnings((Warning("unreadable", _("Cannot read this frame: {reason}").format(
                reason=error)),))
        if frame.occluded:
            self._close_state()  # a hand passed: the table may have changed
            return []
        boards, factories = self.layout.assign(frame)
        if self.layout.seat_places is None:
            return self._set_warnings((Warning("unreadable", _(
                "I see {seen} player boards, but this game has {players} players.").format(
                seen=len(frame.boards), players=self.game.players)),))
        self._evidence.add(factories, self._sizes())
        self._consensus.add((boards, factories, frame.center))
        self._frames += 1
        if not self._consensus.full:
            return []
        results: list[Result] = []
        view = self._consensus.view()
        # A decision to wait is looked at again every frame: the evidence grows even when
        # the view stays the same.
        if view != self._view or (self._decision is not None and self._decision.kind == "wait"):
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

    def answer(self, event: Event, player: int | None = None) -> list[Result]:
        """A person's answer to the pending question (the offline stream's ``answer`` lines).

        Ignored unless the tracker asks (or is about to: a question seen once already; or
        did: a question put to the table about this turn, which lapsed when the view
        changed, is still answered). An answer that cannot come now may name the turn after
        the one asked about (the question came late); see :meth:`_answer_later`. Otherwise
        it is ignored.
        """
        shown: Prompt | _Decision | None = self.prompt
        if shown is None and self._decision is not None and self._decision.kind in ("ask", "warn"):
            shown = self._decision
        shown = shown or self._lapsed
        if shown is None:
            return []
        candidates = shown.candidates
        if not (isinstance(event, Take) and player is not None and player != self.game.turn):
            accepted = self._confirm(event)
            if accepted:
                return accepted
        return self._answer_later(event, player, candidates) or self._answer_elsewhere(event, player)

    def _answer_elsewhere(self, event: Event, player: int | None) -> list[Result]:
        """An answer that fits only once a recent event accepted without asking is another.

        A person says what happened; when that cannot follow the game as it stands, one of
        the tracker's own guesses was wrong: the replacement that fits the view best, with
        the answer made after it, stands.
        """
        if not isinstance(event, Take | Place) or not self._may_revise():
            return []
        fits: list[tuple[float, int, Event, Game]] = []
        scorer = Scorer(self._view) if self._view is not None else None
        for index in self._doubtful():
            for other, _table, game in self._replacements(index):
                if isinstance(event, Take) and player is not None and player != game.turn:
                    continue
                trial = game.copy()
                try:
                    apply_event(trial, event, player if isinstance(event, Take) else None)
                except RulesError:
                    continue
                cost = scorer.cost(retro.present_table(trial)) if scorer is not None else 0.0
                fits.append((cost, index, other, game))
        if not fits:
            return []
        _cost, index, other, game = min(fits, key=lambda item: item[0])
        return [self._replace(index, other, game), *self._confirm(event)]

    def _answer_later(self, event: Event, player: int | None, candidates: tuple[Event, ...]) -> list[Result]:
        """An answer about the turn after the one asked about: that turn is the candidate
        after which the answer can come, if only one is, or if the view clearly prefers it."""
        fits: list[tuple[Event, Game]] = []
        for candidate in candidates:
            if not isinstance(candidate, Take | Place) or not self._wall_shows(candidate):
                continue
            try:
                trial, _mover = self._legal_copy(candidate)
                apply_event(trial.copy(), event, player)
            except RulesError:
                continue
            fits.append((candidate, trial))
        if not fits:
            return []
        first = fits[0][0]
        if len(fits) > 1:
            if self._view is None:
                return []
            scorer = Scorer(self._view)
            costs = sorted((scorer.cost(self._answered_table(trial, event, player)), n)
                           for n, (_c, trial) in enumerate(fits))
            if costs[1][0] - costs[0][0] < ANSWER_MARGIN:
                return []
            first = fits[costs[0][1]][0]
        mover = self.game.turn if isinstance(first, Take) else None
        return [self._accept(first, mover, auto=True), *self._confirm(event)]

    @staticmethod
    def _answered_table(game: Game, event: Event, player: int | None) -> Table:
        """The table once ``event`` (legal in ``game``) is made."""
        if isinstance(event, Take) and game.phase == DRAFTING:
            return after_take(game, event)
        after = game.copy()
        apply_event(after, event, player)
        return tiling_table(after) if after.phase == TILING else table_of(after)

    def _wall_shows(self, event: Event) -> bool:
        """A placement's tile is on the wall in the view (anything else: nothing says no)."""
        if not isinstance(event, Place) or self._view is None:
            return True
        seen = self._view.boards[event.player]
        if seen is None or seen.wall is None:
            return True
        board = self.game.boards[event.player]
        return seen.wall[(event.line - 1) * 5 + event.column - 1] == board.line_colors[event.line - 1]

    def enter(self, event: Event) -> list[Result]:
        """What a person says happened, asked or not: the display's "none of these".

        The event must be legal now (a take by the player to move, a grey-wall placement,
        the round's refill), or once a recent event the tracker accepted without asking is
        replaced by another; otherwise nothing changes and a warning says why.
        """
        try:
            self._legal_copy(event)
        except RulesError as error:
            mover = self.game.turn if isinstance(event, Take) else None
            return self._answer_elsewhere(event, mover) or self._set_warnings((Warning("refused", _(
                "That cannot have happened here: {reason}").format(reason=error)),))
        return self._confirm(event)

    # --- deciding --------------------------------------------------------------------

    def _settle(self) -> list[Result]:
        """Accept every event the view makes clear, then remember what is left to decide."""
        out: list[Result] = []
        for _step in range(16):
            if self.game.phase == OVER or self._view is None:
                self._decision = None
                break
            if self.game.phase == DRAFTING:
                revision = self._voted_correction()
                if revision is not None:
                    out.append(revision)
                    continue
            decision = self._decide(self._view)
            if isinstance(decision, list):
                out += decision
                continue
            if isinstance(decision, Accepted):
                out.append(decision)
                continue
            if decision.kind != "wait" and self.game.phase == DRAFTING:
                revision = self._retro_correction(self._view, under_way=decision.kind != "none")
                if revision is not None:
                    out.append(revision)
                    continue
            if decision.kind != "wait":
                revision = self._second_thoughts(self._view, under_way=decision.kind != "none")
                if revision is not None:
                    out.append(revision)
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
        if (not self._stalled and self._frames - self._changed_at >= STALL and decision is not None
                and decision.kind != "none" and self.game.phase != OVER):
            # Never stall silently: tell the table, and go on trying every new view.
            self._stalled = True
            out += self._set_warnings((*self.warnings, Warning("stalled", _(
                "I cannot follow the table: check the tiles, or confirm the last move."))))
        if decision is None or decision.kind == "wait":
            return out
        self._streak += 1
        if self._committed or self._streak < PERSIST:
            return out
        self._committed = True
        if decision.kind == "none":
            # The table matches the engine again: a mistake was put right, a question lapsed.
            self.warnings = ()
            self._lapsed = self.prompt or self._lapsed
            self.prompt = None
            return out
        if decision.kind == "warn":
            out += self._set_warnings(decision.warnings)
        if decision.candidates:
            if self.prompt is None or self.prompt.candidates != decision.candidates:
                self.prompt = Prompt(decision.candidates, 0, decision.player)
                out.append(self.prompt)
        elif decision.kind == "warn":
            self.prompt = None
        return out

    def _decide(self, view: View) -> _Decision | tuple[Event, int | None] | Accepted | list[Result]:
        phase = self.game.phase
        if phase == REFILL:
            decision = self._decide_refill(view)
        elif phase == DRAFTING:
            decision = self._decide_take(view)
        elif phase == TILING:
            decision = self._decide_place(view)
        else:
            decision = _Decision("none")
        if isinstance(decision, tuple):
            return self._accept(*decision, auto=True)
        return decision

    def _options(self, scorer: Scorer) -> list[_Option]:
        """Every take the view may show, each at its best (plain or with its factory corrected)."""
        takes: list[tuple[Take, Table]] = self._cached("takes", self._take_tables)
        best: dict[Take, _Option] = {}
        for move, table in takes:
            best[move] = _Option(scorer.cost(table), move, table)
        for option in self._corrected_takes(scorer):
            if option.move not in best or option.cost < best[option.move].cost:
                best[option.move] = option
        return sorted(best.values(), key=lambda o: o.cost)

    def _decide_take(self, view: View) -> _Decision | tuple[Event, int | None] | list[Result]:
        game = self.game
        scorer = Scorer(view)
        null = self._cached("null", lambda: table_of(game))
        options = self._options(scorer)
        null_cost = scorer.cost(null)
        best = options[0]
        gain = null_cost - best.cost
        local = scorer.local(best.table, null)
        rest = best.cost - local
        # Whether a change is worth a question is judged in places, whatever the mover's
        # board's confidence: one tile moved is, when the view shows the move's own places
        # exactly (misreads elsewhere do not make the change smaller).
        seen = view.boards[game.turn]
        places = in_places(gain, seen.weight) if seen is not None and local == 0 else gain
        if places < GAIN_ASK or (gain < GAIN and local > 0):
            return _Decision("none", ("none", self._version))
        second = options[1].cost if len(options) > 1 else math.inf
        # A table that one legal move does not explain: a mistake, or turns missed?
        if local > 0 or rest > 0:
            found = self._explanations(scorer, rest, [o.move for o in options[:4] if o.correction is None])
            if found and found[0][0] + MARGIN <= best.cost:
                return self._explained(found, options, null_cost)
        # Misreads that last a still state pile up elsewhere on a big table: a move whose own
        # places match the view exactly may leave a little more unexplained.
        room = REST + EXACT_ROOM if local == 0 and second - best.cost >= EXACT_MARGIN else REST
        # Which line a take went to, a later view tells again (and second thoughts put it
        # right): a smaller lead is enough when the takes close behind differ in line alone.
        margin = LINE_MARGIN if all(
            o.move.source == best.move.source and o.move.color == best.move.color
            for o in options[1:] if o.cost < best.cost + MARGIN) else MARGIN
        if (local <= LOCAL and rest <= room and gain >= GAIN and second - best.cost >= margin
                and best.move != self._suspect):
            return self._take_with(best, auto=True)
        if local <= LOCAL * 1.5:
            near = [o.move for o in options if o.cost <= best.cost + MARGIN + 1][:CHOICES]
            return self._ask(near, game.turn)
        return _Decision("warn", ("unexplained", self._version), self._override(options), game.turn,
                         (Warning("no-legal-move", _(
                             "The table does not match any legal move: put it back as it was, "
                             "or confirm a move.")),))

    def _take_with(self, option: _Option, auto: bool) -> list[Result]:
        """Accept ``option``'s take, correcting the refill first if the take showed it wrong."""
        out: list[Result] = []
        if option.correction is not None:
            revised = self._correct(option.correction.changes)
            if revised is None:
                if not self.game.is_legal(option.move):
                    return []
                return [self._accept(option.move, self.game.turn, auto)]
            out.append(revised)
        out.append(self._accept(option.move, self.game.turn, auto))
        return out

    def _corrected_takes(self, scorer: Scorer) -> list[_Option]:
        """Takes from a factory whose tiles, as the view shows them moved, differ from the refill's."""
        game = self.game
        base = self._round_base()
        if base is None or not self._may_revise():
            return []
        view = scorer.view
        gain = rev.center_gain(view, game)
        targets = game.boards[game.turn].targets
        found: list[_Option] = []
        for number, factory in enumerate(game.factories):
            if not factory:
                continue
            accepted = rev.counts_of(factory)
            tally = self._evidence.tally(number)
            candidates = {counts for counts in tally if counts != accepted}
            for color in range(5):
                lines = [line + 1 for line in range(5) if targets[color] >> line & 1] + [FLOOR]
                for line in lines:
                    implied = rev.implied_contents(view, game, gain, color, line, accepted=accepted)
                    if implied is not None and sum(implied) == sum(accepted):
                        candidates.add(implied)
            candidates = {c for c in candidates if rev.recolourings(accepted, c) <= 2}
            self._cache[f"candidates {number}"] = candidates
            for counts in candidates:
                corrected = self._corrected(number, counts)
                if corrected is None:
                    continue
                changes, trial, cost = corrected
                for color in range(5):
                    if not counts[color]:
                        continue
                    extra = CENTER_ONLY if counts[color] == accepted[color] else 0.0
                    for move, table in self._cached(f"corrected {changes} {color}",
                                                    lambda trial=trial, number=number, color=color:
                                                    self._source_tables(trial, number + 1, color)):
                        found.append(_Option(scorer.cost(table) + cost + extra, move, table,
                                             _Correction(changes)))
        return found

    def _source_tables(self, game: Game, source: int, color: int) -> list[tuple[Take, Table]]:
        return [(move, after_take(game, move)) for move in game.generate_legal_moves()
                if isinstance(move, Take) and move.source == source and move.color == color]

    def _corrected(self, number: int, counts: Counts) -> tuple[rev.Changes, Game, float] | None:
        """The current state had factory ``number`` held ``counts``: the changes to the refill
        that make it a possible draw, the state, and their cost (None: no such draw).

        The states are worked out once per accepted event; the costs follow the evidence.
        """
        base = self._round_base()
        if base is None:
            return None
        refill: Refill = self.record.events[base[0]]  # type: ignore[assignment]
        drawn = counts_of_refill(refill)
        cost = rev.correction_cost(self._evidence.tally(number), drawn[number], counts)
        alone = ((number, counts),)
        game = self._corrected_state(alone)
        if game is not None:
            return alone, game, cost
        # No possible draw alone: another untouched factory was misread the other way.
        partners = []
        for other, factory in enumerate(self.game.factories):
            swapped = rev.compensations(drawn[number], counts, drawn[other]) \
                if other != number and factory else None
            if swapped is not None:
                tally = self._evidence.tally(other)
                partners.append((rev.correction_cost(tally, drawn[other], swapped), -tally.get(swapped, 0.0),
                                 other, swapped))
        for extra, _votes, other, swapped in sorted(partners):
            changes = tuple(sorted(((number, counts), (other, swapped))))
            game = self._corrected_state(changes)
            if game is not None:
                return changes, game, cost + extra
        return None

    def _corrected_state(self, changes: rev.Changes) -> Game | None:
        key = f"state {changes}"
        if key not in self._cache:
            index, before = self._round_base()  # type: ignore[misc]
            made = rev.corrected_game(before, self.record, index, changes)
            self._cache[key] = None if made is None else made[0]
        return self._cache[key]  # type: ignore[return-value]

    def _explanations(self, scorer: Scorer, rest: float,
                      firsts: list[Take]) -> list[tuple[float, hyp.Hypothesis]]:
        """Hypotheses beyond one legal move, closest first."""
        game = self.game
        options: list[hyp.Hypothesis] = []
        options += self._cached("mistakes", lambda: hyp.illegal_lines(game) + hyp.left_behind(game))
        if rest > 0:
            options += self._cached("out-of-turn", lambda: hyp.out_of_turn(game))
        if rest >= GAIN:
            for first in firsts:
                options += self._cached(f"seq {first}", lambda first=first: hyp.sequences(game, first))
        return sorted(((scorer.cost(h.table), h) for h in options), key=lambda item: item[0])

    def _explained(self, found: list[tuple[float, hyp.Hypothesis]], options: list[_Option],
                   null_cost: float) -> _Decision | list[Result]:
        game = self.game
        cost, best = found[0]
        if best.kind == hyp.SEQUENCE:
            # Two turns passed unseen (the first one's still state hid it, or was too short).
            # When every pair close to the best starts the same way, the first turn is taken;
            # the second is then judged on its own like any turn. A question about the first
            # turn would come too late: a person confirms the turn just played.
            runner_up = next((c for c, h in found[1:]
                              if h.kind != hyp.SEQUENCE or h.moves[0] != best.moves[0]), math.inf)
            if (best.moves[0] != self._suspect and cost <= REST and null_cost - cost >= 2 * GAIN
                    and runner_up - cost >= 2 * MARGIN):
                return [self._accept(best.moves[0], game.turn, auto=True)]
            # Otherwise ask about the first; the second then follows from the view.
            firsts: list[Event] = []
            for other_cost, h in found:
                if other_cost > cost + MARGIN or len(firsts) == CHOICES:
                    break
                if h.kind == hyp.SEQUENCE and h.moves[0] not in firsts:
                    firsts.append(h.moves[0])
            return self._ask(firsts, game.turn)
        warning = self._mistake_warning(best)
        candidates = list(best.moves) + [m for m in self._override(options) if m not in best.moves]
        return _Decision("warn", (best.kind, self._version, best.seat, best.color),
                         tuple(candidates[:CHOICES]), game.turn, (warning,))

    def _override(self, options: list[_Option]) -> tuple[Event, ...]:
        """The legal moves a person may confirm to override a warning, best first."""
        return tuple(o.move for o in options[:CHOICES])

    def _decide_place(self, view: View) -> _Decision | tuple[Event, int | None]:
        game = self.game
        scorer = Scorer(view)
        null = self._cached("tiling", lambda: tiling_table(game))
        best: tuple[float, list[tuple[float, Place, list[Place]]], int] | None = None
        for seat, line in game.pending_placements():
            base = scorer.board(seat, null.boards[seat])
            board = game.boards[seat]
            color = board.line_colors[line]
            free = [c for c in range(5) if board.wall[line * 5 + c] < 0]
            breaking = [c for c in free if board.col_colors[c] >> color & 1]
            scored: dict[tuple, tuple[float, list[Place]]] = {}
            for column in free:
                place = Place(seat, line + 1, column + 1)
                options = placed_boards(game, place)
                # Nobody breaks the Sudoku rule on purpose while a column is free for the tile:
                # such a placement must be seen better than the others to be believed.
                prior = SUDOKU_PRIOR if column in breaking and len(breaking) < len(free) else 0.0
                # Columns that give the same board cannot be told apart, and need not be:
                # the first is taken; a question offers them all.
                scored.setdefault(options[:2], (scorer.board(seat, options) + prior, []))[1].append(place)
            ranked = sorted(((cost, places[0], places) for cost, places in scored.values()),
                            key=lambda item: item[0])
            gain = base - ranked[0][0]
            if best is None or gain > best[0]:
                best = (gain, ranked, seat)
        if best is None:
            return _Decision("none", ("none", self._version))
        gain, ranked, seat = best
        cost, place, _same = ranked[0]
        # Everything here is one board's: judge it in places, whatever the board's confidence.
        weight = view.boards[seat].weight if view.boards[seat] is not None else 1.0  # type: ignore[union-attr]
        gain, cost = in_places(gain, weight), in_places(cost, weight)
        if gain < GAIN_ASK:
            return _Decision("none", ("none", self._version))
        second = in_places(ranked[1][0], weight) if len(ranked) > 1 else math.inf
        # As for takes: misreads elsewhere on the board matter less when the placed tile and
        # its emptied line are seen exactly.
        room = LOCAL + EXACT_ROOM if self._placed_exactly(view, place) and second - cost >= EXACT_MARGIN \
            else LOCAL
        # Every pending line is placed before the round ends, so only the column is in
        # doubt: the tile seen on the wall alone is enough, and a later view corrects it.
        if gain >= GAIN_ASK and cost <= room and second - cost >= MARGIN and place != self._suspect:
            return place, seat
        near = [p for c, _p, same in ranked if in_places(c, weight) <= cost + MARGIN + 1 for p in same]
        return self._ask(near[:CHOICES], seat)

    def _placed_exactly(self, view: View, place: Place) -> bool:
        """The view shows the placement's own places as it leaves them: the tile on the wall,
        its pattern line empty."""
        seen = view.boards[place.player]
        if seen is None or seen.wall is None:
            return False
        color = self.game.boards[place.player].line_colors[place.line - 1]
        return (seen.wall[(place.line - 1) * 5 + place.column - 1] == color
                and seen.lines[place.line - 1] == (EMPTY, 0))

    def _decide_refill(self, view: View) -> _Decision | tuple[Event, int | None]:
        game = self.game
        if any(f is None for f in view.factories):
            return _Decision("wait")
        sizes = refill_sizes(game)
        frames = self._evidence.frames
        if any(frames[n] for n, size in enumerate(sizes) if size) and self._refill_seen_at is None:
            self._refill_seen_at = self._frames
        ready = all(frames[n] >= self._consensus.need for n, size in enumerate(sizes) if size)
        waited = 0 if self._refill_seen_at is None else self._frames - self._refill_seen_at
        # Play has begun when a factory once read in full is empty again. Once is enough: a
        # misread that lasts the whole still state may keep a factory from being read in full.
        need = self._consensus.need
        began = any(size and self._evidence.emptied[n] >= need for n, size in enumerate(sizes))
        if not ready:
            # A factory not yet read in full: wait for it, but not once play has begun nor for ever.
            seen = sum(1 for n, size in enumerate(sizes) if size and frames[n])
            if not began and (waited < STALL // 2 or 2 * seen < sum(1 for size in sizes if size)):
                return _Decision("wait")
        boards = self._cached("null", lambda: table_of(game)).boards
        scorer = Scorer(view)
        if not ready and not began and waited < STALL and \
                sum(scorer.board(seat, options) for seat, options in enumerate(boards)) > REST:
            # The boards are not those the engine ended the round with: play went on unseen,
            # and these factories may belong to a later round. Never guess them for this one
            # early; the evidence gathered since the round ended is this round's, though.
            return _Decision("warn", ("boards-moved-on", self._version), (), None, (Warning(
                "unexpected-table", _("The player boards do not match the game; undo or check "
                                      "the boards before the next round.")),))
        suspect = self._suspect if isinstance(self._suspect, Refill) else None
        ranked = ranked_refills(game, self._evidence, others=suspect is not None)
        ranked = [(cost, refill) for cost, refill in ranked if refill != suspect]
        if not ranked:
            if suspect is not None:
                return self._ask([suspect], None)
            return _Decision("warn", ("impossible-refill", self._version), (), None, (Warning(
                "impossible-refill", _("The factories do not hold a draw the bag can have given: "
                                       "check the tiles on the factories.")),))
        cost, refill = ranked[0]
        if cost == 0 and suspect is None:
            return refill, None
        if self.ask_refills and (suspect is not None or (
                len(ranked) > 1 and ranked[1][0] - cost < REFILL_TIE)):
            return self._ask([r for _c, r in ranked] + ([suspect] if suspect else []), None)
        # The nearest possible draw; the round's evidence will correct it if it is wrong.
        return refill, None

    def _voted_correction(self) -> Accepted | None:
        """Correct the refill where an untouched factory has been seen otherwise in more still states."""
        if self._round_base() is None or not self._may_revise():
            return None
        for number, factory in enumerate(self.game.factories):
            if not factory:
                continue
            accepted = rev.counts_of(factory)
            tally = self._evidence.tally(number)
            if not tally:
                continue
            top, votes = max(tally.items(), key=lambda item: (item[1], item[0]))
            if top != accepted and votes >= tally.get(accepted, 0.0) + REVOTE and votes >= 1.5:
                corrected = self._corrected(number, top)
                if corrected is not None:
                    revised = self._correct(corrected[0])
                    if revised is not None:
                        return revised
        return None

    def _retro_correction(self, view: View, under_way: bool) -> Accepted | None:
        """Correct the refill at a factory already taken from, when the table keeps saying so.

        The tiles a take moved stay on view (on a pattern line, the floor, in the centre);
        when a corrected refill fits the table clearly better than the accepted one in two
        still states, or a little better in :data:`LEAN_STATES`, it replaces it. States that
        show a move ``under_way`` do not count: a move half seen can favour any refill.
        """
        base = self._round_base()
        if base is None or not self._may_revise():
            return None
        self._note_last_take(view, base[0])
        self._note_lines(view, base[0])
        if under_way or not self._alternatives:
            return None
        scorer = Scorer(view)
        null = self._cached("null", lambda: table_of(self.game))
        null_cost = scorer.cost(null)
        if null_cost < RETRO_MARGIN:
            return None
        for number, alternatives in list(self._alternatives.items()):
            refill: Refill = self.record.events[base[0]]  # type: ignore[assignment]
            accepted = counts_of_refill(refill)[number]
            for counts in list(alternatives):
                if counts == accepted:
                    continue
                corrected = self._corrected(number, counts)
                if corrected is None:
                    continue
                changes, trial, extra = corrected
                table = self._cached(f"table {changes}", lambda trial=trial: table_of(trial))
                cost = scorer.cost(table) + extra
                lead = null_cost - cost
                if lead < RETRO_LEAN:
                    continue
                leads = self._strikes.setdefault((number, counts), {})
                leads[self._states] = max(lead, leads.get(self._states, 0.0))
                clear = sum(1 for shown in leads.values() if shown >= RETRO_MARGIN)
                # A smaller lead is believed when the table keeps showing it, turn after turn.
                if (clear >= 2 or len(leads) >= LEAN_STATES
                        or (clear and self._frames - self._changed_at >= STALL)):
                    return self._correct(changes)
        return None

    def _note_lines(self, view: View, index: int) -> None:
        """Other contents for each factory taken from this round, as the view shows its take's line."""
        refill: Refill = self.record.events[index]  # type: ignore[assignment]
        drawn = counts_of_refill(refill)
        emptied: list[Take] = []  # factory takes so far, whose leftovers went to the centre
        for number in range(index + 1, len(self.record.events)):
            event = self.record.events[number]
            if not isinstance(event, Take):
                continue
            mover = self.record.movers[number]
            if event.source:
                others = rev.line_recolourings(view, self.game, event, mover, drawn[event.source - 1])
                if others:
                    self._alternatives.setdefault(event.source - 1, set()).update(others)
                emptied.append(event)
                continue
            # A take from the centre that moved a tile more or fewer: one of the leftovers
            # some factory sent there had another colour.
            off = rev.line_offset(view, self.game, event, mover)
            if abs(off) == 1:
                for earlier in emptied:
                    self._alternatives.setdefault(earlier.source - 1, set()).update(rev.leftover_recolourings(
                        drawn[earlier.source - 1], earlier.color, event.color, off))

    def _note_last_take(self, view: View, index: int) -> None:
        """What the factory of the last take held, as this view shows the take's tiles.

        The view the take was accepted on may have mixed in frames from before it; every
        later view of the same table tells the factory's contents again.
        """
        last = len(self.record.events) - 1
        event = self.record.events[last]
        if last <= index or not isinstance(event, Take) or not event.source:
            return
        before = self._cached("before last", lambda: rev.state_before(self.record, last))
        number = event.source - 1
        accepted = counts_of_refill(self.record.events[index])[number]  # type: ignore[arg-type]
        implied = rev.implied_contents(view, before, rev.center_gain(view, before), event.color,
                                       event.line, accepted=accepted)
        if (implied is not None and implied != accepted and sum(implied) == sum(accepted)
                and rev.recolourings(accepted, implied) <= 2):
            self._alternatives.setdefault(number, set()).add(implied)

    def _correct(self, changes: rev.Changes) -> Accepted | None:
        """Correct this round's refill by ``changes``, and play the events since it again."""
        base = self._round_base()
        if base is None:
            return None
        index, before = base
        refill: Refill = self.record.events[index]  # type: ignore[assignment]
        made = rev.corrected_game(before, self.record, index, changes)
        if made is None:
            return None
        game, revised = made
        if self._tried.get(revised, 0) >= REVISITS:
            return None  # the evidence goes round in circles: keep what stands
        self._tried[refill] = self._tried.get(refill, 0) + 1
        self._tried[revised] = self._tried.get(revised, 0) + 1
        old = counts_of_refill(refill)
        for number, _counts in changes:
            self._alternatives.setdefault(number, set()).add(old[number])
        self._rewrite(index, revised)
        self.game = game
        self._strikes.clear()
        self._changed()
        self.revised += 1
        log.info("refill corrected from the round's evidence: %s", revised)
        return Accepted(revised, None, auto=True, revised=True)

    def _second_thoughts(self, view: View, under_way: bool) -> Accepted | None:
        """Replace a recent take or placement by another that the table keeps showing instead.

        Only events accepted without asking, among the last :data:`SECOND_LOOK`; the other
        event must fit the view clearly better than the game as it stands (with the move
        ``under_way``, when the view shows one), and than every other replacement, in two
        still states more than showed the table as the engine has it.
        """
        if not self._may_revise():
            return None
        scorer = Scorer(view)
        present = self._cached("present", lambda: retro.present_table(self.game))
        null_cost = scorer.cost(present)
        if null_cost < RETRO_MARGIN:
            self._matched.add(self._states)
            return None
        if under_way:
            # The move under way explains part of the view too: the replacement must beat it.
            null_cost = min(null_cost, self._next_cost(scorer))
        ranked: list[tuple[float, int, Event, Game]] = []
        seen: set[Table] = {present}
        for index in self._doubtful():
            for other, table, game in self._replacements(index):
                if table not in seen:  # events the table cannot tell apart leave the same table
                    seen.add(table)
                    ranked.append((scorer.cost(table), index, other, game))
        if not ranked:
            return None
        ranked.sort(key=lambda item: item[0])
        cost, index, other, game = ranked[0]
        if cost + RETRO_MARGIN > null_cost or (len(ranked) > 1 and ranked[1][0] - cost < REPLACE_LEAD):
            return None
        key = (index, other)
        if self._replaced.get(key, 0) >= REVISITS:
            return None  # the evidence goes round in circles: keep what stands
        strikes = self._doubts.setdefault(key, set())
        strikes.add(self._states)
        # Still states that showed the table as the engine has it speak for the event: a
        # misread that lasts is outvoted by them.
        support = sum(1 for state in self._matched if state >= self._accepted_at.get(index, 0))
        if len(strikes) < 2 + support and self._frames - self._changed_at < STALL:
            return None
        return self._replace(index, other, game)

    def _next_cost(self, scorer: Scorer) -> float:
        """How close the best next take or placement comes to the view."""
        if self.game.phase == DRAFTING:
            options = self._options(scorer)
            return options[0].cost if options else math.inf
        if self.game.phase == TILING:
            tables = self._cached("place tables", self._place_tables)
            return min((scorer.cost(table) for table in tables), default=math.inf)
        return math.inf

    def _place_tables(self) -> list[Table]:
        out = []
        for place in self.game.generate_legal_moves():
            trial = self.game.copy()
            apply_event(trial, place, place.player)  # type: ignore[union-attr]
            out.append(retro.present_table(trial))
        return out

    def _doubtful(self) -> list[int]:
        """Of the last :data:`SECOND_LOOK` takes and placements, those accepted without asking, last first."""
        out = []
        looked = 0
        for index in range(len(self.record.events) - 1, self._resumed - 1, -1):
            if not isinstance(self.record.events[index], Take | Place):
                continue
            if index not in self._confirmed:
                out.append(index)
            looked += 1
            if looked == SECOND_LOOK:
                break
        return out

    def _replacements(self, index: int) -> list[tuple[Event, Table, Game]]:
        """Each other event for event ``index``, the table it leaves and the game (as it stands now)."""
        def make() -> list[tuple[Event, Table, Game]]:
            phase = self.game.phase
            return [(other, retro.present_table(game), game)
                    for other, game in retro.alternatives(self.record, index) if game.phase == phase]
        return self._cached(f"replacements {index}", make)

    def _replace(self, index: int, other: Event, game: Game) -> Accepted:
        """Put ``other`` in place of event ``index``, and play the events since again."""
        old = self.record.events[index]
        self._rewrite(index, other)
        self._accepted_at[index] = self._states  # what the table showed before spoke for the old event
        self._replaced[(index, old)] = self._replaced.get((index, old), 0) + 1
        self._replaced[(index, other)] = self._replaced.get((index, other), 0) + 1
        self.game = game
        self._base = None  # a replaced take before the round's refill changes what it was drawn from
        self._doubts.clear()
        self._changed()
        self.replaced += 1
        player = self.record.movers[index]
        log.info("event %d replaced from later views: %s by %s", index, other, player)
        replaced = Accepted(other, player, auto=True, revised=True)
        if index == len(self.record.events) - 1:
            self.last = replaced
        return replaced

    def _rewrite(self, index: int, event: Event) -> None:
        """Event ``index`` becomes ``event``: the sink takes the events since back and gets them again."""
        if self.sink is not None:
            for _event in self.record.events[index:]:
                self.sink.undo()  # type: ignore[attr-defined]
            again = [event, *self.record.events[index + 1:]]
            for then, player in zip(again, self.record.movers[index:], strict=True):
                self.sink.append(event_to_json(then, player))  # type: ignore[attr-defined]
        self.record.events[index] = event

    def _may_revise(self) -> bool:
        # Revising rewrites recorded events (since a refill or a replaced move): only with a
        # sink that can take them back.
        return self.sink is None or hasattr(self.sink, "undo")

    def _round_base(self) -> tuple[int, Game] | None:
        """This round's refill index and the state it was drawn from (None before the first)."""
        index = self._cached("refill-index", self._refill_index)
        if index is None:
            return None
        if self._base is None or self._base[0] != index:
            self._base = (index, rev.state_before(self.record, index))
        return self._base

    def _refill_index(self) -> int | None:
        for index in range(len(self.record.events) - 1, -1, -1):
            if isinstance(self.record.events[index], Refill):
                return index
        return None

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

    def _sizes(self) -> list[int]:
        """How many tiles each factory holds now (or gets from the coming refill)."""
        game = self.game
        if game.phase == REFILL:
            return refill_sizes(game)
        if game.phase == DRAFTING:
            return [sum(f.values()) for f in game.factories]
        return [0] * len(game.factories)

    def _round_key(self) -> int:
        return self.game.round + (self.game.phase == REFILL)

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
        if isinstance(event, Take) and event.source:
            # What else the factory may have held: checked again against later views.
            number = event.source - 1
            self._alternatives.setdefault(number, set()).update(
                self._evidence.tally(number), self._cache.get(f"candidates {number}", ()))
        if self.sink is not None:
            self.sink.append(event_to_json(event, player))  # type: ignore[attr-defined]
        self.record.append(event, player)
        if not auto:
            self._confirmed.add(len(self.record.events) - 1)
        self.game = trial
        self._changed(carry=self._consensus.frames)
        self._accepted_at[len(self.record.events) - 1] = self._states
        self.last = Accepted(event, player, auto)
        if auto:
            self.auto += 1
        else:
            self.asked += 1
        return self.last

    def _confirm(self, event: Event) -> list[Result]:
        option = None
        if isinstance(event, Take) and self.game.phase == DRAFTING and self._view is not None:
            # The take is the person's; what the factory held is still the view's to tell.
            option = next((o for o in self._options(Scorer(self._view)) if o.move == event), None)
        if option is not None and option.correction is not None:
            accepted = self._take_with(option, auto=False)
            if not accepted:
                return []
        else:
            try:
                accepted = [self._accept(event, None, auto=False)]
            except RulesError as error:
                log.warning("confirmed event refused: %s", error)
                return []
        return [*accepted, *self._settle(), *self._advance()]

    def _undo(self) -> list[Result]:
        if not self.record.events:
            return []
        event = self.record.events.pop()
        self.record.movers.pop()
        self._confirmed.discard(len(self.record.events))
        self._replaced = {key: n for key, n in self._replaced.items() if key[0] < len(self.record.events)}
        self._doubts.clear()
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

    def _close_state(self, carry: int = 0) -> None:
        self._evidence.close(carry)
        self._states += 1

    def _changed(self, carry: int | None = None) -> None:
        """The engine state changed; ``carry`` is given when the table did too (a new still state)."""
        if carry is not None:
            self._close_state(carry)
        key = self._round_key()
        if key != self._evidence_round:
            if key > self._evidence_round:
                self._evidence.reset()  # a new round: the factories show new tiles
                self._refill_seen_at = None
            self._alternatives.clear()
            self._strikes.clear()
            self._tried.clear()
            self._evidence_round = key
        self._changed_at = self._frames
        self._stalled = False
        self._cache.clear()
        self.prompt = None
        self._lapsed = None
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
