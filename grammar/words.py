"""The language's words, read from the grammar itself (meeple.lark), so that a word added to the
language reaches every table that lists words (the lexer's colours, the names a rule may not take)
without anyone remembering those tables.

A keyword is a quoted word of a rule (`"move"`), or one of a terminal's group written
`/(?:a|b)\\b/`.
"""

from __future__ import annotations

import re
from functools import cache
from importlib import resources

_GROUP = re.compile(r"/\(\?:([a-z|]+)\)")
_DEFINITION = re.compile(r"^(\??[_A-Za-z]\w*)(?:\.\d+)?:(.*(?:\n[ \t]+\|.*)*)", re.M)
_SYMBOL = re.compile(r'"[^"]*"|/(?:[^/\\]|\\.)+/|->\s*\w+|[][()|]|[_A-Za-z]\w*|\S')


_COMMENT = re.compile(r"^[ \t]*//.*$", re.M)


def grammar() -> str:
    """The grammar's rules without its comment lines: a comment may quote an example
    (`players 2 called "you"`), and no word of one is a keyword."""
    text = resources.files("meeple.grammar").joinpath("meeple.lark").read_text(encoding="utf-8")
    return _COMMENT.sub("", text)


def words(text: str) -> set[str]:
    """The keywords a piece of grammar text holds."""
    grouped = {w for group in _GROUP.findall(text) for w in group.split("|")}
    return set(re.findall(r'"([a-z]+)"', text)) | grouped


@cache
def _definitions() -> dict[str, str]:
    """Each rule and terminal of the grammar -> the text after its colon (continuation lines too)."""
    return {name.lstrip("?"): body for name, body in _DEFINITION.findall(grammar())}


def _starts(symbol: str, seen: frozenset[str] = frozenset()) -> set[str]:
    """The words a rule or terminal can start with (a terminal such as NAME starts with none)."""
    if symbol.startswith('"'):
        return words(symbol)
    if symbol in seen or symbol not in _definitions():
        return set()
    body = _definitions()[symbol]
    if symbol.isupper():
        return words(body)
    out: set[str] = set()
    for alternative in _alternatives(body):
        out |= _first(alternative, seen | {symbol})
    return out


def _alternatives(body: str) -> list[list[str]]:
    """A rule's alternatives, each as its symbols (aliases `-> name` dropped)."""
    out: list[list[str]] = [[]]
    depth = 0
    for symbol in _SYMBOL.findall(body):
        if symbol.startswith("->"):
            continue
        if symbol in "[(":
            depth += 1
        elif symbol in "])":
            depth -= 1
        if symbol == "|" and depth == 0:
            out.append([])
        else:
            out[-1].append(symbol)
    return out


def _first(symbols: list[str], seen: frozenset[str]) -> set[str]:
    """The words a sequence of symbols can start with: an optional `[...]` first adds its own
    words to those of what follows it."""
    if not symbols:
        return set()
    head = symbols[0]
    if head == "[":
        depth, end = 0, 0
        while True:
            depth += symbols[end] == "["
            depth -= symbols[end] == "]"
            if depth == 0:
                break
            end += 1
        return _first(symbols[1:end], seen) | _first(symbols[end + 1 :], seen)
    return _starts(head, seen)


@cache
def keywords() -> frozenset[str]:
    """Every keyword of the language."""
    return frozenset(words(grammar()))


@cache
def declaration_words() -> frozenset[str]:
    """The words that start a declaration (`rule`, `table`...; `score` and `tiebreak` too)."""
    text = grammar()
    out = set(re.findall(r'^\w+_decl:\s*"([a-z]+)"', text, re.M))
    for line in text.splitlines():
        if line.startswith("SCORE_KIND"):
            out |= words(line)
    return frozenset(out)


@cache
def meta_words() -> frozenset[str]:
    """The words of metadata lines (`text`, `says`, `cites`, `conflict`...)."""
    out: set[str] = set()
    for line in grammar().splitlines():
        if line.startswith(("META_KIND", "CONFLICT")):
            out |= words(line)
    return frozenset(out)


@cache
def statement_words() -> frozenset[str]:
    """The words that start a statement in a block (`move`, `place`, `step`, `may`, `text`...): the
    first words of every alternative of `_stmt`, followed through the rules it names."""
    return frozenset(_starts("_stmt"))
