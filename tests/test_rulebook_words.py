"""The rulebook's own words and structure, as an outside reader found them (issue 25).

What the generator writes around the author's words: which books a variant's reader holds, where
a phase told only in the flow's outline is found, what an example's heading says, and the
repeats the generator made (a number said twice, a whole paragraph printed again to add a
clause, a heading no player reads). Each test writes a small neutral game, or reads the neutral
chain of variants in tests/games/ (Tic-Tac-Toe, without diagonals, and with draws scoring)."""

from __future__ import annotations

from pathlib import Path

import meeple
from meeple.codegen import render

GAMES = Path(__file__).parent / "games"


def docs(path: Path, full: bool = False) -> render.GameDocs:
    checked = meeple.check(path)
    assert checked.ok and checked.module and checked.symbols and checked.program, checked.diagnostics
    return render.game_docs(path, checked.module, checked.symbols, checked.program.constants, full)


def book(path: Path, full: bool = False) -> str:
    return render.rulebook_markdown(docs(path, full))


def write(folder: Path, name: str, source: str) -> Path:
    path = folder / name
    path.write_text(source)
    return path


# ===================================================================== a variant of a variant


def test_a_variant_of_a_variant_prints_its_changes_from_the_base_game_its_parents_among_them() -> None:
    """Dino Dynasty's Campaign is a variant of the Dynasty game, itself a variant of Dino Dynasty:
    its book said "a variant of Dino Dynasty: Dynasty game" under "Changes from the base game",
    and a player needed three books (five for the Campaign in teams). A variant's book tells its
    changes from the game at the root, its parents' folded in: a player holds that game's book
    and this one."""
    told = book(GAMES / "tic_tac_toe_draws_score.rules")
    changes = told[told.index("## Changes from the base game") :]
    assert "This is a variant of Tic-Tac-Toe:" in changes
    assert "these changes take in those of Tic-Tac-Toe without diagonals." in changes
    # the parent's words (its header) and its change (a value it replaced without words)
    assert "### Tic-Tac-Toe without diagonals\nOnly rows and columns count" in changes
    assert "### Three" in changes
    assert "A win scores 2 points; in a drawn game each player scores 1." in changes  # its own


def test_a_variant_of_the_base_game_names_no_book_between() -> None:
    told = book(GAMES / "tic_tac_toe_no_diagonals.rules")
    assert "This is a variant of Tic-Tac-Toe:" in told and "take in those of" not in told
    assert "### Tic-Tac-Toe without diagonals" not in told


# ===================================================================== examples

COINS = """\
game "Coins":
  players 2..4
  text "Take coins; the richest wins."
zone bag
zone purse per player
piece coin: 5 per player in bag
constant start = 2
  says "Each player starts the game with 2 coins in their purse."
  cites "two coins"
constant most = 9
  says "A purse holds no more than this."
  cites "nine coins"
rule take(p: player):
  text "Take a coin from the bag."
  move 1 coin of p from bag to p.purse
play:
  phase taking:
    called "Taking phase"
    says "Each player in turn takes a coin from the bag into their purse."
    for each p in players:
      turn p:
        take(p)
score p = count(pieces(p.purse))
  says "The player with the most coins wins."
example "A coin taken":
  says "You take one coin: your purse holds 1."
  players 3
  do:
    take(players[0])
  expect:
    count(pieces(players[0].purse)) == 1
"""


def test_an_example_is_not_tagged_with_a_player_count_its_words_do_not_need(tmp_path: Path) -> None:
    """Every example was tagged "2 players", "3 players", "5 players", which told a player
    nothing: an example's words say the count where it matters."""
    game = docs(write(tmp_path, "coins.rules", COINS))
    outputs = [render.rulebook_markdown(game), render.rulebook_html(game), render.rulebook_typst(game).source]
    for out in outputs:
        assert "You take one coin" in out
        assert "3 players" not in out


# ===================================================================== phases told only in the outline


def test_a_phase_whose_words_tell_a_rule_is_printed_among_the_rules_and_named_in_the_outline(
    tmp_path: Path,
) -> None:
    """Dino Garden's Predator, Producer and Next Round Preparation phases were told only inside
    the nested "How to play" outline, four levels deep, because their `says` stand for rules the
    book prints nowhere else: a player looking for a phase under the rules found nothing. Such a
    phase is a section of the rules, and the outline names it with a link there."""
    told = book(write(tmp_path, "coins.rules", COINS))
    outline = told[told.index("## How to play") : told.index("## The rules")]
    rules = told[told.index("## The rules") : told.index("## Scoring")]
    assert "[Taking phase](#phase-taking)." in outline
    assert "Each player in turn takes" not in outline
    assert '<a id="phase-taking"></a>\n### Taking phase\nEach player in turn takes a coin' in rules


def test_the_aid_keeps_such_a_phase_in_its_flow_and_does_not_list_it_again(tmp_path: Path) -> None:
    aid = docs(write(tmp_path, "coins.rules", COINS)).aid
    assert "Each player in turn takes a coin" in " ".join(line.flat() for line in aid.flow)
    assert all("Taking phase" not in title for title, _ in aid.actions)


# ===================================================================== repeats


def test_a_number_whose_words_state_it_is_not_said_twice(tmp_path: Path) -> None:
    """The Numbers list printed "Starting funds: 2. Every player starts the game with 2 funds."
    A number whose words state it prints its words alone; one whose words do not, its value."""
    told = book(write(tmp_path, "coins.rules", COINS))
    assert "- **Start**: Each player starts the game with 2 coins in their purse." in told
    assert "- **Most**: 9. A purse holds no more than this." in told


BASE = """\
game "Base":
  players 2..2
zone bag
zone pot per player
piece chip: 20 per player in bag
rule gain(p: player):
  says "Take a chip."
  move 1 chip of p from bag to p.pot
play:
  repeat 2 times:
    phase round:
      called "Round"
      step turns:
        called "Turns"
        says "Each player takes a turn. On your turn, take a chip (see Gain)."
        for each p in players:
          turn p:
            gain(p)
      step tidy:
        called "Tidying"
        says "Nothing is tidied."
        log "tidy"
score p = count(pieces(p.pot))
  says "The player with the most chips wins."
"""


def variant(tmp_path: Path, body: str) -> Path:
    write(tmp_path, "base.rules", BASE)
    return write(tmp_path, "variant.rules", 'variant "Changed" of "base.rules":\n  players 2..2\n' + body)


def test_a_replaced_step_prints_only_the_sentences_it_adds_to_the_base_books(tmp_path: Path) -> None:
    """The two-player book's "Turns" repeated the base game's turn paragraph word for word to add
    one clause: the reader holds the base book, so a replacement prints what it adds."""
    body = """\
replace step turns:
  called "Turns"
  says "Each player takes a turn. The second player takes a chip first. On your turn, take a chip (see Gain)."
  move 1 chip of players[1] from bag to players[1].pot
  for each p in players:
    turn p:
      gain(p)
"""
    told = book(variant(tmp_path, body))
    assert "### Turns\nPlayed as in the base game. The second player takes a chip first.\n" in told
    assert "Each player takes a turn" in book(variant(tmp_path, body), full=True)  # the whole game's book


def test_what_a_variant_inserts_is_headed_by_where_it_goes(tmp_path: Path) -> None:
    """The solo book's headings "Added to Each round" were no heading a player reads: an insert
    is headed by the phase or step it comes before, or after."""
    body = """\
insert before step tidy:
  says "Count your chips."
  log "count"
insert after step tidy:
  says "Wash your hands."
  log "wash"
"""
    told = book(variant(tmp_path, body))
    assert "### Round, before Tidying\nCount your chips." in told
    assert "### Round, after Tidying\nWash your hands." in told
    assert "Added to" not in told


def test_what_a_variant_inserts_is_headed_as_a_printed_rulebook_says_where_it_goes(tmp_path: Path) -> None:
    """The solo book's headings "Each round, before 1. Action phase" and "Also in Game end and
    final scoring" read as a designer's notes (issue 25): before a phase, its name alone, without
    its number and with its article ("Before the Action phase"); before a step, the block and the
    step; an insert with no phase or step with words beside it is headed by its block alone."""
    base = BASE.replace('called "Round"', 'called "1. Action phase"')
    write(tmp_path, "base.rules", base.replace('        says "Nothing is tidied."\n', ""))
    body = """\
insert before phase round:
  says "Shuffle the bag."
  log "shuffle"
insert before step turns:
  says "Count your chips."
  log "count"
insert after step tidy:
  says "Wash your hands."
  log "wash"
"""
    header = 'variant "Changed" of "base.rules":\n  players 2..2\n'
    told = book(write(tmp_path, "variant.rules", header + body))
    assert "### Before the Action phase\nShuffle the bag." in told
    assert "### 1. Action phase, before Turns\nCount your chips." in told
    assert "### 1. Action phase\nWash your hands." in told
    assert "Also in" not in told


def test_a_score_told_anew_in_other_words_is_no_change_but_prints_in_the_whole_book(tmp_path: Path) -> None:
    """A solo variant tells the score to its one player ("you") without changing it: its book of
    changes does not print it again (the base book has it), its whole book does."""
    body = 'replace score p = count(pieces(p.pot))\n  says "You score your chips."\n'
    assert "You score your chips" not in book(variant(tmp_path, body))
    assert "You score your chips" in book(variant(tmp_path, body), full=True)
    changed = 'replace score p = 2 * count(pieces(p.pot))\n  says "Each chip scores 2."\n'
    assert "Each chip scores 2" in book(variant(tmp_path, changed))


def test_a_replacement_of_a_parents_step_prints_the_sentences_the_parent_said_too(tmp_path: Path) -> None:
    """The reader of a variant of a variant holds the base game's book, not the parent's: a step
    the parent wrote and the child writes again prints whole (the Campaign in teams' Scenario end
    had lost what the Campaign's said of saving a tile)."""
    write(tmp_path, "base.rules", BASE)
    step = '  says "Nothing is tidied. {words}"\n  log "tidy"\n  log "{log}"\n'
    parent = 'variant "Parent" of "base.rules":\n  players 2..2\nreplace step tidy:\n' + step.format(
        words="Sweep.", log="a"
    )
    write(tmp_path, "parent.rules", parent)
    child = 'variant "Child" of "parent.rules":\n  players 2..2\nreplace step tidy:\n' + step.format(
        words="Sweep. Dust.", log="b"
    )
    told = book(write(tmp_path, "child.rules", child))
    assert "### Tidy\nNothing is tidied. Sweep. Dust.\n" in told
