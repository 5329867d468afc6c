"""Names players read, and the rules in players' words (interpreter/names.py, codegen/players.py).

A declaration, a phase or a step is named by `called "Name", "Plural"`; a table names its rows in
a `called` column. The players' voice speaks a rule with those names, its bound things as "the
player", "the zone" (or "the other zone"), numbers as values, and never a name from the file, a
letter, a type or a log line.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from helpers import only

import meeple
from meeple.codegen.markup import plain
from meeple.codegen.players import PlayersEnglish
from meeple.interpreter.checks import CheckOptions, run_checks
from meeple.interpreter.names import Name, Names, plural, with_article

GAME = """game "Names":
  players 2..4

zone bag
  called "bag"
zone hand per player
piece owner_token: 2 per player in bag
  called "Owner token"
piece die: 3 in bag
  called "die", "dice"
constant handful = 2

table terrain (name, called, bonus: int):
  plains, "Plains", 1
  magic_caves, "Magic Caves", 2

rule take(p: player):
  for each t in terrain:
    move handful owner_token of p from bag to p.hand
    log "{p} takes two"

play:
  phase round:
    called "Round of play"
    for each p in players:
      take(p)
"""


def game(tmp_path: Path, source: str = GAME) -> meeple.Game:
    path = tmp_path / "names.rules"
    path.write_text(source, encoding="utf-8")
    return meeple.load(path)


def test_plurals_follow_english_rules_on_the_last_word() -> None:
    assert [plural(w) for w in ("Dino", "meat token", "family", "box", "match", "day")] == [
        "Dinos",
        "meat tokens",
        "families",
        "boxes",
        "matches",
        "days",
    ]
    assert Name.of("die", "dice").count(3) == "3 dice" and Name.of("Dino").count(1) == "1 Dino"


def test_called_names_declarations_rows_and_blocks(tmp_path: Path) -> None:
    symbols = game(tmp_path).program.symbols
    names = Names(symbols)
    assert names.decl("owner_token") == Name("Owner token", "Owner tokens")
    assert names.decl("die").many == "dice"
    assert names.decl("hand").one == "hand"  # not named: its name in words
    assert names.key("magic_caves").one == "Magic Caves"
    assert names.row("terrain", "plains").one == "Plains"
    (round_,) = [s for s in symbols.play.body if type(s).__name__ == "Named"]  # type: ignore[union-attr]
    assert names.block(round_).one == "Round of play"  # type: ignore[arg-type]


def test_a_rule_in_players_words_has_no_name_from_the_file_no_letter_and_no_log(tmp_path: Path) -> None:
    symbols = game(tmp_path).program.symbols
    en = PlayersEnglish(symbols, {"handful": 2})
    lines = en.rule_lines(symbols.rules["take"])

    def flat(ls: list) -> list[str]:
        return [plain(x.text) for x in ls] + [t for x in ls for t in flat(x.children)]

    words = flat(lines)
    assert words[1] == "Move 2 Owner tokens of the player from the bag to the player's hand."
    text = " ".join(words)
    assert "_" not in text and "takes two" not in text and not re.search(r"\b[pt]\b", text)


def test_two_things_of_one_kind_are_the_one_and_the_other(tmp_path: Path) -> None:
    source = GAME.replace(
        '    log "{p} takes two"\n',
        "    for each q in players:\n      move 1 owner_token of q from bag to p.hand\n",
    )
    symbols = game(tmp_path, source).program.symbols
    lines = PlayersEnglish(symbols, {"handful": 2}).rule_lines(symbols.rules["take"])
    words = plain(lines[0].flat())
    assert "Owner token of the other player from the bag to the player's hand" in words


@pytest.mark.parametrize(
    ("where", "words"),
    [
        ('rule r():\n  if yes:\n    called "Nothing"\n    log "x"\n', "names nothing"),
        ('zone attic\n  called "the attic"\n  called "the loft"\n', "a second name"),
        ("table t (name, called):\n  a, b\n", "quoted text"),
    ],
)
def test_a_called_that_names_nothing_is_M056(tmp_path: Path, where: str, words: str) -> None:
    path = tmp_path / "m056.rules"
    path.write_text(GAME + "\n" + where, encoding="utf-8")
    report = run_checks(meeple.check(path), str(path), CheckOptions())
    assert words in only(report, "M056").message


def test_a_trigger_is_titled_by_its_called_line(tmp_path: Path) -> None:
    from meeple.codegen.rulebook import rulebook

    source = GAME + 'when die d enters z where z == bag:\n  called "A die falls back"\n  log "back"\n'
    program = game(tmp_path, source).program
    book = rulebook(tmp_path / "names.rules", program.symbols.module, program.symbols, program.constants)
    assert [p.title for p in book.whenever] == ["A die falls back"]


def test_a_name_takes_an_before_a_vowel_in_the_printed_rules_and_the_log_alike(tmp_path: Path) -> None:
    """One rule for "a" and "an" (`names.article`), read by the engine's log and the rulebook: a
    trigger with no `called` line is titled with its kind's name and that name's article."""
    from meeple.codegen.rulebook import rulebook

    source = GAME + 'when owner_token t enters z where z == bag:\n  log "back"\n'
    program = game(tmp_path, source).program
    book = rulebook(tmp_path / "names.rules", program.symbols.module, program.symbols, program.constants)
    assert [p.title for p in book.whenever] == ["Whenever an Owner token arrives somewhere"]
    assert [with_article(w) for w in ("event", "die", "Island")] == ["an event", "a die", "an Island"]
