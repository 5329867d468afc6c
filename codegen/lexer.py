"""A Pygments lexer for `.rules` files, so that rules print in colour in the docs (and anywhere
else Pygments is used: `pygmentize -l meeple`, editors and code hosts that use Pygments).

Its words are read from the grammar itself (every quoted keyword of `meeple.lark`, by
grammar/words.py) and from the registry of built-in functions (interpreter/builtins.py), so that a
keyword or a built-in added to the language is highlighted without anyone remembering this file.
Keywords are plain words that may double as names in the language; a lexer cannot tell the two
apart, and colouring `all(...)` as a keyword is harmless.
"""

from __future__ import annotations

from pygments.lexer import RegexLexer, bygroups, words
from pygments.token import Comment, Keyword, Name, Number, Operator, Punctuation, String, Text, Whitespace

from meeple.grammar.words import declaration_words, keywords, meta_words
from meeple.interpreter.builtins import BUILTINS
from meeple.interpreter.own_names import OWN_NAMES

_KEYWORDS, _DECLARATIONS, _META = keywords(), declaration_words(), meta_words()
_CONSTANTS = {"yes", "no", "none"}
_OPERATORS = {"and", "or", "not", "in"}
_PLAIN = _KEYWORDS - _DECLARATIONS - _META - _CONSTANTS - _OPERATORS - set(OWN_NAMES)


class MeepleLexer(RegexLexer):
    """Lexer for meeple `.rules` files: a declarative rules language for board games."""

    name = "meeple"
    aliases = ["meeple", "rules"]
    filenames = ["*.rules"]
    mimetypes = ["text/x-meeple"]

    tokens = {
        "root": [
            (r"[ \t]+", Whitespace),
            (r"\n", Whitespace),
            (r"#.*$", Comment.Single),
            (r"\\\n", Text),
            (
                r"^(" + "|".join(sorted(_DECLARATIONS)) + r")\b([ \t]+)([A-Za-z_]\w*)?",
                bygroups(Keyword.Declaration, Whitespace, Name.Function),
            ),
            (words(sorted(_META), suffix=r"\b"), Keyword.Pseudo),
            (words(sorted(_CONSTANTS), suffix=r"\b"), Keyword.Constant),
            (words(sorted(_OPERATORS), suffix=r"\b"), Operator.Word),
            (words(sorted(_PLAIN), suffix=r"\b"), Keyword),
            (words(sorted(BUILTINS), suffix=r"(?=\s*\()"), Name.Builtin),
            (words(sorted(OWN_NAMES), suffix=r"\b"), Name.Builtin.Pseudo),
            (r'"', String.Double, "string"),
            (r"\d+", Number.Integer),
            (r"\.\.|==|!=|<=|>=|//|[-+*%<>=]", Operator),
            (r"[()\[\],:.?]", Punctuation),
            (r"[A-Za-z_]\w*", Name),
            (r".", Text),
        ],
        "string": [
            (r"\\.", String.Escape),
            (r"\{[^{}\"\n]*\}", String.Interpol),
            (r'"', String.Double, "#pop"),
            (r'[^"\\{\n]+', String.Double),
            (r"\{", String.Double),
            (r"\n", String.Double, "#pop"),
        ],
    }
