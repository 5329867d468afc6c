"""The rulebook in the order a player needs it, and a player aid right for the game it is printed for.

A rulebook says what the game is, the components, setup, a turn, the actions, scoring and the
end; the tables a player looks things up in come at the back, with only the columns the author
headed for players, and a table too wide for the page is printed in parts (issue 25, section 1).
A variant's aid is the variant's game: it names no player count the variant does not allow, and
tells each rule once (section 2).
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

import pytest
from helpers import bundled_variants, counts_named

import meeple
from meeple.codegen import render
from meeple.codegen.rulebook import Sheet
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


def test_a_piece_counted_by_each_rows_own_number_may_tell_its_count_in_its_own_words(tmp_path: Path) -> None:
    """A component counted by a column of its table ("5: 1 white die and 4 black ones") may open
    its words with the count, as an `each TABLE` piece may: the count then stands alone, printed
    once, not the list of kinds and the author's count one after the other."""
    source = SHELF.replace(
        "piece coin: 5 per player in bag\n",
        "piece coin: 5 per player in bag\n"
        'table gem (name, called, stock: int):\n  ruby, "ruby", 2\n  opal, "opal", 3\n'
        "piece stone: self.stock per gem in bag\n"
        '  says "5: 2 rubies, cut, and 3 opals, rough. They sit in the bag."\n',
    )
    (stones,) = [c for c in docs(tmp_path, source).book.components if c.name == "stones"]
    assert stones.count == "5: 2 rubies, cut, and 3 opals, rough. They sit in the bag"
    assert stones.words == []


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
    each in its colour, as the table's conflict on the Titanosauria's colour settles it); a
    "#rrggbb" code is only how the pictures fill a cell, and stays in the reference."""
    source = SHELF.replace('"Jade"):', '"Jade", colour: text "Colour"):').replace(
        "5, 6, 7\n", f'5, 6, 7, "{colours[0]}"\n'
    )
    source = source.replace("6, 7, 8\n", f'6, 7, 8, "{colours[1]}"\n')
    sheet = docs(tmp_path, source).book.sheets[0]
    assert ("Colour" in sheet.columns) == printed
    assert (colours[0] in sheet.rows[0]) == printed


@pytest.mark.parametrize(
    ("says", "count", "words"),
    [
        (
            "5 for most players, 4 for the last. Keep them in the bag.",
            "5 for most players, 4 for the last. Keep them in the bag",
            [],
        ),
        (
            "Keep them in the bag, 5 of each colour.",
            "5 for each player",
            ["Keep them in the bag, 5 of each colour."],
        ),
    ],
)
def test_a_pieces_words_that_give_its_count_are_printed_in_place_of_the_count(
    tmp_path: Path, says: str, count: str, words: list[str]
) -> None:
    """Dino Dynasty's components printed "Dinos: 16 for each player. At most: ... 14 for the
    Tyrannosauroidea and 11 for the Titanosauria" (issue 25): the count stated as a fact what
    the words then qualified. Words that start with the count tell it their own way, alone."""
    source = SHELF.replace(
        "piece coin: 5 per player in bag\n", f'piece coin: 5 per player in bag\n  says "{says}"\n'
    )
    coin = next(c for c in docs(tmp_path, source).book.components if c.name == "coins")
    assert (coin.count, coin.words) == (count, words)


@pytest.mark.parametrize(
    ("says", "count", "words"),
    [
        (
            "5: 2 jars, all different, and 3 alike. Keep them apart.",
            "5: 2 jars, all different, and 3 alike. Keep them apart",
            [],
        ),
        ("Keep them apart.", "2", ["Keep them apart."]),
    ],
)
def test_a_piece_made_per_row_may_tell_its_count_in_the_box_in_place_of_its_kinds(
    tmp_path: Path, says: str, count: str, words: list[str]
) -> None:
    """Gods Love Dinosaurs' components printed "Kinds of tile: 85. There are 84 ecosystem tiles
    ... and 5 starting tiles" (issue 25): a piece made one per row counts kinds, while the
    author counts what is in the box. Words that start with a number tell the count alone."""
    source = SHELF.replace(
        "piece coin: 5 per player in bag\n",
        f"piece coin: 5 per player in bag\npiece jarpiece: each jar in bag\n"
        f'  called "jar"\n  says "{says}"\n',
    )
    jar = next(c for c in docs(tmp_path, source).book.components if c.name == "jars")
    assert (jar.count, jar.words) == (count, words)


def test_a_conflict_about_data_is_settled_in_its_table_and_printed_for_the_designer_alone(
    tmp_path: Path,
) -> None:
    """A ruling tells a player what to do (issue 25): Dino Dynasty's "Which colour each Dynasty
    plays" printed among the rulings, though the Dynasty table already prints each colour as the
    conflict settles it. A conflict written in a table (any data) stays in the designer's
    reference, as an assumption there does; one about the game, at the top level, is a ruling."""
    jar = '  says "The jars, each with its colours."\n'
    source = SHELF.replace(
        jar,
        jar + '  conflict "Which colour the small jar is":\n    cites "red jar"\n    cites "green jar"\n'
        '    text "The small jar is red."\n',
    )
    source += 'conflict "How many rounds":\n  cites "three rounds"\n  cites "two rounds"\n'
    source += '  text "Play three."\n'
    game = docs(tmp_path, source)
    assert [(r.point, r.words) for r in game.book.rulings] == [("How many rounds", "Play three.")]
    assert any("Which colour the small jar is" in n.text for n in game.reference.appendix)


def test_the_rulings_print_where_the_rules_read_two_ways_apart_from_what_they_leave_open(
    tmp_path: Path,
) -> None:
    """A ruling that settles a contradiction says so (issue 25): it may not point into the
    publisher's book ("as setup step 8 says"), so it read like any gap, and a reader never learnt
    that the rules themselves seem to say two things there. The rulebook prints each `conflict`
    under its own heading, its question and the way the game plays it, apart from the questions
    the rules leave open (`assume`), in every format."""
    assumed = SHELF.replace("  players 2..3\n", '  players 2..3\n  assume "The youngest player starts."\n', 1)
    source = assumed + 'conflict "How many rounds":\n  cites "three rounds"\n  cites "two rounds"\n'
    source += '  text "Play three."\n'
    game = docs(tmp_path, source)
    assert [r.kind for r in game.book.rulings] == ["conflict", "assumption"]
    md = render.rulebook_markdown(game)
    rulings = md[md.index("## Rulings") :]
    two_ways, left_open = rulings.index("Points that can be read two ways"), rulings.index("leave open")
    assert two_ways < rulings.index("**How many rounds**: Play three.") < left_open
    assert left_open < rulings.index("The youngest player starts.")
    html = render.rulebook_html(game)
    html = html[html.index('id="rulings"') :]
    assert html.index("read two ways") < html.index("<b>How many rounds</b>: Play") < html.index("leave open")
    typ = render.rulebook_typst(game).source
    two_ways = typ.index("== Points that can be read two ways")
    assert two_ways < typ.index("#strong[How many rounds]: Play three")
    assert typ.index("Play three") < typ.index("== Questions the rules leave open") < typ.index("youngest")

    assert "read two ways" not in render.rulebook_markdown(docs(tmp_path, assumed))  # no heading over nothing


def test_the_rulings_say_what_they_are_without_setting_the_rules_above_against_each_other(
    tmp_path: Path,
) -> None:
    """A ruling tells a player what to do (docs/language.md, conflicts). The book's own rules do not
    contradict each other: the publisher's text did, and a player does not hold it. "Here two
    passages of the rules above seem to say different things" opened every book's rulings, and
    "how this game answers it" spoke of the file, not the game (an outside reader, issue 25)."""
    assumed = SHELF.replace("  players 2..3\n", '  players 2..3\n  assume "The youngest player starts."\n', 1)
    source = assumed + 'conflict "How many rounds":\n  cites "three rounds"\n  cites "two rounds"\n'
    game = docs(tmp_path, source + '  text "Play three."\n')
    books = [render.rulebook_markdown(game), render.rulebook_html(game), render.rulebook_typst(game).source]
    for book in books:
        rulings = book[book.index("Rulings") :]
        assert "Each of these points can be read two ways; play it this way:" in rulings
        assert "Situations the rules do not spell out, and how to play them:" in rulings
        for words in ("passages", "rules above", "this game answers"):
            assert words not in rulings


# The jars' table with headings too long to stand side by side on a line of the page.
WIDE_SHELF = functools.reduce(
    lambda source, c: source.replace(f'"{c}"', f'"{c}-coloured"'),
    ["Red", "Green", "Blue", "Grey", "Pink", "Gold", "Jade"],
    SHELF,
)


def _fits(columns: list[str], rows: list[list[str]]) -> bool:
    return Sheet("", [], columns, rows).fits(list(range(len(columns))))


def test_a_table_wider_than_the_page_is_printed_in_parts_each_with_the_rows_names(tmp_path: Path) -> None:
    sheet = docs(tmp_path, WIDE_SHELF).book.sheets[0]
    assert not _fits(sheet.columns, sheet.rows)
    parts = sheet.parts()
    assert len(parts) == 2 and all(_fits(columns, rows) for columns, rows in parts)
    assert all(columns[0] == "jar" and rows[1][0] == "large jar" for columns, rows in parts)
    assert [c for columns, _ in parts for c in columns[1:]] == sheet.columns[1:]  # every column once
    assert [c for _, rows in parts for c in rows[1][1:]] == sheet.rows[1][1:]


def test_a_table_of_many_short_columns_that_fits_the_page_is_printed_whole(tmp_path: Path) -> None:
    """A row is read on one line (issue 25, section 1): a table of eight short columns printed
    in two parts, on two pages, though its words fit the page's width side by side."""
    sheet = docs(tmp_path).book.sheets[0]
    assert len(sheet.columns) == 9
    assert sheet.parts() == [(sheet.columns, sheet.rows)]


def test_a_column_of_short_words_is_as_wide_as_its_cells_where_the_line_has_room() -> None:
    """A cell reads on one line where the page has room (issue 25, section 1): widths in
    proportion to each column's longest word broke "one point per coin held" over two lines,
    its last word hyphenated, beside a column of one long word and half empty."""
    rows = [["Row", "What it gives", "Word"], ["first", "one point per coin held", "Extraordinarily"]]
    widths = [float(w) for w in re.findall(r"([0-9.]+)fr", render.column_widths(rows))]
    assert widths[0] >= len("one point per coin held") > widths[1] >= len("Extraordinarily"), widths


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


def test_every_kind_of_biome_a_challenge_card_counts_by_name_is_defined_for_players() -> None:
    """A reader of Dino Dynasty's rulebook could not tell what the Hermit card counts: "Have
    Herds in the most Isolated Biomes", a term the book never defined (issue 25: every rules
    question answered from the book alone). Each "X Biome" a card names is in the glossary or is
    a row of a table the book prints."""
    book = game_docs("dino_dynasty").book
    defined = {name.lower() for name, _ in book.terms}
    cards = next(sheet for sheet in book.sheets if sheet.title == "Challenge card")
    others = [sheet for sheet in book.sheets if sheet is not cards]
    printed = " ".join(" ".join(map(str, row)) for sheet in others for row in sheet.rows).lower()
    named = {
        m.lower() for row in cards.rows for m in re.findall(r"\b[A-Z][a-z]+ Biome", " ".join(map(str, row)))
    }
    assert "isolated biome" in named
    for term in named:
        assert term in defined or term in printed, term


def test_dino_dynasty_lists_every_component_its_setup_lays_out_with_its_count() -> None:
    """Rulebook, Setup: each player takes "the Dynasty's DINO BOARDS", places "the EVOLVE MARKERS"
    and "ACTION FRAMES" and takes "their DYNASTY'S PLAYER AID"; the Morph tokens go in "the CLOTH
    BAG"; a player picks "a SCENARIO CARD type"; "Place the 5 DICE and the GENERAL PLAYER AIDS".
    A reader found none of these among the components (issue 25): each is listed with its count,
    and the dice with their faces."""
    listed = {c.name: c.count for c in game_docs("dino_dynasty").book.components}
    assert listed["Dino boards"].startswith("24 sides, one for each species")
    assert listed["Evolve markers"].startswith("4 for each Dynasty")
    assert listed["Action frames"].startswith("4 for each Dynasty")
    assert listed["Scenario cards"].startswith("12")
    assert listed["cloth bag"].startswith("1")
    assert listed["General player aids"].startswith("2")
    assert listed["Dynasty player aids"].startswith("1 for each Dynasty")
    assert listed["dice"].startswith("5: the white Event die") and "0, 0, 1, 1, 2 and 2" in listed["dice"]
    assert "Challenge tokens" in listed["Challenge cards"]
    assert listed["tiles"].startswith("106: 80 Territory tiles, 16 Event tiles, 6 Expanding Event tiles")


def test_the_morph_table_tells_each_effect_once_and_brooding_moves_one_dino_into_the_new_nests_biome() -> (
    None
):
    """Rulebook, Morph tokens: "The brooding Morph allows a player to move 1 of the Dinos from the
    Herd that makes a Nest into the Biome where the Nest is made". The Morph table printed both
    the token's words ("Effect") and the rules' kind of effect ("What it does": "+1 Herd max."
    beside "more Herd max"), a column a player never needs (issue 25): the kind is the rules' own
    and prints no column; Brooding's precise rule stands in the table's words."""
    game = game_docs("dino_dynasty")
    morphs = next(sheet for sheet in game.book.sheets if sheet.title.lower() == "morph")
    assert "What it does" not in morphs.columns and "Effect" in morphs.columns
    brooding = next(row for row in morphs.rows if row[0] == "Brooding")
    assert "1 Dino from Herd joins Nest." in brooding
    assert (
        "Brooding: when the Herd makes a Nest, 1 of its Dinos may move into the new Nest's Biome."
        in " ".join(morphs.words)
    )


def test_the_extinction_rule_lets_an_extinct_player_change_species_as_the_rulebook_says() -> None:
    """Rulebook, Extinction!: "The player may choose to freely change to any another species to
    continue playing as (Page 26.)", and Change Species: "if a player goes Extinct, a player can
    choose to change". Three outside readers graded the book wrong for forbidding it (issue 25):
    the base game's Extinction rule offers the change where a reader looks for it, and no ruling
    declares the rulebook's own permission a contradiction."""
    markdown = render.rulebook_markdown(game_docs("dino_dynasty"))
    extinction = markdown[markdown.index("### Extinction!") :]
    extinction = extinction[: extinction.index("\n### ")]
    assert "you may change to another species of your Dynasty" in extinction
    assert "### Change species" in markdown
    assert "Whether an Extinct player may change species" not in markdown


def test_the_glossary_and_the_reference_print_in_every_format(tmp_path: Path) -> None:
    game = docs(tmp_path, WIDE_SHELF)
    html = render.rulebook_html(game)
    assert html.index('id="glossary"') < html.index('id="reference"')
    assert html.count("<th>Jar</th>") == 2  # the wide table, in two parts
    typst = render.rulebook_typst(game).source
    assert typst.index("= Glossary") < typst.index("= Reference") and typst.count("[Jar], ") == 2


VARIANTS = bundled_variants()


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
    """What the variant changes, in its own words, heads its aid: how long it lasts among them
    (then, where they do not say it, who wins: the aid says the goal first)."""
    game = game_docs(stem)
    assert game.aid.goal[: len(game.book.overview)] == game.book.overview


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


def test_a_rule_called_outside_the_numbered_steps_is_told_after_them(tmp_path: Path) -> None:
    """A player learns the steps of a turn before what happens around them: Dino Dynasty's rules
    opened with the Stomp at the start of a turn and an Extinct player's restart (called between
    step 1 and step 2, only when the player is Extinct), before the four Actions (issue 25)."""
    source = TURN.replace(
        "rule turn_of(p: player):\n",
        'rule refill(p: player):\n  called "Refill"\n  says "With an empty hand, take a bead first."\n'
        "  move 1 bead from bag to p.hand\n\n"
        "rule turn_of(p: player):\n",
    ).replace(
        "  if not p.kept:\n",
        "  if count(pieces(p.hand)) == 0:\n    refill(p)\n  if not p.kept:\n",
    )
    game = docs(tmp_path, source)
    steps = ["Draw a bead", "Trade", "Rest", "Refill"]
    assert titles([p.title for p in game.book.rules], steps) == steps


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
    assert "Which Herd the Stasis Competes with" in stasis
    assert "stacked into one deck one card of each type in turn" in stasis
    assert "save envelope" in render.rulebook_markdown(game_docs("dino_dynasty_dynasty"))


def test_the_aid_tells_when_the_game_ends_once_in_one_wording() -> None:
    """Gods Love Dinosaurs' aid told the end in the flow and again in the refill, in two wordings
    (issue 25, section 2): the end is told once, under scoring, where a player looks for it."""
    aid = game_docs("gods_love_dinosaurs").aid
    said = [*aid.goal, *(plain for line in aid.flow for plain in [line.flat()]), *(g for _, g in aid.actions)]
    told = [s for text in [*said, *aid.ends] for s in re.split(r"(?<=[.!?])\s+", text) if "game ends" in s]
    assert len(told) == 1 and told[0] in " ".join(aid.ends)


@functools.cache
def drawn_docs(stem: str) -> render.GameDocs:
    """A bundled game's documents with its worked examples drawn, as `meeple docs` prints them."""
    checked = meeple.check(stem)
    assert checked.module is not None and checked.symbols is not None and checked.program is not None
    return render.game_docs(
        checked.path, checked.module, checked.symbols, checked.program.constants, program=checked.program
    )


@functools.cache
def rulebook_pdf(stem: str) -> tuple[bytes, tuple[str, ...]]:
    """A bundled game's rulebook as printed, and what Typst warned of while laying it out; made
    once a session (a few seconds for the longest)."""
    import pdfs

    # examples drawn, at the size `meeple docs` lays it out at (a step smaller where that saves
    # a nearly empty last page)
    candidates = render.rulebook_candidates(drawn_docs(stem))
    pdf, warnings = pdfs.laid_out(candidates[render.fit_book(candidates)[0]])
    return pdf, tuple(warnings)


FEWEST_LINES = 3  # under a heading, on its page
FEWEST_ROWS = 5  # of a table, on each page it prints on (3 or 4 read as strays)
QUICK_BOOKS = {"dino_party", "dino_dynasty_stasis"}  # the default run's books; the soak reads all


@pytest.mark.parametrize(
    "stem", [stem if stem in QUICK_BOOKS else pytest.param(stem, marks=pytest.mark.soak) for stem in GAMES]
)
def test_no_heading_ends_a_page_and_no_table_row_sits_alone(stem: str) -> None:
    """Page breaks as a reader needs them (issue 25, section 1), in every bundled game's and
    variant's rulebook as `meeple docs` prints it: a heading has at least three lines of what it
    heads under it on its page, or all of it (Dino Dynasty's first page ended with "How to play",
    "Turns:" and one line; Dino Party's with the Rulings' heading and its first line); every page a
    table prints on holds at least five of its rows, or all of them (the Stasis' card table left
    two on its last page; Dino Party's card table three); and Typst settles the layout (Dino
    Garden's did not in five attempts, and a page ended a third empty before a table). The
    Stasis' book, with a table over three pages, is in the default run."""
    import pdfs

    data, warnings = rulebook_pdf(stem)
    assert not warnings  # "did not converge": a break placed from where a table stood, as it was
    headings = pdfs.lines_under_headings(data)
    alone = [(page, words, n) for page, words, n, goes_on in headings if n < FEWEST_LINES and goes_on]
    assert not alone, alone
    pages = [pdfs.flat(p.extract_text()) for p in pdfs.reader(data).pages]
    text = "".join(pages)
    starts = [sum(len(p) for p in pages[:i]) for i in range(len(pages))]
    at = text.find(pdfs.flat("Reference"))
    for sheet in game_docs(stem).book.sheets:
        # each part as the page sets it: a long narrow one in two halves side by side, a row of each
        for columns, rows in (sheet.folded(*part) for part in sheet.parts()):
            at = text.find(pdfs.flat("".join(c[:1].upper() + c[1:] for c in columns)), at)
            assert at >= 0, (sheet.title, columns)
            counts: dict[int, int] = {}
            for row in rows:
                at = text.find(pdfs.flat("".join(row)), at)
                assert at >= 0, (sheet.title, row)
                page = max(i for i, start in enumerate(starts) if start <= at)
                counts[page] = counts.get(page, 0) + 1
            assert min(counts.values()) >= min(FEWEST_ROWS, len(rows)), (sheet.title, counts)


def test_a_table_in_parts_names_its_rows_by_as_many_first_columns_as_tell_them_apart(tmp_path: Path) -> None:
    """A row of one part is found in the other (issue 25, section 1): where the first column does
    not tell the rows apart (two rows of one shelf), each part repeats the first columns that do."""
    sheet = docs(tmp_path, WIDE_SHELF).book.sheets[0]
    sheet.rows = [[sheet.rows[0][0], *row[1:]] for row in sheet.rows]  # every row of one "jar"
    parts = sheet.parts()
    assert len(parts) == 2 and all(_fits(columns, rows) for columns, rows in parts)
    assert all(columns[:2] == sheet.columns[:2] for columns, _ in parts)
    assert [c for columns, _ in parts for c in columns[2:]] == sheet.columns[2:]  # every column once
    assert [c for _, rows in parts for c in rows[1][2:]] == sheet.rows[1][2:]


EMPTIEST = 1 / 3  # of a page's text height, under its last line, before an example's pictures
MARGIN = 20 * 72 / 25.4  # the rulebook's margins, in points
DRAWN_QUICK = {"gods_love_dinosaurs"}  # the default run's book; the soak reads all


@pytest.mark.parametrize(
    "stem", [stem if stem in DRAWN_QUICK else pytest.param(stem, marks=pytest.mark.soak) for stem in GAMES]
)
def test_no_page_before_an_example_picture_is_more_than_a_third_empty(stem: str) -> None:
    """No half-empty page before an example picture (issue 25, section 1), in every bundled
    game's and variant's rulebook as printed: a page followed by one that opens with a worked
    example's pictures (its title, or the pictures an example split between pages goes on with)
    has at most a third of its height empty under its last line, and no example is split between
    pages (none goes on under its title and "(continued)"). Gods Love Dinosaurs' page 5 was 40%
    empty before the Clare hatching example, which went whole to the next page (the rulings fill
    the page now), and its page 3 45% empty before the part "Examples" and its first example
    (which began there, and went on on page 4 under "(continued)"; its pictures print a little
    smaller now, and it fits); it is in the default run."""
    import pdfs

    data, warnings = rulebook_pdf(stem)
    assert not warnings  # the layout settles (read from where it lands, a floated example's did not)
    book = drawn_docs(stem).book
    drawn = [e for e in book.examples if e.pictures]
    opens = {pdfs.flat(e.title)[:40] for e in drawn} | {
        pdfs.flat(p.title) for e in drawn for p in e.pictures if p.title
    }
    opens |= {pdfs.flat("Before"), pdfs.flat("After")}
    # the part's heading with the first example (page 3 was 45% empty before it)
    opens |= {pdfs.flat("Examples" + e.title)[:40] for e in drawn}
    header = pdfs.flat(book.title + ("Variant rules" if book.base else "Rules"))
    reader = pdfs.reader(data)
    pages = [pdfs.flat(p.extract_text()) for p in reader.pages]
    height = float(reader.pages[0].mediabox.top) - 2 * MARGIN
    lowest = pdfs.lowest_ink(data)
    before = [
        i for i in range(len(pages) - 1) if any(pages[i + 1].startswith(header + start) for start in opens)
    ]
    empty = {i + 1: round((y - MARGIN) / height, 2) for i in before if (y := lowest[i]) is not None}
    assert all(share <= EMPTIEST for share in empty.values()), empty  # pages counted from 1
    assert before or stem not in DRAWN_QUICK  # its examples open pages: the test reads them
    rulings = pdfs.flat("Rulings (continued)")
    split = [i + 1 for i, p in enumerate(pages) if "(continued)" in p.replace(rulings, "")]
    assert not split, split  # pages counted from 1


# The parts of a rulebook (its level-1 headings) a page may end more than a third empty before:
# each begins a new page's worth of reading. Not the examples, which may begin in the room.
PARTS = (
    "Changes from the base game",
    "Components",
    "Options",
    "Kept between games",
    "Setup",
    "How to play",
    "The rules",
    "At any moment",
    "Scoring and the end of the game",
    "Rulings",
    "Glossary",
    "Reference",
)
FILLED_QUICK = {"gods_love_dinosaurs", "dino_garden_solo"}  # the default run's books; the soak reads all


@pytest.mark.parametrize(
    "stem", [stem if stem in FILLED_QUICK else pytest.param(stem, marks=pytest.mark.soak) for stem in GAMES]
)
def test_no_page_but_the_last_is_more_than_a_third_empty_but_before_a_new_part(stem: str) -> None:
    """Pages filled (issue 25): a page ends at most a third empty, but the last and one before a
    new part (a level-1 heading: "The rules", "Reference"); the examples are not such a part, since
    the first may begin in the room (Gods Love Dinosaurs' page 3 was 45% empty before "Examples",
    and its page 9 held one table; Dino Garden solo's page 3 held the two lines of its last
    section, which the heading's room had sent on)."""
    import pdfs

    data, warnings = rulebook_pdf(stem)
    assert not warnings
    book = game_docs(stem).book
    header = pdfs.flat(book.title + ("Variant rules" if book.base else "Rules"))
    parts = [pdfs.flat(p) for p in PARTS] + ([pdfs.flat(book.sequence.title)] if book.sequence else [])
    reader = pdfs.reader(data)
    pages = [pdfs.flat(p.extract_text()) for p in reader.pages]
    height = float(reader.pages[0].mediabox.top) - 2 * MARGIN
    lowest = pdfs.lowest_ink(data)
    empty = {
        i + 1: round((y - MARGIN) / height, 2)
        for i in range(len(pages) - 1)
        if (y := lowest[i]) is not None and not any(pages[i + 1].startswith(header + part) for part in parts)
    }
    assert all(share <= EMPTIEST for share in empty.values()), empty  # pages counted from 1


def test_a_rule_offered_over_a_turn_is_told_after_the_rules_of_the_turn(tmp_path: Path) -> None:
    """A player learns the steps of a turn before what they may also do at any time during it: a
    rule an `offer` makes available over a block comes after the rules the block calls (Dino
    Garden's rulebook opened "The rules" with its free actions, before moving the Owner token)."""
    source = SHELF.replace(
        "rule take(p: player):\n",
        "rule peek(p: player):\n"
        '  says "At any time on your turn, you may look into the bag."\n'
        '  log "{p} peeks"\n\n'
        "rule grab(p: player):\n"
        '  says "Take a coin from the bag."\n'
        "  take(p)\n\n"
        "rule take(p: player):\n",
    ).replace(
        "      turn p:\n        take(p)\n",
        '      turn p:\n        offer peek(p) to p as "peek":\n          grab(p)\n',
    )
    titles = [part.title for part in docs(tmp_path, source).book.rules]
    assert titles.index("grab") < titles.index("peek"), titles


def test_a_long_table_of_narrow_columns_prints_in_two_halves_side_by_side() -> None:
    """Dino Garden's Predator track (19 rows of a space and its points) took a page and a half
    and left five rows alone on the book's last page (issue 25, layout): in print, a table of
    16 rows or more whose columns fit a line twice sets its rows in two halves side by side, the
    first half on the left; a table of wide columns, or a short one, prints whole."""
    rows = [[str(space), str(space + 1)] for space in range(19)]
    track = Sheet("Track", [], ["Space", "Points"], rows)
    columns, folded = track.folded(track.columns, track.rows)
    assert columns == ["Space", "Points", "Space", "Points"]
    assert folded[0] == ["0", "1", "10", "11"] and folded[-1] == ["9", "10", "", ""]
    assert len(folded) == 10
    assert track.folded(track.columns, rows[:15]) == (track.columns, rows[:15])
    wide = [[str(n), "a long effect in words " * 2] for n in range(19)]
    assert track.folded(track.columns, wide) == (track.columns, wide)
