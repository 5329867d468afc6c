"""Every diagnostic code meeple reports, in one registry: its number, its usual severity and what
it means, in the words of the table in docs/language.md (a test keeps the two equal).

A stage that reports a problem names it by the constant below rather than by its number, so that a
code's number, severity and meaning are written once, here: analysis (M001-M030), the checks of
`meeple check` (M040-M081), variants (M090-M094) and the language server (M098, M099).
"""

from __future__ import annotations

from dataclasses import dataclass

from meeple.diagnostics import Severity


@dataclass(frozen=True)
class Code:
    """One diagnostic code: `number` is what a diagnostic carries (`M010`), `meaning` the row of
    the language reference's table."""

    number: str
    severity: Severity
    meaning: str


REGISTRY: dict[str, Code] = {}


def _code(number: str, severity: Severity, meaning: str) -> str:
    """Registers a code, once, and gives its number: what a diagnostic carries."""
    assert number not in REGISTRY, f"{number} registered twice"
    REGISTRY[number] = Code(number, severity, meaning)
    return number


BAD_CHARACTER = _code("M001", "error", "a character that cannot start anything (`$`, a stray symbol)")
UNEXPECTED_END = _code("M002", "error", "the file ends in the middle of something")
UNEXPECTED_WORD = _code(
    "M003",
    "error",
    "a word or symbol where it cannot stand; says what was expected (a forgotten `:` gets a hint)",
)
BAD_INDENT = _code("M004", "error", "a line's indentation matches no enclosing block")
BAD_TEXT_EXPRESSION = _code("M005", "error", "a `{...}` in a log text is not an expression")
TOO_MANY_DIGITS = _code("M006", "error", "a number with more digits than any game needs (more than 18)")
NESTED_TOO_DEEP = _code(
    "M007",
    "error",
    "blocks, brackets or operators nested more than 200 levels deep (a chain of 5,000 `+` is 5,000 deep)",
)
BAD_TABLE_FILE = _code(
    "M008",
    "error",
    "a table's CSV file cannot be read (not beside the rules file after every link, not `.csv`, "
    "not a regular file, a name too long or with a NUL byte, too big, not UTF-8: at the byte's "
    "line and column in the CSV file), or a line of it is wrong: its header, its number of "
    "cells, a cell its column cannot hold",
)
BAD_RULES_FILE = _code(
    "M009",
    "error",
    "a rules file that is not UTF-8 text (at the first byte that is not) or larger than "
    "`MAX_RULES_BYTES`; located in the file that has it, a variant's base game rather than the "
    "variant",
)
UNKNOWN_NAME = _code(
    "M010",
    "error",
    "an unknown name, rule, function, type, table, counter or `per` owner; a row name two "
    "tables share; a playing style's preference that names no decision the rules ask; a `{...}` "
    "in a text that names no constant or cell (or a lone brace)",
)
DECLARED_TWICE = _code(
    "M011",
    "error",
    "declared twice: a name, a table row, a parameter, an outcome, an example; two headers, "
    "setups, plays, scores; a playing style named like a built-in player (`random`, `first`, "
    "`human`)",
)
WRONG_ARGUMENT_COUNT = _code("M012", "error", "a call with the wrong number of arguments")
UNKNOWN_ATTRIBUTE = _code(
    "M013", "error", "an attribute that does not exist (`p.glod`), an edge column a table lacks"
)
WRONG_TYPE = _code(
    "M014",
    "error",
    "a value of the wrong type (a number where yes/no is needed, a rule used as a value, "
    "`otherwise` not last, a counter read by the rules, a component a rule moves, counts or "
    "reads, a `tally` without the player a counter "
    "per player needs, a `{NAME}` in a text whose value is not a number, yes/no or a text); as "
    "a warning: a comparison that is never true",
)
BAD_ROW = _code(
    "M015",
    "error",
    "a table row of the wrong shape: too many or too few cells, a missing value, a keyed row without a name",
)
NOT_A_ROW = _code(
    "M016", "error", "a name that is not a row of the table it should be (`TABLE.key`, a reference column)"
)
CHOICE_WITHOUT_OPTION = _code("M017", "error", "a `choose` that can never have an option and must be made")
UNKNOWN_PIECE_KIND = _code("M018", "error", "an unknown kind of piece in a `move` or a trigger")
CANNOT_CHANGE = _code(
    "M019", "error", "a change to something that cannot change (a constant, a `let` name, table data)"
)
BAD_HEADER = _code(
    "M020",
    "error",
    "no game header (in a variant's base game too: located there), or a bad player range (from "
    "1, smallest first, at most 64)",
)
UNUSED_RULE = _code("M021", "warning", "a rule, value or constant that nothing uses")
EXAMPLE_PLAYERS_NOT_ALLOWED = _code(
    "M022",
    "error",
    "an example for a number of players the game does not allow, or in teams that do not fit it",
)
NO_PLAY = _code("M023", "error", "no `play:` block")
RULE_NAMED_LIKE_STATEMENT = _code(
    "M024", "error", "a rule named after a word that starts a statement (`step`, `move`...)"
)
COUNT_TOO_LARGE = _code(
    "M025",
    "error",
    "a count no machine can hold, written as numbers: more than 1,000,000 pieces, a range of "
    "more than 100,000 numbers, a board of more than 10,000 cells",
)
VALUE_NEEDS_ITSELF = _code(
    "M026",
    "error",
    "a value that always calls itself (directly or through other values): it can never give an answer",
)
NOTHING_TO_SHOW = _code(
    "M027",
    "error",
    "an example `shows` something that is neither a grid map nor a place (a number, a player)",
)
PROMPT_SHOWS_NO_VALUE = _code(
    "M028",
    "error",
    "a `{...}` in a decision's prompt (`may \"...\"`, a `choose`'s or a `for each`'s `prompt`): a "
    "prompt is printed as written, so a player would read the braces",
)
CANNOT_BUILD = _code(
    "M030",
    "error",
    "the file checks but cannot be built: a constant that cannot be computed before a game "
    "starts, a board whose size (a constant) is not a whole number from 1 up or gives more than "
    "10,000 cells",
)
UNUSED = _code(
    "M040", "warning", "a table, piece, zone, map or variable the game never uses (or only examples use)"
)
UNREACHABLE = _code(
    "M041",
    "warning",
    "a rule, value or constant that only unreachable rules (or examples) use: nothing reached "
    "from setup, play, a trigger or the score",
)
NEVER_READ = _code("M042", "warning", "a variable the rules change but never read")
TRIGGER_NEVER_FIRES = _code(
    "M043", "warning", "a trigger that can never fire: nothing the game runs moves its kind of piece"
)
SETUP_SHORT = _code(
    "M044",
    "error",
    "setup asks for more pieces (or draws more) than there are, for some allowed player count",
)
SETUP_BREAKS = _code(
    "M045", "error", "setup breaks (a runtime error, the step budget) for some allowed player count"
)
ENDLESS_WHILE = _code(
    "M046",
    "warning",
    "a `while` that never ends once it starts (an error for `while yes` without `end game`)",
)
NEVER_RUNS = _code(
    "M047",
    "warning",
    "a statement or branch that can never run: a condition always no, nothing to go through, a "
    "chance of 0, after `end game`",
)
SINGLE_OPTION = _code("M048", "warning", "a `choose` that always has exactly one option: nobody ever decides")
NO_CHANCE = _code("M049", "error", "a `random` whose every outcome has a chance of 0")
CITATION_NOT_FOUND = _code(
    "M050",
    "warning",
    "a `cites` or `aside` that is not in the rulebook (the hint shows the closest passage), or "
    "an `except` section the rulebook does not have",
)
RULEBOOK_NOT_CHECKED = _code(
    "M051",
    "note",
    "citations not checked: the rulebook named in the header is not found (a note never fails a check)",
)
CITATION_IN_SEVERAL_PLACES = _code("M052", "warning", "a short quote found in several places of the rulebook")
RULEBOOK_NAMED_WRONGLY = _code(
    "M053",
    "warning",
    "the header names its rulebook with a folder, or the file quotes a rulebook its header does not name",
)
CITATION_TOO_LONG = _code("M054", "warning", "a `cites` or `aside` longer than twelve words")
BAD_CONFLICT = _code(
    "M055",
    "error",
    "a `conflict` that does not quote two passages and say its reading, or whose passage is not "
    "in the rulebook",
)
BAD_CALLED = _code(
    "M056",
    "warning",
    "a `called` that names nothing, a second `called` for the same thing, or a `called` column "
    "cell that is not a text; a `numbered` outside a phase or step, or a second one in it",
)
AID_CUTS_RULE = _code(
    "M057",
    "warning",
    "the player aid prints only the first sentences of a rule's, trigger's, phase's or step's "
    "`says`, or of a phase's or step's `text`, and it has no `brief`: the rest is lost from the aid",
)
NEVER_RAN = _code(
    "M060",
    "warning",
    "a rule, trigger, statement or branch that never ran (in setup for every player count, or with `--play`)",
)
SUPPLY_SHORT = _code("M061", "warning", "a supply that ran short while playing (`--play`)")
ENDLESS_GAME = _code("M062", "error", "a game that hit the step budget or never ended (`--play`)")
NO_OPTION = _code("M063", "error", "a choice that had to be made with no option (`--play`)")
RULE_BROKE = _code("M064", "error", "a rule that broke while playing (`--play`)")
ENGINE_BROKE = _code("M065", "error", "an error inside the engine while playing (`--play`): a bug in meeple")
PLAY_SUMMARY = _code("M069", "info", "what `--play` played")
SECTION_COVERAGE = _code("M070", "info", "rulebook coverage of a section (`--coverage`)")
PARAGRAPH_NOT_COVERED = _code(
    "M071", "info", "a rulebook paragraph no citation or aside covers (`--coverage`)"
)
RULEBOOK_COVERAGE = _code(
    "M072", "info", "rulebook coverage overall, and the share of its words the quotes copy (`--coverage`)"
)
PARAGRAPH_BARELY_COVERED = _code(
    "M073",
    "info",
    "a rulebook paragraph only an example, or only a declaration the game never reaches, cites "
    "(`--coverage`)",
)
ASSUMPTION = _code("M080", "info", "an `assume` (`--assumptions`)")
CONFLICT = _code("M081", "info", "a `conflict` (`--assumptions`)")
BAD_PATCH = _code(
    "M090",
    "error",
    "a variant's patch names nothing of that kind in its base game (a `replace zone` of a "
    "movement), or changes a constant's kind; a `change table` line that names no row or column "
    "of the table, or adds a row or a column it already has; a `reword` that would change no word; "
    "a `holds` outside a `reword` or a replacing rule, value or movement",
)
NO_BASE_GAME = _code(
    "M091",
    "error",
    "a variant's base game cannot be found or opened (outside the variant's folder after every "
    "link, a name too long, a loop of links, not a regular file), or the variant is its own "
    "base; a second base that is not a variant of the game the first builds on",
)
STALE_NUMBER = _code(
    "M092",
    "warning",
    "a variant changes a number (a constant, a table cell) that a base game's `text` or `says` "
    "about it still states, instead of showing it with `{NAME}`",
)
PATCHES_CLASH = _code(
    "M093",
    "error",
    'two variants a file combines (`of "a.rules", "b.rules"`) both replace, remove or change one '
    "declaration, and the combining file does not replace it: which one the game plays is the "
    "designer's to say",
)
STALE_TEXT = _code(
    "M094",
    "warning",
    "a base game's `text` or `says` describes a rule, a value or a movement a variant replaces or "
    "removes (its passage calls or reads it, directly or through declared values and movements): "
    "the words may no longer hold; the variant gives new words (`reword`) or says they hold (`holds`)",
)
DOCUMENT_TOO_LARGE = _code(
    "M098",
    "error",
    "`meeple lsp`: the document is too large to check as you type (more than 1 MB); `meeple check` checks it",
)
CHECK_FAILED = _code(
    "M099",
    "error",
    "`meeple lsp`: checking the document failed inside meeple (a bug in meeple, said in the "
    "file instead of stopping the server)",
)
