"""Where the rulebook's pages break (issue 25, section 1): no table row sits alone on a page, and
no page ends half empty before a table that would not fit it whole. On a game of neutral names:
beads in a bag, and a table of them that a player looks things up in."""

from __future__ import annotations

import re
from pathlib import Path

import pdfs
import pytest

import meeple
from meeple.codegen import render

GAME = """\
game "Beads":
  players 2..2

table bead (name, called, weight: int "Weight", shine: int "Shine"):
  says "Every bead, with its weight and its shine."
{rows}
zone bag
piece marble: 5 in bag
  called "marble", "marbles"

play:
  says "{words}"
  for each p in players:
    turn p:
      move 1 marble from bag to bag
"""


def _pages(tmp_path: Path, rows: int, sentences: int) -> list[str]:
    table = "".join(f'  b{i:02}, "Bead {i:02}", {i}, {i % 4}\n' for i in range(1, rows + 1))
    words = " ".join(f"The marbles wait in the bag for turn number {i}." for i in range(sentences))
    path = tmp_path / f"beads{rows}-{sentences}.rules"
    path.write_text(GAME.format(rows=table, words=words))
    checked = meeple.check(path)
    assert checked.ok and checked.module and checked.symbols and checked.program, checked.diagnostics
    game = render.game_docs(
        path, checked.module, checked.symbols, checked.program.constants, program=checked.program
    )
    pdf = pdfs.reader(render.pdf(render.rulebook_typst(game)))
    return ["".join(p.extract_text().split()) for p in pdf.pages]


@pytest.mark.parametrize("rows", [12, 40])
def test_no_table_row_sits_alone_and_a_table_that_does_not_fit_is_split_where_it_stands(
    tmp_path: Path, rows: int
) -> None:
    """A table that does not fit in what is left of a page is split there, its header repeated
    on the next, with at least 5 of its rows on each page (Dino Dynasty's Biome table, kept whole,
    went to the next page and left 42% of page 10 empty; a split there would have left 2 rows
    alone; its Morph table left 4 rows at a page's foot, which a reader took for strays). The
    words before it end at a different place of the page each time."""
    split = 0
    for sentences in range(35, 75, 6):
        pages = _pages(tmp_path, rows, sentences)
        counts = [len(re.findall(r"Bead\d\d", p)) for p in pages]
        assert sum(counts) == rows
        assert all(n == 0 or n >= 5 for n in counts), (sentences, counts)
        ended = max(i for i, p in enumerate(pages) if "turnnumber" in p)
        split += counts[ended] > 0 and sum(counts[ended + 1 :]) > 0
    assert split >= 2


def test_a_table_with_only_its_rows_names_prints_its_heading_and_words(tmp_path: Path) -> None:
    """A table whose only column is its rows' names prints no table, but its heading and words
    say what it holds (a split of the tables in parts had left them out with the table: the solo
    Dino Garden's Reference printed its opening line and nothing under it)."""
    source = GAME.replace(
        "zone bag\n",
        'table shelf (name, called):\n  says "The three shelves the marbles rest on."\n'
        '  top, "top shelf"\n  middle, "middle shelf"\n  low, "low shelf"\n\nzone bag\n',
    )
    path = tmp_path / "shelves.rules"
    path.write_text(source.format(rows='  b01, "Bead 01", 1, 1\n', words="The marbles wait."))
    checked = meeple.check(path)
    assert checked.ok and checked.module and checked.symbols and checked.program, checked.diagnostics
    game = render.game_docs(
        path, checked.module, checked.symbols, checked.program.constants, program=checked.program
    )
    text = "".join(pdfs.text(render.pdf(render.rulebook_typst(game))).split())
    assert "Shelf" in text and "Thethreeshelvesthemarblesreston." in text
