//! A player that searches: Monte Carlo tree search (UCT) over copies of a game, each playout
//! finished by uniformly random answers or by a style of the rules (`Rollout`), for so many
//! playouts or for so long (`Budget`). Seeded: a search of so many playouts answers the same
//! for the same seed; a search for so long, the same for the same playouts reached, which the
//! machine's speed decides.
//!
//! A copy of a game carries its generator and every piece where it lies, face down or not: a
//! search of the copy itself would read the dice the game will roll and the order of a shuffled
//! deck. So each playout starts from a guess (`guess`): the position as the searching seat
//! knows it, with chance drawn afresh and the pieces it cannot see dealt again among the places
//! it cannot see into (determinisation, as in Cowling, Powley and Whitehouse's
//! information-set MCTS; the statistics of all guesses share one tree).

use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};

use crate::ir::Unseen;
use crate::rng::Mt;
use crate::value::{Piece, Value};
use crate::vm::{Game, Part};

/// How long a search looks before it answers.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Budget {
    /// So many playouts: the same answer for the same seed.
    Playouts(u32),
    /// Playouts until so much time has passed since the search began (one at least): the
    /// answer depends on how many the machine made in that time.
    Time(Duration),
}

/// How a playout finishes the game below the tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rollout {
    /// Every seat answers uniformly at random.
    Random,
    /// Every seat plays a style of the rules (its index among the lowered styles), as a player
    /// of that style does (styles.rs, `Game::style_answer`): what it prefers made likelier, the
    /// rest at random. A playout that plays as players would play values positions as they would.
    Style(u32),
}

/// A search's settings: its budget and its playouts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Search {
    pub budget: Budget,
    pub rollout: Rollout,
}

impl Search {
    /// So many playouts, finished at random.
    pub fn playouts(n: u32) -> Search {
        Search { budget: Budget::Playouts(n), rollout: Rollout::Random }
    }
}

/// One answer explored: where it leads, how often it was tried and what it earned the seat
/// that chose it.
struct Node {
    parent: Option<usize>,
    /// The option chosen at the parent to get here.
    option: usize,
    /// The seat that chose it (whose reward this node sums).
    seat: Option<u32>,
    children: Vec<usize>,
    untried: Vec<usize>,
    visits: f64,
    reward: f64,
}

/// Each seat's share of a finished game: the winners (every member of a winning team,
/// teams.rs) share 1 (a game that failed gives nobody anything).
fn rewards(game: &mut Game) -> Vec<f64> {
    let players = game.world.players as usize;
    let (Ok(scores), Ok(ties)) = (game.scores(false), game.scores(true)) else {
        return vec![0.0; players];
    };
    let keys: Vec<(i64, i64)> = scores.into_iter().zip(ties).collect();
    let winners = game.world.teams.winners(&keys);
    let share = 1.0 / winners.len().max(1) as f64;
    let mut out = vec![0.0; players];
    for seat in winners {
        out[seat as usize] = share;
    }
    out
}

/// Places (location, index) holding unseen pieces of one declaration and owner.
type Spots = HashMap<(u32, Option<u32>), Vec<(usize, usize)>>;

/// A position the seat could be in, as far as it can tell: a new generator for the chance to
/// come, and the pieces it may not see (`Unseen`) shuffled among the places that hide them,
/// each place keeping its count and a piece trading places only with pieces of its own
/// declaration and owner (a hidden card for a hidden card, never for a tile). A place a
/// pending option or a rule under way names a piece of is left as it is, so what they name is
/// still there, and so are the pieces `reveal` showed the seat and it still knows (as many of
/// each as it saw there). What a seat saw otherwise and remembers (a card it passed on) is not
/// known to the core: the guess is as a player with no memory of such looks would make it.
fn guess(root: &Game, seat: u32, rng: &mut Mt) -> Game {
    let mut game = root.clone();
    game.world.rng = Mt::new((i128::from(rng.next_u32()) << 32) | i128::from(rng.next_u32()));
    let mut named: HashSet<u32> = HashSet::new();
    let held = root.frames.iter().flat_map(|f| f.slots.iter());
    let options = root.pending.iter().flat_map(|p| p.options.iter());
    for value in held.cloned().chain(options) {
        if let Value::Piece(loc, _) = value {
            named.insert(loc);
        }
    }
    let locations = &root.program.ir.locations;
    let kinds = &root.program.ir.kinds;
    // Every unseen position (place, index), grouped by the piece's declaration and owner.
    let mut groups = Spots::new();
    for (loc, pieces) in game.world.locs.iter().enumerate() {
        let Some(place) = locations.get(loc) else { continue };
        let hidden = match place.unseen {
            Unseen::Nothing => 0,
            Unseen::All => pieces.len(),
            Unseen::ButOwner if place.owner == Value::Player(seat) => 0,
            Unseen::ButOwner => pieces.len(),
            Unseen::UnderTop => pieces.len().saturating_sub(1),
        };
        if hidden == 0 || named.contains(&(loc as u32)) {
            continue;
        }
        // What `reveal` showed the seat here and it still knows stays where it is (reveal.rs).
        let mut known: Vec<(Piece, u32)> = root.world.seen.of(loc as u32, seat).to_vec();
        for (index, piece) in pieces.iter().enumerate().take(hidden) {
            if let Some((_, left)) = known.iter_mut().find(|(p, n)| p == piece && *n > 0) {
                *left -= 1;
                continue;
            }
            let decl = kinds.get(piece.kind as usize).map_or(piece.kind, |k| k.decl);
            groups.entry((decl, piece.owner)).or_default().push((loc, index));
        }
    }
    let mut touched: HashSet<usize> = HashSet::new();
    let mut keys: Vec<_> = groups.keys().copied().collect();
    keys.sort_unstable(); // the same guess for the same seed, whatever the map's order
    for key in keys {
        let spots = &groups[&key];
        let mut pieces: Vec<_> = spots.iter().map(|&(loc, i)| game.world.locs[loc][i]).collect();
        rng.shuffle(&mut pieces);
        for (&(loc, i), piece) in spots.iter().zip(pieces) {
            game.world.locs[loc][i] = piece;
            touched.insert(loc);
        }
    }
    for loc in touched {
        game.world.changed(Part::Loc(loc as u32));
    }
    game
}

fn options(game: &Game) -> Vec<usize> {
    game.pending.as_ref().map_or_else(Vec::new, |p| (0..p.size()).collect())
}

/// An answer to the pending decision as the rollout plays it: the style's weights drawn from
/// (as agents.py's StyleAgent draws), or uniformly where it prefers nothing.
fn rollout_answer(game: &mut Game, rollout: Rollout, size: usize, rng: &mut Mt) -> usize {
    if let Rollout::Style(style) = rollout {
        // A style whose condition breaks here prefers nothing here: the playout goes on at random.
        if let Ok(answer) = game.style_answer(style, rng) {
            return answer;
        }
    }
    rng.randbelow(size as u64) as usize
}

/// The option the search prefers for the game's pending decision (the most visited); None
/// when nothing is pending. A time budget is measured from now on the machine's clock.
pub fn choose(root: &Game, search: &Search, rng: &mut Mt) -> Option<usize> {
    let began = Instant::now();
    choose_timed(root, search, rng, &mut || began.elapsed())
}

/// `choose`, with the time since the search began read from `clock` (once after each playout,
/// and only for a time budget): a test gives it a clock of its own.
pub fn choose_timed(
    root: &Game,
    search: &Search,
    rng: &mut Mt,
    clock: &mut dyn FnMut() -> Duration,
) -> Option<usize> {
    let seat = root.pending.as_ref()?.seat;
    let mut nodes = vec![Node {
        parent: None,
        option: 0,
        seat: None,
        children: Vec::new(),
        untried: options(root),
        visits: 0.0,
        reward: 0.0,
    }];
    if nodes[0].untried.len() == 1 {
        return Some(0);
    }
    let mut done: u32 = 0;
    loop {
        match search.budget {
            Budget::Playouts(n) if done >= n => break,
            Budget::Time(limit) if done > 0 && clock() >= limit => break,
            _ => done = done.saturating_add(1),
        }
        let mut game = guess(root, seat, rng);
        let mut at = 0;
        // Down the tree by UCT while every option of a node has been tried.
        while nodes[at].untried.is_empty() && !nodes[at].children.is_empty() {
            let parent_visits = nodes[at].visits.max(1.0).ln();
            let pick = nodes[at].children.iter().copied().max_by(|a, b| {
                let score = |n: &Node| n.reward / n.visits + (2.0 * parent_visits / n.visits).sqrt();
                score(&nodes[*a]).total_cmp(&score(&nodes[*b]))
            });
            let Some(next) = pick else { break };
            if game.apply(nodes[next].option).is_err() {
                break;
            }
            at = next;
        }
        // One new option tried.
        if !nodes[at].untried.is_empty() {
            let i = rng.randbelow(nodes[at].untried.len() as u64) as usize;
            let option = nodes[at].untried.swap_remove(i);
            let chooser = game.pending.as_ref().map(|p| p.seat);
            if game.apply(option).is_ok() {
                let child = nodes.len();
                nodes.push(Node {
                    parent: Some(at),
                    option,
                    seat: chooser,
                    children: Vec::new(),
                    untried: options(&game),
                    visits: 0.0,
                    reward: 0.0,
                });
                nodes[at].children.push(child);
                at = child;
            }
        }
        // The rest of the game, as the rollout plays it.
        while let Some(pending) = &game.pending {
            let size = pending.size();
            let answer = rollout_answer(&mut game, search.rollout, size, rng);
            if game.apply(answer).is_err() {
                break;
            }
        }
        let shares = rewards(&mut game);
        let mut node = Some(at);
        while let Some(n) = node {
            nodes[n].visits += 1.0;
            if let Some(s) = nodes[n].seat {
                nodes[n].reward += shares.get(s as usize).copied().unwrap_or(0.0);
            }
            node = nodes[n].parent;
        }
    }
    let best = nodes[0].children.iter().copied().max_by(|a, b| nodes[*a].visits.total_cmp(&nodes[*b].visits));
    best.map(|n| nodes[n].option)
}

#[cfg(test)]
mod tests {
    use super::{choose, choose_timed, Budget, Search};
    use crate::ir::Program;
    use crate::rng::Mt;
    use crate::vm::{Game, Loaded};
    use std::sync::Arc;
    use std::time::Duration;

    fn tiny() -> Game {
        let ir: Program = crate::vm::tiny_program();
        Game::new(Arc::new(Loaded::new(ir)), 2, 0, 100_000, false)
    }

    #[test]
    fn a_search_answers_with_an_option_and_the_same_one_for_the_same_seed() {
        let game = tiny();
        let first = choose(&game, &Search::playouts(200), &mut Mt::new(3));
        assert!(first.is_some_and(|i| i < 3));
        assert_eq!(choose(&game, &Search::playouts(200), &mut Mt::new(3)), first);
        // The game searched is a copy: the original still waits for its answer.
        assert_eq!(game.pending.as_ref().map(|p| p.size()), Some(3));
    }

    #[test]
    fn nothing_to_search_when_nothing_is_asked() {
        let mut game = tiny();
        game.play_out(&mut [crate::vm::Agent::First, crate::vm::Agent::First]).expect("plays");
        assert_eq!(choose(&game, &Search::playouts(10), &mut Mt::new(0)), None);
    }

    /// A clock that says a millisecond more each time it is read, and counts its readings.
    fn ticking(reads: &mut u32) -> impl FnMut() -> Duration + '_ {
        move || {
            *reads += 1;
            Duration::from_millis(u64::from(*reads))
        }
    }

    #[test]
    fn a_time_budget_stops_when_its_time_is_up_and_answers_as_that_many_playouts_would() {
        let game = tiny();
        let search = Search { budget: Budget::Time(Duration::from_millis(40)), ..Search::playouts(0) };
        let mut reads = 0;
        let timed = choose_timed(&game, &search, &mut Mt::new(3), &mut ticking(&mut reads));
        // Read once after each playout but the first: 40 playouts reach the 40th millisecond.
        assert_eq!(reads, 40);
        assert_eq!(timed, choose(&game, &Search::playouts(40), &mut Mt::new(3)));
    }

    #[test]
    fn a_time_budget_already_spent_still_makes_one_playout() {
        let game = tiny();
        let search = Search { budget: Budget::Time(Duration::ZERO), ..Search::playouts(0) };
        let mut reads = 0;
        let answer = choose_timed(&game, &search, &mut Mt::new(1), &mut ticking(&mut reads));
        assert_eq!(reads, 1);
        assert!(answer.is_some_and(|i| i < 3));
    }
}
