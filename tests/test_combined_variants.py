"""Combining variants: `variant "Name" of "a.rules", "b.rules":` plays a's game with b's own
patches applied after a's, so that two variants of one game are played together without copying
either (docs/language.md#combining-variants).

Neutral games: a base of chips, a variant that plays more rounds, one that gains more per turn."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import chip_game, located_errors

import meeple
from meeple.codegen import render

BASE = chip_game(30)

LONGER = """\
variant "Longer" of "base.rules":
  says "Four rounds."
replace constant rounds = 4
insert before step income:
  step mark_longer:
    log "the longer step"
"""

RICHER = """\
variant "Richer" of "base.rules":
  says "Two chips a turn."
replace rule gain(p: player):
  move 2 chip of p from bag to p.pot
insert before step income:
  step mark_richer:
    log "the richer step"
"""


ALSO = """\
variant "Also richer" of "base.rules":
  says "Three chips a turn."
replace rule gain(p: player):
  move 3 chip of p from bag to p.pot
"""


def combining(name: str, *bases: str) -> str:
    """The header of a file that combines these variants, and nothing else."""
    named = ", ".join(f'"{b}"' for b in bases)
    return f'variant "{name}" of {named}:\n  says "Together."\n'


def folder(tmp_path: Path, combined: str, **others: str) -> Path:
    """The base game, both variants, any other file, and the combining file, side by side."""
    files = {"base.rules": BASE, "longer.rules": LONGER, "richer.rules": RICHER, **others}
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    path = tmp_path / "both.rules"
    path.write_text(combined)
    return path


HEADER = combining("Longer and richer", "longer.rules", "richer.rules")


def test_a_variant_of_two_variants_plays_both_sets_of_patches(tmp_path: Path) -> None:
    """Four rounds (Longer) of two chips a turn (Richer): 8 chips each."""
    game = meeple.load(folder(tmp_path, HEADER))
    assert game.name == "Longer and richer"
    assert game.new_game(2).scores == [8, 8]


def test_the_combined_variants_patches_apply_in_the_order_the_header_names_them(tmp_path: Path) -> None:
    """Both insert a step before `income`: the later-named variant's lands nearer to it, so it
    runs second."""

    def steps(header: str) -> list[str]:
        log = meeple.load(folder(tmp_path, header)).new_game(2).log
        return [line for line in log if line in ("the longer step", "the richer step")][:2]

    assert steps(HEADER) == ["the longer step", "the richer step"]
    reverse = combining("Richer and longer", "richer.rules", "longer.rules")
    assert steps(reverse) == ["the richer step", "the longer step"]


def test_two_variants_changing_one_declaration_is_an_error_naming_both(tmp_path: Path) -> None:
    """Neither may silently win: the error stands where the combining file names the second
    variant, and names both patches by file and line."""
    more = combining("Richer twice", "richer.rules", "also.rules")
    found = located_errors(folder(tmp_path, more, **{"also.rules": ALSO}))
    assert found == [
        (
            "both.rules",
            1,
            "M093",
            "'richer.rules' (line 3) and 'also.rules' (line 3) both change rule 'gain'",
        )
    ]


def test_the_combining_file_settles_a_declaration_both_variants_change(tmp_path: Path) -> None:
    more = (
        combining("Richer twice", "richer.rules", "also.rules")
        + "replace rule gain(p: player):\n  move 5 chip of p from bag to p.pot\n"
    )
    assert meeple.load(folder(tmp_path, more, **{"also.rules": ALSO})).new_game(2).scores == [10, 10]


def test_only_variants_of_the_same_game_combine(tmp_path: Path) -> None:
    other_game = BASE.replace('"Base"', '"Other"')
    elsewhere = LONGER.replace('"Longer" of "base.rules"', '"Elsewhere" of "other.rules"')
    game_named = folder(tmp_path, combining("X", "longer.rules", "base.rules"))
    assert [e[:3] for e in located_errors(game_named)] == [("both.rules", 1, "M091")]
    assert "not a variant" in located_errors(game_named)[0][3]
    other = folder(
        tmp_path,
        combining("X", "longer.rules", "elsewhere.rules"),
        **{"other.rules": other_game, "elsewhere.rules": elsewhere},
    )
    assert [e[:3] for e in located_errors(other)] == [("both.rules", 1, "M091")]
    assert "'other.rules'" in located_errors(other)[0][3]
    missing = folder(tmp_path, combining("X", "longer.rules", "nowhere.rules"))
    assert [e[:3] for e in located_errors(missing)] == [("both.rules", 1, "M091")]


def test_a_variant_built_on_one_of_them_combines_too(tmp_path: Path) -> None:
    """`richer.rules` builds on the base game, which `longer.rules` builds on as well: a variant of
    a variant (here of Longer) is combined with a variant of the base."""
    longest = 'variant "Longest" of "longer.rules":\n  says "Six rounds."\nreplace constant rounds = 6\n'
    path = folder(tmp_path, combining("X", "longest.rules", "richer.rules"), **{"longest.rules": longest})
    assert meeple.load(path).new_game(2).scores == [12, 12]


def test_the_rulebook_of_a_combined_variant_names_both_games(tmp_path: Path) -> None:
    path = folder(
        tmp_path,
        HEADER + 'replace constant rounds = 3\n  says "Three rounds, then."\n',
    )
    checked = meeple.check(path)
    assert checked.module is not None and checked.symbols is not None and checked.program is not None
    docs = render.game_docs(checked.path, checked.module, checked.symbols, checked.program.constants)
    assert docs.book.base == "Base"  # a player holds the base game's book and this one (issue 25)
    text = render.rulebook_markdown(docs)
    assert "This is a variant of Base: its rules hold" in text
    assert "these changes take in those of Longer and Richer." in text


def test_the_language_server_shows_a_conflict_at_the_header(tmp_path: Path) -> None:
    pytest.importorskip("pygls", reason="the language server needs the lsp extra: pip install -e '.[lsp]'")
    from meeple.lsp import load_stage

    more = combining("Richer twice", "richer.rules", "also.rules")
    path = folder(tmp_path, more, **{"also.rules": ALSO})
    found = load_stage(path, more).diagnostics
    assert [(d.line, d.column, d.code) for d in found] == [(1, 43, "M093")]


def test_a_file_that_combines_itself_is_a_cycle_not_a_crash(tmp_path: Path) -> None:
    path = folder(tmp_path, combining("X", "longer.rules", "both.rules"))
    found = located_errors(path)
    assert [e[:3] for e in found] == [("both.rules", 1, "M091")] and "cycle" in found[0][3]
