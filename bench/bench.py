"""Random games per second for every bundled game and player count.

    python bench/bench.py [--games N] [--game NAME] [--players 2,4,6] [--option NAME=VALUE] [--profile]
    python bench/bench.py --game dino_dynasty --every-option scenario --players 2,4,6
    python bench/bench.py --game dino_dynasty_campaign_teams --players 4 --teams 1+3,2+4 --games 3
    python bench/bench.py --compare [--games N] [--game NAME]

Plays N games with random agents for each allowed player count (or those `--players` names),
with the readable log off (as `meeple simulate` does), and prints games per second and decisions
per game. `--option` sets a game option, as `meeple play` does; `--every-option NAME` plays the
games once under each value of an option chosen from a table (every Scenario size, say); `--teams`
plays them in teams, as `meeple play --teams` does. A game that is a sequence (the Campaign) counts
as one game. Figures are for
comparing runs on one machine side by side, not absolute: run before and after a change.

`--compare` measures meeple against the bar the project set for it: the game written by hand in
plain Python (`handwritten_gld.py` for Gods Love Dinosaurs, `handwritten_dg.py` for Dino Garden),
with the same decisions and the same options. Both
play the same N seeds, game by game in turn (so that a busy machine slows both alike), and the
table gives games per second for each, the ratio meeple / hand-written (the aim: at least 0.5),
decisions, turns and scores per game, and how many games came out identical: with the same seed
both shuffle the same stacks and the random agent gives the same answers, so every game should be
the same game, which is the check that the hand-written version plays the rules of the file.
"""

from __future__ import annotations

import argparse
import cProfile
import importlib
import pstats
import random
import time
from dataclasses import dataclass, field
from typing import Any

import meeple
from meeple.grammar import ast
from meeple.interpreter.teams import Layout, parse_layout
from meeple.loader import bundled_games

# bundled game -> its hand-written version, a module beside this file
HANDWRITTEN = {"gods_love_dinosaurs": "handwritten_gld", "dino_garden": "handwritten_dg"}


def play_many(
    game: meeple.Game, players: int, games: int, teams: Layout | None = None
) -> tuple[float, float]:
    """(games per second, decisions per game) for `games` random games."""
    decisions = 0
    start = time.perf_counter()
    for seed in range(games):
        state = game.new_game(players, seed=seed, logging=False, teams=teams)
        rng = random.Random(seed)
        while not state.is_over:
            state.apply(rng.randrange(state.decision.size))  # type: ignore[union-attr]
            decisions += 1
    elapsed = time.perf_counter() - start
    return games / elapsed, decisions / games


@dataclass
class Tally:
    """What one implementation did over a batch of games."""

    seconds: float = 0.0
    games: int = 0
    decisions: int = 0
    turns: int = 0
    points: int = 0  # every player's score, summed
    results: list[tuple[Any, ...]] = field(default_factory=list)  # (choices, scores, turns) per game

    def add(self, seconds: float, choices: list[int], scores: list[int], turns: int) -> None:
        self.seconds += seconds
        self.games += 1
        self.decisions += len(choices)
        self.turns += turns
        self.points += sum(scores)
        self.results.append((tuple(choices), tuple(scores), turns))

    def rate(self) -> float:
        return self.games / self.seconds

    def per_game(self, total: int) -> float:
        return total / self.games


def compare(name: str, games: int) -> None:
    """meeple against the hand-written version of one game, for every player count."""
    handwritten = importlib.import_module(HANDWRITTEN[name])  # only this comparison needs it
    game = meeple.load(name)
    handwritten.default_components()  # read the data before the clock starts, as meeple.load does
    print(f"{name}: {games} random games per player count, the same seeds for both")
    print("ratio = meeple / hand-written")
    print(
        f"{'players':>7} {'meeple g/s':>10} {'hand g/s':>9} {'ratio':>6} "
        f"{'decisions m/h':>15} {'turns m/h':>13} {'score/player m/h':>17} {'identical':>9}"
    )
    for players in range(game.min_players, game.max_players + 1):
        ours, theirs = Tally(), Tally()
        for seed in range(games):
            start = time.perf_counter()
            state = game.new_game(players, seed=seed, logging=False)
            rng = random.Random(seed)
            while not state.is_over:
                state.apply(rng.randrange(state.decision.size))  # type: ignore[union-attr]
            ours.add(time.perf_counter() - start, state.choices, state.scores, state.turns)

            start = time.perf_counter()
            hand = handwritten.play_random(players, seed)
            theirs.add(time.perf_counter() - start, hand.choices, hand.scores, hand.turns)
        same = sum(a == b for a, b in zip(ours.results, theirs.results, strict=True))
        print(
            f"{players:>7} {ours.rate():>10.1f} {theirs.rate():>9.1f} {ours.rate() / theirs.rate():>6.2f} "
            f"{ours.per_game(ours.decisions):>7.1f}/{theirs.per_game(theirs.decisions):<7.1f}"
            f"{ours.per_game(ours.turns):>6.1f}/{theirs.per_game(theirs.turns):<6.1f}"
            f"{ours.points / games / players:>8.2f}/{theirs.points / games / players:<8.2f}"
            f"{same:>5}/{games}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--game", help="one bundled game (default: all; with --compare: every compared game)")
    parser.add_argument("--profile", action="store_true", help="print the 20 most expensive functions")
    parser.add_argument(
        "--compare",
        action="store_true",
        help=f"meeple against the game written by hand (the speed bar): {', '.join(HANDWRITTEN)}",
    )
    parser.add_argument("--players", help="player counts, comma separated (default: every allowed count)")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help="a game option")
    parser.add_argument("--every-option", metavar="NAME", help="play under each value of this option")
    parser.add_argument("--teams", metavar="1+3,2+4", help="the teams the games are played in")
    args = parser.parse_args()
    if args.compare:
        for name in [args.game] if args.game else list(HANDWRITTEN):
            if name not in HANDWRITTEN:
                parser.error(f"no hand-written {name!r}; there is: {', '.join(HANDWRITTEN)}")
            compare(name, args.games)
        return
    paths = [meeple.resolve(args.game)] if args.game else bundled_games()
    chosen = dict(o.split("=", 1) for o in args.option)
    teams = parse_layout(args.teams) if args.teams else None
    print(f"{'game':<40} {'players':>7} {'games/s':>9} {'decisions/game':>15}")
    for path in paths:
        for options in option_sets(path, chosen, args.every_option):
            game = meeple.load(path, options)
            label = " ".join([path.stem, *(f"{k}={v}" for k, v in options.items())])
            counts = range(game.min_players, game.max_players + 1)
            for players in [int(n) for n in args.players.split(",")] if args.players else counts:
                if args.profile:
                    profile = cProfile.Profile()
                    profile.runcall(play_many, game, players, args.games, teams)
                    print(f"{label}, {players} players:")
                    pstats.Stats(profile).sort_stats("tottime").print_stats(20)
                    continue
                rate, per_game = play_many(game, players, args.games, teams)
                print(f"{label:<40} {players:>7} {rate:>9.2f} {per_game:>15.1f}")


def option_sets(path: Any, chosen: dict[str, str], every: str | None) -> list[dict[str, str]]:
    """The options to play under: those chosen, and each value of the `every` option in turn."""
    if every is None:
        return [chosen]
    module = meeple.check(path).module
    decls = {getattr(d, "name", None): d for d in (module.decls if module else [])}
    option = decls.get(every)
    table = decls.get(option.type.name) if isinstance(option, ast.OptionDecl) else None
    rows = table.rows if isinstance(table, ast.Table) else None
    if rows is None:
        raise SystemExit(f"{path.stem} has no option '{every}' chosen from a table")
    return [{**chosen, every: str(row.cells[0])} for row in rows]


if __name__ == "__main__":
    main()
