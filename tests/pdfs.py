"""Reading a generated PDF back with pypdf: its pages, its text, and the size its text prints at.

The size a glyph prints at is not the `Tf` operator's operand alone: the text matrix (`Tm`) and
the graphics state's matrix (`cm`, and the `/Matrix` of a form XObject such as an SVG image drawn
scaled) multiply it. `font_sizes` follows all three, so that text set at 20 pt and scaled by half
reads as 10 pt.
"""

from __future__ import annotations

import io
import math
import unicodedata
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from pypdf import PdfReader
from pypdf.generic import ContentStream

Matrix = tuple[float, float, float, float, float, float]
IDENTITY: Matrix = (1, 0, 0, 1, 0, 0)
SHOW = {b"Tj", b"TJ", b"'", b'"'}


def reader(data: bytes) -> PdfReader:
    return PdfReader(io.BytesIO(data))


def pages(data: bytes) -> int:
    return len(reader(data).pages)


def text(data: bytes) -> str:
    return "\n".join(page.extract_text() for page in reader(data).pages)


def font_sizes(data: bytes) -> Counter[float]:
    """How many text-showing operations print at each size, in points (rounded to 0.1)."""
    pdf = reader(data)
    sizes: Counter[float] = Counter()
    for page in pdf.pages:
        for drawn in _drawn(page.get_contents(), page.get("/Resources"), IDENTITY, pdf):
            if drawn.op in SHOW:
                sizes[round(drawn.size * _scale(drawn.tm) * _scale(drawn.ctm), 1)] += 1
    return sizes


def min_font_size(data: bytes) -> float:
    return min(font_sizes(data))


def _times(m: Matrix, n: Matrix) -> Matrix:
    """m then n, in PDF's row-vector convention (`cm` sets CTM to m x CTM)."""
    a, b, c, d, e, f = m
    A, B, C, D, E, F = n
    return (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F)


def _scale(m: Matrix) -> float:
    return math.sqrt(abs(m[0] * m[3] - m[1] * m[2]))


@dataclass
class Drawn:
    """One operator of a page's content as drawn: its operands, the graphics state's matrix and the
    text matrix and font size in force (`_drawn` follows `q`/`Q`, `cm`, `BT`, `Tm`, `Tf` and forms)."""

    op: bytes
    operands: list[Any]
    ctm: Matrix
    tm: Matrix
    size: float


def _drawn(contents: Any, resources: Any, ctm: Matrix, pdf: PdfReader, depth: int = 0) -> Iterator[Drawn]:
    """Every operator `contents` draws, a form's (an SVG picture drawn scaled) inside its own
    matrix; an image is one `Do` whose matrix maps the unit square to where it prints."""
    if contents is None or depth > 8:
        return
    resources = resources.get_object() if resources is not None else {}
    stack: list[tuple[Matrix, float]] = []
    size, tm = 0.0, IDENTITY
    for operands, op in ContentStream(contents, pdf).operations:
        if op == b"q":
            stack.append((ctm, size))
        elif op == b"Q" and stack:
            ctm, size = stack.pop()
        elif op == b"cm":
            ctm = _times(tuple(float(x) for x in operands), ctm)  # type: ignore[arg-type]
        elif op == b"BT":
            tm = IDENTITY
        elif op == b"Tm":
            tm = tuple(float(x) for x in operands)  # type: ignore[assignment]
        elif op == b"Tf":
            size = float(operands[1])
        elif op == b"Do":
            xobjects = resources.get("/XObject")
            thing = xobjects.get_object().get(operands[0]) if xobjects is not None else None
            thing = thing.get_object() if thing is not None else None
            if thing is not None and thing.get("/Subtype") == "/Image":
                yield Drawn(op, operands, ctm, tm, size)
            elif thing is not None and thing.get("/Subtype") == "/Form":
                matrix = tuple(float(x) for x in thing.get("/Matrix", IDENTITY))
                inner = thing.get("/Resources", resources)
                yield from _drawn(thing, inner, _times(matrix, ctm), pdf, depth + 1)  # type: ignore[arg-type]
            continue
        yield Drawn(op, operands, ctm, tm, size)


def flat(words: str) -> str:
    """Text as compared across a PDF: no spaces or line breaks, no hyphen a line break may have
    added, straight quotes for Typst's curly ones, one case."""
    words = unicodedata.normalize("NFKC", words)
    words = words.translate(str.maketrans("\u2018\u2019\u201c\u201d", "''\"\"", " \t\r\n-\u00ad"))
    return words.casefold()


def _runs(page: Any, margin: float) -> list[tuple[float, float, str]]:
    """A page's pieces of text inside its margins: their height on the page, size and words."""
    top = float(page.mediabox.top)
    runs: list[tuple[float, float, str]] = []

    def seen(words: str, cm: list[float], tm: list[float], font: Any, size: float) -> None:
        y = tm[5] * cm[3] + cm[5]
        if words.strip() and margin < y < top - margin:
            runs.append((round(y), size * abs(tm[3] * cm[3]), words))

    page.extract_text(visitor_text=seen)
    return runs


def lines_under_headings(
    data: bytes, least: float = 12.5, margin: float = 56
) -> list[tuple[int, str, int, bool]]:
    """For each heading of each page (text at `least` points or more, inside the margins): its
    page (from 1), its words, how many lines of the page's text print under it, and whether what
    it heads goes on onto the next page (that page opens with text that is not a heading). The
    pages' headers and footers (in the margins, `margin` points from each edge) are not read."""
    pages = [_runs(page, margin) for page in reader(data).pages]
    out = []
    for number, runs in enumerate(pages, 1):
        after = pages[number] if number < len(pages) else []
        goes_on = bool(after) and max(after)[1] < least  # the highest text of the next page
        for y, size, words in runs:
            if size >= least:
                below = {yy for yy, s, _ in runs if yy < y - 2 and s < least}
                out.append((number, words.strip(), len(below), goes_on))
    return out


PAINT = {b"f", b"F", b"f*", b"S", b"s", b"B", b"B*", b"b", b"b*"}
PATH = {b"m", b"l", b"c", b"v", b"y"}


def lowest_ink(data: bytes, margin: float = 56) -> list[float | None]:
    """For each page, the height above the page's foot of the lowest thing printed inside the
    margins (`margin` points from each edge, where the header and the page number are): a
    letter's baseline, a painted path (a box's fill, a picture's lines) or an image. None for a
    page with nothing inside its margins. Paths that only clip are not printed, and not counted."""
    pdf = reader(data)
    out: list[float | None] = []
    for page in pdf.pages:
        top = float(page.mediabox.top)
        ys = _inks(page.get_contents(), page.get("/Resources"), pdf)
        inside = [y for y in ys if margin < y < top - margin]
        out.append(min(inside) if inside else None)
    return out


def _point(x: float, y: float, m: Matrix) -> float:
    return x * m[1] + y * m[3] + m[5]


def _inks(contents: Any, resources: Any, pdf: PdfReader) -> list[float]:
    """The height on the page of everything `contents` prints (see lowest_ink)."""
    ys: list[float] = []
    path: list[float] = []
    for drawn in _drawn(contents, resources, IDENTITY, pdf):
        op, operands, ctm = drawn.op, drawn.operands, drawn.ctm
        if op in SHOW:
            ys.append(_point(0, 0, _times(drawn.tm, ctm)))
        elif op in PATH:
            coords = [float(x) for x in operands]
            path += [_point(x, y, ctm) for x, y in zip(coords[::2], coords[1::2], strict=True)]
        elif op == b"re":
            x, y, w, h = (float(v) for v in operands)
            path += [_point(x, y, ctm), _point(x + w, y + h, ctm)]
        elif op in PAINT:
            ys += path
            path = []
        elif op == b"n":
            path = []
        elif op == b"Do":  # an image: its corners
            ys += [_point(0, 0, ctm), _point(1, 1, ctm)]
    return ys


def laid_out(document: Any) -> tuple[bytes, list[str]]:
    """A Typst document's PDF (`codegen.render.Typst`: its source and files), and what Typst
    warned of while laying it out: the product's own compile keeps no warnings, and a layout
    that did not settle ("document did not converge") is a warning."""
    import tempfile
    from pathlib import Path

    import typst

    with tempfile.TemporaryDirectory() as folder:
        for name, data in {**document.files, "main.typ": document.source}.items():
            (Path(folder) / name).write_text(data, encoding="utf-8")
        pdf, warnings = typst.compile_with_warnings(
            str(Path(folder) / "main.typ"), root=folder, ignore_system_fonts=True
        )
    assert isinstance(pdf, bytes)
    return pdf, [str(w) for w in warnings]


def rules_under_text(data: bytes, page: int = 0) -> list[tuple[float, float]]:
    """For each thin straight horizontal line on a page (a rule between entries; Typst prints a
    stroke as a filled outline): how far it lies under the baseline of the nearest text above it
    (within 15 points), and that text's printed size. A line under a baseline by less than a
    descender's depth runs through the "g" and "y" of the text above it."""
    pdf = reader(data)
    the_page = pdf.pages[page]
    baselines: list[tuple[float, float]] = []
    rules: list[float] = []
    path: list[tuple[float, float]] = []
    for drawn in _drawn(the_page.get_contents(), the_page.get("/Resources"), IDENTITY, pdf):
        m = drawn.ctm
        if drawn.op in SHOW:
            at = _times(drawn.tm, m)
            baselines.append((_point(0, 0, at), drawn.size * _scale(at)))
        elif drawn.op in PATH:
            coords = [float(v) for v in drawn.operands]
            path += [
                (x * m[0] + y * m[2] + m[4], _point(x, y, m))
                for x, y in zip(coords[::2], coords[1::2], strict=True)
            ]
        elif drawn.op in PAINT or drawn.op == b"n":
            xs, ys = [x for x, _ in path], [y for _, y in path]
            if path and max(ys) - min(ys) < 1.5 and max(xs) - min(xs) > 50:
                rules.append((max(ys) + min(ys)) / 2)
            path = []
    out = []
    for y in rules:
        above = [(by - y, size) for by, size in baselines if 0 < by - y < 15]
        if above:
            out.append(min(above))
    return out
