"""`called each "..."`: a table names each of its rows from its cells, as a log line is made, so
that rows without names of their own (a relation table's, shown `seat 3` otherwise) read in
words in every prompt and log line (docs/language.md, "Keyed tables and relation tables"). One
small neutral game: the seats of a theatre, by row and number."""

from __future__ import annotations

from pathlib import Path

import meeple
from meeple import Diagnostic
from meeple.codegen import render
from meeple.interpreter.checks import CheckOptions, run_checks

THEATRE = """\
game "Theatre":
  players 1..1

table hall (name, called):
  stalls, "the Stalls"
  circle, "the Circle"

table seat (hall: hall, row: int, number: int):
  called each "{self.hall}, row {self.row + 1}, seat {self.number}"
  stalls, 0, 7
  circle, 2, 1

play:
  for each p in players:
    turn p:
      choose s from seat by p prompt "Where do you sit?":
        log "{p} sits in {s}"
"""


def load(tmp_path: Path, source: str = THEATRE) -> meeple.Game:
    path = tmp_path / "theatre.rules"
    path.write_text(source, encoding="utf-8")
    return meeple.load(path)


def errors(tmp_path: Path, source: str) -> list[Diagnostic]:
    """What `meeple check` reports, errors and warnings."""
    path = tmp_path / "theatre.rules"
    path.write_text(source, encoding="utf-8")
    report = run_checks(meeple.check(path), str(path), CheckOptions())
    return [d for d in report.diagnostics if d.severity in ("error", "warning")]


def test_each_row_is_named_of_its_cells_in_the_options_and_the_log(tmp_path: Path) -> None:
    state = load(tmp_path).new_game(1, seed=1)
    assert state.decision is not None
    assert list(state.decision.options) == ["the Stalls, row 1, seat 7", "the Circle, row 3, seat 1"]
    state.apply(1)
    assert "Player 1 sits in the Circle, row 3, seat 1" in state.log


def test_without_the_line_a_relation_row_is_its_tables_name_and_number(tmp_path: Path) -> None:
    plain = THEATRE.replace('  called each "{self.hall}, row {self.row + 1}, seat {self.number}"\n', "")
    state = load(tmp_path, plain).new_game(1)
    assert state.decision is not None
    assert list(state.decision.options) == ["seat 1", "seat 2"]


def test_a_part_that_reads_no_column_is_an_error_at_the_line(tmp_path: Path) -> None:
    source = THEATRE.replace("{self.number}", "{self.nubmer}")
    [error] = errors(tmp_path, source)
    assert (error.code, error.line) == ("M013", 9)


def test_a_part_that_is_not_an_expression_is_an_error(tmp_path: Path) -> None:
    source = THEATRE.replace("{self.number}", "{self.number +}")
    [error] = errors(tmp_path, source)
    assert error.code == "M005"


def test_the_line_names_nothing_outside_a_table(tmp_path: Path) -> None:
    source = THEATRE.replace("play:\n", 'play:\n  called each "{self}"\n')
    codes = [d.code for d in errors(tmp_path, source)]
    assert "M056" in codes


def test_a_second_line_is_a_warning(tmp_path: Path) -> None:
    source = THEATRE.replace("  stalls, 0, 7\n", '  called each "seat {self.number}"\n  stalls, 0, 7\n')
    [warning] = errors(tmp_path, source)
    assert warning.code == "M056" and warning.message.startswith("a second name for each row")


def test_the_printed_rules_are_made_and_the_line_is_a_name_not_a_note(tmp_path: Path) -> None:
    path = tmp_path / "theatre.rules"
    path.write_text(THEATRE, encoding="utf-8")
    checked = meeple.check(path)
    assert checked.ok and checked.module is not None and checked.symbols is not None
    docs = render.game_docs(path, checked.module, checked.symbols, checked.program.constants)
    assert "row {self.row + 1}" not in render.reference_html(docs)
    assert "chooses a seat" in render.rulebook_markdown(docs)
