"""The assumptions and conflicts a rules file declares, listed with their places (M080, M081).

Every gap the rulebook leaves is filled by an `assume`, and every place where it says two things
is settled by a `conflict`: together they are what a reader of the rulebook must take on trust.
`meeple check --assumptions` lists them so that a designer (or a publisher) can review them in one
place; the doc generators print the same list as an appendix.
"""

from __future__ import annotations

from meeple import codes
from meeple.grammar import ast
from meeple.interpreter.checks.findings import Finding, at
from meeple.interpreter.checks.usage import describe
from meeple.interpreter.checks.walk import metas

CODES = {"assume": codes.ASSUMPTION, "conflict": codes.CONFLICT}


def where(owner: ast.Node) -> str:
    """What an assumption is about: the game as a whole, or a declaration."""
    if isinstance(owner, ast.Module):
        return "the whole game"
    if isinstance(owner, ast.GameHeader):
        return "the game header"
    return describe(owner)


def list_assumptions(module: ast.Module) -> list[Finding]:
    """One info entry per `assume` and `conflict`, in file order."""
    found = [(meta, owner) for meta, owner in metas(module) if meta.kind in CODES]
    found.sort(key=lambda item: (item[0].span.line, item[0].span.column))
    return [
        at(
            meta,
            CODES[meta.kind],
            f"{meta.kind} ({where(owner)}): {meta.value}",
            data={"kind": meta.kind, "text": meta.value, "about": where(owner)},
        )
        for meta, owner in found
    ]
