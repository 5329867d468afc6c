"""Memory per live game: how much a game in progress holds, on the Python engine, on the native
core and in the plain Python program written for the game (`handwritten_*.py`), where there is one.

    python bench/memory.py [--game NAME] [--players N] [--live K] [--decisions D]

Each contender runs in a process of its own (started by this one, one after the other): it makes
K games of seeds 0..K-1, plays each with random answers (`random.Random(seed)`) for D decisions
(or to its end, if it ends first), keeps them all alive, and reports how much its resident memory
(Linux's VmRSS, which counts the native core's allocations as well as Python's) grew, per game.
The readable log is off, as `meeple simulate` plays. A game the core does not run is listed with
the construct that keeps it on Python. Figures are for comparing on one machine, not absolute.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
HANDWRITTEN = {"gods_love_dinosaurs": "handwritten_gld", "dino_garden": "handwritten_dg"}


def resident() -> int:
    """This process's resident memory, in bytes (Linux)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise SystemExit("no VmRSS in /proc/self/status: this bench measures on Linux only")


def new_game(game: str, contender: str, players: int) -> Any:
    """A function making a game of seed `s` for one contender."""
    if contender == "handwritten":
        sys.path.insert(0, str(BENCH))
        module = importlib.import_module(HANDWRITTEN[game])
        return lambda seed: module.State(players, seed)
    import meeple
    from meeple.interpreter import native

    loaded = meeple.load(game)
    if contender == "native":
        return lambda seed: native.new_game(loaded, players, seed, logging=False)
    return lambda seed: loaded.new_game(players, seed, logging=False)


def measure(game: str, contender: str, players: int, live: int, decisions: int) -> dict[str, Any]:
    """In this process: the memory K live games take, each D decisions in."""
    make = new_game(game, contender, players)
    make(10**6)  # the program loaded, caches warm: only the games are counted below
    gc.collect()
    before = resident()
    games = []
    asked = 0
    for seed in range(live):
        state, rng = make(seed), random.Random(seed)
        for _ in range(decisions):
            if state.is_over:
                break
            state.apply(rng.randrange(state.decision.size))
            asked += 1
        games.append(state)
    gc.collect()
    grown = resident() - before
    return {"per_game": grown / live, "decisions": asked / live, "live": len(games)}


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--game", default="dino_party", help="a bundled game (default: dino_party)")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--live", type=int, default=500, help="games kept alive (default 500)")
    parser.add_argument("--decisions", type=int, default=40, help="decisions into each game (default 40)")
    parser.add_argument("--contender", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.contender:
        print(json.dumps(measure(args.game, args.contender, args.players, args.live, args.decisions)))
        return
    import meeple
    from meeple.interpreter import native

    engine, why = native.engine_for(meeple.load(args.game), "auto")
    contenders = ["python"] + (["native"] if engine == "native" else [])
    contenders += ["handwritten"] if args.game in HANDWRITTEN else []
    print(
        f"{args.game}, {args.players} players, {args.live} live games, {args.decisions} decisions into each"
    )
    if engine != "native":
        print(f"  native: not measured ({why})")
    for contender in contenders:
        command = [sys.executable, __file__, "--contender", contender, "--game", args.game]
        command += [
            "--players",
            str(args.players),
            "--live",
            str(args.live),
            "--decisions",
            str(args.decisions),
        ]
        out = json.loads(subprocess.run(command, capture_output=True, text=True, check=True).stdout)
        size, depth = out["per_game"] / 1024, out["decisions"]
        print(f"  {contender:>11}: {size:8.1f} KB per live game ({depth:.1f} decisions in)")


if __name__ == "__main__":
    main()
