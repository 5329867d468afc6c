"""How long `meeple docs` takes, cold: every document of every bundled game in every format.

    python bench/docs.py [--runs N]

Each run is a fresh process (`meeple docs ... --force` into an empty folder: nothing is kept
from a run before), timed by the wall clock and by the CPU time it and its workers used. Runs
with one worker and with one per core alternate (so that a busy machine slows both alike), and
the PDFs of the two are checked identical byte for byte: Typst makes the same pages either way.
The table gives the median of each, the pages made and the CPU time per page. Figures compare
runs on one machine side by side; they are not absolute.
"""

from __future__ import annotations

import argparse
import io
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from pypdf import PdfReader

from meeple.loader import bundled_games


def run(out: Path, jobs: int) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the command and its workers) for one cold run."""
    games = [path.stem for path in bundled_games()]
    command = [sys.executable, "-m", "meeple.cli", "docs", *games, "-o", str(out), "--force"]
    command += ["--format", "all", "--summary", "--reference", "--jobs", str(jobs)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def pdfs(out: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(out.glob("*.pdf"))}


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=3)
    runs = parser.parse_args().runs
    cores = os.cpu_count() or 1
    times: dict[int, list[tuple[float, float]]] = {1: [], cores: []}
    made: dict[int, dict[str, bytes]] = {}
    for _ in range(runs):
        for jobs in times:
            with tempfile.TemporaryDirectory() as folder:
                times[jobs].append(run(Path(folder), jobs))
                made[jobs] = pdfs(Path(folder))
    first, *others = made.values()
    same = all(other == first for other in others)
    pages = sum(len(PdfReader(io.BytesIO(data)).pages) for data in first.values())
    print(f"{len(first)} PDFs, {pages} pages; identical with 1 and {cores} workers: {same}")
    print(f"{'workers':>8} {'wall s':>8} {'CPU s':>8} {'CPU ms/page':>12}")
    for jobs, samples in times.items():
        wall = statistics.median(s[0] for s in samples)
        cpu = statistics.median(s[1] for s in samples)
        print(f"{jobs:>8} {wall:>8.2f} {cpu:>8.2f} {1000 * cpu / pages:>12.1f}")


if __name__ == "__main__":
    main()
