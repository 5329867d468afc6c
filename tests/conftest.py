"""Each test process keeps every game it loads (issue 27: the default run under 3 minutes).

The loader keeps the last `loader.KEPT` games and checks it built (8: a long-lived process, as the
language server, should hold no more than a few Campaigns). A test file often goes through every
bundled game and variant, more than 8, in the same order as the file before it: the least
recently used was always the next one asked for, so each such file built every game again (a
Campaign: 3 s of CPU), and the garbage collector then scanned and freed the dropped ones. The test
processes keep every game they build instead (all the bundled games and variants together take
a few hundred MB): `tests/test_suspends.py` and `tests/test_english.py` run together went from
24.1 to 15.4 s of CPU (26 builds to 15), and from 381 to 285 MB at their peak (fewer games
dropped as garbage). They also collect cyclic garbage less often (`YOUNG`), and the run starts
with the longest test files (`LONGEST`), so that the two test processes finish together."""

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
# Seconds of CPU per file (each test's process_time, summed) in a default run of 3 December (2,986
# tests, -n 2, load 9 to 19: the two processes 187 and 201 s of CPU, and they finished within a
# second of each other), less the cases since moved to the soaks (the largest player count of Gods
# Love Dinosaurs' and Dino Party's properties, most of the MCTS games: test_openspiel.py,
# test_gods_love_dinosaurs.py and test_dino_party_properties.py at 10.0, 10.2 and 11.3 s, -n 0,
# against 16.4, 18.7 and 18.1). The Ray tests are placed by their time waiting on Ray's own
# processes and on a command started in a process of its own, not by their own CPU (1 s): 35 s as
# the earlier table had it; the files below 6 s are left in xdist's order. docs/testing.md says how to
# measure again.
LONGEST = {
    "test_ray_backend.py": 35,
    "test_codegen.py": 30,
    "test_citations.py": 29,
    "test_dino_dynasty_variants.py": 22,
    "test_native.py": 18,
    "test_native_variants.py": 18,
    "test_dino_dynasty_stasis.py": 16,
    "test_hostile.py": 16,
    "test_printed.py": 14,
    "test_codegen_order.py": 14,
    "test_checks.py": 13,
    "test_variant_aids.py": 12,
    "test_dino_party_properties.py": 11,
    "test_gods_love_dinosaurs.py": 10,
    "test_openspiel.py": 10,
    "test_simulate.py": 10,
    "test_boards.py": 10,
    "test_english.py": 9,
    "test_hostile_paths.py": 9,
    "test_plots.py": 8,
    "test_dino_dynasty_teams.py": 8,
    "test_lsp_incremental.py": 7,
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
YOUNG = 100_000

# More than the games (by file, options and folder) one test process builds from the disk.
TEST_KEPT = 64


def pytest_configure(config: pytest.Config) -> None:
    loader.KEPT = max(loader.KEPT, TEST_KEPT)
    gc.set_threshold(YOUNG, *gc.get_threshold()[1:])


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    """After each test file, what the process still holds is frozen out of the cyclic collector's
    reach (`gc.freeze`), once the young generations are collected (`gc.collect(1)`): the kept games
    and each file's module-level data. A full collection walks every object the process holds, 2 GB
    by the end of a run, and came three times in each test process, 11 s of CPU each at load 7 to
    10, in whichever short test made the heap grow by a quarter; after a freeze it walks only what
    came since the last file. Two default runs of 3 December (2,915 tests, load 7 to 11, `gc`'s
    callbacks timing the collector): 67 s of the collector's CPU before, 43 s after (542 s and 457 s
    of CPU in the two test processes); their peak of memory 2.42 and 2.55 GB: what is garbage at a
    freeze and only a full collection would free (a cycle that outlived two young collections) is
    kept until the process ends."""
    yield
    if nextitem is None or nextitem.path != item.path:
        gc.collect(1)
        gc.freeze()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The longest files first (see `LONGEST`); the others, and each file's own tests, keep their
    order (the sort is stable)."""
    items.sort(key=lambda item: -LONGEST.get(item.path.name, 0))
