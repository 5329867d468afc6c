"""The player aid: two pages a player keeps beside the board, made from the rulebook.

It answers what a player asks during a game, in the order the game asks it: what am I trying to
do, how is it set up, how does a round go, what can I do on my turn, what are the numbers, how do
I score, when does it end and who wins. Everything comes from the rulebook's model
(codegen/rulebook.py), so it speaks players' words too. A rule is printed as its author's `brief`
(the rule as short as a player needs it mid-game), or else cut to its first sentence, since the
aid reminds and the rulebook explains: where a first sentence alone tells where a piece goes and
not what it does, its author writes the `brief`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from meeple.codegen.english import Line
from meeple.codegen.markup import plain
from meeple.codegen.rulebook import Part, Rulebook
from meeple.interpreter.checks.briefs import kept, sentences

NAMED = ("phase", "step")  # the kinds of line that name a part of the flow (players.py)
LONGEST = 40  # words of the flow's opening words, or of a generated step, kept in the aid


@dataclass
class Aid:
    stem: str
    title: str
    players: str
    goal: list[str]
    setup: list[str]  # the author's words
    setup_steps: list[str]  # the steps they do not tell, numbered
    flow: list[Line]
    actions: list[tuple[str, str]]  # (name, what it does, in a sentence)
    defined: list[tuple[str, str]]  # a variant's: what it defines otherwise than its base game
    numbers: list[tuple[str, str]]
    scoring: list[str]
    ends: list[str]  # when the game ends early


def first_sentence(text: str) -> str:
    """What the aid keeps of a phase's or step's words without a `brief`: the first sentence."""
    return kept(text, 0)


def _opening(text: str) -> str:
    """The first sentences of a text, as many as fit in LONGEST words (at least the first): the
    flow's words tell a round and how it ends in two sentences more often than in one."""
    said = sentences(text)
    kept = said[:1]
    for more in said[1:]:
        if len(" ".join([*kept, more]).split()) > LONGEST:
            break
        kept.append(more)
    return " ".join(kept)


def _gist(part: Part) -> str:
    """A rule as the aid prints it: its author's `brief`; else what the aid keeps of its words
    (`checks.briefs.kept`, which M057 reads too: where it cuts them, the check asks for a
    `brief`); else its steps cut short."""
    if part.brief:
        return " ".join(part.brief)
    if part.words:
        return kept(" ".join(part.words))
    words = " ".join(plain(line.flat()) + "." for line in part.steps).split()
    return " ".join(words[:LONGEST]) + (" \u2026" if len(words) > LONGEST else "")


def _outline(lines: list[Line]) -> list[Line]:
    """The flow as a player recalls it: its phases and steps by name, each with its author's
    `brief`, or else its words cut to their first sentence. A loop that holds only phases,
    steps and words gives way to what it holds: the
    names carry the order (how often it repeats, the aid's goal says). A condition stays: it
    says when a phase happens at all. A phase or step that holds one rule and nothing else is
    one line, its name and the rule's ("End of the game: Lost pieces."), not two: a line under a
    heading of its own took room a one-page aid needs."""
    out: list[Line] = []
    for x in lines:
        if x.kind == "text":
            out.append(Line(first_sentence(x.text), x.kind))
        elif x.brief is not None:
            # the brief stands for the block's words: for all it holds where they are a `says`, and
            # for its `text` alone where the block is told by a text and the steps under it
            steps = [c for c in x.children if c.kind != "text"]
            out.append(Line(x.text, x.kind, [Line(x.brief, "text"), *_outline(steps)], x.anchor))
        elif x.kind == "loop" and x.children and all(c.kind in (*NAMED, "text") for c in x.children):
            out += _outline(x.children)
        elif x.kind in NAMED and len(x.children) == 1 and _a_rule_alone(x.children[0]):
            out.append(Line(f"{x.text} {x.children[0].text}", x.kind, [], x.anchor))
        else:
            out.append(Line(x.text, x.kind, _outline(x.children), x.anchor))
    return out


def _a_rule_alone(line: Line) -> bool:
    """A line that names a rule (or a step) with nothing under it: not words, which read on
    their own line."""
    return line.kind != "text" and not line.children


WINS = re.compile(r"\bwins?\b")  # a sentence that says who wins


def _goal(book: Rulebook) -> list[str]:
    """What the game is and how you win, at the top of the aid: the overview's first sentence and
    each later one that tells when the game ends or who wins (the aid is asked how long a game
    lasts). A variant's overview is its own words, which say what it changes: the aid keeps them
    all, since the variant's game is the one on the table. Where these never say who wins (a
    variant that keeps the base game's goal), the scoring's sentence that does follows them: a
    player holding the aid reads how to win first, not last."""
    if book.base is not None:
        goal = list(book.overview)
    else:
        said = [s for w in book.overview[:1] for s in sentences(w)]
        kept = said[:1] + [s for s in said[1:] if re.search(r"\bend", s) or WINS.search(s)]
        goal = [" ".join(kept)] if kept else []
    if not any(WINS.search(g) for g in goal):
        scored = [s for p in book.scoring for w in p.words for s in sentences(w)]
        goal += [s for s in scored if WINS.search(s)][:1]
    return goal


def aid(book: Rulebook) -> Aid:
    setup = book.setup
    setup_words = setup.words if setup is not None else []
    setup_steps = [plain(x.flat()) + "." for x in setup.steps] if setup is not None else []
    scoring = [w for p in book.scoring for w in (p.words or [plain(x.flat()) for x in p.steps])]
    flow = [Line(_opening(w), "text") for w in book.flow_words] + _outline(book.flow)
    # a phase or step the rulebook also prints among its rules is in the aid's flow already
    actions = [(p.title, _gist(p)) for p in [*book.rules, *book.whenever] if not p.of_flow]
    # An end the flow or an action already tells is told once (a refill rule is both).
    told = " ".join([*(gist for _, gist in actions), *(plain(line.flat()) for line in flow)])
    return Aid(
        stem=book.stem,
        title=book.title,
        players=book.players,
        goal=_goal(book),
        setup=setup_words,
        setup_steps=setup_steps,
        flow=flow,
        actions=actions,
        defined=[(p.title, _gist(p)) for p in book.definitions],
        numbers=[(name, value) for name, value, _ in book.numbers],
        scoring=scoring,
        ends=[end for end in book.ends if end not in told],
    )
