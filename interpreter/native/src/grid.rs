//! Boards given by their size: their cells by coordinates, and the questions the rules ask of
//! them (interpreter/grids.py and interpreter/geometry.py say the same for the Python engine).
//! A grid knows cells, coordinates and directions; nothing here knows what a cell is for.

use crate::ir::GridIr;
use crate::value::Value;
use crate::vm::{Fail, FailKind, Fast, Loaded};
use std::collections::HashSet;
use std::sync::Arc;

/// Axial coordinates, pointy-top: E, NE, NW, W, SW, SE (geometry.py's HEX).
pub const HEX_SIDES: [(i64, i64); 6] = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)];
/// North, east, south, west; then the corners NE, SE, SW, NW (geometry.py's squares).
pub const SQUARE_SIDES: [(i64, i64); 4] = [(0, -1), (1, 0), (0, 1), (-1, 0)];
pub const SQUARE_CORNERS: [(i64, i64); 4] = [(1, -1), (1, 1), (-1, 1), (-1, -1)];

/// Offsets of a grid's neighbours, in its fixed order.
type Offsets = &'static [(i64, i64)];

fn fail<T>(message: &str) -> Result<T, Fail> {
    Err(Fail { kind: FailKind::Error(message.to_string()), at: None })
}

/// A board's cells by (q, r): the location of each, over the board's bounding box.
#[derive(Debug)]
pub struct GridIndex {
    west: i64,
    north: i64,
    width: i64,
    height: i64,
    at: Vec<Option<u32>>,
    pub directions: Offsets,
    pub corners: Offsets,
    /// Every cell, in reading order: what `cells(GRID)` gives, shared rather than made anew.
    pub cells: Value,
    /// The cells along each side, by the set of directions (a bit each) the side has no cell
    /// beyond: what `side(GRID, word)` gives, found once rather than at every asking.
    sides: Vec<Value>,
}

impl GridIndex {
    pub fn new(grid: &GridIr) -> GridIndex {
        let west = grid.cells.iter().map(|c| c.0).min().unwrap_or(0);
        let east = grid.cells.iter().map(|c| c.0).max().unwrap_or(-1);
        let north = grid.cells.iter().map(|c| c.1).min().unwrap_or(0);
        let south = grid.cells.iter().map(|c| c.1).max().unwrap_or(-1);
        let (width, height) = (east - west + 1, south - north + 1);
        let mut at = vec![None; (width.max(0) * height.max(0)) as usize];
        for (i, (q, r)) in grid.cells.iter().enumerate() {
            at[((r - north) * width + (q - west)) as usize] = Some(grid.first + i as u32);
        }
        let (directions, corners): (Offsets, Offsets) =
            if grid.hex { (&HEX_SIDES, &[]) } else { (&SQUARE_SIDES, &SQUARE_CORNERS) };
        let cells = (0..grid.cells.len() as u32).map(|i| Value::Cell(grid.first + i)).collect();
        let mut index = GridIndex {
            west,
            north,
            width,
            height,
            at,
            directions,
            corners,
            cells: Value::List(Arc::new(cells)),
            sides: Vec::new(),
        };
        index.sides = (0..1u32 << directions.len())
            .map(|mask| {
                let beyond: Vec<(i64, i64)> =
                    (0..directions.len()).filter(|d| mask & (1 << d) != 0).map(|d| directions[d]).collect();
                let along =
                    grid.cells.iter().enumerate().filter(|(_, (q, r))| {
                        beyond.iter().all(|(dq, dr)| index.get(q + dq, r + dr).is_none())
                    });
                Value::List(Arc::new(along.map(|(i, _)| Value::Cell(grid.first + i as u32)).collect()))
            })
            .collect();
        index
    }

    /// The location of the cell at (q, r), if the board has one there.
    pub fn get(&self, q: i64, r: i64) -> Option<u32> {
        let (x, y) = (q - self.west, r - self.north);
        if x < 0 || y < 0 || x >= self.width || y >= self.height {
            return None;
        }
        self.at[(y * self.width + x) as usize]
    }
}

pub fn cells(p: &Loaded, g: u32) -> Value {
    p.grids[g as usize].cells.clone()
}

pub fn cell_at(p: &Loaded, g: u32, q: i64, r: i64) -> Value {
    p.grids[g as usize].get(q, r).map_or(Value::None, Value::Cell)
}

fn cell(p: &Loaded, v: &Value) -> Result<(u32, i64, i64), Fail> {
    match v {
        Value::Cell(loc) => match p.ir.locations.get(*loc as usize).and_then(|l| l.cell) {
            Some(c) => Ok(c),
            None => fail("not a cell of a grid"),
        },
        _ => fail(&format!("a {} is not a cell of a grid", v.type_name())),
    }
}

/// The cells along one side: those with no cell beyond them in any of the side's directions.
pub fn side(p: &Loaded, g: u32, directions: &[u32]) -> Result<Value, Fail> {
    let index = &p.grids[g as usize];
    let mut mask = 0usize;
    for d in directions {
        if *d as usize >= index.directions.len() {
            return fail("a side of a grid is along its own directions");
        }
        mask |= 1 << d;
    }
    Ok(index.sides[mask].clone())
}

/// The fewest steps from side to side between two cells of one grid.
pub fn distance(p: &Loaded, a: &Value, b: &Value) -> Result<i64, Fail> {
    let ((g, aq, ar), (_, bq, br)) = (cell(p, a)?, cell(p, b)?);
    let (dq, dr) = (aq - bq, ar - br);
    Ok(if p.ir.grids[g as usize].hex {
        (dq.abs() + dr.abs() + (dq + dr).abs()) / 2
    } else {
        dq.abs() + dr.abs()
    })
}

/// The cells sharing a side with a cell, in the order of its grid's directions.
pub fn neighbours(p: &Loaded, v: &Value) -> Result<Value, Fail> {
    let (g, q, r) = cell(p, v)?;
    let index = &p.grids[g as usize];
    let around = index.directions.iter().filter_map(|(dq, dr)| index.get(q + dq, r + dr)).map(Value::Cell);
    Ok(Value::List(Arc::new(around.collect())))
}

/// Whether `n` of the cells lie in a straight line, each next to the one before.
pub fn in_a_row(p: &Loaded, cells: &[Value], n: i64) -> Result<bool, Fail> {
    if n < 1 {
        return fail(&format!("cells in a row are counted from 1, not {n}"));
    }
    let Some(first) = cells.first() else {
        return Ok(false);
    };
    let g = cell(p, first)?.0;
    // The cells, marked by location: each asked of its neighbours without hashing coordinates.
    let mut at = vec![false; p.ir.locations.len()];
    let mut coords = Vec::with_capacity(cells.len());
    for c in cells {
        let (grid, q, r) = cell(p, c)?;
        if grid != g {
            return fail("cells in a row are cells of one grid");
        }
        if let Value::Cell(loc) = c {
            at[*loc as usize] = true;
        }
        coords.push((q, r));
    }
    let index = &p.grids[g as usize];
    let marked = |q: i64, r: i64| index.get(q, r).is_some_and(|loc| at[loc as usize]);
    let mut axes: Vec<(i64, i64)> = Vec::new();
    for &(dq, dr) in index.directions.iter().chain(index.corners) {
        if !axes.contains(&(-dq, -dr)) {
            axes.push((dq, dr));
        }
    }
    for &(q, r) in &coords {
        for &(dq, dr) in &axes {
            if marked(q - dq, r - dr) {
                continue;
            }
            let mut length = 1;
            while marked(q + length * dq, r + length * dr) {
                length += 1;
            }
            if length >= n {
                return Ok(true);
            }
        }
    }
    Ok(false)
}

/// Whether a chain of `places`, each next to the one before, runs from one of `starts` to one
/// of `ends`.
pub fn connected(p: &Loaded, places: &[Value], starts: &[Value], ends: &[Value]) -> Result<bool, Fail> {
    if let Some(joined) = connected_cells(p, places, starts, ends) {
        return Ok(joined);
    }
    let inside: HashSet<&Value, Fast> = places.iter().collect();
    let goal: HashSet<&Value, Fast> = ends.iter().filter(|e| inside.contains(e)).collect();
    let mut todo: Vec<Value> = starts.iter().filter(|s| inside.contains(s)).cloned().collect();
    let mut seen: HashSet<Value, Fast> = todo.iter().cloned().collect();
    while let Some(place) = todo.pop() {
        if goal.contains(&place) {
            return Ok(true);
        }
        let Value::List(next) = neighbours(p, &place)? else {
            continue;
        };
        for nb in next.iter() {
            if inside.contains(nb) && seen.insert(nb.clone()) {
                todo.push(nb.clone());
            }
        }
    }
    Ok(false)
}

/// `connected` where every place is a cell of a board given by size (the usual question: are a
/// player's stones joined from side to side?): the places marked by location and their
/// neighbours found by coordinates, with no set hashed nor list made per cell. None, having
/// done nothing, where a place is anything else: `connected` asks as before, with its errors.
fn connected_cells(p: &Loaded, places: &[Value], starts: &[Value], ends: &[Value]) -> Option<bool> {
    const INSIDE: u8 = 1;
    const GOAL: u8 = 2;
    const SEEN: u8 = 4;
    let mut mark = vec![0u8; p.ir.locations.len()];
    for place in places {
        let Value::Cell(loc) = place else { return None };
        p.ir.locations.get(*loc as usize)?.cell?;
        mark[*loc as usize] = INSIDE;
    }
    let marked = |v: &Value| match v {
        Value::Cell(loc) if mark.get(*loc as usize).is_some_and(|m| m & INSIDE != 0) => Some(*loc as usize),
        _ => None,
    };
    let goals: Vec<usize> = ends.iter().filter_map(marked).collect();
    let mut todo: Vec<usize> = starts.iter().filter_map(marked).collect();
    for &g in &goals {
        mark[g] |= GOAL;
    }
    for &s in &todo {
        mark[s] |= SEEN;
    }
    while let Some(at) = todo.pop() {
        if mark[at] & GOAL != 0 {
            return Some(true);
        }
        let (g, q, r) = p.ir.locations[at].cell?;
        let index = &p.grids[g as usize];
        for (dq, dr) in index.directions {
            if let Some(nb) = index.get(q + dq, r + dr) {
                let m = &mut mark[nb as usize];
                if *m & INSIDE != 0 && *m & SEEN == 0 {
                    *m |= SEEN;
                    todo.push(nb as usize);
                }
            }
        }
    }
    Some(false)
}
