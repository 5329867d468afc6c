"""Inline markup for generated English: one text, three outputs (plain, Markdown, HTML).

The English generator does not know which format it writes for, yet a reader is helped by seeing
which words are the rule's variables (`p`, `target`) and by links from a rule call to the rule.
So generated sentences carry two kinds of invisible marks, made of private-use characters that no
rules file contains, and each output turns them into its own markup (or drops them) only after
escaping the author's text for that format. Nothing else in a sentence is markup: the author's
words (prompts, log texts, names) are always escaped, never interpreted.
"""

from __future__ import annotations

import html
import re

from markupsafe import Markup

VAR_OPEN, VAR_CLOSE = "\ue000", "\ue001"
REF_OPEN, REF_MID, REF_CLOSE = "\ue002", "\ue003", "\ue004"
MARKS = (VAR_OPEN, VAR_CLOSE, REF_OPEN, REF_MID, REF_CLOSE)

_VAR = re.compile(f"{VAR_OPEN}(.*?){VAR_CLOSE}", re.S)
_REF = re.compile(f"{REF_OPEN}(.*?){REF_MID}(.*?){REF_CLOSE}", re.S)
_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>|])")


def var(name: str) -> str:
    """A variable of the rules (a parameter, a loop or chosen name): shown in italics."""
    return f"{VAR_OPEN}{name}{VAR_CLOSE}"


def ref(anchor: str, label: str) -> str:
    """A mention of a documented declaration (a rule, a value): a link to its section."""
    return f"{REF_OPEN}{anchor}{REF_MID}{label}{REF_CLOSE}"


def plain(text: str) -> str:
    """The words alone: what a test compares and what an SVG label shows."""
    text = _REF.sub(lambda m: m.group(2), text)
    return text.replace(VAR_OPEN, "").replace(VAR_CLOSE, "")


def md_escape(text: str) -> str:
    """Author text for Markdown: every character a code host would read as markup is escaped."""
    return _MD_SPECIAL.sub(r"\\\1", text)


def markdown(text: str, links: bool = True) -> str:
    """Marked text as GitHub-flavoured Markdown (safe inside a table cell: `|` is escaped).
    `links=False`: mentions as plain words, for a page without the sections they point to."""
    out = md_escape(text.replace("\n", " "))
    out = _REF.sub(lambda m: f"[{m.group(2)}](#{m.group(1)})" if links else m.group(2), out)
    return _VAR.sub(lambda m: f"*{m.group(1)}*", out)


def to_html(text: str, links: bool = True) -> Markup:
    """Marked text as HTML: escaped first, then variables in <var> and mentions as links (or,
    with `links=False`, as bold words)."""
    out = html.escape(text, quote=True)
    link = '<a class="ref" href="#{0}">{1}</a>' if links else '<b class="ref">{1}</b>'
    out = _REF.sub(lambda m: link.format(m.group(1), m.group(2)), out)
    return Markup(_VAR.sub(lambda m: f"<var>{m.group(1)}</var>", out))


def capitalise(text: str) -> str:
    """Upper-case the first letter of a sentence, looking through a link mark but not into a
    variable: a rule's name that starts a sentence is capitalised, `p chooses` stays as written."""
    for i, ch in enumerate(text):
        if ch == VAR_OPEN:
            return text
        if ch.isalpha():
            return text[:i] + ch.upper() + text[i + 1 :]
        if ch == REF_OPEN:
            mid = text.find(REF_MID, i)
            if mid < 0:
                return text
            rest = capitalise(text[mid + 1 :])
            return text[: mid + 1] + rest
    return text
