"""The language server's diagnostics after an edit are those of a full check of the edited text.

What makes them come soon after an edit must never change them: the parses kept from earlier
versions (only the declarations an edit changed are parsed again), the loader's check shown in
two steps (names and types first, `names_stage`; then the bounds, the compiler and the texts,
`compile_stage`), and the garbage collector held off while they run. The property, for any run of
line edits of a bundled game, each checked as the server checks it after the one before: the
diagnostics of the two steps together are those of `meeple.check` on the edited text with no
parse kept, and the first step's are the start of them (what is shown first is never taken back
by the second step, only added to).
"""

from __future__ import annotations

import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

pytest.importorskip("pygls")

from meeple.diagnostics import Diagnostic
from meeple.grammar.parser import _parsed_part
from meeple.loader import bundled_dir, check
from meeple.lsp import Buffer, _shown, compile_stage, names_stage

GAME = bundled_dir() / "dino_party.rules"
TEXT = GAME.read_text(encoding="utf-8")
LINES = TEXT.split("\n")

# What a designer does to a line as they type: add a character (a space, a letter, a colon),
# misspell a name it uses, make its first number larger, name something unknown in its first
# text, remove the line or its last character, press return before it, or write a line of the
# file again there (a declaration's first line among others).
EDITS = (
    "append space",
    "append x",
    "append colon",
    "misspell",
    "larger",
    "unknown in text",
    "remove",
    "chop",
    "blank above",
    "copy here",
)


# The names the game declares, as a misspelling of one is written in a use of it.
DECLARED = sorted(set(re.findall(r"^(?:rule|value|constant|zone|var|piece|table)\s+(\w+)", TEXT, re.M)))
USE = re.compile(r"\b(" + "|".join(DECLARED) + r")\b")
# The line an edit needs, besides any line: one that uses a declared name, a number, a text.
NEEDS = {"misspell": USE, "larger": re.compile(r"\b[0-9]+\b"), "unknown in text": re.compile(r'"')}


def edited(lines: list[str], where: float, edit: str, source: float) -> list[str]:
    """`lines` with one edit at the line `where` (0 to 1) of the way down, or at the first line
    from there on that has what the edit needs."""
    n = min(int(where * len(lines)), len(lines) - 1)
    if edit in NEEDS:
        n = next((m for m in range(n, len(lines)) if NEEDS[edit].search(lines[m])), n)
    line = lines[n]
    changed = {
        "append space": [line + " "],
        "append x": [line + "x"],
        "append colon": [line + ":"],
        "misspell": [USE.sub(lambda m: m.group() + "x", line, count=1)],
        "larger": [re.sub(r"\b[0-9]+\b", lambda m: str(int(m.group()) * 1000 + 7), line, count=1)],
        "unknown in text": [line.replace('"', '"{nosuch} ', 1)],
        "remove": [],
        "chop": [line[:-1]],
        "blank above": ["", line],
        "copy here": [LINES[min(int(source * len(LINES)), len(LINES) - 1)], line],
    }[edit]
    return [*lines[:n], *changed, *lines[n + 1 :]]


def full_check(text: str) -> list[Diagnostic]:
    """What `meeple check` says of the text, parsed from nothing (no part kept from before)."""
    _parsed_part.cache_clear()
    return _shown(check(GAME, files=Buffer(GAME, text)).diagnostics)


edit = st.tuples(st.floats(0, 1), st.sampled_from(EDITS), st.floats(0, 1))


@settings(max_examples=12, deadline=None)
@given(st.lists(edit, min_size=1, max_size=3))
@example([(0.51, "unknown in text", 0.0)])  # found by the compiler's step: a text's unknown name
@example([(0.67, "misspell", 0.0), (0.2, "blank above", 0.0)])  # by names and types; then moved
def test_the_diagnostics_after_each_edit_are_those_of_a_full_check_of_the_edited_text(
    edits: list[tuple[float, str, float]],
) -> None:
    names_stage(GAME, TEXT)  # the file as opened: its parts kept, as in the server
    lines = LINES
    for where, what, source in edits:
        lines = edited(lines, where, what, source)
        text = "\n".join(lines)
        first = names_stage(GAME, text)
        shown = compile_stage(first).diagnostics
        assert first.diagnostics == shown[: len(first.diagnostics)]
        assert shown == full_check(text)
