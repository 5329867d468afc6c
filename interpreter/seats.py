"""Seats the rules play: `automated NAME [plays STYLE]` (docs/language.md#automated-seats).

Some rulebooks write an opponent out in full: a solo mode's automaton, a neutral player in a
two-player variant. Such a seat is a player like the others (it owns pieces, variables and zones,
it scores and it can win) whose decisions are made by the rules, not by an agent. It sits after the
players: with N players, the automated seats are seats N, N+1, ... and `--players`, `--agents` and
`human` speak of the players alone.

Why a style, read strictly. The rules ask the same questions of every seat (`choose ... by p`), so
that a variant adds an automaton without writing its turn twice; what an automaton prefers is a
list of priorities, which is what a style's lines already are. An agent playing a style draws in
proportion to its weights (interpreter/styles.py), so that it never loops for ever on a favourite;
a rulebook's automaton does exactly what its priorities say. So here the lines are read in order,
as priorities: an option's rank is what each line says of it, first line first (its weight where
the line speaks of it and its condition holds, 1/weight for `avoid`, else 1), and the best rank
is taken. Options still level after every line are drawn from the game's own generator, so a
replay (seed and choices) stays exact; and since the rules make the decision, it is neither shown
to an agent nor recorded among the choices, like a decision with a single option.

A decision the style says nothing of cannot be resolved: that is a RuleRuntimeError at the
statement that asks, never a quiet first option.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from meeple.grammar import ast
from meeple.interpreter.names import Names
from meeple.interpreter.runtime import Decision, RuleRuntimeError
from meeple.interpreter.values import Player
from meeple.limits import MAX_SEATS

if TYPE_CHECKING:
    from meeple.interpreter.program import Program


def automated_seats(
    decls: list[ast.AutomatedDecl], names: Names, fewest: int, most: int
) -> dict[int, list[Player]]:
    """The automated seats of a game of each possible number of players: seats N, N+1, ... with
    the names the rules give them. They are made once per rules file, like the other seats, so that
    every game of N players shares them (zones and grids per player are made for them too)."""
    return {
        n: [Player(n + i, names.decl(d.name).one, automated=True) for i, d in enumerate(decls)]
        for n in range(fewest, most + 1)
        if n + len(decls) <= MAX_SEATS
    }


def resolve(program: Program, rt: Any, decision: Decision) -> int:
    """The option the rules take for an automated seat: the best by its style's lines, read in
    order; a tie drawn from the game's generator."""
    seat: Player = decision.player
    decl = program.automata[seat.seat - (len(rt.players) - len(program.automata))]
    style = program.styles.get(decl.style) if decl.style is not None else None
    said = style.said(rt, decision) if style is not None else None
    if said is None:
        why = (
            f"its style '{decl.style}' says nothing of this decision"
            if style is not None
            else "it plays no style (`automated NAME plays STYLE`)"
        )
        raise RuleRuntimeError(
            f"{seat} is a seat the rules play, and the rules ask it '{decision.prompt}': {why}. "
            f"Give its style a preference for it, or ask it only of players",
            site_span(program, decision),
            decision.rule,
        )
    lines = sorted({(c.node.span.line, c.node.span.column) for c, _, _ in said})
    column = {line: i for i, line in enumerate(lines)}
    ranks = [[Fraction(1)] * len(lines) for _ in range(decision.size)]
    for clause, index, weight in said:
        at = column[(clause.node.span.line, clause.node.span.column)]
        ranks[index][at] *= Fraction(1, weight) if clause.avoid else Fraction(weight)
    best = max(ranks)
    level = [i for i, rank in enumerate(ranks) if rank == best]
    return level[0] if len(level) == 1 else level[rt.rng.randrange(len(level))]


def site_span(program: Program, decision: Decision) -> ast.Span | None:
    """The span of the statement that asked: where an unresolved decision is reported."""
    if decision.site is None:
        return None
    for site in program.symbols.sites:
        span = site.stmt.span
        if (span.file, span.line, span.column) == decision.site:
            return span
    return None
