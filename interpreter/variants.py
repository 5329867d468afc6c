"""Variants as patches: a variant file names its base game and changes it.

Applied to the syntax trees, before analysis, so that a variant is checked, played, tested and
documented exactly like a game. Every patch names something of the base game; a name that is not
there is a diagnostic at the variant's line and column. New declarations of the variant are added
as they are; one whose name the base already uses must say `replace`.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from meeple import codes
from meeple.diagnostics import Diagnostic
from meeple.grammar import ast
from meeple.interpreter.analysis import cell_problem, is_keyed
from meeple.interpreter.names import with_article

# The declarations a variant can replace or remove, by the word that starts them: the grammar's
# `_named_decl` (and its REMOVABLE, less `phase` and `step`), which a test holds this table to.
# Kinds match exactly: an option is a constant the player sets, but `replace constant` does not
# replace an option.
DECL_KINDS: dict[str, type[ast.Decl]] = {
    "constant": ast.Constant,
    "option": ast.OptionDecl,
    "table": ast.Table,
    "piece": ast.PieceDecl,
    "component": ast.ComponentDecl,
    "zone": ast.ZoneDecl,
    "var": ast.VarDecl,
    "map": ast.MapDecl,
    "counter": ast.CounterDecl,
    "movement": ast.MovementDecl,
    "rule": ast.RuleDecl,
    "value": ast.ValueDecl,
    "style": ast.StyleDecl,
}


def _kind_word(decl: ast.Decl) -> str:
    return next((word for word, cls in DECL_KINDS.items() if type(decl) is cls), "")


def _name(decl: ast.Decl) -> str | None:
    return getattr(decl, "name", None) if not isinstance(decl, ast.GameHeader | ast.Example) else None


def _find_block(module: ast.Module, kind: str, name: str) -> tuple[list[ast.Stmt], int] | None:
    for body in ast.statement_lists(module.decls):
        for index, stmt in enumerate(body):
            if isinstance(stmt, ast.Named) and stmt.kind == kind and stmt.name == name:
                return body, index
    return None


def apply_variant(base: ast.Module, variant: ast.Module) -> tuple[ast.Module, list[Diagnostic]]:
    """The base game changed by the variant: `base` itself, changed in place (the caller's own,
    as `loader.read_kept` gives it: a copy here was one more copy of the whole game for each
    variant read)."""
    merged = base
    merged.sources = {**base.sources, base.file: base.source, variant.file: variant.source}
    # The base game's examples specify the base game: a variant that changes a rule would "fail"
    # them on purpose. A variant runs its own examples.
    merged.decls = [d for d in merged.decls if not isinstance(d, ast.Example)]
    merged.file, merged.source = variant.file, variant.source
    merged.described = described(merged)
    patcher = _Patcher(merged)
    for decl in variant.decls:
        patcher.apply(decl)
    merged.meta = [*merged.meta, *variant.meta]
    merged.worded_anew = merged.worded_anew | _worded_anew(merged, variant, patcher.worded_anew)
    return merged, patcher.diagnostics


class _Patcher:
    """The variant's declarations applied one by one to `merged` (the base game, read for it): a patch
    by its handler, a new declaration added; what cannot be applied is a diagnostic."""

    def __init__(self, merged: ast.Module) -> None:
        self.merged = merged
        self.diagnostics: list[Diagnostic] = []
        # replacements of the base game's statements in new words, each with its nodes' spans then
        # (what a later patch inserts in it is a change)
        self.worded_anew: list[tuple[ast.Node, set[ast.Span]]] = []
        self.handlers: dict[type[ast.Decl], Callable[[Any], None]] = {
            ast.VariantHeader: self.header,
            ast.ReplaceDecl: self.replace,
            ast.ReplaceBlock: self.replace_block,
            ast.RemoveDecl: self.remove,
            ast.InsertBlock: self.insert,
            ast.ExtendTable: self.extend_table,
            ast.ChangeTable: self.change_table,
            ast.ExtendSetup: self.extend_setup,
            ast.Reword: self.reword,
        }

    def apply(self, decl: ast.Decl) -> None:
        handler = self.handlers.get(type(decl))
        if handler is not None:
            handler(decl)
        else:
            self.add(decl)

    def error(
        self, node: ast.Node | ast.Span, message: str, hint: str = "", code: str = codes.BAD_PATCH
    ) -> None:
        span = node if isinstance(node, ast.Span) else node.span
        self.diagnostics.append(
            Diagnostic(span.file, span.line, span.column, "error", code, message, hint, span.end_column)
        )

    def names(self, kind: str) -> list[str]:
        return [n for d in self.merged.decls if type(d) is DECL_KINDS[kind] and (n := _name(d))]

    def base_decl(self, kind: str, name: str) -> int | None:
        cls = DECL_KINDS[kind]
        return next((i for i, d in enumerate(self.merged.decls) if type(d) is cls and _name(d) == name), None)

    def table(self, name: str) -> ast.Table | None:
        return next((d for d in self.merged.decls if isinstance(d, ast.Table) and d.name == name), None)

    def missing(self, patch: ast.Decl, kind: str, name: str, verb: str) -> None:
        """No declaration of this kind and name: say which kind the name has, if any (a movement
        replaced by a zone), else the closest name of the kind."""
        other = next((w for d in self.merged.decls if _name(d) == name and (w := _kind_word(d))), None)
        if other is not None:
            hint = f"'{name}' is {with_article(other)} in the base game: write '{verb} {other} {name}'"
        elif close := difflib.get_close_matches(name, self.names(kind), n=1):
            hint = f"did you mean '{close[0]}'?"
        else:
            hint = "to add one, leave out 'replace'" if verb == "replace" else ""
        self.error(patch, f"the base game has no {kind} '{name}' to {verb}", hint)

    def add(self, decl: ast.Decl) -> None:
        """A declaration of the variant's own: added, unless the base game has it already (then
        the variant must say `replace`)."""
        merged = self.merged
        name, kind = _name(decl), type(decl)
        clash = name is not None and any(type(d) is kind and _name(d) == name for d in merged.decls)
        if isinstance(decl, ast.ScoreDecl) and _score_line(merged, decl.kind) is not None:
            self.error(
                decl,
                f"the base game already has a {decl.kind} line",
                f"write 'replace {decl.kind}' to change it",
            )
        elif clash:
            self.error(
                decl,
                f"the base game already has '{name}'",
                f"write 'replace {_kind_word(decl) or '...'}' to change it",
            )
        else:
            merged.decls.append(decl)

    def header(self, patch: ast.VariantHeader) -> None:
        merged = self.merged
        index = next((i for i, d in enumerate(merged.decls) if isinstance(d, ast.GameHeader)), None)
        old = merged.decls[index] if index is not None else ast.GameHeader(name=patch.base)
        assert isinstance(old, ast.GameHeader)
        new = ast.GameHeader(
            span=patch.span,
            name=patch.name,
            min_players=patch.min_players if patch.has_players else old.min_players,
            max_players=patch.max_players if patch.has_players else old.max_players,
            rulebook=patch.rulebook or old.rulebook,
            rulebook_except=patch.rulebook_except if patch.rulebook else old.rulebook_except,
            meta=[*old.meta, *patch.meta],
        )
        if index is None:
            merged.decls.insert(0, new)
        else:
            merged.decls[index] = new

    def replace(self, patch: ast.ReplaceDecl) -> None:
        merged = self.merged
        if isinstance(patch.decl, ast.ScoreDecl):
            at = _score_line(merged, patch.decl.kind)
            old_line = merged.decls[at] if at is not None else None
            _replace_score_line(merged, patch.decl, self.error)
            if old_line is not None and _words_alone(old_line, patch.decl):  # the score told anew ("you")
                self.worded_anew.append((patch.decl, {n.span for n in patch.decl.walk()}))
            return
        kind, name = _kind_word(patch.decl), _name(patch.decl) or ""
        index = self.base_decl(kind, name)
        if index is None:
            self.missing(patch, kind, name, "replace")
            return
        old = merged.decls[index]
        if isinstance(old, ast.Constant) and isinstance(patch.decl, ast.Constant):
            was, now = _literal_kind(old.value), _literal_kind(patch.decl.value)
            if was and now and was != now:
                self.error(patch.decl.value, f"constant '{name}' is {was} in the base game, not {now}")
                return
            before, after = _literal(old.value), _literal(patch.decl.value)
            if before is not None and before != after:
                merged.changes.append(ast.ValueChange(span=patch.span, name=name, old=before, new=after))
        merged.decls[index] = patch.decl
        if isinstance(old, ast.RuleDecl) and _words_alone(old, patch.decl):
            self.worded_anew.append((patch.decl, {n.span for n in patch.decl.walk()}))

    def replace_block(self, patch: ast.ReplaceBlock) -> None:
        found = _find_block(self.merged, patch.kind, patch.name)
        if found is None:
            self.error(patch, f"the base game has no {patch.kind} '{patch.name}' to replace")
        else:
            body, index = found
            old = body[index]
            assert isinstance(old, ast.Named)
            body[index] = ast.Named(span=patch.span, kind=old.kind, name=old.name, body=patch.body)
            said = [m for m in old.body if isinstance(m, ast.Meta) and m.kind == "says"]
            self.merged.was_said = {**self.merged.was_said, patch.span: said}
            if _words_alone(old, body[index]):
                self.worded_anew.append((body[index], {n.span for n in body[index].walk()}))

    def remove(self, patch: ast.RemoveDecl) -> None:
        merged = self.merged
        if patch.kind == "conflict":
            self.remove_conflict(patch)
            return
        if patch.kind in DECL_KINDS:
            index = self.base_decl(patch.kind, patch.name)
            if index is None:
                self.missing(patch, patch.kind, patch.name, "remove")
            else:
                merged.removed.append(_removed(patch, merged.decls[index].meta))
                del merged.decls[index]
            return
        found = _find_block(merged, patch.kind, patch.name)
        if found is None:
            self.error(patch, f"the base game has no {patch.kind} '{patch.name}' to remove")
        else:
            block = found[0][found[1]]
            assert isinstance(block, ast.Named)
            merged.removed.append(_removed(patch, [s for s in block.body if isinstance(s, ast.Meta)]))
            del found[0][found[1]]

    def remove_conflict(self, patch: ast.RemoveDecl) -> None:
        """`remove conflict "TITLE"`: the base game's ruling of that title taken out, wherever it
        is written (among the game's lines, a declaration's or a phase's): a variant that changes
        what the ruling settles would otherwise print it beside its own, which says otherwise."""
        titles: list[str] = []
        for node in self.merged.walk():
            for lines in (getattr(node, "meta", None), getattr(node, "body", None)):
                if not isinstance(lines, list):
                    continue
                for index, line in enumerate(lines):
                    if isinstance(line, ast.Conflict) and line.value == patch.name:
                        del lines[index]
                        return
                    if isinstance(line, ast.Conflict):
                        titles.append(line.value)
        close = difflib.get_close_matches(patch.name, titles, n=1, cutoff=0.5)
        hint = f'did you mean "{close[0]}"?' if close else ""
        self.error(patch, f'the base game has no conflict "{patch.name}" to remove', hint)

    def passage(self, patch: ast.Reword) -> ast.Decl | ast.Named | None:
        """The passage a `reword` names in the merged game (or an error at the patch): a
        declaration, a phase or step, the setup or the flow."""
        kind, name = patch.kind, patch.name
        if kind in ("setup", "play"):
            cls = ast.SetupDecl if kind == "setup" else ast.PlayDecl
            found = next((d for d in self.merged.decls if type(d) is cls), None)
            if found is None:
                self.error(patch, f"the base game has no {kind} to reword")
            return found
        if kind in DECL_KINDS:
            index = self.base_decl(kind, name)
            if index is None:
                self.missing(patch, kind, name, "reword")
                return None
            return self.merged.decls[index]
        block = _find_block(self.merged, kind, name)
        if block is None:
            self.error(patch, f"the base game has no {kind} '{name}' to reword")
            return None
        named = block[0][block[1]]
        assert isinstance(named, ast.Named)
        return named

    def reword(self, patch: ast.Reword) -> None:
        """`reword KIND NAME:` -- the base game's `says` and `text` of a passage, replaced by the
        variant's (its other lines, `cites` and the like, join them where they stood), or vouched
        for by a `holds` line. Refused where it would change nothing a player reads: a passage
        without words, the variant's own declaration (which it words itself), no new words."""
        target = self.passage(patch)
        if target is None:
            return
        words = [m for m in patch.meta if m.kind in ("says", "text", "brief")]
        holds = [m for m in patch.meta if m.kind == "holds"]
        body = getattr(target, "body", None)
        lists = [
            *([target.meta] if isinstance(target, ast.Decl) else []),
            *([body] if isinstance(body, list) else []),
        ]
        old = {
            id(m)
            for lines in lists
            for m in lines
            if isinstance(m, ast.Meta) and m.kind in ("says", "text", "brief")
        }
        if target.span.file == self.merged.file:
            self.error(patch, f"'{patch.key}' is this variant's own: give it its words where it is written")
        elif words and holds:
            self.error(holds[0], "a reword gives new words or says that the base game's still hold, not both")
        elif not words and not holds:
            self.error(
                patch,
                f"this reword gives '{patch.key}' no words",
                'write its `says` or `text`, or `holds "why"`',
            )
        elif not old:
            self.error(
                patch,
                f"the base game's '{patch.key}' has no `says` or `text` to reword",
                "replace it to give it words",
            )
        else:
            for lines in lists:
                _put_in_place(lines, old, patch.meta, keep=not words)
            self.merged.rewords.append(patch)

    def insert(self, patch: ast.InsertBlock) -> None:
        found = _find_block(self.merged, patch.kind, patch.name)
        if found is None:
            self.error(patch, f"the base game has no {patch.kind} '{patch.name}' to insert {patch.position}")
            return
        body, index = found
        at = index if patch.position == "before" else index + 1
        body[at:at] = patch.body

    def extend_table(self, patch: ast.ExtendTable) -> None:
        table = self.table(patch.name)
        if table is None:
            self.error(patch, f"the base game has no table '{patch.name}' to extend")
        else:
            table.rows.extend(patch.rows)
            table.meta.extend(patch.meta)  # the new rows' citations and text

    def change_table(self, patch: ast.ChangeTable) -> None:
        merged = self.merged
        table = self.table(patch.name)
        if table is None:
            self.missing(patch, "table", patch.name, "change")
            return
        tables = {d.name: d for d in merged.decls if isinstance(d, ast.Table)}
        table.meta.extend(patch.meta)  # the words for players of what changed
        merged.table_changes.append(patch)
        rows = Rows(table)
        for change in patch.patches:
            _patch_table(rows, change, tables, merged.changes, self.error)
        rows.finish()

    def extend_setup(self, patch: ast.ExtendSetup) -> None:
        setup = next((d for d in self.merged.decls if isinstance(d, ast.SetupDecl)), None)
        if setup is None:
            self.merged.decls.append(ast.SetupDecl(span=patch.span, body=patch.body))
        else:
            setup.body.extend(patch.body)


def _put_in_place(lines: list[Any], old: set[int], new: list[ast.Meta], keep: bool) -> None:
    """The lines of `old` (by id) taken out of a passage's lines, and `new` put where the first
    of them stood: a rule's words stay above its steps, as the designer wrote them. `keep`: the
    old words stay (they hold), and `new` (the `holds` line and its citations) follows them, so
    that the designer's reference prints the reason beside the words it vouches for."""
    places = [i for i, line in enumerate(lines) if id(line) in old]
    if places and keep:
        lines[places[-1] + 1 : places[-1] + 1] = new
    elif places:
        first = places[0]
        lines[:] = [*lines[:first], *new, *(x for x in lines[first:] if id(x) not in old)]


def _shape(value: Any) -> Any:
    """What statements do, without where they stand or what they say: their kinds and fields,
    spans and words (`says`, `text`, `called`, `cites`...) left out. Two blocks of one shape play
    alike, whatever their words."""
    if isinstance(value, ast.Node):
        fields = tuple((k, _shape(v)) for k, v in value.fields() if not isinstance(v, ast.Meta))
        return (type(value).__name__, fields)
    if isinstance(value, list | tuple):
        return tuple(_shape(v) for v in value if not isinstance(v, ast.Meta))
    return value


def _worded_anew(
    merged: ast.Module, variant: ast.Module, candidates: list[tuple[ast.Node, set[ast.Span]]]
) -> set[ast.Span]:
    """The nodes of the replacements that only word the base game's statements anew: those
    that call or read nothing replaced, by this variant or one it builds on or combines (a
    Scenario's end told for teams reads the same rules, through which it reads a score the Team
    game replaced). A rule worded anew is no change to what calls it, unless it is one itself."""
    if not candidates:  # most variants word nothing anew: what each declaration reads is not needed
        return set()
    patched = [key.split(" ", 1) for key in {**merged.patched, **patch_targets(variant)}]
    replaced = {name for kind, name in patched if kind not in ("phase", "step")}  # a block is not read
    uses = {name: names_used(d) for d in merged.decls if (name := _name(d))}
    while True:
        alike = {node.name for node, _ in candidates if isinstance(node, ast.RuleDecl)}
        changed = replaced - alike
        kept = [(n, spans) for n, spans in candidates if not _reached(names_used(n), uses) & changed]
        if len(kept) == len(candidates):
            return {span for _, spans in kept for span in spans}
        candidates = kept


def _reached(names: set[str], uses: dict[str, set[str]]) -> set[str]:
    """These names and every name they call or read, through the declarations in between."""
    found, todo = set(names), list(names)
    while todo:
        for name in uses.get(todo.pop(), set()) - found:
            found.add(name)
            todo.append(name)
    return found


def _words_alone(old: ast.Node, new: ast.Node) -> bool:
    """Whether a replacement (a rule, a phase, a step) changes only the words of what it
    replaces: the same statements, and no number its words give that the base game's do not
    ("the 15 other spaces" where the base game said 19 tells a player something new)."""
    if _shape(old) != _shape(new):
        return False
    said = [_numbers(old), _numbers(new)]
    return all(said[1].count(n) <= said[0].count(n) for n in said[1])


def _numbers(node: ast.Node) -> list[str]:
    """The numbers a declaration's or a block's words give (`says`, `text`, `called`)."""
    words = [m.value for m in node.find_all(ast.Meta) if m.kind in ("says", "text", "called")]
    return re.findall(r"\d+", " ".join(words))


def _removed(patch: ast.RemoveDecl, metas: list[ast.Meta]) -> ast.Removed:
    """What a `remove` took out, for the rulebook to tell: its name and the base game's words."""
    named = next((m.value for m in metas if isinstance(m, ast.Called)), None)
    said = [m.value for m in metas if m.kind == "says"] or [m.value for m in metas if m.kind == "text"]
    return ast.Removed(span=patch.span, kind=patch.kind, name=patch.name, called=named, words=said)


ErrorAt = Callable[..., None]  # error(node or span, message, hint="", code=codes.BAD_PATCH)


def _score_line(module: ast.Module, kind: str) -> int | None:
    """Where the module's `score` or `tiebreak` line is (kind says which), if it has one."""
    return next(
        (i for i, d in enumerate(module.decls) if isinstance(d, ast.ScoreDecl) and d.kind == kind), None
    )


def _replace_score_line(merged: ast.Module, line: ast.ScoreDecl, error: ErrorAt) -> None:
    """`replace score|tiebreak p = EXPR`: a variant that changes how players score, or how ties
    are broken, writes the line anew. A score line is declared once and has no name, so it is found
    by its kind; a base game without one has nothing to replace (a variant adds one plainly)."""
    index = _score_line(merged, line.kind)
    if index is None:
        error(line, f"the base game has no {line.kind} line to replace", "to add one, leave out 'replace'")
    else:
        merged.decls[index] = line


class Rows:
    """A table's rows while a `change table` patches them, found by name through an index made
    once: a patch of 20,000 lines takes 20,000 look-ups, not 20,000 passes over the table. A row
    removed is only marked, so that the places of the others stay put, and `finish` drops them."""

    def __init__(self, table: ast.Table) -> None:
        self.table = table
        self.places: dict[ast.Cell, int] = {}  # a row's name -> its place in table.rows (the first)
        for place, row in enumerate(table.rows):
            if row.cells:
                self.places.setdefault(row.cells[0], place)
        self.removed: set[int] = set()

    def find(self, key: ast.Cell) -> int | None:
        return self.places.get(key)

    def add(self, row: ast.Row) -> None:
        self.table.rows.append(row)
        if row.cells:
            self.places.setdefault(row.cells[0], len(self.table.rows) - 1)

    def remove(self, key: ast.Cell) -> None:
        self.removed.add(self.places.pop(key))

    def finish(self) -> None:
        if self.removed:
            self.table.rows = [r for i, r in enumerate(self.table.rows) if i not in self.removed]


def _patch_table(
    rows: Rows,
    patch: ast.TablePatch,
    tables: dict[str, ast.Table],
    changes: list[ast.ValueChange],
    error: ErrorAt,
) -> None:
    """One line of a `change table`, applied to the merged game's table (or an error at it). A
    cell the patch puts into a base game's row is checked here against its column, since analysis
    would locate a wrong one in the base file; whole rows the variant writes are its own lines,
    and analysis checks them where they stand."""
    patcher = _TablePatcher(rows, tables, changes, error)
    match patch:
        case ast.SetCell():
            patcher.set_cell(patch)
        case ast.AddRow():
            patcher.add_row(patch)
        case ast.ReplaceRow():
            patcher.replace_row(patch)
        case ast.RemoveRow(key=key):
            if patcher.place_of(key, patch.key_span) is not None:
                rows.remove(key)
        case ast.AddColumn():
            patcher.add_column(patch)


class _TablePatcher:
    """The lines of a `change table` applied to one table: each value the variant changes in a
    base game's row is recorded in `changes` (for the stale-number check), each wrong line is an
    error at it."""

    def __init__(
        self, rows: Rows, tables: dict[str, ast.Table], changes: list[ast.ValueChange], error: ErrorAt
    ) -> None:
        self.rows, self.tables, self.changes, self.error = rows, tables, changes, error
        self.table = rows.table
        self.name = rows.table.name
        self.columns = [c.name for c in rows.table.columns]

    def place_of(self, key: str, span: ast.Span) -> int | None:
        if not is_keyed(self.table):
            self.error(
                span, f"the rows of table '{self.name}' have no names to find them by", "replace the table"
            )
            return None
        place = self.rows.find(key)
        if place is None:
            close = difflib.get_close_matches(key, [str(k) for k in self.rows.places], n=1)
            hint = f"did you mean '{close[0]}'?" if close else ""
            self.error(span, f"table '{self.name}' has no row '{key}'", hint)
        return place

    def fits(self, value: ast.Cell, is_name: bool, column: ast.Column, span: ast.Span) -> bool:
        problem = cell_problem(value, is_name, column, self.tables)
        if problem is not None:
            code, message, hint = problem
            self.error(span, message, hint, code)
        return problem is None

    def set_cell(self, patch: ast.SetCell) -> None:
        table, name, column, key = self.table, self.name, patch.column, patch.key
        place = self.place_of(key, patch.key_span)
        if place is None:
            return
        row = table.rows[place]
        if column not in self.columns:
            close = difflib.get_close_matches(column, self.columns, n=1)
            hint = f"did you mean '{close[0]}'?" if close else "to add one, 'add column NAME: TYPE = VALUE'"
            self.error(patch.column_span, f"table '{name}' has no column '{column}'", hint)
            return
        index = self.columns.index(column)
        if index == 0:
            self.error(patch.column_span, f"'{column}' names the rows: write 'replace row' to rename one")
        elif self.fits(patch.value, patch.is_name, table.columns[index], patch.value_span):
            old = row.cells[index]
            row.cells[index], row.names[index] = patch.value, patch.is_name
            # a cell of a column the variant adds had no value in the base game
            if old != patch.value and table.columns[index].span.file != patch.span.file:
                self.changes.append(
                    ast.ValueChange(
                        span=patch.span, name=column, row=key, table=name, old=old, new=patch.value
                    )
                )

    @staticmethod
    def key_span(new: ast.Row) -> ast.Span:
        """Where a row's name is written (the whole row when it has no cells)."""
        if new.cell_columns:
            return new.span.model_copy(update={"end_column": new.cell_columns[0][1]})
        return new.span

    def add_row(self, patch: ast.AddRow) -> None:
        new = patch.row
        new_key = new.cells[0] if new.cells else None
        if self.rows.find(new_key) is not None and is_keyed(self.table):
            self.error(
                self.key_span(new),
                f"table '{self.name}' already has a row '{new_key}'",
                "write 'replace row' to change it",
            )
        else:
            self.rows.add(new)

    def replace_row(self, patch: ast.ReplaceRow) -> None:
        table, new = self.table, patch.row
        new_key = new.cells[0] if new.cells else None
        place = self.place_of(str(new_key), self.key_span(new))
        if place is None:
            return
        old_row = table.rows[place]
        for column, before, after in zip(table.columns, old_row.cells, new.cells, strict=False):
            if before != after and column.span.file != patch.span.file:
                change = ast.ValueChange(
                    span=patch.span,
                    name=column.name,
                    row=str(new_key),
                    table=self.name,
                    old=before,
                    new=after,
                )
                self.changes.append(change)
        table.rows[place] = new

    def add_column(self, patch: ast.AddColumn) -> None:
        column = patch.column
        if column.name in self.columns:
            self.error(
                column.span,
                f"table '{self.name}' already has a column '{column.name}'",
                f"to change its cells, 'set ROW.{column.name} to VALUE'",
            )
        elif self.fits(patch.value, patch.is_name, column, patch.value_span):
            self.table.columns.append(column)
            for row in self.table.rows:
                row.cells.append(patch.value)
                row.names.append(patch.is_name)


def _literal(value: ast.Expr) -> ast.Cell:
    """A constant's value when it is written as a literal (a number, yes/no, a text), else None."""
    match value:
        case ast.Num(value=n):
            return n
        case ast.Unary(op="-", operand=ast.Num(value=n)):
            return -n
        case ast.Bool(value=b) | ast.Text(value=b):
            return b
    return None


def _literal_kind(value: ast.Expr) -> str:
    """What a literal is, in words, for comparing a constant with its replacement."""
    if isinstance(value, ast.Num) or (isinstance(value, ast.Unary) and value.op == "-"):
        return "a number"
    if isinstance(value, ast.Bool):
        return "yes/no"
    if isinstance(value, ast.Text):
        return "a text"
    return ""


def misplaced_holds(module: ast.Module) -> list[Diagnostic]:
    """Each `holds` line of one file (before any variant is applied) that vouches for nothing: it
    says a base game's words still hold after a variant's change, so it stands in a `reword`, or
    among the own lines of a rule, value or movement a variant replaces (what the stale-text check
    reads). Anywhere else no check would read it, and the designer would believe a warning answered."""
    placed: set[int] = set()
    for decl in module.decls:
        match decl:
            case ast.Reword():
                placed.update(id(m) for m in decl.meta)
            case ast.ReplaceDecl(decl=ast.RuleDecl() | ast.ValueDecl() | ast.MovementDecl() as replacing):
                placed.update(id(m) for m in replacing.meta)
    found = [m for d in module.decls for m in d.find_all(ast.Meta)] + [
        m for top in module.meta for m in top.find_all(ast.Meta)
    ]
    return [
        Diagnostic(
            m.span.file,
            m.span.line,
            m.span.column,
            "error",
            codes.BAD_PATCH,
            "this 'holds' vouches for nothing: it says the base game's words still hold after a "
            "variant's change",
            "put it in a variant's `reword KIND NAME:`, or among the lines of a rule, value or "
            "movement it replaces",
            m.span.end_column,
        )
        for m in {id(m): m for m in found if m.kind == "holds" and id(m) not in placed}.values()
    ]


def variant_header(module: ast.Module) -> ast.VariantHeader | None:
    """The variant header of a module, if it is a variant."""
    return next((d for d in module.decls if isinstance(d, ast.VariantHeader)), None)


# ------------------------------------------------------------------ combining variants

# The patches that make a declaration what it is: two variants that both make one declaration are
# at odds. Insertions and additions (`insert`, `extend table`, `extend setup`) are not: in order,
# both apply.
_DECIDING = (ast.ReplaceDecl, ast.ReplaceBlock, ast.RemoveDecl, ast.ChangeTable)


def patch_targets(variant: ast.Module) -> dict[str, ast.Span]:
    """The declarations a variant's own patches replace, remove or change, by "kind name" (as a
    designer writes them: `rule restart`), each with where its patch stands."""
    found: dict[str, ast.Span] = {}
    for decl in variant.decls:
        match decl:
            case ast.ReplaceDecl():
                found[f"{_kind_word(decl.decl)} {_name(decl.decl)}"] = decl.span
            case ast.ReplaceBlock() | ast.RemoveDecl():
                found[f"{decl.kind} {decl.name}"] = decl.span
            case ast.ChangeTable():
                found[f"table {decl.name}"] = decl.span
    return found


def combine_conflicts(
    merged: ast.Module,
    other: ast.Module,
    shared: set[Path],
    waived: set[str],
    named_at: ast.Span,
) -> list[Diagnostic]:
    """Where a variant combined into `merged` (`variant ... of "a.rules", "b.rules"`) patches a
    declaration that another file of `merged` already patched, when that file is not one `other`
    builds on (`shared`): which of the two the combined game should play is the designer's to say,
    by replacing the declaration in the combining file itself (`waived`). Otherwise the later patch
    would silently win, and a rule of the first variant would be lost without anyone seeing it.
    Each is an error at the place the combining file names `other`, naming both patches."""
    found = []
    for key, span in patch_targets(other).items():
        earlier = merged.patched.get(key)
        if earlier is None or Path(earlier.file).resolve() in shared or key in waived:
            continue
        first = f"'{Path(earlier.file).name}' (line {earlier.line})"
        second = f"'{Path(span.file).name}' (line {span.line})"
        kind, name = key.split(" ", 1)
        found.append(
            Diagnostic(
                named_at.file,
                named_at.line,
                named_at.column,
                "error",
                codes.PATCHES_CLASH,
                f"{first} and {second} both change {kind} '{name}'",
                f"write 'replace {key}' in this file to say what the combined game plays",
                named_at.end_column,
            )
        )
    return found


# ------------------------------------------------------------------ what a base text describes


def passages(decl: ast.Decl) -> Iterator[tuple[ast.Node, list[ast.Meta]]]:
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


def names_used(owner: ast.Node) -> set[str]:
    """The names a passage calls or reads (rules, values, movements, constants...)."""
    found: set[str] = set()
    for node in owner.walk():
        match node:
            case ast.Name(id=name) | ast.CallStmt(name=name) | ast.Call(func=name) | ast.Offer(rule=name):
                found.add(name)
    return found


def described(module: ast.Module) -> dict[ast.Span, set[str]]:
    """Each `says` and `text` of a game (by where it stands) and the names its passage reads:
    taken from a variant's base game before the variant patches it, so that the stale-text check
    (M094) knows a text describes what a block the variant replaced called, or a rule it removed."""
    found: dict[ast.Span, set[str]] = {}
    for decl in module.decls:
        for owner, metas in passages(decl):
            texts = [m for m in metas if m.kind in ("says", "text")]
            if texts:
                used = names_used(owner)
                found.update((m.span, used) for m in texts)
    return found
