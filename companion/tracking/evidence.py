"""What the factories showed over a whole round: the evidence a refill is judged by.

A refill read off one view can be wrong and still be a possible draw. But every
factory stays on view, untouched, until somebody takes from it, and it is read again
in every still state of the table until then. :class:`FactoryEvidence` keeps, per
factory, how often each full reading (colour counts adding up to the tiles the factory
holds) was seen. Frames of one still state share their misreads (glare lasts while
the table stays still), so each still state casts one vote per factory, split among the
readings its frames showed; a new still state starts with every accepted event and
whenever a hand passes over the table.

Readings that miss tiles (fewer read than the factory holds, none unknown) are kept
apart: when no full reading of a factory ever came, they still say which tiles are
surely there.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from companion.tracking.frame import FactoryReading

Counts = tuple[int, ...]


class FactoryEvidence:
    """Votes for each factory's contents, one still state at a time (see the module doc)."""

    def __init__(self, factories: int, full_state: int = 3) -> None:
        self.factories = factories
        self.full_state = full_state  # frames that make a whole vote
        self._votes: list[Counter[Counts]] = [Counter() for _n in range(factories)]
        self._state: list[list[Counts | None]] = []  # the still state under way: per frame, per factory
        self._partial: list[Counter[Counts]] = [Counter() for _n in range(factories)]
        self.frames = [0] * factories  # full readings seen, per factory
        self.emptied = [0] * factories  # frames read empty since the last full reading

    def reset(self) -> None:
        """A new round: nothing seen yet."""
        for store in (*self._votes, *self._partial):
            store.clear()
        self._state.clear()
        self.frames = [0] * self.factories
        self.emptied = [0] * self.factories

    def add(self, readings: Sequence[FactoryReading | None], sizes: Sequence[int]) -> None:
        """One frame's readings; ``sizes`` is how many tiles each factory holds now (0: skip it)."""
        row: list[Counts | None] = []
        for number, reading in enumerate(readings):
            size = sizes[number]
            full = None
            if reading is not None and size and reading.unknown == 0:
                read = sum(reading.counts)
                if read == size:
                    full = reading.counts
                    self.frames[number] += 1
                    self.emptied[number] = 0
                elif read == 0 and self.frames[number]:
                    self.emptied[number] += 1
                elif 0 < read < size:
                    self._partial[number][reading.counts] += 1
            row.append(full)
        self._state.append(row)

    def close(self, carry: int = 0) -> None:
        """The still state ended: its frames vote, at most one vote per factory.

        The last ``carry`` frames already show the next state (the view that told the
        tracker the table changed): they stay for it.
        """
        frames = self._state[:len(self._state) - carry] if carry else self._state
        self._state = self._state[len(frames):]
        weight = 1.0 / max(self.full_state, len(frames)) if frames else 0.0
        for row in frames:
            for number, counts in enumerate(row):
                if counts is not None:
                    self._votes[number][counts] += weight

    def tally(self, number: int) -> dict[Counts, float]:
        """Votes per reading of factory ``number`` (0-based), the still state under way included."""
        votes = Counter(self._votes[number])
        if self._state:
            weight = 1.0 / max(self.full_state, len(self._state))
            for row in self._state:
                if row[number] is not None:
                    votes[row[number]] += weight
        return dict(votes)

    def surely(self, number: int) -> Counts | None:
        """The reading most partial readings showed (for a factory never read in full)."""
        partial = self._partial[number]
        if not partial:
            return None
        counts, _frames = partial.most_common(1)[0]
        return counts
