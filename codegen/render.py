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

import logging
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache
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
from meeple.grammar import ast
from meeple.interpreter.analysis import Symbols

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


def fitted_summary(docs: GameDocs) -> tuple[str, Any]:
    """The summary's HTML in the first layout that fits on two pages, and its laid-out PDF.
    A layout is skipped when the first one's page count says it cannot fit (pages grow with the
    square of the type size and shrink with the columns): laying out a page costs time."""
    first: int | None = None
    for layout in SUMMARY_LAYOUTS:
        scale, columns, detail = layout
        hopeless = first is not None and first * scale * scale / columns > SUMMARY_PAGES * 1.2
        if hopeless and layout != SUMMARY_LAYOUTS[-1]:
            continue
        html = summary_html(docs, scale, columns, detail)
        document = _document(html)
        first = len(document.pages) if first is None else first
        if len(document.pages) <= SUMMARY_PAGES:
            break
    return html, document


# ---------------------------------------------------------------------- writing files


def _stems(paths: Iterable[Path]) -> list[str]:
    """A file name for each game: its own, or with a number when two games share one."""
    out: list[str] = []
    for path in paths:
        stem, n = path.stem, 2
        while stem in out:
            stem, n = f"{path.stem}-{n}", n + 1
        out.append(stem)
    return out


def write(
    games: Sequence[GameDocs],
    out: Path,
    formats: Iterable[str],
    summary: bool,
    written_one: Callable[[Path], None] = lambda path: None,
) -> list[Path]:
    """Write the docs of every game into `out` and, for several games, an index. Returns the
    files written, in order; `written_one` hears of each as soon as it is written (a long PDF
    takes seconds). Raises OSError when `out` cannot be written."""
    wanted = [f for f in FORMATS if f in set(formats)]
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []

    def put(name: str, data: str | bytes) -> None:
        path = out / name
        if isinstance(data, bytes):
            path.write_bytes(data)
        else:
            path.write_text(data, encoding="utf-8")
        written.append(path)
        written_one(path)

    entries: list[dict[str, Any]] = []
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
            put(f"{stem}.pdf", pdf(reference_html(docs, sources=False)))
            files["pdf"] = f"{stem}.pdf"
        if summary:
            if "md" in wanted:
                put(f"{stem}-summary.md", summary_markdown(docs))
                files["summary_md"] = f"{stem}-summary.md"
            if "html" in wanted or "pdf" in wanted:
                card, document = fitted_summary(docs)
                if "html" in wanted:
                    put(f"{stem}-summary.html", card)
                    files["summary_html"] = f"{stem}-summary.html"
                if "pdf" in wanted:
                    put(f"{stem}-summary.pdf", document.write_pdf())
                    files["summary_pdf"] = f"{stem}-summary.pdf"
        ref = docs.reference
        entries.append({"title": ref.title, "players": ref.players, "file": ref.file, "files": files})
    if len(games) > 1:
        if "md" in wanted:
            put("index.md", index_markdown(entries))
        if "html" in wanted or "pdf" in wanted:
            put("index.html", index_html(entries))
    return written
