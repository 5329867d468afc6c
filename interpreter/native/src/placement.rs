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
use crate::value::{Spot, SpotRef, Value, Way};
use crate::vm::{Fail, FailKind, Fast, Loaded, Part, World};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;

fn fail<T>(message: impl Into<String>) -> Result<T, Fail> {
    Err(Fail { kind: FailKind::Error(message.into()), at: None })
}

/// The cells laid on the grids that grow, in one game: plain data, copied with the game.
#[derive(Debug, Default)]
pub struct Grown {
    /// The location of the first grown cell: every location before it is the program's own.
    base: u32,
    /// Each grown cell, by its location less `base`: its grid, (q, r), and the row it shows.
    cells: Vec<(u32, i64, i64, u32)>,
    /// Each grown cell's location by (grid, q, r), hashed (the rules ask what lies beside a
    /// cell many times a decision): found from `cells` and `tops`, so left out of equality and
    /// hashing.
    at: HashMap<(u32, i64, i64), u32, Fast>,
    /// Every shape laid, in the order laid (a layer: the placement it was laid at); each grown
    /// cell's top layer, by its location less `base` (`GONE` once its last layer is lifted); and
    /// the layers under the top, bottom first, of the few cells that have more than one: the
    /// row a cell shows is its top layer's (layers.rs). Kept flat so that a copy stays cheap.
    pub(crate) layers: Vec<Arc<Spot>>,
    tops: Vec<u32>,
    under: BTreeMap<u32, Vec<u32>>,
    /// Each grown cell's neighbours, by its location less `base`: the location across each of
    /// its grid's sides, in the sides' order (`NONE` where no cell lies), kept as cells come and
    /// go, so that a step from a cell (a route's search, `neighbours`) reads them rather than
    /// hashing coordinates. Found from `at`, so left out of equality and hashing.
    around: Vec<[u32; 6]>,
    /// Whether each grid is of hexes (six sides) or squares (four), by the grid's index.
    hex: Arc<[bool]>,
}

impl Clone for Grown {
    fn clone(&self) -> Grown {
        let Grown { base, cells, at, layers, tops, under, around, hex } = self;
        Grown {
            base: *base,
            cells: cells.clone(),
            at: at.clone(),
            layers: layers.clone(),
            tops: tops.clone(),
            under: under.clone(),
            around: around.clone(),
            hex: hex.clone(),
        }
    }

    /// Field by field, each list keeping its allocation: a stream of playouts lays each game over
    /// the one before (playouts.rs), and the derived copy allocated every list anew and dropped
    /// the old ones, for every game. Every field is named, so that a field added is not forgotten.
    fn clone_from(&mut self, source: &Grown) {
        let Grown { base, cells, at, layers, tops, under, around, hex } = source;
        self.base = *base;
        self.cells.clone_from(cells);
        self.at.clone_from(at);
        self.layers.clone_from(layers);
        self.tops.clone_from(tops);
        self.under.clone_from(under);
        self.around.clone_from(around);
        self.hex.clone_from(hex);
    }
}

impl PartialEq for Grown {
    fn eq(&self, other: &Grown) -> bool {
        (self.base, &self.cells, &self.layers, &self.tops, &self.under)
            == (other.base, &other.cells, &other.layers, &other.tops, &other.under)
    }
}

impl Eq for Grown {}

impl std::hash::Hash for Grown {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        (self.base, &self.cells, &self.layers, &self.tops, &self.under).hash(state);
    }
}

/// The top layer of a cell that is gone.
const GONE: u32 = u32::MAX;

/// No cell across a side (`Grown::around`).
const NONE: u32 = u32::MAX;

impl Grown {
    pub fn new(ir: &Program) -> Grown {
        let hex = ir.grids.iter().map(|g| g.hex).collect();
        Grown { base: ir.locations.len() as u32, hex, ..Grown::default() }
    }

    /// A grid's sides, in their order.
    fn sides(&self, g: u32) -> &'static [(i64, i64)] {
        if self.hex.get(g as usize).copied().unwrap_or(false) {
            &HEX_SIDES
        } else {
            &SQUARE_SIDES
        }
    }

    /// A new cell at (q, r) of grid `g` (its location `loc`): it and the cells beside it learn
    /// of each other.
    fn link(&mut self, g: u32, q: i64, r: i64, loc: u32) {
        let sides = self.sides(g);
        let mut mine = [NONE; 6];
        for (d, (dq, dr)) in sides.iter().enumerate() {
            if let Some(nb) = self.get(g, q + dq, r + dr) {
                mine[d] = nb;
                if let Some(theirs) = self.around.get_mut((nb - self.base) as usize) {
                    theirs[opposite(sides, d)] = loc;
                }
            }
        }
        let i = (loc - self.base) as usize;
        if self.around.len() <= i {
            self.around.resize(i + 1, [NONE; 6]);
        }
        self.around[i] = mine;
    }

    /// A new cell at (q, r) of grid `g`, showing `row` of `layer`: its location.
    fn add(&mut self, g: u32, q: i64, r: i64, row: u32, layer: u32) -> u32 {
        let loc = self.base + self.cells.len() as u32;
        self.cells.push((g, q, r, row));
        self.tops.push(layer);
        self.at.insert((g, q, r), loc);
        self.link(g, q, r, loc);
        loc
    }

    /// A cell that goes: the cells beside it forget it.
    fn unlink(&mut self, i: usize) {
        let Some(mine) = self.around.get(i).copied() else { return };
        let sides = self.sides(self.cells[i].0);
        for (d, nb) in mine.iter().enumerate().take(sides.len()) {
            if let Some(theirs) = nb.checked_sub(self.base).and_then(|j| self.around.get_mut(j as usize)) {
                theirs[opposite(sides, d)] = NONE;
            }
        }
        self.around[i] = [NONE; 6];
    }

    /// The cells next to a grown cell that is there, each with the index of its side, in the
    /// sides' order; None for any other location (a cell gone has no entry to keep).
    pub(crate) fn beside(&self, loc: u32) -> Option<impl Iterator<Item = (usize, u32)> + '_> {
        let i = loc.checked_sub(self.base)? as usize;
        if self.tops.get(i).is_none_or(|top| *top == GONE) {
            return None;
        }
        let (around, n) = (self.around.get(i)?, self.sides(self.cells.get(i)?.0).len());
        Some(around[..n].iter().copied().enumerate().filter(|(_, nb)| *nb != NONE))
    }

    /// The location of the first grown cell, and how many have been laid (those gone included):
    /// a grown cell's location less the first is below that count.
    pub(crate) fn span(&self) -> (u32, usize) {
        (self.base, self.cells.len())
    }

    /// A grown cell's grid, (q, r) and the row it shows; None for the program's own locations.
    pub fn cell(&self, loc: u32) -> Option<(u32, i64, i64, u32)> {
        loc.checked_sub(self.base).and_then(|i| self.cells.get(i as usize)).copied()
    }

    /// The top layer of a grown cell (what `a.blocks` and `c.placed` give).
    pub fn layer(&self, loc: u32) -> Option<Arc<Spot>> {
        let i = loc.checked_sub(self.base)?;
        let top = *self.tops.get(i as usize)?;
        (top != GONE).then(|| self.layers[top as usize].clone())
    }

    /// The layers a grown cell holds, bottom first (none for any other location).
    pub(crate) fn stack(&self, loc: u32) -> Vec<u32> {
        let Some(i) = loc.checked_sub(self.base) else { return Vec::new() };
        let Some(top) = self.tops.get(i as usize).copied().filter(|t| *t != GONE) else { return Vec::new() };
        let mut stack = self.under.get(&i).cloned().unwrap_or_default();
        stack.push(top);
        stack
    }

    /// A layer laid over a grown cell: its top now.
    fn cover(&mut self, loc: u32, layer: u32) {
        let i = loc - self.base;
        let old = std::mem::replace(&mut self.tops[i as usize], layer);
        self.under.entry(i).or_default().push(old);
    }

    /// A grown cell shows another row (a layer over it, or lifted off it).
    pub(crate) fn show(&mut self, loc: u32, row: u32) {
        if let Some(cell) = loc.checked_sub(self.base).and_then(|i| self.cells.get_mut(i as usize)) {
            cell.3 = row;
        }
    }

    /// Take a cell's top layer off: it shows the layer under it again, or goes with none left.
    pub(crate) fn take_off(&mut self, loc: u32) {
        let i = (loc - self.base) as usize;
        let next = self.under.get_mut(&(i as u32)).and_then(Vec::pop);
        if self.under.get(&(i as u32)).is_some_and(Vec::is_empty) {
            self.under.remove(&(i as u32));
        }
        self.tops[i] = next.unwrap_or(GONE);
        let (g, q, r, _) = self.cells[i];
        match next {
            Some(below) => {
                let below = self.layers[below as usize].clone();
                let at = below.coords().position(|c| c == (q, r));
                if let Some(k) = at {
                    self.cells[i].3 = below.rows[k];
                }
            }
            None => {
                self.at.remove(&(g, q, r));
                self.unlink(i);
            }
        }
    }

    /// How many cells and layers there are: what a supposition puts back (layers.rs).
    pub(crate) fn mark(&self) -> (usize, usize) {
        (self.cells.len(), self.layers.len())
    }

    /// Forget the cells and layers laid since `mark`, for a supposition that is over: they
    /// are the last ones, and none of them holds a piece.
    pub(crate) fn truncate(&mut self, (cells, layers): (usize, usize)) {
        for i in (cells..self.cells.len()).rev() {
            self.unlink(i);
        }
        self.around.truncate(cells);
        for (g, q, r, _) in self.cells.drain(cells..) {
            self.at.remove(&(g, q, r));
        }
        self.tops.truncate(cells);
        self.under.split_off(&(cells as u32));
        self.layers.truncate(layers);
    }

    /// Move a grid's cells, and the layers lying on them, by (dq, dr) (shift.rs); None, moving
    /// nothing, where a coordinate would overflow (a cell is where its layers are, so checking
    /// the layers' coordinates checks the cells').
    pub(crate) fn shift(&mut self, g: u32, dq: i64, dr: i64) -> Option<()> {
        let live: Vec<usize> = self.of(g).map(|(i, _)| i).collect();
        let mut moved: Vec<u32> = Vec::new();
        for &i in &live {
            moved.push(self.tops[i]);
            moved.extend(self.under.get(&(i as u32)).into_iter().flatten());
        }
        moved.sort_unstable();
        moved.dedup();
        let mut spots = Vec::new();
        for &id in &moved {
            let spot = &self.layers[id as usize];
            let shift = (spot.shift.0.checked_add(dq)?, spot.shift.1.checked_add(dr)?);
            for (q, r) in spot.turned.iter() {
                q.checked_add(shift.0)?;
                r.checked_add(shift.1)?;
            }
            spots.push((id, Spot { shift, ..(**spot).clone() }));
        }
        for (id, spot) in spots {
            self.layers[id as usize] = Arc::new(spot);
        }
        for &i in &live {
            let (_, q, r, _) = self.cells[i];
            self.at.remove(&(g, q, r));
        }
        for &i in &live {
            let cell = &mut self.cells[i];
            (cell.1, cell.2) = (cell.1 + dq, cell.2 + dr);
            self.at.insert((g, cell.1, cell.2), self.base + i as u32);
        }
        Some(())
    }

    pub(crate) fn get(&self, g: u32, q: i64, r: i64) -> Option<u32> {
        self.at.get(&(g, q, r)).copied()
    }

    /// A grid's cells in the order they were laid (what `cells(GRID)` gives).
    fn of(&self, g: u32) -> impl Iterator<Item = (usize, &(u32, i64, i64, u32))> {
        self.cells.iter().enumerate().filter(move |(i, c)| c.0 == g && self.tops[*i] != GONE)
    }

    /// A grid's cells in the order they were laid: each one's location, (q, r) and row.
    pub fn grid_cells(&self, g: u32) -> impl Iterator<Item = (u32, i64, i64, u32)> + '_ {
        self.of(g).map(|(i, c)| (self.base + i as u32, c.1, c.2, c.3))
    }
}

/// The index of the side opposite side `d` (the offsets come in opposite pairs).
fn opposite(sides: &[(i64, i64)], d: usize) -> usize {
    let (dq, dr) = sides[d];
    sides.iter().position(|s| *s == (-dq, -dr)).unwrap_or(d)
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
/// squares clockwise by quarters about the centre of the block at the origin (`block` its side,
/// 1 on a grid without blocks), which keeps a block's cells in the block.
fn rotate(hex: bool, block: i64, (mut q, mut r): (i64, i64), turns: u32) -> (i64, i64) {
    for _ in 0..turns % full_turn(hex) {
        (q, r) = if hex { (-r, q + r) } else { (block - 1 - r, q) };
    }
    (q, r)
}

/// The side of a grid's blocks: 1 on a grid without blocks.
pub fn block(p: &Loaded, g: u32) -> i64 {
    i64::from(p.ir.grids.get(g as usize).map_or(1, |grid| grid.block.max(1)))
}

/// The block a placement's first cell lies in (values.py's `Placement.block`): what its `x`
/// and `y` say, and its label.
pub fn block_of(p: &Loaded, spot: &Spot) -> (i64, i64) {
    let k = block(p, spot.grid);
    let (q, r) = spot.coords().next().unwrap_or_default();
    (q.div_euclid(k), r.div_euclid(k))
}

/// The grid, (q, r) of any cell: a board's (its fixed location) or a grown one.
pub fn coords(p: &Loaded, w: &World, loc: u32) -> Option<(u32, i64, i64)> {
    match p.ir.locations.get(loc as usize) {
        Some(at) => at.cell,
        None => w.grown.cell(loc).map(|(g, q, r, _)| (g, q, r)),
    }
}

/// The part of the position a question about the cell of a grid that grows at (q, r) reads: its
/// block (`Part::Place`).
pub(crate) fn place(p: &Loaded, g: u32, q: i64, r: i64) -> Part {
    let k = block(p, g);
    Part::Place(g, q.div_euclid(k), r.div_euclid(k))
}

/// The cell of a grid at (q, r), if there is one now.
pub fn cell_at(p: &Loaded, w: &mut World, g: u32, q: i64, r: i64) -> Option<u32> {
    if grows(p, g) {
        w.read(place(p, g, q, r));
        w.grown.get(g, q, r)
    } else {
        p.grids[g as usize].get(q, r)
    }
}

/// `cells(GRID)` of a grid that grows: its cells in the order they were laid (kept until the
/// grid changes, areas::Kept).
pub fn cells(w: &mut World, g: u32) -> Value {
    w.read(Part::Grid(g));
    let (grown, kept) = (&w.grown, &mut w.areas);
    kept.cells(g, || {
        Value::List(Arc::new(grown.of(g).map(|(i, _)| Value::Cell(grown.base + i as u32)).collect()))
    })
}

/// What one step from a cell reaches: each cell next to it, with the index of its direction.
pub fn steps(p: &Loaded, w: &mut World, loc: u32) -> Result<Vec<(usize, u32)>, Fail> {
    let mut out = Vec::with_capacity(6);
    steps_into(p, w, loc, &mut out)?;
    Ok(out)
}

/// `steps`, into a list the caller keeps (a route's search takes thousands of steps).
pub fn steps_into(p: &Loaded, w: &mut World, loc: u32, out: &mut Vec<(usize, u32)>) -> Result<(), Fail> {
    out.clear();
    if let Some((g, ..)) = w.grown.cell(loc) {
        let there = match w.grown.beside(loc) {
            Some(beside) => {
                out.extend(beside);
                true
            }
            None => false,
        };
        if there {
            w.read(Part::Grid(g));
            return Ok(());
        }
    }
    let Some((g, q, r)) = coords(p, w, loc) else {
        return fail("not a cell of a grid");
    };
    for (d, (dq, dr)) in directions(p, g).iter().enumerate() {
        if let Some(nb) = cell_at(p, w, g, q + dq, r + dr) {
            out.push((d, nb));
        }
    }
    Ok(())
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
    check_block(p, g, &local)?;
    w.read(Part::Grid(g));
    let taken: Vec<(i64, i64)> = w.grown.of(g).map(|(_, c)| (c.1, c.2)).collect();
    let spot = |turned: &Arc<[(i64, i64)]>, shift: (i64, i64), turns: u32| {
        let rows = rows.clone();
        Spot { grid: g, rows, turned: turned.clone(), shift, turns, layer: None }
    };
    if taken.is_empty() {
        return Ok(Value::List(Arc::new(SpotRef::all(vec![spot(&local.into(), (0, 0), 0)]))));
    }
    let hex = p.ir.grids[g as usize].hex;
    let k = block(p, g);
    let turned: Vec<Arc<[(i64, i64)]>> =
        (0..full_turn(hex)).map(|t| local.iter().map(|c| rotate(hex, k, *c, t)).collect()).collect();
    if k > 1 {
        return on_blocks(p, g, &rows, &turned, &taken, faces, spot);
    }
    let reach = taken.iter().map(|c| c.1.abs()).max().unwrap_or(0)
        + turned.iter().flat_map(|cells| cells.iter().map(|c| c.1.abs())).max().unwrap_or(0);
    let pack = Packing { half: reach + 2, width: 2 * (reach + 2) };
    let taken_p: Vec<i64> = taken.iter().map(|c| pack.of(*c)).collect();
    let sides: Vec<i64> = directions(p, g).iter().map(|d| pack.of(*d)).collect();
    // The free cells beside taken ones: each side of a taken cell with no cell across it
    // (`Grown::around`), some twice and in no order, as only the least and the greatest bound the
    // table below and a shift marked twice is marked once.
    let mut frontier: Vec<i64> = Vec::with_capacity(taken.len() * sides.len());
    for (i, c) in w.grown.of(g) {
        let (at, around) = (pack.of((c.1, c.2)), w.grown.around.get(i).copied().unwrap_or([NONE; 6]));
        let free = sides.iter().zip(around).filter(|(_, across)| *across == NONE);
        frontier.extend(free.map(|(side, _)| at + side));
    }
    let (Some(&least), Some(&greatest)) = (frontier.iter().min(), frontier.iter().max()) else {
        return Ok(Value::List(Arc::new(Vec::new())));
    };
    // The frontier and the taken cells as bits from the least frontier cell on (every taken
    // cell lies between the least and the greatest: a step west from it meets the frontier).
    let bits = |cells: &[i64]| {
        let mut set = vec![0u64; ((greatest - least) / 64 + 1) as usize];
        for c in cells.iter().filter_map(|c| usize::try_from(c - least).ok()) {
            if let Some(word) = set.get_mut(c / 64) {
                *word |= 1 << (c % 64);
            }
        }
        set
    };
    let (frontier, taken_p) = (bits(&frontier), bits(&taken_p));
    let single = local.iter().collect::<HashSet<_>>().len() < 2;
    let alike = !hex;
    let marks: Vec<u32> = if alike {
        rows.iter().map(|r| faces.get(*r as usize).copied().unwrap_or(*r)).collect()
    } else {
        rows.to_vec()
    };
    let mut seen: HashSet<Vec<((i64, i64), u32)>> = HashSet::new();
    // For each turn, a bit for each shift (the least `first`): set where a cell of the shape
    // lands on a frontier cell, cleared where one lands on a taken cell (the sets moved by each
    // cell); then the placements of every turn, read in order, in a list made once at its size.
    let mut shifts = Vec::with_capacity(turned.len());
    for (turns, cells) in turned.iter().enumerate() {
        let packed: Vec<i64> = cells.iter().map(|c| pack.of(*c)).collect();
        let (Some(&low), Some(&high)) = (packed.iter().min(), packed.iter().max()) else { continue };
        let first = least - high;
        let size = ((greatest - low - first) / 64 + 1) as usize;
        let (mut free, mut covers) = (vec![0u64; size], vec![0u64; size]);
        for c in &packed {
            or_shifted(&mut free, &frontier, (high - c) as usize);
            or_shifted(&mut covers, &taken_p, (high - c) as usize);
        }
        free.iter_mut().zip(&covers).for_each(|(word, taken)| *word &= !taken);
        shifts.push((turns as u32, cells, first, free));
    }
    let mut out =
        Vec::with_capacity(shifts.iter().flat_map(|(.., free)| free).map(|w| w.count_ones() as usize).sum());
    for (turns, cells, first, free) in shifts {
        for (k, word) in free.iter().enumerate() {
            let mut bits = *word;
            while bits != 0 {
                let i = k * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
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
                out.push(spot(cells, (dq, dr), turns));
            }
        }
    }
    Ok(Value::List(Arc::new(SpotRef::all(out))))
}

/// `dest |= src << by`, of sets of bits a word at a time (the least bit of word 0 first); `dest`
/// holds every bit moved.
fn or_shifted(dest: &mut [u64], src: &[u64], by: usize) {
    let (words, bits) = (by / 64, by % 64);
    for (k, word) in src.iter().enumerate().filter(|(_, word)| **word != 0) {
        dest[k + words] |= word << bits;
        if bits != 0 && word >> (64 - bits) != 0 {
            dest[k + words + 1] |= word >> (64 - bits);
        }
    }
}

/// Placements on a grid of K x K blocks (grids.py's `_on_blocks`): on each free block sharing a
/// side with a taken one (a block is taken when any of its cells is there), in reading order
/// (north to south, west to east), each way the shape turns about the block's centre that looks
/// different from the turns before it.
fn on_blocks(
    p: &Loaded,
    g: u32,
    rows: &[u32],
    turned: &[Arc<[(i64, i64)]>],
    taken: &[(i64, i64)],
    faces: &[u32],
    spot: impl Fn(&Arc<[(i64, i64)]>, (i64, i64), u32) -> Spot,
) -> Result<Value, Fail> {
    let k = block(p, g);
    // The taken blocks sorted, looked up by halves: hashing every taken cell's block into a
    // set cost more than the rest of the placements' work (docs/benchmarks.md, a twentieth round).
    let mut blocks: Vec<(i64, i64)> = taken.iter().map(|(q, r)| (q.div_euclid(k), r.div_euclid(k))).collect();
    blocks.sort_unstable();
    blocks.dedup();
    let mut free: Vec<(i64, i64)> = blocks
        .iter()
        .flat_map(|(x, y)| directions(p, g).iter().map(move |(dx, dy)| (x + dx, y + dy)))
        .filter(|b| blocks.binary_search(b).is_err())
        .collect();
    free.sort_unstable_by_key(|(x, y)| (*y, *x));
    free.dedup();
    let marks: Vec<u32> = rows.iter().map(|r| faces.get(*r as usize).copied().unwrap_or(*r)).collect();
    // A shape turns 4 or 6 ways: the looks seen are few, compared in turn rather than hashed.
    let mut seen: Vec<Vec<((i64, i64), u32)>> = Vec::with_capacity(turned.len());
    let mut distinct = Vec::new();
    for (t, cells) in turned.iter().enumerate() {
        let mut look: Vec<((i64, i64), u32)> = cells.iter().copied().zip(marks.iter().copied()).collect();
        look.sort_unstable();
        look.dedup();
        if !seen.contains(&look) {
            seen.push(look);
            distinct.push(t);
        }
    }
    let mut out = Vec::with_capacity(free.len() * distinct.len());
    for (x, y) in free {
        for t in &distinct {
            out.push(spot(&turned[*t], (x * k, y * k), *t as u32));
        }
    }
    Ok(Value::List(Arc::new(SpotRef::all(out))))
}

/// `placement(GRID, SHAPE, X, Y, TURNS)`: one placement, as an example names it: the shape
/// turned TURNS times with its first cell at (X, Y), or on a grid of blocks in the block at
/// (X, Y) (grids.py's `placement_at`).
pub fn placement_at(p: &Loaded, values: &[Value]) -> Result<Value, Fail> {
    let [grid, shape, x, y, turns] = values else {
        return fail("placement(...) takes a grid, a shape, x, y and the turns");
    };
    let Value::Grid(g) = *grid else {
        return fail(format!("a placement is made on a grid, not on a {}", grid.type_name()));
    };
    let number = |v: &Value| match v {
        Value::Int(n) => Ok(*n),
        other => fail(format!("placement's x, y and turns are numbers, not {}", other.a_kind())),
    };
    let (x, y, turns) = (number(x)?, number(y)?, number(turns)?);
    let rows: Arc<[u32]> = shape_rows(shape)?.into();
    let local: Vec<(i64, i64)> = rows.iter().map(|r| local(p, *r)).collect::<Result<_, _>>()?;
    let hex = p.ir.grids[g as usize].hex;
    let turns = turns.rem_euclid(i64::from(full_turn(hex))) as u32;
    let k = block(p, g);
    let turned: Arc<[(i64, i64)]> = local.iter().map(|c| rotate(hex, k, *c, turns)).collect();
    let shift = if k > 1 {
        check_block(p, g, &local)?;
        (x * k, y * k)
    } else {
        let (q0, r0) = turned.first().copied().unwrap_or_default();
        (x - q0, y - r0)
    };
    Ok(Value::Placement(Arc::new(Spot { grid: g, rows, turned, shift, turns, layer: None }).into()))
}

/// A shape laid in K x K blocks has its cells inside the block at the origin (grids.py's
/// `_check_block`).
fn check_block(p: &Loaded, g: u32, local: &[(i64, i64)]) -> Result<(), Fail> {
    let k = block(p, g);
    if k < 2 {
        return Ok(());
    }
    match local.iter().find(|(q, r)| !(0..k).contains(q) || !(0..k).contains(r)) {
        Some((q, r)) => fail(format!(
            "a shape laid in {k} x {k} blocks has its cells at 0 to {}, not at ({q},{r})",
            k - 1
        )),
        None => Ok(()),
    }
}

/// `place SHAPE on GRID [at PLACEMENT]`: new cells showing the shape's rows, or (`over`) a layer
/// over cells that are all there (layers.py's `lay`).
pub fn lay(
    p: &Loaded,
    w: &mut World,
    grid: &Value,
    shape: &Value,
    at: Option<&Value>,
    over: bool,
) -> Result<(), Fail> {
    let Value::Grid(g) = *grid else {
        return fail(format!("a {} is not a grid map: shapes are placed on grids", grid.type_name()));
    };
    let name = &p.ir.grids[g as usize].name;
    if !grows(p, g) {
        return fail(format!("the shape would cover cells of {name} already there"));
    }
    let rows = shape_rows(shape)?;
    let (coords, turns): (Vec<(i64, i64)>, u32) = match at {
        None => (rows.iter().map(|r| local(p, *r)).collect::<Result<Vec<_>, _>>()?, 0),
        Some(Value::Placement(spot)) => {
            if *spot.rows != *rows {
                return fail("that placement was made for another shape");
            }
            if spot.grid != g {
                let other = &p.ir.grids[spot.grid as usize].name;
                return fail(format!("that placement was made for {other}, not {name}"));
            }
            (spot.coords().collect(), spot.turns)
        }
        Some(other) => {
            return fail(format!("a shape is placed at a placement, not at a {}", other.type_name()))
        }
    };
    put(p, w, g, coords, rows, turns, over)
}

/// Lay rows at coordinates of grid `g`: new cells, or (`over`) a layer on cells that are all
/// there. The layer made is the last of `Grown::layers`.
pub(crate) fn put(
    p: &Loaded,
    w: &mut World,
    g: u32,
    coords: Vec<(i64, i64)>,
    rows: Vec<u32>,
    turns: u32,
    over: bool,
) -> Result<(), Fail> {
    let name = &p.ir.grids[g as usize].name;
    let there: Vec<Option<u32>> = coords.iter().map(|(q, r)| w.grown.get(g, *q, *r)).collect();
    if over && there.iter().any(Option::is_none) {
        return fail(format!("a layer is laid over cells of {name} that are there, and some are not"));
    }
    if !over && there.iter().any(Option::is_some) {
        return fail(format!("the shape would cover cells of {name} already there"));
    }
    let layer = w.grown.layers.len() as u32;
    let rows_laid: Arc<[u32]> = rows.clone().into();
    let turned: Arc<[(i64, i64)]> = coords.clone().into();
    let spot = Spot { grid: g, rows: rows_laid, turned, shift: (0, 0), turns, layer: Some(layer) };
    w.grown.layers.push(Arc::new(spot));
    for (((q, r), row), cell) in coords.into_iter().zip(rows).zip(there) {
        w.changed(place(p, g, q, r));
        if let Some(loc) = cell {
            w.grown.cover(loc, layer);
            w.grown.show(loc, row);
            continue;
        }
        let loc = w.grown.add(g, q, r, row, layer);
        if w.locs.len() <= loc as usize {
            w.locs.resize(loc as usize + 1, Vec::new());
        }
    }
    w.changed(Part::Grid(g));
    Ok(())
}

/// An attribute of a grown cell (its coordinates, the columns of the row it shows), of a
/// placement or of a route; None for any other value, which vm.rs answers.
pub fn attr(p: &Loaded, w: &mut World, obj: &Value, name: &AttrIr) -> Result<Option<Value>, Fail> {
    // A name that is a column of some table too: a placement or a route reads its own (by the
    // name, borrowed: `spot.x` is asked of every placement a search finds).
    let word = match name {
        AttrIr::Column(column) => Some(p.column_name(*column)),
        AttrIr::Shaped(word) => Some(word.as_str()),
        _ => None,
    };
    match (obj, word) {
        (Value::Placement(spot), Some(word)) => return spot_attr(p, w, spot, word).map(Some),
        (Value::Route(way), Some(word)) => return route_attr(way, word).map(Some),
        _ => {}
    }
    Ok(Some(match (obj, name) {
        (Value::Cell(loc), _) => {
            let Some((g, q, r, row)) = w.grown.cell(*loc) else { return Ok(None) };
            if let AttrIr::Shaped(word) = name {
                if word == "placed" {
                    w.read(place(p, g, q, r));
                    return Ok(Some(w.grown.layer(*loc).map_or(Value::None, |l| Value::Placement(l.into()))));
                }
            }
            if let AttrIr::Column(_) = name {
                // The row a cell shows changes when a layer is laid over it or lifted off it.
                w.read(place(p, g, q, r));
            }
            match name {
                AttrIr::Q => Value::Int(q),
                AttrIr::R => Value::Int(r),
                AttrIr::Column(column) => match p.column(row, *column) {
                    Ok(v) => v,
                    Err(_) => return fail(format!("a cell has no '{}'", p.column_name(*column))),
                },
                _ => return Ok(None),
            }
        }
        _ => return Ok(None),
    }))
}

/// An attribute of a placement, by its name.
fn spot_attr(p: &Loaded, w: &mut World, spot: &Spot, name: &str) -> Result<Value, Fail> {
    Ok(match name {
        "x" | "y" => {
            let (x, y) = block_of(p, spot);
            Value::Int(if name == "x" { x } else { y })
        }
        "turns" => Value::Int(i64::from(spot.turns)),
        "shape" => Value::List(Arc::new(spot.rows.iter().map(|r| Value::Row(*r)).collect())),
        "under" => crate::layers::under(p, w, spot),
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
    })
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
    use super::{or_shifted, rotate, Grown, Packing, GONE};
    use crate::grid::HEX_SIDES;
    use crate::value::Spot;
    use std::sync::Arc;

    /// A set of bits moved by any distance, within a word or across words, lands each bit where
    /// moving it alone would, over what the destination held.
    #[test]
    fn a_set_of_bits_moved_a_word_at_a_time_lands_each_bit_where_it_would_alone() {
        let set: Vec<usize> = vec![0, 1, 5, 63, 64, 100, 127, 130];
        let mut src = vec![0u64; 3];
        set.iter().for_each(|b| src[b / 64] |= 1 << (b % 64));
        for by in [0, 1, 7, 63, 64, 65, 100, 128] {
            let mut dest = vec![0u64; 6];
            dest[0] = 1 << 3; // held before: stays
            or_shifted(&mut dest, &src, by);
            let mut expected = vec![0u64; 6];
            expected[0] = 1 << 3;
            set.iter().map(|b| b + by).for_each(|b| expected[b / 64] |= 1 << (b % 64));
            assert_eq!(dest, expected, "moved by {by}");
        }
    }

    fn spot(grid: u32, cells: &[(i64, i64)], layer: u32) -> Arc<Spot> {
        let rows: Vec<u32> = cells.iter().map(|_| 0).collect();
        let (turned, rows) = (cells.to_vec().into(), rows.into());
        Arc::new(Spot { grid, rows, turned, shift: (0, 0), turns: 0, layer: Some(layer) })
    }

    /// Grid 0: a layer at (0,0) under another, a third at (1,0); grid 1: a layer at (5,5).
    fn laid() -> Grown {
        let mut grown = Grown { base: 10, ..Grown::default() };
        let cells = [(0, &[(0, 0)][..]), (0, &[(0, 0)]), (0, &[(1, 0)]), (1, &[(5, 5)])];
        grown.layers = cells.iter().enumerate().map(|(id, (g, at))| spot(*g, at, id as u32)).collect();
        grown.cells = vec![(0, 0, 0, 0), (0, 1, 0, 0), (1, 5, 5, 0)];
        grown.tops = vec![1, 2, 3];
        grown.under.insert(0, vec![0]);
        for (i, (g, q, r, _)) in grown.cells.iter().enumerate() {
            grown.at.insert((*g, *q, *r), 10 + i as u32);
        }
        grown
    }

    #[test]
    fn a_shift_moves_a_grids_cells_and_every_layer_on_them_and_nothing_else() {
        let mut grown = laid();
        assert_eq!(grown.shift(0, 2, -4), Some(()));
        assert_eq!(
            (grown.get(0, 2, -4), grown.get(0, 3, -4), grown.get(0, 0, 0)),
            (Some(10), Some(11), None)
        );
        assert_eq!(grown.get(1, 5, 5), Some(12));
        let coords = |id: usize| grown.layers[id].coords().collect::<Vec<_>>();
        assert_eq!([coords(0), coords(1), coords(2), coords(3)], [[(2, -4)], [(2, -4)], [(3, -4)], [(5, 5)]]);
        assert_eq!(grown.stack(10), vec![0, 1]); // the cells keep their locations and their layers
    }

    #[test]
    fn a_shift_past_the_coordinates_a_game_holds_moves_nothing() {
        let mut grown = laid();
        assert_eq!(grown.shift(0, i64::MAX, 0), None);
        assert_eq!(grown, laid());
    }

    /// Each cell there, and the cells `Grown::beside` says lie next to it, against those found
    /// by their coordinates.
    fn neighbours_agree(grown: &Grown) {
        for (i, (g, q, r, _)) in grown.cells.iter().enumerate() {
            let loc = grown.base + i as u32;
            let Some(beside) = grown.beside(loc) else {
                assert_eq!(grown.tops[i], GONE, "only a cell gone has no neighbours kept");
                continue;
            };
            let found: Vec<(usize, u32)> = HEX_SIDES
                .iter()
                .enumerate()
                .filter_map(|(d, (dq, dr))| grown.get(*g, q + dq, r + dr).map(|nb| (d, nb)))
                .collect();
            assert_eq!(beside.collect::<Vec<_>>(), found, "the cell at ({q},{r})");
        }
    }

    #[test]
    fn a_grown_cells_neighbours_are_kept_as_cells_come_and_go() {
        let mut grown = Grown { base: 10, hex: Arc::from([true, true]), ..Grown::default() };
        let ring = [(0, 0), (1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1), (2, 0)];
        for (layer, (q, r)) in ring.iter().enumerate() {
            grown.add(0, *q, *r, 0, layer as u32);
        }
        grown.add(1, 1, 1, 0, 8); // another grid's cell beside grid 0's (0,1) and (1,0): no neighbour
        neighbours_agree(&grown);
        let middle = grown.get(0, 0, 0).expect("laid");
        assert_eq!(grown.beside(middle).map(Iterator::count), Some(6));
        let mark = grown.mark();
        grown.add(0, 3, 0, 0, 9);
        grown.add(0, 2, 1, 0, 10);
        neighbours_agree(&grown);
        grown.take_off(grown.get(0, 1, 0).expect("laid")); // its only layer: the cell goes
        neighbours_agree(&grown);
        assert_eq!(grown.beside(middle).map(Iterator::count), Some(5));
        grown.truncate(mark); // a supposition's cells forgotten
        neighbours_agree(&grown);
        assert_eq!(grown.beside(grown.get(0, 2, 0).expect("laid")).map(Iterator::count), Some(0));
    }

    #[test]
    fn a_full_circle_of_turns_brings_a_cell_back() {
        for cell in [(0, 0), (1, 0), (2, -1), (-3, 5)] {
            assert_eq!(rotate(true, 1, cell, 6), cell);
            assert_eq!(rotate(false, 1, cell, 4), cell);
            assert_eq!(rotate(false, 2, cell, 4), cell);
        }
        // A sixth of a turn on hexes: east to north-east's neighbour order (geometry.py).
        assert_eq!(rotate(true, 1, (1, 0), 1), (0, 1));
        assert_eq!(rotate(false, 1, (1, 0), 1), (0, 1));
        // A quarter turn takes each quarter of a 2 x 2 block clockwise: north-west to north-east.
        let quarters = [(0, 0), (1, 0), (1, 1), (0, 1)];
        assert_eq!(quarters.map(|c| rotate(false, 2, c, 1)), [(1, 0), (1, 1), (0, 1), (0, 0)]);
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
