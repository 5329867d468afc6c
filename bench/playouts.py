"""Random playouts per CPU-second: meeple against OpenSpiel, side by side in one run.

    python bench/playouts.py [--playouts N] [--game tic_tac_toe|connect_four|hex] [--least SECONDS]

For Tic-Tac-Toe, Connect Four and Hex 11x11, each contender plays N random playouts (random
answers, one per decision, from `random.Random(seed)`, seeds 0 to N-1, a generator seeded for
each playout, whoever's the decision; or, for the contenders that say "one stream", every
playout from one generator seeded once, as a user's loop and Ludii's figures draw them) in a
process of its own, started one after the other; each reports the CPU time of its playouts only
(after its game is loaded), so a machine shared with other work slows the figures less than wall
time would. Each contender plays its N playouts in rounds, at least 3 and until its rounds add
up to `--least` seconds of CPU (1 by default), and reports the median round: 2,000 playouts of
Tic-Tac-Toe take the core 50 ms, and one round that short moved by a third between two runs a
second apart on an idle machine. The contenders:

- `meeple`: the game in `tests/games/` on meeple's Python engine (`new_game(...,
  logging=False)`), Hex with `--option size=11`, from the same kind of Python loop;
- `openspiel`: OpenSpiel's own C++ game driven from its Python loop (`pyspiel.load_game(...)`,
  `state.apply_action(choice(state.legal_actions()))`): what a user of OpenSpiel gets in Python,
  a generator seeded for each playout;
- `openspiel, one stream`: the same loop drawing every playout from one generator seeded once;
- `meeple native`: the same games on the native core (interpreter/native/), the same loop;
- `meeple native, inside`: the native core playing each whole playout inside itself, its own
  random agents answering (as `meeple simulate` plays): no Python per decision, but each seat
  drawing from a generator of its own (`Random(seed * 1000 + seat)`), so other random games of
  the same kind;
- `meeple native, one call, a seed per game`: the same playouts as the loops', all N in one call
  into the core (`native.playouts(game, N, draw="game")`): no Python per playout either, each
  game a copy of a start prepared once, every seat's answers drawn from one generator seeded for
  the game, as the loops draw them, so that it replays alone;
- `meeple native, one call, one stream`: the same call drawing every playout from one generator
  seeded once (`native.playouts(game, N, stream=True, draw="game")`), each game going on from
  where the one before left it, compared with `openspiel, one stream`;
- `openspiel+meeple`: the same OpenSpiel loop over meeple's game through `meeple.openspiel`.

The table gives playouts per CPU-second, each contender's ratio to OpenSpiel's loop drawing its
playouts alike (a generator per playout, or one stream: `vs openspiel` names which), moves per
playout, and `games`, the start of a digest (sha256) of the playouts' choices in order, each the
index of the option taken among those offered (recorded in one more round, not timed). `meeple`,
`meeple native` and `meeple native, one call, a seed per game` must play the same games: the
bench stops if their digests differ. Whether OpenSpiel's games are meeple's is said under each
game, not forced: its actions are in its own order, and it asks (and draws for) a decision of one
legal action, which meeple plays without asking (its digest leaves those out). A seed per game,
Tic-Tac-Toe and Hex are the same games (their cells' actions in meeple's order of the options,
row by row; a decision of one action comes only at the end of a game); Connect Four's are others
(its actions are the columns in order, meeple's options the landing cells in the board's order,
row by row from the top, so a column's place moves as the columns fill). One stream, none is the
same past the first game that ends on a decision of one action (OpenSpiel's draw for it moves its
stream on). The adapter's games are meeple's. Ludii's published single-thread figures are printed
beside them as a reference: published, not measured here.

Another engine of meeple becomes a contender with one line in `MEEPLE_ENGINES` (how it starts a
game). Needs OpenSpiel: `pip install 'meeple[openspiel]'`.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

TESTS = Path(__file__).resolve().parent.parent / "tests" / "games"
# game -> (meeple's rules file and options, OpenSpiel's game string)
GAMES: dict[str, tuple[Path, dict[str, str], str]] = {
    "tic_tac_toe": (TESTS / "tic_tac_toe.rules", {}, "tic_tac_toe"),
    "connect_four": (TESTS / "connect_four.rules", {}, "connect_four"),
    "hex": (TESTS / "hex.rules", {"size": "11"}, "hex(board_size=11)"),
}
# Ludii's published single-thread random playouts per second (not measured here).
LUDII = {"tic_tac_toe": 131_855, "connect_four": 28_279, "hex": 7_987}
# meeple's engines: contender name -> how it starts a game of two players (a loaded game, a seed),
# without the readable log, as `meeple simulate` plays. Another engine is one more entry: the
# native core's `new_game(game, 2, seed=seed, logging=False)`, say.
MEEPLE_ENGINES: dict[str, Callable[[Any, int], Any]] = {
    "meeple": lambda game, seed: game.new_game(2, seed=seed, logging=False),
    "meeple native": lambda game, seed: native_game(game, seed),
}
# The native core playing each whole playout inside itself (`play_out`, as `meeple simulate`
# plays): its random agents draw from Random(seed * 1000 + seat), as agents.py's do, so its
# games are other random games than the Python loop's, of the same kind.
INSIDE = "meeple native, inside"
# The same playouts, all of them in one call into the core (`native.playouts`): each game's
# generators seeded for it, or every game drawn from one stream (`stream=True`).
ONE_CALL = "meeple native, one call, a seed per game"
ONE_STREAM = "meeple native, one call, one stream"
OPENSPIEL = "openspiel"
OPENSPIEL_STREAM = "openspiel, one stream"
ADAPTER = "openspiel+meeple"
# The contender each one is compared with: OpenSpiel's loop drawing its playouts alike.
ALIKE = {ONE_STREAM: OPENSPIEL_STREAM, OPENSPIEL_STREAM: OPENSPIEL_STREAM}
# The contenders that must play the same games (the same choices, game after game): the bench
# stops if they do not.
SAME_GAMES = ("meeple", "meeple native", ONE_CALL)
# The contenders whose games are compared, and said to be the same or not, without stopping:
# OpenSpiel's (its actions' order and its draws are its own: the module's docstring says where
# they are meeple's) and the adapter's.
COMPARED = {OPENSPIEL: ONE_CALL, OPENSPIEL_STREAM: ONE_STREAM, ADAPTER: ONE_CALL}
INSTALL = "pip install 'meeple[openspiel]'"
ROUNDS = 3  # rounds of playouts per contender at least (`run_one`)


# What a round records of its games, where asked (`Record`): each playout's choices, in order.
Record = list[list[int]] | None


def digest(choices: list[list[int]]) -> str:
    """A digest of playouts' choices, in order: equal digests, the same games."""
    return hashlib.sha256(json.dumps(choices).encode()).hexdigest()


def meeple_playouts(
    game: str, start: Callable[[Any, int], Any], playouts: int, record: Record = None
) -> tuple[float, int]:
    """(CPU seconds, moves) for `playouts` random games on a meeple engine (`start` begins one),
    each game's choices appended to `record` if given."""
    import meeple

    rules, options, _ = GAMES[game]
    loaded = meeple.load(rules, options)
    start(loaded, 0)  # what is done once per program (the native core's lowering) is loading
    moves = 0
    begin = time.process_time()
    for seed in range(playouts):
        state = start(loaded, seed)
        rng = random.Random(seed)
        while not state.is_over:
            state.apply(rng.randrange(state.decision.size))
            moves += 1
        if record is not None:
            record.append(list(state.choices))
    return time.process_time() - begin, moves


def native_game(game: Any, seed: int) -> Any:
    """A game on the native core, without the readable log."""
    from meeple.interpreter import native

    return native.new_game(game, 2, seed=seed, logging=False)


def inside_playouts(game: str, playouts: int, record: Record = None) -> tuple[float, int]:
    """(CPU seconds, moves) for `playouts` random games each played whole inside the core, each
    game's choices appended to `record` if given."""
    import meeple

    rules, options, _ = GAMES[game]
    loaded = meeple.load(rules, options)
    native_game(loaded, 0)  # the lowering, once per program, is loading
    moves = 0
    begin = time.process_time()
    for seed in range(playouts):
        state = native_game(loaded, seed)
        state.play_out(["random"])
        moves += len(state.choices)
        if record is not None:
            record.append(state.choices)
    return time.process_time() - begin, moves


def one_call_playouts(game: str, playouts: int, stream: bool, record: Record = None) -> tuple[float, int]:
    """(CPU seconds, moves) for `playouts` random games played inside the core in one call, every
    seat's answers drawn from one generator (`draw="game"`), seeded for each game or (`stream`)
    once; each game's choices appended to `record` if given."""
    import meeple
    from meeple.interpreter import native

    rules, options, _ = GAMES[game]
    loaded = meeple.load(rules, options)
    native_game(loaded, 0)  # the lowering, once per program, is loading
    begin = time.process_time()
    played = native.playouts(loaded, playouts, players=2, stream=stream, draw="game")
    seconds = time.process_time() - begin
    if record is not None:
        record.extend(p.choices for p in played)
    return seconds, sum(len(p.choices) for p in played)


def openspiel_playouts(
    game: str, playouts: int, adapter: bool, stream: bool = False, record: Record = None
) -> tuple[float, int]:
    """(CPU seconds, moves) for `playouts` random games in OpenSpiel's Python loop, over its own
    C++ game or (`adapter`) over meeple's game, a generator seeded for each playout or (`stream`)
    one seeded once; each game's choices (`openspiel_choices`) appended to `record` if given."""
    import pyspiel

    rules, options, name = GAMES[game]
    if adapter:
        from meeple.openspiel import load_game

        loaded = load_game(rules, players=2, options=options)
    else:
        loaded = pyspiel.load_game(name)
    moves = 0
    start = time.process_time()
    rng = random.Random(0)
    for seed in range(playouts):
        state = loaded.new_initial_state()
        if not stream:
            rng = random.Random(seed)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            moves += 1
        if record is not None:
            record.append(openspiel_choices(loaded, state.history()))
    return time.process_time() - start, moves


def openspiel_choices(loaded: Any, history: list[int]) -> list[int]:
    """An OpenSpiel game's actions as meeple records its choices: each the index of the action
    among the legal ones (the index `rng.choice` drew), of the decisions of more than one
    (meeple plays a decision of one option without asking it, so without a draw)."""
    state = loaded.new_initial_state()
    out = []
    for action in history:
        legal = state.legal_actions()
        if len(legal) > 1:
            out.append(legal.index(action))
        state.apply_action(action)
    return out


def one_round(contender: str, game: str, playouts: int, record: Record = None) -> tuple[float, int]:
    """(CPU seconds, moves) of one round of `playouts` playouts by one contender, each game's
    choices appended to `record` if given."""
    if contender in MEEPLE_ENGINES:
        return meeple_playouts(game, MEEPLE_ENGINES[contender], playouts, record)
    if contender == INSIDE:
        return inside_playouts(game, playouts, record)
    if contender in (ONE_CALL, ONE_STREAM):
        return one_call_playouts(game, playouts, contender == ONE_STREAM, record)
    return openspiel_playouts(game, playouts, contender == ADAPTER, contender == OPENSPIEL_STREAM, record)


def run_one(contender: str, game: str, playouts: int, least: float) -> None:
    """One contender on one game, in this process, in rounds (at least `ROUNDS`, and until they
    add up to `least` CPU seconds): prints the median round's figures as JSON, with the digest
    of the games' choices (`digest`), recorded in one more round, not timed. Every round plays
    the same seeds, so the same games."""
    rounds = [one_round(contender, game, playouts)]
    while len(rounds) < ROUNDS or sum(seconds for seconds, _ in rounds) < least:
        rounds.append(one_round(contender, game, playouts))
        if rounds[-1][1] != rounds[0][1]:
            raise SystemExit(f"{contender}: a round played other games than the first")
    seconds = statistics.median(seconds for seconds, _ in rounds)
    record: list[list[int]] = []
    if one_round(contender, game, playouts, record)[1] != rounds[0][1]:
        raise SystemExit(f"{contender}: the round recorded played other games than the first")
    figures = {"seconds": seconds, "moves": rounds[0][1], "rounds": len(rounds), "games": digest(record)}
    print(json.dumps(figures))


def measure(contender: str, game: str, playouts: int, least: float) -> dict[str, float]:
    """One contender on one game, in a process of its own."""
    out = subprocess.run(
        [
            *(sys.executable, __file__, "--one", contender, "--game", game),
            *("--playouts", str(playouts), "--least", str(least)),
        ],
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(out.stdout.splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--playouts", type=int, default=200, help="random playouts per contender and game")
    parser.add_argument("--game", choices=list(GAMES), help="one game (default: all three)")
    parser.add_argument(
        "--least", type=float, default=1.0, help="CPU seconds of rounds per contender, at least"
    )
    parser.add_argument("--one", help=argparse.SUPPRESS)  # a contender, in the process measure() starts
    args = parser.parse_args()
    if importlib.util.find_spec("pyspiel") is None:
        print(f"error: this comparison needs OpenSpiel: {INSTALL}", file=sys.stderr)
        raise SystemExit(2)
    games = [args.game] if args.game else list(GAMES)
    if args.one:
        run_one(args.one, games[0], args.playouts, args.least)
        return
    # OpenSpiel first: the others' ratios are to it.
    contenders = [OPENSPIEL, OPENSPIEL_STREAM, *MEEPLE_ENGINES, INSIDE, ONE_CALL, ONE_STREAM, ADAPTER]
    print(
        f"{args.playouts} random playouts per contender and game, each in its own process, CPU time "
        f"(the median of {ROUNDS} rounds or more, {args.least:g} s at least)"
    )
    print(
        f"{'game':<14} {'contender':<40} {'playouts/s':>11} {'vs openspiel':>13} {'moves/playout':>14}"
        f" {'games':>12}"
    )
    for game in games:
        rates: dict[str, float] = {}
        digests: dict[str, str] = {}
        for contender in contenders:
            figures = measure(contender, game, args.playouts, args.least)
            rates[contender] = args.playouts / figures["seconds"]
            digests[contender] = figures["games"]
            alike = ALIKE.get(contender, OPENSPIEL)
            print(
                f"{game:<14} {contender:<40} {rates[contender]:>11,.0f} "
                f"{rates[contender] / rates[alike]:>13.4f} {figures['moves'] / args.playouts:>14.1f}"
                f" {figures['games'][:12]:>12}  (vs {alike})",
                flush=True,
            )
        check_games(game, digests)
        ludii = LUDII[game]
        reference = f"{ludii:>11,} {ludii / rates[OPENSPIEL_STREAM]:>13.4f}"
        ludii_name = "Ludii (published, one stream)"
        print(f"{game:<14} {ludii_name:<40} {reference}  not measured (vs {OPENSPIEL_STREAM})")


def check_games(game: str, digests: dict[str, str]) -> None:
    """Stop if the contenders that must play the same games (`SAME_GAMES`) did not; say whether
    OpenSpiel's and the adapter's games are meeple's (`COMPARED`)."""
    if len({digests[contender] for contender in SAME_GAMES}) > 1:
        played = ", ".join(f"{contender}: {digests[contender][:12]}" for contender in SAME_GAMES)
        raise SystemExit(f"error: {game}: these contenders must play the same games and did not ({played})")
    print(f"{game:<14} the same games, checked: {', '.join(SAME_GAMES)}")
    for contender, meeples in COMPARED.items():
        same = "the same games as" if digests[contender] == digests[meeples] else "other games than"
        print(f"{game:<14} {contender}: {same} {meeples}")


if __name__ == "__main__":
    main()
