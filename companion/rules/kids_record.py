"""Azul Kids records: `azul-record/1` with ``"game": "azul-kids"``; read, write, replay, summary.

The record is what happened at the table; :mod:`companion.rules.kids` is the only judge
of what follows. Every problem raises :class:`RecordError` carrying the 0-based index of
the offending event (None for the header, boards included).
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.i18n import _
from companion.rules.errors import RecordError, RulesError
from companion.rules.kids import (
    BIG,
    COLORS,
    MASTER,
    PLAYERS,
    VARIANTS,
    Fill,
    KidsState,
    KidsTake,
)
from companion.rules.kids_board import KidsBoard

FORMAT = "azul-record/1"
GAME = "azul-kids"
SUMMARY_FORMAT = "azul-kids-summary/1"

_HEADER_KEYS = ("format", "game", "variant", "players", "boards", "events")


@dataclass(frozen=True, slots=True)
class PlayerTake:
    """A take as the record holds it: the move and the seat that made it."""

    player: int
    move: KidsTake


RecordEvent = Fill | PlayerTake


@dataclass(frozen=True, slots=True)
class KidsRecord:
    """An Azul Kids record: the header, one board per seat, and the events."""

    variant: str
    players: tuple[str, ...]
    boards: tuple[KidsBoard, ...]
    events: tuple[RecordEvent, ...] = ()


def read(data: object) -> KidsRecord:
    """Check a parsed JSON value is an Azul Kids `azul-record/1` and build the record.

    Only the form is checked here (boards fully); :func:`replay` judges the rules.
    """
    if not isinstance(data, dict):
        raise RecordError(_("a record is a JSON object"))
    unknown = sorted(set(data) - set(_HEADER_KEYS))
    if unknown:
        raise RecordError(_("unknown key {key!r} (a record has {keys})").format(
            key=unknown[0], keys=", ".join(_HEADER_KEYS)))
    if data.get("format") != FORMAT:
        raise RecordError(_("format must be {expected!r}, not {found!r}").format(
            expected=FORMAT, found=data.get("format")))
    if data.get("game") != GAME:
        raise RecordError(_("game must be {expected!r}, not {found!r}").format(
            expected=GAME, found=data.get("game")))
    variant = data.get("variant")
    if variant not in VARIANTS:
        raise RecordError(_("variant must be 'apprentice' or 'master', not {found!r}").format(
            found=variant))
    players = data.get("players")
    if (not isinstance(players, list) or len(players) not in PLAYERS
            or not all(isinstance(p, str) and p for p in players)):
        raise RecordError(_("players must be a list of 2 to 4 names"))
    boards = data.get("boards")
    if not isinstance(boards, list) or len(boards) != len(players):
        raise RecordError(_("boards must be a list with one board per player ({n})").format(
            n=len(players)))
    built = []
    for seat, board_data in enumerate(boards):
        try:
            board = KidsBoard.from_json(board_data, _("board {seat}").format(seat=seat))
        except RulesError as error:
            raise RecordError(str(error)) from None
        if board.side != variant:
            raise RecordError(_("board {seat} ({name!r}) is for the {side} side, but the record"
                                " plays the {variant} side").format(
                seat=seat, name=board.name, side=board.side, variant=variant))
        built.append(board)
    events = data.get("events")
    if not isinstance(events, list):
        raise RecordError(_("events must be a list"))
    return KidsRecord(variant, tuple(players), tuple(built),
                      tuple(_parse_event(item, variant, index) for index, item in enumerate(events)))


def to_json(record: KidsRecord) -> dict:
    """The record as JSON-ready data; :func:`read` gives the same record back."""
    return {
        "format": FORMAT,
        "game": GAME,
        "variant": record.variant,
        "players": list(record.players),
        "boards": [board.to_json() for board in record.boards],
        "events": [event_to_json(event, record.variant) for event in record.events],
    }


def event_to_json(event: RecordEvent, variant: str) -> dict:
    """One event as the record writes it; master takes always carry picture and passed."""
    if isinstance(event, Fill):
        return {"fill": [list(bowl) for bowl in event.bowls]}
    move = event.move
    body: dict = {"player": event.player, "from": move.source, "color": move.color}
    if variant == MASTER:
        body["picture"] = move.picture
        body["passed"] = list(move.passed)
    return {"take": body}


def replay(data: dict | KidsRecord) -> KidsState:
    """Play a record (parsed JSON or a read record) from the start; the state after the last event."""
    record = data if isinstance(data, KidsRecord) else read(data)
    state = KidsState(record.variant, record.boards)
    for index, event in enumerate(record.events):
        try:
            if isinstance(event, PlayerTake):
                if state.is_over():
                    raise RulesError(_("the game is over; no event may follow"))
                if not state.needs_fill and event.player != state.turn:
                    raise RulesError(_("player {player} took out of turn; it is player {turn}'s"
                                       " turn").format(player=event.player, turn=state.turn))
                state.push(event.move)
            else:
                state.push(event)
        except RulesError as error:
            raise RecordError(str(error), index) from None
    return state


def record_of(state: KidsState, players: list[str] | tuple[str, ...]) -> KidsRecord:
    """The record of a game played on ``state`` from its start (its ``move_stack``)."""
    if len(players) != state.players:
        raise RulesError(_("{n} names for {seats} seats").format(n=len(players), seats=state.players))
    replayed = KidsState(state.variant, state.boards)
    events: list[RecordEvent] = []
    for event in state.move_stack:
        events.append(event if isinstance(event, Fill) else PlayerTake(replayed.turn, event))
        replayed.push(event)
    if replayed != state:
        raise RulesError(_("the state did not start at the beginning of a game"))
    return KidsRecord(state.variant, tuple(players), state.boards, tuple(events))


def summary(state: KidsState) -> dict:
    """The `azul-kids-summary/1` object of a game as far as it went."""
    outcome = state.outcome()
    return {
        "format": SUMMARY_FORMAT,
        "over": outcome is not None,
        "winners": list(outcome.winners) if outcome else [],
        "stars": [state.stars(seat) for seat in range(state.players)],
        "empty_fields": [sum(state.empty_fields(seat).values()) for seat in range(state.players)],
        "fills": state.fills,
        "stalled": state.stalled,
    }


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _parse_event(item: object, variant: str, index: int) -> RecordEvent:
    if not isinstance(item, dict) or len(item) != 1:
        raise RecordError(_("an event is an object with exactly one key"), index)
    ((kind, body),) = item.items()
    if kind == "fill":
        if not isinstance(body, list) or not all(isinstance(bowl, list) for bowl in body):
            raise RecordError(_("a fill is a list of small bowls, each a list of colours"), index)
        for bowl in body:
            for color in bowl:
                if color not in COLORS:
                    raise RecordError(_("unknown colour {color!r} (colours: {colors})").format(
                        color=color, colors=", ".join(COLORS)), index)
        return Fill(tuple(tuple(bowl) for bowl in body))
    if kind == "take":
        return _parse_take(body, variant, index)
    raise RecordError(_("unknown event {kind!r} (fill or take)").format(kind=kind), index)


def _parse_take(body: object, variant: str, index: int) -> PlayerTake:
    if variant == MASTER:
        required, allowed = {"player", "from", "color", "picture"}, {"passed"}
    else:
        required, allowed = {"player", "from", "color"}, set()
    if not isinstance(body, dict) or not required <= set(body) <= required | allowed:
        keys = ", ".join(sorted(required)) + (_(" and optionally passed") if allowed else "")
        raise RecordError(_("{variant} takes have the keys {keys}").format(
            variant=variant, keys=keys), index)
    player, source, color = body["player"], body["from"], body["color"]
    if not _is_int(player):
        raise RecordError(_("a take's player is a seat number, not {found!r}").format(found=player),
                          index)
    if source != BIG and not _is_int(source):
        raise RecordError(_("a take comes from small bowl 1-5 or \"big\", not {found!r}").format(
            found=source), index)
    if color not in COLORS:
        raise RecordError(_("unknown colour {color!r} (colours: {colors})").format(
            color=color, colors=", ".join(COLORS)), index)
    picture = body.get("picture")
    passed = body.get("passed", [])
    if picture is not None and not isinstance(picture, str):
        raise RecordError(_("picture is a picture id or null, not {found!r}").format(found=picture),
                          index)
    if not isinstance(passed, list) or not all(p is None or isinstance(p, str) for p in passed):
        raise RecordError(_("passed is a list of picture ids or nulls, not {found!r}").format(
            found=passed), index)
    return PlayerTake(player, KidsTake(source, color, picture, tuple(passed)))
