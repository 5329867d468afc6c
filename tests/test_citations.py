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
