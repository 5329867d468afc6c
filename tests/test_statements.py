"""A statement is declared in one place (issue 27): its node class in grammar/ast.py holds its
facts (`ast.Facts`: the forms it is written in, what it binds, writes and calls, whether it can
suspend), every list that used to be kept by hand is derived from them, and each pass has one
method for it, found by the node's class name (`stmt_X` in analysis, `compile_X` in the
compiler, `lower_X` in the native lowering, `english.HANDLERS` for the words).

These tests are that contract: every kind of statement has facts that fit its fields and the
grammar, every pass handles every kind, the language reference has one row for each form (and no
row for a form no statement has), and a pass that meets a node it has no method for stops with an
error that says where the node stands, instead of skipping it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from test_suspends import EVERY_KIND

import meeple
from meeple.codegen.english import HANDLERS
from meeple.codegen.markup import plain
from meeple.codegen.players import PlayersEnglish
from meeple.grammar import ast
from meeple.grammar.mistakes import FORMS
from meeple.grammar.words import statement_words
from meeple.interpreter.analysis import Analyzer
from meeple.interpreter.checks import CheckOptions, run_checks
from meeple.interpreter.compiler import Compiler
from meeple.interpreter.native.lower import Lowering

KINDS = ast.statement_kinds()
# Metadata lines (`text`, `cites`...) are words for readers, not steps: the compiler and the
# lowering skip them, analysis and the words do not.
STEPS = [kind for kind in KINDS if not issubclass(kind, ast.Meta)]
# Statements the native core does not run yet: a game that uses one is played by the Python
# engine (the lowering raises `Unsupported` for it, interpreter/native/lower.py). Once the core
# runs one, its `lower_X` method exists and it leaves this list (a test below insists).
PYTHON_ENGINE_ONLY: set[type[ast.Node]] = set()  # none left: the core runs every statement
# Statements the printed rules leave out (codegen/players.py): a log line is the game's record,
# a tally the designer's statistics; neither is a rule.
NOT_FOR_PLAYERS = {ast.Log, ast.Tally}
REFERENCE = Path(__file__).parent.parent / "docs" / "language.md"


def name(kind: type[ast.Node]) -> str:
    return kind.__name__


# ------------------------------------------------------------------ the facts


@pytest.mark.parametrize("kind", KINDS, ids=name)
def test_every_statement_declares_how_it_is_written(kind: type[ast.Stmt]) -> None:
    assert isinstance(kind.facts, ast.Facts)
    assert "facts" in vars(kind), f"{name(kind)} declares no facts of its own"
    assert kind.facts.forms, f"{name(kind)} gives no form"


@pytest.mark.parametrize("kind", KINDS, ids=name)
def test_the_facts_name_fields_the_statement_has(kind: type[ast.Stmt]) -> None:
    facts, fields = kind.facts, kind.model_fields
    named = [*facts.texts, *facts.targets, *(f for f in (facts.binds, facts.calls) if f is not None)]
    assert set(named) <= set(fields), f"{name(kind)} names fields it lacks"
    for field in [*facts.texts, facts.binds, facts.calls]:
        if field is not None:
            annotation = str(fields[field].annotation)
            assert "str" in annotation or "Literal" in annotation, f"{name(kind)}.{field} is no word"
    assert ("bound" in facts.writes) == (facts.binds is not None)
    if facts.moves == "kind":
        assert "kind" in fields
    if facts.suspends == "call":
        assert facts.calls is not None
    if facts.suspends == "inside":  # it suspends when a block of its does: it has one
        assert any(re.search(r"list\[.*(Stmt|Branch)\]", str(f.annotation)) for f in fields.values())
    if facts.decided:  # a decision or chance picks its block: it waits for one, and has blocks
        assert facts.suspends == "always"
        assert any(re.search(r"list\[.*(Stmt|Outcome)\]", str(f.annotation)) for f in fields.values())


def test_every_word_a_form_starts_with_starts_a_statement_in_the_grammar() -> None:
    words = {form.split()[0].rstrip(":") for kind in KINDS for form in kind.facts.forms}
    keywords = {w for w in words if w.isalpha()}
    assert keywords <= statement_words() | {"elif", "else", "outcome"}, keywords - statement_words()


def test_every_word_that_starts_a_statement_has_a_form() -> None:
    """The grammar's statement words and the facts' forms are the same words: a statement added to
    the grammar without its node's facts fails here. `step` starts a movement's line too: its
    form would mislead there, so a phase's form speaks for it."""
    words = {form.split()[0].rstrip(":") for kind in KINDS for form in kind.facts.forms}
    assert statement_words() - words == {"step"}


def test_the_syntax_hints_are_the_forms() -> None:
    assert FORMS["swap"] == "swap <x> with <y>"  # the reference's `swap X with Y`
    assert FORMS["move"].count("move ") == 3  # move PIECES, move N, move all
    assert FORMS["table"].startswith("table <name>")  # declarations keep their own forms


# ------------------------------------------------------------------ every pass handles every kind


@pytest.mark.parametrize("kind", KINDS, ids=name)
def test_analysis_checks_every_statement(kind: type[ast.Stmt]) -> None:
    assert ast.find_handler(Analyzer, "stmt_", kind) is not None, f"Analyzer has no stmt_{name(kind)}"


@pytest.mark.parametrize("kind", STEPS, ids=name)
def test_the_compiler_compiles_every_statement(kind: type[ast.Stmt]) -> None:
    assert ast.find_handler(Compiler, "compile_", kind) is not None, f"Compiler has no compile_{name(kind)}"


@pytest.mark.parametrize("kind", KINDS, ids=name)
def test_every_statement_has_words_for_the_reference_and_for_players(kind: type[ast.Stmt]) -> None:
    assert kind in HANDLERS, f"english.HANDLERS lacks {name(kind)}"
    assert callable(getattr(PlayersEnglish, HANDLERS[kind].__name__))


@pytest.mark.parametrize("kind", STEPS, ids=name)
def test_the_native_lowering_lowers_every_statement_or_says_it_does_not(kind: type[ast.Stmt]) -> None:
    lowers = hasattr(Lowering, f"lower_{name(kind)}")
    if kind in PYTHON_ENGINE_ONLY:
        assert not lowers, f"the core now runs {name(kind)}: take it off PYTHON_ENGINE_ONLY"
    else:
        assert lowers, f"Lowering has no lower_{name(kind)}: write it, or list it in PYTHON_ENGINE_ONLY"


def test_every_statement_of_a_game_that_uses_them_all_is_said_in_players_words(tmp_path: Path) -> None:
    path = tmp_path / "every.rules"
    path.write_text(EVERY_KIND.format(trigger=""))
    checked = meeple.check(path)
    assert checked.ok and checked.module is not None
    speaker = PlayersEnglish(checked.symbols, checked.program.constants if checked.program else {})
    seen = set()
    for stmt in checked.module.find_all(ast.Stmt):
        if not isinstance(stmt, ast.Meta):
            seen.add(type(stmt))
            said = any(plain(line.flat()).strip() for line in speaker.stmt(stmt))
            assert said == (type(stmt) not in NOT_FOR_PLAYERS), name(type(stmt))
    assert seen == set(STEPS)


# ------------------------------------------------------------------ the facts at work

UNNAMED = """\
game "Unnamed":
  players 2..2

zone deck, ordered
zone hand per player
piece card: 3 in deck
piece chip: 3 in deck

play:
  {statement}
"""


@pytest.mark.parametrize("statement", ["draw 1 from deck to players[0].hand", "shuffle deck"])
def test_pieces_a_statement_sees_without_naming_their_kind_are_used(tmp_path: Path, statement: str) -> None:
    """`draw` and `shuffle` handle whatever lies in a zone (Facts.any_kind): the pieces that start
    in the zone are used though no line names their kind."""
    path = tmp_path / "unnamed.rules"
    path.write_text(UNNAMED.format(statement=statement))
    report = run_checks(meeple.check(path), str(path), CheckOptions())
    assert [d.message for d in report.diagnostics if d.message.startswith("piece")] == []


def test_pieces_no_statement_sees_are_unused(tmp_path: Path) -> None:
    path = tmp_path / "unnamed.rules"
    path.write_text(UNNAMED.format(statement="move 1 card from deck to players[0].hand"))
    report = run_checks(meeple.check(path), str(path), CheckOptions())
    unused = [d.message for d in report.diagnostics if d.code == "M040" and d.message.startswith("piece")]
    assert unused == ["piece 'chip' is never used"]


# ------------------------------------------------------------------ the language reference


def reference_rows() -> list[str]:
    """The statements of the reference's table "Every statement", as written in its first column."""
    text = REFERENCE.read_text(encoding="utf-8")
    table = text.split("### Every statement", 1)[1].split("\n\n")[2]
    return [re.match(r"\| `(.+?)` \|", line)[1] for line in table.splitlines()[2:]]  # type: ignore[index]


def test_the_reference_has_a_row_for_every_form_and_none_other() -> None:
    forms = [form for kind in KINDS for form in kind.facts.forms]
    rows = reference_rows()
    assert sorted(rows) == sorted(forms)


# ------------------------------------------------------------------ a kind no pass knows


def test_a_node_a_pass_has_no_method_for_is_an_internal_error_that_says_where() -> None:
    stray = ast.Branch(
        span=ast.Span(file="stray.rules", line=7, column=3), cond=ast.Bool(value=True), body=[]
    )
    analyzer = Analyzer(ast.Module(file="stray.rules", source="", decls=[]))
    with pytest.raises(
        ast.Unhandled, match=r"stray\.rules:7:3: internal error: analysis has no handler for Branch"
    ):
        analyzer.stmt(stray, {})  # type: ignore[arg-type]
