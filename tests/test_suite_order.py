"""The default run starts with its longest test files (tests/conftest.py, `LONGEST`), so that the
two test processes finish together: a file renamed or removed would silently lose its place."""

from __future__ import annotations

from pathlib import Path

from conftest import LONGEST


def test_every_file_the_run_starts_with_is_a_test_file_of_the_suite() -> None:
    here = Path(__file__).parent
    assert [name for name in LONGEST if not (here / name).is_file()] == []
