"""A `component` is what the players unpack and lay out that no rule moves or counts (a board, the
dice, a bag, a player aid): the rulebook lists it among the components with its count and its
words, and it plays no part in the game (docs/language.md, "Components"). A rulebook's component
list names everything in the box ("1 cloth bag", "4 runner tokens": tests/rulebooks/pebble-race.txt),
whether or not a rule moves it; a file that declared those as pieces sitting unmoved in a zone
said something false about them.

On a neutral game of our own, tests/games/seed_swap.rules: its garden boards, crop cards, score
cards, dice and sack are components, its seeds the only pieces."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from helpers import FIXTURES, ROOT, found, write

import meeple
from meeple import codes
from meeple.codegen import render
from meeple.codegen.rulebook import Rulebook
from meeple.interpreter.agents import make_agents
from meeple.interpreter.checks import CheckOptions, run_checks

SEED_SWAP = ROOT / "tests" / "games" / "seed_swap.rules"
SOURCE = SEED_SWAP.read_text(encoding="utf-8")


def book(path: Path, full: bool = False) -> Rulebook:
    checked = meeple.check(path)
    assert checked.module is not None and checked.symbols is not None and checked.program is not None
    constants = checked.program.constants
    return render.game_docs(checked.path, checked.module, checked.symbols, constants, full).book


def without_components(source: str) -> str:
    """The file with its component declarations (and their indented lines) taken out."""
    return re.sub(r"^component .*\n(?:  .*\n)*", "", source, flags=re.M)


def errors(tmp_path: Path, source: str) -> list[meeple.Diagnostic]:
    return [d for d in meeple.check(write(tmp_path, "g.rules", source)).diagnostics if d.severity == "error"]


# ------------------------------------------------------------------ what players read


def test_the_components_list_a_component_with_its_count_and_words_in_the_files_order() -> None:
    """Each form of count prints as a piece's does: a number, per player, one for each row of a
    table, a number for each row; a `says` that opens with the count tells it alone."""
    listed = [(c.name, c.count, c.words) for c in book(SEED_SWAP).components]
    assert listed == [
        ("seeds", "9 wooden seeds: 4 Beans, 3 Squashes and 2 Melons", []),
        ("Garden boards", "1 for each player", ["With room for the seeds its player plants."]),
        ("Crop cards", "3, one for each crop", ["Each shows its crop and the points a seed of it scores."]),
        ("Score cards", "4: 2 Bean, 1 Squash, 1 Melon", []),
        ("dice", "2", ["Used only to choose the first player: roll both, the highest total starts."]),
        ("cloth sack", "1, which holds the seeds not yet drawn", []),
    ]


def test_the_printed_rulebook_shows_the_components_in_its_components_section() -> None:
    checked = meeple.check(SEED_SWAP)
    assert checked.module is not None and checked.symbols is not None and checked.program is not None
    docs = render.game_docs(checked.path, checked.module, checked.symbols, checked.program.constants)
    text = render.rulebook_markdown(docs)
    section = text.split("## Components", 1)[1].split("\n## ", 1)[0]
    assert "**Garden boards**: 1 for each player. With room for the seeds" in section
    assert "**Dice**: 2. Used only to choose the first player" in section
    assert "**Crop cards**: 3, one for each crop. Each shows its crop" in section
    assert "**Cloth sack**: 1, which holds the seeds not yet drawn." in section


def test_the_designers_reference_lists_components_apart_from_the_pieces() -> None:
    checked = meeple.check(SEED_SWAP)
    assert checked.module is not None and checked.symbols is not None and checked.program is not None
    docs = render.game_docs(checked.path, checked.module, checked.symbols, checked.program.constants)
    assert [i.name for i in docs.reference.pieces] == ["seed"]
    assert [(i.name, i.extra) for i in docs.reference.components] == [
        ("garden board", "2 to 4 in all"),
        ("crop card", "3 in all"),
        ("score card", ""),
        ("die", "2 in all"),
        ("cloth sack", "1 in all"),
    ]
    assert "no rule moves or counts it" in docs.reference.components[0].words


# ------------------------------------------------------------------ it plays no part


@pytest.mark.parametrize("players", [2, 4])
def test_a_component_plays_no_part_the_game_is_the_same_without_it(tmp_path: Path, players: int) -> None:
    """The compiler leaves components out: every decision, the log and the scores are those of
    the same file with its components taken out."""
    bare = meeple.load(str(write(tmp_path, "bare.rules", without_components(SOURCE))))
    game = meeple.load(str(SEED_SWAP))
    assert game.program.kinds.keys() == bare.program.kinds.keys()
    for seed in range(5):
        a, b = game.new_game(players, seed), bare.new_game(players, seed)
        agents_a, agents_b = make_agents(["random"], players, seed), make_agents(["random"], players, seed)
        while not a.is_over:
            assert a.decision is not None and b.decision is not None
            assert list(a.decision.options) == list(b.decision.options)
            a.apply(agents_a[a.decision.player.seat].choose(a, a.decision))
            b.apply(agents_b[b.decision.player.seat].choose(b, b.decision))
        assert b.is_over and (a.log, a.scores) == (b.log, b.scores)


def test_the_checker_never_calls_a_component_unused(tmp_path: Path) -> None:
    """Nothing in the rules names a component, and nothing should: it is for the players. What its
    count reads (here the `boards_each` constant) is used by it."""
    report = run_checks(meeple.check(SEED_SWAP), str(SEED_SWAP), CheckOptions())
    assert [d for d in report.diagnostics if d.severity in ("error", "warning")] == []


# ------------------------------------------------------------------ a rule cannot use one


@pytest.mark.parametrize(
    "use",
    [
        "move 1 die from sack to p.garden",
        "move all die from sack to p.garden",
        'log "{count(pieces(sack, die))} dice"',
        "let d = die",
    ],
)
def test_a_rule_that_moves_counts_or_reads_a_component_is_an_error_at_its_name(
    tmp_path: Path, use: str
) -> None:
    source = SOURCE.replace("  draw 1 from sack to p.hand\n", f"  draw 1 from sack to p.hand\n  {use}\n")
    found_errors = errors(tmp_path, source)
    assert len(found_errors) == 1, found_errors
    error = found_errors[0]
    assert error.code == codes.WRONG_TYPE
    assert "'die' is a component" in error.message and "piece die: COUNT in ZONE" in error.hint
    assert error.line == source.splitlines().index(f"  {use}") + 1


def test_a_trigger_on_a_component_is_an_error(tmp_path: Path) -> None:
    source = SOURCE + '\nwhen die d enters z:\n  log "rolled"\n'
    found_errors = errors(tmp_path, source)
    assert [(e.code, e.line) for e in found_errors] == [(codes.WRONG_TYPE, len(SOURCE.splitlines()) + 2)]
    assert "'die' is a component" in found_errors[0].message


@pytest.mark.parametrize(
    ("line", "code", "says"),
    [
        ("component lid: each box_parts", codes.UNKNOWN_NAME, "unknown table 'box_parts'"),
        ("component lid: yes", codes.WRONG_TYPE, "a number of components"),
        ("component seed: 2", codes.DECLARED_TWICE, "'seed' is declared twice"),
    ],
)
def test_a_component_with_a_bad_count_or_a_taken_name_is_an_error_at_its_line(
    tmp_path: Path, line: str, code: str, says: str
) -> None:
    source = SOURCE + f"\n{line}\n"
    found_errors = errors(tmp_path, source)
    assert [(e.code, e.line) for e in found_errors] == [(code, len(SOURCE.splitlines()) + 2)]
    assert says in found_errors[0].message


# ------------------------------------------------------------------ citations and variants


def test_a_components_citation_is_checked_against_the_rulebook(tmp_path: Path) -> None:
    """`cites` on a component is a citation like any other: one the rulebook has counts toward its
    coverage, one it has not is reported."""
    header = 'game "Seed Swap":\n  players 2..4\n  rulebook "pebble-race.txt"\n'
    source = SOURCE.replace('game "Seed Swap":\n  players 2..4\n', header)
    source = source.replace('  called "cloth sack"\n', '  called "cloth sack"\n  cites "1 cloth bag"\n')
    source = source.replace('  called "die", "dice"\n', '  called "die", "dice"\n  cites "2 golden dice"\n')
    path = write(tmp_path, "g.rules", source)
    report = run_checks(meeple.check(path), str(path), CheckOptions(rulebook=FIXTURES / "pebble-race.txt"))
    missing = found(report, codes.CITATION_NOT_FOUND)
    assert [d.line for d in missing] == [source.splitlines().index('  cites "2 golden dice"') + 1]


def test_a_variant_removes_or_replaces_a_component_and_its_rulebook_tells_the_change(tmp_path: Path) -> None:
    (tmp_path / "seed_swap.rules").write_text(SOURCE, encoding="utf-8")
    variant = (
        'variant "Seed Swap without dice" of "seed_swap.rules":\n  players 2..4\n\n'
        "remove component die\n\n"
        "replace component garden_board: 2 per player\n"
        '  called "Garden board"\n  says "Two for each player: a summer one and a winter one."\n'
    )
    path = write(tmp_path, "no_dice.rules", variant)
    changes = book(path)
    told = {part.title: [*part.words, *(line.text for line in part.steps)] for part in changes.changes}
    assert told["Garden boards"] == ["Two for each player: a summer one and a winter one."]
    assert re.search(r"\u201c(dice|die)\u201d", changes.left_out.lower()), changes.left_out  # "Leave out ..."
    full = [(c.name, c.count) for c in book(path, full=True).components]
    assert ("Garden boards", "2 for each player") in full
    assert all(name != "dice" for name, _ in full)
