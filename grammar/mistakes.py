"""Common syntax mistakes, named in the designer's words.

The parser says what it expected ("expected 'times', found ':'"). For the mistakes people make
most (`=` for `==`, `else if`, `for p in`, `repeat 3:`, `players 2-4`, `n += 1`, a rule without
parentheses, `&&`, single quotes, two `for each` in one list) this module says what to write
instead.

Mistakes are given as small example files, in the spirit of Lark's `match_examples`: an error
matches an example when the parser fails in the same state on the same kind of token. Lark's own
`match_examples` compares the depth of the parser's stack too, so an example would only match a
mistake made at the same depth of indentation; here the examples are parsed once and compared by
the state on top of the stack and the token's type, which is what identifies the mistake.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache

from lark import Lark, UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from meeple.grammar.ast import statement_forms
from meeple.grammar.words import keywords

_HEAD = 'game "Example":\n  players 1..2\n\nvar n: int = 0\n\n'


def _in_play(*lines: str) -> str:
    return _HEAD + "play:\n" + "".join(f"  {line}\n" for line in lines)


@dataclass(frozen=True)
class Mistake:
    message: str
    hint: str
    examples: tuple[str, ...]
    # A better hint when the line starts with one of these words.
    by_first_word: dict[str, str] = field(default_factory=dict)
    suggest: bool = False  # if the first word is close to a keyword, suggest the keyword


MISTAKES = [
    Mistake(
        "'=' does not compare or change anything here",
        "compare with '==' (if n == 3:); change a variable with 'set n to 3'",
        (
            _in_play("if n = 3:", '  log "yes"'),
            _in_play("set n = 3"),
            _in_play("while n = 3:", '  log "yes"'),
        ),
        {
            "set": "write: set <name> to <value>",
            "if": "to compare, write '=='",
            "elif": "to compare, write '=='",
            "while": "to compare, write '=='",
        },
    ),
    Mistake(
        "a variable is changed with 'set'",
        "write: set <name> to <value> (a name of its own on a line is a call to a rule: <name>(...))",
        (_in_play("n = 3"),),
    ),
    Mistake(
        "'+=' and '-=' are written with 'add' and 'subtract'",
        "write: add <n> to <name>, or subtract <n> from <name>",
        (_in_play("n += 1"), _in_play("n -= 1")),
    ),
    Mistake(
        "'else if' is written 'elif'",
        "write: elif <condition>:",
        (_in_play("if n == 1:", '  log "a"', "else if n == 2:", '  log "b"'),),
    ),
    Mistake(
        "a loop over a list is written 'for each <name> in <list>:'",
        "add 'each' after 'for'",
        (_in_play("for p in players:", '  log "a"'),),
    ),
    Mistake(
        "'repeat' needs the word 'times'", "write: repeat <n> times:", (_in_play("repeat 3:", '  log "a"'),)
    ),
    Mistake(
        "a choice is written 'choose <name> from <list>'",
        "write 'from', not 'in'",
        (_in_play("choose x in [1, 2] by players[0]:", '  log "a"'),),
    ),
    Mistake(
        "a range of player counts is written with '..'",
        "write: players 2..4",
        ('game "Example":\n  players 2-4\n', 'game "Example":\n  players 2 to 4\n'),
    ),
    Mistake(
        "a list is made with one 'for each'",
        "for every pair, make a list of lists and flatten it: "
        "flat([[[x, y] for each y in B] for each x in A])",
        (_in_play("let pairs = [[x, y] for each x in players for each y in players]"),),
    ),
    Mistake(
        "only one comparison fits in an expression",
        "write 'a < b and b < c'",
        (_in_play("if 0 < n < 3:", '  log "a"'),),
    ),
    Mistake(
        "a rule's name is followed by its parameters in parentheses",
        "write: rule <name>(): (with the parentheses even when it has no parameters)",
        (_HEAD + 'rule r:\n  log "a"\n',),
    ),
    Mistake(
        "a value's name is followed by its parameters in parentheses",
        "write: value <name>() = <expression> (with the parentheses even when it has no parameters)",
        (_HEAD + "value v = 3\n",),
    ),
    Mistake(
        "a rule is called with parentheses",
        "write: <name>(), even when it takes no arguments",
        (_HEAD + 'rule r():\n  log "a"\n\n' + "play:\n  r\n",),
    ),
    Mistake(
        "this line is not a statement",
        "a statement starts with move, set, add, subtract, let, draw, shuffle, log, if, for, repeat, "
        "while, choose, may, pick, random, place, turn, phase, step or end; a rule is called as <name>(...)",
        (
            _HEAD + "rule r():\n  return 3\n",
            _in_play('say "hello"'),
            _in_play("go home"),
            _in_play("elif yes:", '  log "a"'),
        ),
        {
            "return": "a rule does things and gives no value: to compute one, declare "
            "'value <name>(...) = <expression>'",
            "elif": "'elif' and 'else' follow the block of an 'if', at the same indentation as the 'if'",
            "else": "'elif' and 'else' follow the block of an 'if', at the same indentation as the 'if'",
        },
        suggest=True,
    ),
    Mistake("'let' names a value with '='", "write: let <name> = <value>", (_in_play("let x to 3"),)),
    Mistake(
        "a condition is followed by ':' and nothing else",
        "end the line with ':', as in: if <condition>:",
        (_in_play("if n == 3 then:", '  log "a"'), _in_play("while n < 3 do:", "  add 1 to n")),
    ),
]

# Forms of the declarations, for a hint when nothing more specific is known; a statement's form
# is one of its facts (ast.Facts.forms), read from its node class.
DECLARATION_FORMS = {
    "constant": "constant <name> = <value>",
    "table": "table <name> (<column>[: <type>], ...): then one row per line",
    "zone": "zone <name> [per player | per <table>] [, public | private | hidden | ordered]",
    "piece": "piece <name>: <n> per player in <zone>, or piece <name>: each <table> in <zone>",
    "var": "var <name>[: <type>] = <value> [per player | per <table>] [within <low>..<high>]",
    "map": "map <name>: then lines nodes <table> and edges <table> (<column>, <column>)",
    "rule": "rule <name>(<parameters>):",
    "value": "value <name>(<parameters>) = <expression>",
    "when": "when <kind> <name> enters <place> [where <condition>]:",
    "score": "score p = <expression>",
    "tiebreak": "tiebreak p = <expression>",
    "players": "players <min>..<max>",
    "rulebook": 'rulebook "<file>.txt"',
    "example": 'example "<name>": then players, seed, given:, do:, choices:, outcomes:, expect:',
}
FORMS = statement_forms() | DECLARATION_FORMS

# Characters that cannot start anything, and what was probably meant.
CHARACTERS = {
    "'": ("texts go in double quotes", "write \"...\", not '...'"),
    '"': ("this text has no closing quote", 'a text ends with " on the same line'),
    "&": ("'&' is not an operator", "write 'and'"),
    "|": ("'|' is not an operator", "write 'or'"),
    "!": ("'!' is not an operator", "write 'not' (and '!=' for 'is not equal to')"),
    ";": ("lines do not end with ';'", "remove the ';'"),
    "{": ("blocks are made by indentation, not braces", "end the line with ':' and indent the block"),
    "}": ("blocks are made by indentation, not braces", "end the block by indenting less"),
}

# How the tokens that are not text are named.
_FOUND = {
    "$END": "the end of the file",
    "_NL": "the end of the line",
    "_INDENT": "an indented line",
    "_DEDENT": "the end of the indented block",
}
# Terminals that can start a value: an error that expects them all is a missing value.
_VALUE_START = {"NAME", "INT", "STRING", "LPAR", "LSQB"}


@cache
def _signatures(grammar: Callable[[], Lark]) -> dict[tuple[object, str], Mistake]:
    """(state on top of the parser's stack, token type) of each example's error."""
    out: dict[tuple[object, str], Mistake] = {}
    for mistake in MISTAKES:
        for example in mistake.examples:
            try:
                grammar().parse(example, start="start")
            except UnexpectedToken as err:
                out.setdefault((_position(err), err.token.type), mistake)
            except UnexpectedInput:
                continue
    return out


def _position(err: UnexpectedToken) -> object:
    state = err.state
    return getattr(state, "position", state)


def common_mistake(err: UnexpectedInput, source: str, grammar: Callable[[], Lark]) -> tuple[str, str] | None:
    """A better message and hint for a syntax error, or None when there is nothing to add.
    `grammar` gives the Lark parser the error came from."""
    lines = source.split("\n")
    line = getattr(err, "line", 0) or 0
    words = lines[line - 1].split() if 0 < line <= len(lines) else []
    first = words[0] if words else ""
    if isinstance(err, UnexpectedCharacters):
        pos = err.pos_in_stream
        char = source[pos] if pos is not None and pos < len(source) else ""
        return CHARACTERS.get(char)
    if not isinstance(err, UnexpectedToken):
        return None
    mistake = _signatures(grammar).get((_position(err), err.token.type))
    if mistake is not None:
        hint = mistake.by_first_word.get(first, mistake.hint)
        close = (
            _close(first, sorted(keywords()))
            if mistake.suggest and first not in mistake.by_first_word
            else ""
        )
        return mistake.message, close or hint
    if err.token.type == "NAME" and err.column == 1:
        starts = sorted(_words(grammar, set(err.expected)))
        close = _close(first, starts)
        return (
            "this line does not start a declaration",
            close or f"a declaration starts with: {', '.join(starts)}",
        )
    wanted = set(err.accepts or err.expected)
    found = _FOUND.get(err.token.type, f"'{err.token}'")
    if "_NL" in wanted and err.token.type in _VALUE_START:
        return (
            f"expected the end of the line or an operator, found {found}",
            "two values stand side by side: is an operator (+, and, ==...) or a comma missing?",
        )
    if wanted >= _VALUE_START and err.token.type not in _VALUE_START:
        return f"expected a value, found {found}", "write a number, a name, a text, a list or an expression"
    if first in FORMS:
        return "", f"the form is: {FORMS[first]}"
    return None


def _close(word: str, candidates: list[str]) -> str:
    found = difflib.get_close_matches(word, candidates, n=1, cutoff=0.75)
    return f"did you mean '{found[0]}'?" if found else ""


def _words(grammar: Callable[[], Lark], terminals: set[str]) -> set[str]:
    """The keywords among some terminals of the grammar (`"rule"`, not NAME or ':'): those a parse
    expected at a mistake. Every keyword of the language is `words.keywords()`."""
    out = set()
    for term in grammar().terminals:
        if term.name not in terminals:
            continue
        pattern = term.pattern
        alternatives = re.fullmatch(r"\(\?:([a-z_|]+)\)(?:\\b)?", pattern.value)  # /(?:cites|text|...)\b/
        values = (
            [pattern.value] if pattern.type == "str" else alternatives[1].split("|") if alternatives else []
        )
        out |= {v for v in values if v.isalpha()}
    return out
