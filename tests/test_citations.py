"""Every bundled game against its publisher's rulebook: each quote found, short, and the rulebook
implemented by the rules.

The rulebooks are not part of meeple, so these tests skip on a clone without them (the reason
says how to provide them, `MEEPLE_RULEBOOKS=...`); CI has them and sets `MEEPLE_REQUIRE_SHARED`,
so there a missing rulebook fails instead. The checker's mechanisms themselves are tested on a
rulebook of our own in test_rulebook.py.
"""

from __future__ import annotations

from functools import cache

import pytest
from helpers import shared_file

import meeple
from meeple.interpreter.checks import CheckOptions, Report, run_checks
from meeple.interpreter.checks import rulebook as book_check
from meeple.loader import bundled_games

GAMES = [path.stem for path in bundled_games()]


@pytest.fixture(scope="module", params=GAMES)
def stem(request: pytest.FixtureRequest) -> str:
    """Each bundled game, this file's tests of one game in a row (a module-scoped parameter groups
    them), so that `meeple.check` is the loader's kept game rather than built again by each test
    (eleven games round a loader that keeps eight)."""
    return str(request.param)


# What the issue that made citations short asked of every game and variant: the rules implement at
# least 95% of the rulebook's rule paragraphs, and the quotes copy less than 15% of its words.
COVERED, QUOTED = 95.0, 15.0


@cache
def _report(stem: str, book: str) -> Report:
    options = CheckOptions(rulebook=shared_file("rulebooks", book), coverage=True)
    return run_checks(meeple.check(stem), stem, options)


def report(stem: str) -> Report:
    checked = meeple.check(stem)
    header = checked.symbols.header if checked.symbols is not None else None
    assert header is not None and header.rulebook, f"{stem} names no rulebook"
    return _report(stem, header.rulebook)


def test_every_quote_of_a_bundled_game_is_found_in_its_rulebook_in_one_place(stem: str) -> None:
    quotes = [d for d in report(stem).diagnostics if d.code in {"M050", "M052", "M055"}]
    assert quotes == [], [d.render(None) for d in quotes]


def test_a_bundled_game_passes_every_check_with_its_rulebook(stem: str) -> None:
    problems = report(stem).problems
    assert problems == [], [d.render(None) for d in problems]


def test_a_bundled_game_implements_nearly_all_of_its_rulebook_and_copies_little_of_it(stem: str) -> None:
    total = report(stem).coverage[-1].as_data()
    assert total["cited_percent"] >= COVERED, (total["uncovered"], total["example_only"])
    assert total["quoted_percent"] < QUOTED


def test_no_passage_a_game_marks_as_no_rule_is_cited_by_a_rule(stem: str) -> None:
    """An aside is never a rule (docs/checking.md): a passage a game quotes with `aside` (flavour,
    a tip, a worked example) is cited by no rule, step or declaration; the coverage would count it
    as covered and hide that a rule rests on an example. A worked example that disagrees with a
    rule is quoted by a conflict instead, which is not a rule."""
    checked = meeple.check(stem)
    header = checked.symbols.header if checked.symbols is not None else None
    assert checked.module is not None and header is not None and header.rulebook
    path = shared_file("rulebooks", header.rulebook)
    book = book_check.read_rulebook(path, path.read_text(encoding="utf-8"))
    found = book_check.check_citations(checked.module, book)
    both = sorted(found.asides & found.of(book_check.IMPLEMENTED))
    assert both == [], [f"{book.paragraphs[i].line}: {book.paragraphs[i].text[:60]}" for i in both]
