"""How fast the playtest page steps back through a game's history.

    python bench/history.py [--game dino_dynasty] [--players 3] [--seed 2] [--steps 20]

Plays a game to its end with random agents in a playtest session (`meeple serve`'s `Session`,
no server), then steps back `--steps` decisions from the end as the page's Back button does,
and the same steps as the page did before it kept a window of pages (a replay from the seed at
every step). Prints both in CPU seconds of this one process and their ratio: the machine is
shared, so CPU time, not wall time.
"""

from __future__ import annotations

import argparse
import time

import meeple
from meeple.interpreter.engine import replay
from meeple.serve.app import Session


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="dino_dynasty")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seed", type=int, default=2)
    parser.add_argument("--steps", type=int, default=20)
    args = parser.parse_args()
    game = meeple.load(meeple.resolve(args.game))
    session = Session(game, args.game, args.players, args.seed, ["random"])
    state = session.state
    last = len(state.choices)
    steps = range(last - 1, max(last - 1 - args.steps, -1), -1)
    start = time.process_time()
    for at in steps:
        session.look(at)
        session.shown()
    window = time.process_time() - start
    start = time.process_time()
    for at in steps:
        past = replay(game, args.players, args.seed, state.choices[:at], complete=False)
        session.presenter.page(past, None, offer=False)
    each = time.process_time() - start
    print(
        f"{args.game}, {last} decisions, {len(steps)} steps back: {window:.2f} s CPU with the window "
        f"of pages, {each:.2f} s with a replay a step ({each / window:.1f} times)"
    )


if __name__ == "__main__":
    main()
