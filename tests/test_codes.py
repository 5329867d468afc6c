"""The registry of diagnostic codes (meeple/codes.py) is the one place a code is defined: the
language reference's table says the same for every code, and the package raises none by its bare
number."""

from __future__ import annotations

import re
from pathlib import Path

from meeple import codes

ROOT = Path(__file__).resolve().parent.parent
ROW = re.compile(r"^\| (M\d{3}) \| (\w+) \| (.*) \|$", re.MULTILINE)
# The package's own folders (installed as meeple.*: pyproject.toml's package-dir).
PACKAGE = ["meeple", "grammar", "interpreter", "codegen", "games"]


def test_the_language_reference_table_is_the_registry_row_for_row() -> None:
    text = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    documented = [(number, severity, meaning) for number, severity, meaning in ROW.findall(text)]
    registered = [(c.number, c.severity, c.meaning) for c in codes.REGISTRY.values()]
    assert documented == registered


def test_codes_are_in_order_and_each_constant_names_its_own_number() -> None:
    numbers = list(codes.REGISTRY)
    assert numbers == sorted(numbers) and all(re.fullmatch(r"M\d{3}", n) for n in numbers)
    constants = {value for name, value in vars(codes).items() if name.isupper() and isinstance(value, str)}
    assert constants == set(numbers), "every code has one named constant, and every constant a code"


def test_no_code_is_raised_by_its_bare_number() -> None:
    """A code written as `"M010"` in the package would escape the registry: its severity and
    meaning could drift from the table."""
    bare = re.compile(r"""["']M\d{3}["']""")
    found = [
        f"{path.relative_to(ROOT)}:{n}"
        for folder in PACKAGE
        for path in sorted((ROOT / folder).rglob("*.py"))
        if path.name != "codes.py"
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if bare.search(line)
    ]
    assert not found
