"""Turning the gathered rulebook (model.py) into files: Markdown, HTML and PDF.

HTML is self-contained on purpose: the styles, the flow diagram (SVG) and the highlighted rules
are inline, and nothing is fetched (no fonts, scripts or images from elsewhere), so a file can be
mailed, opened offline or printed years later. The PDF is that same HTML laid out by WeasyPrint,
with a fetcher that refuses every URL so that a PDF can never depend on the network either.
Markdown is for code hosts: it links the flow diagram as an SVG file written beside it, since
code hosts do not show inline SVG.

The summary must fit on two A4 pages whatever the game: it is laid out at its full size first and,
if it runs over, again with smaller type, step by step, down to a floor that stays readable.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup
from pygments import highlight
from pygments.formatters import HtmlFormatter

from meeple.codegen import model
from meeple.codegen.flow import render_svg
from meeple.codegen.lexer import MeepleLexer
from meeple.codegen.markup import markdown, md_escape, plain, to_html
from meeple.files import write_atomic
from meeple.grammar import ast
from meeple.interpreter.analysis import Symbols
from meeple.workers import in_workers

FORMATS = ("md", "html", "pdf")
SUMMARY_PAGES = 2
# How the summary is laid out, tried in order until it fits: (type scale, columns, every decision
# in words). Large type first; then decisions by their prompts only, two columns, smaller type.
# The last still prints at about 8.5 pt.
SUMMARY_LAYOUTS = (
    (1.0, 1, True),
    (0.92, 1, True),
    (0.85, 1, True),
    (0.85, 1, False),
    (0.85, 2, False),
    (0.78, 2, False),
    (0.72, 2, False),
    (0.66, 2, False),
)


@dataclass
class GameDocs:
    """Everything the docs of one game are made from."""

    path: Path
    reference: model.Reference
    summary: model.Summary


def game_docs(path: Path, module: ast.Module, symbols: Symbols, constants: dict[str, Any]) -> GameDocs:
    """The docs of a checked rules file (a module without errors, its symbols and constants)."""
    ref = model.reference(path, module, symbols, constants)
    return GameDocs(path, ref, model.summary(ref, module, symbols, constants))


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
    env.filters["first_upper"] = lambda text: text[:1].upper() + text[1:]
    env.globals["pygments_css"] = Markup(HtmlFormatter(style="friendly").get_style_defs(".highlight"))
    return env


def _highlight(source: str) -> Markup:
    return Markup(highlight(source, MeepleLexer(), HtmlFormatter(cssclass="highlight", style="friendly")))


def _render(template: str, **context: Any) -> str:
    text = environment().get_template(template).render(**context)
    if template.endswith(".md.j2"):  # blank lines of empty template blocks: one is enough
        text = re.sub(r"\n{3,}", "\n\n", text)
    return text


def reference_markdown(docs: GameDocs, flow_file: str) -> str:
    return _render("reference.md.j2", ref=docs.reference, flow_file=flow_file)


def reference_html(docs: GameDocs, sources: bool = True) -> str:
    """`sources`: each rule's own lines, highlighted, folded under it. Print hides them, so the
    PDF is made without them (WeasyPrint would lay them out for nothing)."""
    return _render("reference.html.j2", ref=docs.reference, sources=sources)


def summary_markdown(docs: GameDocs) -> str:
    return _render("summary.md.j2", card=docs.summary)


def summary_html(docs: GameDocs, scale: float = 1.0, columns: int = 1, detail: bool = True) -> str:
    return _render("summary.html.j2", card=docs.summary, scale=scale, columns=columns, detail=detail)


def index_markdown(entries: Sequence[dict[str, Any]]) -> str:
    return _render("index.md.j2", games=entries)


def index_html(entries: Sequence[dict[str, Any]]) -> str:
    return _render("index.html.j2", games=entries)


def flow_svg_file(docs: GameDocs) -> str:
    """The flow diagram as a file of its own, for Markdown."""
    return render_svg(docs.reference.flow_boxes, prefix="flow", standalone=True)


# ---------------------------------------------------------------------- PDF


def pdf_available() -> str | None:
    """None when PDF can be made here; otherwise why not (WeasyPrint needs Pango, a system
    library, which a machine may lack even when the Python package is installed)."""
    try:
        import weasyprint  # noqa: F401
    except (ImportError, OSError) as err:
        return str(err)
    return None


def _no_fetching(url: str, *args: Any, **kwargs: Any) -> dict[str, Any]:
    raise ValueError(f"the docs fetch nothing, not even {url}")


def _document(html: str) -> Any:
    """WeasyPrint's layout of an HTML text. Its warnings about CSS it ignores are for us, not for
    the designer running `meeple docs`, so they are kept out of the terminal."""
    from weasyprint import HTML

    logging.getLogger("weasyprint").setLevel(logging.ERROR)
    return HTML(string=html, url_fetcher=_no_fetching).render()


def pdf(html: str) -> bytes:
    return _document(html).write_pdf()


def summary_candidates(docs: GameDocs) -> list[str]:
    """The summary's HTML in every layout of SUMMARY_LAYOUTS, in order."""
    return [summary_html(docs, scale, columns, detail) for scale, columns, detail in SUMMARY_LAYOUTS]


def fit_summary(candidates: Sequence[str]) -> tuple[int, Any]:
    """The first of the summary's layouts that fits on two pages, and its laid-out document.
    A layout is skipped when the first one's page count says it cannot fit (pages grow with the
    square of the type size and shrink with the columns): laying out a page costs time."""
    first: int | None = None
    for index, (scale, columns, _) in enumerate(SUMMARY_LAYOUTS):
        hopeless = first is not None and first * scale * scale / columns > SUMMARY_PAGES * 1.2
        if hopeless and index < len(SUMMARY_LAYOUTS) - 1:
            continue
        document = _document(candidates[index])
        first = len(document.pages) if first is None else first
        if len(document.pages) <= SUMMARY_PAGES:
            break
    return index, document


def fitted_summary(docs: GameDocs) -> tuple[str, Any]:
    """The summary's HTML in the first layout that fits on two pages, and its laid-out PDF."""
    candidates = summary_candidates(docs)
    index, document = fit_summary(candidates)
    return candidates[index], document


# ---------------------------------------------------------------------- laying out, in parallel

# Laying out with WeasyPrint is the slow part of `meeple docs` (a long reference takes seconds),
# and it is pure CPU work on a text: so each layout is a job, the jobs run side by side in worker
# processes, and a job whose input has not changed since the last run into the same folder is
# not run again (a designer who edits one game and makes the docs of all of them waits for one).

CACHE_FILE = ".meeple-docs.json"  # in the output folder: output file name -> what it was made from


@dataclass
class Job:
    """One layout: the reference PDF of `html`, or the summary fitted among `candidates`."""

    target: str  # the PDF file, or the summary's HTML file when no PDF is wanted
    html: str = ""
    candidates: Sequence[str] = ()
    want_pdf: bool = True

    @cached_property
    def key(self) -> str:
        """What the output depends on: its input and the version of the layout engine (hashed
        once: a reference is a few hundred kilobytes)."""
        from weasyprint import __version__

        digest = hashlib.sha256(f"weasyprint {__version__}\n{int(self.want_pdf)}".encode())
        for text in [self.html, *self.candidates]:
            digest.update(b"\0" + text.encode())
        return digest.hexdigest()


def run_job(job: Job) -> tuple[int, bytes | None]:
    """Lay out one job (in a worker process): (the summary layout chosen, or 0; the PDF's bytes)."""
    if not job.candidates:
        return 0, pdf(job.html)
    index, document = fit_summary(job.candidates)
    return index, document.write_pdf() if job.want_pdf else None


def _load_cache(out: Path) -> dict[str, dict[str, Any]]:
    """What the last run into `out` made. A missing, unreadable, foreign or hostile file (too
    big, nested too deep to read) is no cache: everything is made again."""
    try:
        path = out / CACHE_FILE
        if path.stat().st_size > 16 * 2**20:
            return {}
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return {}
    return data if isinstance(data, dict) else {}


def _run_numbered(item: tuple[int, Job]) -> tuple[int, tuple[int, bytes | None]]:
    return item[0], run_job(item[1])


def _run_jobs(todo: Sequence[Job], workers: int, done: Callable[[Job, int, bytes | None], None]) -> None:
    """Run the jobs, longest first, `workers` at a time; `done` hears of each as it ends."""
    todo = sorted(todo, key=lambda job: -len(job.html) - sum(map(len, job.candidates)))
    if workers <= 1 or len(todo) <= 1:
        for job in todo:
            done(job, *run_job(job))
        return
    for index, made in in_workers(_run_numbered, enumerate(todo), min(workers, len(todo)), ordered=False):
        done(todo[index], *made)


# ---------------------------------------------------------------------- writing files


OUTPUTS = ("{}.md", "{}.html", "{}.pdf", "{}-flow.svg", "{}-summary.md", "{}-summary.html", "{}-summary.pdf")
RESERVED = {"index.md", "index.html", CACHE_FILE}  # the files of the run as a whole


def _stems(paths: Iterable[Path]) -> list[str]:
    """A name for each game's files: its own, or with a number when a file of it would have the
    name of another game's file or of the index (a game called `index`, two files `a.rules` in
    two folders, a game `a` beside a game `a-summary`). No two outputs ever share a path."""
    taken = set(RESERVED)
    out: list[str] = []
    for path in paths:
        stem, n = path.stem, 2
        while {form.format(stem) for form in OUTPUTS} & taken:
            stem, n = f"{path.stem}-{n}", n + 1
        taken |= {form.format(stem) for form in OUTPUTS}
        out.append(stem)
    return out


def write(
    games: Sequence[GameDocs],
    out: Path,
    formats: Iterable[str],
    summary: bool,
    written_one: Callable[[Path, bool], None] = lambda path, again: None,
    *,
    workers: int = 1,
    reuse: bool = True,
) -> list[Path]:
    """Write the docs of every game into `out` and, for several games, an index. Returns the
    files written, in order. `written_one` hears of each as soon as it is written (a long PDF
    takes seconds), with True when it was kept from the last run: with `reuse`, a PDF or a
    summary whose input has not changed since the last run into `out` is not laid out again.
    `workers`: how many layouts run at once. Raises OSError when `out` cannot be written."""
    wanted = [f for f in FORMATS if f in set(formats)]
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    cache = _load_cache(out) if reuse else {}
    made = dict(cache)  # what the last run made stays known, for the games not made this time

    def put(name: str, data: str | bytes | None, kept: bool = False) -> None:
        path = out / name
        if data is not None:
            write_atomic(path, data)
        written.append(path)
        written_one(path, kept)

    entries: list[dict[str, Any]] = []
    jobs: list[Job] = []
    summaries: dict[str, tuple[str, Sequence[str]]] = {}  # job target -> (stem, candidates)
    for docs, stem in zip(games, _stems(g.path for g in games), strict=True):
        files: dict[str, str] = {}
        if "md" in wanted:
            put(f"{stem}-flow.svg", flow_svg_file(docs))
            put(f"{stem}.md", reference_markdown(docs, f"{stem}-flow.svg"))
            files["md"] = f"{stem}.md"
        if "html" in wanted:
            put(f"{stem}.html", reference_html(docs))
            files["html"] = f"{stem}.html"
        if "pdf" in wanted:
            jobs.append(Job(f"{stem}.pdf", html=reference_html(docs, sources=False)))
            files["pdf"] = f"{stem}.pdf"
        if summary:
            if "md" in wanted:
                put(f"{stem}-summary.md", summary_markdown(docs))
                files["summary_md"] = f"{stem}-summary.md"
            if "html" in wanted or "pdf" in wanted:
                want_pdf = "pdf" in wanted
                target = f"{stem}-summary.pdf" if want_pdf else f"{stem}-summary.html"
                candidates = summary_candidates(docs)
                jobs.append(Job(target, candidates=candidates, want_pdf=want_pdf))
                summaries[target] = (stem, candidates)
                if "html" in wanted:
                    files["summary_html"] = f"{stem}-summary.html"
                if want_pdf:
                    files["summary_pdf"] = f"{stem}-summary.pdf"
        ref = docs.reference
        entries.append({"title": ref.title, "players": ref.players, "file": ref.file, "files": files})

    def finished(job: Job, layout: int, data: bytes | None, kept: bool = False) -> None:
        """A job is done (or was done before, when `kept`): write what it made, and only then
        record it as made (a file cut short by an interruption is made again next time)."""
        if job.target in summaries and "html" in wanted:
            stem, candidates = summaries[job.target]
            put(f"{stem}-summary.html", candidates[layout], kept and not job.want_pdf)
        if job.want_pdf:
            put(job.target, data, kept)
        made[job.target] = {"key": job.key, "layout": layout}

    todo = []
    for job in jobs:
        before = cache.get(job.target)
        layout = before.get("layout") if isinstance(before, dict) else None
        if (
            isinstance(before, dict)
            and before.get("key") == job.key
            and type(layout) is int
            and 0 <= layout < len(SUMMARY_LAYOUTS)
            and (out / job.target).is_file()
        ):
            finished(job, layout, None, kept=True)
        else:  # never made, changed, or a record that cannot be trusted: made again
            todo.append(job)
    try:
        _run_jobs(todo, workers, finished)
    finally:  # what was made before an interruption need not be made again
        write_atomic(out / CACHE_FILE, json.dumps(made, indent=1, sort_keys=True))
    if len(games) > 1:
        if "md" in wanted:
            put("index.md", index_markdown(entries))
        if "html" in wanted or "pdf" in wanted:
            put("index.html", index_html(entries))
    return written
