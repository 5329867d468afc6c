"""Rulebook traceability: every citation found in the rulebook, and how much of the rulebook the
rules account for (M050-M052, M070-M072).

A `cites "..."` quotes a few words of the rule it encodes; an `aside "..."` quotes a passage that
is not a rule (flavour, a fact box, an example, a caption). Both must occur in the rulebook. They
are compared ignoring case, whitespace, quotes (straight or curly), dashes and hyphenation, and
punctuation at the ends of the quote; `...` in a quote skips words ("Each pair ... returns").

For coverage the rulebook is read as sections (a heading is a short line of its own with no final
punctuation, or a line the table of contents names) holding paragraphs (a block of lines between
blank lines; a line that starts a list item starts a paragraph of its own). A paragraph is
*cited* when a `cites` quotes part of it, *not a rule* when only an `aside` does, and *uncovered*
otherwise. The title and the table of contents are not counted.
"""

from __future__ import annotations

import difflib
import os
import re
import unicodedata
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from meeple.grammar import ast
from meeple.interpreter.checks.findings import Finding, at
from meeple.interpreter.checks.walk import metas

# Quotes and dashes, straight or typographic: Unicode's dash (Pd) and quote (Pi, Pf) categories,
# and the few that Unicode files elsewhere (low quotes, the acute accent used as an apostrophe,
# the minus sign, the soft hyphen).
_IGNORED = set("\"'`\u00b4\u201a\u201e\u2212\u00ad")
_IGNORED_CATEGORIES = {"Pd", "Pi", "Pf"}
_ITEM = re.compile(r"^\s*(?:[•·▪◦*-]|\d+[.)]|[A-Za-z][.)])\s")
_ELLIPSIS = re.compile(r"\.\.\.|…")
_CONTENTS = {"tableofcontents", "contents"}  # normalized
FIRST_WORDS = 8
# A quote found in several places is worth a warning only when it is short: a whole sentence the
# rulebook repeats (in a summary, in a list of overlooked rules) cannot be told apart by quoting more.
SHORT_QUOTE = 6


def normalize(text: str) -> str:
    """The text as citations are compared: lower case; no whitespace, quotes or dashes (so
    `one-time`, `one time` and a word hyphenated across a line all read `onetime`); Unicode
    compatibility forms folded (`…` reads `...`)."""
    out: list[str] = []
    for ch in text:
        for c in unicodedata.normalize("NFKC", ch).lower():
            if not (c.isspace() or c in _IGNORED or unicodedata.category(c) in _IGNORED_CATEGORIES):
                out.append(c)
    return "".join(out)


def _strip_punctuation(text: str) -> str:
    start, end = 0, len(text)
    while start < end and unicodedata.category(text[start]).startswith("P"):
        start += 1
    while end > start and unicodedata.category(text[end - 1]).startswith("P"):
        end -= 1
    return text[start:end]


def quote_parts(quote: str) -> list[str]:
    """A citation as the normalized pieces that must occur, in order (`...` separates them)."""
    parts = [_strip_punctuation(normalize(piece)) for piece in _ELLIPSIS.split(quote)]
    return [p for p in parts if p]


# ------------------------------------------------------------------ reading a rulebook


@dataclass
class Paragraph:
    line: int  # its first line in the rulebook, from 1
    text: str
    section: int  # index in Rulebook.sections; -1 before the first heading
    counted: bool  # a paragraph of rules text (not the title, a heading or the table of contents)
    norm: str = ""

    def __post_init__(self) -> None:
        self.norm = normalize(self.text)

    @property
    def first_words(self) -> str:
        words = self.text.split()
        return " ".join(words[:FIRST_WORDS]) + (" ..." if len(words) > FIRST_WORDS else "")


@dataclass
class Section:
    title: str
    line: int
    level: int  # its depth in the table of contents (0 when it is not listed there)
    contents: bool = False  # the table of contents itself


@dataclass
class Rulebook:
    path: Path
    title: str
    sections: list[Section]
    paragraphs: list[Paragraph]

    def find(self, quote: str) -> list[int]:
        """The paragraphs a citation quotes: every paragraph that holds all of it, or else the
        paragraphs one occurrence runs across (a quote over a paragraph break)."""
        parts = quote_parts(quote)
        if not parts:
            return []
        found = [i for i, p in enumerate(self.paragraphs) if _locate(p.norm, parts) is not None]
        if found:
            return found
        return self._across(parts)

    def _across(self, parts: list[str]) -> list[int]:
        starts, joined = [], ""
        for p in self.paragraphs:
            starts.append(len(joined))
            joined += p.norm
        span = _locate(joined, parts)
        if span is None:
            return []
        first, last = span
        return [i for i, s in enumerate(starts) if s < last and s + len(self.paragraphs[i].norm) > first]

    def closest(self, quote: str) -> tuple[Paragraph, str, float] | None:
        """The passage most like a citation that is not found: its paragraph, its words, and how
        alike they are (0 to 1). Candidates are the paragraphs sharing the most words with it."""
        wanted = [w for w in (_strip_punctuation(normalize(x)) for x in quote.split()) if w]
        target = "".join(wanted)
        if not wanted:
            return None
        scored = []
        for p in self.paragraphs:
            words = _words(p.text)
            shared = len(set(wanted) & {w for w, _, _ in words})
            if shared:
                scored.append((shared, p, words))
        scored.sort(key=lambda item: -item[0])
        best: tuple[Paragraph, str, float] | None = None
        for _, p, words in scored[:3]:
            for size in {max(1, len(wanted) - 1), len(wanted), len(wanted) + 1}:
                for start in range(max(1, len(words) - size + 1)):
                    window = words[start : start + size]
                    ratio = difflib.SequenceMatcher(None, target, "".join(w for w, _, _ in window)).ratio()
                    if best is None or ratio > best[2]:
                        best = (p, p.text[window[0][1] : window[-1][2]], ratio)
        return best


def _words(text: str) -> list[tuple[str, int, int]]:
    out = []
    for m in re.finditer(r"\S+", text):
        norm = _strip_punctuation(normalize(m.group()))
        if norm:
            out.append((norm, m.start(), m.end()))
    return out


def _locate(norm: str, parts: list[str]) -> tuple[int, int] | None:
    """Where the parts occur in order: (start of the first, end of the last)."""
    pos, first = 0, -1
    for part in parts:
        found = norm.find(part, pos)
        if found < 0:
            return None
        first = found if first < 0 else first
        pos = found + len(part)
    return first, pos


def _is_heading(line: str, toc: set[str]) -> bool:
    """A line the table of contents names, or a short line that does not end like a sentence."""
    text = line.strip()
    if normalize(text) in toc:
        return True
    if not text or len(text) > 80 or len(text.split()) > 10 or (_ITEM.match(text) and not text[0].isdigit()):
        return False
    return text[-1] not in ".,;:!?…"


@cache
def read_rulebook(path: Path, text: str) -> Rulebook:
    """A rulebook's sections and paragraphs (cached: the same rulebook serves many checks)."""
    blocks: list[list[tuple[int, str]]] = [[]]
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            blocks[-1].append((number, line.rstrip()))
        elif blocks[-1]:
            blocks.append([])
    blocks = [b for b in blocks if b]
    if not blocks:
        return Rulebook(path, "", [], [])
    title_line = blocks[0][0]
    toc = _table_of_contents(blocks)
    names = {normalize(name) for name, _ in toc}
    levels = {normalize(name): level for name, level in toc}
    sections: list[Section] = []
    paragraphs: list[Paragraph] = [Paragraph(title_line[0], title_line[1].strip(), -1, False)]
    rest = [blocks[0][1:], *blocks[1:]] if len(blocks[0]) > 1 else blocks[1:]
    for block in rest:
        if not block:
            continue
        number, first = block[0]
        if (len(block) == 1 and _is_heading(first, names)) or normalize(first) in names:
            key = normalize(first)
            sections.append(Section(first.strip(), number, levels.get(key, 0), key in _CONTENTS))
            paragraphs.append(Paragraph(number, first.strip(), len(sections) - 1, False))
            block = block[1:]
        current = len(sections) - 1
        counted = not (current >= 0 and sections[current].contents)
        lines: list[tuple[int, str]] = []
        for number, line in block:
            if lines and _ITEM.match(line):
                paragraphs.append(_paragraph(lines, current, counted))
                lines = []
            lines.append((number, line.strip()))
        if lines:
            paragraphs.append(_paragraph(lines, current, counted))
    return Rulebook(path, title_line[1].strip(), sections, paragraphs)


def _paragraph(lines: list[tuple[int, str]], section: int, counted: bool) -> Paragraph:
    """Lines of one paragraph: wrapped text, or the rows of a table."""
    return Paragraph(lines[0][0], "\n".join(text for _, text in lines), section, counted)


def _table_of_contents(blocks: list[list[tuple[int, str]]]) -> list[tuple[str, int]]:
    """The entries of the list that follows a 'Table of Contents' heading, with their depth."""
    for i, block in enumerate(blocks[:-1]):
        if len(block) == 1 and normalize(block[0][1]) in _CONTENTS:
            following = next((b for b in blocks[i + 1 :] if len(b) > 1 or _ITEM.match(b[0][1])), None)
            if following is None:
                return []
            out = []
            for _, line in following:
                if not _ITEM.match(line):
                    break
                indent = len(line) - len(line.lstrip())
                out.append((_ITEM.sub("", line, count=1).strip(), indent // 2))
            return out
    return []


# ------------------------------------------------------------------ finding it


def search_path(rules: Path, explicit: Path | None) -> list[Path]:
    """Where a rulebook is looked for: the path given, else `../shared/rulebooks/` (from the
    current folder), the rules file's folder, then each folder in $MEEPLE_RULEBOOKS."""
    if explicit is not None:
        return [explicit]
    extra = [Path(p) for p in os.environ.get("MEEPLE_RULEBOOKS", "").split(os.pathsep) if p]
    return [Path.cwd() / ".." / "shared" / "rulebooks", rules.parent, *extra]


def find_rulebook(name: str, rules: Path, explicit: Path | None) -> Path | None:
    for place in search_path(rules, explicit):
        if place.is_file():
            return place
        candidate = place / name
        if candidate.is_file():
            return candidate
    return None


# ------------------------------------------------------------------ the checks


@dataclass
class Citations:
    """What the citations of one rules file found: findings, and which paragraphs are covered."""

    findings: list[Finding] = field(default_factory=list)
    cited: set[int] = field(default_factory=set)
    asides: set[int] = field(default_factory=set)


def _rulebook_line(module: ast.Module) -> ast.Span:
    """The header's `rulebook "..."` line (the AST keeps only its text)."""
    match = re.search(r'^([ \t]*)rulebook[ \t]+"', module.source, flags=re.MULTILINE)
    if match is None:
        header = next((d for d in module.decls if isinstance(d, ast.GameHeader)), module)
        return header.span
    line = module.source.count("\n", 0, match.start()) + 1
    column = len(match.group(1)) + 1
    end = module.source.find("\n", match.start())
    end_column = (end if end >= 0 else len(module.source)) - match.start() + 1
    return ast.Span(file=module.file, line=line, column=column, end_line=line, end_column=end_column)


def locate_rulebook(module: ast.Module, explicit: Path | None) -> tuple[Rulebook | None, list[Finding]]:
    """The rulebook a rules file names, read; or why there is none (M051). A file given with
    `--rulebook` also serves a rules file whose header names none."""
    header = next((d for d in module.decls if isinstance(d, ast.GameHeader)), None)
    name = header.rulebook if header is not None else None
    rules = Path(module.file)
    if name is None and explicit is not None and explicit.is_file():
        path: Path | None = explicit
    elif name is None:
        quotes = [m for m, _ in metas(module) if m.kind in {"cites", "aside"}]
        if not quotes:
            return None, []
        message = "this file quotes a rulebook, but its header names none"
        return None, [at(quotes[0], "M051", message, 'add to the game header: rulebook "FILE.txt"')]
    elif Path(name).name != name:
        message = f"the rulebook '{name}' must be a file name, without folders"
        return None, [at(_rulebook_line(module), "M051", message, "say where it is with --rulebook")]
    else:
        path = find_rulebook(name, rules, explicit)
    if path is None:
        looked = ", ".join(os.path.normpath(p.absolute()) for p in search_path(rules, explicit))
        return None, [
            at(
                _rulebook_line(module),
                "M051",
                f"cannot find the rulebook '{name}' (looked in {looked}): citations are not checked",
                "say where it is with --rulebook PATH_OR_FOLDER, or in $MEEPLE_RULEBOOKS",
            )
        ]
    try:
        return _load(path), []
    except (OSError, UnicodeError) as err:
        return None, [at(_rulebook_line(module), "M051", f"cannot read the rulebook {path}: {err}")]


def _load(path: Path) -> Rulebook:
    return read_rulebook(path.resolve(), path.read_text(encoding="utf-8", errors="replace"))


def check_citations(module: ast.Module, book: Rulebook) -> Citations:
    """M050 for a citation that is not in the rulebook, M052 for one found in several places."""
    out = Citations()
    for meta, _ in metas(module):
        if meta.kind not in {"cites", "aside"}:
            continue
        found = book.find(meta.value)
        rules_text = [i for i in found if book.paragraphs[i].counted]
        (out.cited if meta.kind == "cites" else out.asides).update(rules_text)
        if not found:
            out.findings.append(_not_found(meta, book))
        elif len(rules_text) > 1 and len(meta.value.split()) < SHORT_QUOTE:
            lines = ", ".join(str(book.paragraphs[i].line) for i in rules_text[:6])
            out.findings.append(
                at(
                    meta,
                    "M052",
                    f"this {_word(meta)} is found in {len(rules_text)} places of {book.path.name} "
                    f"(lines {lines})",
                    "quote a few more words, so that it names one passage",
                    data={"lines": [book.paragraphs[i].line for i in rules_text]},
                )
            )
    return out


def _not_found(meta: ast.Meta, book: Rulebook) -> Finding:
    close = book.closest(meta.value)
    hint = "nothing in the rulebook is close: check the words, or the rulebook named in the header"
    data: dict[str, Any] = {"quote": meta.value}
    if close is not None and close[2] >= 0.5:
        paragraph, passage, ratio = close
        hint = f'closest passage, {book.path.name} line {paragraph.line}: "{passage}"'
        data |= {"closest": passage, "closest_line": paragraph.line, "similarity": round(ratio, 2)}
    return at(meta, "M050", f"this {_word(meta)} is not in the rulebook {book.path.name}", hint, data=data)


def _word(meta: ast.Meta) -> str:
    return "citation" if meta.kind == "cites" else "aside"


# ------------------------------------------------------------------ coverage


@dataclass
class SectionCoverage:
    title: str
    line: int
    level: int
    paragraphs: int = 0
    cited: int = 0
    asides: int = 0
    uncovered: list[Paragraph] = field(default_factory=list)

    def as_data(self) -> dict[str, Any]:
        return {
            "section": self.title,
            "line": self.line,
            "level": self.level,
            "paragraphs": self.paragraphs,
            "cited": self.cited,
            "asides": self.asides,
            "cited_percent": percent(self.cited, self.paragraphs),
            "asides_percent": percent(self.asides, self.paragraphs),
            "uncovered": [{"line": p.line, "first_words": p.first_words} for p in self.uncovered],
        }


def percent(part: int, whole: int) -> float:
    return round(100 * part / whole, 1) if whole else 0.0


def coverage(book: Rulebook, found: Citations) -> list[SectionCoverage]:
    """Per section (the text before the first heading, if any, first), then the whole rulebook."""
    intro = SectionCoverage("(before the first heading)", 1, 0)
    per = [SectionCoverage(s.title, s.line, s.level) for s in book.sections]
    total = SectionCoverage("Overall", 1, 0)
    for i, p in enumerate(book.paragraphs):
        if not p.counted:
            continue
        for target in (per[p.section] if p.section >= 0 else intro, total):
            target.paragraphs += 1
            if i in found.cited:
                target.cited += 1
            elif i in found.asides:
                target.asides += 1
            else:
                target.uncovered.append(p)
    return [s for s in [intro, *per] if s.paragraphs] + [total]


def coverage_findings(book: Rulebook, sections: list[SectionCoverage], rules: str) -> list[Finding]:
    """The coverage as info entries placed in the rulebook: one per section (M070), one per
    uncovered paragraph (M071), one for the whole rulebook (M072)."""
    out = []
    file = str(book.path)
    for s in sections:
        span = ast.Span(file=file, line=s.line, column=1)
        data = {"rules": rules, **s.as_data()}
        summary = (
            f"{s.paragraphs} paragraph(s): {data['cited_percent']}% cited, {data['asides_percent']}% "
            f"marked as not rules, {len(s.uncovered)} uncovered"
        )
        if s is sections[-1]:
            out.append(at(span, "M072", f"rulebook coverage: {summary}", data=data))
            continue
        out.append(at(span, "M070", f"section '{s.title}': {summary}", data=data))
        for p in s.uncovered:
            where = ast.Span(file=file, line=p.line, column=1)
            out.append(
                at(
                    where,
                    "M071",
                    f'not covered by any citation or aside: "{p.first_words}"',
                    "cite the rule it states, or mark it with aside if it is not a rule",
                    data={"rules": rules, "section": s.title, "first_words": p.first_words},
                )
            )
    return out
