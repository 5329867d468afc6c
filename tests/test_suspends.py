"""Which statements suspend (are compiled as generator functions, because they may yield a decision
or a random outcome) is decided in one place, `Compiler.suspends`. A compiled statement whose form
differs from that answer is silently skipped (a generator function called as a plain one does
nothing), so every statement of every bundled game, and of a small game using every statement
kind, with and without a trigger watching its moves, is compiled and compared."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import meeple
from meeple.grammar import ast
from meeple.interpreter.compiler import Compiler, compile_program

EVERY_KIND = """\
game "Every statement":
  players 2..2

table spot (q: int, r: int):
  0, 0
  1, 0

map board:
  grid hex of spot

zone bag
zone pile
zone hand per player
piece token: 6 in bag
var total: int = 0
var other: int = 0
var tally: int = 0 per player
counter rounds

rule extra(p: player):
  add 1 to p.tally

rule quiet():
  log "quiet"

rule asking(p: player):
  may "take one?" by p:
    move 1 token from bag to p.hand

{trigger}
play:
  shuffle bag
  place spot on board
  place spot on board at placement(board, spot, 0, 0, 0) over
  lift cell(board, 0, 0).placed
  shift board by 1, 0
  let n = 2
  set total to n
  swap total with other
  add 1 to total
  subtract 1 from total
  tally rounds
  quiet()
  asking(players[0])
  move 1 token from bag to pile
  move all token from pile to bag
  move pieces(bag)[0] to pile
  draw 1 from bag to pile
  reveal pieces(pile) to players[0]
  if total > 9:
    quiet()
  if total > 5:
    log "many"
  elif total > 1:
    quiet()
  else:
    asking(players[1])
  for each p in players:
    add 1 to p.tally
  for each p in players chosen by players[0]:
    log "next"
  for each p in players:
    asking(p)
  repeat 2 times:
    quiet()
  repeat 1 times:
    asking(players[0])
  while total < 3:
    add 1 to total
  while total < 4:
    add 1 to total
    asking(players[1])
  turn players[0]:
    quiet()
  turn players[1]:
    asking(current)
  step plain:
    quiet()
  phase asked:
    choose x from players:
      log "chosen"
  random "coin":
    outcome heads chance 50:
      log "heads"
    outcome tails otherwise:
      quiet()
  pick q at random from players:
    log "picked"
  offer extra(players[0]) to players[0] as "extra":
    quiet()
  end game

score p = p.tally
"""
TRIGGER = """\
when token t enters z where z == pile:
  add 1 to total
"""
STATEMENT_KINDS = {
    c
    for c in vars(ast).values()
    if inspect.isclass(c) and issubclass(c, ast.Stmt) and not issubclass(c, ast.Meta) and c is not ast.Stmt
}
Seen = list[tuple[ast.Stmt, bool, bool, bool]]  # statement, compiled as a generator, flag, suspends


def compiled_statements(monkeypatch: pytest.MonkeyPatch, load: Callable[[], Any]) -> Seen:
    """Every statement `load` compiles: its compiled form, the flag it was given, and the analysis."""
    seen: Seen = []
    compile_stmt = Compiler.stmt

    def stmt(self: Compiler, s: ast.Stmt, scope: set[str]) -> tuple[Callable[..., Any], bool]:
        fn, flag = compile_stmt(self, s, scope)
        seen.append((s, inspect.isgeneratorfunction(fn), flag, self.suspends(s)))
        return fn, flag

    monkeypatch.setattr(Compiler, "stmt", stmt)
    load()
    return seen


def drifts(seen: Seen) -> list[str]:
    return [
        f"line {s.span.line}: {type(s).__name__} compiled as generator={gen}, flagged {flag}, suspends={says}"
        for s, gen, flag, says in seen
        if not gen == flag == says
    ]


@pytest.mark.parametrize("path", meeple.bundled_games(), ids=lambda p: p.stem)
def test_every_statement_of_a_bundled_game_is_compiled_as_the_analysis_says(
    monkeypatch: pytest.MonkeyPatch, path: Path
) -> None:
    symbols = meeple.check(path).symbols  # a loaded game's Program is built once per process: compiled anew
    assert symbols is not None
    seen = compiled_statements(monkeypatch, lambda: compile_program(symbols))
    assert seen
    assert drifts(seen) == []


@pytest.mark.parametrize("trigger", ["", TRIGGER], ids=["no trigger", "a trigger"])
@pytest.mark.parametrize("coverage", [False, True], ids=["played", "covered"])
def test_every_statement_kind_is_compiled_as_the_analysis_says(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, trigger: str, coverage: bool
) -> None:
    path = tmp_path / "every.rules"
    path.write_text(EVERY_KIND.format(trigger=trigger))
    symbols = meeple.check(path).symbols
    assert symbols is not None
    seen = compiled_statements(monkeypatch, lambda: Compiler(symbols, coverage).build())
    assert drifts(seen) == []
    assert {type(s) for s, *_ in seen} == STATEMENT_KINDS  # the game uses every kind
    # and every kind whose form depends on its body or on the rules it calls is seen both ways
    both = {type(s) for s, gen, *_ in seen if gen} & {type(s) for s, gen, *_ in seen if not gen}
    assert {ast.CallStmt, ast.If, ast.ForEach, ast.Repeat, ast.While, ast.Turn, ast.Named} <= both
    if trigger:  # moves run the triggers that watch them: they suspend
        assert all(gen for s, gen, *_ in seen if isinstance(s, ast.MoveRefs | ast.MoveCount | ast.Draw))
    else:
        assert not any(gen for s, gen, *_ in seen if isinstance(s, ast.MoveRefs | ast.MoveCount | ast.Draw))
