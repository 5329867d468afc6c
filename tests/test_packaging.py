"""An installed meeple (a wheel, not the editable checkout) has every part of itself: each folder
with Python in it is a package the build lists, and each data file it reads is package data.
The editable install used by the tests would not notice a missing one; users would."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_python_folder_is_a_listed_package() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    listed = set(config["packages"])
    for package, folder in config["package-dir"].items():
        for init in (ROOT / folder).rglob("__init__.py"):
            dotted = ".".join([package, *init.parent.relative_to(ROOT / folder).parts])
            assert dotted in listed, f"{dotted} is not in pyproject.toml's packages"
