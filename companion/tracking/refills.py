"""Reading a refill off the factories: the possible draw the round's evidence supports best."""

from __future__ import annotations

from companion.rules.azul import BLACK, BLUE, RED, TILES_PER_FACTORY, WHITE, YELLOW, Game, Refill
from companion.rules.errors import RulesError
from companion.tracking.evidence import Counts, FactoryEvidence

# Colour pairs a camera confuses most (real-table.md): a recolouring between them is likelier.
_CLOSE = {frozenset((RED, YELLOW)), frozenset((WHITE, BLUE)), frozenset((BLACK, BLUE))}
CLOSE_COST, FAR_COST = 1.0, 1.5
SEARCH = 60  # partial draws kept per search depth


def is_possible(game: Game, refill: Refill) -> bool:
    """Whether bag and lid can have produced ``refill`` (the engine judges, on a copy)."""
    trial = game.copy()
    try:
        trial.push(refill)
    except RulesError:
        return False
    return True


def refill_of(factories: list[tuple[int, ...]] | tuple[tuple[int, ...], ...]) -> Refill:
    """A refill from per-factory colour counts."""
    return Refill(tuple(tuple(c for c in range(5) for _n in range(counts[c])) for counts in factories))


def counts_of_refill(refill: Refill) -> list[Counts]:
    return [tuple(tiles.count(c) for c in range(5)) for tiles in refill.factories]


def refill_sizes(game: Game) -> list[int]:
    """How many tiles each factory gets from the coming refill: 4, except when bag and lid run dry."""
    left = sum(game.bag) + sum(game.lid)
    sizes = []
    for _f in game.factories:
        sizes.append(min(TILES_PER_FACTORY, left))
        left -= sizes[-1]
    return sizes


def recolour_cost(old: int, new: int) -> float:
    return CLOSE_COST if frozenset((old, new)) in _CLOSE else FAR_COST


def with_factories(refill: Refill, changes: tuple[tuple[int, Counts], ...]) -> Refill:
    """``refill`` with each factory ``number`` (0-based) of ``changes`` holding its ``counts`` instead."""
    factories = [tuple(sorted(f)) for f in refill.factories]
    for number, counts in changes:
        factories[number] = tuple(c for c in range(5) for _n in range(counts[c]))
    return Refill(tuple(factories))


def ranked_refills(game: Game, evidence: FactoryEvidence, limit: int = 12,
                   others: bool = False) -> list[tuple[float, Refill]]:
    """Possible draws, most supported first, each with its cost (0: what was seen most).

    When what was seen most is a possible draw it alone is returned, unless ``others``.

    A factory's other readings cost the votes they lack behind its best; recolouring a
    tile costs more the more often the factory was seen as it is (colours a camera
    confuses cost less). A factory never read in full gets its missing tiles in any
    colour the draw can hold, at a cost.
    """
    sizes = refill_sizes(game)
    start: list[Counts] = []
    options: list[list[tuple[float, Counts]]] = []
    strength: list[float] = []
    for number, size in enumerate(sizes):
        tally = evidence.tally(number) if size else {}
        if tally:
            ordered = sorted(tally.items(), key=lambda item: (-item[1], item[0]))
            top = ordered[0][1]
            start.append(ordered[0][0])
            options.append([(top - votes + 0.25, counts) for counts, votes in ordered[1:3]])
            strength.append(top)
            continue
        surely = evidence.surely(number) if size else None
        base = list(surely) if surely is not None else [0] * 5
        missing = size - sum(base)
        # The missing tiles are guessed as the draw's likeliest colours; take evidence corrects them.
        held = game.bag if sum(game.bag) >= sum(sizes) else [b + t for b, t in zip(game.bag, game.lid,
                                                                                   strict=True)]
        for _k in range(missing):
            base[max(range(5), key=lambda c: held[c] - base[c])] += 1
        start.append(tuple(base))
        options.append([])
        strength.append(0.0)
    found: dict[Refill, float] = {}
    first = refill_of(start)
    if is_possible(game, first):
        found[first] = 0.0
        if not others:
            return [(0.0, first)]
    frontier: list[tuple[float, list[Counts]]] = [(0.0, start)]
    for _depth in range(2):
        grown: list[tuple[float, list[Counts]]] = []
        for cost, reading in frontier:
            for number, counts in enumerate(reading):
                changes = [(extra, alt) for extra, alt in options[number] if alt != counts]
                penalty = 0.5 * max(0.0, strength[number] - 1.0)
                for old in range(5):
                    if not counts[old]:
                        continue
                    for new in range(5):
                        if new != old:
                            changed = list(counts)
                            changed[old] -= 1
                            changed[new] += 1
                            changes.append((recolour_cost(old, new) + penalty, tuple(changed)))
                for extra, alt in changes:
                    option = reading[:]
                    option[number] = alt
                    step = cost + extra
                    refill = refill_of(option)
                    if refill in found:
                        found[refill] = min(found[refill], step)
                    elif is_possible(game, refill):
                        found[refill] = step
                    else:
                        grown.append((step, option))
        if len(found) >= 2:
            break
        grown.sort(key=lambda item: item[0])
        frontier = grown[:SEARCH]
    return sorted(((cost, refill) for refill, cost in found.items()), key=lambda item: item[0])[:limit]
