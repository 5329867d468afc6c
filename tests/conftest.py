"""Each test process keeps every game it loads (issue 27: the default run under 3 minutes).

The loader keeps the last `loader.KEPT` games and checks it built (8: a long-lived process, as the
language server, should hold no more than a few Campaigns). A test file often goes through every
bundled game and variant, more than 8, in the same order as the file before it: the least
recently used was always the next one asked for, so each such file built every game again (a
Campaign: 3 s of CPU), and the garbage collector then scanned and freed the dropped ones. The test
processes keep every game they build instead (all the bundled games and variants together take
a few hundred MB): `tests/test_suspends.py` and `tests/test_english.py` run together went from
24.1 to 15.4 s of CPU (26 builds to 15), and from 381 to 285 MB at their peak (fewer games
dropped as garbage)."""

from __future__ import annotations

import pytest

from meeple import loader

# More than the games (by file, options and folder) one test process builds from the disk.
TEST_KEPT = 64


def pytest_configure(config: pytest.Config) -> None:
    loader.KEPT = max(loader.KEPT, TEST_KEPT)
