"""What the Kids display shows, computed once off the render loop: an immutable view.

:func:`build_kids_view` turns the Kids engine state and the tracker's question, warnings
and last event into a :class:`KidsTableView`; screens only draw it. The tracker's objects
are read by attribute, so a fake with the contract's fields works too.

While the tracker asks or warns, the view also lists every legal take (``moves``, as the
prompt's cards) or, when a fill is due, how many tiles each bowl gets: the display's "none
of these" offers them, and :func:`enter_command` tells the tracker which one happened.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from typing import Any

from companion.rules.kids import BIG, BOWLS, COLORS, SHAPE_OF, Fill, KidsOutcome, KidsState, KidsTake
from companion.rules.kids_board import KidsBoard
from companion.ui.view import ENTER


@dataclass(frozen=True)
class Seat:
    seat: int
    name: str
    filled: tuple[tuple[bool, ...], ...]  # [picture][field]
    done: frozenset[str]  # complete pictures
    stars: int
    empty: int


@dataclass(frozen=True)
class Candidate:
    """One answer the tracker offers, as the prompt draws it."""

    event: KidsTake | Fill
    source: int | str | None = None  # bowl 1-5 or BIG (a take)
    color: str | None = None
    tiles: int = 0
    placements: tuple[tuple[int, str | None, int], ...] = ()  # (seat, picture id, tiles)
    bowls: tuple[tuple[str, ...], ...] = ()  # a fill's tiles per bowl


@dataclass(frozen=True)
class PromptView:
    candidates: tuple[Candidate, ...]
    selected: int
    player: int | None


@dataclass(frozen=True)
class Celebration:
    """A picture just completed (``picture`` None: the game's end)."""

    serial: int
    seat: int
    picture: str | None
    stars: int


@dataclass(frozen=True)
class KidsTableView:
    variant: str
    boards: tuple[KidsBoard, ...]
    seats: tuple[Seat, ...]
    bowls: tuple[tuple[int, ...], ...]  # bowls 1-5 then the big one, tiles per colour
    turn: int | None  # the player to move (None: a fill is due, or the game is over)
    fits: frozenset[str]  # colours the player to move can place now
    glowing: tuple[int | str, ...]  # bowls holding tiles that fit them
    prompt: PromptView | None = None
    warnings: tuple[Any, ...] = ()
    celebration: Celebration | None = None
    outcome: KidsOutcome | None = None
    status: str = ""
    frame: Any = None  # an RGB thumbnail of the camera frame, if any
    events: int = 0  # events played so far: a new number means the game moved on
    moves: tuple[Candidate, ...] = ()  # every legal take, while the tracker asks or warns
    fill_sizes: tuple[int, ...] = ()  # the tiles each small bowl gets, when a fill is due

    @property
    def over(self) -> bool:
        return self.outcome is not None

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.seats)

    def but(self, **changes: Any) -> KidsTableView:
        return dataclasses.replace(self, **changes)


def build_kids_view(
    game: KidsState,
    names: tuple[str, ...],
    *,
    prompt: Any = None,
    warnings: tuple = (),
    celebration: Celebration | None = None,
    frame: Any = None,
) -> KidsTableView:
    seats = []
    for seat in range(game.players):
        pictures = game.pictures(seat)
        seats.append(
            Seat(
                seat,
                names[seat],
                tuple(p.filled for p in pictures),
                frozenset(p.id for p in pictures if p.complete) if game.variant == "master" else frozenset(),
                game.stars(seat),
                sum(game.empty_fields(seat).values()),
            )
        )
    bowls = (*(tuple(b) for b in game.bowls), tuple(game.big))
    over = game.is_over()
    turn = None if over or game.needs_fill else game.turn
    fits: frozenset[str] = frozenset()
    glowing: tuple[int | str, ...] = ()
    if turn is not None:
        empty = game.empty_fields(turn)
        fits = frozenset(c for c in COLORS if empty[SHAPE_OF[c]])
        sources = (*range(1, BOWLS + 1), BIG)
        glowing = tuple(
            s
            for s, counts in zip(sources, bowls, strict=True)
            if any(n and c in fits for c, n in zip(COLORS, counts, strict=True))
        )
    asking = prompt is not None or bool(warnings)
    return KidsTableView(
        game.variant,
        game.boards,
        tuple(seats),
        bowls,
        turn,
        fits,
        glowing,
        prompt=_prompt_view(game, prompt),
        warnings=tuple(warnings),
        celebration=celebration,
        outcome=game.outcome(),
        frame=frame,
        events=len(game.move_stack),
        moves=tuple(_candidate(game, m) for m in game.generate_legal_moves()) if asking else (),
        fill_sizes=game.fill_sizes() if game.needs_fill and not over else (),
    )


def _prompt_view(game: KidsState, prompt: Any) -> PromptView | None:
    if prompt is None:
        return None
    return PromptView(tuple(_candidate(game, e) for e in prompt.candidates), prompt.selected, prompt.player)


def _candidate(game: KidsState, event: KidsTake | Fill) -> Candidate:
    if isinstance(event, Fill):
        return Candidate(event, bowls=event.bowls)
    try:
        result = game.result(event)
    except Exception:
        return Candidate(event, event.source, event.color)
    placements = tuple(
        (p.seat, None if p.picture is None else game.boards[p.seat].pictures[p.picture].id, p.tiles)
        for p in result.placements
        if p.tiles
    )
    return Candidate(event, event.source, event.color, result.tiles, placements)


def enter_command(event: KidsTake | Fill) -> str:
    """The command telling the tracker that ``event`` happened (a take is the player to move's)."""
    if isinstance(event, Fill):
        return ENTER + json.dumps({"fill": [list(bowl) for bowl in event.bowls]})
    return ENTER + json.dumps({"take": event.to_json()})


def entered(command: str) -> KidsTake | Fill | None:
    """The event an :func:`enter_command` carries, or None for any other command.

    ValueError when the command is an entry but not one :func:`enter_command` writes.
    """
    if not command.startswith(ENTER):
        return None
    data = json.loads(command.removeprefix(ENTER))
    (kind, body), = data.items() if isinstance(data, dict) and len(data) == 1 else (("", None),)
    if kind == "fill" and isinstance(body, list) and all(
        isinstance(b, list) and all(isinstance(c, str) for c in b) for b in body
    ):
        return Fill(tuple(tuple(b) for b in body))
    if (
        kind == "take"
        and isinstance(body, dict)
        and {"from", "color"} <= set(body) <= {"from", "color", "picture", "passed"}
        and isinstance(body.get("passed", []), list)
    ):
        return KidsTake(body["from"], body["color"], body.get("picture"), tuple(body.get("passed", [])))
    raise ValueError(f"not an entered Kids event: {command!r}")


@dataclass
class CelebrationWatch:
    """Turns newly completed pictures into :class:`Celebration` objects, each once."""

    seen: set[tuple[int, str]] = field(default_factory=set)
    serial: int = 0
    primed: bool = False

    def check(self, game: KidsState) -> Celebration | None:
        now = {(seat, picture) for seat in range(game.players) for picture in game.complete_pictures(seat)}
        new = sorted(now - self.seen)
        self.seen = now
        if not self.primed:  # a resumed game: what was complete before is no news
            self.primed = True
            return None
        if not new or game.variant != "master":
            return None
        seat, picture = new[-1]
        self.serial += 1
        return Celebration(self.serial, seat, picture, game.boards[seat].picture(picture).stars)


class KidsViews:
    """The views of one game as it goes: a picture completed since the last view is celebrated
    (once; what a resumed game had completed already is not news)."""

    def __init__(self, names: tuple[str, ...], game: KidsState) -> None:
        self.names = names
        self.watch = CelebrationWatch()
        self.watch.check(game)
        self.celebration: Celebration | None = None

    def __call__(self, reader: Any, frame: Any = None) -> KidsTableView:
        """The view of ``reader`` (the Kids tracker's game, question and warnings)."""
        news = self.watch.check(reader.game)
        if news is not None:
            self.celebration = news
        return build_kids_view(reader.game, self.names, prompt=reader.prompt, warnings=reader.warnings,
                               celebration=self.celebration, frame=frame)
