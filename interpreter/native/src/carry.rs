//! Carried state on the core (interpreter/carry.py): a game started from a save, and what a
//! save reads of a game at its end.
//!
//! A save is checked on the Python side, by the Python engine's own `carry.check` (so a save the
//! core plays from is refused, or taken, exactly as the Python engine refuses or takes it, in its
//! words), against a start of the game with nothing laid and no piece moved, and crosses here as
//! a `Start`, in the core's indexes: the carried variables' values, the carried grids' layers in
//! the order the save gives them (so the cells they make are numbered as the Python engine
//! numbers them), and the pieces each carried place gets. The core lays it over its own start
//! before setup runs, as `carry.give` lays it over the Python engine's: the variables, the layers,
//! then the pieces, each taken from where it began (`place`). Laying a save here, not on a Python
//! start handed over whole, took a tenth of a Campaign's time (docs/benchmarks.md).
//!
//! What a save reads at a game's end (`carry.take`) is read through `cells` and `layer`: a grid's
//! cells with the layers each one holds, and a layer's cells, rows and turns.

use crate::placement::put;
use crate::value::{Piece, Value};
use crate::vm::{Fail, Loaded, Part, World};
use serde::Deserialize;
use std::collections::{HashMap, HashSet};

/// A shape a carried grid gets before any piece is placed: where, showing which rows, with which
/// turn. It is laid over the cells there when all its cells are there (carry.py's `_lay`).
#[derive(Deserialize, Debug)]
pub struct Laid {
    pub grid: u32,
    pub coords: Vec<(i64, i64)>,
    pub rows: Vec<u32>,
    pub turns: u32,
}

/// Pieces as a save gives them: their kind, their owner's seat, and how many.
type Run = (u32, Option<u32>, u64);

/// A carried place: one of the program's locations, or a cell of a carried grid by (grid, q, r),
/// found once the layers are laid.
#[derive(Deserialize, Debug)]
pub enum Target {
    Loc(u32),
    Cell(u32, i64, i64),
}

/// The start of a game that a save made: what differs from the core's own start.
#[derive(Deserialize, Debug, Default)]
pub struct Start {
    /// Variables of their own: (variable, value).
    #[serde(default)]
    pub vars: Vec<(u32, Value)>,
    /// Variables per owner: (store, place in it, value), as `World::owned` holds them.
    #[serde(default)]
    pub owned: Vec<(u32, u32, Value)>,
    /// The carried grids' layers, in the order they are laid.
    #[serde(default)]
    pub layers: Vec<Laid>,
    /// The program's locations in the order of the Python engine's places: where a piece began is
    /// the first that held it, and pieces are taken from the places not carried in this order.
    #[serde(default)]
    pub order: Vec<u32>,
    /// The carried grids: each of their cells is a carried place.
    #[serde(default)]
    pub grids: Vec<u32>,
    /// The carried places, each with the pieces it holds, bottom first.
    #[serde(default)]
    pub places: Vec<(Target, Vec<Run>)>,
}

fn wrong<T>(what: String) -> Result<T, Fail> {
    Err(Fail {
        kind: crate::vm::FailKind::Error(format!("a start the core cannot lay out: {what}")),
        at: None,
    })
}

/// Lay `start` over the game's own start. The Python side made it from a save it checked, so
/// an index out of range is the lowering's mistake: said as an error, never a crash.
pub fn give(p: &Loaded, w: &mut World, start: &Start) -> Result<(), Fail> {
    for (var, value) in &start.vars {
        match w.vars.get_mut(*var as usize) {
            Some(slot) => *slot = value.clone(),
            None => return wrong(format!("no variable {var}")),
        }
    }
    for (store, at, value) in &start.owned {
        match w.owned.get_mut(*store as usize).and_then(|s| s.get_mut(*at as usize)) {
            Some(slot) => *slot = value.clone(),
            None => return wrong(format!("no variable {store} of owner {at}")),
        }
    }
    for laid in &start.layers {
        if p.ir.grids.get(laid.grid as usize).is_none() {
            return wrong(format!("no grid {}", laid.grid));
        }
        let over = laid.coords.iter().all(|(q, r)| w.grown.get(laid.grid, *q, *r).is_some());
        put(p, w, laid.grid, laid.coords.clone(), laid.rows.clone(), laid.turns, over)?;
    }
    place(p, w, start)
}

/// Put each carried place's pieces there, taken first from the carried places (what they held
/// is lifted), then from the others, in their order, each from the top; what a carried place held
/// and the save does not give it goes back where pieces of its kind and owner began (carry.py's
/// `_place`, whose checks the save passed).
fn place(p: &Loaded, w: &mut World, start: &Start) -> Result<(), Fail> {
    let mut targets = Vec::with_capacity(start.places.len());
    for (target, runs) in &start.places {
        let loc = match *target {
            Target::Loc(loc) if (loc as usize) < p.ir.locations.len() => loc,
            Target::Cell(g, q, r) => match w.grown.get(g, q, r) {
                Some(cell) => cell,
                None => return wrong(format!("no cell ({q},{r})")),
            },
            Target::Loc(loc) => return wrong(format!("no location {loc}")),
        };
        targets.push((loc, runs));
    }
    let mut carried: HashSet<u32> = targets.iter().map(|(loc, _)| *loc).collect();
    for g in &start.grids {
        carried.extend(w.grown.grid_cells(*g).map(|(loc, ..)| loc));
    }
    // Every place, in the Python engine's order: the program's own, then the cells laid.
    if let Some(bad) = start.order.iter().find(|loc| **loc as usize >= p.ir.locations.len()) {
        return wrong(format!("no location {bad}"));
    }
    let places: Vec<u32> =
        start.order.iter().copied().chain(p.ir.locations.len() as u32..w.locs.len() as u32).collect();
    let mut home: HashMap<Piece, u32> = HashMap::new();
    for &loc in &places {
        for piece in &w.locs[loc as usize] {
            home.entry(*piece).or_insert(loc);
        }
    }
    // Lifted from the carried places, each piece in the order first met (that is the order they
    // go back in).
    let mut loose = Loose::default();
    for &loc in &places {
        if carried.contains(&loc) {
            for piece in std::mem::take(&mut w.locs[loc as usize]) {
                *loose.of(piece) += 1;
            }
        }
    }
    let others: Vec<u32> = places.iter().copied().filter(|loc| !carried.contains(loc)).collect();
    for (loc, runs) in targets {
        for &(kind, owner, count) in runs {
            let piece = Piece { kind, owner };
            let lifted = loose.of(piece);
            let took = count.min(*lifted);
            *lifted -= took;
            let mut need = count - took;
            for &other in &others {
                if need == 0 {
                    break;
                }
                let held = &mut w.locs[other as usize];
                let mut k = held.len();
                while need > 0 && k > 0 {
                    k -= 1;
                    if held[k] == piece {
                        held.remove(k);
                        need -= 1;
                    }
                }
            }
            if need > 0 {
                return wrong(format!("{need} pieces of kind {kind} missing"));
            }
            w.locs[loc as usize].extend(std::iter::repeat_n(piece, count as usize));
        }
    }
    for (piece, left) in loose.counts {
        if left > 0 {
            let Some(back) = home.get(&piece) else {
                return wrong(format!("no place for kind {}", piece.kind));
            };
            w.locs[*back as usize].extend(std::iter::repeat_n(piece, left as usize));
        }
    }
    for loc in places {
        w.changed(Part::Loc(loc));
    }
    Ok(())
}

/// Pieces lifted from the carried places, and how many of each, in the order first met.
#[derive(Default)]
struct Loose {
    counts: Vec<(Piece, u64)>,
    at: HashMap<Piece, usize>,
}

impl Loose {
    fn of(&mut self, piece: Piece) -> &mut u64 {
        let counts = &mut self.counts;
        let i = *self.at.entry(piece).or_insert_with(|| {
            counts.push((piece, 0));
            counts.len() - 1
        });
        &mut self.counts[i].1
    }
}

/// A grid's cells, in the order they were laid: each one's location, (q, r), and the layers it
/// holds, bottom first (each layer by its place among every layer laid).
pub fn cells(w: &World, g: u32) -> Vec<(u32, i64, i64, Vec<u32>)> {
    w.grown.grid_cells(g).map(|(loc, q, r, _)| (loc, q, r, w.grown.stack(loc))).collect()
}

/// A layer as a save reads it: its cells, the row each shows, its turn.
pub type LaidAgain = (Vec<(i64, i64)>, Vec<u32>, u32);

/// A layer laid, by its place among every layer laid: its cells, the row each shows, and its
/// turn; None for a layer never laid.
pub fn layer(w: &World, id: u32) -> Option<LaidAgain> {
    let spot = w.grown.layers.get(id as usize)?;
    Some((spot.coords().collect(), spot.rows.to_vec(), spot.turns))
}

#[cfg(test)]
mod tests {
    use super::{give, Start, Target};
    use crate::ir::Program;
    use crate::value::Piece;
    use crate::vm::{Game, Loaded};
    use std::sync::Arc;

    #[test]
    fn pieces_come_from_the_places_not_carried_in_order_from_the_top_and_go_back_where_they_began() {
        let ir: Program = crate::vm::tiny_program();
        let program = Arc::new(Loaded::new(ir));
        let (a, b) = (Piece { kind: 0, owner: Some(0) }, Piece { kind: 0, owner: Some(1) });
        let laid = |order: Vec<u32>| {
            let mut game = Game::new(program.clone(), 2, 0, 1_000_000, false);
            game.world.locs = vec![vec![a], vec![a], vec![], vec![b, a, b]];
            // Location 1 is carried, and the save gives it one piece of the second player's.
            let start =
                Start { order, places: vec![(Target::Loc(1), vec![(0, Some(1), 1)])], ..Start::default() };
            give(&program, &mut game.world, &start).expect("the start is laid");
            game.world.locs
        };
        // What location 1 held goes back where its like began (the first place holding one, in
        // the Python engine's order); what it gets is taken from the top of the first place
        // not carried that has it.
        assert_eq!(laid(vec![0, 1, 2, 3]), vec![vec![a, a], vec![b], vec![], vec![b, a]]);
        assert_eq!(laid(vec![3, 2, 1, 0]), vec![vec![a], vec![b], vec![], vec![b, a, a]]);
    }
}
