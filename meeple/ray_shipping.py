"""Which meeple a Ray cluster's workers run, and sending this one to workers that have none.

A task is a function of `meeple.ray_backend`, sent by reference: a worker imports it from its
own meeple. Three things can go wrong there, each said in one line before any game is sent:

- **The driver's folder shadows meeple.** Ray puts the driver's working directory on every
  worker's import path; run from a folder that holds a `meeple/` directory (a clone's parent),
  the workers import that directory instead of the installed package. `connect` gives the job
  an empty working directory of its own (Ray's `runtime_env`), which Ray puts there instead.
- **A worker has no meeple.** `probe` asks a worker which meeple it imports; it is sent by value
  (`register_pickle_by_value`), so it runs where meeple is missing. Then `shipment` makes a
  `runtime_env` that sends this machine's meeple with the job (`py_modules`: the package as it is
  installed here, laid out as one folder) and its dependencies (`pip`, installed by Ray on each
  node from the package index the cluster reaches).
- **A worker runs another meeple.** A record is the engine's, so every node must play with the
  same code: the version, and a digest of the package's files (two builds of one version differ).

Nothing here is run on a worker but `probe`, and nothing a worker returns is more than strings.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.metadata
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# meeple's subpackages: an editable install keeps them where pyproject.toml's package-dir says
# (the user's top-level folders), a wheel inside meeple/. tests/test_ray_backend.py keeps this
# list equal to pyproject.toml's.
SUBPACKAGES = ("grammar", "interpreter", "codegen", "games", "serve")
# What a worker never needs: the Rust crate's build and sources (the extension is shipped built).
LEFT_BEHIND = (
    "__pycache__",
    "*.pyc",
    "target",
    "src",
    "examples",
    "tests",
    "Cargo.*",
    "*.rs",
    "rustfmt.toml",
)
VERSION_FILE = "SHIPPED_VERSION"  # a sent meeple's version: it has no distribution metadata
# The files whose digest tells two builds of meeple apart.
DIGESTED = (".py", ".lark", ".rules", ".csv", ".jinja", ".html", ".js", ".css", ".typ")


@dataclass(frozen=True)
class Installed:
    """A meeple as a process imports it: its version and a digest of its files ("" for
    either when it has none), and where it lies, or why it cannot be imported."""

    version: str
    digest: str
    where: str

    def same(self, other: Installed) -> bool:
        return (self.version, self.digest) == (other.version, other.digest)

    def said(self) -> str:
        return f"meeple {self.version} ({self.digest[:12]}, in {self.where})"


def folders() -> list[tuple[str, Path]]:
    """meeple's package folders as this process imports them: (the name inside meeple/, the
    folder), meeple's own first; a subpackage that lies inside meeple/ is not listed again."""
    import meeple

    top = Path(meeple.__file__).parent
    out = [("", top)]
    for name in SUBPACKAGES:
        where = Path(importlib.import_module(f"meeple.{name}").__path__[0])
        if not where.is_relative_to(top):
            out.append((name, where))
    return out


def digest() -> str:
    """A digest of the files of meeple as this process imports it, by their place in the
    package: the same code installed anywhere gives the same digest."""
    found: dict[str, Path] = {}
    for inside, folder in folders():
        for path in folder.rglob("*"):
            relative = path.relative_to(folder)
            if not path.is_file() or path.suffix not in DIGESTED:
                continue
            if {"__pycache__", "target", "tests"} & set(relative.parts):
                continue
            found["/".join(filter(None, (inside, relative.as_posix())))] = path
    h = hashlib.sha256()
    for name in sorted(found):  # by place in the package, not by folder: the layouts differ
        h.update(f"{name}\0".encode())
        h.update(found[name].read_bytes())
    return h.hexdigest()


def here() -> Installed:
    """The meeple this process runs. Its version is the installed distribution's; a meeple that
    was sent (`stage`) has no distribution, and says its version in a file instead."""
    import meeple

    top = Path(meeple.__file__).parent
    try:
        version = importlib.metadata.version("meeple")
    except importlib.metadata.PackageNotFoundError:
        version = (top / VERSION_FILE).read_text(encoding="utf-8").strip()
    return Installed(version, digest(), str(top))


def probe() -> tuple[str, str, str]:
    """Run on a worker (sent by value): the meeple it imports, as `Installed`'s fields, or
    ("", "", why not)."""
    try:
        from meeple import ray_shipping

        found = ray_shipping.here()
    except Exception as err:  # a worker's missing or broken meeple is the answer, not a failure
        return ("", "", f"{type(err).__name__}: {err}")
    return (found.version, found.digest, found.where)


def stage(into: Path) -> Path:
    """meeple as this process imports it, copied into `into/meeple` as one package folder (the
    layout of a wheel), for Ray to send as a `py_module`; that folder."""
    root = into / "meeple"
    ignore = shutil.ignore_patterns(*LEFT_BEHIND)
    for inside, folder in folders():
        shutil.copytree(folder, root / inside if inside else root, ignore=ignore, dirs_exist_ok=True)
    (root / VERSION_FILE).write_text(importlib.metadata.version("meeple"), encoding="utf-8")
    return root


def requirements() -> list[str]:
    """meeple's own dependencies (no extra's), for Ray to install with pip on each node."""
    return [r for r in importlib.metadata.requires("meeple") or [] if "extra ==" not in r]


def shipment(staged: Path) -> dict[str, Any]:
    """The `runtime_env` entries that send meeple and its dependencies with a job."""
    return {"py_modules": [str(staged)], "pip": requirements()}


def mismatch(driver: Installed, worker: Installed) -> str:
    """What to say when a worker runs another meeple, in one line."""
    if driver.version != worker.version:
        return (
            f"the Ray workers run meeple {worker.version} and this machine meeple {driver.version}: "
            "install the same version on every node"
        )
    return (
        f"the Ray workers run another build of meeple {driver.version} ({worker.where}) than this "
        f"machine ({driver.where}): install the same one on every node"
    )
