"""The registry of built-in functions (interpreter/builtins.py): the one place a built-in is known.

The language reference's table lists exactly the registry's entries, with their rows; the
compiler and the flow checks read the same purity; a built-in added to the registry, and nowhere
else, can be called, is typed by the checker and is spoken by both English voices. And a rule may
not be named after a word that starts a statement, the words being read from the grammar.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar

import pytest

import meeple
from meeple.codegen.english import English
from meeple.codegen.markup import plain
from meeple.codegen.players import PlayersEnglish
from meeple.grammar import ast
from meeple.grammar.words import statement_words
from meeple.interpreter.analysis import STATEMENT_WORDS, Analyzer
from meeple.interpreter.builtins import BUILTINS, Builtin, register
from meeple.interpreter.checks import CheckOptions, run_checks
from meeple.interpreter.compiler import Compiler
from meeple.interpreter.program import Fn
from meeple.interpreter.types import INT, LOC, PLAYER, Cell, Grid, ListOf, Placement, Type

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = ROOT / "docs" / "language.md"
GAME = """game "Test":
  players 2..4
zone reserve
piece coin: 5 in reserve
var n: int = 0
{decls}
play:
{play}
score p = n
"""


def reference_rows() -> list[tuple[str, str, str]]:
    """The rows of the language reference's table of built-in functions."""
    text = REFERENCE.read_text(encoding="utf-8")
    section = text.split("\n## Built-in functions\n", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| ")][1:]  # past the heading
    return [tuple(cell.strip() for cell in row.strip("|").split(" | ")) for row in rows]  # type: ignore[misc]


def test_the_reference_lists_every_builtin_with_its_row() -> None:
    wanted = [(b.usage, b.arguments, b.value) for b in BUILTINS.values()]
    assert reference_rows() == wanted


def test_each_row_shows_the_builtins_own_calls() -> None:
    for builtin in BUILTINS.values():
        called = set(re.findall(r"`(\w+)\(", builtin.usage))
        assert called == {builtin.name}, builtin.usage


def write(tmp_path: Path, decls: str = "", play: str = "  end game") -> Path:
    path = tmp_path / "game.rules"
    path.write_text(GAME.format(decls=decls, play=play), encoding="utf-8")
    return path


# ---------------------------------------------------------------------- a throwaway built-in


class Twice(Builtin):
    """A built-in only these tests know: twice(n) is 2 * n."""

    name = "twice_of"
    fewest, most = 1, 1
    usage = "`twice_of(n)`"
    value = "n doubled"

    def check(self, analyzer: Analyzer, call: ast.Call, types: list[Type]) -> Type:
        analyzer.expect(call.args[0], types[0], INT, "twice_of's argument")
        return INT

    def compile(self, compiler: Compiler, call: ast.Call, scope: set[str]) -> Fn:
        arg = compiler.expr(call.args[0], scope)
        return lambda rt, env: 2 * arg(rt, env)

    def english(self, speaker: English, call: ast.Call, words: list[str]) -> str | None:
        return f"twice {words[0]}"

    def players(self, speaker: English, call: ast.Call, words: list[str]) -> str | None:
        return f"double {words[0]}"


class PureTwice(Twice):
    name = "pure_twice_of"
    pure: ClassVar[bool] = True


@pytest.fixture
def twice() -> Iterator[type[Builtin]]:
    """Twice and PureTwice in the registry for one test, and out of it after."""
    register(Twice)
    register(PureTwice)
    try:
        yield Twice
    finally:
        del BUILTINS[Twice.name], BUILTINS[PureTwice.name]


def test_a_builtin_is_one_entry(tmp_path: Path, twice: type[Builtin]) -> None:
    path = write(tmp_path, "value six() = twice_of(3)\n", "  set n to twice_of(six())\n  end game")
    checked = meeple.check(path)
    assert checked.ok, checked.diagnostics
    assert checked.symbols is not None
    call = next(d for d in checked.symbols.module.decls if isinstance(d, ast.ValueDecl)).expr
    assert checked.symbols.types[id(call)] == INT  # the checker typed it

    state = meeple.load(path).new_game(2, seed=0)  # it runs
    assert state.is_over
    assert state.scores == [12, 12]

    assert plain(English(checked.symbols).expr(call)) == "twice 3"  # it is spoken
    assert plain(PlayersEnglish(checked.symbols).expr(call)) == "double 3"


def test_a_builtins_arguments_are_checked_from_its_entry(tmp_path: Path, twice: type[Builtin]) -> None:
    checked = meeple.check(write(tmp_path, 'value w() = twice_of("x")\nvalue z() = twice_of(1, 2)\n'))
    messages = {d.code: d.message for d in checked.diagnostics}
    assert messages["M014"] == "twice_of's argument must be a number, not a text"
    assert messages["M012"] == "'twice_of' takes 1 argument(s), not 2"


def test_a_misspelt_builtin_is_suggested_from_the_registry(tmp_path: Path, twice: type[Builtin]) -> None:
    checked = meeple.check(write(tmp_path, "value w() = twice_off(1)\n"))
    unknown = next(d for d in checked.diagnostics if d.code == "M010")
    assert "twice_of" in unknown.hint


# ---------------------------------------------------------------------- purity


def flow_codes(path: Path) -> set[str]:
    report = run_checks(meeple.check(path), str(path), CheckOptions())
    return {d.code for d in report.diagnostics}


def static_values(path: Path) -> set[str]:
    symbols = meeple.check(path).symbols
    assert symbols is not None
    return Compiler(symbols).static_values()


@pytest.mark.parametrize("func", ["twice_of", "pure_twice_of", "abs", "players_from"])
def test_the_compiler_and_the_flow_checks_read_the_same_purity(
    tmp_path: Path, twice: type[Builtin], func: str
) -> None:
    builtin = BUILTINS[func]
    arg, param = ("players[0]", "p: player") if func == "players_from" else ("n", "k: int")
    # A loop whose condition calls the built-in: reported (M046) when the checks know the call
    # reads nothing the loop's body could change.
    loop = write(tmp_path, play=f'  while count([{func}({arg})]) < 3:\n    log "spin"\n  end game')
    assert ("M046" in flow_codes(loop)) == (builtin.pure or builtin.steady)
    # A value built on it: kept across games by the compiler only when it is pure.
    value = write(tmp_path, f"value f({param}) = {func}({param.split(':')[0]})\n")
    assert ("f" in static_values(value)) == builtin.pure


def test_the_purity_of_the_builtins() -> None:
    pure = {name for name, b in BUILTINS.items() if b.pure}
    steady = {name for name, b in BUILTINS.items() if b.steady}
    assert pure == {"count", "sum", "min", "max", "any", "all", "abs", "flat", "bottom"}
    assert steady == {"neighbours", "players_from", "next_player", "automated", "team", "teammates"}


# ---------------------------------------------------------------------- statement words


def test_the_statement_words_are_the_grammars() -> None:
    assert statement_words() == STATEMENT_WORDS
    assert {"move", "place", "offer", "may", "step", "phase", "text", "aside"} <= STATEMENT_WORDS
    assert not {"each", "game", "to", "rule"} & STATEMENT_WORDS


@pytest.mark.parametrize("name", ["place", "offer", "aside"])
def test_a_rule_named_after_a_statement_word_is_refused(tmp_path: Path, name: str) -> None:
    checked = meeple.check(write(tmp_path, f"rule {name}():\n  end game\n"))
    refused = [d for d in checked.diagnostics if d.code == "M024"]
    assert [d.message for d in refused] == [f"a rule cannot be called '{name}': the word starts a statement"]


WRONG: dict[Type, str] = {
    INT: "players",
    PLAYER: "3",
    ListOf(): "3",
    LOC: "3",
    Grid(): "3",
    Cell(): "3",
    Placement(): "3",
}


@pytest.mark.parametrize("name", [n for n, b in BUILTINS.items() if b.takes], ids=str)
def test_a_builtin_refuses_at_check_time_an_argument_of_the_wrong_type(tmp_path: Path, name: str) -> None:
    """Each argument a built-in declares a type for is checked before the game runs: a number
    where a grid map is wanted is an error at the argument, not a failure in the middle of a game."""
    builtin = BUILTINS[name]
    args = [WRONG[builtin.takes[0]]] + ["1"] * (builtin.fewest - 1)
    checked = meeple.check(write(tmp_path, f"value w() = {name}({', '.join(args)})\n"))
    messages = [d.message for d in checked.diagnostics if d.code == "M014"]
    assert any(m.startswith(f"the first argument of {name} must be") for m in messages), messages


def test_neighbours_are_asked_of_a_node_or_a_cell(tmp_path: Path) -> None:
    checked = meeple.check(write(tmp_path, "value w() = neighbours(3)\n"))
    assert [d.message for d in checked.diagnostics if d.code == "M014"] == [
        "neighbours are those of a node of a table map or a cell of a grid"
    ]
