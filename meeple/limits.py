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
MAX_RECURSION = 2_000
# How deep declared values may call one another on the native engine (interpreter/native), which
# evaluates them on its own stack (its rules and triggers count against MAX_RECURSION).
MAX_VALUE_DEPTH = 1_000
# Choices in a replay log, and the size of the log file.
MAX_CHOICES = 1_000_000
MAX_LOG_BYTES = 64 * 1024 * 1024
# The size of a data file a table reads its rows from (`table ... from "FILE.csv"`).
MAX_DATA_BYTES = 16 * 1024 * 1024
# The size of a document `meeple lsp` checks as it is typed (the largest bundled game is about
# 150 KB): a larger one gets one diagnostic saying so, and `meeple check` still checks it.
MAX_EDITED_BYTES = 1024 * 1024
# The size of a save file (`meeple play --load`): far above any game's carried state.
MAX_SAVE_BYTES = 16 * 1024 * 1024

# --- Files (see meeple/paths.py: every file meeple opens is read through it, to at most these).
# The size of a rules file (the largest bundled game is about 150 KB). Checking is linear in it,
# at about 20 s of CPU per MB of the densest file (a declaration a line; measured on the shared
# development machine): this bounds the wait.
MAX_RULES_BYTES = 2 * 1024 * 1024
# The size of a rulebook `meeple check` reads (the longest of ours is about 80 KB).
MAX_RULEBOOK_BYTES = 4 * 1024 * 1024
# Nesting of brackets in a replay log (a log's deepest is 3: the log, a field, a list).
MAX_JSON_DEPTH = 64

# What a running game may produce, and what the playtest server reads: the step budget bounds the
# time of a game, these its memory and its words.
# Decisions a player answers in one game (a decision with one option is taken without asking and
# is not counted): a game asking another one stops with an error at that decision.
MAX_DECISIONS = 100_000
# Characters of a game's readable log, all lines together: a line that would go beyond it stops
# the game with an error at the statement that writes it.
MAX_LOG_CHARS = 16 * 1024 * 1024
# Characters of an error message: what a message quotes (a value, the options, the choices made)
# is cut to fit, saying how much was left out.
MAX_MESSAGE = 2_000
# The body of a request to the playtest page other than a log (an answer, an undo): a larger one
# is refused (413) unread. A log's body is bounded by MAX_LOG_BYTES.
MAX_REQUEST_BYTES = 1024 * 1024
