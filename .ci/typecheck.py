"""The type checkers over the package as it is installed: `meeple.grammar` is `grammar/`, and so
on (pyproject.toml's `package-dir`). An editable install maps those folders with an import hook,
which runs but which no type checker follows; so this lays the installed tree out as links in
build/types (laid anew each run: a module added since is in it) and checks that. Run from
anywhere: `python .ci/typecheck.py` (docs/architecture.md, "Where things live")."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TREE = ROOT / "build" / "types"


def lay_out() -> None:
    """build/types/meeple/... as the install has it: each package a link to its folder, except
    `meeple` itself, whose folder holds the others' links beside its own modules."""
    mapping = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"][
        "package-dir"
    ]
    shutil.rmtree(TREE, ignore_errors=True)
    top = TREE / "meeple"
    top.mkdir(parents=True)
    for entry in (ROOT / mapping["meeple"]).iterdir():
        if entry.name != "__pycache__":
            (top / entry.name).symlink_to(entry)
    for package, folder in mapping.items():
        if package != "meeple":
            (TREE / package.replace(".", os.sep)).symlink_to(ROOT / folder)


def main() -> int:
    lay_out()
    python = sys.executable  # the tools installed beside this Python (the `test` extra) check its packages
    failed = subprocess.run([python, "-m", "mypy"], cwd=ROOT).returncode
    if "--mypy-only" not in sys.argv:
        failed |= subprocess.run([python, "-m", "pyright", "--pythonpath", python], cwd=ROOT).returncode
    return failed


if __name__ == "__main__":
    sys.exit(main())
