"""Bots that play Azul: for the demo, simulations and benchmarks, and as a simple move advisor."""

from __future__ import annotations

from dataclasses import dataclass

from companion.rules.azul import (
    CENTER,
    FLOOR,
    FLOOR_PENALTIES,
    FLOOR_PLACES,
    Game,
    Move,
    Place,
    RandomSource,
    Take,
    wall_column,
)


@dataclass
class GreedyBot:
    """Plays the move that looks best right now: fills lines, avoids the floor.

    Not strong, but it plays like a careful beginner, so simulated games look like real
    ones (rows get completed, scores reach the 30s-70s).
    """

    rng: RandomSource

    def choose(self, game: Game) -> Move:
        moves = game.generate_legal_moves()
        best: list[Move] = []
        best_value = float("-inf")
        for move in moves:
            value = self.value(game, move)
            if value > best_value:
                best, best_value = [move], value
            elif value == best_value:
                best.append(move)
        return best[self.rng.randrange(len(best))]

    @staticmethod
    def value(game: Game, move: Move) -> float:
        if isinstance(move, Place):
            board = game.boards[move.player]
            color = board.line_colors[move.line - 1]
            if board.col_colors[move.column - 1] >> color & 1:
                return -10.0
            trial = board.copy()
            trial.wall[(move.line - 1) * 5 + move.column - 1] = color
            across, down = trial.runs(move.line - 1, move.column - 1)
            return across + down
        assert isinstance(move, Take)
        source = game.center if move.source == CENTER else game.factories[move.source - 1]
        count = source[move.color]
        board = game.boards[game.turn]
        floor = len(board.floor) + (move.source == CENTER and game.center_marker)
        overflow = count
        value = 0.0
        if move.line != FLOOR:
            row = move.line - 1
            room = move.line - board.line_counts[row]
            placed = min(count, room)
            overflow = count - placed
            value += placed * 1.0
            if placed == room:  # completes the line: it will score this round
                column = wall_column(move.color, row)
                trial = board.copy()
                trial.wall[row * 5 + column] = move.color
                across, down = trial.runs(row, column)
                value += 2.0 + across + down
            value -= 0.3 * (move.line - board.line_counts[row] - placed)  # work left on the line
        penalty = sum(FLOOR_PENALTIES[min(floor + i, FLOOR_PLACES - 1)]
                      for i in range(overflow) if floor + i < FLOOR_PLACES)
        return value - 1.5 * penalty
