//! The answers of declared values, kept while what they read holds (a game's memo).
//!
//! Each part of the position (`Part`: a variable, an owner's variable, the pieces of a location,
//! the turn, a grid's cells, one block of a grid, the seats) has a number, in the order of the
//! game's layout (`Layout`), and falls in the bucket of that number among `BUCKETS`; an answer
//! keeps the set of buckets it read, as bits, and the time it was found; each bucket, the last
//! time a part in it changed. An answer holds while no bucket it read changed since it was
//! found. A program of no more parts than buckets has one part in each: the memo then keeps each
//! answer until one of the very parts it read changes. In a larger one, two parts in one bucket only make an answer
//! be found again when it still held, never kept when it did not: the memo can be wrong only
//! towards more work.
//!
//! It replaces a memo by classes of parts (an answer that read any variable was forgotten when
//! any variable changed, one that read any location's pieces when any piece moved), under which
//! a game whose rules ask whole-table questions of every player at every decision found nearly
//! every answer again after each one: one variable of one player changed, and every answer that
//! read any player's variable was found again. The Python engine's memo keeps the very
//! parts each answer read (compiler/memo.py); a set of parts per answer cost more in its
//! bookkeeping than it saved (docs/benchmarks.md), which bits in a few words do not.

use crate::value::Value;
use crate::vm::{Args, Fast, Key, Part};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;

/// How many buckets the parts of the position fall in.
pub(crate) const BUCKETS: usize = 512;
// A bucket's index is kept in 16 bits (`Memo::recent`).
const _: () = assert!(BUCKETS <= 1 << 16);

/// How many numbers the blocks of grids share where the parts before them leave too few
/// buckets (`MIN_PLACES`) of their own.
const PLACES: usize = 64;
const MIN_PLACES: usize = 16;

/// How many of the last changes the memo remembers by their bucket (`Memo::recent`): an answer
/// found no more than so many changes ago is checked against the buckets they changed, not bucket
/// by bucket of what it read (121 buckets for a filter of a board's cells, and a move changes 3).
const RECENT: usize = 32;

/// The most changes since an answer was found for `Memo::holds` to check it against them.
/// Bounded by a number of changes, not weighed against how many buckets the answer read: that
/// count costs as much at each keeping as it saves where answers read a few parts
/// (docs/benchmarks.md, an eighteenth round).
const FEW_CHANGES: u32 = 8;
const _: () = assert!(FEW_CHANGES as usize <= RECENT);

/// Words of the set of buckets an answer read.
const WORDS: usize = BUCKETS / 64;

/// Which buckets of the position a value read, one bit each (all zero: nothing of the game).
pub(crate) type Reads = [u64; WORDS];

/// An answer the memo keeps: the value, the buckets it read, when it was found, and the steps
/// finding it spent (at most `u32::MAX`).
type Answer = (Value, Reads, u32, u32);

/// A question whose arguments are none, one or two values of a word each (a player, a row, a
/// place, a cell, a number, a piece...: most questions): the value's index and its arguments
/// packed (`word`), hashed in three steps and compared at once, rather than through each
/// `Value`'s hashing and equality, and kept in an entry of 88 bytes rather than 128.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
struct Packed(u32, u64, u64);

/// In a packed key, where an argument is not (a value of one argument or none): no value packs
/// to it (`word`'s tags stop at 10).
const NO_ARGUMENT: u64 = u64::MAX;

/// A value packed in a word, its kind in the low 4 bits, if it fits: two values pack alike only
/// if they are equal, as `Value`'s equality says (a list, a text, an area, a placement or a
/// route does not pack; nor a number beyond 58 bits, a piece whose kind or owner passes 14 bits,
/// a border whose places pass 30).
fn word(v: &Value) -> Option<u64> {
    const FEW: u64 = 1 << 14;
    let (tag, payload) = match v {
        Value::None => (0, 0),
        Value::Bool(b) => (1, u64::from(*b)),
        Value::Int(n) if n.unsigned_abs() < 1 << 58 => (2, *n as u64 & ((1 << 60) - 1)),
        Value::Player(x) => (3, u64::from(*x)),
        Value::Row(x) => (4, u64::from(*x)),
        Value::Zone(x) => (5, u64::from(*x)),
        Value::Cell(x) => (6, u64::from(*x)),
        Value::Grid(x) => (7, u64::from(*x)),
        Value::KindName(x) => (8, u64::from(*x)),
        Value::Piece(loc, piece) => {
            let (kind, owner) = (u64::from(piece.kind), piece.owner.map_or(0, |o| u64::from(o) + 1));
            if kind >= FEW || owner >= FEW {
                return None;
            }
            (9, u64::from(*loc) | kind << 32 | owner << 46)
        }
        Value::Border(a, b) if *a < 1 << 30 && *b < 1 << 30 => (10, u64::from(*a) | u64::from(*b) << 30),
        _ => return None,
    };
    Some(payload << 4 | tag)
}

/// A question's key packed, where its arguments all pack: three of them where the first two
/// fit in one word together (a player and a cell, then a row: the key of a value narrowed by
/// what it reads of its arguments, narrowed.rs), marked apart from keys of two by `THREE`.
fn packed(key: &Key) -> Option<Packed> {
    let (first, second) = match &key.1 {
        Args::One(v) => (word(v)?, NO_ARGUMENT),
        Args::Two(a, b) => (word(a)?, word(b)?),
        Args::Many(values) if values.is_empty() => (NO_ARGUMENT, NO_ARGUMENT),
        Args::Many(values) => match values.as_slice() {
            [a, b, c] if key.0 < THREE => {
                let (a, b) = (word(a)?, word(b)?);
                if a >> 32 != 0 || b >> 32 != 0 {
                    return None;
                }
                return Some(Packed(key.0 | THREE, a | b << 32, word(c)?));
            }
            _ => return None,
        },
    };
    Some(Packed(key.0, first, second))
}

/// In a packed key, the bit of the value's index that marks a key of three arguments.
const THREE: u32 = 1 << 31;

/// How many seats' answers of a value of one player a table by value and seat holds
/// (`by_seat`, `Memo::direct`, kept.rs's filters).
pub(crate) const DIRECT_SEATS: u32 = 4;

/// The most values a table by value and seat holds answers of: its size is bounded.
const DIRECT_VALUES: u32 = 1 << 12;

/// Where a question of no arguments, or of one of the first `DIRECT_SEATS` seats, lies in a table
/// by value and seat (kept.rs's filters), apart from every other question's: found without hashing.
pub(crate) fn by_seat((value, args): &Key) -> Option<usize> {
    let seat = match args {
        Args::Many(values) if values.is_empty() => 0,
        Args::One(Value::Player(seat)) if *seat < DIRECT_SEATS => seat + 1,
        _ => return None,
    };
    (*value < DIRECT_VALUES).then(|| (value * (DIRECT_SEATS + 1) + seat) as usize)
}

/// The packed key of the question at entry `i` of a table by value and seat (`by_seat`): what
/// the direct table's answers are kept under elsewhere (at rest, `Memo::settle`), and asked
/// under where that table has none.
fn packed_at(i: usize) -> Packed {
    let (value, seat) = (i as u32 / (DIRECT_SEATS + 1), i as u32 % (DIRECT_SEATS + 1));
    // `word`'s tag of a player is 3.
    let first = if seat == 0 { NO_ARGUMENT } else { u64::from(seat - 1) << 4 | 3 };
    Packed(value, first, NO_ARGUMENT)
}

/// A question's key with its hash, found once: a question not found is kept under the same
/// hash, and the table grows without hashing its keys again (a key of an area, a placement or a
/// list is hashed through each `Value`). Equal where the hashes are and then the keys.
#[derive(Clone, Debug)]
struct Hashed(u64, Key);

impl PartialEq for Hashed {
    fn eq(&self, other: &Hashed) -> bool {
        self.0 == other.0 && self.1 == other.1
    }
}

impl Eq for Hashed {}

impl std::hash::Hash for Hashed {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write_u64(self.0);
    }
}

/// A question asked of the memo (`Memo::get`), and kept with its answer if not found
/// (`Memo::keep`): found by value and seat where it lies in that table (`by_seat`: neither
/// packed nor hashed, its entry found once for the asking and the keeping), else by its key
/// packed where its arguments pack, else hashed once. Reads as its key.
pub(crate) struct Asked {
    direct: Option<usize>,
    packed: Option<Packed>,
    hashed: Hashed,
}

impl Asked {
    pub(crate) fn new(key: Key) -> Asked {
        let direct = by_seat(&key);
        let packed = if direct.is_some() { None } else { packed(&key) };
        let hash = if direct.is_some() || packed.is_some() {
            0
        } else {
            std::hash::BuildHasher::hash_one(&Fast, &key)
        };
        Asked { direct, packed, hashed: Hashed(hash, key) }
    }

    /// Its key packed, if it packs (a question by value and seat does): where it is asked in the
    /// tables of packed keys.
    fn packed(&self) -> Option<Packed> {
        self.packed.or_else(|| self.direct.map(packed_at))
    }
}

impl std::ops::Deref for Asked {
    type Target = Key;
    fn deref(&self) -> &Key {
        &self.hashed.1
    }
}

/// How many buckets an answer kept at rest lists (`Rested`): one that read more keeps its set.
/// A bundled game at rest took the least memory with 7, of 3, 7, 11 and 19 (docs/benchmarks.md).
const LISTED: usize = 7;

/// An answer kept while the game is at rest (`Memo::settle`), found before the clock started
/// again: its value and the buckets it read as a short list (the first `len` of them). In 40
/// bytes rather than the 96 of an answer with a set of every bucket (`Answer`): a game at rest
/// keeps hundreds of answers (bench/memory.py), most of which read a few buckets.
#[derive(Clone, Debug)]
struct Rested {
    value: Value,
    buckets: [u16; LISTED],
    len: u8,
}

impl Rested {
    /// Whether an answer read no more buckets than a list holds.
    fn fits((_, reads, _, _): &Answer) -> bool {
        reads.iter().map(|bits| bits.count_ones() as usize).sum::<usize>() <= LISTED
    }

    /// The answer at rest (one that `fits`).
    fn of((value, reads, _, _): Answer) -> Rested {
        let mut buckets = [0; LISTED];
        let mut len = 0;
        for (word, bits) in reads.iter().enumerate() {
            let mut bits = *bits;
            while bits != 0 && len < LISTED {
                buckets[len] = (word * 64 + bits.trailing_zeros() as usize) as u16;
                len += 1;
                bits &= bits - 1;
            }
        }
        Rested { value, buckets, len: len as u8 }
    }

    fn buckets(&self) -> &[u16] {
        &self.buckets[..self.len as usize]
    }

    /// Whether no bucket it read changed since the clock started again (when it was kept).
    fn holds(&self, last: &[u32]) -> bool {
        last.is_empty() || self.buckets().iter().all(|b| last[*b as usize] == 0)
    }

    /// The buckets it read, as a set.
    fn reads(&self) -> Reads {
        let mut reads = Reads::default();
        self.buckets().iter().for_each(|b| reads[*b as usize / 64] |= 1 << (b % 64));
        reads
    }
}

/// How many answers of a value found stale, none of its answers found holding, make a game's memo
/// keep its answers no more (`Memo::unkept`): a value whose answers no asking finds holding
/// (whether a player has three in a row, asked once after each of that player's moves) costs its
/// question made, looked up and kept at each asking, and its answer found again all the same.
const STALE_UNKEPT: u8 = 2;

/// In `Memo::fared`, a value an answer of which was found holding in this game.
const HELD: u8 = u8::MAX;

/// The fewest answers kept before forgetting those that no longer hold.
const MEMO_PRUNE: usize = 4096;

/// The fewest steps (items of lists gone through) an answer cost to find for a game at rest to
/// keep it (`Memo::settle`).
const KEPT_AT_REST: u32 = 8;

/// Not part of the position: a copy starts without it, and it takes no part in equality or
/// hashing.
#[derive(Debug)]
pub(crate) struct Memo {
    /// The answers to questions of no arguments or one player, by value and seat (`by_seat`),
    /// each entry's key packed found from where it lies (`packed_at`, for `settle`): asked and
    /// kept without hashing. One kept before in the hashed table (at rest) is asked there where
    /// this table has none. Allocated up to the last value asked; empty at rest (`settle`).
    direct: Vec<Option<Answer>>,
    /// The answers to the other questions whose arguments pack (`Packed`), and to the others.
    packed: HashMap<Packed, Answer, Fast>,
    answers: HashMap<Hashed, Answer, Fast>,
    /// The answers kept at rest that still hold, or have not been asked since they stopped to
    /// (`Rested`): asked when a question is not among the others.
    rested_packed: HashMap<Packed, Rested, Fast>,
    rested: HashMap<Hashed, Rested, Fast>,
    /// The time: how many times a part changed (the clock starts again, every answer forgotten,
    /// before it would overflow).
    now: u32,
    /// When a part of each bucket last changed (empty until one does: a memo made for a
    /// supposition, or a copy's, allocates nothing until then).
    last: Vec<u32>,
    /// The bucket of each of the last `RECENT` changes, the change at time `t` at `t % RECENT`.
    recent: [u16; RECENT],
    /// What each value being computed has read so far, the innermost last.
    reading: Vec<Reads>,
    /// The numbers of the parts.
    layout: Arc<Layout>,
    /// How many answers the memo holds before it forgets those that no longer hold.
    prune_at: usize,
    /// Declared values' filters kept item by item (kept.rs).
    pub(crate) filters: crate::kept::Filters,
    /// While a kept filter tests an item: the locations whose pieces the test reads, and the
    /// buckets of the other parts it reads (kept.rs).
    pub(crate) collecting: Option<crate::kept::Reading>,
    /// By value, how its answers fared in this game: `HELD` once one was found holding, else how
    /// many were found stale (a list or a set not counted: their stale answers are used, kept.rs,
    /// cells.rs), up to `STALE_UNKEPT`, from which on the value's answers are no longer kept
    /// (`unkept`). Only more steps can come of it, where an answer would have been found holding
    /// later, never another answer; it starts again with each game, as the answers do, so that a
    /// game's steps do not depend on the games before it.
    fared: Vec<u8>,
}

/// How a game's parts are numbered: its variables first, then each store of owners' variables
/// (one value per seat, or per row), the program's locations, then one part for the pieces of
/// every cell of the grids that grow (a cell's location may be another cell's later), the turn,
/// the seats, the grids, and the blocks of the grids that grow (`Part::Place`), which share the
/// buckets left before the numbers wrap round (`places` of them), or else `PLACES` buckets.
/// Where the buckets left hold every block's number and `MIN_PLACES` more, the pieces of each
/// cell are a part of their own among those more (`cells` of them): in one part, an answer about
/// what stands on one cell was found again whenever a piece moved on any other cell, which
/// pieces that move about a grid do at nearly every step.
#[derive(Debug, Default)]
pub(crate) struct Layout {
    /// The number of each store's first value.
    owned: Vec<usize>,
    /// The number of the first location, and how many the program has.
    locations: usize,
    fixed: u32,
    /// How many grids the program has, and how many numbers the blocks of grids share.
    grids: usize,
    places: usize,
    /// How many numbers the pieces of the cells of grids that grow share after the blocks' (none:
    /// they are one part).
    cells: usize,
    /// The buckets some location's pieces fall in (a cell of a grid that grows included): an
    /// answer that read one of them may have read pieces (kept.rs).
    pieces: Reads,
    /// The number of the first part of the pieces of one kind at one of the program's locations
    /// (`Part::Kind`), and how many numbers there are for them after every other part's (none:
    /// the pieces of a kind at a place are the place's part).
    kinds_at: usize,
    kinds: usize,
    /// Which of those numbers each kind at each place has (given as games first read it).
    parts: Arc<KindParts>,
}

/// The most parts of kinds at places (locations times keys) a program numbers: beyond, a kind's
/// pieces at a place are the place's part.
const MOST_KIND_PARTS: usize = 1 << 20;

/// The numbers of the parts of kinds at places (`Part::Kind`), given to each as a game first
/// reads it, in the order the games of the program read them, and shared by all of them (a
/// simulation's games, a search's copies, in threads). Only those read have one: in a program
/// of many places and kinds (each player's places holding pieces of a dozen kinds) far more
/// could be than buckets are left, and numbers spread over them all by a hash made an answer
/// that read many of them (whether any of a player's actions is possible) be found again after
/// most moves, of whatever kind, wherever they were. A number once given is kept: a change
/// marks the part of each kind read before it at the place, and one never read has no answer to
/// make stale. Past the buckets left, a kind's pieces at a place are the place's part.
#[derive(Debug, Default)]
pub struct KindParts {
    /// By location and key (`loc * keys + key`): 0 until a game reads it, then its number plus 1.
    given: Vec<AtomicU32>,
    keys: u32,
    next: AtomicU32,
}

impl KindParts {
    /// For so many of the program's locations and keys of kinds.
    pub fn new(locations: usize, keys: u32) -> KindParts {
        let size = locations.saturating_mul(keys as usize);
        let size = if size <= MOST_KIND_PARTS { size } else { 0 };
        KindParts { given: (0..size).map(|_| AtomicU32::new(0)).collect(), keys, next: AtomicU32::new(0) }
    }

    /// The number the pieces of a kind at a place have, given now if it has none and `give`.
    fn number(&self, loc: u32, key: u32, give: bool) -> Option<usize> {
        let slot = self.given.get((loc as usize).checked_mul(self.keys as usize)? + key as usize)?;
        match slot.load(Ordering::Relaxed) {
            0 if give => {
                let n = self.next.fetch_add(1, Ordering::Relaxed).saturating_add(1);
                // Another thread may have given it one meanwhile: that one is kept.
                let n = slot.compare_exchange(0, n, Ordering::Relaxed, Ordering::Relaxed).err().unwrap_or(n);
                Some(n as usize - 1)
            }
            0 => None,
            n => Some(n as usize - 1),
        }
    }
}

impl Layout {
    /// The layout of a game of so many variables, stores of these sizes, locations, grids
    /// (and whether one grows), and parts of kinds of pieces at places (`Part::Kind`).
    pub(crate) fn new(
        vars: usize,
        stores: impl Iterator<Item = usize>,
        locations: usize,
        (grids, grows): (usize, bool),
        parts: Arc<KindParts>,
    ) -> Layout {
        let mut next = vars;
        let owned = stores
            .map(|size| {
                next += size;
                next - size
            })
            .collect();
        let fixed = u32::try_from(locations).unwrap_or(u32::MAX);
        // The blocks of grids take the buckets no other part has, where enough are left.
        let first_place = next + fixed as usize + 3 + grids;
        let left = BUCKETS - first_place % BUCKETS;
        let places = if first_place < BUCKETS && left >= MIN_PLACES { left } else { PLACES };
        // The numbers `Part::Place` gives blocks: 8 by 8 of them, each grid 17 on.
        let blocks = 64 + 17 * grids.saturating_sub(1);
        let (places, cells) = match left.checked_sub(blocks) {
            Some(more) if first_place < BUCKETS && grows && more >= MIN_PLACES => (blocks, more),
            _ if !grows => (0, 0),
            _ => (places, 0),
        };
        // Where no grid grows to take them, the buckets left are the kinds' at places (where
        // pieces are of more than one kind).
        let many = parts.keys > 1 && !parts.given.is_empty();
        let kinds = if !grows && many && first_place < BUCKETS && left >= MIN_PLACES { left } else { 0 };
        let mut layout = Layout {
            owned,
            locations: next,
            fixed,
            grids,
            places,
            cells,
            pieces: Reads::default(),
            kinds_at: first_place,
            kinds,
            parts,
        };
        let grown = (0..cells.max(1)).map(|k| layout.number(Part::Loc(fixed + k as u32)));
        let grown: Vec<usize> = grown.collect();
        for number in (next..next + fixed as usize).take(BUCKETS).chain(grown) {
            let b = number % BUCKETS;
            layout.pieces[b / 64] |= 1 << (b % 64);
        }
        layout
    }

    /// One of the program's locations whose pieces fall in bucket `b`, if one does.
    fn location_in(&self, b: usize) -> Option<u32> {
        let loc = (b + BUCKETS - self.locations % BUCKETS) % BUCKETS;
        u32::try_from(loc).ok().filter(|loc| *loc < self.fixed)
    }

    /// The number of the part of the pieces of a kind at a place, if it has one of its own (given
    /// now if it has none, and `give`).
    fn kind(&self, loc: u32, key: u32, give: bool) -> Option<usize> {
        if loc >= self.fixed || self.kinds == 0 {
            return None;
        }
        self.parts.number(loc, key, give).filter(|n| *n < self.kinds).map(|n| self.kinds_at + n)
    }

    /// The number of the part of a kind's pieces at a place as read: given now if it has none,
    /// its place's if it cannot have one. Apart from `number`, which stays small enough to be
    /// inlined where places are numbered item by item (kept.rs).
    #[inline(never)]
    fn kind_read(&self, loc: u32, key: u32) -> usize {
        self.kind(loc, key, true).unwrap_or_else(|| self.number(Part::Loc(loc)))
    }

    /// The number of a location's pieces (`Part::Loc`): apart from `number`, to be inlined where
    /// places are numbered item by item (kept.rs).
    #[inline]
    fn place(&self, loc: u32) -> usize {
        let after = self.locations + self.fixed as usize;
        if loc < self.fixed {
            self.locations + loc as usize
        } else if self.cells == 0 {
            after
        } else {
            after + 3 + self.grids + self.places + (loc - self.fixed) as usize % self.cells
        }
    }

    /// The number of a part.
    #[inline]
    fn number(&self, part: Part) -> usize {
        let after = self.locations + self.fixed as usize;
        match part {
            Part::Var(v) => v as usize,
            Part::Owned(store, i) => {
                self.owned.get(store as usize).map_or(after + 3 + store as usize, |base| base + i as usize)
            }
            Part::Loc(loc) => self.place(loc),
            Part::Current => after + 1,
            Part::Seats => after + 2,
            Part::Grid(g) => after + 3 + g as usize,
            Part::Kind(loc, key) => self.kind_read(loc, key),
            Part::Place(g, x, y) => {
                // Neighbouring blocks in numbers of their own: a window of 8 by 8 blocks.
                let window = x.rem_euclid(8) * 8 + y.rem_euclid(8) + i64::from(g) * 17;
                after + 3 + self.grids + window as usize % self.places.max(1)
            }
        }
    }
}

/// The bucket of a part.
#[inline(always)]
fn bucket(layout: &Layout, part: Part) -> usize {
    layout.number(part) % BUCKETS
}

impl Memo {
    /// An empty memo for a game of this layout.
    pub(crate) fn new(layout: Layout) -> Memo {
        Memo::of(Arc::new(layout))
    }

    fn of(layout: Arc<Layout>) -> Memo {
        Memo {
            direct: Vec::new(),
            packed: HashMap::default(),
            answers: HashMap::default(),
            rested_packed: HashMap::default(),
            rested: HashMap::default(),
            now: 0,
            last: Vec::new(),
            recent: [0; RECENT],
            reading: Vec::new(),
            layout,
            prune_at: 0,
            filters: crate::kept::Filters::default(),
            collecting: None,
            fared: Vec::new(),
        }
    }

    /// An empty memo for the same game.
    pub(crate) fn fresh(&self) -> Memo {
        Memo::of(self.layout.clone())
    }

    /// The same memo, every answer and filter kept, at the same time (`Clone` makes an empty
    /// one: a copy of a game starts without its answers).
    pub(crate) fn duplicate(&self) -> Memo {
        let mut memo = self.fresh();
        memo.copy_from(self);
        memo
    }

    /// This memo made the same as `source` (as `duplicate` makes it) in the room it has: its
    /// tables keep their allocations where they are of the size `source`'s need, so a stream of
    /// playouts that lays each game over the one before allocates nothing here (playouts.rs).
    /// Every field is named, so that a field added to the memo is not forgotten here.
    pub(crate) fn copy_from(&mut self, source: &Memo) {
        let Memo {
            direct,
            packed,
            answers,
            rested_packed,
            rested,
            now,
            last,
            recent,
            reading,
            layout,
            prune_at,
            filters,
            collecting,
            fared,
        } = source;
        // The table by seat keeps its length (the values a game asks are those the game before
        // asked): the entries past the source's emptied, not dropped and grown again.
        self.direct.resize_with(self.direct.len().max(direct.len()), || None);
        // Entry by entry, those empty in both left as they are (most of the table: a game's
        // first decision has asked few values), not each written anew.
        for (to, from) in self.direct.iter_mut().zip(direct) {
            if to.is_some() || from.is_some() {
                to.clone_from(from);
            }
        }
        self.direct[direct.len()..].fill_with(|| None);
        copy_table(&mut self.packed, packed);
        copy_table(&mut self.answers, answers);
        copy_table(&mut self.rested_packed, rested_packed);
        copy_table(&mut self.rested, rested);
        self.now = *now;
        self.last.clone_from(last);
        self.recent = *recent;
        self.reading.clone_from(reading);
        self.layout.clone_from(layout);
        self.prune_at = *prune_at;
        self.filters.clone_from(filters);
        self.collecting = *collecting;
        self.fared.clone_from(fared);
    }

    /// A part of the position was read by the value being computed, if any. Inlined where it is
    /// read, the part numbered apart (`note`): most parts are read where nothing keeps what is
    /// read (in a bundled game of placements and routes, 150,000 of 171,000 reads), and the call
    /// saved and restored registers for them (11 instructions each).
    #[inline]
    pub(crate) fn read(&mut self, part: Part) {
        if self.reading.is_empty() && self.collecting.is_none() {
            return; // nothing keeps what it reads (nor is a kind's part at a place numbered)
        }
        self.note(part);
    }

    /// A part read by the value being computed (`read`), or by the kept filter's item tested.
    #[inline(never)]
    fn note(&mut self, part: Part) {
        let b = bucket(&self.layout, part);
        if let Some(reading) = &mut self.collecting {
            match part {
                // A kind's pieces at a place count as the place's: a kept filter's item is tested
                // again when any piece moves there.
                Part::Loc(loc) | Part::Kind(loc, _) if loc < self.layout.fixed => reading.add(loc),
                Part::Loc(_) | Part::Kind(..) => reading.lose(), // a cell of a grid that grows: no part of its own
                _ => reading.other(b),
            }
        }
        if let Some(reads) = self.reading.last_mut() {
            reads[b / 64] |= 1 << (b % 64);
        }
    }

    /// The pieces of `count` of the program's locations from `first` on were read, as `read` of
    /// each one's `Part::Loc` would have them read (their numbers run on, so their buckets are a
    /// run set a word at a time: occupied.rs). Only while no kept filter's item is tested, which
    /// wants each location by name (its caller reads them one by one then).
    pub(crate) fn read_locations(&mut self, first: u32, count: u32) {
        debug_assert!(self.collecting.is_none() && first.saturating_add(count) <= self.layout.fixed);
        let Some(reads) = self.reading.last_mut() else { return };
        let (mut at, mut left) = (self.layout.place(first) % BUCKETS, (count as usize).min(BUCKETS));
        while left > 0 {
            let (bit, take) = (at % 64, (64 - at % 64).min(left));
            reads[at / 64] |= (u64::MAX >> (64 - take)) << bit;
            at = (at + take) % BUCKETS;
            left -= take;
        }
    }

    /// The value being computed counts as having read every part.
    pub(crate) fn read_everything(&mut self) {
        if let Some(reads) = self.reading.last_mut() {
            *reads = [u64::MAX; WORDS];
        }
        if let Some(reading) = &mut self.collecting {
            reading.lose();
        }
    }

    /// What was read through answers kept elsewhere (kept.rs) counts as read by the value
    /// being computed.
    pub(crate) fn read_through(&mut self, read: &Reads) {
        if let Some(mine) = self.reading.last_mut() {
            mine.iter_mut().zip(read).for_each(|(mine, theirs)| *mine |= theirs);
        }
    }

    /// The time: how many parts changed since the clock started.
    pub(crate) fn now(&self) -> u32 {
        self.now
    }

    /// Whether no part of these buckets changed since the time `found`.
    pub(crate) fn holds_since(&self, reads: &Reads, found: u32) -> bool {
        Memo::hold(&self.last, self.now, reads, found)
    }

    /// Whether the pieces of one of the program's locations are unchanged since the time `found`
    /// (as far as its bucket tells: a part sharing it may make them seem changed, never unchanged).
    pub(crate) fn unmoved_since(&self, loc: u32, found: u32) -> bool {
        let b = self.layout.place(loc) % BUCKETS;
        self.last.get(b).is_none_or(|t| *t <= found)
    }

    /// The bucket a location's pieces fall in.
    pub(crate) fn bucket_index(&self, loc: u32) -> usize {
        self.layout.place(loc) % BUCKETS
    }

    /// The buckets among `reads` in which a part changed since the time `found`: where a
    /// kept filter's items may no longer hold (kept.rs), found without going through them.
    pub(crate) fn changed_since(&self, reads: &Reads, found: u32) -> Reads {
        let mut moved = Reads::default();
        if found == self.now || self.last.is_empty() {
            return moved;
        }
        if let Some(recent) = Memo::moved_since(&self.recent, self.now, reads, found) {
            moved.iter_mut().zip(reads.iter().zip(recent)).for_each(|(m, (r, c))| *m = r & c);
            return moved;
        }
        for (word, bits) in reads.iter().enumerate() {
            let mut bits = *bits;
            while bits != 0 {
                let b = bits.trailing_zeros() as usize;
                if self.last[word * 64 + b] > found {
                    moved[word] |= 1 << b;
                }
                bits &= bits - 1;
            }
        }
        moved
    }

    /// The buckets in which a part changed since the time `found`, from the changes since, where
    /// the memo remembers each (no more than `RECENT`) and they are fewer than the buckets of
    /// `reads`; else None, and those are checked one by one.
    fn moved_since(recent: &[u16; RECENT], now: u32, reads: &Reads, found: u32) -> Option<Reads> {
        if !Memo::by_recent(now, reads, found) {
            return None;
        }
        let mut moved = Reads::default();
        for t in found + 1..=now {
            let b = recent[t as usize % RECENT] as usize;
            moved[b / 64] |= 1 << (b % 64);
        }
        Some(moved)
    }

    /// Whether what an answer found at `found` read is checked against the changes since (the
    /// memo remembers each of them, and they are fewer than the buckets it read), rather than
    /// bucket by bucket. At most `FEW_CHANGES` changes are gone through without counting the
    /// buckets read: the count costs more than they do (eight words, each counted without a
    /// machine's population count: about 100 instructions of the 256 an asking of a set of a
    /// board's cells cost, cells.rs).
    fn by_recent(now: u32, reads: &Reads, found: u32) -> bool {
        now.checked_sub(found).is_some_and(|since| {
            since <= FEW_CHANGES
                || (since as usize <= RECENT && since < reads.iter().map(|bits| bits.count_ones()).sum())
        })
    }

    /// A part of the position changed. Every kind's pieces at a place changed with its pieces
    /// (`moved` says which kinds did).
    pub(crate) fn changed(&mut self, part: Part) {
        match part {
            Part::Loc(loc) if self.layout.kinds > 0 => self.moved_every_kind(loc),
            _ => self.mark(part),
        }
    }

    /// The pieces of every kind at a place changed. Apart from `changed`, which then saves and
    /// restores no registers for it at each change (12 instructions of its 29 in a game whose
    /// kinds are no parts of their own).
    #[inline(never)]
    fn moved_every_kind(&mut self, loc: u32) {
        self.moved(loc, 0..self.layout.parts.keys);
    }

    /// Whether the pieces of some kind at some place are a part of their own (else a move only
    /// changes its places' parts, and finding its pieces' kinds is work for nothing).
    pub(crate) fn has_kinds(&self) -> bool {
        self.layout.kinds > 0
    }

    /// Pieces of kinds of these keys arrived at a place or left it: the answers that read the
    /// place's pieces, or those of one of these kinds there, no longer hold; an answer that read
    /// only the pieces of other kinds there still does.
    pub(crate) fn moved(&mut self, loc: u32, keys: impl Iterator<Item = u32>) {
        self.mark(Part::Loc(loc));
        if self.layout.kinds > 0 {
            for key in keys {
                if let Some(n) = self.layout.kind(loc, key, false) {
                    self.tick(n % BUCKETS);
                }
            }
        }
    }

    /// The time moves on, and the part's bucket changed now.
    fn mark(&mut self, part: Part) {
        self.tick(bucket(&self.layout, part));
    }

    /// The time moves on, and the bucket changed now.
    #[inline]
    fn tick(&mut self, b: usize) {
        if self.now == u32::MAX || self.last.is_empty() {
            self.wind();
        }
        self.now += 1;
        self.last[b] = self.now;
        self.recent[self.now as usize % RECENT] = b as u16;
    }

    /// Before the first change, the table of the buckets' times made; before the clock would
    /// overflow, it starts again. Apart from `tick`, which then saves fewer registers at each
    /// change (about 15 instructions of 33).
    #[cold]
    #[inline(never)]
    fn wind(&mut self) {
        if self.now == u32::MAX {
            // Every answer forgotten; a value being computed (none is, when statements change
            // the position) would count as having read everything.
            let reading = std::mem::take(&mut self.reading);
            *self = self.fresh();
            self.reading = reading.iter().map(|_| [u64::MAX; WORDS]).collect();
        }
        if self.last.is_empty() {
            self.last = vec![0; BUCKETS];
        }
    }

    /// A value begins to be computed: it has read nothing yet.
    #[inline(always)]
    pub(crate) fn begin(&mut self) {
        self.reading.push(Reads::default());
    }

    /// The value is computed: what it read.
    pub(crate) fn end(&mut self) -> Reads {
        self.reading.pop().unwrap_or_default()
    }

    /// Whether nothing an answer found at `found` read has changed since: from the changes made
    /// since where they are at most `FEW_CHANGES`, a bit of its buckets looked at per change (an
    /// answer that read a board's 121 cells found again two moves later: 4 bits, where bucket by
    /// bucket it looked at the buckets up to the first changed, 60 on average); else bucket by
    /// bucket (`hold`).
    #[inline]
    fn holds(&self, reads: &Reads, found: u32) -> bool {
        let since = self.now.wrapping_sub(found);
        if since == 0 || self.last.is_empty() {
            return true;
        }
        if since <= FEW_CHANGES {
            return (found + 1..=self.now).all(|t| {
                let b = self.recent[t as usize % RECENT] as usize;
                reads[b / 64] & 1 << (b % 64) == 0
            });
        }
        Memo::hold(&self.last, self.now, reads, found)
    }

    /// Whether nothing an answer found at `found` read has changed since.
    #[inline(always)]
    fn hold(last: &[u32], now: u32, reads: &Reads, found: u32) -> bool {
        if found == now || last.is_empty() {
            return true;
        }
        reads.iter().enumerate().all(|(word, bits)| {
            let mut bits = *bits;
            while bits != 0 {
                if last.get(word * 64 + bits.trailing_zeros() as usize).is_some_and(|t| *t > found) {
                    return false;
                }
                bits &= bits - 1;
            }
            true
        })
    }

    /// The answer kept for a question, holding or not.
    #[inline(always)]
    fn answer(&self, asked: &Asked) -> Option<&Answer> {
        match (asked.direct, &asked.packed) {
            (Some(i), _) => match self.direct.get(i) {
                Some(Some(answer)) => Some(answer),
                _ if self.packed.is_empty() => None,
                _ => self.packed.get(&packed_at(i)),
            },
            (None, Some(packed)) => self.packed.get(packed),
            (None, None) => self.answers.get(&asked.hashed),
        }
    }

    /// A stale list dropped now, not when its new answer replaces it: where it is a kept filter's
    /// answer (of any length: the filter's list is long, not its answer), the list it shares is
    /// then the filter's own to change (it edits its answer in place, kept.rs). The entry stays,
    /// stale, for that answer. Apart from `get`, as is `get_rested`: it then saves fewer registers.
    #[inline(never)]
    fn drop_stale(&mut self, asked: &Asked) {
        if let Some((answer, ..)) = self.answer_mut(asked) {
            *answer = Value::None;
        }
    }

    /// The answer kept for a question, to change.
    fn answer_mut(&mut self, asked: &Asked) -> Option<&mut Answer> {
        match (asked.direct, &asked.packed) {
            (Some(i), _) => match self.direct.get_mut(i) {
                Some(Some(answer)) => Some(answer),
                _ => self.packed.get_mut(&packed_at(i)),
            },
            (None, Some(packed)) => self.packed.get_mut(packed),
            (None, None) => self.answers.get_mut(&asked.hashed),
        }
    }

    /// The answer for `key`, if it still holds; what it read counts as read by its caller.
    /// Inlined where a value is asked (`vm::declared`), its rarer paths apart (`get_rested`,
    /// `drop_stale`): the call saved and restored registers at each asking.
    #[inline]
    pub(crate) fn get(&mut self, asked: &Asked) -> Option<Value> {
        let Some((answer, reads, found, _)) = self.answer(asked) else {
            return self.get_rested(asked);
        };
        if !self.holds(reads, *found) {
            match answer {
                Value::List(_) if self.filters.any() => self.drop_stale(asked),
                Value::List(_) | Value::Cells(_) => {}
                _ => self.found_stale(asked.0),
            }
            return None;
        }
        let answer = answer.clone();
        let reads = *reads;
        self.taken(&reads);
        self.held(asked.0);
        Some(answer)
    }

    /// Whether value `v`'s answers are no longer kept in this game (`fared`): it is computed
    /// where it is asked (vm.rs's `declared`), what it reads read by its caller.
    #[inline]
    pub(crate) fn unkept(&self, v: u32) -> bool {
        self.fared.get(v as usize) == Some(&STALE_UNKEPT)
    }

    /// An answer of value `v` was found holding: its answers are kept for the rest of the game.
    /// (A value's entry is made when its first answer is kept, before any is found.)
    #[inline]
    fn held(&mut self, v: u32) {
        if let Some(fared) = self.fared.get_mut(v as usize) {
            *fared = HELD;
        }
    }

    /// An answer of value `v` (no list nor set) was found stale.
    #[inline(never)]
    fn found_stale(&mut self, v: u32) {
        if let Some(fared) = self.fared.get_mut(v as usize).filter(|fared| **fared < STALE_UNKEPT) {
            *fared += 1;
        }
    }

    /// Room for how value `v`'s answers fare, before its first is kept.
    #[cold]
    #[inline(never)]
    fn fare(&mut self, v: u32) {
        self.fared.resize(v as usize + 1, 0);
    }

    /// The answer kept for `key` that no longer holds, with the buckets that changed since it
    /// was found among those it read: what an answer made again from the parts that changed
    /// starts from (cells.rs). None where it holds, or none is kept (at rest, forgotten). A key of
    /// no arguments or one seat is found by value and seat, without a copy of it made to ask.
    pub(crate) fn stale(&self, key: &Key) -> Option<(&Value, Reads)> {
        let (answer, reads, found, _) = match by_seat(key).and_then(|i| self.direct.get(i)) {
            Some(Some(answer)) => Some(answer),
            _ => self.answer(&Asked::new(key.clone())),
        }?;
        let changed = self.changed_since(reads, *found);
        (changed != Reads::default()).then_some((answer, changed))
    }

    /// The answer kept at rest for `key`, if it still holds (else it is forgotten: it will not
    /// hold again); what it read counts as read by its caller.
    #[inline(never)]
    fn get_rested(&mut self, asked: &Asked) -> Option<Value> {
        if self.rested_packed.is_empty() && self.rested.is_empty() {
            return None;
        }
        let packed = asked.packed();
        let rested = match &packed {
            Some(packed) => self.rested_packed.get(packed)?,
            None => self.rested.get(&asked.hashed)?,
        };
        if !rested.holds(&self.last) {
            match &packed {
                Some(packed) => self.rested_packed.remove(packed),
                None => self.rested.remove(&asked.hashed),
            };
            return None;
        }
        let (answer, reads) = (rested.value.clone(), rested.reads());
        self.taken(&reads);
        self.held(asked.0);
        Some(answer)
    }

    /// An answer kept was taken: what it read counts as read by the value being computed, and by
    /// the kept filter's item being tested.
    fn taken(&mut self, reads: &Reads) {
        if self.collecting.is_some() {
            self.taken_by_item(reads);
        }
        if let Some(mine) = self.reading.last_mut() {
            mine.iter_mut().zip(reads).for_each(|(mine, theirs)| *mine |= theirs);
        }
    }

    /// An answer kept was taken while a kept filter's item is tested: what it read of a bucket
    /// some location's pieces fall in counts as that location read (the item is then checked by
    /// that bucket's time, which any part of it moves); what else it read, as other parts. Apart
    /// from `taken`, which then saves no registers for it at each asking.
    #[inline(never)]
    fn taken_by_item(&mut self, reads: &Reads) {
        let Some(reading) = &mut self.collecting else { return };
        let mut others = *reads;
        for (word, (other, pieces)) in others.iter_mut().zip(&self.layout.pieces).enumerate() {
            let mut bits = *other & pieces;
            *other &= !pieces;
            while bits != 0 {
                let b = word * 64 + bits.trailing_zeros() as usize;
                match self.layout.location_in(b) {
                    Some(loc) => reading.add(loc),
                    None => reading.lose(), // only a cell of a grid that grows: no place of its own
                }
                bits &= bits - 1;
            }
        }
        reading.others(&others);
    }

    /// Forget the answers that no longer hold.
    fn forget(&mut self) {
        let (last, now) = (&self.last, self.now);
        self.packed.retain(|_, (_, reads, found, _)| Memo::hold(last, now, reads, *found));
        self.answers.retain(|_, (_, reads, found, _)| Memo::hold(last, now, reads, *found));
        self.rested_packed.retain(|_, rested| rested.holds(last));
        self.rested.retain(|_, rested| rested.holds(last));
        self.prune_at = 2 * self.hashed();
    }

    /// Forget the answers that no longer hold, and the room they took: what a game waiting
    /// for a decision keeps (bench/memory.py measures a live game). Forgotten too, though they
    /// still hold: an answer found in fewer than `KEPT_AT_REST` steps (without going through a
    /// list, `free(c) = count(pieces(c)) == 0`, or through a short one), which costs little more
    /// to find again than to look up, and one that read nothing
    /// of the game, which the program keeps for every game (`vm::Known`) where its arguments
    /// allow (docs/benchmarks.md).
    /// Every answer kept then holds: the clock starts again, and the times of changes are
    /// forgotten with it (a game at rest keeps no table of them).
    pub(crate) fn settle(&mut self) {
        // The direct table's answers join the others' (after any kept there before, which they
        // replace: found later).
        let direct = std::mem::take(&mut self.direct);
        let direct = direct.into_iter().enumerate().filter_map(|(i, answer)| Some((packed_at(i), answer?)));
        self.packed.extend(direct);
        self.forget();
        let worth = |(_, reads, _, steps): &mut Answer| *steps >= KEPT_AT_REST && *reads != Reads::default();
        self.packed.retain(|_, answer| worth(answer));
        self.answers.retain(|_, answer| worth(answer));
        // Those that read few buckets are kept as a short list of them; the others as they are.
        let few = self.packed.extract_if(|_, answer| Rested::fits(answer));
        self.rested_packed.extend(few.map(|(packed, answer)| (packed, Rested::of(answer))));
        let few = self.answers.extract_if(|_, answer| Rested::fits(answer));
        self.rested.extend(few.map(|(hashed, answer)| (hashed, Rested::of(answer))));
        self.packed.values_mut().chain(self.answers.values_mut()).for_each(|(_, _, found, _)| *found = 0);
        self.packed.shrink_to_fit();
        self.answers.shrink_to_fit();
        self.rested_packed.shrink_to_fit();
        self.rested.shrink_to_fit();
        let mut filters = std::mem::take(&mut self.filters);
        filters.settle(self);
        self.filters = filters;
        (self.now, self.last, self.reading) = (0, Vec::new(), Vec::new());
    }

    /// Keep an answer computed with these reads, for so many steps; its caller read them too.
    pub(crate) fn keep(&mut self, asked: Asked, answer: Value, read: Reads, steps: u64) {
        if let Some(mine) = self.reading.last_mut() {
            mine.iter_mut().zip(&read).for_each(|(mine, theirs)| *mine |= theirs);
        }
        if self.fared.len() <= asked.0 as usize {
            self.fare(asked.0);
        }
        let steps = u32::try_from(steps).unwrap_or(u32::MAX);
        let kept = (answer, read, self.now, steps);
        if let Some(i) = asked.direct {
            // The direct table is bounded (`DIRECT_VALUES`): nothing to prune for it.
            if self.direct.len() <= i {
                self.direct.resize_with(i + 1, || None);
            }
            self.direct[i] = Some(kept);
            return;
        }
        if self.hashed() >= self.prune_at.max(MEMO_PRUNE) {
            self.forget();
        }
        match asked.packed {
            Some(packed) => {
                self.packed.insert(packed, kept);
            }
            None => {
                self.answers.insert(asked.hashed, kept);
            }
        }
    }

    /// How many answers it keeps.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.hashed() + self.direct.iter().flatten().count()
    }

    /// How many answers its hashed tables keep: what grows without bound (the direct table's
    /// answers are at most an entry for each of its values' seats).
    fn hashed(&self) -> usize {
        self.packed.len() + self.answers.len() + self.rested_packed.len() + self.rested.len()
    }
}

/// `to` made a copy of `from` in the room it has (`clone_from`), where either holds anything: a
/// stream's games lay their memos over a start whose hashed tables are mostly empty, as the
/// game before left them, and `clone_from` of an empty table over an empty one still went through
/// its layout (about 30 instructions a table a game).
pub(crate) fn copy_table<K: Clone, V: Clone, S: Clone>(to: &mut HashMap<K, V, S>, from: &HashMap<K, V, S>) {
    if !(to.is_empty() && from.is_empty()) {
        to.clone_from(from);
    }
}

impl Default for Memo {
    /// A memo that knows no layout: every location is one part, every owner's variable is its
    /// store's (correct for any game, finer for none).
    fn default() -> Memo {
        Memo::new(Layout::default())
    }
}

apart_from_the_position!(Memo, Memo::fresh);

#[cfg(test)]
mod tests {
    use super::{Asked, KindParts, Layout, Memo, Reads, BUCKETS};
    use crate::value::Value;
    use crate::vm::{Args, Part};
    use std::sync::atomic::Ordering;
    use std::sync::Arc;

    /// Two variables, a store of 3 seats' values, 8 locations.
    fn memo() -> Memo {
        Memo::new(Layout::new(2, [3].into_iter(), 8, (2, true), no_kinds()))
    }

    fn key(n: i64) -> Asked {
        Asked::new((0, Args::One(Value::Int(n))))
    }

    /// The answer `n`, found reading these parts.
    fn found(memo: &mut Memo, n: i64, parts: &[Part]) {
        memo.begin();
        parts.iter().for_each(|part| memo.read(*part));
        let read = memo.end();
        memo.keep(key(n), Value::Int(n), read, super::KEPT_AT_REST.into());
    }

    #[test]
    fn an_answer_holds_until_a_part_it_read_changes() {
        // Funds of one player spent, a piece moved to one place: the answers that read the
        // other player's funds, or other places, still hold.
        let mut memo = memo();
        found(&mut memo, 1, &[Part::Owned(0, 0), Part::Loc(1)]);
        found(&mut memo, 2, &[Part::Owned(0, 1), Part::Loc(2)]);
        found(&mut memo, 3, &[]);
        memo.changed(Part::Owned(0, 1));
        assert_eq!(memo.get(&key(1)), Some(Value::Int(1)));
        assert_eq!(memo.get(&key(2)), None);
        assert_eq!(memo.get(&key(3)), Some(Value::Int(3)));
        memo.changed(Part::Loc(1));
        assert_eq!(memo.get(&key(1)), None);
        assert_eq!(memo.get(&key(3)), Some(Value::Int(3)));
    }

    #[test]
    fn an_answer_of_no_arguments_or_of_one_seat_holds_until_what_it_read_changes_and_no_longer() {
        // Kept by value and seat, without hashing: each seat's answer apart from the others', a
        // value asked of no argument apart from the same value asked of the first seat (which a
        // checked program never does), a seat past the table's in the hashed table.
        let (none, seat) = (
            |v| Asked::new((v, Args::Many(Vec::new()))),
            |v, s| Asked::new((v, Args::One(Value::Player(s)))),
        );
        let mut memo = memo();
        let seats = super::DIRECT_SEATS;
        for (asked, answer, part) in [
            (none(0), 10, Part::Var(0)),
            (seat(1, 0), 20, Part::Owned(0, 0)),
            (seat(1, 1), 21, Part::Owned(0, 1)),
            (seat(1, seats), 22, Part::Owned(0, 2)),
            (seat(0, 0), 30, Part::Var(1)),
        ] {
            memo.begin();
            memo.read(part);
            let read = memo.end();
            memo.keep(asked, Value::Int(answer), read, super::KEPT_AT_REST.into());
        }
        // Each entry's key packed, found from where it lies, is the key's own packed (what the
        // answers are kept under at rest); a seat past the table's has no entry.
        for key in
            [(0, Args::Many(Vec::new())), (0, Args::One(Value::Player(0))), (7, Args::One(Value::Player(3)))]
        {
            let i = super::by_seat(&key).expect("by value and seat");
            assert_eq!(super::packed_at(i), super::packed(&key).unwrap(), "{key:?}");
        }
        assert_eq!(super::by_seat(&(1, Args::One(Value::Player(seats)))), None);
        let all = |memo: &mut Memo| {
            [none(0), seat(1, 0), seat(1, 1), seat(1, seats), seat(0, 0)].map(|asked| memo.get(&asked))
        };
        let (i, j) = (|n| Some(Value::Int(n)), None);
        assert_eq!(all(&mut memo), [i(10), i(20), i(21), i(22), i(30)]);
        memo.changed(Part::Owned(0, 1));
        assert_eq!(all(&mut memo), [i(10), i(20), j.clone(), i(22), i(30)]);
        memo.changed(Part::Var(1));
        assert_eq!(all(&mut memo), [i(10), i(20), j.clone(), i(22), j.clone()]);
        // Asked stale by its key, as cells.rs asks: the answer and what changed of what it read.
        let stale = |memo: &Memo, key| memo.stale(&key).map(|(answer, changed)| (answer.clone(), changed));
        assert_eq!(stale(&memo, (1, Args::One(Value::Player(0)))), None, "it holds");
        let (answer, changed) = stale(&memo, (0, Args::One(Value::Player(0)))).expect("stale");
        assert_eq!((answer, changed != Reads::default()), (Value::Int(30), true));
        // A seat past the table's is asked in the hashed table, through a question made of the key.
        memo.changed(Part::Owned(0, 2));
        let (answer, _) = stale(&memo, (1, Args::One(Value::Player(seats)))).expect("stale past the table");
        assert_eq!(answer, Value::Int(22));
        // At rest, its answers are kept as the others are, and hold while what they read does.
        memo.settle();
        assert_eq!(memo.direct.len(), 0);
        assert_eq!(all(&mut memo), [i(10), i(20), j.clone(), j.clone(), j.clone()]);
        memo.changed(Part::Var(0));
        assert_eq!(all(&mut memo), [j.clone(), i(20), j.clone(), j.clone(), j]);
    }

    #[test]
    fn a_memo_laid_over_another_answers_as_its_source_and_no_more() {
        // The game before asked a value the source never did: laid over, its answer is gone,
        // and the source's answers are there, in a table by seat longer than the source's.
        let seat = |v, s| Asked::new((v, Args::One(Value::Player(s))));
        let (mut before, mut source) = (memo(), memo());
        for v in [0, 9] {
            before.keep(seat(v, 1), Value::Int(i64::from(v) + 1), one_bucket(), 1);
        }
        source.keep(seat(0, 1), Value::Int(1), one_bucket(), 1);
        before.copy_from(&source);
        assert_eq!((before.get(&seat(0, 1)), before.get(&seat(9, 1))), (Some(Value::Int(1)), None));
        assert_eq!(before.len(), source.len());
    }

    #[test]
    fn a_value_whose_answers_are_found_stale_and_never_holding_is_kept_no_more_in_that_game() {
        // Value 0's answers, a number each, read variable 0, which changes before each asking;
        // value 1's read it too, but one was found holding once; value 2's are lists (a stale list
        // is what a kept filter edits, and a set made again starts from its stale answer).
        let asked = |v, s| Asked::new((v, Args::One(Value::Player(s))));
        let answer = |v: u32| if v == 2 { Value::List(Arc::new(vec![Value::Int(2)])) } else { Value::Int(1) };
        let mut memo = memo();
        let keep = |memo: &mut Memo, v, s| {
            memo.begin();
            memo.read(Part::Var(0));
            let read = memo.end();
            memo.keep(asked(v, s), answer(v), read, 1);
        };
        for v in 0..3 {
            keep(&mut memo, v, 0);
            keep(&mut memo, v, 1);
        }
        assert_eq!(memo.get(&asked(1, 0)), Some(answer(1)), "value 1 found holding");
        for s in [0, 1] {
            memo.changed(Part::Var(0));
            for v in 0..3 {
                assert!(!memo.unkept(v), "value {v} is kept until found stale {} times", super::STALE_UNKEPT);
                assert_eq!(memo.get(&asked(v, s)), None);
                keep(&mut memo, v, s);
            }
        }
        assert_eq!([0, 1, 2].map(|v| memo.unkept(v)), [true, false, false]);
        // A game laid over the game before starts again: each value kept until found stale.
        let mut next = memo.fresh();
        assert!(!next.unkept(0));
        next.copy_from(&memo.fresh());
        memo.copy_from(&next);
        assert!(!memo.unkept(0));
    }

    #[test]
    fn values_of_a_word_pack_apart_unless_equal() {
        use crate::value::Piece;
        let piece = |kind, owner| Value::Piece(3, Piece { kind, owner });
        let values = [
            Value::None,
            Value::Bool(false),
            Value::Bool(true),
            Value::Int(0),
            Value::Int(1),
            Value::Int(-1),
            Value::Int((1 << 58) - 1),
            Value::Int(-(1 << 58) + 1),
            Value::Player(1),
            Value::Row(1),
            Value::Zone(1),
            Value::Cell(1),
            Value::Grid(1),
            Value::KindName(1),
            piece(1, None),
            piece(1, Some(0)),
            piece(0, Some(1)),
            Value::Border(1, 2),
            Value::Border(2, 1),
        ];
        let words: Vec<u64> = values.iter().map(|v| super::word(v).expect("packs")).collect();
        for (i, a) in words.iter().enumerate() {
            assert_ne!(*a, super::NO_ARGUMENT);
            for (j, b) in words.iter().enumerate() {
                assert_eq!(a == b, i == j, "{:?} and {:?}", values[i], values[j]);
            }
        }
        // What does not fit a word is asked by its hash and key instead.
        let list = Value::List(std::sync::Arc::new(vec![Value::Int(1)]));
        for v in
            [Value::Int(1 << 58), Value::Int(i64::MIN), piece(1 << 14, None), Value::Border(1 << 30, 0), list]
        {
            assert_eq!(super::word(&v), None, "{v:?}");
        }
    }

    #[test]
    fn a_key_of_three_arguments_packs_where_the_first_two_fit_a_word_together_apart_from_keys_of_two() {
        let three = |a: Value| (4, Args::Many(vec![a, Value::Cell(7), Value::Row(3)]));
        assert!(super::packed(&three(Value::Player(1))).is_some(), "a player, a cell and a row pack");
        let packed = super::packed(&three(Value::Int(5))).expect("a number, a cell and a row pack");
        // The words of a key of two that would read alike are another key.
        let (a, b) = (super::word(&Value::Int(5)).unwrap(), super::word(&Value::Cell(7)).unwrap());
        let like = Value::Int(((a | b << 32) >> 4) as i64);
        assert_eq!(super::word(&like), Some(a | b << 32));
        let two = super::packed(&(4, Args::Two(like, Value::Row(3)))).expect("two pack");
        assert_ne!(packed, two);
        // A first argument past a word's half: found by its key, as any other.
        assert_eq!(super::packed(&three(Value::Int(1 << 40))), None);
        let mut memo = memo();
        memo.keep(Asked::new(three(Value::Player(1))), Value::Int(1), one_bucket(), 1);
        memo.keep(Asked::new(three(Value::Int(1 << 40))), Value::Int(2), one_bucket(), 1);
        assert_eq!(memo.get(&Asked::new(three(Value::Player(1)))), Some(Value::Int(1)));
        assert_eq!(memo.get(&Asked::new(three(Value::Player(2)))), None);
        assert_eq!(memo.get(&Asked::new(three(Value::Int(1 << 40)))), Some(Value::Int(2)));
    }

    #[test]
    fn a_question_whose_arguments_do_not_pack_is_found_by_its_key_not_its_hash_alone() {
        let list = |n| Value::List(std::sync::Arc::new(vec![Value::Int(n)]));
        let asked = |n, hash| Asked {
            direct: None,
            packed: None,
            hashed: super::Hashed(hash, (0, Args::One(list(n)))),
        };
        let mut memo = memo();
        memo.keep(asked(1, 7), Value::Int(1), one_bucket(), 1);
        memo.keep(Asked::new((0, Args::One(list(2)))), Value::Int(2), one_bucket(), 1);
        found(&mut memo, 3, &[Part::Loc(1)]);
        // The same hash, another list: not that answer.
        assert_eq!(memo.get(&asked(5, 7)), None);
        assert_eq!(memo.get(&asked(1, 7)), Some(Value::Int(1)));
        // A list made again, equal, is the same question; a copy keeps both kinds of answers.
        let copy = memo.duplicate();
        for mut memo in [memo, copy] {
            assert_eq!(memo.get(&Asked::new((0, Args::One(list(2))))), Some(Value::Int(2)));
            assert_eq!(memo.get(&key(3)), Some(Value::Int(3)));
        }
    }

    #[test]
    fn the_buckets_changed_since_a_time_are_found_however_many_changes_ago_it_was() {
        // Fewer changes ago than the buckets asked of (and no more than the memo remembers,
        // `RECENT`), they are found from the changes since; else bucket by bucket: the same
        // buckets. Asked of 62 parts' buckets here; the parts changed, asked of or not.
        let asked: Vec<Part> =
            [Part::Loc(1), Part::Var(0)].into_iter().chain((4..64).map(Part::Loc)).collect();
        let bits = |memo: &Memo, parts: &[Part]| {
            let mut bits = Reads::default();
            for part in parts {
                let b = super::bucket(&memo.layout, *part);
                bits[b / 64] |= 1 << (b % 64);
            }
            bits
        };
        for others in [0, 1, super::RECENT - 2, super::RECENT - 1, super::RECENT, 61, 70] {
            let mut memo = Memo::new(Layout::new(2, [3].into_iter(), 64, (2, true), no_kinds()));
            memo.begin();
            asked.iter().for_each(|part| memo.read(*part));
            let reads = memo.end();
            memo.changed(Part::Loc(5));
            let found = memo.now();
            (0..others).for_each(|i| memo.changed(if i % 2 == 0 { Part::Loc(2) } else { Part::Current }));
            assert_eq!(memo.changed_since(&reads, found), Reads::default(), "{others} other changes");
            let found = memo.now();
            memo.changed(Part::Loc(1));
            (0..others).for_each(|_| memo.changed(Part::Loc(3)));
            assert_eq!(
                memo.changed_since(&reads, found),
                bits(&memo, &[Part::Loc(1)]),
                "{others} changes after"
            );
            memo.changed(Part::Var(0));
            let moved = bits(&memo, &[Part::Loc(1), Part::Var(0)]);
            assert_eq!(memo.changed_since(&reads, found), moved, "{others} changes after");
        }
    }

    #[test]
    fn the_buckets_changed_since_a_time_among_a_few_read_are_those_of_the_parts_changed() {
        // One bucket read, and fewer changes since than `FEW_CHANGES` or more: the changes since
        // are gone through, or the bucket looked at; the same buckets either way.
        for others in 0..super::FEW_CHANGES + 2 {
            let mut memo = memo();
            memo.changed(Part::Var(0));
            memo.begin();
            memo.read(Part::Loc(1));
            let reads = memo.end();
            let found = memo.now();
            (0..others).for_each(|_| memo.changed(Part::Loc(2)));
            assert_eq!(memo.changed_since(&reads, found), Reads::default(), "{others} other changes");
            memo.changed(Part::Loc(1));
            assert_eq!(memo.changed_since(&reads, found), reads, "{others} other changes");
        }
    }

    #[test]
    fn an_answer_found_a_few_changes_ago_holds_until_one_of_them_is_a_part_it_read() {
        // Checked against the changes since (at most `FEW_CHANGES` of them) or bucket by bucket:
        // the same verdict, for an answer of many parts and one of a single part, whichever
        // change comes last and however many came before it.
        let many: Vec<Part> = (0..60).map(Part::Loc).collect();
        let few = [Part::Var(1)];
        for before in 0..super::FEW_CHANGES + 3 {
            for last in [Part::Loc(7), Part::Var(1), Part::Var(0), Part::Current] {
                let mut memo = Memo::new(Layout::new(2, [3].into_iter(), 64, (2, true), no_kinds()));
                memo.changed(Part::Loc(0));
                found(&mut memo, 1, &many);
                found(&mut memo, 2, &few);
                (0..before).for_each(|_| memo.changed(Part::Owned(0, 2)));
                memo.changed(last);
                let read_many = matches!(last, Part::Loc(_));
                let kept = |n: i64, holds: bool| if holds { Some(Value::Int(n)) } else { None };
                assert_eq!(memo.get(&key(1)), kept(1, !read_many), "{before} changes, then {last:?}");
                assert_eq!(
                    memo.get(&key(2)),
                    kept(2, last != Part::Var(1)),
                    "{before} changes, then {last:?}"
                );
            }
        }
    }

    #[test]
    fn a_clock_run_out_forgets_every_answer() {
        let mut memo = memo();
        found(&mut memo, 1, &[Part::Loc(1)]);
        memo.begin();
        memo.read(Part::Loc(1));
        memo.now = u32::MAX;
        memo.changed(Part::Loc(2));
        assert_eq!(memo.end(), [u64::MAX; BUCKETS / 64]);
        assert_eq!(memo.get(&key(1)), None);
    }

    #[test]
    fn the_pieces_of_each_cell_of_a_grid_that_grows_are_a_part_of_their_own_where_buckets_are_left() {
        // A location past the program's own is a cell laid in a game: an answer about one holds
        // while pieces move on another, where the buckets hold every block's number and more.
        let mut memo = memo();
        found(&mut memo, 1, &[Part::Loc(9)]);
        memo.changed(Part::Loc(12));
        assert_eq!(memo.get(&key(1)), Some(Value::Int(1)));
        memo.changed(Part::Loc(9));
        assert_eq!(memo.get(&key(1)), None);
        // Where they do not, every cell's pieces are one part, apart from the blocks'.
        let crowded = Layout::new(2, [3].into_iter(), 450, (1, true), no_kinds());
        assert_eq!(crowded.number(Part::Loc(450)), crowded.number(Part::Loc(480)));
        let (cell, block) =
            (super::bucket(&crowded, Part::Loc(450)), super::bucket(&crowded, Part::Place(0, 0, 0)));
        assert_ne!(cell, block);
    }

    #[test]
    fn the_pieces_of_one_kind_at_a_place_are_a_part_of_their_own_where_no_grid_grows() {
        // An answer about one kind of piece at a place holds while pieces of another kind come
        // and go there; one about every piece there does not, nor one about that kind once it
        // moves, nor any once the place changes whole (a shuffle).
        let mut memo = Memo::new(Layout::new(2, [3].into_iter(), 8, (1, false), kinds(8, 3)));
        found(&mut memo, 1, &[Part::Kind(1, 0)]);
        found(&mut memo, 2, &[Part::Loc(1)]);
        found(&mut memo, 3, &[Part::Kind(1, 1)]);
        found(&mut memo, 4, &[Part::Kind(2, 1)]);
        memo.moved(1, [1, 2].into_iter());
        assert_eq!((memo.get(&key(1)), memo.get(&key(4))), (Some(Value::Int(1)), Some(Value::Int(4))));
        assert_eq!((memo.get(&key(2)), memo.get(&key(3))), (None, None));
        memo.changed(Part::Loc(1));
        assert_eq!(memo.get(&key(1)), None);
        assert_eq!(memo.get(&key(4)), Some(Value::Int(4)));
        // Where a grid that grows takes the buckets left, a kind's pieces at a place are the
        // place's part.
        let crowded = Layout::new(2, [3].into_iter(), 8, (1, true), kinds(8, 3));
        assert_eq!(crowded.number(Part::Kind(1, 2)), crowded.number(Part::Loc(1)));
    }

    #[test]
    fn the_parts_of_kinds_at_places_are_numbered_as_first_read_until_the_buckets_run_out() {
        // More kinds at places than buckets left: those read first have buckets of their own,
        // after every other part's, in the order read, the same in every game of the program;
        // those read after them are their place's part.
        let parts = kinds(100, 40);
        let many = Layout::new(2, [3].into_iter(), 100, (0, false), parts.clone());
        let first = many.number(Part::Seats) + 1;
        let read = |layout: &Layout| -> Vec<usize> {
            (0..100)
                .rev()
                .flat_map(|loc| (0..40).map(move |key| (loc, key)))
                .map(|(loc, key)| layout.number(Part::Kind(loc, key)))
                .collect()
        };
        let numbers = read(&many);
        let (own, rest) = numbers.split_at(BUCKETS - first);
        assert_eq!(own, (first..BUCKETS).collect::<Vec<_>>());
        let places: Vec<usize> =
            (0..100).rev().flat_map(|loc| std::iter::repeat_n(many.number(Part::Loc(loc)), 40)).collect();
        assert_eq!(rest, &places[BUCKETS - first..]);
        let another = Layout::new(2, [3].into_iter(), 100, (0, false), parts);
        assert_eq!(read(&another), numbers);
        // A change marks the parts of kinds given, and gives none.
        let mut memo = Memo::new(Layout::new(2, [3].into_iter(), 100, (0, false), kinds(100, 40)));
        memo.moved(5, 0..40);
        memo.changed(Part::Loc(6));
        assert_eq!(memo.layout.parts.next.load(Ordering::Relaxed), 0);
    }

    #[test]
    fn a_game_at_rest_keeps_an_answer_of_few_buckets_as_their_list_which_holds_until_one_changes() {
        // Places numbered past a byte's reach; one answer read more buckets than a list holds.
        let mut memo = Memo::new(Layout::new(2, [3].into_iter(), 400, (0, false), no_kinds()));
        found(&mut memo, 1, &[Part::Loc(300), Part::Loc(1)]);
        let many: Vec<Part> = (340..340 + super::LISTED as u32 + 1).map(Part::Loc).collect();
        found(&mut memo, 2, &many);
        found(&mut memo, 3, &[Part::Loc(2)]);
        memo.settle();
        assert_eq!((memo.rested_packed.len(), memo.packed.len()), (2, 1));
        let mut copy = memo.duplicate();
        memo.changed(Part::Loc(300));
        assert_eq!(memo.get(&key(1)), None, "a bucket it read changed");
        assert_eq!(memo.rested_packed.len(), 1, "and it is forgotten");
        assert_eq!((memo.get(&key(2)), memo.get(&key(3))), (Some(Value::Int(2)), Some(Value::Int(3))));
        // A value that asked an answer at rest read what it read.
        memo.begin();
        assert_eq!(memo.get(&key(3)), Some(Value::Int(3)));
        let read = memo.end();
        memo.keep(key(4), Value::Int(4), read, super::KEPT_AT_REST.into());
        memo.changed(Part::Loc(2));
        assert_eq!((memo.get(&key(3)), memo.get(&key(4))), (None, None));
        memo.changed(Part::Loc(340 + super::LISTED as u32));
        assert_eq!(memo.get(&key(2)), None);
        // A copy keeps the answers at rest, and a game settled again forgets those that no
        // longer hold.
        assert_eq!(copy.get(&key(1)), Some(Value::Int(1)));
        copy.changed(Part::Loc(1));
        copy.settle();
        assert_eq!(copy.len(), 2);
        assert_eq!(copy.get(&key(1)), None);
    }

    #[test]
    fn the_ring_of_recent_changes_tells_buckets_past_a_byte_apart() {
        let mut memo = Memo::new(Layout::new(2, [3].into_iter(), 400, (0, false), no_kinds()));
        memo.begin();
        (290..300).chain([2]).for_each(|loc| memo.read(Part::Loc(loc)));
        let reads = memo.end();
        let found = memo.now();
        let far = super::bucket(&memo.layout, Part::Loc(299));
        assert!(far >= 256);
        memo.changed(Part::Loc(299));
        let mut moved = Reads::default();
        moved[far / 64] |= 1 << (far % 64);
        assert_eq!(memo.changed_since(&reads, found), moved);
    }

    /// What reads the first bucket alone.
    fn one_bucket() -> Reads {
        let mut reads = Reads::default();
        reads[0] = 1;
        reads
    }

    /// The numbers of no kind of piece at a place.
    fn no_kinds() -> Arc<KindParts> {
        Arc::default()
    }

    /// The numbers of kinds of so many keys at so many places, none given yet.
    fn kinds(locations: usize, keys: u32) -> Arc<KindParts> {
        Arc::new(KindParts::new(locations, keys))
    }

    #[test]
    fn a_value_that_asked_an_answer_read_what_it_read() {
        let mut memo = memo();
        found(&mut memo, 1, &[Part::Loc(1)]);
        memo.begin();
        assert_eq!(memo.get(&key(1)), Some(Value::Int(1)));
        let read = memo.end();
        memo.keep(key(2), Value::Int(2), read, 1);
        memo.changed(Part::Loc(1));
        assert_eq!(memo.get(&key(2)), None);
        // and one that read everything (a supposition) holds only while nothing changes.
        memo.begin();
        memo.read_everything();
        let read = memo.end();
        assert_eq!(read, [u64::MAX; BUCKETS / 64]);
        memo.keep(key(3), Value::Int(3), read, 1);
        memo.changed(Part::Current);
        assert_eq!(memo.get(&key(3)), None);
    }

    #[test]
    fn a_game_at_rest_keeps_the_answers_that_hold_cost_steps_and_read_the_game() {
        let mut memo = memo();
        found(&mut memo, 1, &[Part::Loc(0)]);
        found(&mut memo, 2, &[Part::Current]);
        found(&mut memo, 3, &[Part::Var(0)]);
        found(&mut memo, 4, &[]);
        memo.begin();
        memo.read(Part::Var(1));
        let read = memo.end();
        memo.keep(key(5), Value::Int(5), read, u64::from(super::KEPT_AT_REST) - 1);
        memo.changed(Part::Loc(0));
        found(&mut memo, 6, &[Part::Loc(0)]);
        memo.settle();
        assert_eq!(memo.len(), 3);
        assert_eq!(memo.get(&key(2)), Some(Value::Int(2)));
        assert_eq!((memo.get(&key(1)), memo.get(&key(4)), memo.get(&key(5))), (None, None, None));
        // The clock started again, and the times of the changes before are forgotten: an answer
        // found after a change still holds; what the kept answers read still counts.
        memo.changed(Part::Current);
        assert_eq!(memo.get(&key(2)), None);
        assert_eq!(memo.get(&key(3)), Some(Value::Int(3)));
        assert_eq!(memo.get(&key(6)), Some(Value::Int(6)));
    }

    #[test]
    fn an_answer_about_one_block_of_a_grid_holds_while_shapes_are_laid_on_others() {
        let mut memo = memo();
        found(&mut memo, 1, &[Part::Place(0, 1, 1)]);
        found(&mut memo, 2, &[Part::Grid(0)]);
        // A shape laid on the block beside it: the grid changed, and that block.
        memo.changed(Part::Place(0, 2, 1));
        memo.changed(Part::Grid(0));
        assert_eq!(memo.get(&key(1)), Some(Value::Int(1)));
        assert_eq!(memo.get(&key(2)), None);
        memo.changed(Part::Place(0, 1, 1));
        assert_eq!(memo.get(&key(1)), None);
    }

    #[test]
    fn the_parts_of_a_small_game_fall_in_buckets_of_their_own() {
        // Then an answer holds until one of the very parts it read changes (the blocks of a
        // grid, 8 by 8 of them, and the pieces of the first cells laid, too).
        let layout = Layout::new(2, [3, 4].into_iter(), 8, (2, true), no_kinds());
        let parts: Vec<Part> = (0..2)
            .map(Part::Var)
            .chain((0..3).map(|i| Part::Owned(0, i)))
            .chain((0..4).map(|i| Part::Owned(1, i)))
            .chain((0..16).map(Part::Loc))
            .chain([Part::Current, Part::Seats, Part::Grid(0), Part::Grid(1)])
            .chain((-1..7).flat_map(|x| (-1..7).map(move |y| Part::Place(0, x, y))))
            .collect();
        let mut buckets: Vec<usize> = parts.iter().map(|part| super::bucket(&layout, *part)).collect();
        buckets.sort_unstable();
        buckets.dedup();
        assert_eq!(buckets.len(), parts.len());
    }
}
