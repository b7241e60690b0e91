"""Game records `azul-record/1` for base Azul: JSON in and out, replay, and the summary.

The record is what happened at the table; the engine in :mod:`companion.rules.azul` is
the only judge of what follows. Every problem raises :class:`RecordError` carrying the
0-based index of the offending event (None for the header).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from companion.i18n import _
from companion.rules.azul import (
    CENTER,
    COLORS,
    FACTORIES,
    FLOOR,
    OVER,
    TILING,
    VARIANTS,
    Event,
    Game,
    Place,
    Refill,
    Take,
)
from companion.rules.errors import RecordError, RulesError

FORMAT = "azul-record/1"
SUMMARY_FORMAT = "azul-summary/1"


@dataclass
class Record:
    """A base-game record: the header and its events, with each take's player."""

    players: list[str]
    variant: str = "colored"
    events: list[Event] = field(default_factory=list)
    movers: list[int | None] = field(default_factory=list)  # each take's seat, None otherwise

    def append(self, event: Event, player: int | None = None) -> None:
        self.events.append(event)
        self.movers.append(player if isinstance(event, Take) else None)

    def to_json(self) -> dict:
        return {
            "format": FORMAT,
            "game": "azul",
            "variant": self.variant,
            "players": list(self.players),
            "events": [event_to_json(e, p) for e, p in zip(self.events, self.movers, strict=True)],
        }


def dumps(data: dict) -> str:
    """A record as JSON text with one event per line, so that it reads, diffs and appends well."""
    head = {key: value for key, value in data.items() if key != "events"}
    text = json.dumps(head, ensure_ascii=False)[:-1]
    events = ",\n".join(json.dumps(e, ensure_ascii=False) for e in data.get("events", []))
    return f'{text}, "events": [\n{events}\n]}}\n' if events else f'{text}, "events": []}}\n'


def event_to_json(event: Event, player: int | None = None) -> dict:
    """One event as the record writes it; a take needs the seat that made it."""
    if isinstance(event, Refill):
        return {"refill": [[COLORS[c] for c in tiles] for tiles in event.factories]}
    if isinstance(event, Take):
        if player is None:
            raise ValueError(_("a take is written with the player who made it"))
        return {"take": {
            "player": player,
            "from": "center" if event.source == CENTER else event.source,
            "color": COLORS[event.color],
            "to": "floor" if event.line == FLOOR else event.line,
        }}
    return {"place": {"player": event.player, "line": event.line, "column": event.column}}


def read_record(data: object) -> Record:
    """Check a parsed JSON value is an `azul-record/1` of base Azul and turn it into a Record.

    Only the form is checked here; :func:`replay` judges the rules.
    """
    if not isinstance(data, dict):
        raise RecordError(_("a record is a JSON object"))
    if data.get("format") != FORMAT:
        raise RecordError(_("format must be {expected!r}, not {found!r}").format(
            expected=FORMAT, found=data.get("format")))
    if data.get("game") != "azul":
        raise RecordError(_("game must be 'azul', not {found!r}").format(found=data.get("game")))
    variant = data.get("variant")
    if variant not in VARIANTS:
        raise RecordError(_("variant must be 'colored' or 'grey', not {found!r}").format(found=variant))
    players = data.get("players")
    if (not isinstance(players, list) or not all(isinstance(p, str) and p for p in players)
            or len(players) not in FACTORIES):
        raise RecordError(_("players must be a list of 2 to 4 names"))
    events = data.get("events")
    if not isinstance(events, list):
        raise RecordError(_("events must be a list"))
    record = Record(list(players), variant)
    for index, item in enumerate(events):
        event, player = _parse_event(item, index)
        record.events.append(event)
        record.movers.append(player)
    return record


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _color(value: object, index: int | None) -> int:
    if value not in COLORS:
        raise RecordError(_("unknown colour {value!r}").format(value=value), index)
    return COLORS.index(value)  # type: ignore[arg-type]


def _fields(body: object, keys: tuple[str, ...], kind: str, index: int | None) -> dict:
    if not isinstance(body, dict) or set(body) != set(keys):
        raise RecordError(_("a {kind} event has exactly the keys {keys}").format(
            kind=kind, keys=", ".join(keys)), index)
    return body


def read_event(item: object) -> tuple[Event, int | None]:
    """One event as the record writes it (the inverse of :func:`event_to_json`): the event
    and, for a take, the seat that made it. Only the form is checked."""
    return _parse_event(item, None)


def _parse_event(item: object, index: int | None) -> tuple[Event, int | None]:
    if not isinstance(item, dict) or len(item) != 1:
        raise RecordError(_("an event is an object with exactly one key"), index)
    ((kind, body),) = item.items()
    if kind == "refill":
        if not isinstance(body, list) or not all(isinstance(f, list) for f in body):
            raise RecordError(_("a refill is a list of factories, each a list of colours"), index)
        return Refill(tuple(tuple(_color(c, index) for c in tiles) for tiles in body)), None
    if kind == "take":
        body = _fields(body, ("player", "from", "color", "to"), "take", index)
        player, source, target = body["player"], body["from"], body["to"]
        if not _is_int(player):
            raise RecordError(_("a take's player is a seat number"), index)
        if source == "center":
            source = CENTER
        elif not _is_int(source) or source < 1:
            raise RecordError(_("a take comes from a factory number or \"center\", not {value!r}").format(
                value=source), index)
        if target == "floor":
            target = FLOOR
        elif not _is_int(target) or not 1 <= target <= 5:
            raise RecordError(_("a take goes to pattern line 1-5 or \"floor\", not {value!r}").format(
                value=target), index)
        return Take(source, _color(body["color"], index), target), player
    if kind == "place":
        body = _fields(body, ("player", "line", "column"), "place", index)
        if not all(_is_int(body[k]) for k in ("player", "line", "column")):
            raise RecordError(_("a place event's player, line and column are numbers"), index)
        return Place(body["player"], body["line"], body["column"]), None
    raise RecordError(_("unknown event {kind!r} (refill, take or place)").format(kind=kind), index)


def replay(record: Record) -> Game:
    """Play a record's events from the start; the state after the last one."""
    game = Game(len(record.players), record.variant)
    for index, (event, player) in enumerate(zip(record.events, record.movers, strict=True)):
        try:
            apply_event(game, event, player)
        except RulesError as error:
            raise RecordError(str(error), index) from None
    return game


def apply_event(game: Game, event: Event, player: int | None = None) -> None:
    """Push one record event, checking the things a record says beyond the move itself."""
    if game.phase == OVER:
        raise RulesError(_("the game is over; no event may follow"))
    if isinstance(event, Refill | Take) and game.phase == TILING:
        raise RulesError(_("wall-tiling is not finished: {pending} still to place").format(
            pending=", ".join(f"player {s} line {line + 1}" for s, line in game.pending_placements())))
    if isinstance(event, Take) and player != game.turn:
        raise RulesError(_("player {player} took out of turn; it is player {turn}'s turn").format(
            player=player, turn=game.turn))
    if isinstance(event, Place) and game.variant != "grey":
        raise RulesError(_("place events belong to the grey wall; the coloured wall tiles itself"))
    game.push(event)


def summary(game: Game) -> dict:
    """The `azul-summary/1` object of a game as far as it went."""
    outcome = game.outcome()
    return {
        "format": SUMMARY_FORMAT,
        "scores": [board.score for board in game.boards],
        "winners": list(outcome.winners) if outcome else [],
        "rounds": game.round,
        "round_scores": [scores[:] for scores in game.round_scores],
        "over": game.phase == OVER,
    }
