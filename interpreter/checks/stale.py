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

from meeple import codes
from meeple.grammar import ast
from meeple.interpreter.checks.findings import Finding, at
from meeple.interpreter.texts import KINDS, outside_places, text_span
from meeple.interpreter.variants import DECL_KINDS, names_used, passages

CODE = codes.STALE_NUMBER


def check_stale_numbers(module: ast.Module) -> list[Finding]:
    changes = [c for c in module.changes if isinstance(c.old, int) and not isinstance(c.old, bool)]
    if not changes:
        return []
    out: list[Finding] = []
    base = [d for d in module.decls if d.span.file != module.file and not isinstance(d, ast.Example)]
    for owner, metas in (pair for decl in base for pair in passages(decl)):
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
_TOLD = {"rule": ast.RuleDecl, "value": ast.ValueDecl, "movement": ast.MovementDecl}  # what the rules do
_READERS = (ast.ValueDecl, ast.MovementDecl)  # what a text reads through: declared values and movements


def check_stale_texts(module: ast.Module) -> list[Finding]:
    """A base game's text that describes a rule, a value or a movement the variant replaces or
    removes: the base words may tell what the base game did, and the variant's rulebook, its
    `--full` book and its aid all print them. A text describes what the passage it stands in (a
    declaration, or the phase or step it stands directly in) calls or reads by name, directly or
    through the declared values and movements it reads (a rule that reads a bonus, which reads
    the replaced half). A variant answers each: `reword KIND NAME:` with new words
    (then the text is the variant's, not the base game's), or `holds "why"` there, or among the
    lines of the replacing declaration (every base text about it holds)."""
    own = module.file
    changed = {
        name: kind
        for key, span in module.patched.items()
        if span.file == own and (kind := key.split(" ", 1)[0]) in _TOLD and (name := key.split(" ", 1)[1])
    }
    vouched = {
        d.name
        for d in module.decls
        if isinstance(d, ast.RuleDecl | ast.ValueDecl | ast.MovementDecl)
        and d.span.file == own
        and _holds(d.meta)
    }
    changed = {name: kind for name, kind in changed.items() if name not in vouched}
    if not changed:
        return []
    held = {r.key for r in module.rewords if r.span.file == own and _holds(r.meta)}
    reads = {d.name: names_used(d) for d in module.decls if isinstance(d, _READERS)}
    present = {
        (k, getattr(d, "name", None)) for d in module.decls for k, cls in _TOLD.items() if type(d) is cls
    }
    out: list[Finding] = []
    base = [d for d in module.decls if d.span.file != own and not isinstance(d, ast.Example)]
    for decl in base:
        for owner, metas in passages(decl):
            texts = [m for m in metas if m.kind in ("says", "text", "brief") and m.span.file != own]
            key = _passage_key(owner)
            if not texts or key in held:
                continue
            now = names_used(owner)
            for meta in texts:
                through = _reached(now | module.described.get(meta.span, set()), reads)
                found = [(name, through[name]) for name in changed if name in through]
                if found:
                    told = ", ".join(_described(name, via) for name, via in found)
                    verbs = {"replaces" if (changed[n], n) in present else "removes" for n, _ in found}
                    message = f"this text describes {told}, which the variant {' or '.join(sorted(verbs))}"
                    out.append(at(meta, TEXT_CODE, message, _hint(key)))
    return out


def _hint(key: str) -> str:
    """What the variant writes: a reword of the passage, or (a trigger, a score line: no reword
    names them) a `holds` where it replaces what the text describes."""
    if key:
        return (
            f'in the variant, write `reword {key}:` with its new `says`, or `holds "why"` if they still hold'
        )
    return (
        'where these words still hold, write `holds "why"` among the lines of what the variant replaces '
        "(a `reword` cannot name this passage)"
    )


def _holds(metas: list[ast.Meta]) -> bool:
    return any(m.kind == "holds" for m in metas)


def _described(name: str, via: str | None) -> str:
    return f"'{name}'" + (f" (read through '{via}')" if via else "")


def _passage_key(owner: ast.Node) -> str:
    """How a variant names a passage in `reword` (`rule gain`, `step income`, `play`), or "" for
    one it cannot reword (a trigger, the score line: replaced whole instead)."""
    if isinstance(owner, ast.Named):
        return f"{owner.kind} {owner.name}"
    if isinstance(owner, ast.SetupDecl | ast.PlayDecl):
        return "setup" if isinstance(owner, ast.SetupDecl) else "play"
    kind = next((word for word, cls in DECL_KINDS.items() if type(owner) is cls), None)
    return f"{kind} {getattr(owner, 'name', '')}" if kind else ""


def _reached(names: set[str], reads: dict[str, set[str]]) -> dict[str, str | None]:
    """Every name a passage reads, directly (None) or through the declared values and movements
    it reads (the one it reads itself that leads there), each once."""
    found: dict[str, str | None] = dict.fromkeys(names)
    todo = [(name, name) for name in names]
    while todo:
        name, origin = todo.pop()
        for inner in reads.get(name, ()):
            if inner not in found:
                found[inner] = origin
                todo.append((inner, origin))
    return found
