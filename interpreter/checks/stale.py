"""Stale numbers (M092): a variant changes a value, and a text of its base game still states the old one.

The base game's words are the variant's too: `text "A pawn moves up to 2 squares"` beside a
constant the variant makes 3 tells players the wrong number. The check is a simple heuristic,
so that a designer can predict it: a `text` or `says` of the base game warns when

- the passage it stands in (a declaration, or the phase or step it stands directly in) is about
  the value: it is the constant's declaration or names the constant, or, for a table cell, it is
  the table's declaration, or reads the cell's column (`x.COLUMN`) or names its row;
- and the text states the old number as a word (`2`, `2%`), outside any `{...}`: a text that
  shows the value through `{NAME}` already says the new one (interpreter/texts.py).

Only numbers are looked for: a yes or a name written in a text is rarely the cell's.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from meeple import codes
from meeple.grammar import ast
from meeple.interpreter.checks.findings import Finding, at
from meeple.interpreter.texts import KINDS, outside_places, text_span

CODE = codes.STALE_NUMBER


def check_stale_numbers(module: ast.Module) -> list[Finding]:
    changes = [c for c in module.changes if isinstance(c.old, int) and not isinstance(c.old, bool)]
    if not changes:
        return []
    out: list[Finding] = []
    base = [d for d in module.decls if d.span.file != module.file and not isinstance(d, ast.Example)]
    for owner, metas in (pair for decl in base for pair in _passages(decl)):
        texts = [m for m in metas if m.kind in KINDS and m.span.file != module.file]
        for change in (c for c in changes if texts and _about(owner, c)):
            stated = re.compile(rf"(?<![\w.]){change.old}(?![\w])")
            place = f"{change.row}.{change.name}" if change.row else change.name
            for meta in texts:
                written = meta.written if meta.written is not None else meta.value
                found = stated.search(outside_places(written))
                if found is not None:
                    # None: a constant the variant gives a formula, not a number
                    known = change.new is not None or change.row is not None
                    now = f"makes it {_shown(change.new)}" if known else "changes it"
                    message = f"this text states {change.old}, the base game's '{place}': the variant {now}"
                    where = text_span(module, meta, found.start(), found.end())
                    out.append(at(where, CODE, message, f"write '{{{place}}}' where the text means it"))
    return out


def _shown(value: ast.Cell) -> str:
    return "yes" if value is True else "no" if value is False else "none" if value is None else str(value)


def _passages(decl: ast.Decl) -> Iterator[tuple[ast.Node, list[ast.Meta]]]:
    """Each passage of a declaration and its own lines: the declaration (its metadata and the
    lines directly in its body), and each phase or step in it (the lines directly in it)."""
    body = getattr(decl, "body", None)
    own = {id(m) for m in decl.meta}
    direct = (
        [s for s in body if isinstance(s, ast.Meta) and id(s) not in own] if isinstance(body, list) else []
    )
    yield decl, [*decl.meta, *direct]
    for named in decl.find_all(ast.Named):
        yield named, [s for s in named.body if isinstance(s, ast.Meta)]


def _about(owner: ast.Node, change: ast.ValueChange) -> bool:
    """Whether a passage is about a changed value: it declares it or reads it."""
    if change.row is None:
        if isinstance(owner, ast.Constant) and owner.name == change.name:
            return True
        return any(n.id == change.name for n in owner.find_all(ast.Name))
    if isinstance(owner, ast.Table) and owner.name == change.table:
        return True
    return any(a.name == change.name for a in owner.find_all(ast.Attr)) or any(
        n.id == change.row for n in owner.find_all(ast.Name)
    )


# ------------------------------------------------------------------ texts of what a variant replaced

TEXT_CODE = codes.STALE_TEXT
_TOLD_KINDS = ("rule", "value", "movement")  # what a text tells a player of: what the rules do


def check_stale_texts(module: ast.Module) -> list[Finding]:
    """A base game's text about a rule, a value or a movement that the variant replaces or
    removes without a word of its own (a `says` or `text` of the replacing declaration, which its
    rulebook prints among the changes): the base words are then all players read, and they tell
    what the base game did. A text "is about" it as M092 has it: it stands in a passage (a
    declaration, or the phase or step it stands directly in) that calls or reads it by name. A
    text that shows it through `{...}` already follows it."""
    said = {
        getattr(d, "name", None) for d in module.decls if d.span.file == module.file and _has_words(d.meta)
    }
    replaced = [
        name
        for key, span in module.patched.items()
        if span.file == module.file
        and (kind_name := key.split(" ", 1))[0] in _TOLD_KINDS
        and (name := kind_name[1]) not in said
    ]
    if not replaced:
        return []
    out: list[Finding] = []
    base = [d for d in module.decls if d.span.file != module.file and not isinstance(d, ast.Example)]
    for owner, metas in (pair for decl in base for pair in _passages(decl)):
        texts = [m for m in metas if m.kind in ("says", "text") and m.span.file != module.file]
        if not texts:
            continue
        used = _names_used(owner)
        for name in (n for n in replaced if n in used):
            for meta in texts:
                written = meta.written if meta.written is not None else meta.value
                if "{" + name in written:
                    continue
                out.append(
                    at(
                        meta,
                        TEXT_CODE,
                        f"this text tells what '{name}' does in the base game, and the variant replaces "
                        "or removes it",
                        "check that it still holds, or say it in the variant (a `replace` of this "
                        "declaration, or the variant's own `says`)",
                    )
                )
    return out


def _has_words(metas: list[ast.Meta]) -> bool:
    return any(m.kind in ("says", "text") for m in metas)


def _names_used(owner: ast.Node) -> set[str]:
    """The names a passage calls or reads (rules, values, movements, constants...)."""
    found: set[str] = set()
    for node in owner.walk():
        match node:
            case ast.Name(id=name) | ast.CallStmt(name=name) | ast.Call(func=name) | ast.Offer(rule=name):
                found.add(name)
    return found
