"""Compiling a file's playing styles (meeple.interpreter.styles weighs the options with them).

A preference's condition and weight are compiled once for each statement it applies to, in the
names that statement sees (analysis found the statements, `Symbols.preferred`): the same words
mean the rule's parameter at one `choose` and a loop's name at another."""

from __future__ import annotations

from meeple.grammar import ast
from meeple.interpreter.compiler.base import Part, site_of
from meeple.interpreter.styles import Clause, Style


class Styles(Part):
    def style(self, decl: ast.StyleDecl) -> Style:
        style = Style(decl.name)
        for pref in decl.preferences:
            offered: set[str] = set()  # an offer of the same rule in two places is one action
            for site in self.sym.preferred.get(id(pref), []):
                if site.kind == "offer" and site.rule in offered:
                    continue
                offered.add(site.rule)
                scope = set(site.scope)
                clause = Clause(
                    avoid=pref.avoid,
                    target=pref.target,
                    ask=site.kind == "ask",
                    var=pref.var,
                    cond=self.expr(pref.cond, scope) if pref.cond is not None else None,
                    weight=self.expr(pref.weight, scope) if pref.weight is not None else None,
                    node=pref,
                )
                if site.kind == "offer":
                    style.offered.setdefault(site.rule, []).append(clause)
                else:
                    style.at.setdefault(site_of(site.stmt), []).append(clause)
        return style
