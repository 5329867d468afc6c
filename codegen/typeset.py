"""Typst: the .typ source the templates make, compiled into PDF pages.

Each compile gets a folder of its own, made for it and removed after it, that holds the source
and the files it shows (the flow diagrams as SVG) and is Typst's root: Typst reads no file
outside its root, so a document can show nothing but what was put there. Typst is given only
the fonts it carries (Libertinus Serif, New Computer Modern, DejaVu Sans Mono), never the
machine's: the same source makes the same pages everywhere. Text from a rules file reaches the
source only escaped (`markup.typst_escape`, `markup.to_typst`, `markup.typst_string`), so it is
printed, never run.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

MAIN = "main.typ"
PAGES_LABEL = "<meeple-pages>"  # the templates end with a metadata of this label: the page count
# The rulebook also ends with one of this label: how much of its last page's text it fills (0 to 1);
# and marks with GAP_LABEL each page an example leaves to open the next: how much of its text is empty.
END_LABEL = "<meeple-end>"
GAP_LABEL = "<meeple-gap>"
MM = 72 / 25.4  # points in a millimetre


@dataclass(frozen=True)
class Page:
    """The reference's page: A4, its margins in millimetres, and what follows for the layout."""

    margin_x: float = 18
    margin_top: float = 20
    margin_bottom: float = 20

    @property
    def text_width(self) -> float:
        return round((210 - 2 * self.margin_x) * MM, 2)

    @property
    def text_height(self) -> float:
        return round((297 - self.margin_top - self.margin_bottom) * MM, 2)

    @property
    def keep_limit(self) -> float:
        """An entry up to this tall (in points) is kept on one page; a longer one may break."""
        return round(self.text_height * 0.45, 2)


PAGE = Page()


def version() -> str:
    import typst

    return getattr(typst, "__version__", "unknown")


def available() -> str | None:
    """None when PDF can be made here; otherwise why not (the `typst` package is missing or
    does not load on this platform)."""
    try:
        import typst  # noqa: F401
    except (ImportError, OSError) as err:
        return str(err)
    return None


@dataclass(frozen=True)
class Laid:
    """A compiled document: its PDF, its page count and, where the source tells them, how much of
    the last page's text it fills, from 0 to 1 (END_LABEL; None where it does not), and how much
    of a page's text is left empty before each example that opens the next page (GAP_LABEL)."""

    pdf: bytes
    pages: int
    last_page: float | None = None
    gaps: tuple[float, ...] = ()


def compile_pdf(source: str, files: Mapping[str, str | bytes] = {}) -> tuple[bytes, int]:
    """The PDF of a Typst source and its page count. `files`: what the source may read, by
    name (a plain file name, no folder). Raises typst.TypstError if the source is wrong, which
    is a bug of ours: no rules file can make it so."""
    laid = lay_out(source, files)
    return laid.pdf, laid.pages


_compiled = False  # whether this process has compiled: then Typst has started its threads


def has_compiled() -> bool:
    """Whether Typst has compiled in this process, and so keeps threads that a forked copy of
    the process would lack (and wait on for ever in its first compile)."""
    return _compiled


def lay_out(source: str, files: Mapping[str, str | bytes] = {}) -> Laid:
    """`compile_pdf`, with how full the last page is and the gaps before examples where the
    source tells them (the rulebook's)."""
    import typst

    global _compiled
    _compiled = True
    with tempfile.TemporaryDirectory(prefix="meeple-typst-") as folder:
        root = Path(folder)
        for name, data in {**files, MAIN: source}.items():
            if Path(name).name != name or name in ("", ".", ".."):
                raise ValueError(f"not a plain file name: {name!r}")
            path = root / name
            if isinstance(data, bytes):
                path.write_bytes(data)
            else:
                path.write_text(data, encoding="utf-8")
        packages = root / "no-packages"  # no package is imported; none could be found elsewhere
        compiler = typst.Compiler(
            str(root / MAIN),
            root=str(root),
            ignore_system_fonts=True,
            package_path=str(packages),
            package_cache_path=str(packages),
        )
        out = compiler.compile(format="pdf")
        pages = int(compiler.query(PAGES_LABEL, field="value", one=True))
        ends = json.loads(compiler.query(END_LABEL, field="value"))
        gaps = json.loads(compiler.query(GAP_LABEL, field="value"))
    assert isinstance(out, bytes)
    return Laid(out, pages, float(ends[0]) if ends else None, tuple(float(g) for g in gaps))
