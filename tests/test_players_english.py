"""Generated English reads as English where a rule has no `says` (issue 25, section 1).

A designer's small card game printed "The player chooses an one of targets of the player", "an
other card of every third card of card where the third card is not Guard", "If has of the one and
the other card" and empty "Otherwise:" bullets. This neutral card game has each construct that
produced them; the tests read its printed rules. A prompt that holds a `{...}` would be printed
with its braces: it is refused where it is written (M028).
"""

from __future__ import annotations

from pathlib import Path

import meeple
from meeple.codegen import render
from meeple.codegen.markup import plain

CARDS = """\
game "Court Cards":
  players 2..4

table card (name, called, power: int "Power"):
  says "The cards and their power."
  guard, "Guard", 1
  priest, "Priest", 2
  baron, "Baron", 3

zone deck
zone hand per player
piece court_card: 3 per card in deck
var points: int = 0 per player

value targets(p: player) = [each q in players where q != p]
value holds(p: player, c: card) = any([x.row == c for each x in pieces(p.hand)])
value beats(a: card, b: card) = a.power > b.power

rule guess(p: player):
  choose t from targets(p) by p:
    choose c from [each c in card where c != guard] by p:
      choose d from [each d in card where d != c and d != guard] by p:
        if holds(t, c):
          add 1 to p.points
        elif beats(c, d):
          add 2 to p.points
        else:
          log "{p} guessed wrong"

setup:
  shuffle deck
  for each p in players:
    draw 2 from deck to p.hand

play:
  repeat 2 times:
    for each p in players:
      turn p:
        guess(p)

score p = p.points
"""


def lines(tmp_path: Path, source: str = CARDS) -> list[str]:
    path = tmp_path / "cards.rules"
    path.write_text(source)
    checked = meeple.check(path)
    assert checked.ok and checked.module and checked.symbols and checked.program, checked.diagnostics
    game = render.game_docs(path, checked.module, checked.symbols, checked.program.constants)
    (guess,) = [p for p in game.book.rules if p.title.lower() == "guess"]
    out: list[str] = []

    def walk(items: list) -> None:  # type: ignore[type-arg]
        for line in items:
            out.append(plain(line.flat()) if not line.children else plain(line.text))
            walk(line.children)

    walk(guess.steps)
    return out


def test_a_choice_among_a_values_things_is_one_of_them_said_with_a_possessive(tmp_path: Path) -> None:
    """Not "chooses an one of targets of the player" nor "another player of the targets of the
    player": one of the things the value names, its owner said as a possessive; a value called
    by what each of its things is ("Target") is named in the plural."""
    assert lines(tmp_path)[0] == "The player chooses another of the player's targets:"
    called = CARDS.replace(
        "value targets(p: player) = [each q in players where q != p]\n",
        'value targets(p: player) = [each q in players where q != p]\n  called "Target"\n',
    )
    assert lines(tmp_path, called)[0] == "The player chooses another of the player's Targets:"


def test_a_score_without_words_prints_its_generated_sentence_under_its_heading(tmp_path: Path) -> None:
    """A `score` with no `says` printed a "Scoring" heading with nothing under it."""
    path = tmp_path / "cards.rules"
    path.write_text(CARDS)
    checked = meeple.check(path)
    assert checked.module and checked.symbols and checked.program
    game = render.game_docs(path, checked.module, checked.symbols, checked.program.constants)
    (scoring,) = game.book.scoring
    assert scoring.title == "Scoring"
    assert [plain(line.text) for line in scoring.steps] == ["The player's score is the player's points."]


def test_a_choice_from_a_whole_table_names_the_kind_once(tmp_path: Path) -> None:
    """Not "a card of card" nor "an other card of every third card of card where the third card"."""
    said = lines(tmp_path)
    assert said[1] == "The player chooses a card where the card is not Guard:"
    assert said[2] == (
        "The player chooses another card where the other card is not the card and the other card "
        "is not Guard:"
    )


def test_a_yes_no_value_named_by_a_verb_reads_as_a_sentence(tmp_path: Path) -> None:
    """Not "If has of the one and the other card": "if the other player holds the card"."""
    said = lines(tmp_path)
    assert "If the other player holds the card:" in said
    assert "Otherwise, if the card beats the other card:" in said


def test_an_otherwise_with_nothing_a_player_does_prints_no_empty_bullet(tmp_path: Path) -> None:
    """The `else` only logs: a player reads no "Otherwise:" with nothing under it."""
    assert "Otherwise:" not in lines(tmp_path)
    told = lines(tmp_path, CARDS.replace('log "{p} guessed wrong"', "add 3 to p.points"))
    assert "Otherwise:" in told


def test_a_prompt_that_shows_a_value_is_refused_where_it_is_written(tmp_path: Path) -> None:
    for asked in ('choose t from targets(p) by p prompt "Whom, {p}?":', 'may "Guess, {p}?" by p:'):
        source = CARDS.replace("  choose t from targets(p) by p:", "  " + asked)
        if asked.startswith("may"):
            source = source.replace(
                "  " + asked, "  " + asked + '\n    log "asked"\n  choose t from targets(p) by p:'
            )
        path = tmp_path / "prompt.rules"
        path.write_text(source)
        (error,) = [d for d in meeple.check(path).diagnostics if d.code == "M028"]
        assert error.severity == "error" and "'{p}'" in error.message
        assert source.splitlines()[error.line - 1].strip() == asked
        assert error.column == 3
