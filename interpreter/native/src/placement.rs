//! Grids that grow: their cells exist from the moment a shape is laid over them (`place`), and
//! the questions the rules ask of them: where a shape may go (`placements`), a grid's cells, a
//! cell's neighbours and what it shows. interpreter/grids.py and interpreter/layers.py say the
//! same for the Python engine, whose order of options this keeps exactly.
//!
//! A grown cell is a location like any other (`Value::Cell`), numbered after the program's own
//! locations in the order cells are laid, so that pieces stand on it as on a zone. Nothing here
//! knows what a cell is for: what it shows is a row of the rules' own table.

use crate::grid::{HEX_SIDES, SQUARE_SIDES};
use crate::ir::{AttrIr, Program};
use crate::value::{Spot, Value, Way};
use crate::vm::{Fail, FailKind, Loaded, Part, World};
use std::collections::{BTreeMap, HashSet};
use std::sync::Arc;

fn fail<T>(message: impl Into<String>) -> Result<T, Fail> {
    Err(Fail { kind: FailKind::Error(message.into()), at: None })
}

/// The cells laid on the grids that grow, in one game: plain data, copied with the game.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct Grown {
    /// The location of the first grown cell: every location before it is the program's own.
    base: u32,
    /// Each grown cell, by its location less `base`: its grid, (q, r), and the row it shows.
    cells: Vec<(u32, i64, i64, u32)>,
    /// Each grown cell's location by (grid, q, r).
    at: BTreeMap<(u32, i64, i64), u32>,
}

impl Grown {
    pub fn new(ir: &Program) -> Grown {
        Grown { base: ir.locations.len() as u32, ..Grown::default() }
    }

    /// A grown cell's grid, (q, r) and the row it shows; None for the program's own locations.
    pub fn cell(&self, loc: u32) -> Option<(u32, i64, i64, u32)> {
        loc.checked_sub(self.base).and_then(|i| self.cells.get(i as usize)).copied()
    }

    fn get(&self, g: u32, q: i64, r: i64) -> Option<u32> {
        self.at.get(&(g, q, r)).copied()
    }

    /// A grid's cells in the order they were laid (what `cells(GRID)` gives).
    fn of(&self, g: u32) -> impl Iterator<Item = (usize, &(u32, i64, i64, u32))> {
        self.cells.iter().enumerate().filter(move |(_, c)| c.0 == g)
    }
}

fn grows(p: &Loaded, g: u32) -> bool {
    p.ir.grids.get(g as usize).is_some_and(|grid| grid.grows)
}

fn directions(p: &Loaded, g: u32) -> &'static [(i64, i64)] {
    if p.ir.grids[g as usize].hex {
        &HEX_SIDES
    } else {
        &SQUARE_SIDES
    }
}

/// How many turns make a full circle (geometry.py's `Geometry.turns`): six for hexes, four for
/// squares.
pub fn full_turn(hex: bool) -> u32 {
    if hex {
        6
    } else {
        4
    }
}

/// (q, r) turned `turns` times (geometry.py's `rotate`): hexes by sixths about the origin,
/// squares by quarters.
fn rotate(hex: bool, (mut q, mut r): (i64, i64), turns: u32) -> (i64, i64) {
    for _ in 0..turns % full_turn(hex) {
        (q, r) = if hex { (-r, q + r) } else { (-r, q) };
    }
    (q, r)
}

/// The grid, (q, r) of any cell: a board's (its fixed location) or a grown one.
pub fn coords(p: &Loaded, w: &World, loc: u32) -> Option<(u32, i64, i64)> {
    match p.ir.locations.get(loc as usize) {
        Some(at) => at.cell,
        None => w.grown.cell(loc).map(|(g, q, r, _)| (g, q, r)),
    }
}

/// The cell of a grid at (q, r), if there is one now.
pub fn cell_at(p: &Loaded, w: &mut World, g: u32, q: i64, r: i64) -> Option<u32> {
    if grows(p, g) {
        w.read(Part::Grid(g));
        w.grown.get(g, q, r)
    } else {
        p.grids[g as usize].get(q, r)
    }
}

/// `cells(GRID)` of a grid that grows: its cells in the order they were laid.
pub fn cells(w: &mut World, g: u32) -> Value {
    w.read(Part::Grid(g));
    let base = w.grown.base;
    Value::List(Arc::new(w.grown.of(g).map(|(i, _)| Value::Cell(base + i as u32)).collect()))
}

/// What one step from a cell reaches: each cell next to it, with the index of its direction.
pub fn steps(p: &Loaded, w: &mut World, loc: u32) -> Result<Vec<(usize, u32)>, Fail> {
    let Some((g, q, r)) = coords(p, w, loc) else {
        return fail("not a cell of a grid");
    };
    let mut out = Vec::new();
    for (d, (dq, dr)) in directions(p, g).iter().enumerate() {
        if let Some(nb) = cell_at(p, w, g, q + dq, r + dr) {
            out.push((d, nb));
        }
    }
    Ok(out)
}

/// `neighbours(CELL)` of a grown cell; None for a board's, which grid.rs answers.
pub fn neighbours(p: &Loaded, w: &mut World, v: &Value) -> Result<Option<Value>, Fail> {
    match v {
        Value::Cell(loc) if w.grown.cell(*loc).is_some() => {
            let around = steps(p, w, *loc)?.into_iter().map(|(_, nb)| Value::Cell(nb));
            Ok(Some(Value::List(Arc::new(around.collect()))))
        }
        _ => Ok(None),
    }
}

fn local(p: &Loaded, row: u32) -> Result<(i64, i64), Fail> {
    let values = p.ir.rows.get(row as usize);
    match (values.and_then(|v| v.get("q")), values.and_then(|v| v.get("r"))) {
        (Some(Value::Int(q)), Some(Value::Int(r))) => Ok((*q, *r)),
        _ => fail("a shape is rows with whole-number columns q and r"),
    }
}

/// The rows of a shape, by index among all rows.
pub fn shape_rows(shape: &Value) -> Result<Vec<u32>, Fail> {
    let items: Vec<Value> = match shape {
        Value::List(items) => items.as_ref().clone(),
        other => return fail(format!("a shape is a list of rows, not a {}", other.type_name())),
    };
    items
        .iter()
        .map(|v| match v {
            Value::Row(r) => Ok(*r),
            other => fail(format!("a shape is a list of rows, not of {}s", other.type_name())),
        })
        .collect()
}

/// Cells and shifts of one placement search as single numbers, q * width + r, so that a shift
/// is one addition and sorted numbers are sorted (q, r) pairs (grids.py's `_Packing`): the width
/// is more than twice any r the search packs.
struct Packing {
    half: i64,
    width: i64,
}

impl Packing {
    fn of(&self, (q, r): (i64, i64)) -> i64 {
        q * self.width + r
    }

    fn unpack(&self, n: i64) -> (i64, i64) {
        let q = (n + self.half).div_euclid(self.width);
        (q, n - q * self.width)
    }
}

/// Every distinct way to lay a shape on a grid that grows, turned freely, covering no cell and
/// touching one by a side: for each turn, the shifts in order of (q, r); on an empty grid, at
/// the origin unturned (grids.py's `placements`). `faces` gives, on square grids, each row's
/// look apart from its coordinates: turns that look the same are offered once.
pub fn placements(p: &Loaded, w: &mut World, g: u32, shape: &Value, faces: &[u32]) -> Result<Value, Fail> {
    if !grows(p, g) {
        return fail("placements are found on a grid that grows: a board has all its cells");
    }
    let rows: Arc<[u32]> = shape_rows(shape)?.into();
    let local: Vec<(i64, i64)> = rows.iter().map(|r| local(p, *r)).collect::<Result<_, _>>()?;
    w.read(Part::Grid(g));
    let taken: Vec<(i64, i64)> = w.grown.of(g).map(|(_, c)| (c.1, c.2)).collect();
    let spot = |turned: &Arc<[(i64, i64)]>, shift: (i64, i64), turns: u32| {
        let rows = rows.clone();
        Value::Placement(Arc::new(Spot { grid: g, rows, turned: turned.clone(), shift, turns }))
    };
    if taken.is_empty() {
        return Ok(Value::List(Arc::new(vec![spot(&local.into(), (0, 0), 0)])));
    }
    let hex = p.ir.grids[g as usize].hex;
    let turned: Vec<Arc<[(i64, i64)]>> =
        (0..full_turn(hex)).map(|t| local.iter().map(|c| rotate(hex, *c, t)).collect()).collect();
    let reach = taken.iter().map(|c| c.1.abs()).max().unwrap_or(0)
        + turned.iter().flat_map(|cells| cells.iter().map(|c| c.1.abs())).max().unwrap_or(0);
    let pack = Packing { half: reach + 2, width: 2 * (reach + 2) };
    let mut taken_p: Vec<i64> = taken.iter().map(|c| pack.of(*c)).collect();
    taken_p.sort_unstable();
    let sides: Vec<i64> = directions(p, g).iter().map(|d| pack.of(*d)).collect();
    let mut frontier: Vec<i64> = taken_p
        .iter()
        .flat_map(|t| sides.iter().map(move |d| t + d))
        .filter(|c| taken_p.binary_search(c).is_err())
        .collect();
    frontier.sort_unstable();
    frontier.dedup();
    let single = local.iter().collect::<HashSet<_>>().len() < 2;
    let alike = !hex;
    let marks: Vec<u32> = if alike {
        rows.iter().map(|r| faces.get(*r as usize).copied().unwrap_or(*r)).collect()
    } else {
        rows.to_vec()
    };
    let mut seen: HashSet<Vec<((i64, i64), u32)>> = HashSet::new();
    let mut out = Vec::new();
    for (turns, cells) in turned.iter().enumerate() {
        let packed: Vec<i64> = cells.iter().map(|c| pack.of(*c)).collect();
        // Each shift that puts some cell of the shape on a frontier cell, and none on a taken
        // one: marked in a table of every shift between the least and the greatest, read in order.
        let (Some(low), Some(high)) = (packed.iter().min(), packed.iter().max()) else { continue };
        let first = frontier[0] - high;
        let mut free = vec![false; (frontier[frontier.len() - 1] - low - first + 1) as usize];
        for f in &frontier {
            for c in &packed {
                free[(f - c - first) as usize] = true;
            }
        }
        for t in &taken_p {
            for c in &packed {
                if let Some(mark) = free.get_mut((t - c - first) as usize) {
                    *mark = false;
                }
            }
        }
        for (i, _) in free.iter().enumerate().filter(|(_, marked)| **marked) {
            let (dq, dr) = pack.unpack(first + i as i64);
            if alike || single {
                let mut look: Vec<((i64, i64), u32)> =
                    cells.iter().map(|(q, r)| (q + dq, r + dr)).zip(marks.iter().copied()).collect();
                look.sort_unstable();
                look.dedup();
                if !seen.insert(look) {
                    continue;
                }
            }
            out.push(spot(cells, (dq, dr), turns as u32));
        }
    }
    Ok(Value::List(Arc::new(out)))
}

/// `place SHAPE on GRID [at PLACEMENT]`: new cells showing the shape's rows (layers.py's `lay`,
/// without `over`, which the lowering does not take).
pub fn lay(p: &Loaded, w: &mut World, grid: &Value, shape: &Value, at: Option<&Value>) -> Result<(), Fail> {
    let Value::Grid(g) = *grid else {
        return fail(format!("a {} is not a grid map: shapes are placed on grids", grid.type_name()));
    };
    let name = &p.ir.grids[g as usize].name;
    if !grows(p, g) {
        return fail(format!("the shape would cover cells of {name} already there"));
    }
    let rows = shape_rows(shape)?;
    let coords: Vec<(i64, i64)> = match at {
        None => rows.iter().map(|r| local(p, *r)).collect::<Result<Vec<_>, _>>()?,
        Some(Value::Placement(spot)) => {
            if *spot.rows != *rows {
                return fail("that placement was made for another shape");
            }
            if spot.grid != g {
                let other = &p.ir.grids[spot.grid as usize].name;
                return fail(format!("that placement was made for {other}, not {name}"));
            }
            spot.coords().collect()
        }
        Some(other) => {
            return fail(format!("a shape is placed at a placement, not at a {}", other.type_name()))
        }
    };
    if coords.iter().any(|(q, r)| w.grown.get(g, *q, *r).is_some()) {
        return fail(format!("the shape would cover cells of {name} already there"));
    }
    for ((q, r), row) in coords.into_iter().zip(rows) {
        let loc = w.grown.base + w.grown.cells.len() as u32;
        w.grown.cells.push((g, q, r, row));
        w.grown.at.insert((g, q, r), loc);
        w.locs.push(Vec::new());
    }
    w.changed(Part::Grid(g));
    Ok(())
}

/// An attribute of a grown cell (its coordinates, the columns of the row it shows), of a
/// placement or of a route; None for any other value, which vm.rs answers.
pub fn attr(p: &Loaded, w: &mut World, obj: &Value, name: &AttrIr) -> Result<Option<Value>, Fail> {
    Ok(Some(match (obj, name) {
        (Value::Cell(loc), _) => {
            let Some((_, q, r, row)) = w.grown.cell(*loc) else { return Ok(None) };
            match name {
                AttrIr::Q => Value::Int(q),
                AttrIr::R => Value::Int(r),
                AttrIr::Column(column) => match p.ir.rows.get(row as usize).and_then(|v| v.get(column)) {
                    Some(v) => v.clone(),
                    None => return fail(format!("a cell has no '{column}'")),
                },
                _ => return Ok(None),
            }
        }
        (Value::Placement(spot), AttrIr::Shaped(name)) => match name.as_str() {
            "x" | "y" => {
                let (q, r) = spot.coords().next().unwrap_or_default();
                Value::Int(if name == "x" { q } else { r })
            }
            "turns" => Value::Int(i64::from(spot.turns)),
            "shape" => Value::List(Arc::new(spot.rows.iter().map(|r| Value::Row(*r)).collect())),
            "cells" => {
                let mut out = Vec::new();
                for (q, r) in spot.coords() {
                    if let Some(loc) = cell_at(p, w, spot.grid, q, r) {
                        out.push(Value::Cell(loc));
                    }
                }
                Value::List(Arc::new(out))
            }
            _ => return fail(format!("a placement has no '{name}'")),
        },
        (Value::Route(way), AttrIr::Shaped(name)) => route_attr(way, name)?,
        _ => return Ok(None),
    }))
}

fn route_attr(way: &Way, name: &str) -> Result<Value, Fail> {
    Ok(match name {
        "start" => way.start.clone(),
        "end" => way.end(),
        "passed" => Value::List(Arc::new(way.passed())),
        "path" => Value::List(Arc::new(way.path.clone())),
        "steps" => Value::Int(way.path.len() as i64),
        _ => return fail(format!("a route has no '{name}'")),
    })
}

#[cfg(test)]
mod tests {
    use super::{rotate, Packing};

    #[test]
    fn a_full_circle_of_turns_brings_a_cell_back() {
        for cell in [(0, 0), (1, 0), (2, -1), (-3, 5)] {
            assert_eq!(rotate(true, cell, 6), cell);
            assert_eq!(rotate(false, cell, 4), cell);
        }
        // A sixth of a turn on hexes: east to north-east's neighbour order (geometry.py).
        assert_eq!(rotate(true, (1, 0), 1), (0, 1));
        assert_eq!(rotate(false, (1, 0), 1), (0, 1));
    }

    #[test]
    fn packed_coordinates_unpack_to_themselves_and_sort_as_pairs() {
        let pack = Packing { half: 7, width: 14 };
        let cells = [(-3, 5), (-3, -5), (0, 0), (2, -6), (2, 6), (4, -1)];
        for c in cells {
            assert_eq!(pack.unpack(pack.of(c)), c);
        }
        let mut packed: Vec<i64> = cells.iter().map(|c| pack.of(*c)).collect();
        packed.sort_unstable();
        let mut sorted = cells.to_vec();
        sorted.sort_unstable();
        assert_eq!(packed.iter().map(|n| pack.unpack(*n)).collect::<Vec<_>>(), sorted);
    }
}
