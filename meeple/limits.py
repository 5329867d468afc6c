"""meeple's limits, in one place: what no game needs more of, so that a hostile or mistaken file
ends in a clear error instead of a traceback, a machine out of memory, or a run that never ends.

Each limit is far above what a real game asks for (the deepest parse tree of our bundled games is
19 levels deep, and none lays out 300 pieces), and each is enforced where it can first be known:
the parser (depth, digits), analysis (player counts, piece counts that are constants), and the
running game (lists, numbers, the step budget, values calling values). `docs/language.md`
("Limits") lists them; a test keeps that list and this file in step.
"""

from __future__ import annotations

# Seats at a table: every game's players are drawn from this many.
MAX_SEATS = 64
# Nesting of the parse tree: blocks in blocks, brackets in brackets, and operators chained in
# one expression (`1 + 1 + ... + 1` goes one level deeper per `+`).
MAX_DEPTH = 200
# Digits of a whole number written in a rules file (18: it fits in 64 bits).
MAX_DIGITS = 18
# The largest number a game may compute: a result beyond it stops the game with an error.
MAX_NUMBER = 2**63 - 1
# Elements of one list (a range, a comprehension, the pieces of a declaration).
MAX_LIST = 100_000
# Pieces in a whole game.
MAX_PIECES = 1_000_000
# Cells of one board given by its size (`grid square 19 by 19` has 361): each game makes them all.
MAX_CELLS = 10_000
# Steps of one game (rule calls, loop rounds, items gone through by expressions) unless the caller
# gives another budget: a rules file that loops forever ends with an error naming the rule. The
# longest bundled games (a tile-laying game on its largest map) take up to about a million.
DEFAULT_BUDGET = 5_000_000
# Depth of rules and values calling each other, in Python frames: rules may recurse (a rule that
# calls itself for the next player), and one that never stops ends here with an error naming it.
MAX_RECURSION = 20_000
# How deep declared values may call one another on the native engine (interpreter/native), which
# evaluates them on its own stack: a rule calling itself may still go MAX_RECURSION deep there.
MAX_VALUE_DEPTH = 1_000
# Choices in a replay log, and the size of the log file.
MAX_CHOICES = 1_000_000
MAX_LOG_BYTES = 64 * 1024 * 1024
# The size of a data file a table reads its rows from (`table ... from "FILE.csv"`).
MAX_DATA_BYTES = 16 * 1024 * 1024
# The size of a document `meeple lsp` checks as it is typed (the largest bundled game is about
# 150 KB): a larger one gets one diagnostic saying so, and `meeple check` still checks it.
MAX_EDITED_BYTES = 1024 * 1024
