"""A TextMate grammar for `.rules` files, for editors that colour with one (VS Code, and through
it GitHub's Linguist, Sublime Text, Zed...): `editors/vscode/syntaxes/meeple.tmLanguage.json`.

Derived as the Pygments lexer is (codegen/lexer.py): its words are read from the grammar
(`grammar/words.py`: every quoted keyword of `meeple.lark`, the words that start a declaration,
the metadata words) and from the registry of built-in functions, so that a word added to the
language is coloured once the file is made again:

    python -m meeple.codegen.textmate > editors/vscode/syntaxes/meeple.tmLanguage.json

tests/test_lsp_editors.py fails when the file and the grammar have drifted apart.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from meeple.grammar.words import declaration_words, keywords, meta_words
from meeple.interpreter.builtins import BUILTINS
from meeple.interpreter.own_names import OWN_NAMES

SCOPE = "source.meeple"
CONSTANTS = frozenset({"yes", "no", "none"})
OPERATORS = frozenset({"and", "or", "not", "in"})


def _alternatives(words: frozenset[str] | set[str]) -> str:
    """A regex alternation of words, longest first (so `phase` is tried before `p`)."""
    return "|".join(sorted(words, key=lambda w: (-len(w), w)))


def grammar() -> dict[str, Any]:
    """The grammar as the JSON TextMate reads, in the scopes its themes colour."""
    declarations, metas = declaration_words(), meta_words()
    plain = keywords() - declarations - metas - CONSTANTS - OPERATORS - set(OWN_NAMES)
    return {
        "$schema": "https://raw.githubusercontent.com/martinring/tmlanguage/master/tmlanguage.json",
        "name": "meeple",
        "scopeName": SCOPE,
        "fileTypes": ["rules"],
        "patterns": [
            {"include": "#comment"},
            {"include": "#string"},
            {"include": "#declaration"},
            {"include": "#words"},
        ],
        "repository": {
            "comment": {"name": "comment.line.number-sign.meeple", "match": "#.*$"},
            "string": {
                "name": "string.quoted.double.meeple",
                "begin": '"',
                "end": '"|$',
                "patterns": [
                    {"name": "constant.character.escape.meeple", "match": "\\\\."},
                    {
                        "name": "meta.interpolation.meeple",
                        "begin": "\\{",
                        "end": "\\}",
                        "beginCaptures": {"0": {"name": "punctuation.section.interpolation.begin.meeple"}},
                        "endCaptures": {"0": {"name": "punctuation.section.interpolation.end.meeple"}},
                        "patterns": [{"include": "#words"}],
                    },
                ],
            },
            "declaration": {
                "match": f"^({_alternatives(declarations)})\\b(?:[ \\t]+([A-Za-z_]\\w*))?",
                "captures": {
                    "1": {"name": "storage.type.meeple"},
                    "2": {"name": "entity.name.function.meeple"},
                },
            },
            "words": {
                "patterns": [
                    {"name": "keyword.other.meta.meeple", "match": f"\\b({_alternatives(metas)})\\b"},
                    {"name": "constant.language.meeple", "match": f"\\b({_alternatives(CONSTANTS)})\\b"},
                    {"name": "keyword.operator.word.meeple", "match": f"\\b({_alternatives(OPERATORS)})\\b"},
                    {"name": "keyword.control.meeple", "match": f"\\b({_alternatives(plain)})\\b"},
                    {
                        "name": "support.function.builtin.meeple",
                        "match": f"\\b({_alternatives(set(BUILTINS))})(?=\\s*\\()",
                    },
                    {
                        "name": "variable.language.meeple",
                        "match": f"\\b({_alternatives(set(OWN_NAMES))})\\b",
                    },
                    {"name": "constant.numeric.meeple", "match": "\\b\\d+\\b"},
                    {"name": "keyword.operator.meeple", "match": "\\.\\.|==|!=|<=|>=|//|[-+*%<>=]"},
                    {"name": "variable.other.meeple", "match": "\\b[A-Za-z_]\\w*\\b"},
                ]
            },
        },
    }


def text() -> str:
    """The grammar file's text, as it is written in the repository."""
    return json.dumps(grammar(), indent=2, ensure_ascii=False) + "\n"


if __name__ == "__main__":
    sys.stdout.write(text())
