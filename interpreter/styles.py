"""Playing styles at play: how a style written in the rules weighs the options of a decision.

A style (`style NAME:` in a rules file) is a list of preferences. Each option of a decision
starts with a weight of 1; every preference that speaks of it and whose condition holds
multiplies that weight by its own (`prefer`, 10 unless it says) or divides it (`avoid`). The
option is then drawn at random in proportion to the weights: an option no preference speaks of
keeps its weight, so what a style does not say stays random, and a decision where every option
weighs the same is answered exactly as a random player would answer it, from the same generator.

Weighing, not ranking: a style that always took its favourite could loop for ever on an option
that changes nothing (an action offered again and again); one that only makes it likelier plays
on, and says how strongly in numbers a designer can tune.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from meeple.grammar import ast
from meeple.interpreter.program import Fn
from meeple.interpreter.runtime import Decision, RuleRuntimeError, Site

DEFAULT_WEIGHT = 10  # "prefer X": ten times as likely as an option the style says nothing of


@dataclass(frozen=True)
class Clause:
    """One preference at one asking statement (or for one offered rule)."""

    avoid: bool
    target: str  # "option", "yes", "pass" or "offer" (ast.Preference)
    ask: bool  # the statement is a `may "..."`: its options are yes and no
    var: str | None
    cond: Fn | None
    weight: Fn | None
    node: ast.Preference


@dataclass
class Style:
    """A compiled style: its clauses by the statement that asks, and by the offered rule."""

    name: str
    at: dict[Site, list[Clause]] = field(default_factory=dict)
    offered: dict[str, list[Clause]] = field(default_factory=dict)

    def weights(self, rt: Any, decision: Decision) -> list[float] | None:
        """Each option's weight, or None when no preference speaks of this decision."""
        said = self.said(rt, decision)
        if said is None:
            return None
        weights = [1.0] * decision.size
        for clause, index, weight in said:
            weights[index] = weights[index] / weight if clause.avoid else weights[index] * weight
        return weights

    def said(self, rt: Any, decision: Decision) -> Said | None:
        """What each preference says of each option it speaks of and whose condition holds:
        (the preference, the option's index, its weight), in the order the style's lines and
        the options come; None when no preference speaks of this decision. A style played by an
        agent multiplies them into weights; a seat the rules play ranks by them
        (interpreter/seats.py)."""
        clauses = self.at.get(decision.site, []) if decision.site is not None else []
        offers = [(i, o) for i, o in enumerate(decision.offers) if o.rule in self.offered]
        if not clauses and not offers:
            return None
        said: Said = []
        values = decision.values
        for clause in clauses:
            if clause.target == "option":
                for index, value in enumerate(values):
                    _weigh(rt, clause, {**decision.env, clause.var: value}, said, index)  # type: ignore[dict-item]
            elif clause.target == "yes":
                _weigh(rt, clause, decision.env, said, 0)
            else:  # pass: the no of a `may "..."`, the pass after a `may choose`'s options
                _weigh(rt, clause, decision.env, said, 1 if clause.ask else len(values))
        first_offer = len(values) + (1 if decision.extra else 0)
        for i, offer in offers:
            for clause in self.offered[offer.rule]:
                _weigh(rt, clause, offer.env, said, first_offer + i)
        return said


Said = list[tuple["Clause", int, int]]  # what a style's lines say of a decision's options (Style.said)


def _weigh(rt: Any, clause: Clause, env: dict[str, Any], said: Said, index: int) -> None:
    if clause.cond is not None and not clause.cond(rt, env):
        return
    weight = clause.weight(rt, env) if clause.weight is not None else DEFAULT_WEIGHT
    if weight < (1 if clause.avoid else 0):
        least = (
            "1 (avoiding by 1 changes nothing)"
            if clause.avoid
            else "0 (0: never, if anything else is possible)"
        )
        raise RuleRuntimeError(f"a weight of {weight}: a weight is at least {least}", clause.node.span)
    said.append((clause, index, weight))


def draw(rng: Any, weights: list[float]) -> int:
    """An index drawn in proportion to the weights (uniform when they are all 0)."""
    total = sum(weights)
    if total <= 0:
        return int(rng.randrange(len(weights)))
    point = rng.random() * total
    for index, weight in enumerate(weights):
        point -= weight
        if point < 0:
            return index
    return len(weights) - 1
