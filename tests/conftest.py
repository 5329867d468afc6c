"""Each test process keeps every game it loads (issue 27: the default run under 3 minutes).

The loader keeps the last `loader.KEPT` games and checks it built (8: a long-lived process, as the
language server, should hold no more than a few Campaigns). A test file often goes through every
bundled game and variant, more than 8, in the same order as the file before it: the least
recently used was always the next one asked for, so each such file built every game again (a
Campaign: 3 s of CPU), and the garbage collector then scanned and freed the dropped ones. The test
processes keep every game they build instead (all the bundled games and variants together take
a few hundred MB): `tests/test_suspends.py` and `tests/test_english.py` run together went from
24.1 to 15.4 s of CPU (26 builds to 15), and from 381 to 285 MB at their peak (fewer games
dropped as garbage). They also collect cyclic garbage less often (`YOUNG`), freeze what they
hold after each test (`gc.freeze`), and the run starts with the longest test files (`LONGEST`),
so that the two test processes finish together."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from meeple import loader

# The test files that take longest, the longest first: `pytest_collection_modifyitems` puts them at
# the head of the run, so that each of the two test processes starts one and the short files fill
# in at the end (pyproject's `--dist loadfile --no-loadscope-reorder` hands out files in that
# order). xdist's own order, the files with the most tests first, started the Campaign's tests and
# the citation checks last: in a default run (2,807 tests, load 12 to 20, `-p` a plugin timing
# each test's CPU) one process ran 328 s of CPU and the other 266 s, the run waiting on the first.
# Seconds of CPU per file (each test's process_time, summed) in a default run of 4 December (3,117
# tests, -n 2, load 8 to 10: the two processes 149 and 164 s of CPU, each with 6 s of collection).
# A file's figure includes the games it is the first in its process to build. The Ray tests are
# placed by their time waiting on Ray's own processes and on a command started in a process of
# its own, not by their own CPU (1 s): 35 s as the earlier tables had it; the files below 6 s are
# left in xdist's order. docs/testing.md says how to measure again.
LONGEST = {
    "test_ray_backend.py": 35,
    "test_codegen.py": 24,
    "test_citations.py": 19,
    "test_native.py": 18,
    "test_dino_dynasty_variants.py": 16,
    "test_variant_aids.py": 13,
    "test_hostile.py": 12,
    "test_dino_party_properties.py": 11,
    "test_codegen_order.py": 11,
    "test_dino_dynasty_stasis.py": 11,
    "test_native_variants.py": 9,
    "test_plots.py": 9,
    "test_boards.py": 8,
    "test_gods_love_dinosaurs.py": 8,
    "test_printed.py": 8,
    "test_simulate.py": 8,
    "test_dino_garden.py": 7,
    "test_lsp_incremental.py": 6,
    "test_openspiel.py": 6,
}

# The cyclic collector's first threshold, in objects made and not yet freed (CPython's is 700). The
# tests make millions of objects that live for a test or a file (checks, reports, rendered books),
# and each young collection scanned the survivors of the last ones again: in test_english.py,
# test_suspends.py and test_dino_dynasty_stasis.py (-n 0, both runs side by side, load 18, a
# plugin timing the collector with gc.callbacks) the collector took 8.3 of 31.7 s of CPU at 700
# (2,055 young collections) and 3.0 of 26.1 s at 100,000 (25), with the same peak (579 MB).
# It does not make the run's peak of memory (2.9 GB in the first process, against 2.1 GB before the
# longest files went first): test_dino_dynasty_variants.py and test_codegen.py, -n 0, peaked at
# 1,590 MB at 700 and 1,598 MB at 100,000 (90.5 against 68.6 s of CPU in their tests). The peak is
# the games each process keeps (`TEST_KEPT`), and grows with the games of many options one process
# builds: the longest files, first, put the Campaign's, the Stasis's and the books of every game in
# the first process (1.3 GB after test_dino_dynasty_variants.py, 2.0 after test_codegen.py, 2.4
# after test_dino_dynasty_stasis.py and test_native_variants.py), where the other process had them
# spread out. The loader now keeps a game asked for by its name and by its file as one.
# A game is built with the collector off (`loader.uncollected`), so the next young collection
# walked the whole game, a million objects for a Campaign, before the test ended and froze it
# (`pytest_runtest_protocol`): at 1,000,000 most games are frozen unwalked. test_codegen.py,
# test_citations.py and test_dino_dynasty_variants.py, -n 0, freezing after each test (load 7
# to 8): the collector 2.8 of 56.4 s of CPU at 100,000, 0.5 of 53.4 s at 1,000,000, with the
# same peak (1.80 and 1.82 GB).
YOUNG = 1_000_000

# More than the games (by file, options and folder) one test process builds from the disk.
TEST_KEPT = 64


def pytest_configure(config: pytest.Config) -> None:
    loader.KEPT = max(loader.KEPT, TEST_KEPT)
    gc.set_threshold(YOUNG, *gc.get_threshold()[1:])


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    """After each test, what the process still holds is frozen out of the cyclic collector's reach
    (`gc.freeze`): the games the test built and the loader keeps, and each file's module-level
    data. The collector otherwise walked each of those objects again in every young collection
    until it was old (a Campaign is a million objects, built with the collector off:
    `loader.uncollected`), and a full collection walked everything the process holds (2 GB by
    the end of a run). Freezing after each file, once the young generations were collected
    (`gc.collect(1)`), still left that walk of what each file built: test_codegen.py,
    test_citations.py and test_dino_dynasty_variants.py, -n 0, `gc.callbacks` timing the
    collector (load 4 to 5): 9.7 of 62.6 s of CPU in the collector so, 2.4 of 53.4 s freezing
    after each test without a collection. The cost is memory: a cycle that becomes garbage
    after its test is frozen is never freed (peak 1.38 GB against 1.80 GB in those files; 0.52
    against 0.81 GB in test_hostile.py, test_checks.py, test_english.py, test_suspends.py and
    test_lsp_incremental.py, 25.2 against 23.3 s of CPU): docs/testing.md gives the whole run's."""
    yield
    gc.freeze()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The longest files first (see `LONGEST`); the others, and each file's own tests, keep their
    order (the sort is stable)."""
    items.sort(key=lambda item: -LONGEST.get(item.path.name, 0))
