"""Rules the player aid cuts short (M057): a rule's words longer than what the aid keeps of them,
and no `brief` that says the rule as short as the aid needs it.

The player aid (codegen/aid.py) reminds; it has two pages. Of a rule it prints its author's
`brief`; without one it keeps the rule's first sentence, and the next ones while it has fewer than
SHORTEST words, and of a phase's or step's words their first sentence: the rest is lost from the
aid, silently, and a first sentence often says where a piece goes and not what it does. What the
aid keeps is decided here, once, for the aid and for this check, so the two cannot disagree. The
check looks where the aid prints a rule's words:

- a rule or a trigger with a `says` (each is printed among the aid's actions);
- a phase or step of the flow with a `says`, where the flow has no `says` of its own (then the
  aid prints the flow's words instead of its phases), and none of the blocks around it has one
  (which stands for what it holds); or with a `text`, which leads the steps under it: the aid
  prints the text's first sentence, then the steps (its `brief` stands for the text alone; a
  phase lost the sentence that said which player's token is "farthest behind", who plays next);

- a value or movement a variant defines anew, or a table it brings, by its `says` or else its
  `text` (the aid prints what the variant's game defines otherwise than its base game);

and reports the words of the file checked (a variant's own rules, or the words its `reword` gives
a base rule), not its base game's, whose own check reports them. A rule told by a `text` and its
steps in players' English is not checked: its `text` leads its steps, which the rulebook prints.
"""

from __future__ import annotations

import re

from meeple import codes
from meeple.grammar import ast
from meeple.interpreter.checks.findings import Finding, at
from meeple.interpreter.names import own_lines

CODE = codes.AID_CUTS_RULE
SHORTEST = 12  # a rule's line in the aid has at least this many of the author's words, if it has them
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9])")


def sentences(text: str) -> list[str]:
    """A text's sentences (a full stop, a question or an exclamation mark before a capital)."""
    return [s for s in _SENTENCE.split(text.strip()) if s]


def kept(text: str, least: int = SHORTEST) -> str:
    """What the player aid keeps of a rule's words without a `brief`: the first sentence, and the
    next ones while it has fewer than `least` words (a first sentence that only names the rule, or
    a list's letter, says too little); of a phase's or step's words (`least` 0), the first."""
    said = sentences(text)
    if not said:
        return ""
    gist = said[0]
    for more in said[1:]:
        if len(gist.split()) >= least:
            break
        gist += " " + more
    return gist


def check_briefs(module: ast.Module) -> list[Finding]:
    out: list[Finding] = []
    for decl in module.decls:
        if isinstance(decl, ast.RuleDecl | ast.TriggerDecl):
            says = [m for m in decl.meta if m.kind == "says"]
            if says and not _briefed(decl.meta):
                out += _cut(module, says[0], " ".join(m.value for m in says), SHORTEST)
        elif _redefined(module, decl):
            words = [m for m in decl.meta if m.kind == "says"] or [m for m in decl.meta if m.kind == "text"]
            if words and not _briefed(decl.meta):
                out += _cut(module, words[0], " ".join(m.value for m in words), SHORTEST)
        elif isinstance(decl, ast.PlayDecl) and not any(m.kind == "says" for m in decl.meta):
            out += _outline(module, decl.body)
    return out


def _outline(module: ast.Module, body: list[ast.Stmt]) -> list[Finding]:
    """The phases and steps the aid's outline prints by their words: each line of a `says` (which
    stands for what the block holds) is one line of the outline; a `text` is a line before the
    steps under it, which the outline prints too (a `brief` stands for the text alone)."""
    out: list[Finding] = []
    for stmt in body:
        if isinstance(stmt, ast.Named):
            lines = own_lines(stmt, module)
            says = [m for m in lines if m.kind == "says"]
            if not _briefed(lines):
                for m in says or [m for m in lines if m.kind == "text"]:
                    out += _cut(module, m, m.value, 0)
            if says:
                continue
        for inner in stmt.blocks():
            out += _outline(module, inner)
    return out


def _redefined(module: ast.Module, decl: ast.Decl) -> bool:
    """A value or movement a variant defines anew (`replace value x`), or a table it brings: the
    aid prints it among what the variant's game defines otherwise than its base game."""
    if isinstance(decl, ast.Table):
        return bool(module.lineage) and decl.span.file == module.file
    kind = "value" if isinstance(decl, ast.ValueDecl) else "movement"
    return isinstance(decl, ast.ValueDecl | ast.MovementDecl) and f"{kind} {decl.name}" in module.patched


def _briefed(metas: list[ast.Meta]) -> bool:
    return any(m.kind == "brief" for m in metas)


def _cut(module: ast.Module, says: ast.Meta, words: str, least: int) -> list[Finding]:
    """A warning at `says` when the aid keeps less than its `words`; none for a `says` of another
    file than the one checked (its own check reports it)."""
    short = kept(words, least)
    if says.span.file != module.file or short == words.strip():
        return []
    message = (
        f"the player aid prints {len(short.split())} of these {len(words.split())} words, "
        f'"{short}": the rest is lost from the aid'
    )
    hint = 'write a `brief "..."` beside it: the rule as short as a player needs it during the game'
    return [at(says, CODE, message, hint)]
