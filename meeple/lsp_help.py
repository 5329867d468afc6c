"""What the language server says of a word of the language or a built-in function, for hover and
completion: a built-in's row comes from its registry (`interpreter/builtins.py`), a keyword's words
from the language reference (`docs/language.md`), where this copy of meeple has it (a clone, or
an editable install: the reference is not part of the installed package, and without it a
keyword's hover says only that it is one).

A keyword's entry is what the reference writes for it: the rows of its tables whose first cell
starts with the word (`| \\`move N KIND ...\\` | ... |`), else the bullets that start with it
(`` - `turn PLAYER:` makes ... ``), else the first paragraph of the section named by it
(`## Zones` for `zone`).
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from meeple.grammar.words import keywords
from meeple.interpreter.builtins import BUILTINS
from meeple.interpreter.own_names import OWN_NAMES

REFERENCE = Path(__file__).resolve().parent.parent / "docs" / "language.md"


def builtin_help(name: str) -> str | None:
    """A built-in function's usage, argument count and value, as its reference row says them."""
    builtin = BUILTINS.get(name)
    if builtin is None:
        return None
    count = builtin.arguments
    plural = "" if count == "1" else "s"
    return f"**built-in function** {builtin.usage}\n\n{builtin.value} ({count} argument{plural})"


def own_name_help(name: str) -> str | None:
    """One of the language's own names (`players`, `current`...): what it is, from its table."""
    own = OWN_NAMES.get(name)
    return f"**built-in name** `{name}`: {own.type.readable()}\n\n{own.doc}" if own is not None else None


def keyword_help(word: str, reference: Path = REFERENCE) -> str | None:
    """What the language reference says of a keyword; None for a word that is none."""
    if word not in keywords():
        return None
    found = _entries(_read(reference)).get(word)
    if not found:
        return f"**keyword** `{word}`"
    return f"**keyword** `{word}`\n\n" + "\n\n".join(found)


def signature(name: str) -> str:
    """A built-in's usage, for a completion item's detail."""
    builtin = BUILTINS.get(name)
    return builtin.usage.replace("`", "") if builtin is not None else ""


@cache
def _read(reference: Path) -> str:
    try:
        return reference.read_text(encoding="utf-8")
    except OSError:
        return ""


INDEX_HEADING = "Every statement"  # docs/language.md's list of every statement (tests/test_statements.py)
_ROW = re.compile(r"^\|\s*`([a-z]+)\b[^|]*\|(.*)\|\s*$")
_BULLET = re.compile(r"^- `([a-z]+)\b")
_HEADING = re.compile(r"^#{2,4} (.+)$")


@cache
def _entries(text: str) -> dict[str, list[str]]:
    """Each keyword the reference writes about -> its table rows, else bullets, else section.
    The rows of the index of every statement are left out: each points at the section that
    says what the statement does, whose own row is the one to show."""
    rows: dict[str, list[str]] = {}
    bullets: dict[str, list[str]] = {}
    sections: dict[str, list[str]] = {}
    lines = text.split("\n")
    indexed = False  # in the section that only lists every statement
    for number, line in enumerate(lines):
        row = _ROW.match(line)
        if row and not line.startswith("|---") and not indexed:
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            rows.setdefault(row.group(1), []).append(f"{cells[0]}: {' '.join(cells[1:])}".strip())
            continue
        bullet = _BULLET.match(line)
        if bullet:
            rows_of = [line[2:]]
            for after in lines[number + 1 :]:
                if not after.startswith("  "):
                    break
                rows_of.append(after.strip())
            bullets.setdefault(bullet.group(1), []).append(" ".join(rows_of))
            continue
        heading = _HEADING.match(line)
        if heading:
            indexed = heading.group(1).strip() == INDEX_HEADING
            paragraph = _first_paragraph(lines[number + 1 :])
            for word in re.findall(r"[a-z]+", heading.group(1).lower()):
                if paragraph:
                    sections.setdefault(word.removesuffix("s"), [paragraph])
                    sections.setdefault(word, [paragraph])
    return {word: rows.get(word) or bullets.get(word) or sections.get(word, []) for word in keywords()}


def _first_paragraph(lines: list[str]) -> str:
    """The first paragraph of prose after a heading (not a table, a list or an example)."""
    out: list[str] = []
    for line in lines:
        if line.startswith("#"):
            break
        if not line.strip():
            if out:
                break
            continue
        if line.startswith(("|", "```", "- ")) and not out:
            return ""
        out.append(line.strip())
    return " ".join(out)
