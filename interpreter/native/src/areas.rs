//! Areas: the connected cells of a grid that grows whose rows share a column's value (a city of
//! joined tiles, a region of one terrain), as values (`areas(GRID, COLUMN)`, `area(CELL,
//! COLUMN)`), the areas beside one (`next_to`, `corner_to`), what an area says of itself
//! (`cells`, `first`, `blocks`, `gaps`, and any other attribute of its first cell), and the
//! sides a placement would share with a grid (`borders`). interpreter/areas.py and grids.py say
//! the same for the Python engine, whose order of areas this keeps exactly.
//!
//! An area is found by joining neighbours across their sides whose value is equal; it is equal to
//! another with the same cells. Nothing here knows what a column means: it is the rules' own.

use crate::grid::SQUARE_SIDES;
use crate::ir::AttrIr;
use crate::placement::{block, cell_at, coords};
use crate::value::{Area, Spot, Value};
use crate::vm::{Fail, FailKind, Loaded, Part, World};
use std::sync::{Arc, OnceLock};

fn fail<T>(message: impl Into<String>) -> Result<T, Fail> {
    Err(Fail { kind: FailKind::Error(message.into()), at: None })
}

/// The cells meeting a square cell at a corner only: north-east, south-east, south-west,
/// north-west (geometry.py's SQUARE_CORNERS).
const SQUARE_CORNERS: [(i64, i64); 4] = [(1, -1), (1, 1), (-1, 1), (-1, -1)];

/// Every area of a grid under one column, in the order of their first cells, and each cell's
/// area (areas.py's Labelling).
#[derive(Debug)]
struct Labelling {
    areas: Vec<Arc<Area>>,
    /// Each grown cell's area, by its location less the first grown location (`NONE` for a
    /// cell of another grid, or gone): grown cells are numbered in the order laid, so a list
    /// indexed by them answers without hashing. A cell's neighbours are the grid's own
    /// (`Grown::beside`), which holds while the labelling does.
    of: Vec<u32>,
    base: u32,
    /// The areas beside each area (`next_to`) and at its corners only (`corner_to`), by its
    /// index, found when first asked: the rules ask them of the same areas again and again
    /// while the grid stands (of every area holding a player's pieces, for every side a
    /// placement would share with the grid).
    next: Vec<OnceLock<Value>>,
    corner: Vec<OnceLock<Value>>,
}

/// No area, in `Labelling::of`.
const NONE: u32 = u32::MAX;

impl Labelling {
    /// The index of the area a location lies in, if it is a cell of the grid labelled.
    fn area_of(&self, loc: u32) -> Option<usize> {
        let i = loc.checked_sub(self.base)?;
        self.of.get(i as usize).copied().filter(|a| *a != NONE).map(|a| a as usize)
    }
}

/// The labellings found since the grids last changed, by grid and column: the rules ask for the
/// areas of one position again and again (the area of each piece, the areas next to it...), and
/// finding them walks every cell. So is each grid's list of cells (`cells(GRID)`, which rules
/// ask of every player at every turn). Not part of the position, as the memo is not: a copy
/// starts without it, and it takes no part in equality or hashing. Any change of a grid forgets
/// it all (`World::changed`), a supposition's too.
#[derive(Default, Debug)]
pub struct Kept {
    found: Vec<(Labelled, Arc<Labelling>)>,
    cells: Vec<(u32, Value)>,
}

/// What a labelling is of: a grid and a column.
type Labelled = (u32, Arc<str>);

impl Kept {
    pub fn forget(&mut self) {
        self.found.clear();
        self.cells.clear();
    }

    /// The list of a grid's cells as it stands, made by `make` once until the grid changes.
    pub(crate) fn cells(&mut self, g: u32, make: impl FnOnce() -> Value) -> Value {
        if let Some((_, list)) = self.cells.iter().find(|(kept, _)| *kept == g) {
            return list.clone();
        }
        let list = make();
        self.cells.push((g, list.clone()));
        list
    }
}

apart_from_the_position!(Kept);

fn sides_of(p: &Loaded, g: u32) -> &'static [(i64, i64)] {
    if p.ir.grids[g as usize].hex {
        &crate::grid::HEX_SIDES
    } else {
        &SQUARE_SIDES
    }
}

/// The grid's cells, each with its (q, r) and the value of `column` of the row it shows, in
/// reading order (north to south, then west to east).
fn places(p: &Loaded, w: &mut World, g: u32, column: &str) -> Result<Vec<(u32, i64, i64, Value)>, Fail> {
    if !p.ir.grids.get(g as usize).is_some_and(|grid| grid.grows) {
        return fail(
            "areas are found on a grid that grows: a board given by its size has no rows laid on it",
        );
    }
    w.read(Part::Grid(g));
    let mut out: Vec<(u32, i64, i64, Value)> = w
        .grown
        .grid_cells(g)
        .map(|(loc, q, r, row)| {
            let key = p.ir.rows.get(row as usize).and_then(|v| v.get(column)).cloned().unwrap_or(Value::None);
            (loc, q, r, key)
        })
        .collect();
    out.sort_by_key(|(_, q, r, _)| (*r, *q));
    Ok(out)
}

/// The areas of grid `g` under `column` as the grid stands: kept until it changes (`Kept`).
fn labelling(p: &Loaded, w: &mut World, g: u32, column: &Arc<str>) -> Result<Arc<Labelling>, Fail> {
    let same = |kc: &Arc<str>| Arc::ptr_eq(kc, column) || kc == column;
    if let Some((_, kept)) = w.areas.found.iter().find(|((kg, kc), _)| *kg == g && same(kc)) {
        let kept = kept.clone();
        w.read(Part::Grid(g));
        return Ok(kept);
    }
    let found = Arc::new(label(p, w, g, column)?);
    w.areas.found.push(((g, column.clone()), found.clone()));
    Ok(found)
}

fn label(p: &Loaded, w: &mut World, g: u32, column: &Arc<str>) -> Result<Labelling, Fail> {
    let cells = places(p, w, g, column)?;
    let (base, span) = w.grown.span();
    // Each grown cell's place in reading order (`NONE`: not a cell of this grid), and its area.
    let mut rank = vec![NONE; span];
    for (i, (loc, ..)) in cells.iter().enumerate() {
        rank[(loc - base) as usize] = i as u32;
    }
    let mut of = vec![NONE; span];
    let mut areas = Vec::new();
    let mut todo = Vec::new();
    for (loc, _, _, want) in &cells {
        if of[(loc - base) as usize] != NONE {
            continue;
        }
        let index = areas.len() as u32;
        of[(loc - base) as usize] = index;
        let mut found = vec![rank[(loc - base) as usize]];
        todo.push(*loc);
        while let Some(here) = todo.pop() {
            for (_, nb) in w.grown.beside(here).into_iter().flatten() {
                let j = (nb - base) as usize;
                if of[j] == NONE && rank[j] != NONE && cells[rank[j] as usize].3 == *want {
                    of[j] = index;
                    found.push(rank[j]);
                    todo.push(nb);
                }
            }
        }
        found.sort_unstable();
        let found = found.into_iter().map(|i| cells[i as usize].0).collect();
        areas.push(Arc::new(Area::new(g, column.clone(), want.clone(), found)));
    }
    let (next, corner) =
        (areas.iter().map(|_| OnceLock::new()).collect(), areas.iter().map(|_| OnceLock::new()).collect());
    Ok(Labelling { areas, of, base, next, corner })
}

/// `areas(GRID, COLUMN)` (`many`), or `area(CELL, COLUMN)`; a cell stands for its grid in
/// `areas` too.
pub fn find(p: &Loaded, w: &mut World, given: &Value, column: &Arc<str>, many: bool) -> Result<Value, Fail> {
    let g = match given {
        Value::Grid(g) => *g,
        Value::Cell(loc) => match coords(p, w, *loc) {
            Some((g, _, _)) => g,
            None => return fail("not a cell of a grid"),
        },
        other => {
            // The words of builtins.py's _Areas (`first`): what its first argument is.
            let first =
                if many { "a grid map or a list of a map's nodes" } else { "a cell of a grid or a map node" };
            let name = if many { "areas" } else { "area" };
            return fail(format!("{name}'s first argument is {first}, not {}", other.a_kind()));
        }
    };
    let found = labelling(p, w, g, column)?;
    if many {
        return Ok(Value::List(Arc::new(found.areas.iter().cloned().map(Value::Area).collect())));
    }
    let Value::Cell(loc) = given else {
        return fail(format!("that {} is not a place of this map", given.type_name()));
    };
    match found.area_of(*loc) {
        Some(i) => Ok(Value::Area(found.areas[i].clone())),
        None => fail("that cell is not a place of this map"),
    }
}

/// `next_to(AREA)` (or, `corner`, `corner_to(AREA)`): the areas beside it as the grid stands now,
/// in the order of their first cells; an area gone since it was found is an error.
pub fn beside(p: &Loaded, w: &mut World, given: &Value, corner: bool) -> Result<Value, Fail> {
    let name = if corner { "corner_to" } else { "next_to" };
    let Value::Area(area) = given else {
        return fail(format!("{name} is asked of an area, not {}", given.a_kind()));
    };
    let now = labelling(p, w, area.grid, &area.column)?;
    let mine = match area.cells.first().and_then(|c| now.area_of(*c)) {
        Some(i) if Arc::ptr_eq(&now.areas[i], area) || now.areas[i] == *area => i,
        _ => return fail("the area has changed since it was found: find it again"),
    };
    let kept = if corner { &now.corner[mine] } else { &now.next[mine] };
    if let Some(found) = kept.get() {
        return Ok(found.clone());
    }
    let found = Value::List(Arc::new(
        around(p, w, &now, mine, corner).into_iter().map(|i| Value::Area(now.areas[i].clone())).collect(),
    ));
    Ok(kept.get_or_init(|| found).clone())
}

/// The indexes of the areas beside area `mine` (or at its corners only), in the order of their
/// first cells.
fn around(p: &Loaded, w: &World, now: &Labelling, mine: usize, corner: bool) -> Vec<usize> {
    let area = &now.areas[mine];
    let ranked = |places: &mut dyn Iterator<Item = u32>| -> Vec<usize> {
        let mut found: Vec<usize> = places.filter_map(|c| now.area_of(c)).filter(|i| *i != mine).collect();
        found.sort_unstable();
        found.dedup();
        found
    };
    let next = ranked(
        &mut area.cells.iter().flat_map(|c| w.grown.beside(*c).into_iter().flatten().map(|(_, nb)| nb)),
    );
    if !corner {
        return next;
    }
    let mut diagonal = Vec::new();
    if !p.ir.grids[area.grid as usize].hex {
        for c in &area.cells {
            if let Some((g, q, r)) = coords(p, w, *c) {
                diagonal.extend(SQUARE_CORNERS.iter().filter_map(|(dq, dr)| w.grown.get(g, q + dq, r + dr)));
            }
        }
    }
    ranked(&mut diagonal.into_iter()).into_iter().filter(|i| !next.contains(i)).collect()
}

/// Whether an attribute read of an area is its cells (`A.cells`), which `X in A.cells` answers
/// from the area itself without listing them (vm::binary).
pub fn names_cells(p: &Loaded, name: &AttrIr) -> bool {
    match name {
        AttrIr::Shaped(word) => word == "cells",
        AttrIr::Column(column) => p.column_name(*column) == "cells",
        _ => false,
    }
}

/// An area's own attributes.
const AREA_OWN: [&str; 4] = ["cells", "first", "blocks", "gaps"];

/// An attribute of an area (its `cells`, `first`, `blocks`, `gaps`; any other is its first
/// cell's), or of a border (`new`, `old`); None for any other value.
pub fn attr(p: &Loaded, w: &mut World, obj: &Value, name: &AttrIr) -> Result<Option<Value>, Fail> {
    match (obj, name) {
        // An area's own attributes come first, whatever else the name is (a column of some
        // table too: compiler/expressions.py's `attr` asks areas.ATTRIBUTES first).
        (Value::Area(area), AttrIr::Shaped(word)) if AREA_OWN.contains(&word.as_str()) => {
            Ok(Some(area_attr(p, w, area, word)))
        }
        (Value::Area(area), AttrIr::Column(column)) if AREA_OWN.contains(&p.column_name(*column)) => {
            let word = p.column_name(*column).to_owned();
            Ok(Some(area_attr(p, w, area, &word)))
        }
        (Value::Area(area), _) => {
            let first = Value::Cell(area.cells.first().copied().unwrap_or_default());
            crate::vm::attr(p, w, first, name).map(Some)
        }
        (Value::Border(row, _), AttrIr::Shaped(word)) if word == "new" => Ok(Some(Value::Row(*row))),
        (Value::Border(_, cell), AttrIr::Shaped(word)) if word == "old" => Ok(Some(Value::Cell(*cell))),
        _ => Ok(None),
    }
}

fn area_attr(p: &Loaded, w: &mut World, area: &Area, word: &str) -> Value {
    let cells = || area.cells.iter().map(|c| Value::Cell(*c));
    match word {
        "cells" => Value::List(Arc::new(cells().collect())),
        "first" => cells().next().unwrap_or(Value::None),
        "blocks" => {
            // The layer each cell lies on, each once, in the order of the cells.
            let mut out: Vec<Value> = Vec::new();
            for c in &area.cells {
                if let Some(layer) = w.grown.layer(*c) {
                    let laid = Value::Placement(layer.into());
                    if !out.contains(&laid) {
                        out.push(laid);
                    }
                }
            }
            Value::List(Arc::new(out))
        }
        _ => {
            // The free places beside it, as [x, y] of blocks (of cells, without blocks), north to
            // south, then west to east, each once.
            let k = block(p, area.grid);
            w.read(Part::Grid(area.grid));
            let mut gaps: Vec<(i64, i64)> = Vec::new();
            for c in &area.cells {
                let Some((g, q, r)) = coords(p, w, *c) else { continue };
                for (dq, dr) in sides_of(p, g) {
                    if w.grown.get(g, q + dq, r + dr).is_none() {
                        gaps.push(((r + dr).div_euclid(k), (q + dq).div_euclid(k)));
                    }
                }
            }
            gaps.sort_unstable();
            gaps.dedup();
            let pair = |(y, x): (i64, i64)| Value::List(Arc::new(vec![Value::Int(x), Value::Int(y)]));
            Value::List(Arc::new(gaps.into_iter().map(pair).collect()))
        }
    }
}

/// `borders(PLACEMENT)`: the sides a placement would share with cells already on its grid: for
/// each of its cells, in the order of its rows, each side facing a cell it does not cover
/// (grids.py's `borders`).
pub fn borders(p: &Loaded, w: &mut World, spot: &Value) -> Result<Value, Fail> {
    let Value::Placement(spot) = spot else {
        return fail(format!("borders are a placement's, not a {}'s", spot.type_name()));
    };
    let spot: &Spot = spot;
    // A shape has a few cells: looked for among them in turn, with nothing hashed or made.
    let mine: &[(i64, i64)] = &spot.turned;
    let mut out = Vec::new();
    for ((q, r), row) in spot.coords().zip(spot.rows.iter()) {
        for (dq, dr) in sides_of(p, spot.grid) {
            let there = (q + dq, r + dr);
            if mine.contains(&(there.0 - spot.shift.0, there.1 - spot.shift.1)) {
                continue;
            }
            if let Some(cell) = cell_at(p, w, spot.grid, there.0, there.1) {
                out.push(Value::Border(*row, cell));
            }
        }
    }
    Ok(Value::List(Arc::new(out)))
}

/// The locations of an area's cells: where its pieces are (`pieces(a)`, `move ... from a`).
pub fn locations(area: &Area) -> Vec<Value> {
    area.cells.iter().map(|c| Value::Cell(*c)).collect()
}
