"""The AST walks itself: `children`, `walk` and `find_all` on every node, `blocks` on every
statement, read from the fields, so that the passes (analysis, the checks, the rulebook) need no
walker of their own that a new statement could slip past. On a neutral rules text."""

from __future__ import annotations

from meeple.grammar import ast
from meeple.grammar.parser import parse

SOURCE = """\
game "Walk":
  players 2..2

zone box
piece token: 4 in box
var n: int = 0

play:
  if n > 1:
    log "big"
  elif n == 1:
    random:
      outcome yes chance 50:
        log "heads"
      outcome no otherwise:
        log "tails"
  else:
    for each p in players:
      log "{p}"
"""


def play_body() -> list[ast.Stmt]:
    module = parse(SOURCE, "walk.rules")
    return next(d for d in module.decls if isinstance(d, ast.PlayDecl)).body


def test_an_if_holds_its_branches_as_nodes_with_their_conditions() -> None:
    (stmt,) = play_body()
    assert isinstance(stmt, ast.If)
    assert all(isinstance(b, ast.Branch) for b in stmt.branches)
    assert [type(b.cond).__name__ for b in stmt.branches] == ["Binary", "Binary"]
    assert sum(1 for _ in stmt.find_all(ast.Binary)) == 2  # walking the if reaches both conditions


def test_blocks_are_the_statement_lists_directly_inside_a_statement() -> None:
    (stmt,) = play_body()
    blocks = stmt.blocks()
    assert len(blocks) == 3  # the if's block, the elif's block, the else block
    (random,) = blocks[1]
    assert isinstance(random, ast.Random) and len(random.blocks()) == 2  # one per outcome
    (loop,) = blocks[2]
    assert isinstance(loop, ast.ForEach) and len(loop.blocks()) == 1


def test_every_statement_list_of_the_play_is_found() -> None:
    module = parse(SOURCE, "walk.rules")
    lists = ast.statement_lists(module.decls)
    logs = [s for body in lists for s in body if isinstance(s, ast.Log)]
    assert len(logs) == 4
