"""A variant never prints a base text that describes what it changed (issue 25).

A base game's `says` or `text` describes what its passage calls or reads: a rule, a value, a
movement, directly or through the values it reads. Where a variant replaces or removes one of
them, `meeple check` warns at each such text (M094), and the variant answers: `reword KIND NAME:`
gives the passage new words, which every book of the variant prints in place of the base game's
(its changes, `--full`, the aid), or `holds "why"` says the base words still hold, which silences
the warning and is printed in no book a player reads. Each test writes a small neutral game and
a variant of it."""

from __future__ import annotations

from pathlib import Path

import pytest

import meeple
from meeple.codegen import render
from meeple.diagnostics import Diagnostic
from meeple.grammar import ast
from meeple.interpreter.checks import CheckOptions, run_checks


def chips_game(name: str) -> str:
    """The opening of every game here: two players, each with a pot the chips go to from the bag."""
    opening = f'game "{name}":\n  players 2..2\n'
    return opening + "zone bag\nzone pot per player\npiece chip: 40 per player in bag\n"


BASE = (
    chips_game("Halves")
    + """\
value half(n: int) = n // 2
  says "Half of it, rounded down."
value bonus_size(p: player) = half(count(pieces(p.pot))) + 1
rule gain(p: player):
  says "Take half your chips again, rounded down."
  repeat half(count(pieces(p.pot))) + 1 times:
    move 1 chip of p from bag to p.pot
rule bonus(p: player):
  called "Bonus chips"
  says "Take a bonus of half your chips, rounded down, and one more."
  repeat bonus_size(p) times:
    move 1 chip of p from bag to p.pot
rule rest(p: player):
  says "Take one chip."
  move 1 chip of p from bag to p.pot
play:
  says "Two rounds: in each, every player gains, takes a bonus and rests."
  repeat 2 times:
    phase round:
      text "Gain, then the bonus, then rest."
      for each p in players:
        turn p:
          gain(p)
          bonus(p)
          rest(p)
score p = count(pieces(p.pot))
"""
)
HEADER = 'variant "Rounding up" of "base.rules":\n  says "Halves are rounded up."\n'
UP = "replace value half(n: int) = (n + 1) // 2\n"


def variant(tmp_path: Path, body: str, base: str = BASE) -> Path:
    (tmp_path / "base.rules").write_text(base)
    path = tmp_path / "variant.rules"
    path.write_text(HEADER + body)
    return path


def stale_texts(path: Path) -> list[Diagnostic]:
    checked = meeple.check(path)
    assert checked.ok, checked.diagnostics
    report = run_checks(checked, str(path), CheckOptions())
    return [d for d in report.diagnostics if d.code == "M094"]


def warned_lines(path: Path) -> list[str]:
    """The base file's lines each warning stands at, stripped."""
    source = (path.parent / "base.rules").read_text().split("\n")
    return [source[d.line - 1].strip() for d in stale_texts(path)]


def errors(path: Path) -> list[Diagnostic]:
    return [d for d in meeple.check(path).diagnostics if d.severity == "error"]


def books(path: Path) -> tuple[str, str, str]:
    """The variant's rulebook (its changes), its whole book (`--full`) and its aid, as Markdown."""
    checked = meeple.check(path)
    assert checked.ok and checked.module and checked.symbols and checked.program, checked.diagnostics
    changes = render.game_docs(path, checked.module, checked.symbols, checked.program.constants, False)
    full = render.game_docs(path, checked.module, checked.symbols, checked.program.constants, True)
    return render.rulebook_markdown(changes), render.rulebook_markdown(full), render.aid_markdown(changes)


def reference(path: Path) -> str:
    checked = meeple.check(path)
    assert checked.ok and checked.module and checked.symbols and checked.program, checked.diagnostics
    docs = render.game_docs(path, checked.module, checked.symbols, checked.program.constants, True)
    return render.reference_markdown(docs, "flow.svg")


# ===================================================================== the warning


def test_a_text_whose_rule_reads_a_replaced_value_warns_at_the_text(tmp_path: Path) -> None:
    path = variant(tmp_path, UP)
    (gain,) = [d for d in stale_texts(path) if d.line == 10]
    assert Path(gain.file).name == "base.rules" and gain.column == 3
    assert warned_lines(path)[0] == 'says "Take half your chips again, rounded down."'
    assert gain.severity == "warning" and "'half'" in gain.message and "replaces" in gain.message
    assert "reword rule gain:" in gain.hint


def test_a_value_read_through_another_value_warns_and_says_through_which(tmp_path: Path) -> None:
    """The bonus reads `bonus_size`, which reads the replaced `half`: its words describe it."""
    path = variant(tmp_path, UP)
    (bonus,) = [d for d, line in zip(stale_texts(path), warned_lines(path), strict=True) if "bonus" in line]
    assert "'half' (read through 'bonus_size')" in bonus.message


def test_the_replacements_own_words_do_not_make_the_base_texts_true(tmp_path: Path) -> None:
    """Before, a replacement with words of its own silenced every base text about it; the base
    words are still printed beside them, in the whole book and the aid. The flow's words describe
    the rules it calls, not what those rules read."""
    path = variant(tmp_path, UP + '  says "Half of it, rounded up."\n')
    assert warned_lines(path) == [
        'says "Take half your chips again, rounded down."',
        'says "Take a bonus of half your chips, rounded down, and one more."',
    ]


def test_a_removed_rule_warns_at_the_texts_that_call_it(tmp_path: Path) -> None:
    body = (
        "remove rule rest\n"
        "replace phase round:\n  for each p in players:\n    turn p:\n      gain(p)\n      bonus(p)\n"
    )
    path = variant(tmp_path, body)
    assert warned_lines(path) == ['says "Two rounds: in each, every player gains, takes a bonus and rests."']
    assert "which the variant removes" in stale_texts(path)[0].message
    assert "reword play:" in stale_texts(path)[0].hint


def test_a_text_about_nothing_the_variant_changed_is_silent(tmp_path: Path) -> None:
    path = variant(
        tmp_path,
        'replace rule rest(p: player):\n  says "Take two chips."\n  move 2 chip of p from bag to p.pot\n',
    )
    assert "Take one chip." not in " ".join(warned_lines(path))
    assert "Take half" not in " ".join(warned_lines(path))


# ===================================================================== reword: new words


REWORDED = (
    UP
    + 'reword rule gain:\n  says "Take half your chips again, rounded up."\n'
    + 'reword rule bonus:\n  says "Take a bonus of half your chips, rounded up, and one more."\n'
    + 'reword play:\n  says "Two rounds: every player gains, takes a bonus rounded up, and rests."\n'
    + 'reword phase round:\n  text "Gain, then the bonus, then rest: halves rounded up."\n'
)


def test_reworded_texts_are_not_warned_about(tmp_path: Path) -> None:
    assert stale_texts(variant(tmp_path, REWORDED)) == []


def test_a_reworded_text_prints_the_variants_words_in_every_book(tmp_path: Path) -> None:
    changes, full, aid = books(variant(tmp_path, REWORDED))
    told = changes.split("## Changes from the base game", 1)[1]
    assert "Take half your chips again, rounded up." in told
    assert "### Bonus chips\nTake a bonus of half your chips, rounded up, and one more." in told
    for book in (full, aid):
        assert "rounded up, and one more" in book and "Take half your chips again, rounded up." in book
        assert "rounded down, and one more" not in book and "again, rounded down" not in book
    assert "halves rounded up" in full and "Gain, then the bonus, then rest." not in full


def test_a_reword_keeps_the_passages_place_and_its_steps(tmp_path: Path) -> None:
    """The new words stand where the base game's stood, and the game plays as it does unworded."""
    checked = meeple.check(variant(tmp_path, REWORDED))
    assert checked.module is not None
    gain = next(d for d in checked.module.decls if getattr(d, "name", None) == "gain")
    assert [m.value for m in gain.meta] == ["Take half your chips again, rounded up."]
    assert isinstance(gain.body[0], ast.Meta) and isinstance(gain.body[1], ast.Repeat)
    reworded = meeple.load(tmp_path / "variant.rules").new_game(2).scores
    assert reworded == meeple.load(variant(tmp_path, UP)).new_game(2).scores


TWO_PHASES = (
    chips_game("Two phases")
    + """\
rule take(p: player):
  says "Take one chip."
  move 1 chip of p from bag to p.pot
play:
  repeat 2 times:
    phase first:
      text "Everyone takes a chip."
      for each p in players:
        take(p)
    phase second:
      text "Everyone takes a chip again."
      for each p in players:
        take(p)
score p = count(pieces(p.pot))
"""
)


def test_a_reworded_phase_is_told_among_the_changes_in_the_order_the_game_plays_it(tmp_path: Path) -> None:
    """A player reads the changes in the game's order: a solo book told its replaced phases 2
    and 3, then the reworded phases 1 and 4 after them all."""
    body = (
        "replace phase second:\n"
        '  text "NEW-SECOND: everyone takes two chips."\n'
        "  for each p in players:\n"
        "    take(p)\n"
        "    take(p)\n"
        'reword phase first:\n  text "NEW-FIRST: everyone takes a chip, the first of three."\n'
    )
    changes, _, _ = books(variant(tmp_path, body, TWO_PHASES))
    told = changes.split("## Changes from the base game", 1)[1]
    assert 0 <= told.index("NEW-FIRST") < told.index("NEW-SECOND"), told
    assert told.count("NEW-FIRST") == 1, told


STEPPED = TWO_PHASES.replace(
    "      for each p in players:\n        take(p)\nscore",
    "      step again:\n        for each p in players:\n          take(p)\nscore",
)


def test_a_phase_replaced_only_to_word_it_anew_is_not_among_the_changes_but_what_is_added_to_it_is(
    tmp_path: Path,
) -> None:
    """A variant's rulebook says what changes from the base game (issue 25): the solo book
    printed three phases, five setup steps and a rule it replaced with the base game's statements,
    only to tell them to one player ("you" for "each player"), as if the solo game changed them.
    A rule, phase or step replaced with the base game's own statements is printed among the
    changes only where a player needs it: where its words give a number the base game's do not,
    or to place what the variant adds to it (told as added to it, by its name). `--full` prints
    the new words."""
    body = (
        "replace phase first:\n"
        '  called "First phase"\n'
        '  says "ALONE-FIRST: you take a chip."\n'
        "  for each p in players:\n"
        "    take(p)\n"
        "replace phase second:\n"
        '  called "Second phase"\n'
        '  says "ALONE-SECOND: you take a chip again."\n'
        "  step again:\n"
        "    for each p in players:\n"
        "      take(p)\n"
        "replace rule take(p: player):\n"
        '  says "ALONE-TAKE: you take one chip."\n'
        "  move 1 chip of p from bag to p.pot\n"
        "insert after step again:\n"
        '  says "ADDED: then put a chip back."\n'
        "  for each p in players:\n"
        "    move 1 chip of p from p.pot to bag\n"
    )
    changes, full, _ = books(variant(tmp_path, body, STEPPED))
    told = changes.split("## Changes from the base game", 1)[1]
    assert "ALONE-FIRST" not in told and "ALONE-SECOND" not in told and "ALONE-TAKE" not in told, told
    assert "### Second phase\nADDED: then put a chip back." in told, told
    assert "ALONE-FIRST" in full and "ALONE-SECOND" in full and "ALONE-TAKE" in full

    counted = body.replace("you take a chip again.", "you take 1 chip again, of 2.")
    changes, _, _ = books(variant(tmp_path, counted, STEPPED))
    assert "ALONE-SECOND: you take 1 chip again, of 2." in changes  # other numbers: a player must read it
    played = body.replace("    take(p)\n", "    take(p)\n    take(p)\n", 1)
    changes, _, _ = books(variant(tmp_path, played, STEPPED))
    assert "ALONE-FIRST" in changes  # it plays otherwise: a change
    reads = body.replace("  move 1 chip of p from bag to p.pot\n", "  move 2 chip of p from bag to p.pot\n")
    changes, _, _ = books(variant(tmp_path, reads, STEPPED))
    assert "ALONE-FIRST" in changes and "ALONE-TAKE" in changes  # the rule it calls plays otherwise


def test_a_reworded_step_in_a_phase_the_variant_words_anew_is_told_once(tmp_path: Path) -> None:
    """The solo book printed its Next Round Preparation phase's new words, which tell every step,
    then one of its steps' new words again after them. A step reworded inside a phase whose own
    new `says` stands for its steps is told by the phase."""
    body = (
        'reword phase second:\n  says "NEW-SECOND: everyone takes a chip, and it is the last."\n'
        'reword step again:\n  text "NEW-AGAIN: the last chip."\n'
    )
    worded = STEPPED.replace("      step again:\n", '      step again:\n        text "Take again."\n')
    changes, _, _ = books(variant(tmp_path, body, worded))
    told = changes.split("## Changes from the base game", 1)[1]
    assert "NEW-SECOND" in told and "NEW-AGAIN" not in told, told
    alone = books(variant(tmp_path, 'reword step again:\n  text "NEW-AGAIN: the last chip."\n', worded))[0]
    assert "NEW-AGAIN" in alone  # in a phase the variant leaves worded as it was: told


# ===================================================================== holds: the base words still hold


def test_a_text_marked_as_holding_is_silent_and_its_reason_printed_in_no_players_book(tmp_path: Path) -> None:
    path = variant(tmp_path, UP + 'reword rule gain:\n  holds "REASON-GAIN: every pile is even"\n')
    assert warned_lines(path) == ['says "Take a bonus of half your chips, rounded down, and one more."']
    changes, full, aid = books(path)
    assert all("REASON-GAIN" not in book for book in (changes, full, aid))
    assert "Take half your chips again, rounded down." in full  # the base words, kept
    assert "**Still holds:** REASON-GAIN: every pile is even" in reference(path)  # the designer's


def test_holds_on_the_replacing_declaration_vouches_for_every_text_about_it(tmp_path: Path) -> None:
    path = variant(tmp_path, UP + '  holds "REASON-VALUE: the variant is never played with odd piles"\n')
    assert stale_texts(path) == []
    assert all("REASON-VALUE" not in book for book in books(path))


# ===================================================================== mistakes: refused, nothing changed


@pytest.mark.parametrize(
    ("body", "message", "hint"),
    [
        (
            'reword rule gian:\n  says "x"\n',
            "the base game has no rule 'gian' to reword",
            "did you mean 'gain'?",
        ),
        ('reword step round:\n  says "x"\n', "the base game has no step 'round' to reword", ""),
        ('reword rule gain:\n  cites "x"\n', "this reword gives 'rule gain' no words", "holds"),
        (
            'reword rule gain:\n  says "x"\n  holds "y"\n',
            "a reword gives new words or says that the base game's still hold, not both",
            "",
        ),
        (
            'reword value bonus_size:\n  holds "y"\n',
            "the base game's 'value bonus_size' has no `says` or `text`",
            "",
        ),
        (
            UP + 'reword value half:\n  says "x"\n',
            "'value half' is this variant's own: give it its words where it is written",
            "",
        ),
    ],
)
def test_a_reword_that_would_change_no_word_is_refused_at_its_line(
    tmp_path: Path, body: str, message: str, hint: str
) -> None:
    (found,) = errors(variant(tmp_path, body))
    assert (Path(found.file).name, found.code) == ("variant.rules", "M090")
    assert found.message.startswith(message) and hint in found.hint


def test_holds_outside_a_reword_or_a_replacement_is_refused(tmp_path: Path) -> None:
    (tmp_path / "alone.rules").write_text(BASE.replace('  says "Take one chip."\n', '  holds "why"\n'))
    (found,) = errors(tmp_path / "alone.rules")
    assert (found.code, found.line, found.column) == ("M090", 19, 3)
    assert "vouches for nothing" in found.message
    path = variant(tmp_path, 'replace constant never = 1\n  holds "why"\n'.replace("replace ", ""))
    (found,) = errors(path)
    assert (Path(found.file).name, found.line, found.code) == ("variant.rules", 4, "M090")


def test_a_text_no_reword_can_name_is_told_where_its_holds_goes(tmp_path: Path) -> None:
    """A trigger has no name: its stale words are answered by a `holds` in the replacement."""
    base = (
        BASE
        + 'when chip c enters pot:\n  text "Every chip halves, rounded down."\n'
        + '  if half(2) == 1:\n    log "halved"\n'
    )
    (warning,) = [d for d in stale_texts(variant(tmp_path, UP, base)) if d.line == 33]
    assert "reword" not in warning.hint.split("(")[0] and "`holds" in warning.hint
    assert stale_texts(variant(tmp_path, UP + '  holds "every pile is even"\n', base)) == []


def test_a_reworded_phase_says_what_it_does_in_place_of_its_steps(tmp_path: Path) -> None:
    """A phase's `says` stands for its steps; the `says` a variant's `reword` gives it does too
    (issue 25): Dino Garden's solo aid printed its reworded preparation phase and, under it, the
    phase's steps in generated English ("For each Wasteland spot where ...")."""
    turns = "      for each p in players:\n        turn p:\n"
    turns += "          gain(p)\n          bonus(p)\n          rest(p)\n"
    assert turns in BASE
    stepped = "      step turns:\n" + "".join(f"  {line}\n" for line in turns.splitlines())
    base = BASE.replace(turns, stepped).replace('text "Gain, then', 'says "Gain, then')
    path = variant(
        tmp_path, UP + 'reword phase round:\n  says "Gain, the bonus and rest, rounded up."\n', base
    )
    _, full, aid = books(path)
    for book in (full, aid):
        told = book.split("Gain, the bonus and rest, rounded up.", 1)
        assert len(told) == 2, book
        assert "turns" not in told[1].split("##", 1)[0].lower(), told[1]
