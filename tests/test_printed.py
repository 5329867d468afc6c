"""What players read is in players' words: the rulebook and the player aid of every bundled game.

A scan of the generated text (and the words of the worked examples' pictures), for every game and
variant, not a list of bad phrases: no name
from the file (anything with `_`, and every declared name that is not a plain word), no letter
standing for a thing (the single-letter names the rules bind), no line numbers, no line of the
game's log, no type, no path. And every rule a player needs is printed: each rule, step and
phase is in the rulebook, by its own words or by the words of the place that calls it.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from functools import cache

import pytest

import meeple
from meeple.codegen import render
from meeple.codegen.rulebook import Rulebook, rulebook
from meeple.grammar import ast
from meeple.loader import bundled_games

GAMES = [path.stem for path in bundled_games()]


@pytest.fixture(scope="module", params=GAMES)
def stem(request: pytest.FixtureRequest) -> str:
    """Each bundled game, all of this file's tests of one game in a row (a module-scoped parameter
    groups them): `meeple.check` is then the loader's kept game, not read, analysed and compiled
    again by each test, as it was when the twelve games went round a loader that keeps eight."""
    return str(request.param)


@cache
def printed(stem: str) -> tuple[Rulebook, str]:
    checked = meeple.check(stem)
    assert checked.module is not None and checked.symbols is not None and checked.program is not None
    program = checked.program
    docs = render.game_docs(checked.path, checked.module, checked.symbols, program.constants, program=program)
    full = render.game_docs(checked.path, checked.module, checked.symbols, program.constants, True)
    drawn = [  # the words of the worked examples' pictures
        " ".join(t.text or "" for t in ET.fromstring(svg).iter("{http://www.w3.org/2000/svg}text"))
        for svg in render.rulebook_pictures(docs).values()
    ]
    text = "\n".join(
        [render.rulebook_markdown(docs), render.aid_markdown(docs), render.rulebook_markdown(full), *drawn]
    )
    return docs.book, text


def words(text: str) -> str:
    """The text a player reads: without Markdown's anchors, link targets and escapes."""
    text = re.sub(r'<a id="[^"]*"></a>', "", text)
    text = re.sub(r"\]\([^)]*\)", "]", text)  # link targets: a section, a picture file
    return text.replace("\\_", "_").replace("\\", "")


def test_no_name_from_the_file_reaches_a_player(stem: str) -> None:
    text = words(printed(stem)[1])
    assert re.findall(r"\w+_\w+", text) == []


def test_no_letter_stands_for_a_thing(stem: str) -> None:
    module = meeple.check(stem).module
    assert module is not None
    bound = {n for d in module.decls for n in _bound(d) if len(n) == 1 and n not in "aAI"}
    # not "player's", nor the plural mark of "Biome(s)"
    letters = re.findall(r"(?<!['\u2019])(?<!\w\()\b([A-Za-z])\b(?!\.)", words(printed(stem)[1]))
    found = {m for m in letters if m in bound}
    assert found == set()


def test_no_line_number_log_line_type_or_path_reaches_a_player(stem: str) -> None:
    module = meeple.check(stem).module
    assert module is not None
    text = words(printed(stem)[1])
    assert not re.search(r"\bline \d+|\.rules\b|\.txt\b|/[a-z]+/", text)
    assert not re.search(r"\((a number|a player|yes or no|a text|a zone|a piece|anything)\)", text)
    assert "Log \u201c" not in text  # how the designer's English prints a log line
    whole = {log.parts[0] for log in _logs(module) if len(log.parts) == 1 and len(str(log.parts[0])) > 40}
    assert [line for line in whole if str(line) in text] == []  # a log line of plain words


def test_a_variant_rulebook_shows_its_changes_and_nothing_of_the_base_game(stem: str) -> None:
    """Its pages: its own words and its changes. Not the base game's overview (which may say
    what the variant changed: a round count), components, setup or rules; `--full` prints those."""
    checked = meeple.check(stem)
    assert checked.module is not None and checked.symbols is not None and checked.program is not None
    docs = render.game_docs(checked.path, checked.module, checked.symbols, checked.program.constants)
    if docs.book.base is None:
        return
    assert docs.book.changes and all(p.changed for p in docs.book.changes)
    module = checked.module
    others = [d.span.file for d in module.decls if d.span.file != module.file]
    base = meeple.check(max(set(others), key=others.count))
    assert base.module is not None and base.symbols is not None and base.program is not None
    base_book = rulebook(base.path, base.module, base.symbols, base.program.constants)
    text = render.rulebook_markdown(docs)
    for words in base_book.overview:
        assert words not in text
    # The base game's sections; a variant's reworded setup prints among its changes, a level down.
    assert not re.search(r"^## (Components|Setup)$", text, re.M)
    for part in base_book.rules:
        if part.words and part.title not in {p.title for p in docs.book.changes}:
            assert part.words[0] not in text, part.title
    full = render.game_docs(checked.path, checked.module, checked.symbols, checked.program.constants, True)
    assert full.book.base is None and "## Components" in render.rulebook_markdown(full)


def _bound(decl: ast.Decl) -> list[str]:
    names = [p.name for p in getattr(decl, "params", [])]
    for node in decl.walk():
        if isinstance(node, ast.ForEach | ast.Choose | ast.Pick | ast.Filter | ast.MapComp):
            names.append(node.var)
        elif isinstance(node, ast.Let):
            names.append(node.name)
        elif isinstance(node, ast.TriggerDecl):
            names += [node.piece_var, node.loc_var]
    return names


def _logs(module: ast.Module) -> list[ast.Log]:
    return [n for d in module.decls for n in d.find_all(ast.Log)]


def test_every_rule_a_player_needs_is_in_the_rulebook(stem: str) -> None:
    """Each rule is printed, or told by the `says` of every place that calls it; each phase and
    step of the flow is printed (unless the whole flow has words of its own)."""
    from meeple.codegen.rulebook import _Builder

    checked = meeple.check(stem)
    assert checked.module is not None and checked.symbols is not None and checked.program is not None
    builder = _Builder(checked.module, checked.symbols, checked.program.constants, False)
    book, _ = printed(stem)
    reachable = {
        n.name for d in (checked.symbols.setup, checked.symbols.play) if d for n in _calls(d, checked.symbols)
    }
    shown = {p.anchor for p in [*book.rules, *book.changes]}
    told = builder._told()
    from meeple.codegen.english import anchor

    missing = [r for r in reachable if anchor("rule", r) not in shown and r not in told and book.base is None]
    assert missing == []
    play = checked.symbols.play
    if play is not None and book.base is None and not any(m.kind == "says" for m in play.meta):
        flow = " ".join(line.flat() for line in book.flow).lower()
        for block in _shown_blocks(play.body):
            assert builder.names.block(block).one.lower() in flow, block.name


def _shown_blocks(body: list[ast.Stmt]) -> list[ast.Named]:
    """The phases and steps a flow prints: those not inside a block whose `says` stands for it."""
    out: list[ast.Named] = []
    for stmt in body:
        if isinstance(stmt, ast.Named):
            out.append(stmt)
            if any(isinstance(m, ast.Meta) and m.kind == "says" for m in stmt.body):
                continue
        for inner in stmt.blocks():
            out += _shown_blocks(inner)
    return out


def _calls(decl: ast.Node, symbols: object) -> list[ast.CallStmt]:
    rules = symbols.rules
    seen: dict[str, ast.CallStmt] = {}
    todo = [decl]
    while todo:
        node = todo.pop()
        for call in node.find_all(ast.CallStmt):
            if call.name in rules and call.name not in seen:
                seen[call.name] = call
                todo.append(rules[call.name])
    return list(seen.values())
