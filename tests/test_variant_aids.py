"""A player holding only a variant's aid answers the basic questions of the variant's game.

Issue 25, section 2: "a variant's aid is the variant's game". For every variant among the bundled
games, each basic question (the goal, setup, a turn, the end, scoring, ties) is checked against
what that variant's own rules say, so that an aid printing the base game's answer fails: its own
setup steps and rules, nothing of what it removes, its own number of rounds, its own score and
tie lines where it changes what they count, and no number it changed stated as before.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest
from helpers import bundled_variants, counts_named

import meeple
from meeple.codegen import render
from meeple.codegen.aid import Aid, first_sentence
from meeple.codegen.rulebook import sentences, words_of
from meeple.grammar import ast
from meeple.interpreter.analysis import Symbols
from meeple.interpreter.names import own_lines
from meeple.loader import Checked, bundled_games


@cache
def checked(stem: str) -> Checked:
    found = meeple.check(stem)
    assert found.module is not None and found.symbols is not None and found.program is not None
    return found


@cache
def aid_of(stem: str) -> tuple[Aid, str]:
    found = checked(stem)
    assert found.module is not None and found.symbols is not None and found.program is not None
    docs = render.game_docs(found.path, found.module, found.symbols, found.program.constants)
    return docs.aid, " ".join(render.aid_markdown(docs).split())


VARIANTS = bundled_variants()


def _variant_files(module: ast.Module, symbols: Symbols) -> set[str]:
    """The files a variant's game takes its changes from: every file but its base game's (the
    file of the flow, which a variant patches but never writes anew)."""
    assert symbols.play is not None
    return {d.span.file for d in module.decls} - {symbols.play.span.file}


def test_there_are_variants_to_read() -> None:
    assert {"dino_garden_2p", "dino_garden_solo", "dino_dynasty_stasis", "dino_dynasty_teams"} <= set(
        VARIANTS
    )


@pytest.mark.parametrize("stem", VARIANTS)
def test_the_goal_is_the_variants_own(stem: str) -> None:
    """What am I trying to do: the aid opens with the variant's own words (then who plays the
    seats the rules play, and the teams)."""
    found = checked(stem)
    assert found.symbols is not None and found.symbols.header is not None and found.module is not None
    own = [
        m.value for m in found.symbols.header.meta if m.span.file == found.module.file and m.kind == "says"
    ]
    aid, text = aid_of(stem)
    assert own and aid.goal[: len(own)] == own and all(" ".join(w.split()) in text for w in own)


@pytest.mark.parametrize("stem", VARIANTS)
def test_setup_tells_the_steps_the_variant_replaces_or_adds(stem: str) -> None:
    """How is it set up: each setup step the variant writes is in the aid in its words."""
    found = checked(stem)
    assert found.module is not None and found.symbols is not None and found.symbols.setup is not None
    files = _variant_files(found.module, found.symbols)
    _, text = aid_of(stem)
    for step in found.symbols.setup.find_all(ast.Named):
        words, stands = words_of(own_lines(step))
        if step.span.file in files and stands:
            assert first_sentence(" ".join(words[0].split())) in text, step.name


@pytest.mark.parametrize("stem", VARIANTS)
def test_a_turn_tells_the_rules_and_phases_the_variant_replaces_or_adds(stem: str) -> None:
    """What can I do on my turn, how does a round go: each rule, phase and step the variant
    writes with a `says` is in the aid, by the first sentence of its words, or by its `brief`
    where it has one, which the aid prints instead (a rule a caller's words tell is told there)."""
    found = checked(stem)
    assert found.module is not None and found.symbols is not None and found.symbols.play is not None
    files = _variant_files(found.module, found.symbols)
    _, text = aid_of(stem)
    from meeple.codegen.rulebook import _Builder

    assert found.program is not None
    told = _Builder(found.module, found.symbols, found.program.constants, False)._told()
    for rule in found.symbols.rules.values():
        words, stands = words_of(rule.meta)
        if rule.span.file in files and stands and rule.name not in told:
            assert _told_in(rule.meta, words, text), rule.name
    for block in found.symbols.play.find_all(ast.Named):
        words, stands = words_of(own_lines(block))
        if block.span.file in files and stands:
            assert _told_in(own_lines(block), words, text), block.name


def _told_in(metas: list[ast.Meta], words: list[str], text: str) -> bool:
    """Whether the aid's text tells a rule: by its `brief`, else its words' first sentence."""
    brief = [m.value for m in metas if m.kind == "brief"]
    said = brief[0] if brief else first_sentence(" ".join(words[0].split()))
    return " ".join(said.split()) in text


@pytest.mark.parametrize("stem", VARIANTS)
def test_the_end_tells_nothing_the_variant_removes(stem: str) -> None:
    """When does it end: no words of a phase, step or rule the variant removes (the Stasis
    removes the base game's last round: its aid said "each player takes one last turn")."""
    found = checked(stem)
    assert found.module is not None
    _, text = aid_of(stem)
    for removed in found.module.removed:
        for said in (s for w in removed.words for s in sentences(w) if len(s.split()) > 4):
            assert " ".join(said.split()) not in text, removed.name


ROUNDS = {"dino_garden_2p": 3, "dino_garden_solo": 3}  # each one's own row of the rounds table, read below


@pytest.mark.parametrize("stem", sorted(ROUNDS))
def test_the_end_tells_the_variants_own_number_of_rounds(stem: str) -> None:
    """How many rounds: the number the variant's rules play, read from its rounds table for its
    player count (the two-player aid said "3 rounds with 3 players and 4 rounds with 4")."""
    found = checked(stem)
    assert found.symbols is not None and found.symbols.header is not None
    table = found.symbols.tables["rounds_by_players"]
    players = found.symbols.header.min_players
    rounds = [r.cells[1] for r in table.rows if r.cells[0] == players]
    assert rounds == [ROUNDS[stem]]
    _, text = aid_of(stem)
    ordinal = {1: "1st", 2: "2nd", 3: "3rd"}.get(rounds[0], f"{rounds[0]}th")
    assert re.search(rf"\b({rounds[0]} rounds|Round {rounds[0]}|{ordinal} round)\b", text)
    assert not re.search(r"\b\d+ rounds with \d+ players", text)


def _reads(expr: ast.Node, symbols: Symbols) -> set[str]:
    """The values a line reads, and the values those read, to the end."""
    seen: set[str] = set()
    todo = [expr]
    while todo:
        node = todo.pop()
        for n in node.walk():
            name = n.func if isinstance(n, ast.Call) else n.id if isinstance(n, ast.Name) else None
            if name in symbols.values and name not in seen:
                seen.add(name)
                todo.append(symbols.values[name])
    return seen


@pytest.mark.parametrize("stem", VARIANTS)
@pytest.mark.parametrize("line", ["score", "tiebreak"])
def test_scoring_and_ties_are_said_for_what_the_variant_counts(stem: str, line: str) -> None:
    """How do I score, who wins a tie: the aid prints the words of the score and tie lines the
    variant plays; where the variant replaces a value such a line reads (the Team game's cards
    won by teams), the line's words are the variant's own, not the base game's."""
    found = checked(stem)
    assert found.module is not None and found.symbols is not None
    decl = getattr(found.symbols, line)
    if decl is None:
        return
    files = _variant_files(found.module, found.symbols)
    replaced = {
        key.split(" ", 1)[1]
        for key, span in found.module.patched.items()
        if key.startswith("value ") and span.file in files
    }
    changed = replaced & _reads(decl, found.symbols)
    assert not changed or decl.span.file in files, (line, sorted(changed))
    _, text = aid_of(stem)
    words, _ = words_of(decl.meta)
    assert all(" ".join(w.split()) in text for w in words)


@pytest.mark.parametrize("stem", VARIANTS)
def test_who_wins_alone_speaks_of_no_one_to_beat(stem: str) -> None:
    """Who wins, alone: a one-player variant's aid names no "most" and no tie among players."""
    found = checked(stem)
    assert found.symbols is not None and found.symbols.header is not None
    if found.symbols.header.max_players > 1 or found.symbols.automata:
        return
    aid, _ = aid_of(stem)
    assert not re.search(r"\b(most|tied|ties?)\b", " ".join(aid.scoring))


@pytest.mark.parametrize("stem", VARIANTS)
def test_no_number_the_variant_changes_is_stated_as_before(stem: str) -> None:
    """The numbers: a constant the variant changes (the Stasis's 4 Challenge cards, not 5) is
    nowhere in its aid with its old value before its name."""
    found = checked(stem)
    assert found.module is not None and found.symbols is not None
    from meeple.interpreter.names import Names

    names = Names(found.symbols)
    _, text = aid_of(stem)
    for change in found.module.changes:
        if change.row is None and isinstance(change.old, int) and not isinstance(change.old, bool):
            noun = names.decl(change.name).one.split()[0]
            assert not re.search(rf"\b{change.old} {re.escape(noun)}", text, re.IGNORECASE), change.name


@pytest.mark.parametrize("stem", VARIANTS)
def test_the_whole_games_flow_names_no_player_count_the_variant_does_not_allow(stem: str) -> None:
    """The `--full` book's flow is the variant's game too: a two-player game's rounds are not
    "3 with 3 players, 4 with 4"."""
    found = checked(stem)
    assert found.module is not None and found.symbols is not None and found.symbols.header is not None
    assert found.program is not None
    header = found.symbols.header
    full = render.game_docs(found.path, found.module, found.symbols, found.program.constants, True)
    flow = " ".join(line.flat() for line in full.book.flow)
    assert counts_named(flow) <= set(range(header.min_players, header.max_players + 1))
    assert not re.search(r"\b\d+ with \d+ players\b", flow)


# ------------------------------------------------------------------ the same, on neutral games

BASE = """\
game "Beads":
  players 2..3

zone bag
zone hand per player
piece bead: 20 in bag
constant handful = 2
  called "Beads a turn"
  cites "two beads"
option extra: int = 0
  called "Extra beads"
  cites "extra beads"
constant open_bag = yes
  called "Open bag"
  cites "the bag is open"

play:
  says "Each player draws beads in two rounds, then everyone draws once more in a last round."
  phase rounds:
    called "Rounds"
    repeat 2 times:
      for each p in players:
        turn p:
          move handful + extra bead from bag to p.hand
  phase last_round:
    called "Last round"
    for each p in players:
      turn p:
        if open_bag:
          move 1 bead from bag to p.hand

score p = count(pieces(p.hand))
  says "The player with the most beads wins."
"""

SHORTER = """\
variant "Short beads" of "beads.rules":
  says "The game ends after the two rounds."

var drawn: int = 0 per player
  text "How many beads a player drew: the rules' bookkeeping."

remove phase last_round
"""


def _docs(tmp_path: Path, variant: str, full: bool = False) -> render.GameDocs:
    (tmp_path / "beads.rules").write_text(BASE)
    path = tmp_path / "variant.rules"
    path.write_text(variant)
    found = meeple.check(path)
    assert found.ok and found.module and found.symbols and found.program, found.diagnostics
    return render.game_docs(path, found.module, found.symbols, found.program.constants, full)


def test_a_flow_the_variant_changes_is_told_by_its_phases_not_by_the_base_games_words(tmp_path: Path) -> None:
    """The base game's `says` for its whole flow tells a last round the variant removes: the
    variant's aid and whole book print the flow by its phases instead."""
    for full in (False, True):
        docs = _docs(tmp_path, SHORTER, full)
        aid = render.aid_markdown(docs)
        assert "last round" not in aid and "Rounds" in aid
        assert docs.book.flow_words == []
    (tmp_path / "beads.rules").write_text(BASE)
    base = meeple.check(tmp_path / "beads.rules")
    assert base.module and base.symbols and base.program
    kept = render.game_docs(tmp_path / "beads.rules", base.module, base.symbols, base.program.constants)
    assert "in a last round" in render.aid_markdown(kept)  # the base game's own aid keeps them


def test_an_option_is_not_printed_among_the_numbers_and_bookkeeping_not_among_the_changes(
    tmp_path: Path,
) -> None:
    """An option printed among the aid's Numbers, a yes-or-no one as "Played on: False", and a
    yes as "True"; a variant's new variable printed among its changes ("Visited: Whether ...")."""
    docs = _docs(tmp_path, SHORTER)
    assert ("Beads a turn", "2") in docs.aid.numbers
    assert [name for name, _ in docs.aid.numbers] == ["Beads a turn"]
    assert [part.title for part in docs.book.changes] == []
    assert "Last round" in docs.book.left_out  # what it removes: one line of the changes' opening


BASE_WITH_A_VALUE = BASE.replace(
    "score p = count(pieces(p.hand))\n",
    'value counted(p: player) = count(pieces(p.hand))\n  called "Beads counted"\nscore p = counted(p)\n',
)

RECOUNTED = """\
variant "Beads counted twice" of "beads.rules":
  says "Every bead counts twice."

replace value counted(p: player) = 2 * count(pieces(p.hand))
  called "Beads counted"
  says "Each bead in your hand counts twice."

table colour (name, called, worth: int "Worth"):
  text "The colours of the beads, and what each is worth."
  red, "Red", 1
  blue, "Blue", 2
"""


def test_the_aid_prints_the_definitions_the_variant_changes_and_the_tables_it_brings(tmp_path: Path) -> None:
    """A player holding the aid needs what the variant defines anew: a replaced value's words
    and a new table's, in its changes' book and in its whole book (`--full`) alike."""
    (tmp_path / "beads.rules").write_text(BASE_WITH_A_VALUE)
    path = tmp_path / "variant.rules"
    path.write_text(RECOUNTED)
    found = meeple.check(path)
    assert found.ok and found.module and found.symbols and found.program, found.diagnostics
    for full in (False, True):
        docs = render.game_docs(path, found.module, found.symbols, found.program.constants, full)
        assert docs.aid.defined == [
            ("Beads counted", "Each bead in your hand counts twice."),
            ("colour", "The colours of the beads, and what each is worth."),
        ]
        assert "## In this variant" in render.aid_markdown(docs)


def test_a_table_the_variant_brings_prints_its_rows_in_its_book(tmp_path: Path) -> None:
    """The Stasis's new tables printed their words among the changes, and no row: a table the
    variant writes whole is printed whole in its book's reference, and only there."""
    (tmp_path / "beads.rules").write_text(BASE_WITH_A_VALUE)
    path = tmp_path / "variant.rules"
    path.write_text(RECOUNTED)
    found = meeple.check(path)
    assert found.ok and found.module and found.symbols and found.program, found.diagnostics
    docs = render.game_docs(path, found.module, found.symbols, found.program.constants)
    assert [(s.title, s.rows) for s in docs.book.sheets] == [("colour", [["Red", "1"], ["Blue", "2"]])]
    assert "colour" not in [p.title for p in docs.book.changes]
    assert "| Red | 1 |" in render.rulebook_markdown(docs)


def test_a_wide_table_split_in_parts_repeats_the_columns_that_name_a_row() -> None:
    """Split in parts, a table whose first column does not name a row alone (a card's steps)
    repeats the card and the order in each part: the Stasis's card Actions printed "CO5" on
    three rows of the second part, which a reader could not match with the first."""
    from meeple.codegen.rulebook import WIDEST, Sheet

    wide = WIDEST // 7  # letters a column: seven of them do not fit the page
    columns = ["Card", "Order", *(f"C{i}" for i in range(7))]
    rows = [
        [card, str(order), *(f"{card}{order}-{i}".ljust(wide, "x") for i in range(7))]
        for card in "AB"
        for order in (1, 2)
    ]
    parts = Sheet("Steps", [], columns, rows).parts()
    assert len(parts) == 2
    for heads, cells in parts:
        assert heads[:2] == ["Card", "Order"]
        assert [r[:2] for r in cells] == [r[:2] for r in rows]
    keyed = Sheet(
        "Kinds",
        [],
        ["Kind", *(f"C{i}" for i in range(7))],
        [[k, *["x" * wide] * 7] for k in "AB"],
    )
    parts = keyed.parts()
    assert len(parts) == 2 and all(heads[:1] == ["Kind"] and heads[1] != "Kind" for heads, _ in parts)


@pytest.mark.parametrize("stem", VARIANTS)
def test_every_value_the_variant_replaces_is_in_its_aid(stem: str) -> None:
    """The two-player aid cut "Lucy's space" (you cannot stop where Lucy is), which the variant
    defines by replacing a value: each value and movement a variant replaces is in its aid, under
    "In this variant", or else in the variant's own words of every rule and score line that
    reads it (the Team game's aid told its team rules twice: issue 25, section 2), or its
    `holds` says which words on the aid tell it (the Stasis's Challenge card winner, told by its
    scoring)."""
    found = checked(stem)
    assert found.module is not None and found.symbols is not None and found.symbols.play is not None
    from meeple.interpreter.names import Names
    from meeple.interpreter.variants import names_used

    names = Names(found.symbols)
    files = _variant_files(found.module, found.symbols)
    aid, text = aid_of(stem)
    titles = [name for name, _ in aid.defined]
    base = found.symbols.play.span.file
    for key, span in found.module.patched.items():
        kind, name = key.split(" ", 1)
        if (
            kind in ("value", "movement")
            and span.file in files
            and (name in found.symbols.values or name in found.symbols.movements)
            and names.decl(name).one not in titles
            and not any(m.kind == "holds" for m in _declared(found.module, kind, name).meta)
        ):
            readers = [
                d
                for d in found.module.decls
                if not isinstance(d, ast.Example)
                and name in names_used(d)
                and getattr(d, "name", None) != name
            ]
            assert readers, key
            for reader in readers:
                assert isinstance(reader, ast.RuleDecl | ast.TriggerDecl | ast.ScoreDecl), key
                said = [m.value for m in reader.meta if m.kind == "says" and m.span.file != base]
                assert said and first_sentence(" ".join(said[0].split())) in text, key


def _declared(module: ast.Module, kind: str, name: str) -> ast.Decl:
    """The declaration a variant's `replace KIND NAME` leaves in the game."""
    cls = ast.ValueDecl if kind == "value" else ast.MovementDecl
    return next(d for d in module.decls if isinstance(d, cls) and d.name == name)


@pytest.mark.parametrize("stem", VARIANTS)
def test_a_turn_alone_names_no_one_who_plays_first(stem: str) -> None:
    """A turn, alone: a one-player variant's aid says nothing of whose token plays first (the
    solo aid kept "the player whose Owner token is lowest ... plays first")."""
    found = checked(stem)
    assert found.symbols is not None and found.symbols.header is not None
    if found.symbols.header.max_players > 1 or found.symbols.automata:
        return
    _, text = aid_of(stem)
    assert not re.search(r"\bplays? first\b|\bstarting player\b", text, re.IGNORECASE)


def test_the_two_player_aid_tells_what_an_owner_token_with_no_space_to_stop_on_does() -> None:
    """What a blocked piece does (issue 25 §2): the aid cut "Moving your Owner token" to its first
    sentence, and with it going to Standby, the only way the Action phase ends for a player."""
    _, text = aid_of("dino_garden_2p")
    assert re.search(r"Moving your Owner token\*\*: [^*]*go to Standby", text)


def test_the_two_player_aid_tells_where_the_neutral_token_goes_when_no_space_ahead_is_free() -> None:
    """What a blocked piece does (issue 25 §2), for the neutral token too: the aid cut "Lucy's
    move" to its first sentence, and never said that Lucy goes to Standby when no space is free."""
    aid, _ = aid_of("dino_garden_2p")
    gists = [gist for name, gist in aid.actions if name == "Lucy's move"]
    assert gists and all("Standby" in gist for gist in gists), gists


@pytest.mark.parametrize("stem", [p.stem for p in bundled_games() if p.stem.startswith("dino_garden")])
def test_the_aid_tells_that_the_predator_phase_gives_the_predator_track_bonuses(stem: str) -> None:
    """What a phase gives is a basic question (issue 25 §2): the aid cut the Predator phase's last
    words to "all meat left ... returns to the supply", and the bonuses a player gains there
    were in no line of the aid."""
    _, text = aid_of(stem)
    phase = text.split("Predator phase:**", 1)[1].split("Producer phase", 1)[0]
    assert "Predator track bonuses" in phase, phase


def test_the_aid_tells_in_which_order_the_columns_are_refilled_and_from_which_stacks() -> None:
    """The aid cut the refill to "refill the empty columns from the stacks": which column first
    and which stack, asked at every refill, were only in the rulebook."""
    aid, _ = aid_of("gods_love_dinosaurs")
    gists = [gist for name, gist in aid.actions if name == "Refilling the animal columns"]
    assert gists and all("left to right" in gist and "stack A" in gist for gist in gists), gists


@pytest.mark.parametrize("stem", [p.stem for p in bundled_games() if p.stem.startswith("dino_garden")])
def test_the_aid_tells_how_the_main_track_is_refilled_between_rounds(stem: str) -> None:
    """The aid cut the Next Round Preparation to moving the tokens off the chips, and never said
    that the track is filled again, nor with which Round chip."""
    _, text = aid_of(stem)
    phase = text.split("Next Round Preparation phase:**", 1)[1].split("**", 1)[0]
    assert "Round chip" in phase, phase


@pytest.mark.parametrize("stem", [s for s in VARIANTS if s.startswith("dino_dynasty")])
def test_the_aid_tells_how_an_extinct_player_comes_back(stem: str) -> None:
    """What a piece off the board does (issue 25 §2): the Dynasty game's aid cut Extinction to
    "you may first change your Dynasty's species", and never said where the Herd restarts."""
    aid, _ = aid_of(stem)
    gists = [gist for name, gist in aid.actions if name == "Extinction!"]
    assert gists and all("starting Herd" in gist for gist in gists), gists


@pytest.mark.parametrize("stem", [p.stem for p in bundled_games() if p.stem.startswith("dino_dynasty")])
def test_the_aid_tells_who_loses_a_fight_and_how_many(stem: str) -> None:
    """The end of a fight is a basic question (issue 25 §2): the aid cut "Compete resolution" to
    its first sentence, which counted the Power (in the Team game and the Campaign in teams,
    chose the Rival) and never said that the side with the lower Power loses the difference."""
    aid, _ = aid_of(stem)
    gists = [gist for name, gist in aid.actions if name == "Compete resolution"]
    assert gists and all("lower Power loses" in gist and "difference" in gist for gist in gists), gists


@pytest.mark.parametrize("stem", [p.stem for p in bundled_games()])
def test_an_aid_sends_its_reader_only_to_what_it_prints(stem: str) -> None:
    """An aid never points at what it does not carry (issue 25 section 2): the Campaign's setup
    said "the player with the fewest Campaign tokens (see Starting player)", a section of the
    rulebook alone, and the aid's reader could not learn who starts among players tied."""
    found = checked(stem)
    assert found.module is not None and found.symbols is not None and found.program is not None
    docs = render.game_docs(found.path, found.module, found.symbols, found.program.constants)
    lines = render.aid_markdown(docs).splitlines()
    for name in re.findall(r"\(see ([^)]+)\)", "\n".join(lines)):
        step = re.compile(rf"\d+\. {re.escape(name)}:")
        printed = [line for line in lines if line.startswith("#") and name in line]
        printed += [line for line in lines if f"**{name}" in line or step.match(line)]
        assert printed, f"the aid sends its reader to {name!r}, which it does not print"


@pytest.mark.parametrize("stem", [s for s in ["dino_dynasty", *VARIANTS] if s.startswith("dino_dynasty")])
def test_the_aid_tells_what_each_challenge_card_counts(stem: str) -> None:
    """Scoring is a basic question (issue 25): Dino Dynasty's aid said each card goes to "the
    player with the most of what it counts" and never what that is, the Challenge card table
    being in the rulebook alone. The Stasis plays 6 of the 12 cards: its aid tells those 6 and
    names none it leaves out, which a player would look for in vain."""
    aid, _ = aid_of(stem)
    told = " ".join(aid.scoring)
    in_play = ["Builder", "Migrator", "Procreator", "Hatcher", "Conqueror", "Stomper"]
    left_out = ["Explorer", "Hermit", "Rival", "Morpher", "Herder", "Survivor"]
    if stem != "dino_dynasty_stasis":
        in_play, left_out = in_play + left_out, []
    assert all(f"{card}," in told or f"{card} and" in told for card in in_play), told
    assert not any(f"{card}," in told or f"{card} and" in told for card in left_out), told


@pytest.mark.parametrize("stem", VARIANTS)
def test_a_game_alone_speaks_to_its_one_player_in_setup_turn_and_end(stem: str) -> None:
    """A one-player variant's aid speaks to you: its setup, its phases and its final scoring said
    "each player takes", "players take this phase one after another", "all players at once" and
    "the player whose Owner token is farthest behind always takes the next turn", the
    three-player game's words (issue 25)."""
    found = checked(stem)
    assert found.symbols is not None and found.symbols.header is not None
    if found.symbols.header.max_players > 1 or found.symbols.automata:
        return
    aid, _ = aid_of(stem)
    told = [*aid.setup, *aid.setup_steps, *(line.flat() for line in aid.flow)]
    for line in told:
        assert not re.search(
            r"\beach player\b|\bplayers take\b|\ball players\b|\bthe player whose\b", line, re.IGNORECASE
        ), line


def test_the_two_player_aid_gives_the_standby_spaces_points() -> None:
    """The two-player aid said a player scores "the victory points beside their Standby space",
    which Lucy can take from them, and never how many: 5, 3, 1 and 0 from the bottom."""
    aid, _ = aid_of("dino_garden_2p")
    assert any("5, 3, 1 and 0 victory points" in line for line in aid.goal)


def _full_book(stem: str) -> render.GameDocs:
    found = checked(stem)
    assert found.module is not None and found.symbols is not None and found.program is not None
    return render.game_docs(found.path, found.module, found.symbols, found.program.constants, full=True)


# What a designer's note says where a ruling should say what to do: a quoted phrase of the
# publisher's book ('Either direction' is read as...), the page or picture it follows, the reading.
DESIGNERS_WORDS = re.compile(
    r"\brulebook\b|\bexample\b|\bwe follow\b|\bis read as\b|\bthe diagram\b|\badvice\b"
    r"|(?<![\w'])'[A-Za-z][^']*'",
    re.IGNORECASE,
)


@pytest.mark.parametrize("stem", [path.stem for path in bundled_games()])
def test_a_ruling_says_what_to_do_without_quoting_or_pointing_into_the_publishers_book(stem: str) -> None:
    """A ruling tells a player what to do in the rulebook's words (issue 25): the Campaign's whole
    book said "the rulebook's Campaign example adds up to 6", the variants' books "We follow the
    marks on the Main track", "The diagram puts the 4 blue chips", "'With a team mate' is read
    as", "'To win the game' is an Event", "though the setup's advice counts C", and the base game
    "'may' only says which marker is free to choose"."""
    for ruling in _full_book(stem).book.rulings:
        said = f"{ruling.point}: {ruling.words}"  # a conflict's question prints with its reading
        assert not DESIGNERS_WORDS.search(said), said


CHANGE_SPECIES = [
    "dino_dynasty",
    "dino_dynasty_teams",
    "dino_dynasty_dynasty",
    "dino_dynasty_campaign",
    "dino_dynasty_campaign_teams",
]


@pytest.mark.parametrize("stem", CHANGE_SPECIES)
def test_a_variant_where_an_extinct_player_changes_species_prints_no_ruling_against_it(stem: str) -> None:
    """Extinction!: "The player may choose to freely change to any another species". The Dynasty
    game's whole book once let an Extinct player change species and kept the base game's ruling
    that each player keeps their Dino board for the whole game. Every book's Extinction rule now
    offers the change, and none prints a ruling against it."""
    book = _full_book(stem).book
    assert any("change to another species of your Dynasty" in " ".join(p.words) for p in book.rules)
    assert not any("for the whole game" in f"{ruling.point} {ruling.words}" for ruling in book.rulings)


DINO_DYNASTY = [path.stem for path in bundled_games() if path.stem.startswith("dino_dynasty")]


@pytest.mark.parametrize("stem", DINO_DYNASTY)
def test_every_dino_dynasty_aid_says_who_starts_and_which_scenario_type_is_drawn(stem: str) -> None:
    """Setup from the aid alone: "the starting player" is defined where it is first used (the
    rulebook's player who last read, watched or listened to something about dinosaurs), and the
    Scenario card is drawn of a type the aid says how to get, not "of the chosen type"."""
    _, text = aid_of(stem)
    assert "last read, watched or listened to something about dinosaurs" in text
    assert "of the chosen type" not in text


def test_the_stasis_aid_names_every_mode_in_its_mode_line() -> None:
    _, text = aid_of("dino_dynasty_stasis")
    line = text.split("**Stasis mode**:", 1)[1].split(" - **", 1)[0]
    assert all(mode in line for mode in ["Easy", "Legendary", "Manker"])


@pytest.mark.parametrize("stem", ["dino_dynasty_campaign", "dino_dynasty_campaign_teams"])
def test_a_campaign_book_says_the_most_campaign_tokens_win_not_the_last_scenario(stem: str) -> None:
    found = checked(stem)
    assert found.module is not None and found.symbols is not None and found.program is not None
    docs = render.game_docs(found.path, found.module, found.symbols, found.program.constants)
    text = " ".join(render.rulebook_markdown(docs).split())
    assert "most Campaign tokens after Scenario E win the Campaign" in text
    assert "wins the last game wins them all" not in text


def _book_of(stem: str) -> render.GameDocs:
    found = checked(stem)
    assert found.module and found.symbols and found.program, found.diagnostics
    return render.game_docs(found.path, found.module, found.symbols, found.program.constants)


def test_every_change_of_the_stasis_book_is_told_once_and_in_sentences() -> None:
    """The Stasis book printed "Challenge cards" twice among its changes, the second only
    "- 4 in this variant, instead of 5.", a fragment under a heading a player had just read:
    each change has a heading of its own and says it in a sentence."""
    changes = _book_of("dino_dynasty_stasis").book.changes
    titles = [p.title for p in changes]
    assert len(titles) == len(set(titles)), titles
    said = [w for p in changes for w in p.words] + [line.text for p in changes for line in p.steps]
    assert not [s for s in said if re.match(r"\d+ in this variant", s)], said


@pytest.mark.parametrize(
    ("stem", "table", "fact"),
    [
        ("dino_dynasty_stasis", "Stasis starting Herds", "4, 3 and 2 Dinos"),
    ],
)
def test_an_aid_says_what_a_table_holds_not_that_a_table_holds_it(stem: str, table: str, fact: str) -> None:
    """The aid carries no table: "Stasis starting Herds: The Stasis's 3 starting Herds, by the
    size group of its species" and "Map growth: The sides a kept Map can grow on" pointed a
    player holding the aid at rows they did not have. A table's words the aid prints say what
    its rows say."""
    aid, _ = aid_of(stem)
    line = dict(aid.defined)[table]
    assert fact in line, line


@pytest.mark.parametrize("stem", ["dino_dynasty_campaign", "dino_dynasty_campaign_teams"])
def test_a_campaign_aid_says_a_smaller_species_takes_its_extra_dinos_off_a_kept_map(stem: str) -> None:
    """A species with fewer Dinos than its player has on a kept Map takes the extra ones off
    it: the Campaign said so only in "Taking a species", a rule no setup step or aid printed."""
    aid, _ = aid_of(stem)
    assert any("takes the extra ones off it" in step for step in aid.setup_steps), aid.setup_steps


def test_each_stasis_value_a_card_bonus_raises_says_its_own_bonus_alone() -> None:
    """The Stasis book printed four near-identical entries, the first listing every bonus ("A
    card's bonus (+1 Spread level, Herd max, steps, or Power) adds...") and the next three
    saying it again one by one: each entry says what its own value is for the Stasis and names
    its own bonus, and no other."""
    bonuses = {
        "Spread level": "more Spread level",
        "Herd max": "more Herd max",
        "Compete strength": "more Compete strength",
        "Steps in a move": "more steps",
    }
    said = {p.title: " ".join(p.words) for p in _book_of("dino_dynasty_stasis").book.changes}
    for title, bonus in bonuses.items():
        assert bonus in said[title], said[title]
        assert not [b for b in bonuses.values() if b != bonus and b in said[title]], said[title]


@pytest.mark.parametrize("stem", DINO_DYNASTY)
@pytest.mark.parametrize(
    ("action", "needed"),
    [
        ("Migrate with a Territory tile", "move 1 Herd onto a Biome of the new tile"),
        ("Compete", "choose 1 Rival there to attack"),
        ("Events", "roll the Event die"),
        ("Events", "move a Herd onto the Event"),
    ],
)
def test_a_dino_dynasty_aid_keeps_what_a_player_does_in_each_action(
    stem: str, action: str, needed: str
) -> None:
    """The aid prints a rule's first sentence, and three rules put what a player must do after
    it: "Events: An Event tile on top of a Territory pile may be played in a Migrate." and no
    more (no die roll, no place, no Herd moving onto it), a Migrate whose Herd need not use the
    new tile, a Compete without the Rival to attack. Each aid keeps it."""
    aid, _ = aid_of(stem)
    lines = [gist for name, gist in aid.actions if name == action]
    assert lines and all(needed in gist for gist in lines), lines


@pytest.mark.parametrize(
    ("stem", "sheet", "machine"),
    [
        ("dino_dynasty", "Morph", {"Kind", "Amount", "Biome"}),
    ],
)
def test_a_dino_dynasty_table_prints_no_column_only_the_rules_read(
    stem: str, sheet: str, machine: set[str]
) -> None:
    """The Morph table printed "Kind", "Amount" and "Biome" beside the printed effect, and Map
    growth two yes/no columns: the rules' encoding of what the effect or the row's name says,
    which a player never needs (issue 25)."""
    sheets = [s for s in _book_of(stem).book.sheets if s.title == sheet]
    assert sheets and all(not machine & set(s.columns) for s in sheets), [s.columns for s in sheets]


def test_the_stasis_reference_prints_its_cards_once_under_headings_that_read_alone() -> None:
    """The Stasis book printed an 18-row "Stasis card" table that only repeated the first column
    of "Stasis card Action", and a column of that table headed "By": the cards print once, and
    the bonus's column says what it counts."""
    sheets = _book_of("dino_dynasty_stasis").book.sheets
    titles = [s.title for s in sheets]
    assert "Stasis card" not in titles and "Stasis card Action" in titles, titles
    assert all("By" not in s.columns for s in sheets)


@pytest.mark.parametrize(
    "stem", ["dino_dynasty_dynasty", "dino_dynasty_campaign", "dino_dynasty_campaign_teams"]
)
def test_a_change_of_species_in_the_aid_says_how_many_dinos_the_player_keeps(stem: str) -> None:
    """The Dynasty game's aid cut "Change species" before its last sentence, "Take or put back
    Dinos to the new species' number": a player changing species from the aid alone kept the old
    species' Dinos."""
    aid, _ = aid_of(stem)
    lines = [gist for name, gist in aid.actions if name == "Change species"]
    assert lines and all("keep as many Dinos as it shows" in gist for gist in lines), lines


def test_the_stasis_aid_says_which_herds_the_stasis_never_attacks_and_how_it_picks_one() -> None:
    """A player runs the Stasis from the aid: "The Stasis Competes" was cut to its first sentence,
    without the Herds 3 or more Power above that it never Attacks, nor the die roll that picks
    among several players."""
    aid, _ = aid_of("dino_dynasty_stasis")
    line = dict(aid.actions)["The Stasis Competes"]
    assert "3 or more above its own" in line and "a die roll picks one" in line, line


SEE = re.compile(r"\(see ([^)]+)\)")


@pytest.mark.parametrize("stem", VARIANTS)
def test_a_step_the_variant_rewrites_still_points_to_the_rules_the_base_step_tells(stem: str) -> None:
    """What do I do on my turn: a step the variant writes anew keeps, in the sentence the aid prints,
    every rule the base game's step points a player to ("see Moving your Owner token"). The
    two-player aid's Turns once said only when Lucy moves, and no longer the three steps of a turn."""
    found = checked(stem)
    assert found.module is not None and found.symbols is not None and found.symbols.play is not None
    base = checked(Path(found.symbols.play.span.file).stem)  # the game whose flow the variant patches
    assert base.symbols is not None and base.symbols.play is not None
    files = _variant_files(found.module, found.symbols)
    base_steps = {b.name: b for b in base.symbols.play.find_all(ast.Named)}
    for block in found.symbols.play.find_all(ast.Named):
        if block.span.file not in files or block.name not in base_steps:
            continue
        before, told = words_of(own_lines(base_steps[block.name]))
        now, tells = words_of(own_lines(block))
        if not (told and tells):
            continue
        printed = first_sentence(" ".join(now[0].split()))
        for name in SEE.findall(first_sentence(" ".join(before[0].split()))):
            assert f"(see {name})" in printed, (block.name, name)


def test_the_stasis_aid_tells_where_the_stasis_places_its_territory_tile_and_whether_its_herd_moves() -> None:
    """Rulebook, Placing Territory Tile Priority: "Expand the Smallest/Largest (stated on card)
    Biome ... Orient the tile so that it matches both Biome types (except Water) if possible,
    otherwise expand towards the player. Rotate the tile clockwise to the first possible match ...
    If still tied, North > West." A player runs the Stasis's Migrate from the aid alone: "The Stasis
    Migrates" was cut to its first sentence, with none of its tile priorities (issue 25)."""
    aid, _ = aid_of("dino_dynasty_stasis")
    line = dict(aid.actions)["The Stasis Migrates"]
    for words in (
        "showing the Herd's Biome (else the leftmost)",
        "expand the smallest or largest Biome",
        "(not Water) match the same Biome",
        "nearest a player's Herd",
        "then North, then West",
        "clockwise to the first match",
        "if the card requires it",
    ):
        assert words in line, words


def test_a_variant_aid_title_has_no_second_colon() -> None:
    """The aid of "Dino Garden: two players" was titled "Dino Garden: two players: player aid";
    the aid's title names the game, then "player aid" after a dash, as the HTML aid does."""
    found = meeple.check("dino_garden_2p")
    assert found.module is not None and found.symbols is not None and found.program is not None
    docs = render.game_docs(found.path, found.module, found.symbols, found.program.constants)
    assert render.aid_markdown(docs).splitlines()[0] == "# Dino Garden: two players — player aid"
