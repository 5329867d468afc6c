"""Random games per second for every bundled game and player count.

    python bench/bench.py [--games N] [--game NAME] [--profile]

Plays N games with random agents for each allowed player count, with the readable log off (as
`meeple simulate` does), and prints games per second and decisions per game. Figures are for
comparing runs on one machine side by side, not absolute: run before and after a change.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import time

import meeple
from meeple.loader import bundled_games


def play_many(game: meeple.Game, players: int, games: int) -> tuple[float, float]:
    """(games per second, decisions per game) for `games` random games."""
    decisions = 0
    start = time.perf_counter()
    for seed in range(games):
        state = game.new_game(players, seed=seed, logging=False)
        rng = random.Random(seed)
        while not state.is_over:
            state.apply(rng.randrange(state.decision.size))  # type: ignore[union-attr]
            decisions += 1
    elapsed = time.perf_counter() - start
    return games / elapsed, decisions / games


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--game", help="one bundled game (default: all)")
    parser.add_argument("--profile", action="store_true", help="print the 20 most expensive functions")
    args = parser.parse_args()
    paths = [meeple.resolve(args.game)] if args.game else bundled_games()
    print(f"{'game':<28} {'players':>7} {'games/s':>9} {'decisions/game':>15}")
    for path in paths:
        game = meeple.load(path)
        for players in range(game.min_players, game.max_players + 1):
            if args.profile:
                profile = cProfile.Profile()
                profile.runcall(play_many, game, players, args.games)
                pstats.Stats(profile).sort_stats("tottime").print_stats(20)
                continue
            rate, per_game = play_many(game, players, args.games)
            print(f"{path.stem:<28} {players:>7} {rate:>9.1f} {per_game:>15.1f}")


if __name__ == "__main__":
    main()
