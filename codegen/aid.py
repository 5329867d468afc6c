"""The player aid: two pages a player keeps beside the board, made from the rulebook.

It answers what a player asks during a game, in the order the game asks it: what am I trying to
do, how is it set up, how does a round go, what can I do on my turn, what are the numbers, how do
I score, when does it end and who wins. Everything comes from the rulebook's model
(codegen/rulebook.py), so it speaks players' words too; each rule is cut to its first sentence,
since the aid reminds and the rulebook explains.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from meeple.codegen.english import Line
from meeple.codegen.markup import plain
from meeple.codegen.rulebook import Part, Rulebook

_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")
LONGEST = 40  # words of a generated step kept in the aid before it is cut


@dataclass
class Aid:
    stem: str
    title: str
    players: str
    goal: list[str]
    setup: list[str]
    flow: list[Line]
    actions: list[tuple[str, str]]  # (name, what it does, in a sentence)
    numbers: list[tuple[str, str]]
    scoring: list[str]


def first_sentence(text: str) -> str:
    return _SENTENCE.split(text.strip(), maxsplit=1)[0]


def _gist(part: Part) -> str:
    """A rule in one sentence: the first of its words, or its steps cut short."""
    if part.words:
        return first_sentence(part.words[0])
    words = " ".join(plain(line.flat()) for line in part.steps).split()
    return " ".join(words[:LONGEST]) + (" \u2026" if len(words) > LONGEST else "")


def _short(lines: list[Line]) -> list[Line]:
    """The flow with every text cut to its first sentence."""
    return [
        Line(first_sentence(x.text) if x.kind == "text" else x.text, x.kind, _short(x.children), x.anchor)
        for x in lines
    ]


def aid(book: Rulebook) -> Aid:
    setup = book.setup
    setup_words = (setup.words or [plain(x.flat()) for x in setup.steps]) if setup is not None else []
    scoring = [w for p in book.scoring for w in (p.words or [plain(x.flat()) for x in p.steps])]
    return Aid(
        stem=book.stem,
        title=book.title,
        players=book.players,
        goal=[first_sentence(w) for w in book.overview[:1]],
        setup=setup_words,
        flow=_short(book.flow),
        actions=[(p.title, _gist(p)) for p in [*book.rules, *book.whenever]],
        numbers=[(name, value) for name, value, _ in book.numbers],
        scoring=scoring,
    )
