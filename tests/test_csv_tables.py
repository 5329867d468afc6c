"""A table may read its rows from a CSV file beside the rules file (`table ... from "FILE.csv"`):
the rows are the rows the same cells would make inline, a wrong cell is reported at its line and
column in the CSV file, and nothing outside the rules file's folder is ever read. On a game of
neutral names: cards of colours."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from helpers import found, only

import meeple
from meeple.grammar import tables

GAME = """\
game "Cards":
  players 2..2

table suit (name):
  red
  blue

table card (name, called, cost: int, colour: suit?, rare: bool, note) from "{file}":
  says "The cards of the deck."
  joker, "Joker", 0, -, yes, -

zone deck
piece card_piece: each card in deck

play:
  for each p in players:
    turn p:
      move 1 card_piece from deck to deck

score p = sum([c.cost for each c in card])
"""

CSV = """\
name,called,cost,colour,rare,note
fox,Fox,2,red,no,quick
owl,"Owl, the wise",3,blue,no,"hoots, at night"
ant,Ant,-1,-,yes,7
"""


def game(tmp_path: Path, csv: str = CSV, file: str = "cards.csv", folder: str = "") -> Path:
    (tmp_path / folder).mkdir(parents=True, exist_ok=True)
    (tmp_path / folder / Path(file).name).write_text(csv, encoding="utf-8")
    path = tmp_path / "cards.rules"
    path.write_text(GAME.format(file=file), encoding="utf-8")
    return path


def rows(path: Path) -> list[list[object]]:
    checked = meeple.check(path)
    assert checked.ok, [d.message for d in checked.diagnostics]
    assert checked.module is not None
    table = next(d for d in checked.module.decls if getattr(d, "name", "") == "card")
    return [r.cells for r in table.rows]  # type: ignore[attr-defined]


def test_a_csv_file_gives_the_rows_its_cells_would_give_inline(tmp_path: Path) -> None:
    assert rows(game(tmp_path)) == [
        ["joker", "Joker", 0, None, True, None],  # written inline: first
        ["fox", "Fox", 2, "red", False, "quick"],
        ["owl", "Owl, the wise", 3, "blue", False, "hoots, at night"],
        ["ant", "Ant", -1, None, True, 7],  # an untyped column reads a number as a number
    ]
    assert meeple.load(game(tmp_path)).new_game(2).scores == [4, 4]


def test_a_file_below_the_rules_file_a_bom_and_windows_line_ends(tmp_path: Path) -> None:
    csv = "\ufeff" + CSV.replace("\n", "\r\n")
    assert len(rows(game(tmp_path, csv, file="data/cards.csv", folder="data"))) == 4


def test_a_wrong_cell_is_reported_where_it_stands_in_the_csv_file(tmp_path: Path) -> None:
    path = game(tmp_path, CSV.replace("fox,Fox,2,red,no", "fox,Fox,two,red,maybe"))
    report = meeple.check(path)
    cost, rare = found(report, "M008")
    assert (Path(cost.file).name, cost.line, cost.column) == ("cards.csv", 2, 9)
    assert "column 'cost': 'two' is not a whole number" in cost.message
    assert (rare.line, rare.column) == (2, 17) and "'maybe' is not yes or no" in rare.message
    shown = report.render(cost)
    assert "fox,Fox,two,red,maybe" in shown and "^^^" in shown  # the CSV line, under the cell


def test_a_reference_to_no_row_is_reported_in_the_csv_file(tmp_path: Path) -> None:
    report = meeple.check(game(tmp_path, CSV.replace("2,red,", "2,green,")))
    diag = only(report, "M016")
    assert (Path(diag.file).name, diag.line) == ("cards.csv", 2)


@pytest.mark.parametrize(
    ("csv", "message"),
    [
        ("name,cost\nfox,2\n", "the header line names the columns name, cost; table 'card' has name, called"),
        ("", "no header line"),
        (CSV + "bee,Bee,1\n", "3 cells, but table 'card' has 6 columns"),
        (CSV + '"bee,Bee,1,red,no,x\n', "not a CSV line"),
        (CSV + "1bee,Bee,1,red,no,x\n", "'1bee' is not a name"),
        (CSV + "bee,Bee,1234567890123456789,red,no,x\n", "more than 18 digits"),
    ],
    ids=["columns moved", "empty", "short row", "open quote", "bad name", "huge number"],
)
def test_a_wrong_file_is_refused_with_a_located_error(tmp_path: Path, csv: str, message: str) -> None:
    report = meeple.check(game(tmp_path, csv))
    assert not report.ok
    assert any(message in d.message and d.code == "M008" for d in report.diagnostics), [
        d.message for d in report.diagnostics
    ]


@pytest.mark.parametrize(
    "name",
    ["/etc/passwd", "../outside.csv", "cards.txt", "missing.csv", "linked.csv"],
    ids=["absolute", "out of the folder", "not csv", "missing", "a link out"],
)
def test_nothing_outside_the_rules_files_folder_is_read(tmp_path: Path, name: str) -> None:
    inside = tmp_path / "game"
    inside.mkdir()
    secret = tmp_path / "outside.csv"
    secret.write_text("name,called,cost,colour,rare,note\nSECRET,x,1,-,no,-\n")
    os.symlink(secret, inside / "linked.csv")
    (inside / "cards.txt").write_text(CSV)
    path = inside / "cards.rules"
    path.write_text(GAME.format(file=name))
    report = meeple.check(path)
    diag = only(report, "M008")
    assert Path(diag.file).name == "cards.rules" and diag.line == 8  # at the file's name
    assert "SECRET" not in " ".join(d.message for d in report.diagnostics)


def test_a_file_too_large_or_too_long_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(meeple.loader, "MAX_DATA_BYTES", 50)
    assert "larger than" in only(meeple.check(game(tmp_path)), "M008").message
    monkeypatch.undo()
    monkeypatch.setattr(tables, "MAX_LIST", 2)
    assert "more than 2 rows" in only(meeple.check(game(tmp_path)), "M008").message


def test_a_variants_base_game_reads_its_own_file(tmp_path: Path) -> None:
    base = game(tmp_path / "base")
    variant = tmp_path / "variant.rules"
    variant.write_text(f'variant "More cards" of "base/{base.name}":\n  players 2..2\n')
    checked = meeple.check(variant)
    assert checked.ok, [d.message for d in checked.diagnostics]
    assert meeple.load(variant).new_game(2).scores == [4, 4]
