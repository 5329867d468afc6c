"""Inline markup for generated English: one text, four outputs (plain, Markdown, HTML, Typst).

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
# Every ASCII character that is not a letter, a digit or a space: Typst markup reads many of them
# (`#` code, `$` maths, `*` `_` emphasis, `@` references, `<` labels, `[` `]` content, `/` comments,
# `-` `.` `~` `'` `"` shorthands and smart quotes, `=` `+` headings and lists, `:` links) and a
# backslash before any of them prints the character itself. Escaping them all is simpler than
# knowing which matter where, and cannot miss one a later Typst reads.
_TYPST_SPECIAL = re.compile(r"([!-/:-@\[-`{-~])")
_MARKED = re.compile(f"{REF_OPEN}(.*?){REF_MID}(.*?){REF_CLOSE}|{VAR_OPEN}(.*?){VAR_CLOSE}", re.S)


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


def typst_escape(text: str) -> str:
    """Author text for Typst markup: printed as written, never read as markup or code. Line
    breaks become spaces (a blank line would start a paragraph, a line could start a heading);
    a short compound word is kept whole (`_joined`)."""
    return _joined(_TYPST_SPECIAL.sub(r"\\\1", re.sub(r"[\r\n]+", " ", text)))


# A word written with hyphens ("two-player", "2-4") of at most LONGEST_COMPOUND characters: Typst
# may break a line after any hyphen, even with hyphenation off, and a reader met "two-" at a line's
# end (or a page's) and "player" on the next. Such a word is set in a box, which no line break
# enters (the PDF's text is unchanged: a word joiner after the hyphen was in it, and a search for
# "two-player" missed it); a longer one may still break at a hyphen, rather than leave a justified
# line stretched around it. Read in escaped text: each hyphen is "\-", and what follows the box
# is a space or an escaped mark, never markup that would continue it.
LONGEST_COMPOUND = 20
_COMPOUND = re.compile(r"[^\W_]+(?:\\-[^\W_]+)+")


def _joined(escaped: str) -> str:
    def one(m: re.Match[str]) -> str:
        word = m.group(0)
        return f"#box[{word}]" if len(word.replace("\\", "")) <= LONGEST_COMPOUND else word

    return _COMPOUND.sub(one, escaped)


def typst_string(text: str) -> str:
    """A Typst string literal of `text`, for an argument in code (a label, a file name)."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    return '"' + escaped.replace("\n", "\\n").replace("\r", "\\r") + '"'


def to_typst(text: str, links: bool = True) -> str:
    """Marked text as Typst markup: the words escaped, variables in italics and mentions as
    links (`#mref`, which the templates define: a link where its target is in the document,
    bold words otherwise) or, with `links=False`, as bold words. Each call ends in `]`, and what
    follows it is escaped, so nothing after it can continue it."""

    def one(m: re.Match[str]) -> str:
        if m.group(3) is not None:
            return f"#emph[{typst_escape(m.group(3))}]"
        label = to_typst(m.group(2), links)
        return f"#mref({typst_string(m.group(1))})[{label}]" if links else f"#strong[{label}]"

    out, at = [], 0
    for m in _MARKED.finditer(text):
        out += [typst_escape(_unmarked(text[at : m.start()])), one(m)]
        at = m.end()
    return "".join([*out, typst_escape(_unmarked(text[at:]))])


def _unmarked(text: str) -> str:
    return "".join(ch for ch in text if ch not in MARKS)


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
