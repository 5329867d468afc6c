//! The values a running game computes with: plain data that refers to the program's players,
//! rows, kinds and locations by index, so that a position copies, compares and hashes.

use serde::Deserialize;
use std::sync::Arc;

/// A piece: its kind (an index into the program's kinds) and its owner's seat, if any.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Piece {
    pub kind: u32,
    pub owner: Option<u32>,
}

#[derive(Clone, PartialEq, Eq, Hash, Debug, Deserialize, Default)]
pub enum Value {
    #[default]
    None,
    Bool(bool),
    Int(i64),
    Text(Arc<str>),
    Player(u32),
    /// A row of a table, by its index among all rows.
    Row(u32),
    /// A zone instance, by its location.
    Zone(u32),
    /// A board cell, by its location.
    Cell(u32),
    Grid(u32),
    /// A kind of piece as the rules name it (`pieces(c, mark)`): its declaration.
    KindName(u32),
    /// A piece found at a location.
    #[serde(skip)]
    Piece(u32, Piece),
    List(Arc<Vec<Value>>),
    /// Where a shape could go on a grid that grows (placement.rs).
    #[serde(skip)]
    Placement(SpotRef),
    /// A way a movement can go (routes.rs).
    #[serde(skip)]
    Route(Arc<Way>),
    /// Connected cells of a grid sharing one value of a column (areas.rs).
    #[serde(skip)]
    Area(Arc<Area>),
    /// A side a placement would share with a grid: the row the shape puts on one side of it,
    /// and the cell (its location) already on the other (areas.rs's `borders`).
    #[serde(skip)]
    Border(u32, u32),
    /// Cells of a board given by its size, a bit each (cells.rs): a filter's answer asked only
    /// by what reads it as a set (`in_a_row`, `connected`), never made into a list.
    #[serde(skip)]
    Cells(Arc<crate::cells::CellSet>),
    /// The same of a board of at most 64 cells, its bits in the value itself (`cells::CellSet::
    /// value`): a set found at every move (Tic-Tac-Toe's `empty()` and `marked(p)`, Connect
    /// Four's `landing()`) is made and dropped without the heap. Its fields lie beside the tag,
    /// so that a value stays three words.
    #[serde(skip)]
    FewCells {
        grid: u32,
        first: u32,
        bits: u64,
        passed: bool,
    },
}

/// An area: the grid and the column whose value its cells share, that value, and its cells (their
/// locations) in reading order, the first naming it. Equal by its cells alone, as
/// interpreter/areas.py's Area is, so that an area found again is the same area.
#[derive(Clone, Debug)]
pub struct Area {
    pub grid: u32,
    pub column: Arc<str>,
    pub key: Value,
    pub cells: Vec<u32>,
    /// Its cells hashed once, when it is found: an area is an argument of many declared values
    /// (the pieces of each player in it...), so a key of the memo hashed at each asking, and
    /// hashing its every cell each time cost more than the rest of the asking.
    hash: u64,
}

impl Area {
    pub fn new(grid: u32, column: Arc<str>, key: Value, cells: Vec<u32>) -> Area {
        let hash = std::hash::BuildHasher::hash_one(&crate::vm::Fast, &cells);
        Area { grid, column, key, cells, hash }
    }
}

impl PartialEq for Area {
    fn eq(&self, other: &Area) -> bool {
        self.hash == other.hash && self.cells == other.cells
    }
}

impl Eq for Area {}

impl std::hash::Hash for Area {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write_u64(self.hash);
    }
}

/// A placement: the grid, the rows of the shape (by index among all rows), the turns it was
/// given and where it goes: the shape's cells as turned (shared by every placement of that
/// turn), moved by `shift` (values.py's Placement keeps the cells' coordinates themselves).
#[derive(Clone, Debug)]
pub struct Spot {
    pub grid: u32,
    pub rows: Arc<[u32]>,
    pub turned: Arc<[(i64, i64)]>,
    pub shift: (i64, i64),
    pub turns: u32,
    /// Once laid (`place`), the layer it is (layers.rs): a layer is the very placement it was
    /// laid at, so the same spot laid twice is two layers, and neither is the spot offered.
    pub layer: Option<u32>,
}

impl PartialEq for Spot {
    fn eq(&self, other: &Spot) -> bool {
        // Where it goes and how it is turned first: what tells apart most placements compared
        // (the memo's keys of the placements one search found).
        (self.shift, self.turns, self.layer, self.grid) == (other.shift, other.turns, other.layer, other.grid)
            && self.rows == other.rows
            && self.turned == other.turned
    }
}

impl Eq for Spot {}

impl std::hash::Hash for Spot {
    /// Hashed by where it goes, how it is turned, the layer it is and its first row, not by
    /// every cell and row: a placement is a key of the memo's answers (whether it fits, what
    /// lies beside it), hashed at each asking, and these tell apart the placements of one
    /// search (equal placements agree on them, so they hash alike).
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        (self.grid, self.shift, self.turns, self.layer, self.rows.first()).hash(state);
    }
}

/// A placement as a value: one made alone (a layer, `placement(...)`), or one of the list
/// `placements` found at once, which all share one allocation: a search offers hundreds of them
/// at a decision and a player takes one, so each is not made on the heap of its own. Equal and
/// hashed by the placement it is, however it is held.
#[derive(Clone, Debug)]
pub enum SpotRef {
    One(Arc<Spot>),
    Among(Arc<Vec<Spot>>, u32),
}

impl std::ops::Deref for SpotRef {
    type Target = Spot;
    fn deref(&self) -> &Spot {
        match self {
            SpotRef::One(spot) => spot,
            SpotRef::Among(all, i) => &all[*i as usize],
        }
    }
}

impl From<Arc<Spot>> for SpotRef {
    fn from(spot: Arc<Spot>) -> SpotRef {
        SpotRef::One(spot)
    }
}

impl PartialEq for SpotRef {
    fn eq(&self, other: &SpotRef) -> bool {
        **self == **other
    }
}

impl Eq for SpotRef {}

impl std::hash::Hash for SpotRef {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        (**self).hash(state);
    }
}

impl SpotRef {
    /// Every placement of a list, as values sharing one allocation.
    pub fn all(spots: Vec<Spot>) -> Vec<Value> {
        let n = spots.len() as u32;
        let all = Arc::new(spots);
        (0..n).map(|i| Value::Placement(SpotRef::Among(all.clone(), i))).collect()
    }
}

impl Spot {
    /// Its cells' coordinates, in the order of the shape's rows.
    pub fn coords(&self) -> impl Iterator<Item = (i64, i64)> + '_ {
        self.turned.iter().map(|(q, r)| (q + self.shift.0, r + self.shift.1))
    }
}

/// A route: where it starts, and every place it enters in order, the last its end (values.py's
/// Route).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Way {
    pub start: Value,
    pub path: Vec<Value>,
}

impl Way {
    pub fn end(&self) -> Value {
        self.path.last().unwrap_or(&self.start).clone()
    }

    /// The places passed between start and end, each once, the start left out.
    pub fn passed(&self) -> Vec<Value> {
        let mut out: Vec<Value> = Vec::new();
        for place in self.path.iter().take(self.path.len().saturating_sub(1)) {
            if *place != self.start && !out.contains(place) {
                out.push(place.clone());
            }
        }
        out
    }
}

impl Value {
    /// Whether the value counts as true in a condition (as Python's truth does).
    pub fn truthy(&self) -> bool {
        match self {
            Value::None => false,
            Value::Bool(b) => *b,
            Value::Int(n) => *n != 0,
            Value::Text(t) => !t.is_empty(),
            Value::List(items) => !items.is_empty(),
            Value::Cells(set) => !set.cells().is_empty(),
            Value::FewCells { bits, .. } => *bits != 0,
            _ => true,
        }
    }

    /// The language's name for the value's type, for error messages.
    /// `type_name` with its article, for a sentence ("a number", "none"), as the Python
    /// engine's `values.a_kind` says it.
    pub fn a_kind(&self) -> String {
        match self {
            Value::None => "none".into(),
            other => {
                let name = other.type_name();
                let an = name.starts_with(['a', 'e', 'i', 'o', 'u']);
                format!("{} {name}", if an { "an" } else { "a" })
            }
        }
    }

    pub fn type_name(&self) -> &'static str {
        match self {
            Value::None => "none",
            Value::Bool(_) => "yes/no",
            Value::Int(_) => "number",
            Value::Text(_) => "text",
            Value::Player(_) => "player",
            Value::Row(_) => "row",
            Value::Zone(_) => "zone",
            Value::Cell(_) => "cell",
            Value::Grid(_) => "grid",
            Value::KindName(_) => "kind",
            Value::Piece(..) => "piece",
            Value::List(_) | Value::Cells(_) | Value::FewCells { .. } => "list",
            Value::Placement(_) => "placement",
            Value::Route(_) => "route",
            Value::Area(_) => "area",
            Value::Border(..) => "border",
        }
    }

    /// The cells of a value answered as a set (`Cells`, `FewCells`), read where they lie.
    #[inline]
    pub fn cells(&self) -> Option<crate::cells::Cells<'_>> {
        match self {
            Value::Cells(set) => Some(set.cells()),
            Value::FewCells { grid, first, bits, .. } => {
                Some(crate::cells::Cells { grid: *grid, first: *first, bits: std::slice::from_ref(bits) })
            }
            _ => None,
        }
    }

    /// The cells of a value answered as a set as the list its filter makes; None for any other
    /// value. Apart (cold): `vm::list`, asked for every list, otherwise saves more registers.
    #[cold]
    pub fn cells_listed(&self) -> Option<Value> {
        self.cells().map(|set| set.list())
    }

    /// The location of a zone or cell value.
    pub fn location(&self) -> Option<u32> {
        match self {
            Value::Zone(loc) | Value::Cell(loc) => Some(*loc),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Area, Spot, SpotRef, Value};
    use std::hash::BuildHasher;
    use std::sync::Arc;

    #[test]
    fn a_value_is_three_words() {
        // Every value moved, kept or returned pays for its size: a variant that holds more
        // (a small board's set, its bits beside the tag) must not make them all larger.
        assert_eq!(std::mem::size_of::<Value>(), 24);
    }

    #[test]
    fn a_kind_takes_the_article_its_name_does() {
        // As the Python engine's values.a_kind says it, in an error's sentence.
        let area = Value::Area(Arc::new(Area::new(0, Arc::from("colour"), Value::Int(1), vec![3])));
        assert_eq!(area.a_kind(), "an area");
        assert_eq!(Value::Int(1).a_kind(), "a number");
        assert_eq!(Value::None.a_kind(), "none");
    }

    #[test]
    fn an_area_is_equal_and_hashed_by_its_cells_alone() {
        // The same cells found again, under another column or value: the same area, the same key.
        let hash = |a: &Area| crate::vm::Fast.hash_one(Value::Area(Arc::new(a.clone())));
        let one = Area::new(0, Arc::from("colour"), Value::Int(1), vec![12, 13, 20]);
        let again = Area::new(1, Arc::from("height"), Value::Int(2), vec![12, 13, 20]);
        assert_eq!(one, again);
        assert_eq!(hash(&one), hash(&again));
        let other = Area::new(0, Arc::from("colour"), Value::Int(1), vec![12, 13, 21]);
        assert_ne!(one, other);
        assert_ne!(hash(&one), hash(&other));
    }

    #[test]
    fn equal_placements_made_apart_are_one_key() {
        // The same placement found by two searches (each list its own allocation), and the
        // placements beside it: another row, another turn, another place.
        let spot = |rows: Vec<u32>, turns: u32, shift: (i64, i64)| {
            let turned: Arc<[(i64, i64)]> = Arc::from(vec![(0, 0), (1, 0)]);
            Spot { grid: 0, rows: Arc::from(rows), turned, shift, turns, layer: None }
        };
        let key = |s: Spot| SpotRef::all(vec![s]).remove(0);
        let hash = |v: &Value| crate::vm::Fast.hash_one(v);
        let (one, again) = (key(spot(vec![4, 5], 1, (2, 0))), key(spot(vec![4, 5], 1, (2, 0))));
        assert_eq!(one, again);
        assert_eq!(hash(&one), hash(&again));
        for other in [spot(vec![4, 6], 1, (2, 0)), spot(vec![4, 5], 2, (2, 0)), spot(vec![4, 5], 1, (0, 2))] {
            assert_ne!(one, key(other));
        }
    }
}
