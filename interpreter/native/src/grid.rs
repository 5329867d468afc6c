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
    /// The location of the grid's first cell: its cells are the locations from it on, one each.
    first: u32,
    /// How many cells it has.
    size: u32,
    /// One direction of each line through a cell (of a direction and its opposite, the first
    /// in the grid's order): what `in_a_row` walks along, found once.
    axes: Vec<(i64, i64)>,
    /// Where the board fits a word with a column to spare east of it (Tic-Tac-Toe's 3 by 3,
    /// Connect Four's 7 by 6): each cell's bit in it, by the cell's place among the board's, and
    /// each axis as the shift that steps one cell along it (`in_a_row` by shifts).
    word: Option<(Vec<u8>, Vec<i64>)>,
    /// Every cell, in reading order: what `cells(GRID)` gives, shared rather than made anew.
    pub cells: Value,
    /// The cells along each side, by the set of directions (a bit each) the side has no cell
    /// beyond: what `side(GRID, word)` gives, found once rather than at every asking.
    sides: Vec<Value>,
    /// Whether the cells fill the board's bounding box, row by row from the north-west: then
    /// the cell at (q + dq, r + dr) is `dq + dr * width` cells on from the one at (q, r).
    filled: bool,
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
        let mut axes: Vec<(i64, i64)> = Vec::new();
        for &(dq, dr) in directions.iter().chain(corners) {
            if !axes.contains(&(-dq, -dr)) {
                axes.push((dq, dr));
            }
        }
        let mut index = GridIndex {
            west,
            north,
            width,
            height,
            at,
            directions,
            corners,
            first: grid.first,
            size: grid.cells.len() as u32,
            word: None,
            axes,
            cells: Value::List(Arc::new(cells)),
            sides: Vec::new(),
            filled: grid.cells.len() as i64 == width.max(0) * height.max(0)
                && grid.cells.iter().enumerate().all(|(i, cell)| {
                    *cell == (west + i as i64 % width.max(1), north + i as i64 / width.max(1))
                }),
        };
        // Row by row, a column wider than the board: a step across its east or west edge lands
        // in that spare column, which no cell has, as a step off the board finds no cell.
        let fits = (width + 1).checked_mul(height).is_some_and(|bits| bits <= 64);
        if fits && index.axes.iter().all(|(dq, _)| dq.abs() <= 1) {
            let bits =
                grid.cells.iter().map(|(q, r)| ((r - north) * (width + 1) + (q - west)) as u8).collect();
            let shifts = index.axes.iter().map(|(dq, dr)| dq + dr * (width + 1)).collect();
            index.word = Some((bits, shifts));
        }
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

    /// The board's cells as locations: the first, and how many (its cells are the locations
    /// from the first on, one each, in reading order).
    pub fn span(&self) -> (u32, u32) {
        (self.first, self.size)
    }

    /// The board's width and height, where its cells fill them row by row (a board given by its
    /// size, square or hex).
    pub fn rectangle(&self) -> Option<(u32, u32)> {
        self.filled.then_some((self.width as u32, self.height as u32))
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

/// `words` words of bits, all clear, for a board's cells a bit each: on the stack (`small`) for
/// a board of up to 256 cells, else in `large`.
#[inline(always)]
pub(crate) fn scratch<'a>(words: usize, small: &'a mut [u64; 4], large: &'a mut Vec<u64>) -> &'a mut [u64] {
    if words <= small.len() {
        &mut small[..words]
    } else {
        large.resize(words, 0);
        large
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

/// Whether `n` of the cells lie in a straight line, each next to the one before. Asked after
/// every move of a game that is won by a line, so nothing is made per asking beyond a mark per
/// cell of the grid (on the stack for a grid of up to 256 cells): the runs are counted along the
/// grid's axes from each cell that starts one.
pub fn in_a_row(p: &Loaded, cells: &[Value], n: i64) -> Result<bool, Fail> {
    if n < 1 {
        return fail(&format!("cells in a row are counted from 1, not {n}"));
    }
    let Some(first) = cells.first() else {
        return Ok(false);
    };
    let g = cell(p, first)?.0;
    let index = &p.grids[g as usize];
    // The cells, marked by their place among the grid's: each asked of its neighbours without
    // hashing coordinates.
    let words = p.ir.grids[g as usize].cells.len().div_ceil(64);
    let (mut small, mut large) = ([0u64; 4], Vec::new());
    let marks = scratch(words, &mut small, &mut large);
    for c in cells {
        let (grid, _, _) = cell(p, c)?;
        if grid != g {
            return fail("cells in a row are cells of one grid");
        }
        let at = match c {
            Value::Cell(loc) => loc.checked_sub(index.first).map(|i| i as usize),
            _ => None,
        };
        if let Some(i) = at.filter(|i| i / 64 < marks.len()) {
            marks[i / 64] |= 1 << (i % 64);
        }
    }
    Ok(runs(p, g, marks, n))
}

/// `in_a_row` of a set of cells (cells.rs), its bits the marks.
pub(crate) fn in_a_row_of(p: &Loaded, set: crate::cells::Cells<'_>, n: i64) -> Result<bool, Fail> {
    if n < 1 {
        return fail(&format!("cells in a row are counted from 1, not {n}"));
    }
    Ok(runs(p, set.grid, set.bits, n))
}

/// Whether `n` of the cells of grid `g` marked (a bit each, by their place among the grid's)
/// lie in a straight line: by shifts of a word where the grid fits one, else walked along each
/// axis from each marked cell that starts a run.
fn runs(p: &Loaded, g: u32, marks: &[u64], n: i64) -> bool {
    let index = &p.grids[g as usize];
    let marked_cells = || {
        marks.iter().enumerate().flat_map(|(word, bits)| {
            let mut bits = *bits;
            std::iter::from_fn(move || {
                (bits != 0).then(|| {
                    let i = word * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    i
                })
            })
        })
    };
    if let Some((bits, shifts)) = &index.word {
        let set = marked_cells().fold(0u64, |set, i| set | 1 << bits[i]);
        return shifts.iter().any(|&shift| run(set, shift, n));
    }
    let marked = |q: i64, r: i64| {
        index.get(q, r).is_some_and(|loc| {
            let i = (loc - index.first) as usize;
            marks.get(i / 64).is_some_and(|word| word & (1 << (i % 64)) != 0)
        })
    };
    for i in marked_cells() {
        let Some((_, q, r)) = p.ir.locations[index.first as usize + i].cell else { continue };
        for &(dq, dr) in &index.axes {
            if marked(q - dq, r - dr) {
                continue;
            }
            let mut length = 1;
            while marked(q + length * dq, r + length * dr) {
                length += 1;
            }
            if length >= n {
                return true;
            }
        }
    }
    false
}

/// Whether `set` has `n` bits in a row, each `shift` places from the one before (a negative
/// shift: towards the low bits): the bits that start such a run, found by stepping the set
/// along itself `n - 1` times.
fn run(set: u64, shift: i64, n: i64) -> bool {
    let step = |bits: u64| match u32::try_from(shift.unsigned_abs()).ok().filter(|s| *s < 64) {
        Some(by) if shift > 0 => bits >> by,
        Some(by) => bits << by,
        None => 0,
    };
    let (mut starts, mut along) = (set, set);
    for _ in 1..n.min(65) {
        along = step(along);
        starts &= along;
        if starts == 0 {
            return false;
        }
    }
    starts != 0
}

/// Whether a chain of `places`, each next to the one before, runs from one of `starts` to one
/// of `ends`. Where every place is a cell of a board given by size (the usual question: are a
/// player's stones joined from side to side?), the answer is kept as its places grow (`Joins`).
pub(crate) fn connected(
    p: &Loaded,
    joins: &mut Joins,
    places: &[Value],
    starts: &Arc<Vec<Value>>,
    ends: &Arc<Vec<Value>>,
) -> Result<bool, Fail> {
    if let Some(joined) = joins.answer(p, places, starts, ends) {
        return Ok(joined);
    }
    search(p, places, starts, ends)
}

/// `connected` found by a search from the starts through the places, for places of any kind.
fn search(p: &Loaded, places: &[Value], starts: &[Value], ends: &[Value]) -> Result<bool, Fail> {
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

/// The most connection questions a game keeps (`Joins`): past it, the one kept longest is
/// replaced.
const MOST_JOINS: usize = 4;

/// A cell among the starts, among the ends (`Join::role`, `Join::reach`).
const START: u8 = 1;
const END: u8 = 2;

/// The connection questions last asked of cells of boards given by size, each kept with its
/// places joined into groups (a union-find over the locations). Rules ask the same question after
/// each piece placed (are a player's pieces joined from side to side?), of the same places and
/// one more: the places added since are joined to their groups, rather than a search made over
/// them all (121 cells, at every move). Asked of places that are not a kept question's and more
/// (one taken away), the question is kept anew. `connected` is a function of its arguments alone
/// (a board's cells and their neighbours are the program's), so an answer kept never needs to be
/// forgotten when the position changes. Not part of the position: a copy starts without it.
#[derive(Clone, Debug, Default)]
pub(crate) struct Joins {
    kept: Vec<Join>,
    /// The one to replace next, past `MOST_JOINS`.
    next: usize,
    /// The places asked of, a bit per location, kept between askings for its room.
    asked: Vec<u64>,
}

/// One question kept: its starts and ends, and its places joined.
#[derive(Clone, Debug)]
struct Join {
    starts: Arc<Vec<Value>>,
    ends: Arc<Vec<Value>>,
    /// Whether each location is a cell among the starts (`START`), the ends (`END`), or both.
    role: Vec<u8>,
    /// The places, a bit per location.
    inside: Vec<u64>,
    /// Each place's parent in its group; a group's root is its own parent.
    parent: Vec<u32>,
    /// What each group's places are among (at its root): the starts, the ends, or both.
    reach: Vec<u8>,
    /// Whether a group reaches both: the answer.
    joined: bool,
}

impl Joins {
    /// `connected` kept as its places grow, or None, having kept nothing, where a place is not a
    /// cell of a board given by size.
    fn answer(
        &mut self,
        p: &Loaded,
        places: &[Value],
        starts: &Arc<Vec<Value>>,
        ends: &Arc<Vec<Value>>,
    ) -> Option<bool> {
        let size = p.ir.locations.len();
        let mut asked = std::mem::take(&mut self.asked);
        asked.clear();
        asked.resize(size.div_ceil(64), 0);
        for place in places {
            let Value::Cell(loc) = place else { return None };
            p.ir.locations.get(*loc as usize)?.cell?;
            asked[*loc as usize / 64] |= 1 << (loc % 64);
        }
        Some(self.joined(p, asked, starts, ends))
    }

    /// `connected` of a set of cells (cells.rs), kept as its places grow: its bits moved to the
    /// locations' own.
    pub(crate) fn answer_cells(
        &mut self,
        p: &Loaded,
        set: crate::cells::Cells<'_>,
        starts: &Arc<Vec<Value>>,
        ends: &Arc<Vec<Value>>,
    ) -> bool {
        let mut asked = std::mem::take(&mut self.asked);
        asked.clear();
        asked.resize(p.ir.locations.len().div_ceil(64), 0);
        // Each word of the set's bits moved to the locations' words, `first` bits along.
        let (at, by) = (set.first as usize / 64, set.first % 64);
        for (i, bits) in set.bits.iter().enumerate().filter(|(_, bits)| **bits != 0) {
            if let Some(word) = asked.get_mut(at + i) {
                *word |= bits << by;
            }
            if let (Some(next), true) = (asked.get_mut(at + i + 1), by > 0) {
                *next |= bits >> (64 - by);
            }
        }
        self.joined(p, asked, starts, ends)
    }

    /// Whether the places `asked` (a bit per location, every one a cell of a board given by
    /// size) join a start to an end: the question kept of fewer of them, or kept anew, and the
    /// places added joined to their groups.
    fn joined(
        &mut self,
        p: &Loaded,
        asked: Vec<u64>,
        starts: &Arc<Vec<Value>>,
        ends: &Arc<Vec<Value>>,
    ) -> bool {
        let size = p.ir.locations.len();
        let same = |a: &Arc<Vec<Value>>, b: &Arc<Vec<Value>>| Arc::ptr_eq(a, b) || a == b;
        let grown = self.kept.iter().position(|join| {
            same(&join.starts, starts)
                && same(&join.ends, ends)
                && join.inside.iter().zip(&asked).all(|(kept, now)| kept & !now == 0)
        });
        let at = grown.unwrap_or_else(|| {
            let join = Join::new(size, starts, ends);
            if self.kept.len() < MOST_JOINS {
                self.kept.push(join);
                self.kept.len() - 1
            } else {
                let at = self.next;
                self.kept[at] = join;
                self.next = (at + 1) % MOST_JOINS;
                at
            }
        });
        let join = &mut self.kept[at];
        for (word, now) in asked.iter().enumerate() {
            let mut added = now & !join.inside[word];
            while added != 0 {
                join.add(p, word * 64 + added.trailing_zeros() as usize);
                added &= added - 1;
            }
        }
        let joined = join.joined;
        self.asked = asked;
        joined
    }
}

impl Join {
    /// The question of these starts and ends, of no places yet.
    fn new(size: usize, starts: &Arc<Vec<Value>>, ends: &Arc<Vec<Value>>) -> Join {
        let mut role = vec![0u8; size];
        for (list, flag) in [(starts, START), (ends, END)] {
            for place in list.iter() {
                if let Value::Cell(loc) = place {
                    if let Some(r) = role.get_mut(*loc as usize) {
                        *r |= flag;
                    }
                }
            }
        }
        Join {
            starts: starts.clone(),
            ends: ends.clone(),
            role,
            inside: vec![0; size.div_ceil(64)],
            parent: (0..size as u32).collect(),
            reach: vec![0; size],
            joined: false,
        }
    }

    /// The root of a place's group (each place passed on the way pointed nearer it).
    fn root(&mut self, mut at: usize) -> usize {
        while self.parent[at] as usize != at {
            let up = self.parent[self.parent[at] as usize];
            self.parent[at] = up;
            at = up as usize;
        }
        at
    }

    /// A cell of a board given by size (location `at`) added to the places: joined to the group
    /// of each neighbour among them.
    fn add(&mut self, p: &Loaded, at: usize) {
        self.inside[at / 64] |= 1 << (at % 64);
        self.reach[at] = self.role[at];
        let Some((g, q, r)) = p.ir.locations[at].cell else { return };
        let index = &p.grids[g as usize];
        // A place just added is its own root (no group held it), and stays the root of the
        // groups it joins.
        for (dq, dr) in index.directions {
            let Some(nb) = index.get(q + dq, r + dr) else { continue };
            let nb = nb as usize;
            if self.inside[nb / 64] & (1 << (nb % 64)) == 0 {
                continue;
            }
            let other = self.root(nb);
            if other != at {
                self.parent[other] = at as u32;
                self.reach[at] |= self.reach[other];
            }
        }
        self.joined |= self.reach[at] == START | END;
    }
}

#[cfg(test)]
mod connection_tests {
    //! A hex board of 5 by 5 cells (locations 1 to 25, row by row), its west and east columns
    //! as starts and ends, and places that grow, and sometimes lose one.
    use super::{search, Joins};
    use crate::rng::Mt;
    use crate::value::Value;
    use crate::vm::Loaded;
    use std::sync::Arc;

    const SIDE: i64 = 5;

    fn board() -> Loaded {
        let mut ir: serde_json::Value = crate::vm::tiny_program();
        let cells: Vec<(i64, i64)> = (0..SIDE).flat_map(|r| (0..SIDE).map(move |q| (q, r))).collect();
        let mut locations = vec![ir["locations"][0].clone()];
        locations.extend(cells.iter().map(|(q, r)| serde_json::json!({"cell": [0, q, r], "owner": "None"})));
        ir["locations"] = serde_json::Value::Array(locations);
        ir["grids"] = serde_json::json!([{"hex": true, "first": 1, "cells": cells, "owner": null}]);
        Loaded::new(serde_json::from_value(ir).expect("the program loads"))
    }

    fn cell(q: i64, r: i64) -> Value {
        Value::Cell((1 + r * SIDE + q) as u32)
    }

    fn column(q: i64) -> Arc<Vec<Value>> {
        Arc::new((0..SIDE).map(|r| cell(q, r)).collect())
    }

    #[test]
    fn a_connection_kept_as_its_places_grow_answers_as_a_search_afresh() {
        let p = board();
        let (west, east, north) =
            (column(0), column(SIDE - 1), Arc::new((0..SIDE).map(|q| cell(q, 0)).collect()));
        for seed in 0..40 {
            let mut rng = Mt::new(seed);
            let mut joins = Joins::default();
            // Two sets of places, each asked of its own question in turn, as two players' pieces.
            let mut places: [Vec<Value>; 2] = [Vec::new(), Vec::new()];
            for step in 0..60 {
                let who = step % 2;
                let x = cell(rng.randbelow(SIDE as u64) as i64, rng.randbelow(SIDE as u64) as i64);
                if rng.randbelow(8) == 0 && !places[who].is_empty() {
                    let gone = rng.randbelow(places[who].len() as u64) as usize;
                    places[who].remove(gone);
                } else if !places[who].contains(&x) {
                    places[who].push(x);
                }
                let ends = if who == 0 { &east } else { &north };
                let kept = joins.answer(&p, &places[who], &west, ends);
                let afresh = search(&p, &places[who], &west, ends).expect("a search");
                assert_eq!(kept, Some(afresh), "seed {seed}, step {step}");
            }
        }
    }

    #[test]
    fn a_connection_asked_again_of_one_place_more_is_the_question_kept() {
        // West to east along the middle row, one cell at a time: one question kept, joined when
        // the row is whole; asked of fewer places, it is kept anew beside it.
        let p = board();
        let (west, east) = (column(0), column(SIDE - 1));
        let mut joins = Joins::default();
        let mut places = Vec::new();
        for q in 0..SIDE {
            assert_eq!(joins.answer(&p, &places, &west, &east), Some(false));
            places.push(cell(q, 2));
        }
        assert_eq!(joins.answer(&p, &places, &west, &east), Some(true));
        assert_eq!(joins.kept.len(), 1);
        places.remove(2);
        assert_eq!(joins.answer(&p, &places, &west, &east), Some(false));
        assert_eq!(joins.kept.len(), 2);
        // A place that is no cell of a board given by size: no answer kept, the search asks.
        assert_eq!(joins.answer(&p, &[Value::Int(1)], &west, &east), None);
        for place in
            [Value::Cell(0), Value::Cell(1 + (SIDE * SIDE) as u32), Value::Cell(64), Value::Cell(u32::MAX)]
        {
            assert_eq!(joins.answer(&p, &[cell(0, 0), place.clone()], &west, &east), None, "{place:?}");
        }
    }
}

#[cfg(test)]
mod line_tests {
    use super::in_a_row;
    use crate::rng::Mt;
    use crate::value::Value;
    use crate::vm::Loaded;

    /// The tiny program with its board made `width` by `height` square cells, its cells the
    /// locations from 1 in reading order.
    fn board(width: i64, height: i64) -> Loaded {
        shaped(width, height, false)
    }

    /// The same, of hexagons (axial coordinates) where `hex`.
    fn shaped(width: i64, height: i64, hex: bool) -> Loaded {
        let mut ir: serde_json::Value = crate::vm::tiny_program();
        ir["grids"][0]["hex"] = hex.into();
        let cells: Vec<(i64, i64)> = (0..height).flat_map(|r| (0..width).map(move |q| (q, r))).collect();
        let mut locations = vec![serde_json::json!({"cell": null, "owner": "None"})];
        locations.extend(cells.iter().map(|(q, r)| serde_json::json!({"cell": [0, q, r], "owner": "None"})));
        ir["locations"] = locations.into();
        ir["grids"][0]["cells"] = serde_json::json!(cells);
        Loaded::new(serde_json::from_value(ir).expect("the program loads"))
    }

    fn row(p: &Loaded, width: i64, cells: &[(i64, i64)], n: i64) -> bool {
        let cells: Vec<Value> = cells.iter().map(|(q, r)| Value::Cell((1 + r * width + q) as u32)).collect();
        in_a_row(p, &cells, n).expect("the cells are of one grid")
    }

    #[test]
    fn cells_in_a_row_are_runs_along_sides_and_diagonals() {
        let p = board(3, 3);
        assert!(row(&p, 3, &[(0, 0), (1, 1), (2, 2)], 3));
        assert!(row(&p, 3, &[(2, 0), (1, 1), (0, 2)], 3));
        assert!(row(&p, 3, &[(1, 0), (1, 2), (1, 1)], 3));
        assert!(!row(&p, 3, &[(0, 0), (1, 1), (2, 1)], 3));
        assert!(row(&p, 3, &[(2, 1)], 1) && !row(&p, 3, &[], 1));
    }

    /// A board of more cells than are marked on the stack (300): its last rows count as its
    /// first, and a run stops at the board's edge rather than going on into the next row.
    #[test]
    fn cells_in_a_row_on_a_large_board_count_to_its_last_cell() {
        let p = board(20, 15);
        let run = [(10, 14), (11, 14), (12, 14), (13, 14)];
        assert!(row(&p, 20, &run, 4) && !row(&p, 20, &run, 5));
        assert!(row(&p, 20, &[(16, 11), (17, 12), (18, 13), (19, 14)], 4));
        assert!(!row(&p, 20, &[(18, 0), (19, 0), (0, 1), (1, 1)], 3));
    }

    /// A board that fits a word with a column to spare finds its runs by shifting the word: the
    /// same answers as walking the lines, for any cells marked (runs across an edge are none).
    #[test]
    fn cells_in_a_row_found_by_shifts_of_a_word_are_those_found_by_walking_along_the_lines() {
        for (width, height, hex) in
            [(3, 3, false), (7, 6, false), (1, 8, false), (8, 1, true), (5, 5, true), (7, 7, true)]
        {
            let shifted = shaped(width, height, hex);
            let mut walked = shaped(width, height, hex);
            walked.grids[0].word = None;
            assert!(shifted.grids[0].word.is_some(), "{width} by {height}");
            for seed in 0..60 {
                let mut rng = Mt::new(seed);
                let cells: Vec<Value> =
                    (1..=(width * height) as u32).filter(|_| rng.randbelow(3) > 0).map(Value::Cell).collect();
                for n in 1..=7 {
                    let by_shifts = in_a_row(&shifted, &cells, n).expect("cells of one grid");
                    let by_walking = in_a_row(&walked, &cells, n).expect("cells of one grid");
                    assert_eq!(by_shifts, by_walking, "{width} by {height}, hex {hex}, seed {seed}, n {n}");
                }
            }
        }
        // Too wide for a word with a column to spare: walked.
        assert!(board(8, 8).grids[0].word.is_none() && board(7, 8).grids[0].word.is_some());
    }

    #[test]
    fn a_board_fills_its_rectangle_where_its_cells_are_every_place_of_it_row_by_row() {
        for (width, height, hex) in [(3, 3, false), (7, 6, false), (1, 8, false), (11, 11, true)] {
            assert_eq!(shaped(width, height, hex).grids[0].rectangle(), Some((width as u32, height as u32)));
        }
        let grid = |cells: serde_json::Value| -> super::GridIndex {
            let ir = serde_json::json!({"hex": false, "first": 1, "cells": cells, "owner": null});
            super::GridIndex::new(&serde_json::from_value(ir).expect("a grid"))
        };
        // A cell missing (a triangle), or the cells column by column: no shift steps between them.
        assert_eq!(grid(serde_json::json!([[0, 0], [1, 0], [0, 1]])).rectangle(), None);
        assert_eq!(grid(serde_json::json!([[0, 0], [0, 1], [1, 0], [1, 1]])).rectangle(), None);
        assert_eq!(grid(serde_json::json!([[2, 5], [3, 5], [2, 6], [3, 6]])).rectangle(), Some((2, 2)));
    }
}
