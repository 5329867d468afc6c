"""A printed worked example draws the position it builds: `shows` names grid maps and places, and
the rulebook draws each before the example's moves and after them (codegen/pictures.py), from the
example as the engine plays it. On a game of neutral names: hexes of sand and water, pebbles."""

from __future__ import annotations

import itertools
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pdfs
import pytest
from helpers import only

import meeple
from meeple.codegen import pictures, render, typeset
from meeple.loader import bundled_dir

GAME = """\
game "Pebbles":
  players 2..2

table ground (name, called, colour: text):
  sand, "sand", "#e8d9a8"
  water, "water", "{water}"

table tile (name):
  t1
table tile_hex (tile: tile, q: int, r: int, ground: ground, spring: bool):
  t1, 0, 0, sand, no
  t1, 1, 0, water, yes

zone bag
zone tray per player
  called "tray"
piece pebble: 5 in bag
  called "{pebble}", "pebbles"
map board per player:
  called "board"
  grid hex of tile_hex

value shape(t: tile) = [each h in tile_hex where h.tile == t]

rule grow(p: player):
  move 2 pebble from bag to p.tray

play:
  for each p in players:
    turn p:
      grow(p)

example "Two pebbles come to the tray":
  says "The first player grows: two pebbles come to their tray; the one on the water stays."
  given:
    let m = players[0].board
    place shape(tile.t1) on m
    move 1 pebble from bag to cell(m, 1, 0)
  do:
    grow(players[0])
  shows: {shows}
  expect:
    count(pieces(players[0].tray)) == {expected}
"""


def docs(tmp_path: Path, **changes: str) -> render.GameDocs:
    values = {"water": "#9cc7e6", "pebble": "pebble", "shows": "m, players[0].tray", "expected": "2"}
    return written_docs(tmp_path / "pebbles.rules", GAME.format(**{**values, **changes}))


def written_docs(path: Path, source: str) -> render.GameDocs:
    """The documents of `source`, written to `path` (it must check clean)."""
    path.write_text(source)
    return checked_docs(path)


def checked_docs(path: Path) -> render.GameDocs:
    """The documents of the rules file at `path`, which must check clean."""
    checked = meeple.check(path)
    assert checked.ok, [d.message for d in checked.diagnostics]
    assert checked.module and checked.symbols and checked.program
    return render.game_docs(
        path, checked.module, checked.symbols, checked.program.constants, program=checked.program
    )


def texts(svg: str) -> list[str]:
    return [t.text or "" for t in ET.fromstring(svg).iter("{http://www.w3.org/2000/svg}text")]


def test_an_example_draws_its_map_and_its_place_before_and_after_its_moves(tmp_path: Path) -> None:
    (example,) = docs(tmp_path).book.examples
    board, tray = example.pictures
    assert (board.title, tray.title) == ("Player 1's board", "Player 1's tray")
    assert texts(tray.before) == ["empty"] and texts(tray.after) == ["2 pebbles"]
    for svg in (board.before, board.after):
        tree = ET.fromstring(svg)
        hexes = [p.attrib["fill"] for p in tree.iter("{http://www.w3.org/2000/svg}polygon")]
        assert hexes == ["#e8d9a8", "#9cc7e6"]  # each ground's own colour
        assert "pebble" in texts(svg) and "spring" in texts(svg)  # the piece, the row's yes column
    assert {"sand", "water"} <= set(texts(board.key)) and tray.key == ""  # the key, once for both


def test_a_maps_key_tells_its_colours_and_its_bold_and_italics_on_one_row_where_they_fit(
    tmp_path: Path,
) -> None:
    """A page holds what it can (issue 25: no half-empty page before an example picture): a key of
    a few kinds of cell and its words on bold and italics fit one row, each entry as wide as its
    name, where a grid of wide entries put those words on a line of their own (Gods Love
    Dinosaurs' first example, with a key of four colours on two lines, missed the room under the
    rules by less than that line). A key is never wider than a picture may print."""
    (example,) = docs(tmp_path).book.examples
    board, _ = example.pictures
    tree = ET.fromstring(board.key)
    rows = {t.attrib["y"] for t in tree.iter("{http://www.w3.org/2000/svg}text")}
    assert len(rows) == 1 and "italics" in "".join(tree.itertext())  # the colours and the words
    assert float(tree.attrib["width"]) * pictures.SCALE <= pictures.FULL_PAGE


def test_a_place_the_moves_do_not_change_is_drawn_once_not_twice_the_same(tmp_path: Path) -> None:
    """Two same pictures under "Before" and "After" had a reader compare them for what moved
    (issue 25: an example that only checks a count drew its place twice alike). The board the
    pebbles do not touch is drawn once, with its key; the tray they come to, before and after."""
    game = docs(tmp_path)
    board, tray = game.book.examples[0].pictures
    assert board.unchanged and not tray.unchanged
    source = render.rulebook_typst(game).source
    assert source.count('"example-1-1-before.svg"') == 1 and '"example-1-1-after.svg"' not in source
    assert '"example-1-1-key.svg"' in source and '"example-1-2-after.svg"' in source
    html = render.rulebook_html(game)
    assert html.count('class="when">Before<') == 1 and html.count('class="when">After<') == 1
    markdown = render.rulebook_markdown(game)
    assert "example-1-1-after.svg" not in markdown and "example-1-2-after.svg" in markdown


def test_a_colour_that_is_not_one_is_replaced_by_the_palette(tmp_path: Path) -> None:
    (example,) = docs(tmp_path, water='#fff\\" onload=\\"alert(1)').book.examples
    svg = example.pictures[0].before
    assert "onload" not in svg
    hexes = [p.attrib["fill"] for p in ET.fromstring(svg).iter("{http://www.w3.org/2000/svg}polygon")]
    assert hexes == ["#e8d9a8", pictures.PALETTE[1]]  # water is the ground table's second row


def test_names_in_a_picture_are_text_not_markup(tmp_path: Path) -> None:
    (example,) = docs(tmp_path, pebble="<b>pebble</b> & co").book.examples
    svg = example.pictures[0].after  # one pebble on the water: named in the singular
    ET.fromstring(svg)  # still well-formed
    assert "<b>" not in svg and "&lt;b&gt;" in svg


def test_the_pdf_prints_the_pictures_and_the_html_inlines_them(tmp_path: Path) -> None:
    game = docs(tmp_path)
    document = render.rulebook_typst(game)
    assert sorted(document.files) == [
        f"example-1-{n}-{when}.svg" for n, when in [(1, "before"), (1, "key"), (2, "after"), (2, "before")]
    ]  # the board the moves do not change is drawn once
    data, _ = typeset.compile_pdf(document.source, document.files)
    words = pdfs.text(data)
    assert words.count("Before") == 1 and "2 pebbles" in words
    assert min(pdfs.font_sizes(data)) >= 7.5
    html = render.rulebook_html(game)
    assert html.count("<svg") == 4 and 'src="' not in html


def test_an_example_that_fails_is_told_but_not_drawn(tmp_path: Path) -> None:
    (example,) = docs(tmp_path, expected="3").book.examples
    assert example.words and example.pictures == []


def test_shows_names_a_map_or_a_place(tmp_path: Path) -> None:
    path = tmp_path / "bad.rules"
    path.write_text(GAME.format(water="#9cc7e6", pebble="pebble", shows="m, 3", expected="2"))
    diag = only(meeple.check(path), "M027")
    assert "a grid map or a place, not a number" in diag.message


@pytest.mark.parametrize("where", ["before", "after"])
def test_the_markdown_rulebook_links_the_pictures_written_beside_it(tmp_path: Path, where: str) -> None:
    out = tmp_path / "out"
    render.write([docs(tmp_path)], out, ["md"])
    text = (out / "pebbles.md").read_text()
    name = f"pebbles-example-1-2-{where}.svg"  # the tray, which the moves change
    assert f"]({name})" in text and (out / name).is_file()


def test_a_square_grid_is_drawn_as_squares_with_each_tile_outlined() -> None:
    path = Path(__file__).parent / "grids" / "quads.rules"
    game = checked_docs(path)
    (land,) = next(e for e in game.book.examples if e.pictures).pictures
    tree = ET.fromstring(land.after)
    cells = [p.attrib["points"].split() for p in tree.iter("{http://www.w3.org/2000/svg}polygon")]
    assert len(cells) == 8 and all(len(corners) == 4 for corners in cells)  # two tiles of four quarters
    tiles = [r for r in tree.iter("{http://www.w3.org/2000/svg}rect") if r.attrib.get("stroke-width") == "3"]
    assert len(tiles) == 2
    words = texts(land.after)
    assert "Player 2" in words and "follower" in words  # a piece over its owner, on two lines of a square
    assert "town" in texts(land.key)


SVG = "{http://www.w3.org/2000/svg}"


def test_words_on_a_cell_stand_on_a_pale_label_not_in_outlined_letters(tmp_path: Path) -> None:
    """Labels legible at print size (issue 25, section 1): no white outline around the letters,
    which printed as white outlined text on a dark ground; a pale label under the words instead."""
    (board, _) = next(e for e in docs(tmp_path).book.examples if e.pictures).pictures
    tree = ET.fromstring(board.before)
    assert not [t for t in tree.iter(f"{SVG}text") if "stroke" in t.attrib]
    labels = [r for r in tree.iter(f"{SVG}rect") if r.attrib.get("fill") == "#ffffff"]
    assert len(labels) == 2  # the pebble on the water, and the spring printed there
    assert len([r for r in labels if "stroke" in r.attrib]) == 1  # the piece's label framed, the mark's not


def test_each_kind_of_piece_on_a_cell_has_a_framed_label_of_its_own(tmp_path: Path) -> None:
    """Pieces labelled apart: two kinds of piece on one cell (a follower of Player 2, a town) are
    two framed labels, one above the other, not one run of words."""
    path = Path(__file__).parent / "grids" / "quads.rules"
    game = checked_docs(path)
    (land,) = next(e for e in game.book.examples if e.pictures).pictures
    tree = ET.fromstring(land.after)
    labels = [r for r in tree.iter(f"{SVG}rect") if r.attrib.get("fill") == "#ffffff"]
    framed = [r for r in labels if "stroke" in r.attrib]
    by_cell: dict[float, list[float]] = {}
    for r in framed:
        centre = float(r.attrib["x"]) + float(r.attrib["width"]) / 2
        by_cell.setdefault(centre, []).append(float(r.attrib["y"]))
    shared = [tops for tops in by_cell.values() if len(tops) > 1]
    assert shared  # a cell with two kinds of piece
    for tops in shared:  # each below the last, none drawn over another
        tops.sort()
        assert all(b - a >= pictures.FONT for a, b in itertools.pairwise(tops))


def _tall_map() -> str:
    """The game, its example showing a board of 30 tiles in a column: a picture as tall as any."""
    many = "\n".join(f"  t{i}" for i in range(2, 30))
    rows = "\n".join(f"  t{i}, 0, {i}, sand, no" for i in range(2, 30))
    source = GAME.format(water="#9cc7e6", pebble="pebble", shows="m", expected="2")
    source = source.replace("  t1\n", "  t1\n" + many + "\n", 1).replace(
        "  t1, 1, 0, water, yes\n", "  t1, 1, 0, water, yes\n" + rows + "\n", 1
    )
    return source.replace(
        "    place shape(tile.t1) on m\n",
        "    place shape(tile.t1) on m\n"
        + "".join(f"    place shape(tile.t{i}) on m\n" for i in range(2, 30)),
    )


def test_a_picture_is_printed_no_taller_than_half_what_a_page_holds(tmp_path: Path) -> None:
    """Before and after, the example's title and its words fit one page: each picture is printed at
    most TALLEST points tall, however large the map (a wide map is also at most a page wide)."""
    path = tmp_path / "tall.rules"
    path.write_text(_tall_map())
    game = checked_docs(path)
    (board,) = next(e for e in game.book.examples if e.pictures).pictures
    svg = ET.fromstring(board.before)
    tall = float(svg.attrib["height"]) * board.width / float(svg.attrib["width"])
    assert tall <= pictures.TALLEST + 0.5 and board.width <= pictures.FULL_PAGE


def test_an_example_is_printed_whole_on_one_page_unless_it_is_taller_than_a_page() -> None:
    """A worked example, its heading and its pictures stay on one page (issue 25, section 1): Gods
    Love Dinosaurs' examples draw an ecosystem and a nest each; the nest's picture went to the next
    page, away from its words, and later its first example began in the room under the rules and
    went on on the next page under its title and "(continued)", a reader turning the page between
    its words and what they show. Every example shorter than a page is printed whole, its title,
    words and pictures on one page, and no page opens with "(continued)"."""
    checked = meeple.check("gods_love_dinosaurs")
    assert checked.ok and checked.module and checked.symbols and checked.program
    game = render.game_docs(
        checked.path, checked.module, checked.symbols, checked.program.constants, program=checked.program
    )
    drawn = [e for e in game.book.examples if len(e.pictures) > 1]
    assert len(drawn) >= 3
    pages = [p.extract_text() for p in pdfs.reader(render.pdf(render.rulebook_typst(game))).pages]
    squeezed = ["".join(p.split()) for p in pages]
    for e in drawn:
        title = "".join(e.title.split())
        (page,) = [i for i, p in enumerate(squeezed) if title[:40] in p]
        assert all("".join(p.title.split()) in squeezed[page] for p in e.pictures), e.title
    assert not [i for i, p in enumerate(squeezed) if "(continued)" in p.replace("Rulings(continued)", "")]


def test_an_example_taller_than_a_page_is_split_between_its_pictures_each_part_with_its_title(
    tmp_path: Path,
) -> None:
    """An example taller than a page is split (issue 25: "a worked example, its heading and
    its picture stay on one page" where it can), between its pictures, and each part after the first opens
    with the example's title and "(continued)": a picture never stands at the top of a page
    without the title of the example it belongs to."""
    words = " ".join(
        f"The example says its sentence number {i}, about pebbles in the bag." for i in range(40)
    )
    source = (
        _tall_map()
        .replace("  shows: m\n", "  shows: m, players[0].tray, players[1].tray\n")
        .replace(
            "    grow(players[0])\n", "    grow(players[0])\n    move 1 pebble from bag to cell(m, 0, 0)\n"
        )
        .replace('the one on the water stays."', f'the one on the water stays. {words}"')
    )
    path = tmp_path / "tall.rules"
    path.write_text(source)
    game, pages = _book_pages(path)
    (example,) = game.book.examples
    assert len(example.pictures) == 2  # a board as tall as a picture may be, words half a page long
    first = next(i for i, p in enumerate(pages) if "Twopebblescometothetray" in p)
    parts = [i for i, p in enumerate(pages) if "Twopebblescometothetray(continued)" in p]
    assert parts and parts == list(range(first + 1, first + 1 + len(parts)))
    for i in parts:  # each part opens its page with the title
        assert pages[i].startswith("PebblesRulesTwopebblescometothetray(continued)"), pages[i][:80]
    assert "Player2'stray" in pages[parts[-1]]
    assert pages[first].startswith("PebblesRulesExamplesTwopebbles")  # the heading with the first part


def _in_words(name: str, sentences: int) -> str:
    words = " ".join(
        f"The {name} example says its sentence number {i}, about pebbles in the bag."
        for i in range(sentences)
    )
    return (
        f'example "{name}":\n  says "{words}"\n  do:\n    grow(players[0])\n'
        "  expect:\n    count(pieces(players[0].tray)) == 2\n"
    )


def _examples(drawn: str, before: int, names: list[str]) -> str:
    """`before` short examples in words, then the drawn example once under each of `names`
    (the first is the name `drawn` is written with)."""
    return "".join(_in_words(f"Short{k}", 3) for k in range(before)) + "".join(
        drawn.replace(names[0], name) for name in names
    )


def _tall_example() -> tuple[str, str]:
    """The tall map's game split before its drawn example, and the example with twelve sentences
    more: more than half a page tall, so that two such never share a page."""
    source = _tall_map()
    words = " ".join(f"The example says its sentence {i}, about pebbles in the bag." for i in range(12))
    at = source.index('example "Two pebbles')
    return source[:at], source[at:].replace(
        'the one on the water stays."', f'the one on the water stays. {words}"'
    )


def _book_pages(path: Path) -> tuple[render.GameDocs, list[str]]:
    game = checked_docs(path)
    pdf = pdfs.reader(render.pdf(render.rulebook_typst(game)))
    return game, ["".join(p.extract_text().split()) for p in pdf.pages]


def _laid_out(path: Path) -> tuple[bytes, list[str]]:
    """A rules file's rulebook PDF, and what Typst warned of while laying it out."""
    game = checked_docs(path)
    return pdfs.laid_out(render.rulebook_typst(game))


def test_examples_print_in_the_order_of_the_file_and_one_that_does_not_fit_starts_the_next_page(
    tmp_path: Path,
) -> None:
    """A worked example, its heading and its pictures stay on one page, and the examples read in
    the order the file gives them (issue 25): a drawn example kept whole that does not fit in
    what is left of a page goes to the top of the next one, and the examples in words after it
    follow it there; none is floated above it (Dino Dynasty's Desert example printed before
    Evolve, which comes first). An example that fits where it stands stays there."""
    source = GAME.format(water="#9cc7e6", pebble="pebble", shows="m", expected="2")
    drawn = source[source.index('example "Two pebbles') :]
    head = source[: source.index('example "Two pebbles')]
    path = tmp_path / "pages.rules"
    path.write_text(head + _in_words("Long", 22) + drawn + _in_words("After", 6) + _in_words("Last", 6))
    game, pages = _book_pages(path)
    assert [len(e.pictures) for e in game.book.examples] == [0, 1, 0, 0]

    def page_of(text: str) -> int:
        (found,) = [i for i, p in enumerate(pages) if "".join(text.split()) in p]
        return found

    first = page_of("Two pebbles come to the tray")
    assert first == page_of("Player 1's board")  # whole, on one page
    assert page_of("The Long example says its sentence number 21") == first - 1
    assert page_of("The After example says its sentence number 0") == first  # after it, not above
    squeezed = "".join(pages)
    order = ["TheLongexamplesaysitssentencenumber21", "Twopebblescometothetray", "TheAfterexample", "TheLast"]
    assert sorted(order, key=squeezed.index) == order

    near = tmp_path / "near.rules"
    near.write_text(head + _in_words("Long", 6) + drawn + _in_words("After", 6))
    _, pages = _book_pages(near)
    squeezed = "".join(pages)
    order = ["TheLongexamplesaysitssentencenumber5", "Twopebblescometothetray", "TheAfterexample"]
    assert sorted(order, key=squeezed.index) == order  # in its place, not above the words before it


def _ruled(source: str, rulings: list[str]) -> str:
    """A game with these assumptions: its rulings, printed after the examples."""
    said = "".join(f'  assume "{r}"\n' for r in rulings)
    return source.replace("  players 2..2\n", f"  players 2..2\n{said}", 1)


@pytest.mark.parametrize("long", [False, True])
def test_the_rulings_fill_the_room_an_example_leaves_and_never_run_between_two_examples(
    tmp_path: Path, long: bool
) -> None:
    """No half-empty page before an example picture, and the examples read together (issue 25,
    section 1): Gods Love Dinosaurs' page 5 ended 40% empty before the Clare hatching example,
    which did not fit there; floated to the next page as a figure is, with the rulings filling in
    under it, it put a ruling's bullet between two examples on pages 6 and 7. An example that does
    not fit where more than a sixth of the page is left goes whole to the next page, and the
    rulings begin in the room it leaves, a long one going on on the next page; the examples follow
    one another from there, in the order of the file, each later part of the rulings between them
    and the rulings left over after the last of them under "Rulings (continued)". The examples
    before it end at a different place of the page each time; the rulings are many short ones, or
    one too long for the room."""
    source = _tall_map()
    head, drawn = (
        source[: source.index('example "Two pebbles')],
        source[source.index('example "Two pebbles') :],
    )
    if long:
        rulings = [" ".join(f"The pebbles rest in the bag, says ruling sentence {i}." for i in range(40))]
    else:
        rulings = [f"The pebbles rest in the bag between turns, says ruling number {i}." for i in range(30)]
    head = _ruled(head, rulings)
    filled = 0
    for before in range(5, 12, 2):
        path = tmp_path / f"fill{before}.rules"
        path.write_text(
            head
            + "".join(_in_words(f"Short{k}", 3) for k in range(before))
            + drawn
            + drawn.replace("Two pebbles come to the tray", "Again two pebbles come")
            + _in_words("After", 3)
        )
        data, warnings = _laid_out(path)
        assert not warnings  # Typst's layouts settle
        pages = ["".join(p.extract_text().split()) for p in pdfs.reader(data).pages]
        lowest = pdfs.lowest_ink(data)
        (page,) = [i for i, p in enumerate(pages) if "Twopebblescometothetray" in p]
        assert "Player1'sboard" in pages[page]  # whole
        low = lowest[page - 1]  # A4, 20 mm margins: the page before is at most a sixth empty
        assert low is not None and (low - 20 * typeset.MM) / ((297 - 40) * typeset.MM) <= 1 / 6, before
        squeezed = "".join(pages)
        order = [
            f"TheShort{before - 1}example",
            "Twopebblescometothetray",
            "Againtwopebbles",
            "TheAfterexample",
        ]
        assert sorted(order, key=squeezed.index) == order, before
        titles = [f"TheShort{k}example" for k in range(before)] + order[1:]
        starts = [squeezed.index(t) for t in titles] + [len(squeezed)]
        ruled = [
            k
            for k in range(len(titles))
            if "ruling" in squeezed[starts[k] : starts[k + 1]].replace("Rulings", "")
        ]
        # every part of the rulings after the first opens with its heading: no bare bullet between
        # two examples
        for k in ruled[1:]:
            part = squeezed[starts[k] : starts[k + 1]]
            assert part.index("Rulings(continued)") < part.replace("Rulings", "").index("ruling"), k
        filled += ruled[0] < len(titles) - 1
        # the rulings left over go on after the last example under their heading
        assert ("Rulings(continued)" in squeezed[squeezed.index("TheAfterexample") :]) == (
            len(ruled) >= 2 and ruled[-1] == len(titles) - 1
        )
    assert filled >= 1  # the rulings filled the page an example left


def test_the_rulings_fill_every_room_an_example_leaves_each_part_under_its_heading(tmp_path: Path) -> None:
    """No page before an example half empty while rulings are left (issue 25): Gods Love
    Dinosaurs' rulings filled the room the Clare example left on page 4 and, filled once only,
    left page 5 half empty before "A dinosaur that eats an eagle". The rulings fill every such
    room, each part after the first under "Rulings (continued)", and the examples keep their
    order, each whole. Three drawn examples follow the words, each too tall to share a page with
    the one before (their words make them more than half a page tall); the rulings are many short
    ones."""
    head, drawn = _tall_example()
    rulings = [f"The pebbles rest in the bag between turns, says ruling number {i}." for i in range(60)]
    head = _ruled(head, rulings)
    names = ["Two pebbles come to the tray", "Again two pebbles come", "Once more two pebbles come"]
    most = 0
    for before in (5, 8):
        path = tmp_path / f"every{before}.rules"
        path.write_text(head + _examples(drawn, before, names) + _in_words("After", 3))
        data, warnings = _laid_out(path)
        assert not warnings  # Typst's layouts settle
        pages = ["".join(p.extract_text().split()) for p in pdfs.reader(data).pages]
        lowest = pdfs.lowest_ink(data)
        squeezed = "".join(pages)
        keys = ["".join(n.split()) for n in names]
        assert sorted(keys, key=squeezed.index) == keys, before  # in the order of the file
        starts = [squeezed.index(k) for k in keys] + [squeezed.index("TheAfterexample")]
        seen = "ruling" in squeezed[: starts[0]].replace("Rulings", "")  # a part before the first
        gaps = int(seen)
        for i, key in enumerate(keys):
            (page,) = [j for j, p in enumerate(pages) if key in p]
            assert "Player1'sboard" in pages[page], key  # whole
            low = lowest[page - 1]
            if i > 0 and page > 0 and "ruling" in squeezed[starts[i] :].replace("Rulings", ""):
                # while rulings are left, the page before an example is at most a sixth empty
                empty = None if low is None else (low - 20 * typeset.MM) / ((297 - 40) * typeset.MM)
                assert empty is not None and empty <= 1 / 6, (before, key)
            part = squeezed[starts[i] : starts[i + 1]].replace("Rulings(continued)", "HEAD")
            if "ruling" in part.replace("Rulings", ""):
                gaps += 1
                # a part of the rulings between two examples opens with its heading, "Rulings
                # (continued)" after the first part
                heading = "HEAD" if seen else "Rulings"
                assert part.index(heading) < part.index("rulingnumber"), (before, key)
                seen = True
        most = max(most, gaps)
    assert most >= 2  # the rulings filled more than one room


def test_a_page_an_example_leaves_empty_is_filled_by_the_glossary_and_the_reference_once_no_ruling_is_left(
    tmp_path: Path,
) -> None:
    """No half-empty page before an example picture, however the words before it grow (issue 25):
    Gods Love Dinosaurs' page 4 was exactly full, and a few words more sent an example to page 5
    with its rulings used up, leaving page 4 (then 6) half empty. The parts after the rulings fill
    such a room too, in their order: the glossary, then the reference (its numbers, its tables),
    each part after the first under its heading and "(continued)", the examples whole and in the
    order of the file. A game with no rulings, a glossary and a table; three drawn examples, each
    too tall to share a page with the one before."""
    head, drawn = _tall_example()
    terms = "".join(
        f"value heavy{i}(p: player) = count(pieces(p.tray)) > {i}\n"
        f'  called "heavy tray {i}"\n'
        f'  says "A tray holding more than {i} pebbles, says entry {i} of the glossary."\n'
        for i in range(40)
    )
    shelf = 'table shelf (name, called, depth: int "Depth"):\n  says "The shelves, by depth."\n'
    shelf += "".join(f'  s{i}, "shelf {i}", {i}\n' for i in range(30))
    head = head.replace("zone bag\n", f"{shelf}\nzone bag\n", 1) + terms + "\n"
    names = ["Two pebbles come to the tray", "Again two pebbles come", "Once more two pebbles come"]
    path = tmp_path / "glossed.rules"
    path.write_text(head + _examples(drawn, 6, names))
    game = checked_docs(path)
    assert not game.book.rulings and len(game.book.terms) == 40 and game.book.sheets
    data, warnings = pdfs.laid_out(render.rulebook_typst(game))
    assert not warnings  # Typst's layouts settle
    pages = ["".join(p.extract_text().split()) for p in pdfs.reader(data).pages]
    lowest = pdfs.lowest_ink(data)
    squeezed = "".join(pages)
    keys = ["".join(n.split()) for n in names]
    assert sorted(keys, key=squeezed.index) == keys  # in the order of the file
    starts = [squeezed.index(k) for k in keys] + [len(squeezed)]
    filled = 0
    for i, key in enumerate(keys):
        (page,) = [j for j, p in enumerate(pages) if key in p]
        assert "Player1'sboard" in pages[page], key  # whole
        if i > 0 and "entry39" in squeezed[starts[i] :]:
            # while the glossary is left, the page before an example is at most a sixth empty
            low = lowest[page - 1]
            assert low is not None and (low - 20 * typeset.MM) / ((297 - 40) * typeset.MM) <= 1 / 6, key
        part = squeezed[starts[i] : starts[i + 1]]
        if "oftheglossary" in part and i < len(keys) - 1:
            filled += 1
        if "oftheglossary" in part and "entry0of" not in part:
            # a part of the glossary after the first opens with its heading
            assert part.index("Glossary(continued)") < part.index("oftheglossary"), key
    assert filled >= 1  # the glossary filled a room between two examples
    # the reference follows the whole glossary, and its table follows its heading
    assert squeezed.index("entry39of") < squeezed.index("Reference") < squeezed.index("shelf29")


def _emptiest_before_an_example(data: bytes, titles: list[str]) -> float:
    """The largest share of a page's text left empty under its last line on a page that the next
    opens with one of these examples."""
    pages = ["".join(p.extract_text().split()) for p in pdfs.reader(data).pages]
    lowest = pdfs.lowest_ink(data)
    shares = [0.0]
    for title in titles:
        (page,) = [i for i, p in enumerate(pages) if "".join(title.split()) in p]
        if page > 0 and (low := lowest[page - 1]) is not None:
            shares.append((low - 20 * typeset.MM) / ((297 - 40) * typeset.MM))
    return max(shares)


def test_a_book_left_with_a_half_empty_page_before_an_example_is_set_a_step_smaller_where_that_fills_it(
    tmp_path: Path,
) -> None:
    """No half-empty page before an example picture, once nothing is left to fill it (issue 25): a
    few words more in Gods Love Dinosaurs' second example (tried on a copy) left its page 7 half
    empty before the fourth, the rulings, glossary and numbers used up in the rooms before. Such a
    book is set a step smaller (10.5 pt, not 11) where that leaves no page before an example more
    than a third empty. Two drawn examples, each a little under half a page at 10.5 pt and over it
    at 11 pt, after eight examples in words; no rulings, no glossary."""
    head, drawn = _tall_example()
    names = ["Two pebbles come to the tray", "Again two pebbles come"]
    path = tmp_path / "gapped.rules"
    path.write_text(head + _examples(drawn, 8, names))
    game = checked_docs(path)
    at_size = render.pdf(render.rulebook_typst(game))
    assert _emptiest_before_an_example(at_size, names) > 1 / 3  # at 11 pt: half empty
    (written,) = render.write([game], tmp_path / "out", ["pdf"])
    printed = written.read_bytes()
    assert _emptiest_before_an_example(printed, names) <= 1 / 3
    sizes = pdfs.font_sizes(printed)
    assert 10.5 in sizes and 11 not in sizes  # the body a step smaller


def test_an_example_in_words_keeps_its_title_with_its_words(tmp_path: Path) -> None:
    """No heading ends a page (issue 25): an example in words shorter than a page is printed whole,
    so its title is never the last line of a page with its words on the next (Dino Dynasty's
    "The game goes on while every pile shows an Event tile" ended page 6)."""
    source = GAME.format(water="#9cc7e6", pebble="pebble", shows="m", expected="2")
    head = source[: source.index('example "Two pebbles')]
    title = (
        "Next: a title long enough to take two lines, as the titles of worked examples often do"
        " when they say what happens"
    )
    shorts = "".join(_in_words(f"Short{k}", 3) for k in range(12))
    for before in range(1, 5):  # the next example's title falls near the foot of the page
        path = tmp_path / f"titles{before}.rules"
        path.write_text(head + shorts + _in_words("Long", before) + _in_words(title, 3))
        _, pages = _book_pages(path)
        page = next(i for i, p in enumerate(pages) if "Next:atitle" in p)  # the title; its words name it too
        assert "happensexamplesaysitssentencenumber2" in pages[page]


def test_places_shown_one_after_another_are_drawn_side_by_side_as_they_lie_on_the_table(
    tmp_path: Path,
) -> None:
    """Boxes drawn as the board looks (issue 25, section 1): places that are no map, shown one
    after another, are one picture of boxes side by side, each under its name, not a list of
    boxes one under another; a map stays a picture of its own."""
    (example,) = docs(tmp_path, shows="m, players[0].tray, players[1].tray").book.examples
    board, trays = example.pictures
    assert trays.title == "Trays" and board.key
    tree = ET.fromstring(trays.after)
    assert texts(trays.after)[:2] == ["Player 1's tray", "2 pebbles"]
    assert "Player 2's tray" in texts(trays.after) and texts(trays.after)[-1] == "empty"
    boxes = [r for r in tree.iter(f"{SVG}rect")]
    assert len(boxes) == 2 and boxes[0].attrib["y"] == boxes[1].attrib["y"]  # side by side
    assert float(boxes[1].attrib["x"]) > float(boxes[0].attrib["x"]) + float(boxes[0].attrib["width"])


def test_a_tile_off_the_board_is_drawn_by_what_is_on_it(tmp_path: Path) -> None:
    """Tiles shown by what is on them rather than by a number (issue 25, section 1): a tile in a
    box is its cells, each by what it is, with what is printed on it."""
    game = docs(
        tmp_path, pebble='pebble", "pebbles"\npiece slab: each tile in bag\n  called "slab', shows="bag"
    )
    (example,) = game.book.examples
    (bag,) = example.pictures
    assert "sand, water\u00a0(spring)" in texts(bag.before)
    assert not [t for t in texts(bag.before) if "slab" in t or "t1" in t]


def test_an_examples_pictures_call_each_seat_as_its_words_do(tmp_path: Path) -> None:
    """Picture labels say what the example's words say (issue 25, section 1): `players 2 called
    "you", "Jimmy"` labels the first seat's places "Your ..." and the second's "Jimmy's ...", not
    "Player 1" and "Player 2"."""
    source = GAME.format(
        water="#9cc7e6", pebble="pebble", shows="m, players[0].tray, players[1].tray", expected="2"
    )
    source = source.replace("  given:\n", '  players 2 called "you", "Jimmy"\n  given:\n', 1)
    path = tmp_path / "named.rules"
    game = written_docs(path, source)
    board, trays = game.book.examples[0].pictures
    assert board.title == "Your board"
    assert texts(trays.before)[0] == "Your tray" and "Jimmy's tray" in texts(trays.before)
    assert "Player" not in board.title + " ".join(texts(trays.before))


def test_an_example_that_names_more_seats_than_it_has_players_is_an_error_at_its_line(tmp_path: Path) -> None:
    source = GAME.format(water="#9cc7e6", pebble="pebble", shows="m", expected="2")
    source = source.replace("  given:\n", '  players 2 called "you"\n  given:\n', 1)
    path = tmp_path / "named.rules"
    path.write_text(source)
    checked = meeple.check(path)
    assert not checked.ok
    (diag,) = [d for d in checked.diagnostics if "name each seat once" in d.message]
    assert "calls 1 seats by name but is played with 2 players" in diag.message
    assert diag.line == source[: source.index('example "Two')].count("\n") + 1


def test_a_word_too_long_for_a_cell_is_broken_with_a_hyphen_not_printed_smaller() -> None:
    """Labels legible at print size (issue 25, section 1): a seat's long name on a cell was shrunk
    under the smallest size a picture prints at, and an example called its seat by a short name
    instead. It is broken over two lines with a hyphen, every line at full size."""
    lines = pictures._wrap("3 pebbles (Hippopotamuses Jo)")
    assert lines == ["3 pebbles", "Hippopo-", "tamuses", "Jo"]
    assert all(len(line) <= pictures.CELL_LINE for line in lines)
    assert pictures._wrap("Parallelogrammatically") == ["Parallel-", "ogrammat-", "ically"]


def test_a_place_named_as_a_seats_is_named_as_the_example_calls_that_seat(tmp_path: Path) -> None:
    """Boxes labelled as the text says (issue 25, section 1): a row of a table that belongs to a
    seat and is named as that seat's ("bed of Player 1") is titled "Your bed" where the example
    calls the seat "you", and the seat's own pieces in it are "your" pieces."""
    source = GAME.format(water="#9cc7e6", pebble="pebble", shows="bed.p1_bed", expected="2")
    source = source.replace(
        "zone bag\n",
        'zone bag\ntable bed (name, called, seat: int):\n  belongs to seat\n  p1_bed, "bed of Player 1", 0\n'
        '  p2_bed, "bed of Player 2", 1\nmap beds:\n  nodes bed at self.seat, 0\n'
        "piece marker: 1 per player in bag\n",
        1,
    )
    source = source.replace(
        "  given:\n",
        '  players 2 called "you", "Jimmy"\n  given:\n'
        "    move 1 marker of players[0] from bag to bed.p1_bed\n",
        1,
    )
    path = tmp_path / "beds.rules"
    game = written_docs(path, source)
    (bed,) = game.book.examples[0].pictures
    assert bed.title == "Your bed"
    assert "your marker" in texts(bed.before)


def test_labels_piled_higher_than_their_cell_are_held_by_the_picture(tmp_path: Path) -> None:
    """Legible example pictures (issue 25, section 1): a cell whose labels pile higher than the
    cell (long names broken over lines, several kinds of piece) reached past the map's edge, and
    the picture cut them off. The picture is as tall as its highest pile."""
    source = GAME.format(water="#9cc7e6", pebble="Hippopotamuses Jo pebble", shows="m", expected="2")
    source = source.replace("zone bag\n", "zone bag\npiece marker: 1 per player in bag\n", 1)
    source = source.replace(
        "    move 1 pebble from bag to cell(m, 1, 0)\n",
        "    move 1 pebble from bag to cell(m, 1, 0)\n"
        "    move 1 marker of players[0] from bag to cell(m, 1, 0)\n"
        "    move 1 marker of players[1] from bag to cell(m, 1, 0)\n",
        1,
    ).replace("  given:\n", '  players 2 called "you", "Jimmy"\n  given:\n', 1)
    path = tmp_path / "piled.rules"
    game = written_docs(path, source)
    (board,) = game.book.examples[0].pictures
    svg = ET.fromstring(board.before)
    _, top, _, height = (float(v) for v in svg.attrib["viewBox"].split())
    labels = [r for r in svg.iter(f"{SVG}rect") if "fill-opacity" in r.attrib]
    assert len(labels) == 4  # the pebble, each seat's marker, the spring
    assert min(float(r.attrib["y"]) for r in labels) >= top
    assert max(float(r.attrib["y"]) + float(r.attrib["height"]) for r in labels) <= top + height


def test_labels_piled_higher_than_a_cell_on_the_maps_edge_stay_inside_the_map_where_it_is_tall_enough(
    tmp_path: Path,
) -> None:
    """Dino Dynasty's mountain example printed the labels of a Herd and a Nest in a top corner
    above the Map's frame (issue 25): a pile centred on its cell reached past the map's edge. On
    a map tall enough, the pile moves down (or up) to stay inside; it still starts on its cell."""
    source = GAME.format(water="#9cc7e6", pebble="Hippopotamuses Jo pebble", shows="m", expected="2")
    source = source.replace(
        "  t1, 1, 0, water, yes\n",
        "  t1, 1, 0, water, yes\n" + "".join(f"  t1, 0, {r}, sand, no\n" for r in (1, 2, 3)),
    )
    source = source.replace("zone bag\n", "zone bag\npiece marker: 1 per player in bag\n", 1)
    source = source.replace(
        "    move 1 pebble from bag to cell(m, 1, 0)\n",
        "    move 1 pebble from bag to cell(m, 1, 0)\n"
        "    move 1 marker of players[0] from bag to cell(m, 1, 0)\n",
        1,
    ).replace("  given:\n", '  players 2 called "you", "Jimmy"\n  given:\n', 1)
    game = written_docs(tmp_path / "edge.rules", source)
    (board,) = game.book.examples[0].pictures
    svg = ET.fromstring(board.before)
    corners = [
        float(xy.split(",")[1]) for g in svg.iter(f"{SVG}polygon") for xy in g.attrib["points"].split()
    ]
    labels = [r for r in svg.iter(f"{SVG}rect") if "fill-opacity" in r.attrib]
    assert len(labels) == 3  # the pebble, the marker, the spring
    tops = [float(r.attrib["y"]) for r in labels]
    bottoms = [float(r.attrib["y"]) + float(r.attrib["height"]) for r in labels]
    assert max(bottoms) - min(tops) > 2 * pictures.HEX  # taller than its cell
    assert min(tops) >= min(corners) and max(bottoms) <= max(corners)


def test_a_pieces_label_stays_within_its_cell(tmp_path: Path) -> None:
    """Labels legible at print size (issue 25): a piece's bold label was wrapped at the letters a
    line of plain words holds, so an 11-letter name ran past its cell and the label on the next
    cell covered its end. Each line of a piece's label, in bold letters of 0.55 of the font size
    (as Libertinus prints them) with the frame's margin, is no wider than a cell."""
    board = docs(tmp_path, pebble="salamander").book.examples[0].pictures[0]
    cell = pictures.HEX * 3**0.5
    for svg in (board.before, board.after):
        bold = [
            t.text or ""
            for t in ET.fromstring(svg).iter("{http://www.w3.org/2000/svg}text")
            if t.get("font-weight") == "bold"
        ]
        assert bold, "no piece drawn"
        assert all(len(line) * 0.55 * pictures.FONT + 6 <= cell for line in bold), bold


@pytest.mark.parametrize("stem", ["gods_love_dinosaurs", "dino_dynasty", "dino_garden"])
def test_a_bundled_examples_pictures_name_seats_only_as_its_words_do(stem: str) -> None:
    """Pictures use the example's words for seats (issue 25): two examples whose words say "its
    owner's nest" titled their pictures "Player 1's ecosystem" and "Player 1's nest". A picture
    says "Player N" only where its example's words do, and its title starts as a title does."""
    checked = meeple.check(stem)
    assert checked.ok and checked.module and checked.symbols and checked.program
    game = render.game_docs(
        checked.path, checked.module, checked.symbols, checked.program.constants, program=checked.program
    )
    for example in game.book.examples:
        words = " ".join(example.words)
        for picture in example.pictures:
            assert picture.title[:1] == picture.title[:1].upper(), picture.title
            for seat in re.findall(r"Player \d", picture.title + " ".join(texts(picture.before))):
                assert seat in words, (example.title, picture.title)


def test_places_a_map_draws_at_their_spots_are_drawn_as_the_board_lays_them(tmp_path: Path) -> None:
    """Boxes drawn as the board looks (issue 25, section 1): Dino Garden's "upper Event area" and
    "lower Event area" were two boxes side by side, as a list is; on the board one is over the
    other. Places that are nodes of a map whose rules say where each is drawn (`nodes T at X, Y`)
    are drawn as that map's cells, where the rules put them, and a node between them that the
    example does not show is a blank cell, so that the board keeps its shape."""
    source = GAME.format(
        water="#9cc7e6", pebble="pebble", shows="bed.near, bed.far, players[0].tray", expected="2"
    )
    source = source.replace(
        "zone bag\n",
        "zone bag\ntable bed (name, called, column: int, row: int):\n"
        '  near, "near bed", 0, 0\n  side, "side bed", 1, 0\n  back, "back bed", 0, 1\n'
        '  far, "far bed", 1, 1\nmap beds:\n  nodes bed at self.column, self.row\n',
        1,
    ).replace("    move 1 pebble from bag to cell(m, 1, 0)\n", "    move 1 pebble from bag to bed.far\n", 1)
    path = tmp_path / "beds.rules"
    game = written_docs(path, source)
    (beds,) = game.book.examples[0].pictures
    tree = ET.fromstring(beds.before)
    names = [t.text for t in tree.iter(f"{SVG}text") if t.get("font-weight") == "bold"]
    assert names[:2] == ["Side bed", "Back bed"]  # the blank cells: the board's nodes not shown
    assert names[2:] == ["Near bed", "Far bed", "Player 1's tray"]

    def box(name: str) -> tuple[float, float, float, float]:
        """The cell under a name: the rect its name's baseline lies in."""
        text = next(t for t in tree.iter(f"{SVG}text") if t.text == name)
        x, y = float(text.attrib["x"]), float(text.attrib["y"])
        for r in tree.iter(f"{SVG}rect"):
            left, top = float(r.attrib["x"]), float(r.attrib["y"])
            right, bottom = left + float(r.attrib["width"]), top + float(r.attrib["height"])
            if left <= x <= right and top <= y <= bottom:
                return left, top, right, bottom
        raise AssertionError(name)

    near, side, back, far = (box(f"{n} bed") for n in ("Near", "Side", "Back", "Far"))
    assert near[1] == side[1] and back[1] == far[1] and near[3] == back[1]  # rows, touching
    assert near[0] == back[0] and side[0] == far[0] and near[2] == side[0]  # columns, touching
    assert box("pebble") == far
    tray = next(t for t in tree.iter(f"{SVG}text") if t.text == "Player 1's tray")
    assert float(tray.attrib["x"]) > far[2]  # a place of no map beside the board, its name over its box


def test_a_variable_naming_a_row_is_drawn_as_a_marker_under_that_rows_place(tmp_path: Path) -> None:
    """Example pictures show what their words speak of (issue 25): Gods Love Dinosaurs' columns
    example says "the frog column ... with the dinosaur marker below it" and "the marker moves to
    the rabbit column", but its picture had the columns and no marker. A variable `shows` names
    whose value is a row of a place shown beside it (`pot.red` for red) is a framed label under
    that place's box, by the variable's name, before and after the moves."""
    source = GAME.format(water="#9cc7e6", pebble="pebble", shows="red.pot, blue.pot, pointer", expected="0")
    source = source.replace(
        "zone bag\n",
        'zone bag\ntable hue (name, called):\n  red, "red"\n  blue, "blue"\n'
        'zone pot per hue\n  called "pot"\nvar pointer: hue = red\n  called "turn pointer"\n',
        1,
    ).replace("  do:\n    grow(players[0])\n", "  do:\n    set pointer to blue\n", 1)
    path = tmp_path / "pointer.rules"
    game = written_docs(path, source)
    (pots,) = game.book.examples[0].pictures  # the pointer is no box of its own

    def under(svg: str) -> str:
        """The pot whose box the marker's label lies under."""
        tree = ET.fromstring(svg)
        label = next(t for t in tree.iter(f"{SVG}text") if t.text == "turn pointer")
        x, y = float(label.attrib["x"]), float(label.attrib["y"])
        boxes = [r for r in tree.iter(f"{SVG}rect") if r.get("rx") == "6"]
        (box,) = [
            r for r in boxes if float(r.attrib["x"]) <= x <= float(r.attrib["x"]) + float(r.attrib["width"])
        ]
        assert y > float(box.attrib["y"]) + float(box.attrib["height"])  # below the box
        names = [
            t for t in tree.iter(f"{SVG}text") if t.get("font-weight") == "bold" and t.text != "turn pointer"
        ]
        return next(t.text or "" for t in names if abs(float(t.attrib["x"]) - float(box.attrib["x"]) - 3) < 4)

    assert texts(pots.before).count("turn pointer") == 1 and under(pots.before) == "Red pot"
    assert under(pots.after) == "Blue pot"


def test_a_book_of_many_examples_whose_rulings_fill_a_room_settles_its_layout(tmp_path: Path) -> None:
    """Typst settles the layout of a book of many examples (issue 25): Dino Dynasty with its Long
    Legs example drawn ("shows: world") has the rulings fill the room that example leaves, near the
    end of nineteen examples; each example was read at the last mark before it, and where an
    example's rulings changed, the marks of the examples after it moved in the document: Typst
    warned "document did not converge" (and the pages were those of an unfinished layout). Each
    example's mark is now found by its own label."""
    import shutil

    games = bundled_dir()
    shutil.copytree(games / "dino_dynasty", tmp_path / "dino_dynasty")
    source = (games / "dino_dynasty.rules").read_text()
    start = source.index('example "Long Legs')
    end = source.index("\nexample ", start)
    if "shows:" not in source[start:end]:
        source = source[:end] + "\n  shows: world" + source[end:]
    path = tmp_path / "dino_dynasty.rules"
    path.write_text(source)
    game = checked_docs(path)
    assert any(e.pictures for e in game.book.examples if e.title.startswith("Long Legs"))
    _, warnings = pdfs.laid_out(render.rulebook_typst(game))
    assert not warnings
