"""The rulebook in the order a player needs it, and a player aid right for the game it is printed for.

A rulebook says what the game is, the components, setup, a turn, the actions, scoring and the
end; the tables a player looks things up in come at the back, with only the columns the author
headed for players, and a table too wide for the page is printed in parts (issue 25, section 1).
A variant's aid is the variant's game: it names no player count the variant does not allow, and
tells each rule once (section 2).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from helpers import counts_named

import meeple
from meeple.codegen import render
from meeple.codegen.rulebook import MOST_COLUMNS
from meeple.loader import bundled_games

GAMES = [path.stem for path in bundled_games()]

SHELF = """\
game "Small Things":
  players 2..3
  text "Take coins; the richest wins."

constant rounds = 3
zone bag, hidden
zone purse per player, private
piece coin: 5 per player in bag

table jar (name, called, size: int "Size", secret: bool, a: int "Red", b: int "Green", c: int "Blue", \\
  d: int "Grey", e: int "Pink", f: int "Gold", g: int "Jade"):
  says "The jars, each with its colours."
  small, "small jar", 1, no, 1, 2, 3, 4, 5, 6, 7
  large, "large jar", 3, yes, 2, 3, 4, 5, 6, 7, 8

value rich(p: player) = count(pieces(p.purse)) > 2
  called "rich player"
  says "A player with 3 coins or more in their purse."
value poor(p: player) = count(pieces(p.purse)) == 0
  called "poor player"
  text "Whether the purse is empty: the designer's note."

rule take(p: player):
  move 1 coin of p from bag to p.purse
  if rich(p):
    move 1 coin of p from bag to p.purse
    says "Give back a coin, and another unless you are poor."
    move 1 coin of p from p.purse to bag
    if not poor(p):
      move 1 coin of p from p.purse to bag

setup:
  says "Each player puts their coins in the bag."

play:
  repeat rounds times:
    for each p in players:
      turn p:
        take(p)

score p = count(pieces(p.purse)) + count([each j in jar where j.size > 1])
  says "The player with the most coins wins."
"""


def docs(tmp_path: Path, source: str = SHELF) -> render.GameDocs:
    path = tmp_path / "shelf.rules"
    path.write_text(source)
    checked = meeple.check(path)
    assert checked.ok and checked.module and checked.symbols and checked.program, checked.diagnostics
    return render.game_docs(path, checked.module, checked.symbols, checked.program.constants)


def game_docs(stem: str, full: bool = False) -> render.GameDocs:
    checked = meeple.check(stem)
    assert checked.module is not None and checked.symbols is not None and checked.program is not None
    return render.game_docs(checked.path, checked.module, checked.symbols, checked.program.constants, full)


def headings(markdown: str) -> list[str]:
    return re.findall(r"^#{2,3} (.+)$", markdown, flags=re.MULTILINE)


@pytest.mark.parametrize("stem", GAMES)
def test_no_reference_table_comes_before_setup_and_the_rules(stem: str) -> None:
    """Setup on the first pages: the tables of the components and the numbers come at the back,
    after scoring, the examples and the rulings (a variant's own rulebook prints no table; the
    game it makes, `--full`, is checked)."""
    game = game_docs(stem, full=True)
    book = game.book
    said = headings(render.rulebook_markdown(game))
    if book.sheets or book.numbers:
        reference = said.index("Reference")
        assert said.index("Scoring and the end of the game") < reference
        assert "Setup" not in said or said.index("Setup") < reference
        tables = [s.title[:1].upper() + s.title[1:] for s in book.sheets]
        assert all(said.index(title, reference) > reference for title in tables)
        assert "Numbers" not in said[:reference]


def test_a_kind_of_piece_with_none_in_the_box_is_not_listed_among_the_components(tmp_path: Path) -> None:
    """The components count what is in the box: a kind of piece of which there are none (a power
    printed on some boards, with no token of it in the bag) is not listed as "0 opals"."""
    source = SHELF.replace(
        "piece coin: 5 per player in bag\n",
        "piece coin: 5 per player in bag\n"
        'table gem (name, called, stock: int):\n  ruby, "ruby", 2\n  opal, "opal", 0\n'
        "piece stone: self.stock per gem in bag\n",
    )
    (stones,) = [c for c in docs(tmp_path, source).book.components if c.name == "stones"]
    assert stones.count == "2: 2 rubies"


def test_a_column_without_a_heading_of_its_own_does_not_print(tmp_path: Path) -> None:
    """A column the author heads is for players; one without a heading (a flag, a measure) is
    the machine's, and only the designer's reference shows it."""
    sheet = docs(tmp_path).book.sheets[0]
    assert sheet.columns[:2] == ["jar", "Size"] and "Secret" not in sheet.columns
    assert sheet.rows[0][:2] == ["small jar", "1"] and "no" not in sheet.rows[0]


@pytest.mark.parametrize(("colours", "printed"), [(("white", "red"), True), (("#ffffff", "#ff0000"), False)])
def test_a_colour_in_words_prints_and_a_pictures_colour_code_does_not(
    tmp_path: Path, colours: tuple[str, str], printed: bool
) -> None:
    """Which colour a player's pieces are is a component a player reads (Dino Dynasty's Dynasties,
    each in its colour, which its ruling on the Titanosauria's colour names); a "#rrggbb" code is
    only how the pictures fill a cell, and stays in the reference."""
    source = SHELF.replace('"Jade"):', '"Jade", colour: text "Colour"):').replace(
        "5, 6, 7\n", f'5, 6, 7, "{colours[0]}"\n'
    )
    source = source.replace("6, 7, 8\n", f'6, 7, 8, "{colours[1]}"\n')
    sheet = docs(tmp_path, source).book.sheets[0]
    assert ("Colour" in sheet.columns) == printed
    assert (colours[0] in sheet.rows[0]) == printed


def test_a_table_wider_than_the_page_is_printed_in_parts_each_with_the_rows_names(tmp_path: Path) -> None:
    sheet = docs(tmp_path).book.sheets[0]
    assert len(sheet.columns) > MOST_COLUMNS
    parts = sheet.parts()
    assert len(parts) == 2 and all(len(columns) <= MOST_COLUMNS for columns, _ in parts)
    assert all(columns[0] == "jar" and rows[1][0] == "large jar" for columns, rows in parts)
    assert [c for columns, _ in parts for c in columns[1:]] == sheet.columns[1:]  # every column once
    assert [c for _, rows in parts for c in rows[1][1:]] == sheet.rows[1][1:]


def test_a_value_that_says_what_it_is_is_in_the_glossary_and_one_with_only_a_text_is_not(
    tmp_path: Path,
) -> None:
    game = docs(tmp_path)
    assert game.book.terms == [("rich player", ["A player with 3 coins or more in their purse."])]
    text = render.rulebook_markdown(game)
    assert "## Glossary" in text and "**Rich player**: A player with 3 coins" in text
    assert "designer's note" not in text


def test_a_says_among_statements_stands_for_the_statements_after_it(tmp_path: Path) -> None:
    """As a rule's `says` stands for its steps: the statements after it are not told again, the
    ones before it are (a variant's `insert` or `extend` brings such a `says`)."""
    take = docs(tmp_path).book.rules[0]
    assert take.words == [] and len(take.steps) == 2
    told = [line.text for line in take.steps[1].children]
    assert told == [
        "Move a coin of the player from the bag to the player's purse.",
        "Give back a coin, and another unless you are poor.",
    ]


def test_the_glossary_and_the_reference_print_in_every_format(tmp_path: Path) -> None:
    game = docs(tmp_path)
    html = render.rulebook_html(game)
    assert html.index('id="glossary"') < html.index('id="reference"')
    assert html.count("<th>Jar</th>") == 2  # the wide table, in two parts
    typst = render.rulebook_typst(game).source
    assert typst.index("= Glossary") < typst.index("= Reference") and typst.count("[Jar], ") == 2


def _is_variant(stem: str) -> bool:
    """Whether a bundled game is a variant (its book has a base game), from its check alone: the
    parametrisation below runs when each test process collects this file, and rendering every
    game's docs for it cost both processes seconds of CPU for nothing."""
    module = meeple.check(stem).module
    return module is not None and module.base is not None


VARIANTS = [stem for stem in GAMES if _is_variant(stem)]


@pytest.mark.parametrize("stem", VARIANTS)
def test_a_variants_aid_never_names_a_player_count_it_does_not_allow(stem: str) -> None:
    """Dino Garden's two-player aid said "For 3 or 4 players" and "3 rounds with 3 players and 4
    rounds with 4": the variant's game is the one on the table."""
    checked = meeple.check(stem)
    header = checked.symbols.header if checked.symbols else None
    assert header is not None
    allowed = set(range(header.min_players, header.max_players + 1))
    aid = render.aid_markdown(game_docs(stem))
    assert counts_named(aid) <= allowed, stem


def test_the_player_counts_a_text_names_are_read_as_players_write_them() -> None:
    assert counts_named("For 3 or 4 players; 3 rounds with 3 players, as in a 5-player game.") == {3, 4, 5}
    assert counts_named("without the 3-4 player mark, above the two players' tokens") == set()


@pytest.mark.parametrize("stem", VARIANTS)
def test_a_variants_aid_opens_with_the_variants_own_words(stem: str) -> None:
    """What the variant changes, in its own words, heads its aid: how long it lasts among them."""
    game = game_docs(stem)
    assert game.aid.goal == game.book.overview


@pytest.mark.parametrize("stem", GAMES)
def test_the_aid_tells_each_end_of_the_game_once(stem: str) -> None:
    """An end an action or the flow already tells is not told again under scoring (Gods Love
    Dinosaurs' aid printed its refill rule twice)."""
    aid = game_docs(stem).aid
    actions = " ".join(gist for _, gist in aid.actions)
    assert not [end for end in aid.ends if end in actions]
    sentences = [
        s for gist in [*aid.ends, *(g for _, g in aid.actions)] for s in re.split(r"(?<=[.!?])\s+", gist)
    ]
    long = [s for s in sentences if len(s.split()) > 6]
    assert len(long) == len(set(long))


# ===================================================================== a turn's steps as numbered

TURN = """\
game "Numbered Turn":
  players 2..2

zone bag
zone hand per player
piece bead: 9 in bag
var kept: bool = no per player

rule take_bead(p: player):
  called "Draw a bead"
  says "Take a bead from the bag."
  move 1 bead from bag to p.hand

rule trade(p: player):
  called "Trade"
  says "You may put a bead back, before or after drawing."
  if count(pieces(p.hand)) > 0:
    move 1 bead from p.hand to bag
  set p.kept to yes

rule rest(p: player):
  called "Rest"
  says "Do nothing more."
  log "{p} rests"

rule turn_of(p: player):
  called "Your turn"
  says "1. Draw a bead; 2. you may trade, before or after; 3. rest."
  set p.kept to no
  step early_trade:
    called "Trade before drawing"
    numbered 2
    trade(p)
  step drawing:
    called "Draw"
    numbered 1
    take_bead(p)
  if not p.kept:
    step late_trade:
      called "Trade after drawing"
      numbered 2
      trade(p)
  step resting:
    called "Rest"
    numbered 3
    rest(p)

play:
  repeat 2 times:
    for each p in players:
      turn p:
        turn_of(p)

score p = count(pieces(p.hand))
"""


def titles(part_titles: list[str], among: list[str]) -> list[str]:
    return [t for t in part_titles if t in among]


def test_the_rules_a_turn_calls_print_in_the_order_the_rulebook_numbers_its_steps(tmp_path: Path) -> None:
    """Dino Dynasty's turn: "1. Hatch; 2. take one Action; 3. collect a Morph token, before or
    after the Action; 4. Attrition" (issue 25: the token printed before the Action). The file runs
    the token's step before and after the Action; `numbered` gives each step the rulebook's number,
    and the rules it calls print in the numbers' order, the aid's too."""
    game = docs(tmp_path, TURN)
    steps = ["Draw a bead", "Trade", "Rest"]
    assert titles([p.title for p in game.book.rules], steps) == steps
    assert titles([name for name, _ in game.aid.actions], steps) == steps


def test_a_numbered_step_prints_its_number_before_its_name(tmp_path: Path) -> None:
    without_says = TURN.replace('  says "1. Draw a bead; 2. you may trade, before or after; 3. rest."\n', "")
    game = docs(tmp_path, without_says)
    text = render.rulebook_markdown(game)
    assert "2. Trade before drawing" in text and "1. Draw" in text and "3. Rest" in text


def test_without_numbers_the_rules_print_in_the_order_the_turn_reaches_them(tmp_path: Path) -> None:
    source = "\n".join(line for line in TURN.splitlines() if "numbered" not in line) + "\n"
    game = docs(tmp_path, source)
    printed = titles([p.title for p in game.book.rules], ["Draw a bead", "Trade", "Rest"])
    assert printed == ["Trade", "Draw a bead", "Rest"]


@pytest.mark.parametrize(
    ("where", "message"),
    [
        ("rule take_bead(p: player):\n  numbered 1\n", "numbers nothing"),
        ('  step drawing:\n    called "Draw"\n    numbered 1\n', "a second number"),
    ],
)
def test_a_number_that_numbers_no_step_is_a_warning_at_its_line(
    tmp_path: Path, where: str, message: str
) -> None:
    from meeple.interpreter.checks import CheckOptions, run_checks

    if where.startswith("rule"):
        source = TURN.replace("rule take_bead(p: player):\n", where)
    else:
        source = TURN.replace('  step drawing:\n    called "Draw"\n', where)
    path = tmp_path / "turn.rules"
    path.write_text(source)
    report = run_checks(meeple.check(path), str(path), CheckOptions())
    found = [d for d in report.diagnostics if d.code == "M056"]
    assert len(found) == 1 and message in found[0].message
    line = source.splitlines()[found[0].line - 1]
    assert line.strip().startswith("numbered")


def test_a_base_games_rulebook_never_speaks_of_the_variants_its_header_leaves_to_other_files() -> None:
    """Dino Dynasty leaves its Game Variants and its Stasis Variant to files of their own: its
    rulebook and its aid tell no ruling, table heading or assumption about them (the Stasis deck's
    rebuild, the Dynasty game's envelopes, a Campaign's order of Scenarios printed in the base game's
    book before): those are in the variant's file, and its rulebook prints them (issue 25)."""
    game = game_docs("dino_dynasty")
    printed = render.rulebook_markdown(game) + render.aid_markdown(game)
    assert not re.findall(r"Stasis|Campaign|Dynasty game|Team game|envelope|solo", printed)
    stasis = render.rulebook_markdown(game_docs("dino_dynasty_stasis"))
    assert "Which Herd the Stasis Competes with" in stasis and "Stasis deck again" in stasis
    assert "save envelope" in render.rulebook_markdown(game_docs("dino_dynasty_dynasty"))


def test_the_aid_tells_when_the_game_ends_once_in_one_wording() -> None:
    """Gods Love Dinosaurs' aid told the end in the flow and again in the refill, in two wordings
    (issue 25, section 2): the end is told once, under scoring, where a player looks for it."""
    aid = game_docs("gods_love_dinosaurs").aid
    said = [*aid.goal, *(plain for line in aid.flow for plain in [line.flat()]), *(g for _, g in aid.actions)]
    told = [s for text in [*said, *aid.ends] for s in re.split(r"(?<=[.!?])\s+", text) if "game ends" in s]
    assert len(told) == 1 and told[0] in " ".join(aid.ends)


def test_no_heading_ends_a_page_and_no_table_row_sits_alone() -> None:
    """Page breaks as a reader needs them (issue 25, section 1), in Dino Party's rulebook: the
    Rulings' heading and its first line were the last lines of a page, and three rows of the card
    table sat alone on the next one. A table short enough for a page is printed whole, with its
    heading and its words; the heading of the rulings comes with the first ruling."""
    import pdfs

    game = game_docs("dino_party")
    pages = [
        "".join(p.extract_text().split()) for p in pdfs.reader(render.pdf(render.rulebook_typst(game))).pages
    ]

    def page_of(text: str) -> int:
        (found,) = [i for i, p in enumerate(pages) if "".join(text.split()) in p]
        return found

    sheet = max(game.book.sheets, key=lambda s: len(s.rows))
    at = {page_of(sheet.words[0][:60])}
    at |= {page_of(row[0] + row[1]) for row in sheet.rows}
    assert len(at) == 1, at
    assert page_of("Questions the rules above may leave open") == page_of(game.book.rulings[0].words[:50])


def test_a_table_in_parts_names_its_rows_by_as_many_first_columns_as_tell_them_apart(tmp_path: Path) -> None:
    """A row of one part is found in the other (issue 25, section 1): where the first column does
    not tell the rows apart (two rows of one shelf), each part repeats the first columns that do."""
    sheet = docs(tmp_path).book.sheets[0]
    sheet.rows = [[sheet.rows[0][0], *row[1:]] for row in sheet.rows]  # every row of one "jar"
    parts = sheet.parts()
    assert len(parts) == 2 and all(len(columns) <= MOST_COLUMNS for columns, _ in parts)
    assert all(columns[:2] == sheet.columns[:2] for columns, _ in parts)
    assert [c for columns, _ in parts for c in columns[2:]] == sheet.columns[2:]  # every column once
    assert [c for _, rows in parts for c in rows[1][2:]] == sheet.rows[1][2:]
