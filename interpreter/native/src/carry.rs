//! Carried state on the core (interpreter/carry.py): a game started from a save, and what a
//! save reads of a game at its end.
//!
//! A save is checked and read on the Python side, by the Python engine's own `carry.give` (so a
//! save the core plays from is refused, or taken, exactly as the Python engine refuses or takes
//! it), and crosses here as a `Start`: the position that `give` made of the game's start, in the
//! core's indexes. The core lays it over its own start (every variable at its start value, every
//! piece where it starts) before setup runs, as the Python engine does: the carried variables'
//! values, the carried grids' layers in the order the save gives them (so the cells they make are
//! numbered as the Python engine orders them), then the pieces of every place.
//!
//! What a save reads at a game's end (`carry.take`) is read through `cells` and `layer`: a grid's
//! cells with the layers each one holds, and a layer's cells, rows and turns.

use crate::placement::put;
use crate::value::{Piece, Value};
use crate::vm::{Fail, Loaded, Part, World};
use serde::Deserialize;

/// A shape a carried grid gets before any piece is placed: where, showing which rows, with which
/// turn. It is laid over the cells there when all its cells are there (carry.py's `_lay`).
#[derive(Deserialize, Debug)]
pub struct Laid {
    pub grid: u32,
    pub coords: Vec<(i64, i64)>,
    pub rows: Vec<u32>,
    pub turns: u32,
}

/// A piece as a start gives it: its kind, and its owner's seat.
type Given = (u32, Option<u32>);

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
    /// The pieces of the program's own locations, bottom first: every location listed.
    #[serde(default)]
    pub locs: Vec<(u32, Vec<Given>)>,
    /// The pieces on cells of grids that grow, by (grid, q, r): found once the layers are laid.
    #[serde(default)]
    pub cells: Vec<(u32, i64, i64, Vec<Given>)>,
}

fn pieces(given: &[Given]) -> Vec<Piece> {
    given.iter().map(|&(kind, owner)| Piece { kind, owner }).collect()
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
        let Some(grid) = p.ir.grids.get(laid.grid as usize) else {
            return wrong(format!("no grid {}", laid.grid));
        };
        let name = grid.name.clone();
        let over = laid.coords.iter().all(|(q, r)| w.grown.get(laid.grid, *q, *r).is_some());
        put(w, laid.grid, &name, laid.coords.clone(), laid.rows.clone(), laid.turns, over)?;
    }
    for (loc, given) in &start.locs {
        match w.locs.get_mut(*loc as usize) {
            Some(held) => *held = pieces(given),
            None => return wrong(format!("no location {loc}")),
        }
        w.changed(Part::Loc(*loc));
    }
    for (g, q, r, given) in &start.cells {
        let Some(cell) = w.grown.get(*g, *q, *r) else { return wrong(format!("no cell ({q},{r})")) };
        w.locs[cell as usize] = pieces(given);
        w.changed(Part::Loc(cell));
    }
    Ok(())
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
