//! Random playouts of a lowered program inside the core, with no Python: what the machine
//! alone costs, for profiling it (`perf record`) and for comparing its revisions.
//!
//!     cargo run --release --no-default-features --example playouts -- PROGRAM.json PLAYERS GAMES
//!
//! PROGRAM.json is a lowered program, as the Python side writes it for the core:
//!
//!     python -c "import meeple; from meeple.interpreter import native; \
//!       print(native.lowered(meeple.load('tests/games/hex.rules'))[0].ir)" > hex.json
//!
//! Each game plays seed 0, 1, ... with random agents, as `NativeState.play_out(["random"])`
//! does; the time printed is wall time (run it under `time` for CPU time).

use _core::ir::Program;
use _core::rng::Mt;
use _core::vm::{Agent, Game, Loaded};
use std::sync::Arc;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, path, players, games] = args.as_slice() else {
        eprintln!("usage: playouts PROGRAM.json PLAYERS GAMES");
        std::process::exit(2);
    };
    let text = std::fs::read_to_string(path).expect("the program file reads");
    let ir: Program = serde_json::from_str(&text).expect("the program loads");
    let program = Arc::new(Loaded::new(ir));
    let players: u32 = players.parse().expect("players is a number");
    let games: i128 = games.parse().expect("games is a number");
    let began = Instant::now();
    let mut moves = 0;
    for seed in 0..games {
        let mut game = Game::new(program.clone(), players, seed, 10_000_000, false);
        let mut agents: Vec<Agent> =
            (0..players).map(|seat| Agent::Random(Mt::new(seed * 1000 + i128::from(seat)))).collect();
        game.play_out(&mut agents).expect("the game plays");
        moves += game.choices.len();
    }
    let seconds = began.elapsed().as_secs_f64();
    println!(
        "{games} games in {seconds:.3} s: {:.0} games/s, {:.1} choices a game",
        games as f64 / seconds,
        moves as f64 / games as f64
    );
}
