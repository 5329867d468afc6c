"""The editor extension (editors/vscode/): its TextMate grammar is made from the language's grammar
(codegen/textmate.py) and kept in step with it, and its manifest names what it ships. npm is not
needed for any of this: the extension's JavaScript is not run here (docs/editors.md says what is
left to package it)."""

from __future__ import annotations

import json
import re
from typing import Any

from helpers import ROOT

from meeple.codegen import textmate
from meeple.grammar import words
from meeple.grammar.words import declaration_words, keywords, meta_words
from meeple.interpreter.builtins import BUILTINS

VSCODE = ROOT / "editors" / "vscode"
GRAMMAR = VSCODE / "syntaxes" / "meeple.tmLanguage.json"


def patterns(node: Any) -> list[dict[str, Any]]:
    """Every pattern of a grammar (those of its repository, and the ones nested in them)."""
    out = []
    if isinstance(node, dict):
        if "match" in node or "begin" in node or "include" in node:
            out.append(node)
        for value in node.values():
            out += patterns(value)
    elif isinstance(node, list):
        for value in node:
            out += patterns(value)
    return out


def scope_of(word: str, line: str) -> str | None:
    """The scope the grammar's `words` patterns give a word of a line (the first that matches it
    there, as TextMate tries them in order)."""
    start = re.search(rf"\b{word}\b", line).start()  # type: ignore[union-attr]
    for pattern in textmate.grammar()["repository"]["words"]["patterns"]:
        for match in re.finditer(pattern["match"], line):
            if match.start() == start and match.end() == start + len(word):
                return str(pattern["name"])
    return None


def test_the_grammar_file_is_the_one_made_from_the_languages_grammar() -> None:
    """Made again with `python -m meeple.codegen.textmate > editors/vscode/syntaxes/meeple.tmLanguage.json`
    (codegen/textmate.py)."""
    assert GRAMMAR.read_text(encoding="utf-8") == textmate.text()


def test_every_keyword_and_built_in_is_coloured() -> None:
    text = json.dumps(textmate.grammar())
    for word in keywords() | set(BUILTINS):
        assert re.search(rf"[(|]{word}[|)]", text), word


def test_every_pattern_compiles_and_every_include_is_defined() -> None:
    grammar = json.loads(GRAMMAR.read_text(encoding="utf-8"))
    assert grammar["scopeName"] == "source.meeple" and grammar["fileTypes"] == ["rules"]
    for pattern in patterns(grammar):
        for key in ("match", "begin", "end"):
            if key in pattern:
                re.compile(pattern[key])
        include = pattern.get("include", "#")
        assert include.startswith("#") and (include == "#" or include[1:] in grammar["repository"]), include
        assert "name" in pattern or "include" in pattern or "captures" in pattern, pattern


def test_words_are_coloured_by_what_they_are() -> None:
    line = '  if count(pieces(p.hand)) >= 3 and not done: move all coin from bag to players[0].hand  # "x"'
    assert scope_of("if", line) == "keyword.control.meeple"
    assert scope_of("count", line) == "support.function.builtin.meeple"
    assert scope_of("and", line) == "keyword.operator.word.meeple"
    assert scope_of("move", line) == "keyword.control.meeple"
    assert scope_of("players", line) == "variable.language.meeple"
    assert scope_of("coin", line) == "variable.other.meeple"
    assert scope_of("3", line) == "constant.numeric.meeple"
    declaration = re.compile(textmate.grammar()["repository"]["declaration"]["match"])
    found = declaration.match("rule take(p: player):")
    assert found is not None and found.group(1) == "rule" and found.group(2) == "take"
    assert declaration.match("  rule take") is None  # only at the start of a line
    assert {"rule", "table", "zone"} <= declaration_words() and "text" in meta_words()


def test_the_manifest_ships_the_language_the_grammar_and_a_client_that_starts_meeple_lsp() -> None:
    manifest = json.loads((VSCODE / "package.json").read_text(encoding="utf-8"))
    for field in ("name", "displayName", "version", "publisher", "engines", "main", "contributes"):
        assert field in manifest, field
    assert "vscode" in manifest["engines"]
    (language,) = manifest["contributes"]["languages"]
    assert language["id"] == "meeple" and language["extensions"] == [".rules"]
    configuration = json.loads((VSCODE / language["configuration"]).read_text(encoding="utf-8"))
    assert configuration["comments"]["lineComment"] == "#"
    (grammar,) = manifest["contributes"]["grammars"]
    assert grammar["language"] == "meeple" and grammar["scopeName"] == textmate.SCOPE
    assert (VSCODE / grammar["path"]).resolve() == GRAMMAR.resolve()
    assert "vscode-languageclient" in manifest["dependencies"]
    command = manifest["contributes"]["configuration"]["properties"]["meeple.command"]
    assert command["default"] == ["meeple", "lsp"]
    script = (VSCODE / manifest["main"]).read_text(encoding="utf-8")
    assert 'require("vscode-languageclient/node")' in script
    assert 'getConfiguration("meeple").get("command", ["meeple", "lsp"])' in script
    assert "exports" in script and "activate" in script and "deactivate" in script


def test_a_word_quoted_only_in_a_comment_of_the_grammar_is_no_keyword() -> None:
    """The grammar's comments quote examples (`players 2 called "you", "Jimmy"`): a word found
    only there is not a word of the language, so the editors' grammar does not colour it and a
    rule may still be named with it."""
    raw = (ROOT / "grammar" / "meeple.lark").read_text(encoding="utf-8")
    comments = "\n".join(line for line in raw.splitlines() if line.lstrip().startswith("//"))
    rules = "\n".join(line for line in raw.splitlines() if not line.lstrip().startswith("//"))
    only_in_comments = words.words(comments) - words.words(rules)
    assert only_in_comments, "the test needs a comment that quotes a word the rules do not use"
    assert not only_in_comments & keywords()
