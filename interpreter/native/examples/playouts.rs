//! Random playouts of a lowered program inside the core, with no Python: what the machine
//! alone costs, for profiling it (`perf record`) and for comparing its revisions.
//!
//!     cargo run --release --no-default-features --example playouts -- PROGRAM.json PLAYERS GAMES [built|stream] [game]
//!
//! PROGRAM.json is a lowered program, as the Python side writes it for the core:
//!
//!     python -c "import meeple; from meeple.interpreter import native; \
//!       print(native.lowered(meeple.load('tests/games/hex.rules'))[0].ir)" > hex.json
//!
//! Each game plays seed 0, 1, ... with random agents, as `NativeState.play_out(["random"])`
//! does, from a copy of a start prepared once laid over the game before, as `native.playouts`
//! plays them (playouts.rs's `of_seeds`);
//! with `built`, each game built from nothing, as `native.new_game` builds it: the two in one
//! binary, to compare them; with `stream`, the games drawn from one stream from seed 0, as
//! `native.playouts(..., stream=True)` plays them (playouts.rs's `Stream`). With `game` last,
//! every seat's answers drawn from one generator, the game's seed's (or the stream's), as
//! `native.playouts(..., draw="game")` draws them, rather than from a generator a seat. The
//! time printed is wall time (run it under `time` for CPU time).

use _core::ir::Program;
use _core::playouts::{of_seeds, play, Answering, Prepared, Stream};
use _core::rng::Mt;
use _core::teams::Teams;
use _core::vm::{Game, Loaded};
use std::sync::Arc;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let usage = || -> ! {
        eprintln!("usage: playouts PROGRAM.json PLAYERS GAMES [built|stream] [game]");
        std::process::exit(2);
    };
    let [_, path, players, games, rest @ ..] = args.as_slice() else { usage() };
    let (how, rest) = match rest {
        [how, rest @ ..] if how == "built" => (How::Built, rest),
        [how, rest @ ..] if how == "stream" => (How::Stream, rest),
        _ => (How::Copied, rest),
    };
    let one_generator = match rest {
        [] => false,
        [draw] if draw == "game" => true,
        _ => usage(),
    };
    let text = std::fs::read_to_string(path).expect("the program file reads");
    let ir: Program = serde_json::from_str(&text).expect("the program loads");
    let program = Arc::new(Loaded::new(ir));
    let players: u32 = players.parse().expect("players is a number");
    let games: i128 = games.parse().expect("games is a number");
    let began = Instant::now();
    let moves = all_games(&program, players, games, how, one_generator);
    let seconds = began.elapsed().as_secs_f64();
    println!(
        "{games} games in {seconds:.3} s: {:.0} games/s, {:.1} choices a game",
        games as f64 / seconds,
        moves as f64 / games as f64
    );
}

/// How each game starts: a copy of the prepared start with its seed's generators, built from
/// nothing, or a copy going on from the generators of the game before it.
#[derive(PartialEq)]
enum How {
    Copied,
    Built,
    Stream,
}

/// Every game, from its start to its end (what callgrind counts: `--toggle-collect='*all_games*'`),
/// answered by a generator a seat or by one for them all: how many choices they made.
#[inline(never)]
fn all_games(program: &Arc<Loaded>, players: u32, games: i128, how: How, one_generator: bool) -> usize {
    let mut moves = 0;
    let mut prepared =
        Prepared::new(program.clone(), players, Teams::alone(players), 10_000_000, false, None);
    let seats = |seed: i128| {
        if one_generator {
            Answering::OneGenerator(Mt::new(seed))
        } else {
            Answering::random_seats(seed, players)
        }
    };
    if how == How::Stream {
        let mut stream = Stream::new(0, seats(0));
        for _ in 0..games {
            moves += stream.next(&mut prepared).expect("the game plays").choices.len();
        }
        return moves;
    }
    if how == How::Copied {
        let games = u32::try_from(games).expect("games fit in 32 bits");
        let played = of_seeds(&mut prepared, 0, games, |seed| Ok(seats(seed))).expect("the games play");
        return played.iter().map(|p| p.choices.len()).sum();
    }
    for seed in 0..games {
        let built = Game::new(program.clone(), players, seed, 10_000_000, false);
        moves += play(built, &mut seats(seed)).expect("the game plays").choices.len();
    }
    moves
}
