"""The rules engines' errors: one root, each also a ValueError."""

from __future__ import annotations


class RulesError(ValueError):
    """Something a rules engine refuses."""


class IllegalMoveError(RulesError):
    """A move or event that the rules forbid in this position."""


class InvalidRefillError(IllegalMoveError):
    """A refill (or Kids bowl filling) that the bag and lid cannot have produced."""


class RecordError(RulesError):
    """A game record that is not valid JSON of its format, or that breaks a rule.

    ``index`` is the 0-based index of the offending event, or None when the
    problem is in the record's header or its JSON.
    """

    def __init__(self, message: str, index: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.index = index

    def __str__(self) -> str:
        if self.index is None:
            return self.message
        return f"event {self.index}: {self.message}"
