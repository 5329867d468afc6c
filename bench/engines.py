"""The two engines side by side: random games per CPU-second on the Python engine and on the
native core, the same seeds on both, checked to be the same games.

    python bench/engines.py [--games N] [--game NAME ...] [--agents STYLE]

Each engine plays in a process of its own (started by this one, one after the other, so that they
do not share the machine's cores), with the readable log off, as `meeple simulate` does, and
measures its own CPU time (the native core's lowering of the program is done before the clock,
as loading the rules is). The Python engine's random agents answer each decision; the native
core plays the whole game inside itself with its own random agents, which draw what the Python
agents of the same seed draw (agents.py: seed * 1000 + seat). Every game's choices, scores and
winners must agree, or the bench says which seed differs. It also measures what a copy of a
native state costs, taken mid-game (`state.clone()`; the Python engine has no copy but a replay).

Where a game has a plain Python program written for it by hand (`handwritten_gld.py`,
`handwritten_dg.py`), that is
timed too, in a third process, on the same seeds: its random players draw from one generator of
the seed, not one per seat, so its games are other games of the same rules, and are not checked.

Figures are for comparing on one machine, not absolute. A game the core does not run yet is
listed with the construct that keeps it on Python.

`--agents STYLE` has every seat play a style the rules declare (`style STYLE:`) instead of at
random, on both engines (games that do not declare it are left out): the Python engine's
StyleAgent weighs each decision, the core plays its agents inside itself.
"""

from __future__ import annotations

import argparse
import importlib
import json
import subprocess
import sys
import time
from typing import Any

import meeple
from meeple.interpreter import native
from meeple.interpreter.agents import make_agents
from meeple.interpreter.agents import play as play_to_end

# (label, rules, options, players, teams: the layout, seats from 0, or None)
GAMES: list[tuple[str, str, dict[str, str], int, list[list[int]] | None]] = [
    ("Tic-Tac-Toe", "tests/games/tic_tac_toe.rules", {}, 2, None),
    ("Connect Four", "tests/games/connect_four.rules", {}, 2, None),
    ("Hex 11x11", "tests/games/hex.rules", {}, 2, None),
    ("Dino Party, 3 players", "dino_party", {}, 3, None),
    ("Gods Love Dinosaurs, 3p", "gods_love_dinosaurs", {}, 3, None),
    ("Dino Garden, 3 players", "dino_garden", {}, 3, None),
    ("Dino Dynasty C, 4p", "dino_dynasty", {"scenario": "C"}, 4, None),
    ("Dino Dynasty teams C, 4p", "dino_dynasty_teams", {"scenario": "C"}, 4, [[0, 2], [1, 3]]),
    ("Dino Dynasty Stasis C, 3p", "dino_dynasty_stasis", {"scenario": "C"}, 3, None),
    ("Dino Dynasty Dynasty C, 4p", "dino_dynasty_dynasty", {"scenario": "C"}, 4, None),
    # a sequence of three games, each started from the save of the one before (carried grid)
    ("Seasons (a sequence), 2p", "tests/carry/seasons.rules", {}, 2, None),
    # five Scenarios played as one, the Map kept, slid (`shift`) and grown from one to the next
    ("Dino Dynasty Campaign, 4p", "dino_dynasty_campaign", {}, 4, None),
]
# The games with a program written for them by hand (bench/, beside this file).
HANDWRITTEN = {"gods_love_dinosaurs": "handwritten_gld", "dino_garden": "handwritten_dg"}


def play(
    rules: str,
    options: dict[str, str],
    players: int,
    teams: list[list[int]] | None,
    games: int,
    engine: str,
    agent: str = "random",
) -> dict[str, Any]:
    """Play the seeds 0..games-1 on one engine (in this process), in `teams` if given, every
    seat by `agent`: CPU seconds and each game."""
    if engine == "handwritten":
        handwritten = importlib.import_module(HANDWRITTEN[rules])
        handwritten.default_components()  # read before the clock starts, as meeple.load is
        began = time.process_time()
        for seed in range(games):
            handwritten.play_random(players, seed)
        return {"seconds": time.process_time() - began, "games": []}
    game = meeple.load(rules, options=options or None)
    if engine == "native":  # lowered before the clock, as meeple.load is: once per program
        for program in [game, *game.parts]:
            native.lowered(program, players)
    out = []
    began = time.process_time()
    for seed in range(games):
        if engine == "native":
            state = native.new_game(game, players, seed, logging=False, teams=teams)
            state.play_out([agent] * players)
        else:
            state = game.new_game(players, seed, logging=False, teams=teams)
            play_to_end(state, make_agents([agent], players, seed, game.program.styles))
        out.append((state.choices, state.scores, state.winners))  # a sequence's: all its games' choices
    return {"seconds": time.process_time() - began, "games": out}


def clone_cost(
    rules: str, options: dict[str, str], players: int, teams: list[list[int]] | None, copies: int = 20_000
) -> float:
    """Microseconds of CPU per copy of a native state taken halfway through a game."""
    game = meeple.load(rules, options=options or None)
    whole = native.new_game(game, players, 0, logging=False, teams=teams)
    whole.play_out(["random"] * players)
    state = native.new_game(game, players, 0, logging=False, teams=teams)
    for choice in whole.choices[: len(whole.choices) // 2]:
        state.apply(choice)  # (a sequence goes on to its next game as one ends)
    core = state.core  # a sequence's: its game in progress
    began = time.process_time()
    for _ in range(copies):
        core.clone()
    return (time.process_time() - began) / copies * 1e6


def child(args: argparse.Namespace) -> None:
    _, rules, options, players, teams = GAMES[args.child]
    result = play(rules, options, players, teams, args.games, args.engine, args.agents)
    if args.engine == "native":
        result["clone_us"] = clone_cost(rules, options, players, teams)
    print(json.dumps(result))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=200, help="games per engine and game (default 200)")
    parser.add_argument("--game", action="append", help="only the games whose label starts so")
    parser.add_argument(
        "--agents", default="random", help="every seat's agent: random, or a style the rules declare"
    )
    parser.add_argument("--child", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--engine", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child is not None:
        child(args)
        return
    if not native.available():
        sys.exit(native.NOT_BUILT)
    print(
        f"{'game':<24} {'python games/s':>15} {'native games/s':>15} {'ratio':>8} {'clone':>9}  same"
        f"  {'hand-written games/s':>20}"
    )
    for index, (label, rules, options, _, _) in enumerate(GAMES):
        if args.game and not any(label.startswith(g) for g in args.game):
            continue
        loaded = meeple.load(rules, options=options or None)
        if args.agents != "random" and args.agents not in loaded.program.styles:
            continue
        engine, why = native.engine_for(loaded, "auto")
        if engine != "native":
            print(f"{label:<24} (Python only: {why})")
            continue
        runs = {}
        by_hand = rules in HANDWRITTEN and args.agents == "random"
        for name in ("python", "native", "handwritten") if by_hand else ("python", "native"):
            command = [
                sys.executable,
                __file__,
                "--child",
                str(index),
                "--engine",
                name,
                "--games",
                str(args.games),
                "--agents",
                args.agents,
            ]
            runs[name] = json.loads(
                subprocess.run(command, check=True, capture_output=True, text=True).stdout
            )
        py, nat = runs["python"], runs["native"]
        differ = [seed for seed, (a, b) in enumerate(zip(py["games"], nat["games"], strict=True)) if a != b]
        rate_py, rate_nat = args.games / py["seconds"], args.games / max(nat["seconds"], 1e-9)
        # a slow game's rate with its tenths (Dino Dynasty plays about one game a second on Python)
        digits = 1 if rate_py < 10 else 0
        same = "yes" if not differ else f"NO: seeds {differ[:5]}"
        hand = f"  {args.games / runs['handwritten']['seconds']:>20,.0f}" if "handwritten" in runs else ""
        print(
            f"{label:<24} {rate_py:>15,.{digits}f} {rate_nat:>15,.{digits}f} {rate_nat / rate_py:>7,.0f}x "
            f"{nat['clone_us']:>7.2f}µs  {same}{hand}"
        )


if __name__ == "__main__":
    main()
