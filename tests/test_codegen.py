"""`meeple docs`: the rulebook, the player aid and the designer's reference of any rules file.

What is checked is what a designer relies on when they print the rules: nothing of the rules file
is missing from the reference (found by walking the AST, not by a list of names), the player aid
fits on two pages in type of 10 pt or more, the rulebook's PDF has every rule it prints, the HTML
needs nothing from outside itself, no flow diagram is taller than a page, and the command fails
cleanly on a broken file. What players read is in players' words: `tests/test_printed.py`. The
PDFs are read back with pypdf (`tests/pdfs.py`); `tests/test_pdf.py` has what is Typst's own. The
games are every bundled game and the test variant; a small game of our own covers the forms the
bundled games do not use.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from functools import cache
from pathlib import Path

import pdfs
import pytest
import typer
from pygments.lexers import get_lexer_by_name, get_lexer_for_filename
from pygments.token import Error, Keyword, Name
from typer.testing import CliRunner

import meeple
from meeple.cli_docs import docs
from meeple.codegen import flow, render
from meeple.codegen.english import anchor, humanise, meta_words, slug
from meeple.codegen.markup import MARKS, md_escape
from meeple.codegen.markup import plain as markup_plain
from meeple.grammar import ast

HERE = Path(__file__).parent
GAMES = [*meeple.bundled_games(), *sorted((HERE / "variants").glob("*.rules"))]

SMALL = """\
game "Small Things":
  players 2..3
  rulebook "small.txt"
  text "Take coins; the <richest> wins & smiles."
  conflict "The rulebook says both two and three rounds; we play three."
aside "The box art shows a cat."

constant rounds = 3
  cites "three rounds"
zone bag, hidden
zone purse per player, private
piece coin: 5 per player in bag
var round: int = 0 per player

rule take(p: player):
  may "Take a coin?" by p:
    move 1 coin of p from bag to p.purse
  else:
    pick q at random from players where q != p:
      add 1 to q.round
  while count(pieces(p.purse)) > 4:
    end game

play:
  repeat rounds times:
    for each p in players chosen by players[0]:
      turn p:
        take(p)

tiebreak p = -p.round
"""


@pytest.fixture(scope="module")
def built() -> dict[str, tuple[meeple.loader.Checked, render.GameDocs]]:
    """Every game's docs, made once for the module (the aid's fitting renders PDF pages)."""
    out = {}
    for path in GAMES:
        checked = meeple.check(path)
        assert checked.ok and checked.module and checked.symbols and checked.program, path
        out[path.stem] = (
            checked,
            render.game_docs(
                path, checked.module, checked.symbols, checked.program.constants, program=checked.program
            ),
        )
    return out


@pytest.fixture(scope="module")
def pages(
    built: dict[str, tuple[meeple.loader.Checked, render.GameDocs]],
) -> dict[str, tuple[str, str, str, int, bytes]]:
    """Per game: the reference as HTML and Markdown, the player aid as HTML, the aid's pages as
    Typst counted them, and the aid's PDF."""
    out = {}
    for stem, (_, game) in built.items():
        _, aid_pdf, count = render.fit(render.aid_candidates(game))
        out[stem] = (
            render.reference_html(game),
            render.reference_markdown(game, f"{stem}-reference-flow.svg"),
            render.aid_html(game),
            count,
            aid_pdf,
        )
    return out


@pytest.fixture(scope="module")
def reference_pdf(
    built: dict[str, tuple[meeple.loader.Checked, render.GameDocs]],
) -> Callable[[str], tuple[bytes, int]]:
    """A game's reference PDF and its pages as Typst counted them: made when a test first asks for
    that game's, once for the module (the default run asks only for the shorter games')."""

    @cache
    def made(stem: str) -> tuple[bytes, int]:
        document = render.reference_typst(built[stem][1])
        return render.typeset.compile_pdf(document.source, document.files)

    return made


def ids(html: str) -> set[str]:
    return set(re.findall(r'\sid="([^"]+)"', html))


STEMS = [p.stem for p in GAMES]


@pytest.mark.parametrize("stem", STEMS)
def test_the_reference_shows_every_phase_step_rule_table_and_example(stem: str, built, pages) -> None:
    checked, _ = built[stem]
    html, md = pages[stem][:2]
    found = ids(html)
    for node in checked.module.walk():
        match node:
            case ast.Named():
                wanted = anchor(node.kind, node.name)
                assert any(re.fullmatch(f"{wanted}(-\\d+)?", i) for i in found), f"no {wanted} in the HTML"
                assert f"{node.kind.capitalize()} {humanise(node.name)}" in md
            case ast.RuleDecl():
                assert anchor("rule", node.name) in found
                title = humanise(node.name)
                assert f"### {md_escape(title[:1].upper() + title[1:])}" in md
            case ast.Table():
                assert anchor("table", node.name) in found
                assert f'<a id="{anchor("table", node.name)}"></a>' in md
            case ast.Example():
                assert anchor("example", node.name) in found
                assert f"### {md_escape(node.name)}" in md
            case ast.TriggerDecl():
                assert anchor("when", node.kind) in found
            case ast.ValueDecl():
                assert anchor("value", node.name) in found


@pytest.mark.parametrize("stem", STEMS)
def test_every_rule_has_words_and_its_citations_name_the_rulebook(stem: str, built, pages) -> None:
    _, game = built[stem]
    html = pages[stem][0]
    for entry in game.reference.rules:
        assert entry.lines or entry.notes.text, f"rule {entry.title} has no words at all"
        article = html.split(f'id="{entry.anchor}"', 1)[1].split("</article>", 1)[0]
        assert ("generated" in article) == entry.generated
        for cite in entry.notes.cites:
            assert cite.replace('"', "&#34;").replace("'", "&#39;") in article
            if game.reference.rulebook:
                assert game.reference.rulebook in article


@pytest.mark.parametrize("stem", STEMS)
def test_the_appendix_lists_every_assumption_conflict_and_aside(stem: str, built, pages) -> None:
    checked, game = built[stem]
    kinds = ("assume", "conflict", "aside")
    declared = {meta_words(m) for m in checked.module.walk() if isinstance(m, ast.Meta) and m.kind in kinds}
    assert declared <= {n.text for n in game.reference.appendix}
    conflicts = [n.text for n in game.reference.appendix if n.kind == "conflict"]
    assert all("the rulebook says \u201c" in text for text in conflicts)  # both passages, quoted


@pytest.mark.parametrize("stem", STEMS)
def test_the_player_aid_fits_on_two_pages_in_type_of_10_pt_or_more(stem: str, pages) -> None:
    count, data = pages[stem][3], pages[stem][4]
    assert pdfs.pages(data) == count  # Typst's count, which chose the layout, is the PDF's
    assert 1 <= count <= render.AID_PAGES
    assert pdfs.min_font_size(data) >= 10


def test_the_player_aid_takes_the_largest_layout_that_fits(built) -> None:
    """A layout with smaller type or more columns is chosen only when the larger ones run over."""
    _, game = built["dino_garden"]
    big = game.aid.__class__(**{**game.aid.__dict__, "actions": game.aid.actions * 2})  # too long for 13 pt
    game = render.GameDocs(game.path, game.reference, game.book, big)
    candidates = render.aid_candidates(game)
    index, data, count = render.fit(candidates)
    assert index > 0 and count == pdfs.pages(data) <= render.AID_PAGES
    for earlier in candidates[:index]:
        assert render.typeset.compile_pdf(earlier.source)[1] > render.AID_PAGES
    assert pdfs.min_font_size(data) >= 10


@pytest.mark.parametrize("stem", STEMS)
def test_an_aid_that_type_a_size_smaller_fits_on_one_page_leaves_nothing_on_the_back(
    stem: str, built
) -> None:
    """Dino Party's and Gods Love Dinosaurs' aids ran two or three lines onto a second page."""
    _, game = built[stem]
    candidates = render.aid_candidates(game)
    index, _, count = render.fit(candidates)
    if count > 1:
        for smaller in candidates[: render.AID_ONE_SIDE]:
            assert render.typeset.compile_pdf(smaller.source)[1] > 1
    else:
        assert index < render.AID_ONE_SIDE


@pytest.mark.parametrize("stem", STEMS)
def test_the_rulebook_pdf_prints_every_part_in_readable_type(stem: str, built) -> None:
    _, game = built[stem]
    document = render.rulebook_typst(game)
    data, count = render.typeset.compile_pdf(document.source, document.files)
    assert pdfs.pages(data) == count
    words = re.sub(r"\s+", " ", pdfs.text(data))
    book = game.book
    for part in book.changes if book.base else [*book.rules, *book.whenever, *book.scoring]:
        assert part.title[:1].upper() + part.title[1:] in words
    sizes = pdfs.font_sizes(data)
    assert min(sizes) >= 8.5  # the widest tables
    assert 11 in sizes  # the body


# Reading a PDF's text and sizes back with pypdf takes seconds for the 60 pages of Dino Garden:
# the shorter games are read whole (they use every template), the others only counted. Typst
# takes 3 to 4 s of CPU to set each longer game's reference (120 pages for Dino Dynasty's), 40 s
# for them all: the others are in the soak, which CI runs; the default run sets the shorter three.
READ_BACK = {"dino_party", "gods_love_dinosaurs", "calm_skies"}


@pytest.mark.parametrize(
    "stem", [stem if stem in READ_BACK else pytest.param(stem, marks=pytest.mark.soak) for stem in STEMS]
)
def test_the_reference_pdf_has_every_rule_and_readable_type(stem: str, built, reference_pdf) -> None:
    _, game = built[stem]
    data, count = reference_pdf(stem)
    assert pdfs.pages(data) == count > 2
    if stem not in READ_BACK:
        return
    words = re.sub(r"\s+", " ", pdfs.text(data))
    for entry in game.reference.rules:
        title = entry.title[:1].upper() + entry.title[1:]
        assert title in words
    sizes = pdfs.font_sizes(data)
    assert min(sizes) >= 8  # tags and page numbers
    assert 10.5 in sizes and 9.5 in sizes  # the body, the tables


@pytest.mark.parametrize("stem", STEMS)
def test_no_flow_diagram_is_taller_than_a_page_and_none_leaves_a_box_out(stem: str, built) -> None:
    _, game = built[stem]
    document = render.reference_typst(game)
    page = render.typeset.PAGE
    shown = ""
    for name, svg in document.files.items():
        tree = ET.fromstring(svg)
        width, height = (float(x) for x in tree.attrib["viewBox"].split()[2:])
        match = re.search(rf'image\("{re.escape(name)}", width: ([\d.]+)pt\)', document.source)
        assert match, name
        shown_width = float(match.group(1))
        assert shown_width <= page.text_width + 0.01
        assert shown_width / width * flow.FONT >= 8  # its words are not too small to read
        assert shown_width * height / width <= page.text_height - render.FLOW_CAPTION + 0.01
        shown += " ".join(t.text or "" for t in tree.iter("{http://www.w3.org/2000/svg}text")) + " "
    shown = re.sub(r"\s+", "", shown)  # lines are wrapped at spaces and hyphens

    def labels(boxes):
        for box in boxes:
            yield box
            yield from labels(box.children)

    for box in labels(game.reference.flow_boxes):
        first_words = "".join(markup_plain(box.label).split()[:3])
        assert first_words in shown, first_words


@pytest.mark.parametrize("stem", STEMS)
def test_html_needs_nothing_from_outside(stem: str, built, pages) -> None:
    for html in pages[stem][0], pages[stem][2], render.rulebook_html(built[stem][1]):
        assert "http" not in html
        assert "<link" not in html and "src=" not in html and "@import" not in html
        assert all(href.startswith("#") for href in re.findall(r'href="([^"]*)"', html))
        assert all(url.startswith("#") for url in re.findall(r"url\(\s*([^)]*)\)", html))
        code = re.sub(r'<div class="highlight">.*?</div>', "", html, flags=re.S)  # rules source: `//` divides
        assert "//" not in code
        assert not any(mark in html for mark in MARKS)


@pytest.mark.parametrize("stem", STEMS)
def test_every_link_of_the_reference_has_its_target(stem: str, pages) -> None:
    html = pages[stem][0]
    anchors = re.findall(r'\sid="([^"]+)"', html)
    assert len(anchors) == len(set(anchors)), "an id is used twice"
    assert set(re.findall(r'href="#([^"]+)"', html)) <= set(anchors)


@pytest.mark.parametrize("stem", STEMS)
def test_the_flow_diagram_is_drawn_from_the_play_block(stem: str, built, pages) -> None:
    checked, game = built[stem]
    svg = render.flow_svg_file(game)
    tree = ET.fromstring(svg)  # well-formed, standalone
    labels = " ".join(t.text or "" for t in tree.iter("{http://www.w3.org/2000/svg}text"))
    for node in checked.symbols.play.walk():
        if isinstance(node, ast.Named):
            assert humanise(node.name) in labels
        if isinstance(node, ast.CallStmt) and node.name in checked.symbols.rules:
            assert f'href="#{anchor("rule", node.name)}"' in svg
    assert '<svg class="flow"' in pages[stem][0]
    assert f"]({stem}-reference-flow.svg)" in pages[stem][1]


def test_examples_read_as_worked_examples(built, pages) -> None:
    _, game = built["dino_party"]
    md = pages["dino_party"][1]
    for example in game.reference.examples:
        for choice in example.choices:
            assert md_escape(choice) in md
    assert "**Afterwards:**" in md and "**Start with:**" in md


def test_a_small_game_uses_the_forms_the_bundled_games_do_not(tmp_path: Path) -> None:
    path = tmp_path / "small.rules"
    path.write_text(SMALL)
    checked = meeple.check(path)
    assert checked.ok, [d.message for d in checked.diagnostics]
    game = render.game_docs(path, checked.module, checked.symbols, checked.program.constants)
    ref, book, card = game.reference, game.book, game.aid
    assert [n.kind for n in ref.appendix] == ["conflict", "aside"]
    assert ref.setup is None and ref.notes.text == ["Take coins; the <richest> wins & smiles."]
    assert book.setup is None and [r.kind for r in book.rulings] == ["conflict"]  # an aside is not a ruling
    assert [p.title for p in book.rules] == ["take"]
    assert "\u201cTake a coin?\u201d" in book.rules[0].steps[0].text
    assert [p.title for p in book.scoring] == ["Ties"]
    assert card.actions[0][0] == "take" and "purse. If the player says no" in card.actions[0][1]
    assert "the \\<richest\\> wins & smiles" in render.rulebook_markdown(game)
    assert "the &lt;richest&gt; wins &amp; smiles" in render.rulebook_html(game)
    html = render.reference_html(game)
    assert "There is no setup" in html and "The rules give no score" in html
    assert "the &lt;richest&gt; wins &amp; smiles" in html and "<richest>" not in html  # author text is text
    assert "the \\<richest\\> wins & smiles" in render.reference_markdown(game, "flow.svg")


def test_index_links_every_game(tmp_path: Path, built) -> None:
    games = [game for _, game in built.values()]
    written = render.write(games, tmp_path, ["md", "html"], render.DOCUMENTS)
    assert tmp_path / "index.md" in written and tmp_path / "index.html" in written
    for index in ("index.md", "index.html"):
        text = (tmp_path / index).read_text()
        for game in games:
            assert game.reference.title.split(":")[0] in text
        for link in re.findall(r'href="([^"#]+)"|\]\(([^)#]+)\)', text):
            assert (tmp_path / (link[0] or link[1])).is_file()


def small_docs(tmp_path: Path, source: str = SMALL) -> render.GameDocs:
    path = tmp_path / "small.rules"
    path.write_text(source)
    checked = meeple.check(path)
    assert checked.ok and checked.module and checked.symbols and checked.program
    return render.game_docs(path, checked.module, checked.symbols, checked.program.constants)


def test_unchanged_pdfs_are_kept_from_the_last_run(tmp_path: Path, monkeypatch) -> None:
    """Laying out pages is the slow part of `meeple docs`: a second run into the same folder lays
    out only what changed, and says which files it kept."""
    laid_out: list[str] = []
    real = render.run_job

    def counting(job: render.Job) -> bytes:
        laid_out.append(job.target)
        return real(job)

    monkeypatch.setattr(render, "run_job", counting)
    out, heard = tmp_path / "out", []

    def make(game: render.GameDocs, **options: bool) -> None:
        laid_out.clear()
        heard.clear()
        render.write(
            [game],
            out,
            ["html", "pdf"],
            ["rulebook", "aid"],
            lambda p, k: heard.append((p.name, k)),
            **options,
        )

    game = small_docs(tmp_path)
    make(game)
    assert sorted(laid_out) == ["small-aid.pdf", "small.pdf"]
    first = (out / "small.pdf").read_bytes()
    make(game)
    assert laid_out == []
    assert ("small.pdf", True) in heard and ("small-aid.pdf", True) in heard
    assert ("small.html", False) in heard  # HTML is quick: written again
    assert (out / "small.pdf").read_bytes() == first
    changed = SMALL.replace("Take coins;", "Take the coins;")
    make(small_docs(tmp_path, changed))
    assert sorted(laid_out) == ["small-aid.pdf", "small.pdf"]  # both print the game's overview
    make(small_docs(tmp_path, changed.replace("shows a cat", "shows a dog")))
    assert laid_out == []  # players read no aside: neither PDF changed
    make(game, reuse=False)
    assert sorted(laid_out) == ["small-aid.pdf", "small.pdf"]
    (out / "small.pdf").unlink()
    make(game)
    assert laid_out == ["small.pdf"]
    (out / render.CACHE_FILE).write_text("{not json")
    make(game)
    assert sorted(laid_out) == ["small-aid.pdf", "small.pdf"]
    record = json.loads((out / render.CACHE_FILE).read_text())
    record["small-aid.pdf"]["key"] = 99
    record["small.pdf"] = "garbage"
    (out / render.CACHE_FILE).write_text(json.dumps(record))
    make(game)
    assert sorted(laid_out) == ["small-aid.pdf", "small.pdf"]


def test_writing_tells_each_stage_and_how_far_it_is(tmp_path: Path, monkeypatch) -> None:
    """What `meeple docs` draws its progress bar from: each stage (the games' text documents,
    then the PDFs' layouts) at its start and after each step of it."""
    monkeypatch.setattr(render, "run_job", lambda job: b"%PDF-")  # the layouts themselves are not the point
    heard: list[tuple[str, int, int]] = []
    game = small_docs(tmp_path)
    render.write([game], tmp_path / "out", ["pdf"], ["rulebook", "aid"], progress=lambda *n: heard.append(n))
    writing, laying = render.WRITING, render.LAYING_OUT
    assert heard == [(writing, 0, 1), (writing, 1, 1), (laying, 0, 2), (laying, 1, 2), (laying, 2, 2)]


def test_layouts_in_worker_processes_make_the_same_files(tmp_path: Path) -> None:
    game = small_docs(tmp_path)
    alone, together = tmp_path / "alone", tmp_path / "together"
    render.write([game], alone, ["html", "pdf"], render.DOCUMENTS, workers=1)
    render.write([game], together, ["html", "pdf"], render.DOCUMENTS, workers=2)
    for name in ("small.pdf", "small-aid.pdf", "small-reference.pdf"):
        assert (alone / name).read_bytes() == (together / name).read_bytes()  # Typst's output is the same


def test_markdown_has_no_leftover_markup(pages) -> None:
    for _, md, *_ in pages.values():
        assert not any(mark in md for mark in MARKS)
        assert "{{" not in md and "{%" not in md and "\n\n\n\n" not in md


def test_the_lexer_is_registered_and_reads_every_game() -> None:
    assert type(get_lexer_by_name("meeple")).__name__ == "MeepleLexer"
    lexer = get_lexer_for_filename("anything.rules")
    for path in GAMES:
        tokens = list(lexer.get_tokens(path.read_text()))
        assert not [t for t in tokens if t[0] is Error], path
    kinds = {value: kind for kind, value in lexer.get_tokens(SMALL)}
    assert kinds["rule"] is Keyword.Declaration and kinds["cites"] is Keyword.Pseudo
    assert kinds["may"] is Keyword and kinds["count"] is Name.Builtin


# ---------------------------------------------------------------------- the command


def run(*args: str) -> tuple[int, str, str]:
    app = typer.Typer()
    app.command("docs")(docs)
    app.callback()(lambda: None)  # keep `docs` a sub-command, as in the real CLI
    result = CliRunner().invoke(app, ["docs", *args], catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def test_docs_writes_every_format_of_the_rulebook_the_aid_and_the_reference(tmp_path: Path) -> None:
    (tmp_path / "small.rules").write_text(SMALL)
    code, out, err = run(
        str(tmp_path / "small.rules"),
        "--format",
        "all",
        "--summary",
        "--reference",
        "--list",
        "-o",
        str(tmp_path / "out"),
    )
    assert code == 0, err
    names = sorted(Path(line).name for line in out.split())
    assert names == sorted(
        [
            "small.md",
            "small.html",
            "small.pdf",
            "small-aid.md",
            "small-aid.html",
            "small-aid.pdf",
            "small-reference-flow.svg",
            "small-reference.md",
            "small-reference.html",
            "small-reference.pdf",
        ]
    )
    assert (tmp_path / "out" / "small.pdf").read_bytes().startswith(b"%PDF")
    assert pdfs.pages((tmp_path / "out" / "small-aid.pdf").read_bytes()) <= 2


def test_docs_again_keeps_unchanged_pdfs_unless_forced(tmp_path: Path) -> None:
    (tmp_path / "small.rules").write_text(SMALL)
    args = [str(tmp_path / "small.rules"), "--format", "pdf", "-o", str(tmp_path / "out"), "--jobs", "1"]
    code, out, _ = run(*args)
    assert code == 0 and out.startswith(f"wrote 1 file into {tmp_path / 'out'}: 1 PDF\n")
    code, out, _ = run(*args)
    assert code == 0 and "(1 unchanged since the last run, kept)" in out
    code, out, _ = run(*args, "--force", "--list")
    assert code == 0 and out.strip() == str(tmp_path / "out" / "small.pdf")  # every file, no summary
    assert run(*args[:-1], "0")[0] == 2  # --jobs 0


def test_docs_on_a_broken_file_prints_its_errors_and_fails(tmp_path: Path) -> None:
    broken = tmp_path / "broken.rules"
    broken.write_text('game "Broken":\n  players 1..2\nplay:\n  move 1 nothing from a to b\n')
    code, out, err = run(str(broken), "-o", str(tmp_path / "out"), "--format", "html")
    assert code == 1
    assert "broken.rules:4:3: error" in err and "no docs written" in err
    assert "Traceback" not in err + out
    assert not (tmp_path / "out").exists()


def test_docs_on_a_syntax_error_fails_without_a_traceback(tmp_path: Path) -> None:
    broken = tmp_path / "broken.rules"
    broken.write_text('game "Broken":\n  players 1..2\nplay:\n  log "x" +\n')
    code, _, err = run(str(broken), "-o", str(tmp_path / "out"))
    assert code == 1 and "broken.rules:4" in err and "Traceback" not in err


def test_docs_still_writes_the_good_files_and_exits_with_the_worst_code(tmp_path: Path) -> None:
    code, _, err = run("dino_party", "no_such_game", "-o", str(tmp_path), "--format", "md")
    assert code == 2 and "no rules file 'no_such_game'" in err
    assert (tmp_path / "dino_party.md").is_file()


def test_docs_usage_errors(tmp_path: Path) -> None:
    assert run("dino_party", "-o", str(tmp_path), "--format", "docx")[0] == 2
    assert run("dino_party")[0] == 2  # no -o
    assert not list(tmp_path.iterdir())


def test_docs_cannot_write_into_a_file(tmp_path: Path) -> None:
    blocker = tmp_path / "taken"
    blocker.write_text("")
    code, _, err = run("dino_party", "-o", str(blocker), "--format", "md")
    assert code == 1 and "cannot write the docs" in err


def test_anchor_slugs_are_safe() -> None:
    assert slug("Air pollution: one card!") == "air-pollution-one-card"
    assert anchor("rule", "come_to_rest") == "rule-come-to-rest"


def test_the_player_aid_says_when_the_game_ends_early_in_the_authors_words(tmp_path: Path) -> None:
    """The sentences that speak of an end, in the words of a rule that ends the game: a player
    must know it without reading the rulebook."""
    source = SMALL.replace(
        "rule take(p: player):\n",
        'rule take(p: player):\n  says "Take a coin. Once a purse holds 5 coins, the game ends at once."\n',
    )
    game = small_docs(tmp_path, source)
    assert render.aid_markdown(game).count("Once a purse holds 5 coins, the game ends at once.") == 1
    assert game.aid.ends == []  # the rule's own line on the aid tells it: not told twice


def test_an_aid_label_that_ends_in_its_own_mark_takes_no_colon_after_it(tmp_path: Path) -> None:
    """Generated English reads as English (issue 25): a rule called "Take a coin!" was printed
    "Take a coin!:" on the aid; a name without a mark of its own still takes its colon."""
    source = SMALL.replace(
        "rule take(p: player):\n",
        'rule take(p: player):\n  called "Take a coin!"\n  says "Take a coin from the pile."\n',
    )
    game = small_docs(tmp_path, source)
    aid = render.aid_markdown(game)
    assert "**Take a coin!** Take a coin from the pile." in aid and "!**:" not in aid
    assert "#strong[Take a coin\\!] Take" in render.aid_typst(game).source
    assert render.colon_after("Spread") == ":" and render.colon_after("Why?") == ""
