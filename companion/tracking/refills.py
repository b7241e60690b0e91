"""Reading a refill off the factories, and the possible draws nearest a misread one."""

from __future__ import annotations

from companion.rules.azul import BLACK, BLUE, RED, TILES_PER_FACTORY, WHITE, YELLOW, Game, Refill
from companion.rules.errors import RulesError

# Colour pairs a camera confuses most (real-table.md): a recolouring between them is likelier.
_CLOSE = {frozenset((RED, YELLOW)), frozenset((WHITE, BLUE)), frozenset((BLACK, BLUE))}


def is_possible(game: Game, refill: Refill) -> bool:
    """Whether bag and lid can have produced ``refill`` (the engine judges, on a copy)."""
    trial = game.copy()
    try:
        trial.push(refill)
    except RulesError:
        return False
    return True


def refill_of(factories: list[tuple[int, ...]]) -> Refill:
    """A refill from per-factory colour counts."""
    return Refill(tuple(tuple(c for c in range(5) for _n in range(counts[c])) for counts in factories))


def nearest_refills(game: Game, factories: list[tuple[int, ...]], most: int = 2,
                    limit: int = 12) -> list[Refill]:
    """Possible draws, other than the reading, that recolour at most ``most`` of its tiles, likeliest first.

    A likelier recolouring swaps colours a camera confuses; fewer recolourings come first.
    """
    need = TILES_PER_FACTORY * len(game.factories)
    # What the draw can hold of each colour: the bag, or bag and lid when the bag runs out.
    held = game.bag if sum(game.bag) >= need else [b + t for b, t in zip(game.bag, game.lid, strict=True)]
    found: dict[Refill, float] = {}
    reading_refill = refill_of(factories)
    frontier: list[tuple[list[tuple[int, ...]], float]] = [(list(factories), 0.0)]
    for _depth in range(most):
        grown: list[tuple[list[tuple[int, ...]], float]] = []
        for reading, cost in frontier:
            drawn = [sum(counts[c] for counts in reading) for c in range(5)]
            excess = [c for c in range(5) if drawn[c] > held[c]]
            room = [c for c in range(5) if drawn[c] < held[c]]
            if not excess:
                # A possible reading that a person said is wrong: any tile may be the misread one.
                excess = list(range(5))
            for number, counts in enumerate(reading):
                for old in excess:
                    if not counts[old]:
                        continue
                    for new in room:
                        if new == old:
                            continue
                        changed = list(counts)
                        changed[old] -= 1
                        changed[new] += 1
                        option = reading[:]
                        option[number] = tuple(changed)
                        step = cost + (1.0 if frozenset((old, new)) in _CLOSE else 1.5)
                        refill = refill_of(option)
                        if refill == reading_refill:
                            continue
                        if refill in found:
                            found[refill] = min(found[refill], step)
                        elif is_possible(game, refill):
                            found[refill] = step
                        else:
                            grown.append((option, step))
        if found:
            break
        frontier = grown[:50]
    return [r for r, _cost in sorted(found.items(), key=lambda item: item[1])][:limit]
