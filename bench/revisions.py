"""Two versions of meeple side by side: is an engine change faster, and by how much?

    python bench/revisions.py BASE [NEW] [--game NAME] [--players N] [--games K] [--option NAME=VALUE]
                              [--engine python|native]

BASE and NEW are git revisions (NEW defaults to the working tree). Each version runs in a worker
process of its own, from a copy of that revision (its engine and its bundled games); the two play
the same seeds with the same random answers, game by game in turn, so that the machine's load falls
on both alike. That is the point: on a shared 2-core VM two runs of one version in separate
processes differ by up to 30%, while games taken in turn agree within about 1%. The table says
whether every game was the same game (choices and scores): a change made for speed alone must not
change one.

`--engine native` plays both versions on the native core (interpreter/native), answered from
Python as on the Python engine: the working tree with the extension its install built, a git
revision with its own crate, built by cargo for the run (a minute or two).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PARTS = ("grammar", "interpreter", "codegen", "games")  # the folders the package maps (pyproject.toml)

# A worker: plays the seeds it is sent, one per line, and answers "seconds|choices|scores".
WORKER = """
import json, sys, time, random
# this copy of meeple, not an installed one (an editable install puts a finder before sys.path)
sys.meta_path = [f for f in sys.meta_path if "editable" not in repr(f).lower()]
sys.path.insert(0, sys.argv[1])
import meeple
game, players = meeple.load(sys.argv[2], json.loads(sys.argv[4])), int(sys.argv[3])
if sys.argv[5] == "native":
    from meeple.interpreter import native
    def new_game(seed):
        return native.new_game(game, players, seed, logging=False)
else:
    def new_game(seed):
        return game.new_game(players, seed=seed, logging=False)
for line in sys.stdin:
    seed = int(line)
    start = time.process_time()  # CPU time: what the game costs, whatever else the machine runs
    state = new_game(seed)
    rng = random.Random(seed)
    while not state.is_over:
        state.apply(rng.randrange(state.decision.size))
    seconds = time.process_time() - start
    print(f"{seconds}|{state.choices}|{state.scores}", flush=True)
"""


def package(source: Path, into: Path) -> Path:
    """A folder holding `meeple` laid out as the package is installed: meeple/ with grammar/,
    interpreter/, codegen/ and games/ inside it (as links into `source`)."""
    pkg = into / "meeple"
    pkg.mkdir(parents=True)
    for item in (source / "meeple").iterdir():
        (pkg / item.name).symlink_to(item)
    for part in PARTS:
        (pkg / part).symlink_to(source / part)
    return into


def checkout(revision: str, into: Path) -> Path:
    """The files of a git revision, unpacked into a folder."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", revision], capture_output=True, check=True
    ).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        if hasattr(tarfile, "data_filter"):  # Python 3.11.4 and later: refuse odd members
            tar.extractall(into, filter="data")
        else:
            tar.extractall(into)  # our own repository's archive
    return into


def build_native(source: Path, target: Path) -> None:
    """Build a checked-out revision's native core into its folder, as its install would."""
    crate = source / "interpreter" / "native"
    if not (crate / "Cargo.toml").exists():
        raise SystemExit(f"--engine native: {source.name} has no native core (interpreter/native/Cargo.toml)")
    env = {**os.environ, "PYO3_PYTHON": sys.executable, "CARGO_TARGET_DIR": str(target)}
    subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=crate, env=env, check=True)
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    shutil.copy(target / "release" / "lib_core.so", crate / f"_core{suffix}")


class Worker:
    def __init__(self, folder: Path, game: str, players: int, options: dict[str, str], engine: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-c", WORKER, str(folder), game, str(players), json.dumps(options), engine],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def play(self, seed: int) -> tuple[float, str]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(f"{seed}\n")
        self.process.stdin.flush()
        answer = self.process.stdout.readline()
        if not answer:
            raise SystemExit(f"a worker stopped (exit {self.process.wait()}): see its error above")
        seconds, game = answer.split("|", 1)
        return float(seconds), game

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("base", help="a git revision: the version to compare against")
    parser.add_argument("new", nargs="?", help="a git revision (default: the working tree)")
    parser.add_argument("--game", default="dino_garden", help="a bundled game (default: dino_garden)")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help="a game option")
    parser.add_argument("--engine", choices=("python", "native"), default="python", help="default: python")
    args = parser.parse_args()
    options = dict(o.split("=", 1) for o in args.option)
    with tempfile.TemporaryDirectory() as tmp:
        base_src = checkout(args.base, Path(tmp) / "base_src")
        new_src = checkout(args.new, Path(tmp) / "new_src") if args.new else ROOT
        if args.engine == "native":
            for source in {base_src, new_src} - {ROOT}:
                build_native(source, Path(tmp) / "target")
        folders = [package(base_src, Path(tmp) / "base"), package(new_src, Path(tmp) / "new")]
        workers = [Worker(folder, args.game, args.players, options, args.engine) for folder in folders]
        try:
            for worker in workers:
                worker.play(10**6)  # warm up: imports, caches, the first game's allocations
            seconds, same = [0.0, 0.0], 0
            for seed in range(args.games):
                order = (0, 1) if seed % 2 == 0 else (1, 0)
                games: list[str] = ["", ""]
                for i in order:
                    took, games[i] = workers[i].play(seed)
                    seconds[i] += took
                same += games[0] == games[1]
        finally:
            for worker in workers:
                worker.close()
    names = [args.base, args.new or "working tree"]
    for name, total in zip(names, seconds, strict=True):
        print(f"{name:>24}: {args.games / total:7.1f} games per CPU second")
    played = f"{args.game}, {args.players} players, {args.engine} engine"
    print(f"{'new / base':>24}: {seconds[0] / seconds[1]:7.3f}   ({played})")
    print(f"{'same games':>24}: {same}/{args.games}")


if __name__ == "__main__":
    main()
