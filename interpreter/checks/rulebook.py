"""Rulebook traceability: every quote found in the rulebook, short, and how much of the rulebook
the rules implement (M050-M055, M070-M073).

A `cites "..."` quotes a few words of the rule it encodes; an `aside "..."` quotes a passage that
is not a rule (flavour, a fact box, an example, a caption); a `conflict` quotes two passages that
disagree. All must occur in the rulebook. They are compared ignoring case, whitespace, quotes
(straight or curly), dashes and hyphenation, and punctuation at the ends of the quote; `...` in a
quote skips words ("Each pair ... returns"). A quote locates a passage: it is at most
MAX_QUOTE_WORDS words, so that the rules file never becomes a copy of the rulebook and the rule's
own `text` says what the rule is in our words.

For coverage the rulebook is read as sections (a heading is a short line of its own with no final
punctuation, or a line the table of contents names) holding paragraphs (a block of lines between
blank lines; a line that starts a list item starts a paragraph of its own). A paragraph is
*covered* when something the game runs cites it (a rule, step or phase reached from setup, play,
a trigger or the score; a declaration the game uses; the header) or a conflict quotes it (those
a conflict alone quotes are listed apart: the rules settle them, but nothing implements them); *not a
rule* when only an `aside` does; *cited only by an example* or *only by a rule nothing reaches*
when that is all that cites it; *left to other files* when it is in a section the header names
with `rulebook "..." except "Section"`; and *uncovered* otherwise. The title and the table of
contents are not counted.
"""

from __future__ import annotations

import difflib
import os
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from meeple import codes
from meeple.grammar import ast
from meeple.interpreter.checks.findings import Finding, at
from meeple.interpreter.checks.walk import metas
from meeple.limits import MAX_RULEBOOK_BYTES
from meeple.paths import Missing, Refused, is_user_file, named_in, read_user_bytes, resolved, shown, user_file

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
# The longest quote: about a printed line. Every passage of our rulebooks is found in one place
# by its first twelve words or fewer (docs/checking.md gives the measure), and a quote longer than
# that copies the rulebook instead of pointing at it.
MAX_QUOTE_WORDS = 12


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


def quote_words(quote: str) -> int:
    """How many words a quote copies (`...` and punctuation are not words)."""
    return sum(1 for w in _ELLIPSIS.sub(" ", quote).split() if _strip_punctuation(normalize(w)))


# ------------------------------------------------------------------ reading a rulebook


Spans = list[tuple[int, int]]  # (start, end) in a paragraph's normalized text


@dataclass
class Paragraph:
    line: int  # its first line in the rulebook, from 1
    text: str
    section: int  # index in Rulebook.sections; -1 before the first heading
    counted: bool  # a paragraph of rules text (not the title, a heading or the table of contents)
    norm: str = ""
    words: Spans = field(default_factory=list)  # each word's place in `norm` (punctuation alone is no word)

    def __post_init__(self) -> None:
        self.norm = normalize(self.text)
        start = 0
        for word in self.text.split():
            size = len(normalize(word))
            if _strip_punctuation(normalize(word)):
                self.words.append((start, start + size))
            start += size

    @property
    def first_words(self) -> str:
        words = self.text.split()
        return " ".join(words[:FIRST_WORDS]) + (" ..." if len(words) > FIRST_WORDS else "")

    def words_in(self, spans: Spans) -> set[int]:
        """The words (by index) that a quote's spans cover, wholly or in part."""
        return {
            i for i, (a, b) in enumerate(self.words) if any(a < end and start < b for start, end in spans)
        }


@dataclass
class Section:
    title: str
    line: int
    level: int  # its depth in the table of contents (0 when it is not listed there)
    contents: bool = False  # the table of contents itself
    listed: bool = False  # named by the table of contents


@dataclass
class Rulebook:
    path: Path
    title: str
    sections: list[Section]
    paragraphs: list[Paragraph]

    def find(self, quote: str) -> list[int]:
        """The paragraphs a citation quotes (see `locate`)."""
        return list(self.locate(quote))

    def locate(self, quote: str) -> dict[int, Spans]:
        """Where a citation is: every paragraph that holds all of it, or else the paragraphs one
        occurrence runs across (a quote over a paragraph break); with the spans of its parts."""
        parts = quote_parts(quote)
        if not parts:
            return {}
        found: dict[int, Spans] = {}
        for i, p in enumerate(self.paragraphs):
            spans = _locate(p.norm, parts)
            if spans is not None:
                found[i] = spans
        return found or self._across(parts)

    def _across(self, parts: list[str]) -> dict[int, Spans]:
        starts, joined = [], ""
        for p in self.paragraphs:
            starts.append(len(joined))
            joined += p.norm
        spans = _locate(joined, parts)
        if spans is None:
            return {}
        out: dict[int, Spans] = {}
        for i, start in enumerate(starts):
            end = start + len(self.paragraphs[i].norm)
            mine = [(max(a, start) - start, min(b, end) - start) for a, b in spans if a < end and start < b]
            if mine:
                out[i] = mine
        return out

    def section_paragraphs(self, title: str) -> set[int] | None:
        """The paragraphs of a section and of the sections under it (None: no such heading). A
        heading the table of contents does not list stays inside the section before it."""
        key = normalize(title)
        first = next((i for i, s in enumerate(self.sections) if normalize(s.title) == key), None)
        if first is None:
            return None
        level, inside = self.sections[first].level, {first}
        for i in range(first + 1, len(self.sections)):
            s = self.sections[i]
            if s.listed and s.level <= level:
                break
            inside.add(i)
        return {i for i, p in enumerate(self.paragraphs) if p.section in inside}

    def closest(self, quote: str) -> tuple[Paragraph, str, float] | None:
        """The passage most like a citation that is not found: its paragraph, its words, and how
        alike they are (0 to 1). Candidates are the paragraphs sharing the most words with it."""
        wanted = [w for w in (_strip_punctuation(normalize(x)) for x in quote.split()) if w]
        target = "".join(wanted)
        if not wanted or len(wanted) > 4 * MAX_QUOTE_WORDS:
            return None  # a quote that long is not a citation (M054): comparing it costs its square
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


def _locate(norm: str, parts: list[str]) -> Spans | None:
    """Where the parts occur in order: the span of each."""
    pos, spans = 0, []
    for part in parts:
        found = norm.find(part, pos)
        if found < 0:
            return None
        spans.append((found, found + len(part)))
        pos = found + len(part)
    return spans


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
            sections.append(
                Section(first.strip(), number, levels.get(key, 0), key in _CONTENTS, key in names)
            )
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
    """Where a rulebook is looked for: the path given, else the rules file's folder, then each
    folder in $MEEPLE_RULEBOOKS. Rulebooks are not part of meeple (they are the publishers'), so
    nothing else is searched."""
    if explicit is not None:
        return [explicit]
    extra = [Path(p) for p in os.environ.get("MEEPLE_RULEBOOKS", "").split(os.pathsep) if p]
    return [rules.parent, *extra]


def find_rulebook(name: str, rules: Path, explicit: Path | None) -> Path | None:
    """The rulebook, resolved, or None when no place has it; Refused for one found that may not
    be read. Every place goes through `meeple.paths`: beside the rules file, the name the file
    gives is held to its folder (`named_in`: a link out of it is not followed), since the file may
    come from anyone; a place the user names (`--rulebook`, $MEEPLE_RULEBOOKS) may be anywhere,
    but what is read there is a regular file (`user_file`: no FIFO, device or /proc file)."""
    for index, place in enumerate(search_path(rules, explicit)):
        found = _beside(name, place) if index == 0 and explicit is None else _in_place(name, place)
        if found is not None:
            return found
    return None


def _beside(name: str, folder: Path) -> Path | None:
    try:
        return named_in(name, folder, "a rulebook")
    except Missing:
        return None


def _in_place(name: str, place: Path) -> Path | None:
    """The rulebook a place the user names holds: the file of that name in it when it is a
    folder, else the place itself."""
    try:
        folder = resolved(place, "a rulebook").is_dir()
    except OSError as err:
        raise Refused(f"cannot open '{shown(str(place))}': {err.strerror or err}") from None
    try:
        return user_file(place / name if folder else place, "a rulebook")
    except Missing:
        return None


# ------------------------------------------------------------------ the checks

# What cites a paragraph, in the order one kind overrides the next for the coverage.
IMPLEMENTED, CONFLICT, EXAMPLE, UNREACHABLE = "implemented", "conflict", "example", "unreachable"


@dataclass
class Citations:
    """What the quotes of one rules file found: findings, and what quotes each paragraph."""

    findings: list[Finding] = field(default_factory=list)
    cited: dict[str, set[int]] = field(default_factory=dict)  # IMPLEMENTED... -> paragraphs
    asides: set[int] = field(default_factory=set)
    excluded: set[int] = field(default_factory=set)  # in a section left to other files
    quoted: dict[int, set[int]] = field(default_factory=dict)  # paragraph -> the words quoted

    def of(self, kind: str) -> set[int]:
        return self.cited.get(kind, set())


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


def _header(module: ast.Module) -> ast.GameHeader | None:
    return next((d for d in module.decls if isinstance(d, ast.GameHeader)), None)


def locate_rulebook(module: ast.Module, explicit: Path | None) -> tuple[Rulebook | None, list[Finding]]:
    """The rulebook a rules file names, read; or why there is none: a note when it is not found
    (M051: rulebooks are not shipped with the rules, so a clean file must stay clean without
    one), a warning when the header names it wrongly (M053). A file given with `--rulebook` also
    serves a rules file whose header names none."""
    header = _header(module)
    name = header.rulebook if header is not None else None
    rules = Path(module.file)
    if name is None and explicit is not None and is_user_file(explicit):
        path: Path | None = explicit
    elif name is None:
        quotes = [m for m, _ in metas(module) if m.kind in {"cites", "aside"}]
        if not quotes:
            return None, []
        message = "this file quotes a rulebook, but its header names none"
        return None, [
            at(
                quotes[0],
                codes.RULEBOOK_NAMED_WRONGLY,
                message,
                'add to the game header: rulebook "FILE.txt"',
            )
        ]
    elif Path(name).name != name:
        message = f"the rulebook '{name}' must be a file name, without folders"
        return None, [
            at(
                _rulebook_line(module),
                codes.RULEBOOK_NAMED_WRONGLY,
                message,
                "say where it is with --rulebook",
            )
        ]
    else:
        try:
            path = find_rulebook(name, rules, explicit)
        except Refused as err:
            message = f"citations not checked: the rulebook '{name}' is not read: {err}"
            return None, [at(_rulebook_line(module), codes.RULEBOOK_NOT_CHECKED, message)]
    if path is None:
        looked = ", ".join(os.path.normpath(p.absolute()) for p in search_path(rules, explicit))
        return None, [
            at(
                _rulebook_line(module),
                codes.RULEBOOK_NOT_CHECKED,
                f"citations not checked: no rulebook '{name}' found (looked in {looked})",
                "say where it is with --rulebook PATH_OR_FOLDER, or in $MEEPLE_RULEBOOKS",
            )
        ]
    try:
        return _load(path), []
    except Refused as err:
        return None, [at(_rulebook_line(module), codes.RULEBOOK_NOT_CHECKED, f"citations not checked: {err}")]


def _load(path: Path) -> Rulebook:
    """A rulebook's text is the publisher's: a byte that is not UTF-8 is read as a replacement
    character rather than refused, but its size is bounded (MAX_RULEBOOK_BYTES)."""
    data = read_user_bytes(path, MAX_RULEBOOK_BYTES, "a rulebook")
    return read_rulebook(path.resolve(), data.decode("utf-8", errors="replace"))


def _conflict_passages(module: ast.Module) -> dict[int, ast.Conflict]:
    """id(passage) -> its conflict, for every `cites` line inside a conflict."""
    return {id(p): m for m, _ in metas(module) if isinstance(m, ast.Conflict) for p in m.passages}


def check_quotes(module: ast.Module) -> list[Finding]:
    """What needs no rulebook: a quote too long to be a citation (M054), and a conflict that does
    not quote two passages and say which reading the rules follow (M055)."""
    out = []
    for meta, _ in metas(module):
        if meta.kind in {"cites", "aside"} and quote_words(meta.value) > MAX_QUOTE_WORDS:
            out.append(
                at(
                    meta,
                    codes.CITATION_TOO_LONG,
                    f"this {_word(meta)} quotes {quote_words(meta.value)} words: a citation quotes at most "
                    f"{MAX_QUOTE_WORDS}, enough to find the passage",
                    "keep the words that locate the passage; say the rule in your own words with text",
                    data={"words": quote_words(meta.value), "limit": MAX_QUOTE_WORDS},
                )
            )
        if isinstance(meta, ast.Conflict):
            out += _conflict_shape(meta)
    return out


def _conflict_shape(conflict: ast.Conflict) -> list[Finding]:
    wrong = []
    if len(conflict.passages) < 2:
        wrong.append(
            f"it quotes {len(conflict.passages)} passage(s) of the rulebook, not the two that disagree"
        )
    if len(conflict.reading) != 1:
        wrong.append("it says no reading" if not conflict.reading else "it says more than one reading")
    if conflict.others:
        wrong.append(f"'{conflict.others[0].kind}' has no place in it")
    if not wrong:
        return []
    hint = (
        'write it as a block: conflict "what disagrees": then a cites line for each passage and a text line'
    )
    message = (
        f"a conflict quotes the two passages that disagree and says the reading followed: {'; '.join(wrong)}"
    )
    return [at(conflict, codes.BAD_CONFLICT, message, hint)]


def check_citations(
    module: ast.Module, book: Rulebook, live: Callable[[ast.Decl], bool] | None = None
) -> Citations:
    """M050 for a quote that is not in the rulebook (M055, an error, for a conflict's), M052 for
    a short one found in several places; and what quotes each paragraph. `live` says whether the
    game runs a declaration (None: every declaration counts)."""
    out = Citations()
    passages = _conflict_passages(module)
    header = _header(module)
    for title in header.rulebook_except if header is not None else []:
        inside = book.section_paragraphs(title)
        if inside is None:
            out.findings.append(
                at(
                    _rulebook_line(module),
                    codes.CITATION_NOT_FOUND,
                    f"there is no section '{title}' in {book.path.name}",
                    "name a heading of the rulebook, as its table of contents writes it",
                )
            )
        else:
            out.excluded |= inside
    for meta, owner in metas(module):
        if meta.kind not in {"cites", "aside"}:
            continue
        located = book.locate(meta.value)
        rules_text = [i for i in located if book.paragraphs[i].counted]
        for i in rules_text:
            out.quoted.setdefault(i, set()).update(book.paragraphs[i].words_in(located[i]))
        if meta.kind == "aside":
            out.asides.update(rules_text)
        else:
            out.cited.setdefault(_citing(meta, owner, passages, live), set()).update(rules_text)
        if not located:
            out.findings.append(_not_found(meta, book, id(meta) in passages))
        elif len(rules_text) > 1 and quote_words(meta.value) < SHORT_QUOTE:
            lines = ", ".join(str(book.paragraphs[i].line) for i in rules_text[:6])
            out.findings.append(
                at(
                    meta,
                    codes.CITATION_IN_SEVERAL_PLACES,
                    f"this {_word(meta)} is found in {len(rules_text)} places of {book.path.name} "
                    f"(lines {lines})",
                    "quote a few more words, so that it names one passage",
                    data={"lines": [book.paragraphs[i].line for i in rules_text]},
                )
            )
    return out


def _citing(
    meta: ast.Meta,
    owner: ast.Node,
    passages: dict[int, ast.Conflict],
    live: Callable[[ast.Decl], bool] | None,
) -> str:
    """What a `cites` line stands for in the coverage."""
    if id(meta) in passages:
        return CONFLICT
    if isinstance(owner, ast.Example):
        return EXAMPLE
    if live is None or not isinstance(owner, ast.Decl) or isinstance(owner, ast.GameHeader) or live(owner):
        return IMPLEMENTED
    return UNREACHABLE


def _not_found(meta: ast.Meta, book: Rulebook, in_conflict: bool) -> Finding:
    close = book.closest(meta.value)
    hint = "nothing in the rulebook is close: check the words, or the rulebook named in the header"
    data: dict[str, Any] = {"quote": meta.value}
    if close is not None and close[2] >= 0.5:
        paragraph, passage, ratio = close
        hint = f'closest passage, {book.path.name} line {paragraph.line}: "{passage}"'
        data |= {"closest": passage, "closest_line": paragraph.line, "similarity": round(ratio, 2)}
    if in_conflict:
        message = f"this passage of a conflict is not in the rulebook {book.path.name}: both must be"
        return at(meta, codes.BAD_CONFLICT, message, hint, data=data)
    return at(
        meta,
        codes.CITATION_NOT_FOUND,
        f"this {_word(meta)} is not in the rulebook {book.path.name}",
        hint,
        data=data,
    )


def _word(meta: ast.Meta) -> str:
    return "citation" if meta.kind == "cites" else "aside"


# ------------------------------------------------------------------ coverage


@dataclass
class SectionCoverage:
    title: str
    line: int
    level: int
    paragraphs: int = 0
    covered: int = 0  # cited by what the game runs, or by a conflict
    conflict_only: list[Paragraph] = field(default_factory=list)  # of those, quoted only by a conflict
    asides: int = 0
    excluded: int = 0  # in a section left to other files
    example_only: list[Paragraph] = field(default_factory=list)
    unreachable_only: list[Paragraph] = field(default_factory=list)
    uncovered: list[Paragraph] = field(default_factory=list)  # nothing quotes them
    words: int = 0
    quoted_words: int = 0

    @property
    def rule_paragraphs(self) -> int:
        """The paragraphs the rules are expected to implement: not asides, not left to others."""
        return self.paragraphs - self.asides - self.excluded

    def as_data(self) -> dict[str, Any]:
        return {
            "section": self.title,
            "line": self.line,
            "level": self.level,
            "paragraphs": self.paragraphs,
            "rule_paragraphs": self.rule_paragraphs,
            "cited": self.covered,
            "in_conflicts": len(self.conflict_only),
            "conflict_only": _listed(self.conflict_only),
            "asides": self.asides,
            "excluded": self.excluded,
            "cited_percent": percent(self.covered, self.rule_paragraphs),
            "asides_percent": percent(self.asides, self.paragraphs),
            "uncovered": _listed(self.uncovered),
            "example_only": _listed(self.example_only),
            "unreachable_only": _listed(self.unreachable_only),
            "words": self.words,
            "quoted_words": self.quoted_words,
            "quoted_percent": percent(self.quoted_words, self.words),
        }


def _listed(paragraphs: list[Paragraph]) -> list[dict[str, Any]]:
    return [{"line": p.line, "first_words": p.first_words} for p in paragraphs]


def percent(part: int, whole: int) -> float:
    return round(100 * part / whole, 1) if whole else 0.0


def coverage(book: Rulebook, found: Citations) -> list[SectionCoverage]:
    """Per section (the text before the first heading, if any, first), then the whole rulebook."""
    intro = SectionCoverage("(before the first heading)", 1, 0)
    per = [SectionCoverage(s.title, s.line, s.level) for s in book.sections]
    total = SectionCoverage("Overall", 1, 0)
    covering = found.of(IMPLEMENTED) | found.of(CONFLICT)
    for i, p in enumerate(book.paragraphs):
        if not p.counted:
            continue
        for target in (per[p.section] if p.section >= 0 else intro, total):
            target.paragraphs += 1
            target.words += len(p.words)
            target.quoted_words += len(found.quoted.get(i, ()))
            if i in found.excluded:
                target.excluded += 1
            elif i in covering:
                target.covered += 1
                if i not in found.of(IMPLEMENTED):
                    target.conflict_only.append(p)
            elif i in found.asides:
                target.asides += 1
            elif i in found.of(EXAMPLE):
                target.example_only.append(p)
            elif i in found.of(UNREACHABLE):
                target.unreachable_only.append(p)
            else:
                target.uncovered.append(p)
    return [s for s in [intro, *per] if s.paragraphs] + [total]


def coverage_findings(book: Rulebook, sections: list[SectionCoverage], rules: str) -> list[Finding]:
    """The coverage as info entries placed in the rulebook: one per section (M070), one per
    paragraph nothing covers (M071) or only an example or a rule nothing reaches cites (M073), one
    for the whole rulebook (M072)."""
    out = []
    file = str(book.path)
    for s in sections:
        span = ast.Span(file=file, line=s.line, column=1)
        data = {"rules": rules, **s.as_data()}
        summary = (
            f"{s.rule_paragraphs} rule paragraph(s), {data['cited_percent']}% covered "
            f"({len(s.conflict_only)} only by a conflict), "
            f"{len(s.uncovered) + len(s.example_only) + len(s.unreachable_only)} not covered; "
            f"{s.asides} marked as not rules, {s.excluded} left to other files; "
            f"quotes copy {data['quoted_percent']}% of its words"
        )
        if s is sections[-1]:
            out.append(at(span, codes.RULEBOOK_COVERAGE, f"rulebook coverage: {summary}", data=data))
            continue
        out.append(at(span, codes.SECTION_COVERAGE, f"section '{s.title}': {summary}", data=data))
        for group, code, message, hint in (
            (
                s.uncovered,
                codes.PARAGRAPH_NOT_COVERED,
                "not covered by any citation or aside",
                "cite the rule it states, or mark it with aside if it is not a rule",
            ),
            (
                s.example_only,
                codes.PARAGRAPH_BARELY_COVERED,
                "cited only by an example",
                "cite it where the rule that implements it is written",
            ),
            (
                s.unreachable_only,
                codes.PARAGRAPH_BARELY_COVERED,
                "cited only by a declaration the game never reaches",
                "make the rule part of the game, or cite the paragraph where it is implemented",
            ),
        ):
            for p in group:
                where = ast.Span(file=file, line=p.line, column=1)
                out.append(
                    at(
                        where,
                        code,
                        f'{message}: "{p.first_words}"',
                        hint,
                        data={"rules": rules, "section": s.title, "first_words": p.first_words},
                    )
                )
    return out
