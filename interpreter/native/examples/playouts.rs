//! Random playouts of a lowered program inside the core, with no Python: what the machine
//! alone costs, for profiling it (`perf record`) and for comparing its revisions.
//!
//!     cargo run --release --no-default-features --example playouts -- PROGRAM.json PLAYERS GAMES [built]
//!
//! PROGRAM.json is a lowered program, as the Python side writes it for the core:
//!
//!     python -c "import meeple; from meeple.interpreter import native; \
//!       print(native.lowered(meeple.load('tests/games/hex.rules'))[0].ir)" > hex.json
//!
//! Each game plays seed 0, 1, ... with random agents, as `NativeState.play_out(["random"])`
//! does, from a copy of a start prepared once, as `native.playouts` plays them (playouts.rs);
//! with `built`, each game built from nothing, as `native.new_game` builds it: the two in one
//! binary, to compare them. The time printed is wall time (run it under `time` for CPU time).

use _core::ir::Program;
use _core::playouts::{play, Prepared};
use _core::rng::Mt;
use _core::teams::Teams;
use _core::vm::{Agent, Game, Loaded};
use std::sync::Arc;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (path, players, games, built) = match args.as_slice() {
        [_, path, players, games] => (path, players, games, false),
        [_, path, players, games, how] if how == "built" => (path, players, games, true),
        _ => {
            eprintln!("usage: playouts PROGRAM.json PLAYERS GAMES [built]");
            std::process::exit(2);
        }
    };
    let text = std::fs::read_to_string(path).expect("the program file reads");
    let ir: Program = serde_json::from_str(&text).expect("the program loads");
    let program = Arc::new(Loaded::new(ir));
    let players: u32 = players.parse().expect("players is a number");
    let games: i128 = games.parse().expect("games is a number");
    let began = Instant::now();
    let moves = all_games(&program, players, games, built);
    let seconds = began.elapsed().as_secs_f64();
    println!(
        "{games} games in {seconds:.3} s: {:.0} games/s, {:.1} choices a game",
        games as f64 / seconds,
        moves as f64 / games as f64
    );
}

/// Every game, from its start to its end (what callgrind counts: `--toggle-collect='*all_games*'`):
/// how many choices they made.
#[inline(never)]
fn all_games(program: &Arc<Loaded>, players: u32, games: i128, built: bool) -> usize {
    let mut moves = 0;
    let mut prepared =
        Prepared::new(program.clone(), players, Teams::alone(players), 10_000_000, false, None);
    for seed in 0..games {
        let game = if built {
            Game::new(program.clone(), players, seed, 10_000_000, false)
        } else {
            prepared.game(seed)
        };
        let mut agents: Vec<Agent> =
            (0..players).map(|seat| Agent::Random(Mt::new(seed * 1000 + i128::from(seat)))).collect();
        moves += play(game, &mut agents).expect("the game plays").choices.len();
    }
    moves
}
