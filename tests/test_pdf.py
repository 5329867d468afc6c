"""The PDF through Typst: a rules file's text is printed, never run; Typst reads nothing outside
the folder made for each compile and no font of the machine; and the helper that reads the size
of printed text back from a PDF (`tests/pdfs.py`) reads the sizes a document was given.
"""

from __future__ import annotations

import re
from pathlib import Path

import pdfs
import pytest
import typst

import meeple
from meeple.codegen import render, typeset
from meeple.codegen.markup import ref, to_typst, typst_escape, typst_string, var

SECRET = "SECRET-CONTENT-7f3a"  # in a file beside the source: printed only if a text were run

HOSTILE = [
    '#read("secret.txt")',
    '#import "@preview/cetz:0.3.0": *',
    "#let x = 1] ) } [ unbalanced [[",
    '$x^2$ *bold* _em_ @top <top> `code` \\ \\" // not a comment /* nor this',
    "= not a heading",
    "- not a list + nor this 1. nor this / term: no",
    "https://example.org -- --- ... ~ 'quotes' \"double\"",
    '#{ panic() } #eval("1") #sys.inputs',
    "\\u{41} \\#escaped",
]


def game_source(texts: list[str]) -> str:
    def q(text: str) -> str:
        return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'

    def shown(text: str) -> str:  # a `text` line shows `{NAME}` values: its braces are doubled
        return q(text.replace("{", "{{").replace("}", "}}"))

    rule_texts = "\n".join(f"  text {shown(t)}" for t in texts)
    # a prompt is printed as written and may hold no `{...}` (M028): it gets the unbalanced text
    return f"""\
game {q(texts[0])}:
  players 2..3
  rulebook {q(texts[2])}
  text {shown(texts[3])}
aside {q(texts[4])}

constant rounds = 2
  cites {q(texts[5])}
zone bag, hidden
piece coin: 5 per player in bag
var score: int = 0 per player

rule take(p: player):
{rule_texts}
  assume {q(texts[6])}
  may {q(texts[2])} by p:
    log {q(texts[8])}
    add 1 to p.score

play:
  repeat rounds times:
    for each p in players:
      turn p:
        take(p)

score p = p.score
"""


def squeeze(text: str) -> str:
    """Text without its spaces: lines break where Typst pleases."""
    return re.sub(r"\s+", "", text)


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> render.GameDocs:
    path = tmp_path_factory.mktemp("hostile") / "hostile.rules"
    path.write_text(game_source(HOSTILE), encoding="utf-8")
    checked = meeple.check(path)
    assert checked.ok, [d.message for d in checked.diagnostics]
    assert checked.module and checked.symbols and checked.program
    return render.game_docs(path, checked.module, checked.symbols, checked.program.constants)


def test_hostile_text_prints_literally_and_reads_no_file(hostile: render.GameDocs) -> None:
    document = render.reference_typst(hostile)
    files = {**document.files, "secret.txt": SECRET}  # beside the source, inside Typst's root
    data, _ = typeset.compile_pdf(document.source, files)
    printed = squeeze(pdfs.text(data))
    assert SECRET not in printed
    for text in HOSTILE:
        assert squeeze(text) in printed, text
    for document in (render.rulebook_typst(hostile), render.aid_candidates(hostile)[0]):
        data, _ = typeset.compile_pdf(document.source, {"secret.txt": SECRET})
        printed = squeeze(pdfs.text(data))
        assert SECRET not in printed and squeeze(HOSTILE[0]) in printed and squeeze(HOSTILE[3]) in printed


def test_every_ascii_character_survives_escaping() -> None:
    every = "".join(chr(c) for c in range(32, 127))
    marked = f"{every} {var('p' + every)} {ref('rule-x', 'go ' + every)}"
    source = (
        f"{typst_escape(every)}\n\n{to_typst(marked, links=False)}\n\n"
        f"#{typst_string(every)};\n\n#metadata(1) <meeple-pages>"
    )
    data, _ = typeset.compile_pdf(source)
    assert squeeze(pdfs.text(data)).count(squeeze(every)) == 5


def test_marked_text_becomes_emphasis_and_links() -> None:
    out = to_typst(f"move {var('p')}.purse to {ref('rule-take', 'take')} #now")
    assert out == 'move #emph[p]\\.purse to #mref("rule-take")[take] \\#now'
    assert to_typst(ref("rule-take", "take"), links=False) == "#strong[take]"


def test_typst_reads_nothing_outside_its_folder(tmp_path: Path) -> None:
    outside = tmp_path / "outside.txt"
    outside.write_text(SECRET)
    for source in (f'#read("{outside}")', '#read("../outside.txt")', '#image("/etc/hostname")'):
        with pytest.raises(typst.TypstError):
            typeset.compile_pdf(source + "\n#metadata(1) <meeple-pages>")
    with pytest.raises(ValueError):
        typeset.compile_pdf("x", {"../escape.svg": "<svg/>"})


def test_only_the_fonts_typst_carries(hostile: render.GameDocs) -> None:
    document = render.reference_typst(hostile)
    data, _ = typeset.compile_pdf(document.source, document.files)
    names = set(re.findall(rb"/BaseFont\s*/(?:[A-Z]{6}\+)?([^\s/<>\[\]]+)", data))
    assert names and all(re.match(rb"(LibertinusSerif|DejaVuSansMono|NewCM)", n) for n in names), names


def test_the_same_source_makes_the_same_pdf(hostile: render.GameDocs) -> None:
    document = render.reference_typst(hostile)
    assert render.pdf(document) == render.pdf(document)


def test_the_size_reader_reads_the_sizes_a_document_sets() -> None:
    """The helper the page tests rely on, on a document whose sizes are known: plain text, text
    scaled by half (a matrix, not a font size), and text inside an SVG image shown at half."""
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 50" width="200" height="50">'
        '<text x="5" y="30" font-size="20" font-family="Libertinus Serif">in a picture</text></svg>'
    )
    cases = {
        "#text(size: 7pt)[seven]": 7.0,
        "#text(size: 12.5pt)[twelve and a half]": 12.5,
        "#scale(50%, reflow: true)[#text(size: 20pt)[twenty halved]]": 10.0,
        '#image("a.svg", width: 100pt)': 10.0,
    }
    for body, size in cases.items():
        source = f'#set text(font: "Libertinus Serif")\n{body}\n#metadata(1) <meeple-pages>'
        data, pages = typeset.compile_pdf(source, {"a.svg": svg})
        assert pages == pdfs.pages(data) == 1
        assert set(pdfs.font_sizes(data)) == {size}, body
