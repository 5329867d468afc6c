"""A variant changes how players score, or how ties are broken: `replace score` and `replace
tiebreak` write the base game's line anew (docs/language.md, "Variants"). Each test writes a tiny
neutral base game and a variant of it beside it."""

from __future__ import annotations

from pathlib import Path

from helpers import located_errors

import meeple
from meeple.codegen import render

BASE = """\
game "Heaps":
  players 2..3
zone pot per player
zone bag
piece chip: 10 per player in bag
var luck: int = 0 per player
play:
  for each p in players:
    turn p:
      move p.seat + 1 chip of p from bag to p.pot
score p = count(pieces(p.pot))
tiebreak p = p.luck
"""


def variant(tmp_path: Path, body: str, base: str = BASE) -> Path:
    (tmp_path / "heaps.rules").write_text(base, encoding="utf-8")
    path = tmp_path / "variant.rules"
    path.write_text('variant "Changed" of "heaps.rules":\n  players 2..3\n' + body, encoding="utf-8")
    return path


def test_replace_score_changes_every_players_score(tmp_path: Path) -> None:
    """The base game scores the chips in a pot (seat 1 puts 1, seat 2 puts 2); the variant scores
    the chips left in the bag."""
    base = meeple.load(variant(tmp_path, "")).new_game(2, seed=1)
    assert base.scores == [1, 2]
    changed = meeple.load(variant(tmp_path, "replace score p = 10 - count(pieces(p.pot))\n")).new_game(
        2, seed=1
    )
    assert changed.scores == [9, 8]
    assert changed.winners == [0]


def test_replace_tiebreak_changes_who_wins_a_tie(tmp_path: Path) -> None:
    """Every score equal, the base game's tiebreak (luck, 0 for all) shares the win; the variant's
    gives every tie to the last seat."""
    flat = "replace score p = 0\n"
    shared = meeple.load(variant(tmp_path, flat)).new_game(3, seed=1)
    assert len(shared.winners) == 3
    last = meeple.load(variant(tmp_path, flat + "replace tiebreak p = p.seat\n")).new_game(3, seed=1)
    assert last.tiebreaks == [0, 1, 2]
    assert last.winners == [2]


def test_replacing_a_score_line_the_base_game_lacks_is_an_error_at_the_variants_line(tmp_path: Path) -> None:
    base = BASE.replace("tiebreak p = p.luck\n", "")
    found = located_errors(variant(tmp_path, "replace tiebreak p = p.luck\n", base))
    assert found == [("variant.rules", 3, "M090", "the base game has no tiebreak line to replace")]


def test_a_second_score_line_without_replace_is_an_error_that_says_to_replace(tmp_path: Path) -> None:
    found = located_errors(variant(tmp_path, "score p = 0\n"))
    assert found == [("variant.rules", 3, "M090", "the base game already has a score line")]


def test_a_tiebreak_added_where_the_base_game_has_none_needs_no_replace(tmp_path: Path) -> None:
    base = BASE.replace("tiebreak p = p.luck\n", "")
    state = meeple.load(variant(tmp_path, "tiebreak p = 0 - p.seat\n", base)).new_game(2, seed=1)
    assert state.tiebreaks == [0, -1]


def test_the_variants_rulebook_tells_the_new_tie_rule(tmp_path: Path) -> None:
    """The printed changes of a variant include a score line it replaces, in its own words."""
    body = 'replace tiebreak p = p.seat\n  says "The last to play wins every tie."\n'
    path = variant(tmp_path, body)
    checked = meeple.check(path)
    assert checked.ok, [d.message for d in checked.diagnostics]
    docs = render.game_docs(path, checked.module, checked.symbols, checked.program.constants)
    assert "The last to play wins every tie." in render.rulebook_markdown(docs)
