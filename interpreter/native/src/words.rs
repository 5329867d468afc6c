//! What a reader's words for a log line need beside the line itself, taken as the line is
//! written (the position moves on before the Python side reads the log): the Python engine
//! keeps the same beside its lines (interpreter/engine.py's `write_answer`, compile_Log).
//!
//! - A line naming a place of a grid that grows (a shape laid, a cell, an area, a route's
//!   places) is read by what lay around that place (runtime.py's `Said`, `Runtime.around`):
//!   each cell next to it, and for a cell or an area its own cells too, with the row it shows.
//! - An answer that took a piece from a zone (a hand, a pile) is read by the seats that could
//!   not see the piece without its name (runtime.py's `Withheld`, engine.py's `Hidden`): how
//!   many pieces like it each seat could see there and anywhere (view.py's `in_sight`).

use crate::grid::{HEX_SIDES, SQUARE_SIDES};
use crate::ir::Unseen;
use crate::value::{Piece, Value};
use crate::vm::{Event, Loaded, Said, World};
use std::collections::BTreeMap;

/// What a line needs beside it, as an event after it.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Context {
    /// The cells around the places the line names: (q, r, the row shown there).
    Around(Vec<(i64, i64, u32)>),
    /// How many pieces like the one an answer took each seat could see where it was (`there`)
    /// and anywhere (`before`), by seat.
    Sight { there: Vec<u32>, before: Vec<u32> },
}

/// The context of an event about to be written, if its words need one.
pub fn context(p: &Loaded, w: &World, event: &Event) -> Option<Context> {
    match event {
        Event::Chose { option: Some(Value::Piece(loc, piece)), .. } if is_zone(p, *loc) && w.players >= 2 => {
            Some(Context::Sight {
                there: in_sight(p, w, piece, Some(*loc)),
                before: in_sight(p, w, piece, None),
            })
        }
        Event::Chose { option: Some(v), .. } => around_places(p, w, std::slice::from_ref(v)),
        Event::Line(said) => {
            let values: Vec<Value> = said
                .iter()
                .filter_map(|s| match s {
                    Said::Value(v) => Some(v.clone()),
                    Said::Text(_) => None,
                })
                .collect();
            around_places(p, w, &values)
        }
        _ => None,
    }
}

/// Whether a location is a zone of the program (not a cell, not a node of a map).
fn is_zone(p: &Loaded, loc: u32) -> bool {
    p.ir.locations.get(loc as usize).is_some_and(|at| at.cell.is_none() && at.node.is_none())
}

/// How many pieces like `piece` each seat may see, where the view shows them, at `at` alone or
/// everywhere (view.py's `in_sight`): face up, in its own private zone, on top of a `top` zone,
/// or shown to it by `reveal`.
fn in_sight(p: &Loaded, w: &World, piece: &Piece, at: Option<u32>) -> Vec<u32> {
    let seats = w.players;
    let mut counts = vec![0u32; seats as usize];
    let locs: Vec<u32> = match at {
        Some(loc) => vec![loc],
        None => (0..w.locs.len() as u32).collect(),
    };
    for loc in locs {
        let pieces = &w.locs[loc as usize];
        let held = pieces.iter().filter(|pc| *pc == piece).count() as u32;
        if held == 0 {
            continue;
        }
        let at = p.ir.locations.get(loc as usize);
        let unseen = at.map_or(Unseen::Nothing, |at| at.unseen);
        for seat in 0..seats {
            counts[seat as usize] += match unseen {
                Unseen::UnderTop => u32::from(pieces.last() == Some(piece)),
                Unseen::Nothing => held,
                Unseen::ButOwner if at.is_some_and(|at| at.owner == Value::Player(seat)) => held,
                Unseen::ButOwner | Unseen::All => 0,
            };
        }
    }
    for (loc, seat, known) in w.seen.all() {
        if at.is_none_or(|at| at == loc) && seat < seats {
            counts[seat as usize] += known.iter().filter(|(pc, _)| pc == piece).map(|(_, n)| n).sum::<u32>();
        }
    }
    counts
}

/// The cells around every place of a grid that grows the values name (runtime.py's
/// `around_places`); None when they name none.
fn around_places(p: &Loaded, w: &World, values: &[Value]) -> Option<Context> {
    let mut around: BTreeMap<(i64, i64), u32> = BTreeMap::new();
    let mut named = false;
    for value in values {
        if let Value::Placement(spot) = value {
            named = true;
            around_cells(p, w, spot.grid, &spot.coords().collect::<Vec<_>>(), false, &mut around);
            continue;
        }
        for cells in grown_places(w, value) {
            named = true;
            let grid = w.grown.cell(cells[0]).map_or(0, |c| c.0);
            let coords: Vec<(i64, i64)> =
                cells.iter().filter_map(|loc| w.grown.cell(*loc)).map(|(_, q, r, _)| (q, r)).collect();
            around_cells(p, w, grid, &coords, true, &mut around);
        }
    }
    named.then(|| Context::Around(around.into_iter().map(|((q, r), row)| (q, r, row)).collect()))
}

/// The places of a grid that grows a value names, each as its cells' locations: a cell, an
/// area, or those a route starts at and enters (areas.py's `grown_places`).
fn grown_places(w: &World, value: &Value) -> Vec<Vec<u32>> {
    let parts: Vec<&Value> = match value {
        Value::Route(way) => std::iter::once(&way.start).chain(way.path.iter()).collect(),
        other => vec![other],
    };
    let mut found: Vec<Vec<u32>> = Vec::new();
    for part in parts {
        let cells = match part {
            Value::Cell(loc) => vec![*loc],
            Value::Area(area) if !area.cells.is_empty() => area.cells.clone(),
            _ => continue,
        };
        if w.grown.cell(cells[0]).is_some() && !found.contains(&cells) {
            found.push(cells);
        }
    }
    found
}

/// The cells next to `coords` on a grid that grows, as they are now (and the cells themselves,
/// `own`), each with the row it shows (runtime.py's `Runtime.around`).
fn around_cells(
    p: &Loaded,
    w: &World,
    g: u32,
    coords: &[(i64, i64)],
    own: bool,
    out: &mut BTreeMap<(i64, i64), u32>,
) {
    let hex = p.ir.grids.get(g as usize).is_some_and(|grid| grid.hex);
    let sides: &[(i64, i64)] = if hex { &HEX_SIDES } else { &SQUARE_SIDES };
    let shown = |q: i64, r: i64| w.grown.get(g, q, r).and_then(|loc| w.grown.cell(loc)).map(|c| c.3);
    for &(q, r) in coords {
        for (dq, dr) in sides {
            let at = (q + dq, r + dr);
            if own || !coords.contains(&at) {
                if let Some(row) = shown(at.0, at.1) {
                    out.insert(at, row);
                }
            }
        }
        if own {
            if let Some(row) = shown(q, r) {
                out.insert((q, r), row);
            }
        }
    }
}
