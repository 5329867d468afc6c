"""A second implementation agrees with the rules: the games written by hand in plain Python for the
speed bar (`bench/handwritten_*.py`) play the same games as the rules files, seed by seed.

Each hand-written game mirrors its rules file decision by decision, and shuffles and answers with
the same seeded generators (see `bench/bench.py --compare`). Two programs written apart that end
with the same choices, scores and turns are strong evidence that both play the rules as written:
when the engine, a rule or the mirror changes one of them, this test says so.
"""

from __future__ import annotations

import importlib
import random
import sys
from pathlib import Path
from types import ModuleType

import pytest
from helpers import shared_file

import meeple

BENCH = Path(__file__).resolve().parents[1] / "bench"

# (bundled game, its hand-written module, the component file it reads, player counts, seeds)
PAIRS = [
    ("gods_love_dinosaurs", "handwritten_gld", "gods-love-dinosaurs.json", (2, 5), range(3)),
    ("dino_garden", "handwritten_dg", None, (3, 4), range(4)),
]


def handwritten(module: str) -> ModuleType:
    sys.path.insert(0, str(BENCH))
    try:
        return importlib.import_module(module)
    finally:
        sys.path.remove(str(BENCH))


@pytest.mark.parametrize(("name", "module", "data", "counts", "seeds"), PAIRS)
def test_the_hand_written_game_plays_the_same_games_as_the_rules(
    name: str, module: str, data: str | None, counts: tuple[int, ...], seeds: range
) -> None:
    game, hand = meeple.load(name), handwritten(module)
    if data is not None:
        hand.default_components(shared_file("components", data))
    for players in counts:
        for seed in seeds:
            state = game.new_game(players, seed=seed, logging=False)
            rng = random.Random(seed)
            while not state.is_over:
                state.apply(rng.randrange(state.decision.size))  # type: ignore[union-attr]
            theirs = hand.play_random(players, seed)
            ours = (state.choices, state.scores, state.turns)
            which = f"{name}, {players} players, seed {seed}"
            assert ours == (theirs.choices, theirs.scores, theirs.turns), which
