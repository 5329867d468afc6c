"""Turning a game's documents into files: Markdown, HTML and PDF.

Three documents are made from one game: the rulebook a player learns from (rulebook.py), the
two-page player aid kept beside the board (aid.py) and the designer's reference that shows
everything the file says (model.py). Each is written by templates of its own, one per format,
from the same data, so the formats cannot say different things.

HTML is self-contained on purpose: the styles, the flow diagram (SVG) and the highlighted rules
are inline, and nothing is fetched (no fonts, scripts or images from elsewhere), so a file can be
mailed, opened offline or printed years later. The PDF is made by Typst (`typeset.py`) from Typst
source that templates of its own write from the same data (`*.typ.j2`), in a folder that holds
nothing but that source and the flow diagrams, with the fonts Typst carries: a PDF depends on
nothing outside, not even the machine's fonts. Markdown is for code hosts: it links the flow
diagram as an SVG file written beside it, since code hosts do not show inline SVG.

The player aid must fit on two A4 pages: it is laid out at its full size first and, if it runs
over, again with smaller type and then in two columns, down to a floor of 10 pt. An aid that type
one size smaller fits on one page is printed on one page, not with a few lines on the back. An aid that does
not fit even then is printed on more pages, never in smaller type.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache, cached_property
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup
from pygments import highlight
from pygments.formatters import HtmlFormatter

from meeple.codegen import flow, model, pictures, typeset
from meeple.codegen.aid import Aid, aid
from meeple.codegen.flow import render_svg
from meeple.codegen.lexer import MeepleLexer
from meeple.codegen.markup import markdown, md_escape, plain, to_html, to_typst, typst_escape, typst_string
from meeple.codegen.rulebook import GAP, SMALL_ABOVE, Rulebook, least_letters, line_letters, rulebook, states
from meeple.files import write_atomic
from meeple.grammar import ast
from meeple.interpreter.analysis import Symbols
from meeple.interpreter.program import Program
from meeple.interpreter.values import first_upper
from meeple.paths import Refused, read_user_bytes
from meeple.workers import in_workers

FORMATS = ("md", "html", "pdf")
DOCUMENTS = ("rulebook", "aid", "reference")
AID_PAGES = 2
# How the player aid is laid out, tried in order until it fits on AID_PAGES: (body text in
# points, columns). Large type first, then two columns. Never under 10 pt: the last is printed
# however many pages it takes.
AID_LAYOUTS = ((13.0, 1), (12.0, 1), (11.0, 1), (10.0, 1), (11.0, 2), (10.0, 2))
# The first layouts tried on one page before any is tried on two: an aid that type one size
# smaller fits on the front is printed so, rather than with a few lines run over onto the back.
AID_ONE_SIDE = 2
AID_MARGIN = 10  # the aid's left and right margins, in millimetres
# The rulebook's body text, in points: at its size, and a step smaller where its last page would
# hold less than BOOK_LAST_PAGE of a page's text, or a page before an example would be left more
# than BOOK_GAP empty, kept where that saves the page or the gap (a variant's book ended on a page
# holding the last two rulings of a list, another on one ruling alone; a few words more in a
# book's second example left a page half empty before its fourth, the rulings, glossary and
# numbers that fill such a room used up). A third, not a quarter: a long book whose last page
# held a short table alone, 31% of the page, grew a page it saves at 10.5 pt.
BOOK_SIZES = (11.0, 10.5)
BOOK_LAST_PAGE = 1 / 3
BOOK_GAP = 1 / 3
# The flow diagram in the PDF: drawn this wide (in the SVG's units, whose font is 13) and shown
# across the text, so that its words print at about 10 pt; one taller than a page is drawn in
# several diagrams (flow.split), one up to FLOW_SLACK too tall is shown a little smaller instead.
FLOW_PDF_WIDTH = 640
FLOW_SLACK = 1.15
FLOW_CAPTION = 40.0  # points a diagram's caption and the space around it take from the page


@dataclass
class GameDocs:
    """Everything the documents of one game are made from."""

    path: Path
    reference: model.Reference
    book: Rulebook
    aid: Aid


def game_docs(
    path: Path,
    module: ast.Module,
    symbols: Symbols,
    constants: dict[str, Any],
    full: bool = False,
    program: Program | None = None,
) -> GameDocs:
    """The documents of a checked rules file (a module without errors, its symbols and
    constants). `full`: a variant's rulebook prints the whole game it makes, not its changes.
    `program`: the compiled game, to run the worked examples whose positions the rulebook draws
    (without it, they are told in words only)."""
    shown = pictures.positions(program) if program is not None else None
    book = rulebook(path, module, symbols, constants, full, shown)
    return GameDocs(path, model.reference(path, module, symbols, constants), book, aid(book))


@cache
def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("meeple.codegen", "templates"),
        autoescape=jinja2.select_autoescape(enabled_extensions=("html.j2",), default_for_string=False),
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        undefined=jinja2.StrictUndefined,
    )
    env.filters["md"] = markdown
    env.filters["md_text"] = lambda text: md_escape(str(text).replace("\n", " "))
    env.filters["html"] = to_html
    env.filters["plain"] = plain
    env.filters["rules"] = _highlight
    env.filters["first_upper"] = first_upper
    env.filters["colon_after"] = colon_after
    env.filters["typ"] = lambda text: typst_escape(str(text))
    env.filters["typm"] = to_typst
    env.filters["typs"] = lambda text: typst_string(str(text))
    env.globals["short"] = short
    env.globals["column_widths"] = column_widths
    env.globals["SMALL_ABOVE"] = SMALL_ABOVE
    env.globals["states"] = states
    env.globals["picture_file"] = picture_file
    env.globals["key_width"] = pictures.printed_width
    env.filters["inline_svg"] = inline_svg
    env.globals["pygments_css"] = Markup(HtmlFormatter(style="friendly").get_style_defs(".highlight"))
    return env


def _highlight(source: str) -> Markup:
    return Markup(highlight(source, MeepleLexer(), HtmlFormatter(cssclass="highlight", style="friendly")))


def _render(template: str, **context: Any) -> str:
    text = environment().get_template(template).render(**context)
    if template.endswith(".md.j2"):  # blank lines of empty template blocks: one is enough
        text = re.sub(r"\n{3,}", "\n\n", text)
    return text


def colon_after(name: str) -> str:
    """The colon that follows a name used as a label ("Spread:"), none after a name that ends in
    its own mark ("Extinction!" printed "Extinction!:")."""
    return "" if name.rstrip()[-1:] in ("!", "?", ".", ":") else ":"


def column_widths(rows: Sequence[Sequence[str]]) -> str:
    """Typst column widths for a table of words (its headings first): the first column (what the
    rows are) as wide as its names; each other one at least as wide as its longest word, so that
    a word is split only when a column cannot hold it at all, and the room left on the line
    shared out as each column's longest cell wants it, so that a cell of a few short words is
    not broken over two lines (its last word hyphenated) while the column beside it, sized by one
    long word, stands half empty."""
    columns = list(zip(*rows, strict=True))[1:]
    least = [least_letters(column) for column in columns]
    most = [  # a heading may take two lines
        max([n, -(-len(column[0]) // 2), *(len(cell) for cell in column[1:])])
        for n, column in zip(least, columns, strict=True)
    ]
    names = max(len(row[0]) for row in rows)
    room = line_letters(len(columns) + 1, shared=True) - names - GAP * (len(columns) + 1) - sum(least)
    wanted = sum(most) - sum(least)
    share = min(1.0, room / wanted) if wanted > 0 and room > 0 else 0.0
    # In letters, each with its cell's inset: a narrow column needs it as much as a wide one.
    widths = [n + GAP + (m - n) * share for n, m in zip(least, most, strict=True)]
    return "(auto, " + "".join(f"{w:.1f}fr, " for w in widths) + ")"


def reference_markdown(docs: GameDocs, flow_file: str) -> str:
    return _render("reference.md.j2", ref=docs.reference, flow_file=flow_file)


def reference_html(docs: GameDocs, sources: bool = True) -> str:
    """`sources`: each rule's own lines, highlighted, folded under it (print hides them)."""
    return _render("reference.html.j2", ref=docs.reference, sources=sources)


def inline_svg(svg: str) -> Markup:
    """A picture's SVG file as an element of an HTML page, which needs no namespace (HTML knows
    `svg`) and so names no address at all. The picture escapes every text it holds."""
    return Markup(svg.replace(' xmlns="http://www.w3.org/2000/svg"', "", 1))


def picture_file(example: int, picture: int, when: str) -> str:
    """The file a worked example's picture is in (both counted from 1), beside the Markdown
    rulebook (after the game's name) and in the PDF's folder."""
    return f"example-{example}-{picture}-{when}.svg"


def rulebook_pictures(docs: GameDocs) -> dict[str, str]:
    """Every picture of the rulebook's worked examples, by its file name."""
    out = {}
    for i, example in enumerate(docs.book.examples, 1):
        for j, picture in enumerate(example.pictures, 1):
            out[picture_file(i, j, "before")] = picture.before
            if not picture.unchanged:  # drawn once, as it is before
                out[picture_file(i, j, "after")] = picture.after
            if picture.key:
                out[picture_file(i, j, "key")] = picture.key
    return out


def rulebook_markdown(docs: GameDocs, stem: str = "") -> str:
    """`stem`: what the pictures' files are named after (they are written beside it)."""
    return _render("rulebook.md.j2", book=docs.book, stem=stem or docs.path.stem)


def rulebook_html(docs: GameDocs) -> str:
    return _render("rulebook.html.j2", book=docs.book)


def aid_markdown(docs: GameDocs) -> str:
    return _render("aid.md.j2", card=docs.aid)


def aid_html(docs: GameDocs) -> str:
    return _render("aid.html.j2", card=docs.aid)


def index_markdown(entries: Sequence[dict[str, Any]]) -> str:
    return _render("index.md.j2", games=entries)


def index_html(entries: Sequence[dict[str, Any]]) -> str:
    return _render("index.html.j2", games=entries)


def flow_svg_file(docs: GameDocs) -> str:
    """The flow diagram as a file of its own, for Markdown."""
    return render_svg(docs.reference.flow_boxes, prefix="flow", standalone=True)


# ---------------------------------------------------------------------- PDF


def pdf_available() -> str | None:
    """None when PDF can be made here; otherwise why not."""
    return typeset.available()


@dataclass
class Typst:
    """A Typst document to compile: its source and the files it shows, by name."""

    source: str
    files: dict[str, str] = field(default_factory=dict)


def reference_typst(docs: GameDocs) -> Typst:
    """The reference as Typst source, and its flow diagrams as SVG files: in as many diagrams
    as it takes for each to fit on a page whole (flow.split)."""
    page = typeset.PAGE
    scale = page.text_width / FLOW_PDF_WIDTH
    limit = (page.text_height - FLOW_CAPTION) / scale
    diagrams, files = [], {}
    parts = flow.split(docs.reference.flow_boxes, FLOW_PDF_WIDTH, limit, FLOW_SLACK)
    parents = {id(box.apart): part.number for part in parts for box in flow.drawn_apart(part.boxes)}
    for part in parts:
        name = f"flow-{part.number}.svg"
        files[name] = render_svg(
            part.boxes,
            width=FLOW_PDF_WIDTH,
            prefix=f"flow{part.number}",
            standalone=True,
            start=part.start,
            end=part.end,
            font_family="Libertinus Serif",
        )
        height = flow.flow_height(part.boxes, FLOW_PDF_WIDTH, start=part.start, end=part.end)
        width = min(page.text_width, (page.text_height - FLOW_CAPTION) * FLOW_PDF_WIDTH / height)
        diagrams.append(
            {
                "file": name,
                "width": round(width, 2),
                "title": part.of.label if part.of else "",
                "parent": parents.get(id(part), 0),
            }
        )
    source = _render("reference.typ.j2", ref=docs.reference, diagrams=diagrams, page=page)
    return Typst(source, files)


def short(thing: Any) -> bool:
    """Whether an entry of the reference (a rule, an example) is surely short enough to be kept
    on one page (typeset.Page.keep_limit): estimated from its words at 50 characters a line, far
    fewer than a line holds, so that a block kept whole is never taller than a page."""
    return 40 + _estimate(thing) <= typeset.PAGE.keep_limit


_NOT_PRINTED = {"anchor", "source", "kind", "line", "changed", "stem", "seed", "players"}


def _estimate(thing: Any) -> float:
    if isinstance(thing, str):
        return (len(plain(thing)) // 50 + 1) * 15 + 4
    if isinstance(thing, list | tuple):
        return sum(map(_estimate, thing))
    if dataclasses.is_dataclass(thing):
        return sum(
            _estimate(getattr(thing, f.name)) for f in dataclasses.fields(thing) if f.name not in _NOT_PRINTED
        )
    return 0


def rulebook_typst(docs: GameDocs, size: float = BOOK_SIZES[0]) -> Typst:
    """The rulebook as Typst source, its body text at `size` points, and its pictures."""
    return Typst(_render("rulebook.typ.j2", book=docs.book, size=size), rulebook_pictures(docs))


def rulebook_candidates(docs: GameDocs) -> list[Typst]:
    """The rulebook's Typst source at each size of BOOK_SIZES, in order."""
    return [rulebook_typst(docs, size) for size in BOOK_SIZES]


def aid_typst(docs: GameDocs, size: float = 13.0, columns: int = 1) -> Typst:
    width = 210 - 2 * AID_MARGIN  # the page's text, in millimetres
    column_width = width if columns == 1 else (width - 7 * (columns - 1)) / columns
    return Typst(
        _render(
            "aid.typ.j2",
            card=docs.aid,
            size=size,
            columns=columns,
            column_width=round(column_width, 2),
            margin=AID_MARGIN,
        )
    )


def aid_candidates(docs: GameDocs) -> list[Typst]:
    """The aid's Typst source in every layout of AID_LAYOUTS, in order."""
    return [aid_typst(docs, size, columns) for size, columns in AID_LAYOUTS]


def pdf(document: Typst) -> bytes:
    return typeset.compile_pdf(document.source, document.files)[0]


def first_pdf(candidates: Sequence[Typst]) -> bytes:
    """The PDF of a document laid out one way only (the reference)."""
    return pdf(candidates[0])


def aid_pdf(candidates: Sequence[Typst]) -> bytes:
    """The PDF of the player aid, in the first of its layouts that fits (`fit`)."""
    return fit(candidates)[1]


def book_pdf(candidates: Sequence[Typst]) -> bytes:
    """The PDF of the rulebook, at the size `fit_book` keeps."""
    return fit_book(candidates)[1]


def fit_book(candidates: Sequence[Typst]) -> tuple[int, bytes, int]:
    """The rulebook as the first of `candidates` (rulebook_candidates) lays it out, or as the next
    where the first leaves a page more than BOOK_GAP empty before an example or ends on a page
    whose text fills less than BOOK_LAST_PAGE of it, and the next leaves fewer such pages, or as
    many and takes fewer pages: its index, its PDF and its page count. A book a page shorter
    reads better than one whose last page holds the tail of a list, and one in type a step
    smaller better than one with a half-empty page; the next is compiled only then."""

    def flaws(laid: typeset.Laid) -> tuple[int, int]:
        return sum(gap > BOOK_GAP for gap in laid.gaps), laid.pages

    first = typeset.lay_out(candidates[0].source, candidates[0].files)
    nearly_empty = first.pages > 1 and first.last_page is not None and first.last_page < BOOK_LAST_PAGE
    if nearly_empty or flaws(first)[0]:
        for index, smaller in enumerate(candidates[1:], 1):
            laid = typeset.lay_out(smaller.source, smaller.files)
            if flaws(laid) < flaws(first):
                return index, laid.pdf, laid.pages
    return 0, first.pdf, first.pages


def fit(candidates: Sequence[Typst], pages: int = AID_PAGES) -> tuple[int, bytes, int]:
    """The first of the first AID_ONE_SIDE layouts that fits on one page; else the first of all
    that fits on `pages` pages, or else the last: its index, its PDF and its page count, as
    Typst counts them. Each layout is compiled in turn (a two-page aid takes a few hundredths of
    a second), so the one chosen is surely the largest that fits."""
    laid: dict[int, tuple[bytes, int]] = {}

    def lay(index: int) -> tuple[bytes, int]:
        if index not in laid:
            laid[index] = typeset.compile_pdf(candidates[index].source, candidates[index].files)
        return laid[index]

    for index in range(min(AID_ONE_SIDE, len(candidates))):
        data, count = lay(index)
        if count == 1:
            return index, data, count
    index = 0
    while True:
        data, count = lay(index)
        if count <= pages or index == len(candidates) - 1:
            return index, data, count
        index += 1


# ---------------------------------------------------------------------- the jobs

# A job is one PDF: the reference, or the summary fitted among its layouts. A job whose input has
# not changed since the last run into the same folder is not run again (a designer who edits one
# game and makes the docs of all of them waits for one).

CACHE_FILE = ".meeple-docs.json"  # in the output folder: output file name -> what it was made from


@dataclass
class Job:
    """One PDF: a document, or the first of its layouts that fits (the player aid)."""

    target: str  # the PDF's file name
    candidates: Sequence[Typst]
    # how it is made of them: the first (the reference), the aid's fit, the rulebook's
    lay_out: Callable[[Sequence[Typst]], bytes] = first_pdf

    @cached_property
    def key(self) -> str:
        """What the output depends on: its input and the version of Typst (hashed once: a
        reference is a few hundred kilobytes)."""
        digest = hashlib.sha256(f"typst {typeset.version()}".encode())
        for document in self.candidates:
            digest.update(b"\0" + document.source.encode())
            for name, data in sorted(document.files.items()):
                digest.update(b"\1" + name.encode() + b"\2" + data.encode())
        return digest.hexdigest()

    @property
    def size(self) -> int:
        return sum(len(d.source) for d in self.candidates)


def run_job(job: Job) -> bytes:
    """Compile one job: the PDF's bytes."""
    return job.lay_out(job.candidates)


def _load_cache(out: Path) -> dict[str, dict[str, Any]]:
    """What the last run into `out` made. A missing, unreadable, foreign or hostile file (too
    big, nested too deep to read) is no cache: everything is made again."""
    try:
        data = json.loads(read_user_bytes(out / CACHE_FILE, 16 * 2**20, "a record of the docs"))
    except (Refused, ValueError, RecursionError):  # Refused: missing, too big, not a regular file
        return {}
    return data if isinstance(data, dict) else {}


def _run_numbered(item: tuple[int, Job]) -> tuple[int, bytes]:
    return item[0], run_job(item[1])


def _run_jobs(todo: Sequence[Job], workers: int, done: Callable[[Job, bytes], None]) -> None:
    """Run the jobs, longest first, `workers` at a time; `done` hears of each as it ends."""
    todo = sorted(todo, key=lambda job: -job.size)
    if workers <= 1 or len(todo) <= 1:
        for job in todo:
            done(job, run_job(job))
        return
    # Typst keeps a pool of threads once it has compiled, which a forked copy of the process
    # would wait on: a process that compiled before (a test, a program using meeple) spawns its
    # workers afresh. `meeple docs` compiles only in its workers, and forks them (faster).
    count, start = min(workers, len(todo)), "spawn" if typeset.has_compiled() else None
    for index, made in in_workers(_run_numbered, enumerate(todo), count, ordered=False, start=start):
        done(todo[index], made)


# ---------------------------------------------------------------------- writing files


# The files of one game, by document and format ("{}" is the game's file name without ".rules").
OUTPUTS = {
    "rulebook": {"md": "{}.md", "html": "{}.html", "pdf": "{}.pdf"},
    "aid": {"md": "{}-aid.md", "html": "{}-aid.html", "pdf": "{}-aid.pdf"},
    "reference": {"md": "{}-reference.md", "html": "{}-reference.html", "pdf": "{}-reference.pdf"},
}
FLOW_FILE = "{}-reference-flow.svg"  # the Markdown reference's flow diagram
RESERVED = {"index.md", "index.html", CACHE_FILE}  # the files of the run as a whole


def _forms() -> list[str]:
    return [FLOW_FILE, *(form for by_format in OUTPUTS.values() for form in by_format.values())]


def _stems(paths: Iterable[Path]) -> list[str]:
    """A name for each game's files: its own, or with a number when a file of it would have the
    name of another game's file or of the index (a game called `index`, two files `a.rules` in
    two folders, a game `a` beside a game `a-aid`). No two outputs ever share a path."""
    taken = set(RESERVED)
    out: list[str] = []
    for path in paths:
        stem, n = path.stem, 2
        while {form.format(stem) for form in _forms()} & taken:
            stem, n = f"{path.stem}-{n}", n + 1
        taken |= {form.format(stem) for form in _forms()}
        out.append(stem)
    return out


def _text(document: str, fmt: str, docs: GameDocs, stem: str) -> str:
    """A document's Markdown or HTML."""
    match document, fmt:
        case "rulebook", "md":
            return rulebook_markdown(docs, stem)
        case "rulebook", "html":
            return rulebook_html(docs)
        case "aid", "md":
            return aid_markdown(docs)
        case "aid", "html":
            return aid_html(docs)
        case "reference", "md":
            return reference_markdown(docs, FLOW_FILE.format(stem))
        case "reference", "html":
            return reference_html(docs)
    raise ValueError(f"no {fmt} text for the {document}")


def _job(name: str, document: str, docs: GameDocs) -> Job:
    """A document's PDF to make: from the rulebook's sizes, the aid's layouts or one source."""
    match document:
        case "rulebook":
            return Job(name, rulebook_candidates(docs), book_pdf)
        case "aid":
            return Job(name, aid_candidates(docs), aid_pdf)
        case "reference":
            return Job(name, [reference_typst(docs)])
    raise ValueError(f"no document {document}")


WRITING, LAYING_OUT = "writing the documents", "laying out PDFs"  # the stages `write` reports


def write(
    games: Sequence[GameDocs],
    out: Path,
    formats: Iterable[str],
    documents: Iterable[str] = ("rulebook",),
    written_one: Callable[[Path, bool], None] = lambda path, again: None,
    *,
    workers: int = 1,
    reuse: bool = True,
    progress: Callable[[str, int, int], None] = lambda stage, done, total: None,
) -> list[Path]:
    """Write the `documents` (of DOCUMENTS) of every game in the `formats` into `out` and, for
    several games, an index. Returns the files written, in order. `written_one` hears of each
    as soon as it is written (a long PDF takes seconds), with True when it was kept from the
    last run: with `reuse`, a PDF whose input has not changed since the last run into `out` is
    not laid out again. `workers`: how many layouts run at once. `progress` hears (stage, done,
    of how many) at the start of each stage and after each step of it, for a progress bar: the
    games whose text documents are written, then the PDFs laid out.
    Raises OSError when `out` cannot be written."""
    wanted = [f for f in FORMATS if f in set(formats)]
    which = [d for d in DOCUMENTS if d in set(documents)]
    out.mkdir(parents=True, exist_ok=True)
    cache = _load_cache(out) if reuse else {}
    writer = _Writer(out, written_one, made=dict(cache))
    entries: list[dict[str, Any]] = []
    jobs: list[Job] = []
    progress(WRITING, 0, len(games))
    for count, (docs, stem) in enumerate(zip(games, _stems(g.path for g in games), strict=True), 1):
        files = writer.texts(docs, stem, which, wanted, jobs)
        book = docs.book
        entries.append(
            {"title": book.title, "players": book.players, "file": docs.reference.file, "files": files}
        )
        progress(WRITING, count, len(games))
    todo = writer.kept_or_todo(jobs, cache)
    done: list[Job] = []

    def laid(job: Job, data: bytes) -> None:
        writer.finished(job, data)
        done.append(job)
        progress(LAYING_OUT, len(done), len(todo))

    progress(LAYING_OUT, 0, len(todo))
    try:
        _run_jobs(todo, workers, laid)
    finally:  # what was made before an interruption need not be made again
        write_atomic(out / CACHE_FILE, json.dumps(writer.made, indent=1, sort_keys=True))
    if len(games) > 1:
        if "md" in wanted:
            writer.put("index.md", index_markdown(entries))
        if "html" in wanted or "pdf" in wanted:
            writer.put("index.html", index_html(entries))
    return writer.written


@dataclass
class _Writer:
    """The files of one `write` run into `out`: each told to `written_one` as it is written, and
    what each PDF was made from (`made`, the cache record: the last run's, updated as jobs end)."""

    out: Path
    written_one: Callable[[Path, bool], None]
    made: dict[str, Any]
    written: list[Path] = field(default_factory=list)

    def put(self, name: str, data: str | bytes | None, kept: bool = False) -> None:
        """A file written (or kept as it is, when `data` is None), in order."""
        path = self.out / name
        if data is not None:
            write_atomic(path, data)
        self.written.append(path)
        self.written_one(path, kept)

    def texts(
        self, docs: GameDocs, stem: str, which: list[str], wanted: list[str], jobs: list[Job]
    ) -> dict[str, dict[str, str]]:
        """Write a game's Markdown and HTML documents (with the flow diagram and the pictures
        the Markdown links to), add its PDFs to `jobs`, and return each document's file names
        by format, for the index."""
        files: dict[str, dict[str, str]] = {}
        for document in which:
            files[document] = {}
            for fmt in wanted:
                name = OUTPUTS[document][fmt].format(stem)
                files[document][fmt] = name
                if fmt == "pdf":
                    jobs.append(_job(name, document, docs))
                    continue
                if document == "reference" and fmt == "md":
                    self.put(FLOW_FILE.format(stem), flow_svg_file(docs))
                if document == "rulebook" and fmt == "md":
                    for picture, svg in rulebook_pictures(docs).items():
                        self.put(f"{stem}-{picture}", svg)
                self.put(name, _text(document, fmt, docs, stem))
        return files

    def finished(self, job: Job, data: bytes | None, kept: bool = False) -> None:
        """A job is done (or was done before, when `kept`): write what it made, and only then
        record it as made (a file cut short by an interruption is made again next time)."""
        self.put(job.target, data, kept)
        self.made[job.target] = {"key": job.key}

    def kept_or_todo(self, jobs: list[Job], cache: dict[str, Any]) -> list[Job]:
        """The jobs to run: those whose PDF the last run did not make from the same input (each
        of the others is reported kept, in order)."""
        todo = []
        for job in jobs:
            before = cache.get(job.target)
            if (
                isinstance(before, dict)
                and before.get("key") == job.key
                and (self.out / job.target).is_file()
            ):
                self.finished(job, None, kept=True)
            else:  # never made, changed, or a record that cannot be trusted: made again
                todo.append(job)
        return todo
