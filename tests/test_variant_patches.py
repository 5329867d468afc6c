"""A variant changes a table without copying it, and texts show the values they state.

`change table NAME:` patches a base game's table one cell, row or column at a time; `{name}` in a
text shows a constant's (or a cell's) value, so that a variant's numbers and its words agree;
and where a base text still states a number the variant changes, `meeple check` warns (M092).
Each test writes a small neutral game (or a variant of a bundled one) and checks what the game
plays, what its rulebook prints and where a mistake is reported."""

from __future__ import annotations

from pathlib import Path

import pytest

import meeple
from meeple.codegen import render
from meeple.diagnostics import Diagnostic
from meeple.grammar import ast
from meeple.interpreter.checks import CheckOptions, run_checks
from meeple.interpreter.examples import run_examples

HERE = Path(__file__).parent
BASE = """\
game "Base":
  players 2..2
constant rounds = 2
  text "The game lasts {rounds} rounds; a {{brace}} stays."
  cites "two rounds"
table colour (name, worth: int "Worth"):
  says "What each colour is worth."
  red, 1
  blue, 2
zone bag
zone pot per player
piece chip: 10 per player in bag
var points: int = 0 per player
rule gain(p: player):
  says "Take a chip: it scores a blue's worth, 2 points."
  move 1 chip of p from bag to p.pot
  add blue.worth to p.points
play:
  text "Play 2 rounds."
  repeat rounds times:
    for each p in players:
      turn p:
        gain(p)
score p = p.points + count(colour) - count(colour)
"""
HEADER = 'variant "Changed" of "base.rules":\n  players 2..2\n'  # the variant's body starts on line 3


def variant(tmp_path: Path, body: str, base: str = BASE) -> Path:
    (tmp_path / "base.rules").write_text(base)
    path = tmp_path / "variant.rules"
    path.write_text(HEADER + body)
    return path


def table(checked: meeple.loader.Checked, name: str) -> ast.Table:
    assert checked.module is not None
    return next(d for d in checked.module.decls if isinstance(d, ast.Table) and d.name == name)


def errors(path: Path) -> list[Diagnostic]:
    return [d for d in meeple.check(path).diagnostics if d.severity == "error"]


def rulebook(path: Path, full: bool = False) -> str:
    checked = meeple.check(path)
    assert checked.ok and checked.module and checked.symbols and checked.program, checked.diagnostics
    docs = render.game_docs(path, checked.module, checked.symbols, checked.program.constants, full)
    return render.rulebook_markdown(docs)


def stale(path: Path) -> list[Diagnostic]:
    checked = meeple.check(path)
    report = run_checks(checked, str(path), CheckOptions())
    return [d for d in report.diagnostics if d.code == "M092"]


# ===================================================================== table patches


def test_set_changes_one_cell_and_the_game_plays_it(tmp_path: Path) -> None:
    path = variant(tmp_path, "change table colour:\n  set blue.worth to 5\n")
    assert meeple.load(path).new_game(2).scores == [10, 10]
    assert meeple.load(tmp_path / "base.rules").new_game(2).scores == [4, 4]  # the base is untouched


def test_replace_row_writes_a_row_anew(tmp_path: Path) -> None:
    checked = meeple.check(variant(tmp_path, "change table colour:\n  replace row blue, 7\n"))
    assert [r.cells for r in table(checked, "colour").rows] == [["red", 1], ["blue", 7]]
    assert meeple.load(tmp_path / "variant.rules").new_game(2).scores == [14, 14]


def test_add_row_and_remove_row(tmp_path: Path) -> None:
    checked = meeple.check(variant(tmp_path, "change table colour:\n  add row green, 3\n  remove row red\n"))
    assert checked.ok
    assert [r.cells for r in table(checked, "colour").rows] == [["blue", 2], ["green", 3]]


def test_a_new_column_has_its_value_in_every_row_until_a_row_is_set(tmp_path: Path) -> None:
    body = (
        'change table colour:\n  add column bonus: int "Bonus" = 1\n  set blue.bonus to 4\n'
        "replace rule gain(p: player):\n  add blue.bonus to p.points\n"
    )
    checked = meeple.check(variant(tmp_path, body))
    assert checked.ok, checked.diagnostics
    assert [r.cells for r in table(checked, "colour").rows] == [["red", 1, 1], ["blue", 2, 4]]
    assert meeple.load(tmp_path / "variant.rules").new_game(2).scores == [8, 8]  # the rules read it


def test_patches_apply_in_order_so_a_row_added_after_a_column_gives_its_cell(tmp_path: Path) -> None:
    body = "change table colour:\n  add column bonus: int = 0\n  add row green, 3, 9\n"
    checked = meeple.check(variant(tmp_path, body))
    assert checked.ok, checked.diagnostics
    assert table(checked, "colour").rows[-1].cells == ["green", 3, 9]


@pytest.mark.parametrize(
    ("line", "at", "code", "message", "hint"),
    [
        ("change table colours:", "colours", "M090", "no table 'colours' to change", "'colour'?"),
        ("  set bleu.worth to 3", "bleu", "M090", "table 'colour' has no row 'bleu'", "did you mean 'blue'?"),
        ("  set blue.wort to 3", "wort", "M090", "table 'colour' has no column 'wort'", "mean 'worth'?"),
        ("  set blue.worth to yes", "yes", "M014", "column 'worth' holds numbers, not 'yes'", ""),
        ("  replace row bleu, 3", "bleu", "M090", "table 'colour' has no row 'bleu'", "did you mean 'blue'?"),
        ("  remove row rde", "rde", "M090", "table 'colour' has no row 'rde'", "did you mean 'red'?"),
        ("  add row red, 4", "red", "M090", "table 'colour' already has a row 'red'", "replace row"),
        ("  add column worth: int = 1", "worth", "M090", "already has a column 'worth'", "set ROW.worth"),
        ("  add column bonus: int = yes", "yes", "M014", "column 'bonus' holds numbers, not 'yes'", ""),
    ],
)
def test_a_table_patch_that_names_nothing_or_does_not_fit_is_located(
    tmp_path: Path, line: str, at: str, code: str, message: str, hint: str
) -> None:
    whole = line.startswith("change")  # the patch's first line, or a line inside it
    body = f"{line}\n  set blue.worth to 3\n" if whole else f"change table colour:\n{line}\n"
    number = 3 if whole else 4
    found = errors(variant(tmp_path, body))
    assert len(found) == 1, found
    (error,) = found
    expected_column = 1 if whole else line.index(at) + 1
    assert (Path(error.file).name, error.line, error.column, error.code) == (
        "variant.rules",
        number,
        expected_column,
        code,
    )
    assert message in error.message and hint in error.hint


def test_a_variants_rulebook_tells_each_table_change_in_players_words(tmp_path: Path) -> None:
    body = (
        "change table colour:\n"
        '  text "Colours are worth more."\n'
        "  set blue.worth to 5\n"
        '  add column bonus: int "Bonus" = 0\n'
        "  add row green, 3, 1\n"
        "  remove row red\n"
    )
    text = rulebook(variant(tmp_path, body))
    assert "Colours are worth more." in text
    assert "- Blue: Worth 5 (instead of 2)." in text
    assert "- New: Bonus, 0 for each colour unless said below." in text
    assert "- Added: green, with Worth 3, Bonus 1." in text
    assert "- Removed: red." in text


# ===================================================================== texts that show values


def test_a_text_shows_the_constant_it_names_and_a_doubled_brace_is_a_brace(tmp_path: Path) -> None:
    path = tmp_path / "base.rules"
    path.write_text(BASE.replace("it scores a blue's worth, 2 points.", "Worth {blue.worth}."))
    text = rulebook(path)
    assert "The game lasts 2 rounds; a {brace} stays." in text
    assert "Worth 2." in text and "{rounds}" not in text


def test_a_variant_that_changes_the_constant_prints_its_own_value_in_the_base_text(tmp_path: Path) -> None:
    path = variant(tmp_path, "replace constant rounds = 5\nchange table colour:\n  set blue.worth to 7\n")
    base = BASE.replace("2 points.", "{blue.worth} points.")
    base = base.replace("Play 2 rounds.", "Play {rounds} rounds.")
    (tmp_path / "base.rules").write_text(base)
    text = rulebook(path, full=True)
    assert "Play 5 rounds." in text and "scores a blue's worth, 7 points." in text
    assert "Play 2 rounds." in rulebook(tmp_path / "base.rules")


@pytest.mark.parametrize(
    ("text", "at", "message", "hint"),
    [
        ("{roundz} rounds", "{roundz}", "no constant 'roundz' to show in this text", "mean '{rounds}'?"),
        ("{blue.wort} points", "{blue.wort}", "no row and column 'blue.wort'", "mean '{blue.worth}'?"),
        ('a \\"quote\\" and {1+1}', "{1+1}", "braces in a text name a constant", "write '{{' and '}}'"),
        ("a lone { brace", "{", "braces in a text name a constant", "write '{{' and '}}'"),
    ],
)
def test_an_unknown_name_in_braces_is_located_at_it_with_a_suggestion(
    tmp_path: Path, text: str, at: str, message: str, hint: str
) -> None:
    line = f'  text "{text}"'
    path = variant(tmp_path, f"replace constant rounds = 3\n{line}\n")
    (error,) = errors(path)
    assert (error.line, error.column, error.code) == (4, line.index(at) + 1, "M010")
    assert error.end_column == line.index(at) + 1 + len(at)
    assert message in error.message and hint in error.hint


# ===================================================================== the stale-number warning


def test_a_changed_constant_warns_where_a_base_text_about_it_states_the_old_number(tmp_path: Path) -> None:
    (warning,) = stale(variant(tmp_path, "replace constant rounds = 3\n"))
    line = BASE.split("\n").index('  text "Play 2 rounds."') + 1
    column = len('  text "Play ') + 1  # at the number
    assert (Path(warning.file).name, warning.line, warning.column) == ("base.rules", line, column)
    assert warning.severity == "warning"
    assert "states 2" in warning.message and "the variant makes it 3" in warning.message
    assert warning.hint == "write '{rounds}' where the text means it"


def test_a_changed_cell_warns_in_a_passage_that_reads_its_row(tmp_path: Path) -> None:
    (warning,) = stale(variant(tmp_path, "change table colour:\n  set blue.worth to 5\n"))
    line = BASE.split("\n").index("rule gain(p: player):") + 2
    assert (warning.line, warning.hint) == (line, "write '{blue.worth}' where the text means it")


def test_no_stale_warning_where_the_text_shows_the_value_or_is_about_something_else(tmp_path: Path) -> None:
    base = BASE.replace("Play 2 rounds.", "Play {rounds} rounds.")
    # the rule's "2 points" is not about the rounds: the rule does not use them
    assert stale(variant(tmp_path, "replace constant rounds = 3\n", base)) == []
    assert stale(variant(tmp_path, "change table colour:\n  set red.worth to 5\n", base)) == []


# ===================================================================== a bundled game's variant


def test_deep_caves_changes_the_magic_caves_in_play_in_its_examples_and_in_its_rulebook() -> None:
    path = HERE / "variants" / "deep_caves.rules"
    checked = meeple.check(path)
    assert checked.ok and checked.program is not None
    assert all(r.passed for r in run_examples(meeple.load(path))), "the variant's example"
    assert "- Magic Caves: Extra Dinos per pair 3 (instead of 2)." in rulebook(path)
    assert "3 in the Magic Caves" in rulebook(path, full=True)  # the base game's words, its number
    assert stale(path) == []


def test_changing_the_plains_of_dino_party_warns_at_the_base_text_that_states_it(tmp_path: Path) -> None:
    path = tmp_path / "plains.rules"
    path.write_text(
        'variant "Rich Plains" of "dino_party":\n  players 2..4\n'
        "change table terrain:\n  set plains.pair_bonus to 2\n"
    )
    (warning,) = stale(path)
    source = (HERE.parent / "games" / "dino_party.rules").read_text()
    line = source.split("\n")[warning.line - 1]
    assert Path(warning.file).name == "dino_party.rules" and "1 on the Plains" in line
    assert line[warning.column - 1 :].startswith("1 on the Plains")


# ===================================================================== every change told; stale words

ROUNDING = """\
game "Halves":
  players 2..2
zone bag
zone pot per player
piece chip: 20 per player in bag
constant rounds = 2
  cites "two rounds"
value half(n: int) = n // 2
  says "Half of it, rounded down."
rule gain(p: player):
  says "Take half your chips again, rounded down."
  repeat half(count(pieces(p.pot))) + 1 times:
    move 1 chip of p from bag to p.pot
rule bonus(p: player):
  called "Bonus chip"
  says "Take one more chip."
  move 1 chip of p from bag to p.pot
play:
  repeat rounds times:
    for each p in players:
      turn p:
        gain(p)
        bonus(p)
score p = count(pieces(p.pot))
"""


def stale_texts(path: Path) -> list[Diagnostic]:
    checked = meeple.check(path)
    report = run_checks(checked, str(path), CheckOptions())
    return [d for d in report.diagnostics if d.code == "M094"]


def changes(path: Path) -> str:
    text = rulebook(path)
    return text.split("## Changes from the base game", 1)[1]


def test_a_replaced_value_without_words_is_told_among_the_changes(tmp_path: Path) -> None:
    """Issue 25: a variant rounding up instead of down printed an empty "Changes from the base
    game"; every replaced declaration is told, here in players' English."""
    path = variant(tmp_path, "replace value half(n: int) = (n + 1) // 2\n", ROUNDING)
    told = changes(path)
    assert "### Half\n- Half of the number is (the number plus 1) divided by 2 (rounded down)." in told


def test_a_replaced_value_whose_base_words_still_hold_is_not_told_again(tmp_path: Path) -> None:
    """A `holds` says why the base game's words, with the variant's other changes, still tell a
    replaced value: the book does not print it a second or third time (the Team game told who wins
    a Challenge card three times, issue 25)."""
    body = (
        "replace value half(n: int) = (n + 1) // 2\n"
        '  holds "The new gain rule says how much is taken."\n'
        'replace rule gain(p: player):\n  says "Take half your chips again, rounded up."\n'
        "  repeat half(count(pieces(p.pot))) + 1 times:\n    move 1 chip of p from bag to p.pot\n"
    )
    told = changes(variant(tmp_path, body, ROUNDING))
    assert "rounded up" in told and "### Half" not in told


TIPPED = ROUNDING.replace(
    '  says "Take one more chip."\n  move 1 chip of p from bag to p.pot\n',
    '  says "Take one more chip."\n  tip(p)\nrule tip(p: player):\n  move 1 chip of p from bag to p.pot\n',
)


def test_a_replaced_rule_without_words_told_by_its_callers_base_words_is_told_among_the_changes(
    tmp_path: Path,
) -> None:
    """The base game's `says` of the rule that calls it tells the base game's rule, not the
    variant's: a variant's replaced rule with no words of its own went unlisted (issue 25)."""
    told = changes(
        variant(tmp_path, "replace rule tip(p: player):\n  move 2 chip of p from bag to p.pot\n", TIPPED)
    )
    assert "### Tip\n- Move 2 chips of the player from the bag to the player's pot." in told, told


def test_a_replaced_rule_that_only_logs_says_nothing_happens_rather_than_an_empty_heading(
    tmp_path: Path,
) -> None:
    told = changes(variant(tmp_path, 'replace rule tip(p: player):\n  log "no tip"\n', TIPPED))
    assert "### Tip\n- Nothing happens in this variant." in told, told


def test_an_inserted_step_with_nothing_for_a_player_to_do_prints_no_heading(tmp_path: Path) -> None:
    """An `insert` that only logs printed "Epoch, before ..." with nothing under it (issue 25);
    one a player acts on is still told."""
    base = TIPPED.replace(
        "play:\n",
        'setup:\n  step deal:\n    called "Deal"\n    says "Deal the chips."\n    log "dealt"\n\nplay:\n',
    )
    told = changes(variant(tmp_path, 'insert after step deal:\n  log "dealt again"\n', base))
    assert "Deal" not in told and "###" not in told, told
    acted = changes(
        variant(
            tmp_path,
            "insert after step deal:\n  move 1 chip of players[0] from bag to players[0].pot\n",
            base,
        )
    )
    assert "### Setup, after Deal\n- Move a chip of the first player" in acted, acted


def test_the_options_and_the_setups_own_words_come_before_the_setup_steps(tmp_path: Path) -> None:
    """What players choose before the game is told first, and the words that open the setup lead
    its steps: a Campaign's Scenario step used "Playing with the same name" a page before the
    option, and its setup's opening words came after the steps (issue 25)."""
    base = ROUNDING.replace(
        "play:\n",
        'setup:\n  text "Sit down."\n  step deal:\n    called "Deal"\n    says "Deal the chips."\n'
        '    log "dealt"\n\nplay:\n',
    )
    body = (
        'replace step deal:\n  called "Deal"\n  says "Deal the chips, or double them if agreed."\n'
        '  log "dealt, doubled if agreed"\n'
        'option doubled: bool = no\n  called "Doubling"\n  says "Agree before the game whether to double."\n'
        'reword setup:\n  text "Sit down, and agree on doubling."\n'
    )
    told = changes(variant(tmp_path, body, base))
    assert told.index("### Doubling") < told.index("### Setup") < told.index("### Deal"), told


def test_a_replaced_constant_without_words_says_its_value_and_the_base_games(tmp_path: Path) -> None:
    told = changes(variant(tmp_path, "replace constant rounds = 3\n", ROUNDING))
    assert "3 in this variant, instead of 2." in told


def test_a_removed_rule_is_told_as_left_out_in_one_line_by_its_base_book_heading(tmp_path: Path) -> None:
    """A variant that removes a rule says so in one line, by the heading the reader's base book
    prints it under: quoted whole under that heading ("Bonus chip - Left out of this variant; the
    base game says: ..."), it read as a rule of the variant (an outside reader, issue 25)."""
    body = (
        "remove rule bonus\n"
        'replace rule gain(p: player):\n  says "Take one chip."\n  move 1 chip of p from bag to p.pot\n'
    )
    told = changes(variant(tmp_path, body, ROUNDING.replace("        bonus(p)\n", "")))
    assert "Leave out \u201cBonus chip\u201d: it is not played in this variant." in told.split("\n\n")[1]
    assert "### Bonus chip" not in told and "Take one more chip" not in told


def test_a_base_text_about_a_replaced_value_warns_at_the_text(tmp_path: Path) -> None:
    """The base game's "rounded down" beside a value the variant rounds up (M094): at the `says`
    of the rule that reads the value, in the base file; not at the rule that does not."""
    (warning,) = stale_texts(variant(tmp_path, "replace value half(n: int) = (n + 1) // 2\n", ROUNDING))
    line = ROUNDING.split("\n")[warning.line - 1]
    assert Path(warning.file).name == "base.rules" and "Take half your chips again" in line
    assert warning.severity == "warning" and "half" in warning.message


def test_no_stale_text_warning_for_a_game_or_a_variant_that_replaces_nothing_a_text_tells(
    tmp_path: Path,
) -> None:
    assert stale_texts(variant(tmp_path, "replace constant rounds = 3\n", ROUNDING)) == []
    (tmp_path / "alone.rules").write_text(ROUNDING)
    assert stale_texts(tmp_path / "alone.rules") == []


def test_a_removed_helper_players_never_read_is_not_told(tmp_path: Path) -> None:
    base = ROUNDING.replace(
        'value half(n: int) = n // 2\n  says "Half of it, rounded down."\n', "value half(n: int) = n // 2\n"
    )
    body = "remove value half\nreplace rule gain(p: player):\n  move 1 chip of p from bag to p.pot\n"
    assert "Leave out" not in changes(variant(tmp_path, body, base))
    assert "Leave out \u201cHalf\u201d" in changes(variant(tmp_path, body, ROUNDING))


RULED = BASE.replace(
    "play:\n",
    'conflict "How many chips a turn takes":\n'
    '  cites "one chip a turn"\n'
    '  cites "two chips in the last round"\n'
    '  text "Each turn takes one chip, the last round too."\n'
    "play:\n",
)


def test_a_variant_removes_a_base_conflict_by_its_title_and_its_books_no_longer_print_it(
    tmp_path: Path,
) -> None:
    """A variant that changes what a base ruling settles (no last round) removes the ruling, which
    its `--full` book printed beside the variant's own ruling that says otherwise (issue 25)."""
    ruling = "Each turn takes one chip, the last round too."
    assert ruling in rulebook(variant(tmp_path, "", RULED), full=True)
    removed = variant(tmp_path, 'remove conflict "How many chips a turn takes"\n', RULED)
    assert errors(removed) == []
    assert ruling not in rulebook(removed, full=True)


def test_removing_a_conflict_the_base_game_does_not_have_is_an_error_with_the_closest_title(
    tmp_path: Path,
) -> None:
    (error,) = errors(variant(tmp_path, 'remove conflict "How many chip a turn takes"\n', RULED))
    assert error.code == "M090" and error.line == 3
    assert 'did you mean "How many chips a turn takes"?' in error.hint
