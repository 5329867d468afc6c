//! The machine that runs a lowered program: a game's position is plain data (variables, the
//! pieces at every location, the generator, the frames of the rules being run), so a `Game`
//! copies with `clone`, compares and hashes. Statements run as instructions of explicit frames
//! and suspend only at a decision; expressions are evaluated recursively (they never suspend).
//! Every failure is a `Fail`, never a panic: the Python side reports it as a rule's error.

use crate::grid::{self, GridIndex};
use crate::ir::{AttrIr, BinOp, Builtin, Expr, Instr, LogPart, OwnedRef, Program};
use crate::limits::{self, Entered};
use crate::memo::{KindParts, Layout, Memo, Reads};
use crate::offers::{Open, Taken};
use crate::options::Options;
use crate::placement::{self, Grown};
use crate::rng::Mt;
use crate::teams::Teams;
use crate::value::{Piece, Value};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

/// The largest number a game may compute (meeple/limits.py's MAX_NUMBER) is the largest of the
/// machine's numbers; the other limits come with the program (`Program::limits`).
pub const MAX_NUMBER: i64 = i64::MAX;

/// Why a game stopped on an error: the kind the Python side words, and the instruction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FailKind {
    /// A rule did something impossible: the message says what.
    Error(String),
    /// The step budget ran out going round a loop.
    BudgetLoop,
    /// The step budget ran out calling a rule (its code index).
    BudgetCall(u32),
    /// The step budget ran out going through a list of so many items.
    BudgetList(usize),
    /// Calls of rules, values and triggers went deeper than `MAX_RECURSION`: what was entered.
    Recursion(Entered),
    /// The game asked more decisions than `MAX_DECISIONS`.
    Decisions,
    /// The readable log grew beyond `MAX_LOG_CHARS`.
    LogChars,
    /// Values call one another deeper than the core's stack allows.
    ValueDepth,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fail {
    pub kind: FailKind,
    /// The failing instruction's place (its `at`), once known.
    pub at: Option<u32>,
}

fn error<T>(message: impl Into<String>) -> Result<T, Fail> {
    Err(Fail { kind: FailKind::Error(message.into()), at: None })
}

/// A loaded program with what the machine looks up fast (each board's cells by coordinates,
/// each row's columns by index).
#[derive(Debug)]
pub struct Loaded {
    pub ir: Program,
    pub grids: Vec<GridIndex>,
    /// Each row's values of the columns, by the row's index and the column's (`ir.columns`,
    /// every column of a row included): what `row.column` reads, without hashing its name.
    columns: Vec<Vec<Option<Value>>>,
    /// Each column's index by its name, for the questions that name a column at run time.
    column_ids: HashMap<String, u32, Fast>,
    /// The answers of declared values that read nothing of a game (`Known`), for every game.
    known: Known,
    /// By value: whether it is computed where it is asked rather than kept (in_place.rs).
    in_place: Vec<bool>,
    /// By value: its body compiled, where it is a small test of what stands at a place
    /// (bodies.rs), answered without the memo.
    bodies: Vec<Option<crate::bodies::Body>>,
    /// By value: how its answers are keyed where some argument is kept by what the body reads
    /// of it (narrowed.rs).
    narrowed: Vec<Option<crate::narrowed::Narrowing>>,
    keys: Keys,
    /// The memo's numbers of the parts of kinds at places, shared by every game (memo.rs).
    kind_parts: Arc<KindParts>,
    /// By value: whether its body is a filter of a small board's cells by their pieces, answered
    /// in one pass before kept.rs is asked to keep it (occupied.rs).
    pub(crate) passes: Vec<bool>,
    /// By value: its body's filter condition compiled, where it can be (compiled.rs).
    pub(crate) tests: Vec<Option<crate::compiled::Test>>,
    /// By value: whether its body is a filter of a small board's cells by its compiled
    /// condition, answered a word of cells at a time before kept.rs is asked to keep it
    /// (occupied.rs's `tested`).
    pub(crate) tested: Vec<bool>,
    /// By code and instruction: the askings its loop makes once, not once per item (once.rs).
    once: Vec<Vec<crate::once::Once>>,
    /// By declared value: the value appended to the program that answers it as a set of cells,
    /// and by value, whether it is one of those (cells.rs).
    pub(crate) as_set: Vec<Option<u32>>,
    pub(crate) sets: Vec<bool>,
    /// By value answered as a set: its body taken apart for occupied.rs's pass, where it answers.
    pub(crate) passing: Vec<Option<crate::occupied::Passing>>,
    /// By declaration of pieces: its only kind, where it has one (`sole_kinds`).
    sole_kind: Vec<Option<u32>>,
}

/// By declaration of pieces, its only kind where it has exactly one (a declaration of a kind per
/// row has several): a piece is then of it by its kind alone, with no lookup of the kind's
/// declaration (`move_count`).
fn sole_kinds(ir: &Program) -> Vec<Option<u32>> {
    let decls = ir.kinds.iter().map(|k| k.decl as usize + 1).max().unwrap_or(0);
    // None: no kind seen yet; Some(None): more than one.
    let mut sole: Vec<Option<Option<u32>>> = vec![None; decls];
    for (i, kind) in ir.kinds.iter().enumerate() {
        let seen = &mut sole[kind.decl as usize];
        *seen = Some(if seen.is_none() { Some(i as u32) } else { None });
    }
    sole.into_iter().map(Option::flatten).collect()
}

/// The keys of the kinds of pieces as the memo's parts name them (`Part::Kind`), numbered from 0:
/// each declaration's (its index), then each row's that some kind of piece is.
#[derive(Debug)]
struct Keys {
    decls: u32,
    /// Each row's key, by the row's index among all rows (`NO_KEY`: no piece is of that row).
    rows: Vec<u32>,
    count: u32,
}

const NO_KEY: u32 = u32::MAX;

impl Keys {
    fn new(ir: &Program) -> Keys {
        let decls = ir.kinds.iter().map(|k| k.decl + 1).max().unwrap_or(0);
        let mut rows = vec![NO_KEY; ir.rows.len()];
        let mut count = decls;
        for r in ir.kinds.iter().filter_map(|k| k.row) {
            if rows.len() <= r as usize {
                rows.resize(r as usize + 1, NO_KEY);
            }
            if rows[r as usize] == NO_KEY {
                rows[r as usize] = count;
                count += 1;
            }
        }
        Keys { decls, rows, count }
    }
}

/// The answers of declared values that read no part of a game (no variable, piece, turn, grid,
/// nor the seats and teams): they are the same in every game of the program, so they are found
/// once for it, not once per game. A tile's shape, searched among every row of a table (`[each h
/// in TABLE where h.tile == t]`), was found anew in each game: 40% of the expressions one bundled
/// game evaluated (docs/benchmarks.md, a fourth round). Each answer keeps the steps its computing
/// spent, which a game that reads it spends too: the budget sees the same game whether the answer
/// was known or not. Shared by every game of the program (a search's copies, a simulation's games
/// in one process), behind a lock; never more than `KNOWN_MOST` answers.
#[derive(Default, Debug)]
struct Known {
    answers: std::sync::Mutex<HashMap<Key, (Value, u64), Fast>>,
    /// Each declared value that once read something of a game: its answers are not looked for
    /// here (the lock and the hashing cost more than they find; Connect Four's `empty(c)`).
    varies: Vec<std::sync::atomic::AtomicBool>,
}

/// The most answers a program keeps for all its games.
const KNOWN_MOST: usize = 1 << 16;

impl Known {
    fn new(values: usize) -> Known {
        let varies = (0..values).map(|_| std::sync::atomic::AtomicBool::new(false)).collect();
        Known { answers: Default::default(), varies }
    }

    /// Whether the value's answers may be here (it never read anything of a game).
    fn may_know(&self, value: u32) -> bool {
        self.varies.get(value as usize).is_some_and(|v| !v.load(std::sync::atomic::Ordering::Relaxed))
    }

    fn get(&self, key: &Key) -> Option<(Value, u64)> {
        self.answers.lock().ok()?.get(key).cloned()
    }

    /// An answer found, what it read and the steps it spent: kept if it read nothing.
    fn found(&self, key: &Key, answer: &Value, read: &Reads, steps: u64) {
        if *read != Reads::default() {
            if let Some(varies) = self.varies.get(key.0 as usize) {
                varies.store(true, std::sync::atomic::Ordering::Relaxed);
            }
        } else if let Ok(mut known) = self.answers.lock() {
            if known.len() < KNOWN_MOST {
                known.insert(key.clone(), (answer.clone(), steps));
            }
        }
    }
}

/// Whether a value means the same in every game of the program: not a cell of a grid that grows
/// (its location is another cell in another game), a piece there, a layer, an area, a route or a
/// border, which name such cells. Only answers whose arguments all are may be `Known`.
fn of_the_program(p: &Loaded, v: &Value) -> bool {
    let fixed = |loc: u32| (loc as usize) < p.ir.locations.len();
    match v {
        Value::Cell(loc) | Value::Piece(loc, _) => fixed(*loc),
        Value::Placement(_) | Value::Route(_) | Value::Area(_) | Value::Border(..) => false,
        Value::List(items) => items.iter().all(|item| of_the_program(p, item)),
        _ => true,
    }
}

impl Loaded {
    pub fn new(mut ir: Program) -> Loaded {
        // First, so that every table by value below has the values it appends.
        let (as_set, sets) = crate::cells::found(&mut ir);
        ir.code.iter_mut().for_each(crate::jumps::threaded);
        let once = ir.code.iter_mut().map(crate::once::found_once).collect();
        let grids: Vec<GridIndex> = ir.grids.iter().map(GridIndex::new).collect();
        for row in &ir.rows {
            for name in row.keys() {
                if !ir.columns.contains(name) {
                    ir.columns.push(name.clone());
                }
            }
        }
        let column_ids: HashMap<String, u32, Fast> =
            ir.columns.iter().enumerate().map(|(i, name)| (name.clone(), i as u32)).collect();
        let columns = ir
            .rows
            .iter()
            .map(|row| ir.columns.iter().map(|name| row.get(name).cloned()).collect())
            .collect();
        let known = Known::new(ir.values.len());
        let in_place: Vec<bool> = ir
            .values
            .iter()
            .enumerate()
            .map(|(i, v)| {
                (v.slots as usize <= FEW_SLOTS && crate::in_place::asked_in_place(&v.body))
                    || crate::cells::in_place(&ir, &as_set, i)
            })
            .collect();
        let bodies = (ir.values.iter().zip(&in_place))
            .map(|(v, computed)| if *computed { None } else { crate::bodies::compile(v) })
            .collect();
        let narrowed = ir.values.iter().map(|v| crate::narrowed::Narrowing::of(v, &ir.columns)).collect();
        let keys = Keys::new(&ir);
        let kind_parts = Arc::new(KindParts::new(ir.locations.len(), keys.count));
        let tests: Vec<Option<crate::compiled::Test>> = ir
            .values
            .iter()
            .map(|v| match &v.body {
                Expr::Filter { slot, cond, .. } => crate::compiled::compile(&ir, &in_place, *slot, cond),
                _ => None,
            })
            .collect();
        let passes = ir.values.iter().map(|v| crate::occupied::passes_first(&ir, &v.body)).collect();
        let tested = (ir.values.iter().zip(&tests))
            .map(|(v, test)| test.is_some() && crate::occupied::tested_first(&ir, &grids, &v.body))
            .collect();
        let sole_kind = sole_kinds(&ir);
        let passing = (ir.values.iter().zip(&sets))
            .map(|(v, set)| set.then(|| crate::occupied::Passing::of(&ir, &v.body)).flatten())
            .collect();
        Loaded {
            ir,
            grids,
            columns,
            column_ids,
            known,
            in_place,
            bodies,
            narrowed,
            keys,
            kind_parts,
            tests,
            tested,
            passes,
            once,
            as_set,
            sets,
            passing,
            sole_kind,
        }
    }

    /// The key of a kind as `pieces(WHERE, KIND)` names it (`Part::Kind`); None for what names
    /// no kind pieces are of (no piece fits it).
    pub(crate) fn kind_key(&self, kind: &Value) -> Option<u32> {
        if self.keys.count < 2 {
            return None; // pieces of one kind: a place's are all of that kind
        }
        match kind {
            Value::KindName(d) => Some(*d).filter(|d| *d < self.keys.decls),
            Value::Row(r) => self.keys.rows.get(*r as usize).copied().filter(|key| *key != NO_KEY),
            _ => None,
        }
    }

    /// The keys a kind of piece (an index of `ir.kinds`) answers to: its declaration's, and its
    /// row's if it has one.
    fn keys_of(&self, kind: u32) -> impl Iterator<Item = u32> + '_ {
        let kind = &self.ir.kinds[kind as usize];
        let row = kind.row.and_then(|r| self.keys.rows.get(r as usize)).copied();
        std::iter::once(kind.decl).chain(row)
    }

    /// A row's value of a column (an index of `ir.columns`).
    pub fn column(&self, row: u32, column: u32) -> Result<Value, Fail> {
        match self.columns.get(row as usize).and_then(|values| values.get(column as usize)) {
            Some(Some(v)) => Ok(v.clone()),
            _ => error(format!("a row has no '{}'", self.column_name(column))),
        }
    }

    /// A row's value of a column named at run time.
    pub fn column_named(&self, row: u32, name: &str) -> Result<Value, Fail> {
        match self.column_ids.get(name) {
            Some(column) => self.column(row, *column),
            None => error(format!("a row has no '{name}'")),
        }
    }

    /// A column's index by its name, if a row has it or an expression reads it.
    pub fn column_id(&self, name: &str) -> Option<u32> {
        self.column_ids.get(name).copied()
    }

    pub fn column_name(&self, column: u32) -> &str {
        self.ir.columns.get(column as usize).map_or("?", String::as_str)
    }

    fn cell_of(&self, loc: u32) -> Result<(u32, i64, i64), Fail> {
        match self.ir.locations.get(loc as usize).and_then(|l| l.cell) {
            Some(cell) => Ok(cell),
            None => error("not a cell of a grid"),
        }
    }
}

/// Something the log says happened, formatted into words by the Python side (one formatter
/// for both engines).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Event {
    /// A seat chose (`option` None: it passed); `only`: it was the only option.
    Chose { seat: u32, prompt: u32, option: Option<Value>, only: bool },
    /// A `log` statement's line: texts and values.
    Line(Vec<Said>),
    /// A random outcome (`random`, `pick ... at random`): its title, and what came out.
    Chance { title: u32, outcome: Said },
    /// A `reveal`: the seats shown, and the pieces by the place they are in (reveal.rs). The
    /// seats shown read the pieces; the others read how many, and where.
    Revealed { seats: Vec<u32>, at: Vec<(u32, Vec<Piece>)> },
    /// What the line before it needs for a reader's words (words.rs): no line of its own.
    Context(crate::words::Context),
}

#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Said {
    Text(u32),
    Value(Value),
}

/// What a move or a draw wanted more of than there was.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Short {
    /// Pieces of a declaration (of one row's kind, if given).
    Kind(u32, Option<u32>),
    /// Draws from a location.
    Draw(u32),
}

/// Everything about a game apart from the frames: what expressions read, and what statements
/// change.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct World {
    pub players: u32,
    /// The seats as the list `players` names, made once for the game and shared by every asking.
    seats: Arc<Vec<Value>>,
    /// Every seat's team, chosen when the game starts (teams.rs).
    pub teams: Teams,
    pub vars: Vec<Value>,
    /// Each store of variables per owner: one value per seat, or per row of its table.
    pub owned: Vec<Vec<Value>>,
    pub locs: Vec<Vec<Piece>>,
    pub current: Option<u32>,
    pub turns: u64,
    pub steps: u64,
    pub budget: u64,
    pub rng: Mt,
    pub counters: Vec<Vec<i64>>,
    /// Pieces moves and draws wanted and did not find, and how many.
    pub shortfalls: Vec<(Short, u64)>,
    pub events: Vec<Event>,
    pub logging: bool,
    /// The cells laid on grids that grow (placement.rs).
    pub grown: Grown,
    /// Characters of the readable log so far (`MAX_LOG_CHARS`; limits.rs).
    pub log_chars: u64,
    /// Calls of rules, values and triggers under way, one inside another (`MAX_RECURSION`).
    pub calls: u32,
    depth: u32,
    pub(crate) memo: Memo,
    /// The areas of grids as last found (areas.rs), kept until a grid changes.
    pub(crate) areas: crate::areas::Kept,
    /// What `reveal` showed each seat, and it still knows (reveal.rs).
    pub seen: crate::reveal::Seen,
    /// Room for a move's lists, kept from one move to the next (`Room`).
    pub(crate) room: Room,
}

/// The lists a move makes (the places it takes from, the places it changed, the pieces it
/// moved), kept empty between moves with their room, and the slots of the rules' frames that
/// ended, for the next call: a move made and freed three lists, and a call its frame's slots,
/// about 800 instructions of Tic-Tac-Toe's 12,600 a move (docs/benchmarks.md, a twenty-ninth
/// round). No part of the position: equal, and hashed as nothing, whatever room it holds; a copy
/// of a game starts with none.
#[derive(Default, Debug)]
pub(crate) struct Room {
    places: Vec<u32>,
    touched: Vec<u32>,
    pieces: Vec<Piece>,
    slots: Vec<Vec<Value>>,
}

/// The most frames' slots a room keeps (as many as calls are usually under way at once).
const ROOM_SLOTS: usize = 8;

impl Room {
    /// A move's lists, given back when the move is done with them.
    fn keep(&mut self, touched: Vec<u32>, pieces: Vec<Piece>) {
        (self.touched, self.pieces) = (touched, pieces);
    }

    /// Slots for a frame of `size` names, each none: those of a frame that ended, where any.
    /// Each none is written where it lies (`resize_with`), not cloned from one (`resize` called
    /// `Value::clone` for every slot).
    fn slots(&mut self, size: usize) -> Vec<Value> {
        let mut slots = self.slots.pop().unwrap_or_default();
        slots.resize_with(size, Value::default);
        slots
    }

    /// The slots of a frame that ended, emptied, kept for the next call.
    fn keep_slots(&mut self, mut slots: Vec<Value>) {
        if self.slots.len() < ROOM_SLOTS {
            slots.clear();
            self.slots.push(slots);
        }
    }
}

apart_from_the_position!(Room);

/// A part of the position an answer may read: a variable, the pieces at a location, whose
/// turn it is.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Part {
    Var(u32),
    /// A variable of one owner: its store, and the owner's place in it.
    Owned(u32, u32),
    Loc(u32),
    /// The pieces of one kind at a location, by the kind's key (`kind_key`): a question about
    /// one kind of piece at a place (how many of its tokens of one kind an area holds) holds
    /// while pieces of other kinds come and go there, as the Python engine's memo keeps it.
    Kind(u32, u32),
    Current,
    /// Which cells a grid that grows has.
    Grid(u32),
    /// One block of a grid that grows (one cell, on a grid without blocks), by its (x, y):
    /// whether cells lie there and the rows they show. A question about a few places of a grid
    /// (what lies beside a placement, what a cell shows) reads these, not the whole grid, and
    /// holds while a shape is laid elsewhere (`placement::place`).
    Place(u32, i64, i64),
    /// The seats of the game and their teams: the same throughout a game, but not in every game
    /// of the program (an answer that read them is not `Known`).
    Seats,
}

/// A declared value and its arguments: one or two (what most values take) without a list, so
/// that asking the memo makes nothing on the heap (a value of two arguments asked at every
/// decision, `available(p, a)`, made and dropped a list at each asking).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub(crate) enum Args {
    One(Value),
    Two(Value, Value),
    Many(Vec<Value>),
}

impl Args {
    /// The arguments as the first slots of the value's names.
    /// The arguments put in the first of these slots (as many as there are).
    fn fill(&self, slots: &mut [Value]) {
        match self {
            Args::One(v) => slots[0] = v.clone(),
            Args::Two(a, b) => (slots[0], slots[1]) = (a.clone(), b.clone()),
            Args::Many(values) => slots.iter_mut().zip(values).for_each(|(slot, v)| *slot = v.clone()),
        }
    }

    fn slots(&self, size: usize) -> Vec<Value> {
        let mut env = Vec::with_capacity(size);
        match self {
            Args::One(v) => env.push(v.clone()),
            Args::Two(a, b) => env.extend([a.clone(), b.clone()]),
            Args::Many(values) => env.extend(values.iter().cloned()),
        }
        env.resize(size, Value::None);
        env
    }
}

pub(crate) type Key = (u32, Args);

/// The most names a declared value has on the stack while it is computed.
pub(crate) const FEW_SLOTS: usize = 6;

/// A fast hash for the memo's small keys and the grids' sets of cells (the multiply-and-rotate
/// of rustc's own FxHasher): nothing a player writes chooses these keys.
#[derive(Default, Clone, Copy, Debug)]
pub struct Fast;

impl std::hash::BuildHasher for Fast {
    type Hasher = FastHasher;
    fn build_hasher(&self) -> FastHasher {
        FastHasher(0)
    }
}

pub struct FastHasher(u64);

impl std::hash::Hasher for FastHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn write_u32(&mut self, n: u32) {
        self.write_u64(u64::from(n));
    }
    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

impl World {
    /// This world made the same as `source`, its memo's answers kept (`Game::copy_from`), in the
    /// room it has; its chance drawing from `given` where one is given.
    fn copy_from(&mut self, source: &World, given: Option<Mt>) {
        let World {
            players,
            seats,
            teams,
            vars,
            owned,
            locs,
            current,
            turns,
            steps,
            budget,
            rng,
            counters,
            shortfalls,
            events,
            logging,
            grown,
            log_chars,
            calls,
            depth,
            memo,
            areas: _, // a cache no part of the position: the copy's forgotten in place (`forget`)
            seen,
            room: _, // this world's own room, kept
        } = source;
        self.players = *players;
        self.seats.clone_from(seats);
        self.teams.clone_from(teams);
        self.vars.clone_from(vars);
        self.owned.clone_from(owned);
        self.locs.clone_from(locs);
        self.current = *current;
        self.turns = *turns;
        self.steps = *steps;
        self.budget = *budget;
        match given {
            Some(given) => self.rng = given,
            None => self.rng.clone_from(rng),
        }
        self.counters.clone_from(counters);
        self.shortfalls.clone_from(shortfalls);
        self.events.clone_from(events);
        self.logging = *logging;
        self.grown.clone_from(grown);
        self.log_chars = *log_chars;
        self.calls = *calls;
        self.depth = *depth;
        self.memo.copy_from(memo);
        self.areas.forget();
        self.seen.clone_from(seen);
    }

    /// A part of the position was read by the value being computed, if any.
    pub(crate) fn read(&mut self, part: Part) {
        self.memo.read(part);
    }

    /// Forget every answer kept: what a shift moved may have been read anywhere (shift.rs).
    pub(crate) fn forget(&mut self) {
        self.memo = self.memo.fresh();
        self.areas.forget();
    }

    /// Set a variable. A value set to what it was is no change: the answers that read it still
    /// hold (it is set all the same: values equal as keys may differ, as areas of other columns
    /// with the same cells do).
    pub(crate) fn set_var(&mut self, var: u32, v: Value) {
        let old = std::mem::replace(&mut self.vars[var as usize], v);
        if self.vars[var as usize] != old {
            self.changed(Part::Var(var));
        }
    }

    /// Set an owner's variable (its store, and the owner's place in it), as `set_var` sets one.
    pub(crate) fn set_owned(&mut self, store: u32, i: u32, v: Value) {
        let old = std::mem::replace(&mut self.owned[store as usize][i as usize], v);
        if self.owned[store as usize][i as usize] != old {
            self.changed(Part::Owned(store, i));
        }
    }

    /// These pieces arrived at these places or left them (a move's, a draw's): the answers
    /// that read the pieces there, or those of these pieces' kinds there, no longer hold.
    pub(crate) fn moved(&mut self, p: &Loaded, places: &[u32], pieces: &[Piece]) {
        if !self.memo.has_kinds() {
            // No part of its own for any kind: the places' pieces changed, nothing more to find.
            places.iter().for_each(|loc| self.memo.changed(Part::Loc(*loc)));
            return;
        }
        let mut kinds: Vec<u32> = Vec::new();
        for pc in pieces {
            if !kinds.contains(&pc.kind) {
                kinds.push(pc.kind);
            }
        }
        let keys = || kinds.iter().flat_map(|k| p.keys_of(*k));
        places.iter().for_each(|loc| self.memo.moved(*loc, keys()));
    }

    /// A part of the position changed: the answers that read it no longer hold.
    pub(crate) fn changed(&mut self, part: Part) {
        self.memo.changed(part);
        if let Part::Grid(_) = part {
            self.areas.forget();
        }
    }

    /// A question about a position that never happens (a supposition, layers.rs): answers found
    /// meanwhile (and areas) go to a memo of their own, forgotten after, and the value that asked is kept only
    /// while the real position lasts (it counts as having read every part). `f` puts the
    /// position back as it was.
    pub(crate) fn apart<T>(&mut self, f: impl FnOnce(&mut World) -> T) -> T {
        let kept = std::mem::take(&mut self.memo);
        // The areas found of the real grids hold again once it is put back: kept aside too.
        let areas = std::mem::take(&mut self.areas);
        let answer = f(self);
        self.memo = kept;
        self.areas = areas;
        self.memo.read_everything();
        answer
    }

    pub(crate) fn spend(&mut self, n: usize, kind: FailKind) -> Result<(), Fail> {
        self.steps += n as u64;
        if self.steps > self.budget {
            return Err(Fail { kind, at: None });
        }
        Ok(())
    }
}

/// One rule (or setup, or play) being run: which code, where in it, and its names' values.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub(crate) struct Frame {
    pub(crate) code: u32,
    pub(crate) pc: u32,
    pub(crate) slots: Vec<Value>,
    /// Whether it counts as a call under way (MAX_RECURSION): a rule's from its start, a
    /// trigger's once its condition is met, setup and play never.
    pub(crate) entered: bool,
}

/// A decision waiting for its answer.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Pending {
    pub seat: u32,
    pub prompt: u32,
    /// A list, or a set of cells (options.rs): an agent reads their count and one of them.
    pub options: Options,
    pub optional: bool,
    /// The slot the chosen option goes to; None for a yes-or-no question (`may "..."`), whose
    /// "no" goes to `orelse`.
    pub(crate) var: Option<u32>,
    orelse: u32,
    /// The asking instruction's place: where an error the answer brings about stands.
    pub(crate) at: u32,
    /// The actions offered beside the options, after them (offers.rs): indexes of `Game::offers`.
    pub offers: Vec<u32>,
    /// The asking instruction's index in its code, run again after an offered action; or, with
    /// `same_again`, the same decision asked again (the next item of a loop whose order a
    /// player chooses).
    pub(crate) asked: u32,
    pub(crate) same_again: bool,
}

impl Pending {
    pub fn size(&self) -> usize {
        self.options.len() + usize::from(self.optional) + self.offers.len()
    }
}

/// A game in progress: plain data, cheap to copy (the program is shared).
#[derive(Clone, Debug)]
pub struct Game {
    pub program: Arc<Loaded>,
    pub world: World,
    pub(crate) frames: Vec<Frame>,
    /// The `offer` blocks under way, the innermost last, and the offered actions being taken
    /// (offers.rs).
    pub(crate) offers: Vec<Open>,
    pub(crate) taken: Vec<Taken>,
    pub pending: Option<Pending>,
    pub over: bool,
    pub ended_early: bool,
    pub failed: Option<Fail>,
    pub choices: Vec<u32>,
}

impl PartialEq for Game {
    fn eq(&self, other: &Game) -> bool {
        Arc::ptr_eq(&self.program, &other.program)
            && self.world == other.world
            && self.frames == other.frames
            && self.offers == other.offers
            && self.taken == other.taken
            && self.pending == other.pending
            && self.over == other.over
    }
}

impl Eq for Game {}

impl std::hash::Hash for Game {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.world.hash(state);
        self.frames.hash(state);
        self.offers.hash(state);
        self.taken.hash(state);
        self.pending.hash(state);
        self.over.hash(state);
    }
}

/// Who answers a decision inside the machine.
#[derive(Clone, Debug)]
pub enum Agent {
    /// Uniformly at random, from its own generator (as interpreter/agents.py's RandomAgent).
    Random(Mt),
    /// Always the first option.
    First,
    /// Searches (mcts.rs) before each answer, its generator for the n-th decision it answers
    /// seeded with `seed * 1,000,000 + n` (as agents.py's MctsAgent).
    Mcts { search: crate::mcts::Search, seed: i128, asked: i128 },
    /// Plays a style the rules declare (styles.rs), by its index, from its own generator.
    Style { style: u32, rng: Mt },
}

impl Game {
    /// A new game: the start of the game laid out, then setup and play run to the first
    /// decision a player must make (or to the end).
    pub fn new(program: Arc<Loaded>, players: u32, seed: i128, budget: u64, logging: bool) -> Game {
        Game::seated(program, players, Teams::alone(players), seed, budget, logging, None)
    }

    /// A new game whose seats play in `teams` (teams.rs), started from `start` (what a save
    /// makes of the start: carry.rs) if given, run to its first decision.
    pub fn seated(
        program: Arc<Loaded>,
        players: u32,
        teams: Teams,
        seed: i128,
        budget: u64,
        logging: bool,
        start: Option<&crate::carry::Start>,
    ) -> Game {
        let mut game = Game::laid(program, players, teams, seed, budget, logging, start);
        if game.failed.is_none() {
            game.advance();
        }
        game
    }

    /// A new game laid out (start values, pieces, the save's start) with setup and play about
    /// to run, or stopped by an error in its start. Laying out draws nothing from the
    /// generator, so every seed lays out the same game: playouts.rs lays it out once.
    pub(crate) fn laid(
        program: Arc<Loaded>,
        players: u32,
        teams: Teams,
        seed: i128,
        budget: u64,
        logging: bool,
        start: Option<&crate::carry::Start>,
    ) -> Game {
        let ir = &program.ir;
        let world = World {
            players,
            seats: Arc::new((0..players).map(Value::Player).collect()),
            teams,
            vars: vec![Value::None; ir.vars.len()],
            owned: ir
                .owned
                .iter()
                .map(|o| {
                    let owners = o.rows.as_ref().map_or(players as usize, Vec::len);
                    vec![Value::None; owners * o.by.as_ref().map_or(1, Vec::len)]
                })
                .collect(),
            locs: vec![Vec::new(); ir.locations.len()],
            current: None,
            turns: 0,
            steps: 0,
            budget,
            rng: Mt::new(seed),
            counters: ir
                .counters
                .iter()
                .map(|per_seat| vec![0; if *per_seat { players as usize } else { 1 }])
                .collect(),
            shortfalls: Vec::new(),
            events: Vec::new(),
            logging,
            grown: Grown::new(ir),
            log_chars: 0,
            calls: 0,
            depth: 0,
            memo: Memo::default(),
            areas: crate::areas::Kept::default(),
            seen: crate::reveal::Seen::default(),
            room: Room::default(),
        };
        let mut game = Game {
            program: program.clone(),
            world,
            frames: Vec::new(),
            offers: Vec::new(),
            taken: Vec::new(),
            pending: None,
            over: false,
            ended_early: false,
            failed: None,
            choices: Vec::new(),
        };
        if let Err(fail) = game.init() {
            game.fail(fail);
            return game;
        }
        if let Some(start) = start {
            if let Err(fail) = crate::carry::give(&program, &mut game.world, start) {
                game.fail(fail);
                return game;
            }
            // What was asked of the start before the save changed it is not kept.
            game.world.memo = game.world.memo.fresh();
            game.world.areas = crate::areas::Kept::default();
        }
        for code in [ir.play, ir.setup].into_iter().flatten() {
            let slots = vec![Value::None; ir.code[code as usize].slots as usize];
            game.frames.push(Frame { code, pc: 0, slots, entered: false });
        }
        game
    }

    /// A copy that keeps the memo's answers (`Clone` starts one without them): a start prepared
    /// for many seeds (playouts.rs) then goes on as the game `seated` makes, the same answers
    /// kept and the same steps spent.
    pub(crate) fn copied(&self) -> Game {
        let mut game = self.clone();
        game.world.memo = self.world.memo.duplicate();
        game
    }

    /// This game made the same as `source.copied()` in the room it has: the places' piles, the
    /// variables, the frames and the memo's tables keep their allocations where they fit. A stream
    /// of playouts lays each game over the one it finished (playouts.rs's `Stream`) rather than
    /// dropping it and copying the start anew: a pile a move fills then has its room already.
    /// Every field is named, so that a field added to a game is not forgotten here.
    /// The copy's chance draws from `rng` where one is given (a game laid over another for a seed
    /// of its own, playouts.rs): the source's generator is then not copied only to be dropped (an
    /// allocation and two frees a game).
    pub(crate) fn copy_from(&mut self, source: &Game, rng: Option<Mt>) {
        let Game { program, world, frames, offers, taken, pending, over, ended_early, failed, choices } =
            source;
        self.program.clone_from(program);
        self.world.copy_from(world, rng);
        // The frames' slots in the room the frames before left (`Room`): a game played to its
        // end has no frames, and its slots wait there (a list made a frame a game otherwise).
        for frame in self.frames.drain(..) {
            self.world.room.keep_slots(frame.slots);
        }
        for frame in frames {
            let mut slots = self.world.room.slots.pop().unwrap_or_default();
            slots.extend_from_slice(&frame.slots);
            self.frames.push(Frame { slots, ..*frame });
        }
        self.offers.clone_from(offers);
        self.taken.clone_from(taken);
        self.pending.clone_from(pending);
        self.over = *over;
        self.ended_early = *ended_early;
        self.failed.clone_from(failed);
        self.choices.clone_from(choices);
    }

    fn fail(&mut self, fail: Fail) {
        self.failed = Some(fail);
        self.pending = None;
        self.frames.clear();
        self.offers.clear();
        self.taken.clear();
        self.world.calls = 0;
    }

    /// The top frame's code is done: a call under way fewer (setup and play are no calls).
    fn leave(&mut self) {
        if let Some(frame) = self.frames.pop() {
            if frame.entered {
                self.world.calls -= 1;
            }
            self.world.room.keep_slots(frame.slots);
        }
    }

    /// Every variable at its start value, every piece where it starts.
    fn init(&mut self) -> Result<(), Fail> {
        let program = self.program.clone();
        let ir = &program.ir;
        let w = &mut self.world;
        for (i, var) in ir.vars.iter().enumerate() {
            let mut env = vec![Value::None; var.slots as usize];
            let v = eval(&program, w, &var.init, &mut env).map_err(|f| at(f, ir.init_at))?;
            w.vars[i] = clamp(v, var.clamp);
        }
        for (store, var) in ir.owned.iter().enumerate() {
            let owners: Vec<Value> = match &var.rows {
                Some(rows) => rows.iter().map(|r| Value::Row(*r)).collect(),
                None => (0..w.players).map(Value::Player).collect(),
            };
            // With a value for each row of a table (rows.rs), the start is computed for each.
            let each = var.by.as_ref().map_or(1, Vec::len);
            for (i, owner) in owners.into_iter().enumerate() {
                for k in 0..each {
                    let mut env = vec![Value::None; var.slots.max(1) as usize];
                    env[0] = owner.clone();
                    let v = eval(&program, w, &var.init, &mut env).map_err(|f| at(f, ir.init_at))?;
                    w.owned[store][i * each + k] = clamp(v, var.clamp);
                }
            }
        }
        let mut total: i64 = 0;
        for piece in &ir.pieces {
            let mut env = vec![Value::None; 1];
            if let Some(kinds) = &piece.each {
                let zone = piece
                    .zone
                    .as_ref()
                    .ok_or(Fail { kind: FailKind::Error("no zone".into()), at: Some(piece.at) })?;
                let v = eval(&program, w, zone, &mut env).map_err(|f| at(f, piece.at))?;
                let loc = location(&program, &v).map_err(|f| at(f, piece.at))?;
                for k in kinds {
                    // One of each row's kind, or (`per_row`) as many as the count says for it.
                    let mut n = 1;
                    if piece.per_row {
                        env[0] = ir.kinds[*k as usize].row.map_or(Value::None, Value::Row);
                        n = int(eval(&program, w, &piece.count, &mut env).map_err(|f| at(f, piece.at))?)
                            .map_err(|f| at(f, piece.at))?;
                    }
                    total = total.saturating_add(n);
                    if n < 0 || total > ir.limits.max_pieces {
                        let what = if n < 0 {
                            format!("{n} pieces")
                        } else {
                            format!("more than {} pieces in all", group(ir.limits.max_pieces as u64))
                        };
                        return Err(Fail {
                            kind: FailKind::Error(format!("'{}' asks for {what}", piece.name)),
                            at: Some(piece.at),
                        });
                    }
                    let made = Piece { kind: *k, owner: None };
                    w.locs[loc as usize].extend(std::iter::repeat_n(made, n as usize));
                }
                continue;
            }
            let n = int(eval(&program, w, &piece.count, &mut env).map_err(|f| at(f, piece.at))?)
                .map_err(|f| at(f, piece.at))?;
            let all = if piece.per_player { n.saturating_mul(i64::from(w.players)) } else { n };
            total = total.saturating_add(all);
            if n < 0 || total > ir.limits.max_pieces {
                let what = if n < 0 {
                    format!("{n} pieces")
                } else {
                    format!("more than {} pieces in all", group(ir.limits.max_pieces as u64))
                };
                let said = format!("'{}' asks for {what}", piece.name);
                return Err(Fail { kind: FailKind::Error(said), at: Some(piece.at) });
            }
            let seats: Vec<Option<u32>> =
                if piece.per_player { (0..w.players).map(Some).collect() } else { vec![None] };
            for seat in seats {
                let loc = match (&piece.own_zone, seat, &piece.zone) {
                    (Some(locs), Some(s), _) => locs[s as usize],
                    (_, _, Some(zone)) => {
                        let v = eval(&program, w, zone, &mut env).map_err(|f| at(f, piece.at))?;
                        location(&program, &v).map_err(|f| at(f, piece.at))?
                    }
                    _ => return Err(Fail { kind: FailKind::Error("no zone".into()), at: Some(piece.at) }),
                };
                let made = Piece { kind: piece.kind, owner: seat };
                w.locs[loc as usize].extend(std::iter::repeat_n(made, n as usize));
            }
        }
        // Start values may have asked values before the pieces were laid out: nothing of that
        // is kept. Laying out the position is not a step of the game.
        w.memo = Memo::new(Layout::new(
            w.vars.len(),
            w.owned.iter().map(Vec::len),
            ir.locations.len(),
            (ir.grids.len(), ir.grids.iter().any(|g| g.grows)),
            program.kind_parts.clone(),
        ));
        w.steps = 0;
        Ok(())
    }

    /// Run until a decision with more than one option, the end, or an error.
    pub(crate) fn advance(&mut self) {
        let program = self.program.clone();
        self.advance_in(&program);
    }

    /// `advance`, with the game's program as its caller holds it: a game played out inside the
    /// core (`play_out`) holds it once a game, not cloned (two atomic operations) every move.
    fn advance_in(&mut self, program: &Loaded) {
        // Run to the next decision; one the rules make for a seat they play is made here
        // (automata.rs), and the game runs on.
        loop {
            if let Err(fail) = self.run(program) {
                self.fail(fail);
                break;
            }
            match self.automaton_answers() {
                Ok(true) => {}
                Ok(false) => break,
                Err(fail) => {
                    self.fail(fail);
                    break;
                }
            }
        }
        if self.frames.is_empty() && self.failed.is_none() {
            self.over = true;
        }
    }

    /// The game comes to rest, handed back to its caller to wait for an answer: its memo keeps
    /// only the answers that still hold, in no more room than they take (bench/memory.py
    /// measures the games a program keeps alive). A game played on inside the core (a
    /// playout, a search's copies) keeps its memo as it is. Each place's pieces keep no more
    /// room than they fill: a pile that grew as pieces came held up to twice its pieces' room
    /// (a tenth of a live game's memory; docs/benchmarks.md, a twentieth round).
    pub fn rest(&mut self) {
        self.world.memo.settle();
        self.world.locs.iter_mut().for_each(|pieces| pieces.shrink_to_fit());
    }

    /// Answer the pending decision with the option at `index`.
    pub fn apply(&mut self, index: usize) -> Result<(), String> {
        let program = self.program.clone();
        self.apply_in(&program, index)
    }

    /// `apply`, with the game's program as its caller holds it (`advance_in`).
    fn apply_in(&mut self, program: &Loaded, index: usize) -> Result<(), String> {
        if self.failed.is_some() {
            return Err("the game stopped on an error in the rules".into());
        }
        let Some(pending) = self.pending.take() else {
            return Err("the game is over: there is no decision to answer".into());
        };
        if index >= pending.size() {
            let size = pending.size();
            self.pending = Some(pending);
            return Err(format!("{index} is not an option: choose a number from 0 to {}", size - 1));
        }
        if index >= pending.options.len() + usize::from(pending.optional) {
            if let Err(fail) = self.take_offer(pending, index) {
                self.fail(fail);
                return Ok(());
            }
            self.choices.push(index as u32);
            self.advance_in(program);
            return Ok(());
        }
        if self.world.logging {
            let option = pending.options.get(index);
            let chose = Event::Chose { seat: pending.seat, prompt: pending.prompt, option, only: false };
            if let Err(fail) = limits::write(program, &mut self.world, chose) {
                self.fail(at(fail, pending.at));
                return Ok(());
            }
        }
        self.choices.push(index as u32);
        self.resolve(pending, index);
        self.advance_in(program);
        Ok(())
    }

    /// Play to the end, each decision answered by its seat's agent (their generators seeded
    /// together first: in a game played to its end nearly every seat draws).
    pub fn play_out(&mut self, agents: &mut [Agent]) -> Result<(), String> {
        crate::playouts::seeded(agents);
        let program = self.program.clone(); // held for the game, not cloned a move (`apply_in`)
        while let Some(pending) = &self.pending {
            let (seat, size, asked_at) = (pending.seat as usize, pending.size() as u64, pending.at);
            let index = match agents.get_mut(seat) {
                Some(Agent::Style { style, rng }) => match self.style_answer(*style, rng) {
                    Ok(index) => index as u64,
                    Err(fail) => {
                        self.fail(at(fail, asked_at));
                        return Ok(());
                    }
                },
                Some(Agent::Random(rng)) => rng.randbelow(size),
                Some(Agent::First) => 0,
                Some(Agent::Mcts { search, seed, asked }) => {
                    let mut rng = Mt::new(*seed * 1_000_000 + *asked);
                    *asked += 1;
                    crate::mcts::choose(self, search, &mut rng).unwrap_or(0) as u64
                }
                None => return Err(format!("no agent for seat {}", seat + 1)),
            };
            self.apply_in(&program, index as usize)?;
        }
        Ok(())
    }

    pub(crate) fn resolve(&mut self, pending: Pending, index: usize) {
        let frame = self.frames.last_mut().expect("a decision is asked by a running frame");
        match pending.var {
            _ if index >= pending.options.len() => frame.pc = pending.orelse,
            Some(var) => frame.slots[var as usize] = pending.options.get(index).unwrap_or_default(),
            None if index == 1 => frame.pc = pending.orelse,
            None => {}
        }
    }

    /// Each seat's score (or tiebreak, with `tiebreak`).
    /// Each seat's number goes into the one list returned as it is found (the program borrowed,
    /// not its `Arc` cloned; no list of values made first).
    pub fn scores(&mut self, tiebreak: bool) -> Result<Vec<i64>, Fail> {
        let Game { program, world, .. } = self;
        let func = if tiebreak { &program.ir.tiebreak } else { &program.ir.score };
        let Some(func) = func else {
            return Ok(vec![0; world.players as usize]);
        };
        let mut out = Vec::with_capacity(world.players as usize); // grown once, not per seat
        for seat in 0..world.players {
            let seat = Args::One(Value::Player(seat));
            let score = with_names(&seat, func.slots as usize, |env| eval(program, world, &func.body, env));
            // An error in the score is placed at the score's declaration, as on the Python engine.
            out.push(score.and_then(int).map_err(|f| at(f, func.at))?);
        }
        Ok(out)
    }

    fn run(&mut self, program: &Loaded) -> Result<(), Fail> {
        let ir = &program.ir;
        // The triggers a statement's moves set off: (code, piece, place), in order. One list for
        // the call, empty but after a move that fired one (not one made for every statement).
        let mut fired: Vec<(u32, Value, Value)> = Vec::new();
        loop {
            let Some(frame) = self.frames.last_mut() else {
                return Ok(());
            };
            // The frame's code, looked up once for the jumps and statements it runs in a row: until
            // its end, or a statement that changes the frames (a call, a choice, the end of the
            // game, a trigger a move fired), run below.
            let instrs = &ir.code[frame.code as usize].instrs;
            let ran = loop {
                let Some(step) = instrs.get(frame.pc as usize) else {
                    break None;
                };
                frame.pc += 1;
                let on = statement(program, &mut self.world, frame, &step.op, &mut fired)
                    .map_err(|f| at(f, step.at))?;
                if on == On::Next && fired.is_empty() {
                    continue;
                }
                break Some(step);
            };
            let Some(step) = ran else {
                self.leave();
                if self.offer_returned()? {
                    return Ok(());
                }
                continue;
            };
            let here = step.at;
            if let Instr::Shift { .. } = step.op {
                crate::shift::refresh(self); // the layers the rules hold, where they lie now
            }
            // Each trigger runs after the move, in turn, its condition asked as it starts (the
            // first to run on top of the frames).
            // (Most statements move nothing: no iterator made and dropped for them.)
            if !fired.is_empty() {
                for (code, piece, place) in fired.drain(..).rev() {
                    let mut slots = self.world.room.slots(ir.code[code as usize].slots as usize);
                    slots[0] = piece;
                    slots[1] = place;
                    self.frames.push(Frame { code, pc: 0, slots, entered: false });
                }
            }
            match &step.op {
                Instr::Call { code, args } => {
                    let frame = self.frames.last_mut().expect("the calling frame");
                    let w = &mut self.world;
                    let callee = &ir.code[*code as usize];
                    let mut slots = w.room.slots(callee.slots as usize);
                    for (i, arg) in args.iter().enumerate() {
                        slots[i] = eval(program, w, arg, &mut frame.slots).map_err(|f| at(f, here))?;
                    }
                    w.spend(1, FailKind::BudgetCall(*code)).map_err(|f| at(f, here))?;
                    limits::enter(program, w, Entered::Code(*code)).map_err(|f| at(f, here))?;
                    self.frames.push(Frame { code: *code, pc: 0, slots, entered: true });
                }
                Instr::Choose { seq, cond, var, chooser, prompt, optional, has_orelse, orelse } => {
                    let frame = self.frames.last_mut().expect("the choosing frame");
                    let w = &mut self.world;
                    let asked: Result<Option<Pending>, Fail> = (|| {
                        let options = match from_a_set(program, w, seq, cond.as_ref(), &mut frame.slots)? {
                            Some(set) => Options::cells(set),
                            None => {
                                let once = program.once(frame.code, frame.pc - 1);
                                let mut options =
                                    snapshot(program, w, &mut frame.slots, (seq, cond.as_ref(), *var), once)?;
                                if matches!(options.first(), Some(Value::Piece(..))) {
                                    distinct(Arc::make_mut(&mut options));
                                }
                                Options::List(options)
                            }
                        };
                        if options.is_empty() && !optional {
                            if *has_orelse {
                                frame.pc = *orelse;
                                return Ok(None);
                            }
                            let said = &ir.texts[*prompt as usize];
                            return error(format!("no option for '{said}', and a choice must be made"));
                        }
                        let who = match chooser {
                            Some(c) => with_value(program, w, c, &mut frame.slots, seat)?,
                            None => match w.current {
                                Some(s) => s,
                                None => return error("nobody's turn: say who chooses with 'by PLAYER'"),
                            },
                        };
                        Ok(Some(Pending {
                            seat: who,
                            prompt: *prompt,
                            options,
                            optional: *optional,
                            var: Some(*var),
                            orelse: *orelse,
                            at: here,
                            offers: Vec::new(),
                            asked: frame.pc - 1,
                            same_again: false,
                        }))
                    })();
                    let Some(mut pending) = asked.map_err(|f| at(f, here))? else {
                        continue;
                    };
                    if !self.offers.is_empty() {
                        pending.offers = self.open_to(pending.seat).map_err(|f| at(f, here))?;
                    }
                    if pending.size() == 1 {
                        if self.world.logging {
                            let option = pending.options.get(0);
                            let chose = Event::Chose {
                                seat: pending.seat,
                                prompt: pending.prompt,
                                option,
                                only: true,
                            };
                            limits::write(program, &mut self.world, chose).map_err(|f| at(f, here))?;
                        }
                        self.resolve(pending, 0);
                        continue;
                    }
                    limits::ask(program, self.choices.len()).map_err(|f| at(f, here))?;
                    self.pending = Some(pending);
                    return Ok(());
                }
                Instr::ChooseNext { var, list, who, prompt, end } => {
                    let asked = self.choose_next(program, (*var, *list, *who, *prompt, *end), here)?;
                    if asked {
                        return Ok(());
                    }
                }
                Instr::Ask { chooser, prompt, orelse } => {
                    self.ask(program, chooser.as_ref(), (*prompt, *orelse), here)?;
                    return Ok(());
                }
                Instr::EndGame => {
                    self.frames.clear();
                    self.offers.clear();
                    self.taken.clear();
                    self.world.calls = 0;
                    self.ended_early = true;
                    return Ok(());
                }
                Instr::Return => {
                    self.leave();
                    if self.offer_returned()? {
                        return Ok(());
                    }
                }
                Instr::OfferOpen { code, args, player, label, .. } => {
                    self.offer_open(program, (*code, args, player, *label), here)?;
                }
                Instr::OfferClose => {
                    self.offers.pop();
                }
                _ => {}
            }
        }
    }

    /// The next item of a loop whose order a player chooses (`ChooseNext`): whether a decision is
    /// now asked. `Game::run`'s arms that few games run are functions of their own, out of line, so
    /// that `run`'s own code stays what most statements need.
    #[inline(never)]
    fn choose_next(
        &mut self,
        program: &Loaded,
        (var, list, who, prompt, end): (u32, u32, u32, u32, u32),
        here: u32,
    ) -> Result<bool, Fail> {
        // The items left, each once; a choice only between two or more (as the
        // Python engine's `for_chosen`, which asks nothing with one item left).
        let frame = self.frames.last_mut().expect("the looping frame");
        let items = self::list(frame.slots[list as usize].clone()).map_err(|f| at(f, here))?;
        if items.is_empty() {
            frame.pc = end;
            return Ok(false);
        }
        self.world.spend(1, FailKind::BudgetLoop).map_err(|f| at(f, here))?;
        let mut options = items;
        if matches!(options.first(), Some(Value::Piece(..))) {
            distinct(Arc::make_mut(&mut options));
        }
        if options.len() < 2 {
            frame.slots[var as usize] = options[0].clone();
            return Ok(false);
        }
        let chooser = seat(&frame.slots[who as usize]).map_err(|f| at(f, here))?;
        let asked = frame.pc - 1;
        let orelse = frame.pc;
        let offers = if self.offers.is_empty() {
            Vec::new()
        } else {
            self.open_to(chooser).map_err(|f| at(f, here))?
        };
        limits::ask(program, self.choices.len()).map_err(|f| at(f, here))?;
        self.pending = Some(Pending {
            seat: chooser,
            prompt,
            options: Options::List(options),
            optional: false,
            var: Some(var),
            orelse,
            at: here,
            offers,
            asked,
            same_again: true,
        });
        Ok(true)
    }

    /// A yes-or-no question (`may "..."`, `Ask`), asked of its chooser.
    #[inline(never)]
    fn ask(
        &mut self,
        program: &Loaded,
        chooser: Option<&Expr>,
        (prompt, orelse): (u32, u32),
        here: u32,
    ) -> Result<(), Fail> {
        let frame = self.frames.last_mut().expect("the asking frame");
        let w = &mut self.world;
        let who = match chooser {
            Some(c) => with_value(program, w, c, &mut frame.slots, seat),
            None => w.current.ok_or(Fail {
                kind: FailKind::Error("nobody's turn: say who chooses with 'by PLAYER'".into()),
                at: None,
            }),
        };
        let seat = who.map_err(|f| at(f, here))?;
        let asked = frame.pc - 1;
        let offers =
            if self.offers.is_empty() { Vec::new() } else { self.open_to(seat).map_err(|f| at(f, here))? };
        limits::ask(program, self.choices.len()).map_err(|f| at(f, here))?;
        self.pending = Some(Pending {
            seat,
            prompt,
            options: Options::List(Arc::new(vec![Value::Bool(true), Value::Bool(false)])),
            optional: false,
            var: None,
            orelse,
            at: here,
            offers,
            asked,
            same_again: false,
        });
        Ok(())
    }

    /// An `offer` block begins (`OfferOpen`): its rule's arguments and its player bound now.
    #[inline(never)]
    fn offer_open(
        &mut self,
        program: &Loaded,
        (code, args, player, label): (u32, &[Expr], &Expr, u32),
        here: u32,
    ) -> Result<(), Fail> {
        let frame = self.frames.last_mut().expect("the offering frame");
        let w = &mut self.world;
        let opened: Result<(Vec<Value>, u32), Fail> = (|| {
            let mut bound = Vec::with_capacity(args.len());
            for arg in args {
                bound.push(eval(program, w, arg, &mut frame.slots)?);
            }
            Ok((bound, seat(&eval(program, w, player, &mut frame.slots)?)?))
        })();
        let (bound, to) = opened.map_err(|f| at(f, here))?;
        let instr = frame.pc - 1;
        self.open_offer(instr, code, bound, to, label);
        Ok(())
    }
}

/// Where `Game::run` goes on after `statement`: with the frame's next instruction, or (`Frames`)
/// in its own arms, for the statements that change the frames, the offers or the game's end,
/// and a shift's layers found again.
#[derive(PartialEq, Eq)]
enum On {
    Next,
    Frames,
}

/// A statement that changes no frame but its own, run in `frame` (a jump, most of what an `if`
/// and a loop run, among them); the triggers its moves set off put in `fired`. A call, a choice
/// and the end are `Game::run`'s: for those it says so (`On::Frames`) and does nothing. One
/// match of the statement's kind decides both (a jump's own match before it, and another after
/// it for what changes the frames, were three dispatches a statement). Inlined where `run` runs
/// it, as it was written there (as a closure it was a call of its own per statement).
#[inline(always)]
fn statement(
    program: &Loaded,
    w: &mut World,
    frame: &mut Frame,
    op: &Instr,
    fired: &mut Vec<(u32, Value, Value)>,
) -> Result<On, Fail> {
    let ir = &program.ir;
    let env = &mut frame.slots;
    match op {
        Instr::Jump { to } => frame.pc = *to,
        Instr::JumpUnless { cond, to } => {
            if !test(program, w, cond, env)? {
                frame.pc = *to;
            }
        }
        Instr::Let { slot, e } => {
            env[*slot as usize] = eval(program, w, e, env)?;
        }
        Instr::SetVar { var, e, sign } => {
            let mut v = eval(program, w, e, env)?;
            if *sign != 0 {
                let old = int(w.vars[*var as usize].clone())?;
                v = Value::Int(checked(old.checked_add(sign * int(v)?))?);
            }
            w.set_var(*var, clamp(v, ir.vars[*var as usize].clamp));
        }
        Instr::SetOwned { obj, var, e, sign } => {
            let owner = eval(program, w, obj, env)?;
            let (store, i) = owned_place(var, &owner)?;
            let mut v = eval(program, w, e, env)?;
            if *sign != 0 {
                let old = int(w.owned[store as usize][i as usize].clone())?;
                v = Value::Int(checked(old.checked_add(sign * int(v)?))?);
            }
            w.set_owned(store, i, clamp(v, ir.owned[store as usize].clamp));
        }
        Instr::Move { count, decl, which, owner, src, dest, bottom } => {
            let (touched, pieces) = move_count(
                program,
                w,
                env,
                count.as_ref(),
                *decl,
                which.as_ref(),
                owner.as_ref(),
                src,
                (dest, *bottom),
            )?;
            w.moved(program, &touched, &pieces);
            fire(program, &pieces, touched.last().copied(), fired);
            w.room.keep(touched, pieces);
        }
        Instr::ForStart { seq, cond, var, list, index } => {
            // What the list asks of the same position each round (once.rs): looked up only by
            // the statements that go through a list, not by every statement.
            let once = program.once(frame.code, frame.pc - 1);
            let items = snapshot(program, w, env, (seq, cond.as_ref(), *var), once)?;
            env[*list as usize] = Value::List(items);
            env[*index as usize] = Value::Int(0);
        }
        Instr::ForNext { var, list, index, end } => {
            let i = int_at(&env[*index as usize])? as usize;
            let next = match &env[*list as usize] {
                Value::List(items) => items.get(i).cloned(),
                _ => None,
            };
            match next {
                Some(item) => {
                    w.spend(1, FailKind::BudgetLoop)?;
                    env[*var as usize] = item;
                    set_int(&mut env[*index as usize], i as i64 + 1);
                }
                None => frame.pc = *end,
            }
        }
        Instr::Spend => w.spend(1, FailKind::BudgetLoop)?,
        Instr::RepeatStart { count, counter } => {
            env[*counter as usize] = Value::Int(int(eval(program, w, count, env)?)?);
        }
        Instr::RepeatNext { counter, end } => {
            let left = int_at(&env[*counter as usize])?;
            if left > 0 {
                w.spend(1, FailKind::BudgetLoop)?;
                set_int(&mut env[*counter as usize], left - 1);
            } else {
                frame.pc = *end;
            }
        }
        Instr::Turn { player } => {
            w.current = Some(with_value(program, w, player, env, seat)?);
            w.turns += 1;
            w.changed(Part::Current);
        }
        Instr::Enter => {
            limits::enter(program, w, Entered::Code(frame.code))?;
            frame.entered = true;
        }
        // The statements most games run seldom, out of line (`seldom`): a shift's layers are
        // then found again where they lie now, `Game::run`'s.
        Instr::SetOwnedRow { .. }
        | Instr::MoveRefs { .. }
        | Instr::Log { .. }
        | Instr::Reveal { .. }
        | Instr::Tally { .. }
        | Instr::Random { .. }
        | Instr::Pick { .. }
        | Instr::Shuffle { .. }
        | Instr::Draw { .. }
        | Instr::Lift { .. }
        | Instr::Place { .. }
        | Instr::Chosen { .. } => seldom(program, w, frame, op, fired)?,
        Instr::Shift { .. } => {
            seldom(program, w, frame, op, fired)?;
            return Ok(On::Frames);
        }
        // Calls, choices and the end change the frames: `Game::run`'s.
        Instr::Call { .. }
        | Instr::ChooseNext { .. }
        | Instr::Choose { .. }
        | Instr::Ask { .. }
        | Instr::OfferOpen { .. }
        | Instr::OfferClose
        | Instr::EndGame
        | Instr::Return => return Ok(On::Frames),
    }
    Ok(On::Next)
}

/// The statements of `statement` that most games run seldom or never (a log, a draw, a shuffle,
/// a placement...), run out of line: inlined, their code made `Game::run` a function of 56 KB
/// whose hot loop kept its values on the stack; each of them costs far more than a call.
#[inline(never)]
fn seldom(
    program: &Loaded,
    w: &mut World,
    frame: &mut Frame,
    op: &Instr,
    fired: &mut Vec<(u32, Value, Value)>,
) -> Result<(), Fail> {
    let ir = &program.ir;
    let env = &mut frame.slots;
    match op {
        Instr::SetOwnedRow { obj, var, row, e, sign } => {
            // The owner, the value, then the row, as the Python engine takes them.
            let owner = eval(program, w, obj, env)?;
            let mut v = eval(program, w, e, env)?;
            let row = eval(program, w, row, env)?;
            let (store, i) = crate::rows::place(program, var, &owner, &row)?;
            if *sign != 0 {
                let old = int(w.owned[store as usize][i as usize].clone())?;
                v = Value::Int(checked(old.checked_add(sign * int(v)?))?);
            }
            w.set_owned(store, i, clamp(v, ir.owned[store as usize].clamp));
        }
        Instr::MoveRefs { pieces, dest, bottom } => {
            let (touched, pieces) = move_refs(program, w, env, pieces, (dest, *bottom))?;
            w.moved(program, &touched, &pieces);
            fire(program, &pieces, touched.last().copied(), fired);
        }
        Instr::Log { parts } if w.logging => {
            let mut said = Vec::new();
            for part in parts {
                said.push(match part {
                    LogPart::Text(t) => Said::Text(*t),
                    LogPart::Expr(e) => Said::Value(eval(program, w, e, env)?),
                });
            }
            limits::write(program, w, Event::Line(said))?;
        }
        Instr::Reveal { pieces, to } => {
            let what = eval(program, w, pieces, env)?;
            let whom = eval(program, w, to, env)?;
            crate::reveal::reveal(program, w, what, whom)?;
        }
        Instr::Tally { counter, player, amount } => {
            let at_seat = match player {
                Some(p) => seat(&eval(program, w, p, env)?)? as usize,
                None => 0,
            };
            let n = match amount {
                Some(a) => int(eval(program, w, a, env)?)?,
                None => 1,
            };
            let counts = &mut w.counters[*counter as usize];
            match counts.get_mut(at_seat) {
                Some(c) => *c = checked(c.checked_add(n))?,
                None => return error("index out of range: the list is shorter"),
            }
        }
        Instr::Random { title, weights, names, targets } => {
            let mut values = Vec::with_capacity(weights.len());
            let mut given = 0i64;
            for weight in weights {
                let v = match weight {
                    Some(e) => Some(int(eval(program, w, e, env)?)?.max(0)),
                    None => None,
                };
                given = given.saturating_add(v.unwrap_or(0));
                values.push(v);
            }
            let values: Vec<i64> = values.into_iter().map(|v| v.unwrap_or((100 - given).max(0))).collect();
            let total: i64 = values.iter().sum();
            if total <= 0 {
                let said = &ir.texts[*title as usize];
                return error(format!("every outcome of '{said}' has chance 0"));
            }
            // As runtime.py's `roll`: a point in [0, total), each outcome's share off it.
            let mut point = w.rng.random() * total as f64;
            let mut index = values.len() - 1;
            for (i, weight) in values.iter().enumerate() {
                point -= *weight as f64;
                if point < 0.0 {
                    index = i;
                    break;
                }
            }
            if w.logging {
                let chance = Event::Chance { title: *title, outcome: Said::Text(names[index]) };
                limits::write(program, w, chance)?;
            }
            frame.pc = targets[index];
        }
        Instr::Pick { seq, cond, var, title, orelse } => {
            let once = program.once(frame.code, frame.pc - 1);
            let options = snapshot(program, w, env, (seq, cond.as_ref(), *var), once)?;
            if options.is_empty() {
                frame.pc = *orelse;
            } else {
                let picked = options[w.rng.randbelow(options.len() as u64) as usize].clone();
                if w.logging {
                    let chance = Event::Chance { title: *title, outcome: Said::Value(picked.clone()) };
                    limits::write(program, w, chance)?;
                }
                env[*var as usize] = picked;
            }
        }
        Instr::Shuffle { zone } => {
            let loc = location(program, &eval(program, w, zone, env)?)?;
            let (pile, rng) = (&mut w.locs[loc as usize], &mut w.rng);
            rng.shuffle(pile);
            w.changed(Part::Loc(loc));
            if !w.seen.is_empty() {
                let pile = w.locs[loc as usize].clone();
                w.seen.moved(loc, &pile);
            }
        }
        Instr::Draw { count, src, dest, bottom } => {
            let n = int(eval(program, w, count, env)?)?;
            let source = location(program, &eval(program, w, src, env)?)?;
            let to = eval(program, w, dest, env)?;
            let pile = &mut w.locs[source as usize];
            let take = n.clamp(0, pile.len() as i64) as usize;
            let moved: Vec<Piece> = (0..take).filter_map(|_| pile.pop()).collect();
            if (moved.len() as i64) < n {
                w.shortfalls.push((Short::Draw(source), (n - moved.len() as i64) as u64));
            }
            let to = location(program, &to)?;
            arrive(&mut w.locs[to as usize], &moved, *bottom);
            if !moved.is_empty() {
                w.moved(program, &[source, to], &moved);
                if !w.seen.is_empty() {
                    w.seen.moved(source, &moved);
                    w.seen.moved(to, &moved);
                }
            }
            fire(program, &moved, Some(to), fired);
        }
        Instr::Lift { layer } => {
            let layer = eval(program, w, layer, env)?;
            crate::layers::lift(program, w, &layer)?;
        }
        Instr::Shift { grid, dq, dr } => {
            let grid = eval(program, w, grid, env)?;
            let (dq, dr) = (eval(program, w, dq, env)?, eval(program, w, dr, env)?);
            crate::shift::shift(program, w, &grid, &dq, &dr)?;
        }
        Instr::Place { shape, grid, at, over } => {
            let (shape, grid) = (eval(program, w, shape, env)?, eval(program, w, grid, env)?);
            let at = match at {
                Some(e) => Some(eval(program, w, e, env)?),
                None => None,
            };
            placement::lay(program, w, &grid, &shape, at.as_ref(), *over)?;
        }
        Instr::Chosen { var, list } => {
            let mut items = self::list(env[*list as usize].clone())?.as_ref().clone();
            if let Some(i) = items.iter().position(|x| *x == env[*var as usize]) {
                items.remove(i);
            }
            env[*list as usize] = Value::List(Arc::new(items));
        }
        // The others are `statement`'s own.
        _ => {}
    }
    Ok(())
}

/// A row's index among all rows (past the end for any other value).
fn owner_row(owner: &Value) -> usize {
    match owner {
        Value::Row(r) => *r as usize,
        _ => usize::MAX,
    }
}

/// Where an owner's variable is: its store and the owner's place in it.
pub(crate) fn owned_place(var: &OwnedRef, owner: &Value) -> Result<(u32, u32), Fail> {
    let found = match owner {
        Value::Player(s) => var.player.map(|store| (store, *s)),
        Value::Row(r) => var.rows.get(*r as usize).copied().flatten(),
        _ => None,
    };
    match found {
        Some(place) => Ok(place),
        None => error(format!("a {} has no such variable", owner.type_name())),
    }
}

pub(crate) fn at(mut fail: Fail, here: u32) -> Fail {
    fail.at.get_or_insert(here);
    fail
}

/// `at` where the place may be unknown (a call asked without its site keeps the statement's).
pub(crate) fn at_site(fail: Fail, site: Option<u32>) -> Fail {
    match site {
        Some(here) => at(fail, here),
        None => fail,
    }
}

fn group(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn clamp(v: Value, bounds: Option<(i64, i64)>) -> Value {
    match (v, bounds) {
        (Value::Int(n), Some((low, high))) => Value::Int(n.clamp(low, high)),
        (v, _) => v,
    }
}

/// A number within the limits, or the error that says it grew beyond them.
fn checked(n: Option<i64>) -> Result<i64, Fail> {
    match n {
        Some(n) if n >= -MAX_NUMBER => Ok(n),
        _ => error(format!(
            "a number grew beyond {} (the largest a game may compute)",
            group(MAX_NUMBER as u64)
        )),
    }
}

pub(crate) fn int(v: Value) -> Result<i64, Fail> {
    match v {
        Value::Int(n) => Ok(n),
        Value::Bool(b) => Ok(i64::from(b)),
        other => error(format!("a number was expected, not a {}", other.type_name())),
    }
}

/// `int` of a value where it lies (a loop's index or counter): nothing cloned and dropped.
fn int_at(v: &Value) -> Result<i64, Fail> {
    match v {
        Value::Int(n) => Ok(*n),
        other => int(other.clone()),
    }
}

/// A slot set to a number; one that holds a number (a loop's index or counter, each round)
/// is changed where it lies, with no value dropped.
fn set_int(slot: &mut Value, n: i64) {
    match slot {
        Value::Int(m) => *m = n,
        other => *other = Value::Int(n),
    }
}

fn seat(v: &Value) -> Result<u32, Fail> {
    match v {
        Value::Player(s) => Ok(*s),
        other => error(format!("a player was expected, not {}", other.type_name())),
    }
}

pub(crate) fn list(v: Value) -> Result<Arc<Vec<Value>>, Fail> {
    match v {
        Value::List(items) => Ok(items),
        other => match other.cells_listed() {
            Some(cells) => list(cells),
            None => error(format!("a list was expected, not {}", other.type_name())),
        },
    }
}

/// The location a value names: a zone, a cell, or a node of a map of nodes (a row).
pub(crate) fn location(p: &Loaded, v: &Value) -> Result<u32, Fail> {
    location_of(p, v).ok_or_else(|| not_a_place(v.type_name()))
}

/// The location a value names, if it names one (`location`).
fn location_of(p: &Loaded, v: &Value) -> Option<u32> {
    match v {
        Value::Row(r) => p.ir.node_locations.get(*r as usize).copied().flatten(),
        other => other.location(),
    }
}

/// Why a value of this type is no location.
fn not_a_place(type_name: &str) -> Fail {
    Fail {
        kind: FailKind::Error(format!(
            "a {type_name} is not a place that holds pieces (a zone or a map node)"
        )),
        at: None,
    }
}

/// The triggers watching each moved piece's kind, in order: (code, the piece, the place).
fn fire(p: &Loaded, pieces: &[Piece], to: Option<u32>, fired: &mut Vec<(u32, Value, Value)>) {
    let Some(to) = to else { return };
    if p.ir.triggers.is_empty() {
        return;
    }
    for pc in pieces {
        let decl = p.ir.kinds[pc.kind as usize].decl;
        for (watched, code) in &p.ir.triggers {
            if *watched == decl {
                fired.push((*code, Value::Piece(to, *pc), place(p, to)));
            }
        }
    }
}

/// The value that names a location: what a trigger's place and a piece's `location` are.
fn place(p: &Loaded, loc: u32) -> Value {
    let Some(at) = p.ir.locations.get(loc as usize) else {
        return Value::Cell(loc); // a cell of a grid that grows
    };
    match (at.cell, at.node) {
        (Some(_), _) => Value::Cell(loc),
        (None, Some(row)) => Value::Row(row),
        _ => Value::Zone(loc),
    }
}

/// A location, a list of them (what `pieces`, `count` and `move ... from` accept), put in `into`.
fn locations(p: &Loaded, v: &Value, into: &mut Vec<u32>) -> Result<(), Fail> {
    into.clear();
    match v {
        Value::List(items) => {
            for item in items.iter() {
                into.push(location(p, item)?);
            }
        }
        Value::Area(area) => into.extend_from_slice(&area.cells),
        other => into.push(location(p, other)?),
    }
    Ok(())
}

/// Pieces of one kind and owner are interchangeable: offered once each, the first of them.
fn distinct(options: &mut Vec<Value>) {
    let mut seen: Vec<Value> = Vec::new();
    options.retain(|v| {
        if seen.contains(v) {
            false
        } else {
            seen.push(v.clone());
            true
        }
    });
}

/// The options of `choose x from V(...)` with no condition, where cells.rs answers `V` as a set of
/// cells (`Loaded::as_set`): the set, asked in `V`'s place, kept as the decision's options
/// (options.rs); None, having done nothing, for any other choice.
fn from_a_set(
    p: &Loaded,
    w: &mut World,
    seq: &Expr,
    cond: Option<&Expr>,
    env: &mut [Value],
) -> Result<Option<Value>, Fail> {
    let (None, Expr::Value(v, of)) = (cond, seq) else { return Ok(None) };
    let Some(as_set) = p.as_set.get(*v as usize).copied().flatten() else { return Ok(None) };
    Ok(Some(asked(p, w, as_set, of, env)?))
}

/// The items of a list for which a condition holds, from a snapshot of the list: what a loop
/// goes through and a choice offers. Without a condition, the list itself, shared: lists are
/// never changed in place, so it stays as it was. Where the condition asks something once
/// (`once`, once.rs: the instruction's), the first item is tested by the condition as written,
/// the askings are then made into their slots for the later items, and emptied after the last.
fn snapshot(
    p: &Loaded,
    w: &mut World,
    env: &mut [Value],
    (seq, cond, var): (&Expr, Option<&Expr>, u32),
    once: &crate::once::Once,
) -> Result<Arc<Vec<Value>>, Fail> {
    let items = list(eval(p, w, seq, env)?)?;
    let Some(cond) = cond else {
        return Ok(items);
    };
    let mut out = Vec::new();
    for (i, x) in items.iter().enumerate() {
        env[var as usize] = x.clone();
        let this = match (i, &once.written) {
            (0, Some(written)) => written,
            _ => cond,
        };
        if test(p, w, this, env)? {
            out.push(x.clone());
        }
        if i == 0 && items.len() > 1 {
            for (slot, asked) in &once.asked {
                env[*slot as usize] = eval(p, w, asked, env)?;
            }
        }
    }
    once.asked.iter().for_each(|(slot, _)| env[*slot as usize] = Value::None);
    Ok(Arc::new(out))
}

impl Loaded {
    /// The askings the loop of an instruction makes once (once.rs).
    fn once(&self, code: u32, instr: u32) -> &crate::once::Once {
        static NONE: crate::once::Once = crate::once::Once { asked: Vec::new(), written: None };
        self.once.get(code as usize).and_then(|c| c.get(instr as usize)).unwrap_or(&NONE)
    }
}

/// `move N KIND [of OWNER] from SRC to DEST`: the first pieces that fit, place by place; the
/// locations whose pieces changed (the destination last, if anything moved) and the pieces moved.
/// A place a move leaves as it was is no change: the answers that read it still hold (a move that
/// finds nothing to take, as a return of what may be there does, forgot every answer about
/// each place it looked in).
#[allow(clippy::too_many_arguments)]
fn move_count(
    p: &Loaded,
    w: &mut World,
    env: &mut [Value],
    count: Option<&Expr>,
    decl: u32,
    which: Option<&Expr>,
    owner: Option<&Expr>,
    src: &Expr,
    (dest, bottom): (&Expr, bool),
) -> Result<(Vec<u32>, Vec<Piece>), Fail> {
    let want = match count {
        Some(c) => Some(with_value(p, w, c, env, int_at)?),
        None => None,
    };
    let who = match owner {
        Some(o) => Some(with_value(p, w, o, env, |v| match v {
            Value::None => Ok(None),
            v => Ok(Some(seat(v)?)),
        })?),
        None => None,
    };
    let row = match which {
        Some(r) => with_value(p, w, r, env, |v| match v {
            Value::Row(r) => Ok(Some(*r)),
            v => error(format!("a row was expected, not {}", v.type_name())),
        })?,
        None => None,
    };
    // The destination's place, or the type of the value that is none: its error is said after
    // the source's (as it was when the destination's value was kept until then).
    let to = with_value(p, w, dest, env, |v| Ok(location_of(p, v).ok_or(v.type_name())))?;
    // The lists in the room the last move left (`Room`).
    let mut places = std::mem::take(&mut w.room.places);
    let (mut moved, mut touched) = (std::mem::take(&mut w.room.pieces), std::mem::take(&mut w.room.touched));
    moved.clear();
    touched.clear();
    with_value(p, w, src, env, |from| locations(p, from, &mut places))?;
    for &loc in &places {
        if want.is_some_and(|n| moved.len() as i64 >= n) {
            break;
        }
        let before = moved.len();
        // In place: the pieces that stay close up in their order, and those past the last
        // piece taken are not gone through (a supply of hundreds, one piece taken).
        let pile = &mut w.locs[loc as usize];
        let fits = |pc: &Piece| {
            let kind = &p.ir.kinds[pc.kind as usize];
            who.is_none_or(|o| pc.owner == o) && kind.decl == decl && (row.is_none() || kind.row == row)
        };
        // The pieces before the first that fits stay where they are, gone through without a
        // write (a supply of both seats' pieces, one seat's after the other's).
        let len = pile.len();
        // Of a declaration of one kind (most are), a piece fits by its owner and kind alone,
        // compared where it lies: a supply of both seats' pieces is gone through to the first of
        // the second seat's at each of its moves (up to a sixteenth of a move's instructions).
        let sole = p.sole_kind.get(decl as usize).copied().flatten().filter(|_| row.is_none());
        let first = match sole {
            Some(kind) => pile.iter().position(|pc| who.is_none_or(|o| pc.owner == o) && pc.kind == kind),
            None => pile.iter().position(fits),
        }
        .unwrap_or(len);
        let (mut stay, mut at) = (first, first);
        while at < len && want.is_none_or(|n| (moved.len() as i64) < n) {
            let pc = pile[at];
            if fits(&pc) {
                moved.push(pc);
            } else {
                pile[stay] = pc;
                stay += 1;
            }
            at += 1;
        }
        pile.copy_within(at.., stay);
        pile.truncate(stay + len - at);
        if moved.len() > before {
            touched.push(loc);
            if !w.seen.is_empty() {
                w.seen.moved(loc, &moved[before..]);
            }
        }
    }
    w.room.places = places;
    let to = to.map_err(not_a_place)?;
    arrive(&mut w.locs[to as usize], &moved, bottom);
    if !moved.is_empty() {
        touched.push(to);
        if !w.seen.is_empty() {
            w.seen.moved(to, &moved);
        }
    }
    if let Some(n) = want {
        if (moved.len() as i64) < n {
            w.shortfalls.push((Short::Kind(decl, row), (n - moved.len() as i64) as u64));
        }
    }
    Ok((touched, moved))
}

/// `move PIECES to DEST`: these very pieces (the locations changed, as `move_count` gives them).
fn move_refs(
    p: &Loaded,
    w: &mut World,
    env: &mut [Value],
    pieces: &Expr,
    (dest, bottom): (&Expr, bool),
) -> Result<(Vec<u32>, Vec<Piece>), Fail> {
    let what = eval(p, w, pieces, env)?;
    let refs: Vec<Value> = match what {
        Value::List(items) => items.as_ref().clone(),
        one => vec![one],
    };
    let to = location(p, &eval(p, w, dest, env)?)?;
    let (mut moved, mut touched) = (Vec::new(), Vec::new());
    for r in refs {
        let Value::Piece(loc, piece) = r else {
            return error(format!("only pieces can move, not {}", r.type_name()));
        };
        let pile = &mut w.locs[loc as usize];
        match pile.iter().position(|pc| *pc == piece) {
            Some(i) => {
                pile.remove(i);
            }
            None => return error("a piece is no longer where it was"),
        }
        if !w.seen.is_empty() {
            w.seen.moved(loc, &[piece]);
        }
        moved.push(piece);
        touched.push(loc);
    }
    arrive(&mut w.locs[to as usize], &moved, bottom);
    if !moved.is_empty() {
        touched.push(to);
        if !w.seen.is_empty() {
            w.seen.moved(to, &moved);
        }
    }
    Ok((touched, moved))
}

/// Pieces put where a move or a draw sends them: on top of the pile, or (`bottom`) under it,
/// in their order.
fn arrive(pile: &mut Vec<Piece>, moved: &[Piece], bottom: bool) {
    if bottom {
        pile.splice(0..0, moved.iter().copied());
    } else {
        pile.extend(moved.iter().copied());
    }
}

pub(crate) fn kind_fits(p: &Loaded, pc: &Piece, kind: &Value) -> bool {
    let k = &p.ir.kinds[pc.kind as usize];
    match kind {
        Value::KindName(d) => k.decl == *d,
        Value::Row(r) => k.row == Some(*r),
        _ => false,
    }
}

/// `pieces(WHERE, KIND, OWNER)`: each piece that fits.
fn pieces(p: &Loaded, w: &mut World, args: &[Expr], env: &mut [Value]) -> Result<Vec<Value>, Fail> {
    let mut out = Vec::new();
    with_pieces(p, w, args, env, |loc, pc| out.push(Value::Piece(loc, *pc)))?;
    Ok(out)
}

/// `pieces(WHERE, KIND, OWNER)[n]`: the n-th piece that fits, without listing them (what stands
/// on a cell, `pieces(c, token)[0].row`, asked of every cell of a grid); every piece gone
/// through and every part read, as listing them does.
fn nth_piece(p: &Loaded, w: &mut World, args: &[Expr], env: &mut [Value], n: usize) -> Result<Value, Fail> {
    let mut nth = None;
    let mut seen = 0;
    with_pieces(p, w, args, env, |loc, pc| {
        if seen == n {
            nth = Some(Value::Piece(loc, *pc));
        }
        seen += 1;
    })?;
    match nth {
        Some(piece) => Ok(piece),
        None => error("index out of range: the list is shorter"),
    }
}

/// `count(pieces(WHERE, KIND, OWNER))`: how many pieces fit, without listing them (nor making
/// any list on the way: a place's pieces are counted per cell of a board at every move).
fn count_pieces(p: &Loaded, w: &mut World, args: &[Expr], env: &mut [Value]) -> Result<i64, Fail> {
    with_pieces(p, w, args, env, |_, _| {})
}

/// Each piece `pieces(ARGS)` finds, handed to `found` with its location, and how many.
fn with_pieces(
    p: &Loaded,
    w: &mut World,
    args: &[Expr],
    env: &mut [Value],
    found: impl FnMut(u32, &Piece),
) -> Result<i64, Fail> {
    // Names and constants only (the most common): each read where it is rather than copied;
    // otherwise each argument evaluated, in order.
    if args.iter().all(plain) {
        let at = |i: usize| args.get(i).map(|e| in_place(e, env));
        let r#where = at(0).expect("pieces(...) has a place");
        return gather(p, w, r#where, at(1), owner_of(at(2))?, found);
    }
    let given: Vec<Value> = args.iter().map(|a| eval(p, w, a, env)).collect::<Result<_, _>>()?;
    let r#where = given.first().expect("pieces(...) has a place");
    gather(p, w, r#where, given.get(1), owner_of(given.get(2))?, found)
}

/// The owner `pieces(WHERE, KIND, OWNER)` asks for: any (no OWNER), none, or a seat.
fn owner_of(owner: Option<&Value>) -> Result<Option<Option<u32>>, Fail> {
    Ok(match owner {
        Some(Value::None) => Some(None),
        Some(v) => Some(Some(seat(v)?)),
        None => None,
    })
}

/// A filter `[each x in ITEMS where count(pieces(x, KIND, OWNER)) OP N]` whose KIND and OWNER
/// are constants or names other than x: their values, the same for every item, found once
/// (None: the filter takes its condition item by item, as any other).
pub(crate) fn fixed_kind_owner(
    args: &[Expr],
    slot: u32,
    env: &[Value],
) -> Option<(Option<Value>, Option<Option<u32>>)> {
    let [Expr::Local(first), rest @ ..] = args else { return None };
    let fixed = |e: &Expr| plain(e) && !matches!(e, Expr::Local(s) if *s == slot);
    if *first != slot || rest.len() > 2 || !rest.iter().all(fixed) {
        return None;
    }
    let owner = owner_of(rest.get(1).map(|e| in_place(e, env))).ok()?;
    Some((rest.first().map(|e| in_place(e, env).clone()), owner))
}

/// The pieces at a place (or each of a list of places, or an area's cells) of a kind and an
/// owner (`pieces(WHERE, KIND, OWNER)`'s arguments' values), each handed to `found`; how many.
/// Offered for inlining where it is called (bodies.rs's walk), whichever part of the crate's
/// code that lands in: whether it was inlined there changed with unrelated code in this file
/// (a game asking many such walks +0.9% when it was not).
#[inline]
pub(crate) fn gather(
    p: &Loaded,
    w: &mut World,
    r#where: &Value,
    kind: Option<&Value>,
    owner: Option<Option<u32>>,
    mut found: impl FnMut(u32, &Piece),
) -> Result<i64, Fail> {
    let mut count = 0;
    // One place or a list of them, without making a list of one.
    let cells;
    let places: &[Value] = match r#where {
        Value::List(items) => items,
        Value::Area(area) => {
            cells = crate::areas::locations(area);
            &cells
        }
        other => std::slice::from_ref(other),
    };
    // Pieces of one kind read the part of that kind at each place, not the place's.
    let key = kind.and_then(|k| p.kind_key(k));
    for place in places {
        let loc = location(p, place)?;
        w.memo.read(key.map_or(Part::Loc(loc), |key| Part::Kind(loc, key)));
        let pile = &w.locs[loc as usize];
        if kind.is_none() && owner.is_none() {
            count += pile.len() as i64;
            pile.iter().for_each(|pc| found(loc, pc));
            continue;
        }
        for pc in pile {
            if kind.is_none_or(|k| kind_fits(p, pc, k)) && owner.is_none_or(|o| pc.owner == o) {
                count += 1;
                found(loc, pc);
            }
        }
    }
    Ok(count)
}

/// `count(pieces(x, KIND, OWNER))` of each item x of a list, handed to `each` with its index:
/// as `gather` counts each (the same parts read in the same order, the same errors), with the
/// kind's part found once for the list rather than at each item, and a cell's location read
/// where it lies (a filter of a board's cells counts each at every move: 169 instructions an
/// item through `gather`, docs/benchmarks.md, a twenty-third round).
pub(crate) fn count_each(
    p: &Loaded,
    w: &mut World,
    items: &[Value],
    kind: Option<&Value>,
    owner: Option<Option<u32>>,
    mut each: impl FnMut(usize, i64),
) -> Result<(), Fail> {
    let key = kind.and_then(|k| p.kind_key(k));
    for (i, x) in items.iter().enumerate() {
        let loc = match x {
            Value::Cell(loc) | Value::Zone(loc) => *loc,
            Value::List(_) | Value::Area(_) => {
                each(i, gather(p, w, x, kind, owner, |_, _| {})?);
                continue;
            }
            other => location(p, other)?,
        };
        w.memo.read(key.map_or(Part::Loc(loc), |key| Part::Kind(loc, key)));
        let pile = &w.locs[loc as usize];
        let count = match (kind, owner) {
            (None, None) => pile.len(),
            _ => pile
                .iter()
                .filter(|pc| kind.is_none_or(|k| kind_fits(p, pc, k)) && owner.is_none_or(|o| pc.owner == o))
                .count(),
        };
        each(i, count as i64);
    }
    Ok(())
}

/// Whether an expression is a name or a constant: read in place, it needs no evaluation.
fn plain(e: &Expr) -> bool {
    matches!(e, Expr::Local(_) | Expr::Const(_))
}

/// A name's or a constant's value where it is (`plain` says which expressions are).
fn in_place<'a>(e: &'a Expr, env: &'a [Value]) -> &'a Value {
    match e {
        Expr::Local(slot) => &env[*slot as usize],
        Expr::Const(v) => v,
        _ => &Value::None,
    }
}

fn compare(op: BinOp, l: &Value, r: &Value) -> Result<bool, Fail> {
    let ordering = match (l, r) {
        (Value::Int(a), Value::Int(b)) => a.cmp(b),
        (Value::Text(a), Value::Text(b)) => a.cmp(b),
        _ => return error(format!("a {} and a {} cannot be compared", l.type_name(), r.type_name())),
    };
    Ok(match op {
        BinOp::Lt => ordering.is_lt(),
        BinOp::Le => ordering.is_le(),
        BinOp::Gt => ordering.is_gt(),
        _ => ordering.is_ge(),
    })
}

fn floor_div(a: i64, b: i64) -> Result<(i64, i64), Fail> {
    if b == 0 {
        return error("division by zero");
    }
    let (mut q, mut r) = (checked(a.checked_div(b))?, a.wrapping_rem(b));
    if r != 0 && ((r < 0) != (b < 0)) {
        q -= 1;
        r += b;
    }
    Ok((q, r))
}

fn binary(
    p: &Loaded,
    w: &mut World,
    op: BinOp,
    l: &Expr,
    r: &Expr,
    env: &mut [Value],
) -> Result<Value, Fail> {
    if let Some(holds) = compared(p, op, l, r, env).or_else(|| compared_var(p, w, op, l, r, env)) {
        return Ok(Value::Bool(holds));
    }
    let left = eval(p, w, l, env)?;
    match op {
        BinOp::And if !left.truthy() => return Ok(left),
        BinOp::Or if left.truthy() => return Ok(left),
        BinOp::And | BinOp::Or => return eval(p, w, r, env),
        _ => {}
    }
    if let (BinOp::In | BinOp::NotIn, Expr::Attr(obj, name)) = (op, r) {
        // `X in A.cells` of an area A: looked for among its cells, without listing them.
        let of = eval(p, w, obj, env)?;
        if let Value::Area(area) = &of {
            if crate::areas::names_cells(p, name) {
                let found = matches!(left, Value::Cell(c) if area.cells.contains(&c));
                return Ok(Value::Bool(found == (op == BinOp::In)));
            }
        }
        let right = attr(p, w, of, name)?;
        return apply(p, w, op, left, right);
    }
    let right = eval(p, w, r, env)?;
    apply(p, w, op, left, right)
}

/// An operand's value where it already lies, for the operands that need no evaluation: a name,
/// a constant, or a column of a row (or of a piece made for a row) that a name or a constant
/// holds, read in the program's table. None for any other (and for a column the row lacks, whose
/// error the evaluation gives): the caller evaluates it. Nothing of the game is read on the way,
/// since rows never change.
fn borrowed<'a>(p: &'a Loaded, e: &'a Expr, env: &'a [Value]) -> Option<&'a Value> {
    match e {
        Expr::Local(slot) => Some(&env[*slot as usize]),
        Expr::Const(v) => Some(v),
        Expr::Attr(obj, AttrIr::Column(column)) => {
            let row = match borrowed(p, obj, env)? {
                Value::Row(row) => *row,
                Value::Piece(_, pc) => p.ir.kinds[pc.kind as usize].row?,
                _ => return None,
            };
            p.columns.get(row as usize)?.get(*column as usize)?.as_ref()
        }
        _ => None,
    }
}

/// A comparison whose operands both lie where `borrowed` finds them (`t.kind == k`, `x != y`,
/// `x in LIST`), answered by looking at them rather than copying each into a value of its own;
/// None for any other, and for those that would fail (a number compared with a text, `in`
/// something not a list), which the caller then evaluates to give the error.
#[inline]
fn compared(p: &Loaded, op: BinOp, l: &Expr, r: &Expr, env: &[Value]) -> Option<bool> {
    if !comparison(op) {
        return None;
    }
    between(op, borrowed(p, l, env)?, borrowed(p, r, env)?)
}

/// Whether an operator compares (what `compared` and `compared_var` answer).
#[inline]
fn comparison(op: BinOp) -> bool {
    matches!(
        op,
        BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::In | BinOp::NotIn
    )
}

/// How two values compare by a comparison operator; None where comparing them fails.
#[inline]
fn between(op: BinOp, left: &Value, right: &Value) -> Option<bool> {
    Some(match op {
        BinOp::Eq => left == right,
        BinOp::Ne => left != right,
        BinOp::In | BinOp::NotIn => match right {
            Value::List(items) => items.contains(left) == (op == BinOp::In),
            _ => return None,
        },
        _ => compare(op, left, right).ok()?,
    })
}

/// `compared` where a side is a variable of the game (`winner == none`, asked twice a round by a
/// loop's condition), the other one `borrowed` finds: the variable looked at where it lies, and
/// read as evaluating it reads it. Asked only where `compared` declined, so that the comparisons
/// of names, constants and rows (most of what filters over a table ask) pay nothing for it.
fn compared_var(p: &Loaded, w: &mut World, op: BinOp, l: &Expr, r: &Expr, env: &[Value]) -> Option<bool> {
    let var = |e: &Expr| match e {
        Expr::Var(var) => Some(*var),
        _ => None,
    };
    let (a, b) = (var(l), var(r));
    if a.is_none() && b.is_none() || !comparison(op) {
        return None;
    }
    let side = |var: Option<u32>, e| match var {
        Some(var) => w.vars.get(var as usize),
        None => borrowed(p, e, env),
    };
    let holds = between(op, side(a, l)?, side(b, r)?)?;
    for var in [a, b].into_iter().flatten() {
        w.memo.read(Part::Var(var));
    }
    Some(holds)
}

/// `VAR OP X` of a variable of the game and a name or a constant (`winner == none`, asked twice
/// a round by a loop's condition), as `test` asks it: the variable looked at where it lies and
/// read as evaluating it reads it, without `number`, `compared` and `compared_var` declining it
/// in turn first (measured: about 180 instructions an asking by that way). None, having read
/// nothing, for any other and where comparing fails (the caller's way gives the error).
#[inline]
fn var_against(w: &mut World, op: BinOp, l: &Expr, r: &Expr, env: &[Value]) -> Option<bool> {
    let (Expr::Var(var), Expr::Local(_) | Expr::Const(_)) = (l, r) else { return None };
    let holds = between(op, w.vars.get(*var as usize)?, in_place(r, env))?;
    w.memo.read(Part::Var(*var));
    Some(holds)
}

/// A binary operator's value from its operands' (`and` and `or` are answered by `binary`).
pub(crate) fn apply(p: &Loaded, w: &mut World, op: BinOp, left: Value, right: Value) -> Result<Value, Fail> {
    Ok(match op {
        BinOp::Add => match (left, right) {
            (Value::Int(a), Value::Int(b)) => Value::Int(checked(a.checked_add(b))?),
            (Value::List(a), Value::List(b)) => {
                let size = a.len() + b.len();
                if size > p.ir.limits.max_list {
                    return error(format!(
                        "a list of {} items: more than the {} a list may hold",
                        group(size as u64),
                        group(p.ir.limits.max_list as u64)
                    ));
                }
                let mut out = a.as_ref().clone();
                out.extend(b.iter().cloned());
                Value::List(Arc::new(out))
            }
            (Value::Text(a), Value::Text(b)) => Value::Text(format!("{a}{b}").into()),
            (a, b) => return error(format!("a {} cannot be added to a {}", b.type_name(), a.type_name())),
        },
        BinOp::Sub => Value::Int(checked(int(left)?.checked_sub(int(right)?))?),
        BinOp::Mul => Value::Int(checked(int(left)?.checked_mul(int(right)?))?),
        BinOp::FloorDiv => Value::Int(floor_div(int(left)?, int(right)?)?.0),
        BinOp::Mod => Value::Int(floor_div(int(left)?, int(right)?)?.1),
        BinOp::Eq => Value::Bool(left == right),
        BinOp::Ne => Value::Bool(left != right),
        BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => Value::Bool(compare(op, &left, &right)?),
        BinOp::In | BinOp::NotIn => {
            let found = list(right)?.contains(&left);
            Value::Bool(found == (op == BinOp::In))
        }
        BinOp::Range => {
            let (low, high) = (int(left)?, int(right)?);
            let size = high.saturating_sub(low).saturating_add(1).max(0);
            if size as u64 > p.ir.limits.max_list as u64 {
                return error(format!(
                    "a list of {} items: more than the {} a list may hold",
                    group(size as u64),
                    group(p.ir.limits.max_list as u64)
                ));
            }
            w.spend(size as usize, FailKind::BudgetList(size as usize))?;
            Value::List(Arc::new((low..=high).map(Value::Int).collect()))
        }
        BinOp::And | BinOp::Or => unreachable!("answered above"),
    })
}

pub(crate) fn attr(p: &Loaded, w: &mut World, obj: Value, name: &AttrIr) -> Result<Value, Fail> {
    // A cell of a board given by its size is one of the program's locations; any other cell is
    // of a grid that grows, and placements, routes, areas and borders have attributes of their
    // own. Rows, pieces, players and zones (most of what the rules ask about) are answered
    // below without asking those first.
    match obj {
        Value::Cell(loc) if (loc as usize) >= p.ir.locations.len() => {
            if let Some(v) = placement::attr(p, w, &obj, name)? {
                return Ok(v);
            }
        }
        Value::Placement(_) | Value::Route(_) => {
            if let Some(v) = placement::attr(p, w, &obj, name)? {
                return Ok(v);
            }
        }
        Value::Area(_) | Value::Border(..) => {
            if let Some(v) = crate::areas::attr(p, w, &obj, name)? {
                return Ok(v);
            }
        }
        _ => {}
    }
    Ok(match (name, &obj) {
        (AttrIr::Q, Value::Cell(loc)) => Value::Int(p.cell_of(*loc)?.1),
        (AttrIr::R, Value::Cell(loc)) => Value::Int(p.cell_of(*loc)?.2),
        (AttrIr::Seat, Value::Player(s)) => Value::Int(i64::from(*s)),
        (AttrIr::Owner, Value::Piece(_, pc)) => pc.owner.map_or(Value::None, Value::Player),
        (AttrIr::Owner, Value::Zone(loc)) => p.ir.locations[*loc as usize].owner.clone(),
        (AttrIr::Kind, Value::Piece(_, pc)) => Value::KindName(p.ir.kinds[pc.kind as usize].decl),
        (AttrIr::Location, Value::Piece(loc, _)) => place(p, *loc),
        (AttrIr::Row, Value::Piece(_, pc)) => {
            p.ir.kinds[pc.kind as usize].row.map_or(Value::None, Value::Row)
        }
        (AttrIr::Column(column), Value::Row(row)) => p.column(*row, *column)?,
        // A name a grid's values have (`first`, `end`...) read of a row, a piece or a cell is
        // its column (the lowering leaves to the value what a name of an untyped one means).
        (AttrIr::Shaped(word), Value::Row(_) | Value::Piece(..) | Value::Cell(_)) => {
            if let Some(column) = p.column_id(word) {
                return attr(p, w, obj, &AttrIr::Column(column));
            }
            // A column of no row: the error a row, a piece or a cell gives for it.
            return match obj {
                Value::Row(_) | Value::Piece(..) if row_of(p, &obj).is_some() => {
                    error(format!("a row has no '{word}'"))
                }
                _ => error(format!("a {} has no '{word}'", obj.type_name())),
            };
        }
        (AttrIr::Column(column), Value::Piece(_, pc)) => match p.ir.kinds[pc.kind as usize].row {
            Some(row) => p.column(row, *column)?,
            None => return error(format!("a piece has no '{}'", p.column_name(*column))),
        },
        // Any other attribute of a row, or of a piece made for a row, is the row's column of
        // that name, whatever it is called (`seat`, `q`...): as compiler/expressions.py's `of_row`.
        (name, Value::Row(row)) => p.column_named(*row, attr_name(p, name))?,
        (name, Value::Piece(_, pc)) => match p.ir.kinds[pc.kind as usize].row {
            Some(row) => p.column_named(row, attr_name(p, name))?,
            None => return error(format!("a piece has no '{}'", attr_name(p, name))),
        },
        (name, obj) => return error(format!("a {} has no '{}'", obj.type_name(), attr_name(p, name))),
    })
}

/// The row a row value is, or a piece made for a row has.
fn row_of(p: &Loaded, v: &Value) -> Option<u32> {
    match v {
        Value::Row(row) => Some(*row),
        Value::Piece(_, pc) => p.ir.kinds[pc.kind as usize].row,
        _ => None,
    }
}

fn attr_name<'a>(p: &'a Loaded, name: &'a AttrIr) -> &'a str {
    match name {
        AttrIr::Q => "q",
        AttrIr::R => "r",
        AttrIr::Seat => "seat",
        AttrIr::Owner => "owner",
        AttrIr::Kind => "kind",
        AttrIr::Location => "location",
        AttrIr::Row => "row",
        AttrIr::Column(c) => p.column_name(*c),
        AttrIr::Shaped(c) => c,
    }
}

/// `count(E)`: how many pieces `pieces(...)` finds (without listing them), the items of a
/// list, or the pieces at a place.
fn count(p: &Loaded, w: &mut World, e: &Expr, env: &mut [Value]) -> Result<i64, Fail> {
    if let Expr::Builtin(Builtin::Pieces, inner) = e {
        return count_pieces(p, w, inner, env);
    }
    if let Expr::Value(v, of) = e {
        if let Some(&Some(as_set)) = p.as_set.get(*v as usize) {
            return crate::cells::counted(p, w, as_set, of, env);
        }
    }
    let v = eval(p, w, e, env)?;
    count_of(p, w, &v)
}

fn count_of(p: &Loaded, w: &mut World, v: &Value) -> Result<i64, Fail> {
    Ok(match v {
        Value::List(items) => items.len() as i64,
        other => {
            let loc = location(p, other)?;
            w.memo.read(Part::Loc(loc));
            w.locs[loc as usize].len() as i64
        }
    })
}

/// Whether a condition holds (its value's truth). Most conditions the rules ask again and again
/// (per cell, per item) are comparisons of numbers joined by `and`, `or` and `not`, such as
/// `count(pieces(c)) == 0`: those are answered here without making a value at each step. The
/// operands are evaluated in the same order as `eval` would, with the same errors.
pub fn test(p: &Loaded, w: &mut World, e: &Expr, env: &mut [Value]) -> Result<bool, Fail> {
    match e {
        Expr::Bin(BinOp::And, l, r) => Ok(test(p, w, l, env)? && test(p, w, r, env)?),
        Expr::Bin(BinOp::Or, l, r) => Ok(test(p, w, l, env)? || test(p, w, r, env)?),
        Expr::Not(inner) => Ok(!test(p, w, inner, env)?),
        Expr::Bin(op @ (BinOp::In | BinOp::NotIn), l, r) => Ok(binary(p, w, *op, l, r, env)?.truthy()),
        Expr::Bin(op @ (BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge), l, r) => {
            if let Some(holds) = var_against(w, *op, l, r, env) {
                return Ok(holds);
            }
            let Some(a) = number(p, w, l, env)? else {
                if let Some(holds) =
                    compared(p, *op, l, r, env).or_else(|| compared_var(p, w, *op, l, r, env))
                {
                    return Ok(holds);
                }
                return Ok(eval(p, w, e, env)?.truthy());
            };
            let Some(b) = number(p, w, r, env)? else {
                let right = eval(p, w, r, env)?;
                return Ok(apply(p, w, *op, Value::Int(a), right)?.truthy());
            };
            Ok(holds(*op, a, b))
        }
        _ => Ok(eval(p, w, e, env)?.truthy()),
    }
}

/// A condition `count(pieces(ARGS)) OP N` with a constant number N: the operator, the pieces'
/// arguments and N, which `test` would answer by counting the pieces and comparing.
pub(crate) fn pieces_counted(cond: &Expr) -> Option<(BinOp, &[Expr], i64)> {
    let Expr::Bin(op @ (BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge), l, r) = cond
    else {
        return None;
    };
    let (Expr::Builtin(Builtin::Count, counted), Expr::Const(Value::Int(n))) = (l.as_ref(), r.as_ref())
    else {
        return None;
    };
    match counted.as_slice() {
        [Expr::Builtin(Builtin::Pieces, args)] => Some((*op, args, *n)),
        _ => None,
    }
}

/// Whether `a OP b` holds, for a comparison operator.
pub(crate) fn holds(op: BinOp, a: i64, b: i64) -> bool {
    match op {
        BinOp::Eq => a == b,
        BinOp::Ne => a != b,
        BinOp::Lt => a < b,
        BinOp::Le => a <= b,
        BinOp::Gt => a > b,
        _ => a >= b,
    }
}

/// A number, for the expressions that certainly are one: a constant number, a name or a
/// variable holding one, a count. None, having done nothing, for any other: the caller
/// evaluates it.
fn number(p: &Loaded, w: &mut World, e: &Expr, env: &mut [Value]) -> Result<Option<i64>, Fail> {
    Ok(match e {
        Expr::Const(Value::Int(n)) => Some(*n),
        Expr::Local(slot) => match env[*slot as usize] {
            Value::Int(n) => Some(n),
            _ => None,
        },
        Expr::Var(var) => match w.vars[*var as usize] {
            Value::Int(n) => {
                w.memo.read(Part::Var(*var));
                Some(n)
            }
            _ => None,
        },
        Expr::Builtin(Builtin::Count, args) if args.len() == 1 => Some(count(p, w, &args[0], env)?),
        _ => None,
    })
}

/// The value of an expression. Expressions change nothing but the steps they spend.
///
/// A name's or a constant's value is read where `eval` is asked (most of what it is asked: the
/// operands of operators, built-ins and statements, an `if`'s branches), without entering
/// `walked`, whose frame is large (measured: 2.3-3.3% of a classic game's instructions).
#[inline(always)]
pub fn eval(p: &Loaded, w: &mut World, e: &Expr, env: &mut [Value]) -> Result<Value, Fail> {
    match e {
        Expr::Local(slot) => Ok(env[*slot as usize].clone()),
        Expr::Const(v) => Ok(v.clone()),
        _ => walked(p, w, e, env),
    }
}

/// `f` of an expression's value, looked at where it lies when the expression is a name or a
/// constant (most of a statement's operands: `move 1 mark of p from supply to c`) rather than
/// copied into a value of its own and dropped after: what a statement makes of an operand (a
/// seat, a number, a place) needs no value of its own.
#[inline(always)]
fn with_value<T>(
    p: &Loaded,
    w: &mut World,
    e: &Expr,
    env: &mut [Value],
    f: impl FnOnce(&Value) -> Result<T, Fail>,
) -> Result<T, Fail> {
    match e {
        Expr::Local(slot) => f(&env[*slot as usize]),
        Expr::Const(v) => f(v),
        _ => f(&walked(p, w, e, env)?),
    }
}

/// The value of any other expression than a name or a constant (`eval`).
fn walked(p: &Loaded, w: &mut World, e: &Expr, env: &mut [Value]) -> Result<Value, Fail> {
    Ok(match e {
        Expr::Const(_) | Expr::Local(_) => unreachable!("a name or a constant is read by eval"),
        Expr::Var(var) => {
            w.memo.read(Part::Var(*var));
            w.vars[*var as usize].clone()
        }
        Expr::Players => {
            w.memo.read(Part::Seats);
            Value::List(w.seats.clone())
        }
        Expr::Current => {
            w.memo.read(Part::Current);
            w.current.map_or(Value::None, Value::Player)
        }
        Expr::PlayerCount => {
            w.memo.read(Part::Seats);
            Value::Int(i64::from(w.players))
        }
        Expr::Attr(obj, name) => {
            let o = eval(p, w, obj, env)?;
            attr(p, w, o, name)?
        }
        Expr::Index(obj, index) => {
            let i = int(eval(p, w, index, env)?)?;
            if i < 0 {
                return error(format!("there is no item {i} in a list: items are numbered from 0"));
            }
            if let Expr::Players = **obj {
                // A seat by its place (`players[0]`, asked at each move): no list of seats made
                // to take one out and dropped.
                w.memo.read(Part::Seats);
                return match u32::try_from(i).ok().filter(|seat| *seat < w.players) {
                    Some(seat) => Ok(Value::Player(seat)),
                    None => error("index out of range: the list is shorter"),
                };
            }
            if let Expr::Builtin(Builtin::Pieces, args) = &**obj {
                return nth_piece(p, w, args, env, i as usize);
            }
            match list(eval(p, w, obj, env)?)?.get(i as usize) {
                Some(v) => v.clone(),
                None => return error("index out of range: the list is shorter"),
            }
        }
        Expr::Neg(inner) => Value::Int(checked(int(eval(p, w, inner, env)?)?.checked_neg())?),
        Expr::Not(inner) => Value::Bool(!test(p, w, inner, env)?),
        Expr::Bin(op, l, r) => binary(p, w, *op, l, r, env)?,
        Expr::If(c, t, o) => {
            if test(p, w, c, env)? {
                eval(p, w, t, env)?
            } else {
                eval(p, w, o, env)?
            }
        }
        Expr::List(items) => {
            let mut out = Vec::with_capacity(items.len());
            for item in items {
                out.push(eval(p, w, item, env)?);
            }
            Value::List(Arc::new(out))
        }
        Expr::Filter { seq, slot, cond } => {
            if let Some(answer) = crate::occupied::filter(p, w, seq, *slot, cond, env)? {
                return Ok(answer);
            }
            let items = list(eval(p, w, seq, env)?)?;
            w.spend(items.len(), FailKind::BudgetList(items.len()))?;
            let mut out = Vec::with_capacity(items.len());
            if let Some((op, args, n)) = pieces_counted(cond) {
                // `[each c in cells(g) where count(pieces(c, ...)) OP N]`: each item's pieces
                // counted at once, without `test`, `number` and `count` in between at each, and
                // with a kind and an owner that are the same for every item, without the item in
                // its name's slot until the end.
                if let Some((kind, owner)) = fixed_kind_owner(args, *slot, env) {
                    count_each(p, w, &items, kind.as_ref(), owner, |i, count| {
                        if holds(op, count, n) {
                            out.push(items[i].clone());
                        }
                    })?;
                    if let Some(last) = items.last() {
                        env[*slot as usize] = last.clone();
                    }
                    return Ok(Value::List(Arc::new(out)));
                }
                for x in items.iter() {
                    env[*slot as usize] = x.clone();
                    if holds(op, count_pieces(p, w, args, env)?, n) {
                        out.push(x.clone());
                    }
                }
                return Ok(Value::List(Arc::new(out)));
            }
            for x in items.iter() {
                env[*slot as usize] = x.clone();
                if test(p, w, cond, env)? {
                    out.push(x.clone());
                }
            }
            Value::List(Arc::new(out))
        }
        Expr::Ranked { items, slot, keys } => {
            let items = list(eval(p, w, items, env)?)?;
            let mut ranks: Vec<(Vec<i64>, Value)> = Vec::with_capacity(items.len());
            for x in items.iter() {
                env[*slot as usize] = x.clone();
                let mut key = Vec::with_capacity(keys.len());
                for k in keys {
                    key.push(int(eval(p, w, k, env)?)?);
                }
                ranks.push((key, x.clone()));
            }
            // Highest keys first; a stable sort keeps ties in the list's order (Python's `sorted`
            // of the keys negated).
            ranks.sort_by(|a, b| b.0.cmp(&a.0));
            Value::List(Arc::new(ranks.into_iter().map(|(_, x)| x).collect()))
        }
        Expr::Map { seq, slot, e, cond } => {
            let items = list(eval(p, w, seq, env)?)?;
            w.spend(items.len(), FailKind::BudgetList(items.len()))?;
            let mut out = Vec::with_capacity(items.len());
            for x in items.iter() {
                env[*slot as usize] = x.clone();
                if cond.as_ref().map_or(Ok(true), |c| test(p, w, c, env))? {
                    out.push(eval(p, w, e, env)?);
                }
            }
            Value::List(Arc::new(out))
        }
        Expr::Value(index, args) => asked(p, w, *index, args, env)?,
        Expr::Builtin(b, args) => builtin(p, w, *b, args, env)?,
        Expr::Owned(obj, var) => {
            let owner = eval(p, w, obj, env)?;
            let owner = match owner {
                Value::Piece(_, pc) => p.ir.kinds[pc.kind as usize].row.map_or(Value::None, Value::Row),
                other => other,
            };
            if let (Value::Row(r), None) = (&owner, var.rows.get(owner_row(&owner)).copied().flatten()) {
                // A row of a table without the variable: its column of that name, as of_row reads.
                return p.column_named(*r, &var.name);
            }
            let (store, i) = owned_place(var, &owner)?;
            w.memo.read(Part::Owned(store, i));
            w.owned[store as usize][i as usize].clone()
        }
        Expr::AsIfLaid(spot, then) => {
            let spot = eval(p, w, spot, env)?;
            crate::layers::as_if_laid(p, w, &spot, |w| eval(p, w, then, env))?
        }
        Expr::AsIfMoved(what, to, then) => {
            let (what, to) = (eval(p, w, what, env)?, eval(p, w, to, env)?);
            crate::supposed::as_if_moved(p, w, &what, &to, |w| eval(p, w, then, env))?
        }
        Expr::FewestSteps { movement, start, goals, args } => {
            let (from, goals) = (eval(p, w, start, env)?, eval(p, w, goals, env)?);
            let mut given = Vec::with_capacity(args.len());
            for a in args {
                given.push(eval(p, w, a, env)?);
            }
            crate::steps::fewest(p, w, &p.ir.movements[*movement as usize], from, goals, given, None)?
        }
        Expr::Areas { of, column, many } => {
            let given = eval(p, w, of, env)?;
            crate::areas::find(p, w, &given, column, *many)?
        }
        Expr::OwnedRow(obj, var, row) => {
            let (owner, row) = (eval(p, w, obj, env)?, eval(p, w, row, env)?);
            crate::rows::read(p, w, var, &owner, &row)?
        }
        Expr::NextTo(obj, adjacency) => {
            let at = eval(p, w, obj, env)?;
            Value::List(Arc::new(next_to(p, &at, adjacency)?))
        }
        Expr::Regions { seq, .. } => {
            let given = eval(p, w, seq, env)?;
            regions(p, w, e, given, env)?
        }
        Expr::ZoneOf(obj, by_seat, by_row) => {
            let owner = eval(p, w, obj, env)?;
            let found = match &owner {
                Value::Player(s) => by_seat.get(*s as usize).copied().flatten(),
                Value::Row(r) => by_row.get(*r as usize).copied().flatten(),
                _ => None,
            };
            match found {
                Some(loc) => Value::Zone(loc),
                None => return error(format!("{} has no such zone or map", owner.a_kind())),
            }
        }
        Expr::Side(g, directions) => {
            let Value::Grid(g) = eval(p, w, g, env)? else {
                return error("side(...) is of a grid");
            };
            grid::side(p, g, directions)?
        }
        Expr::GridOf(obj, by_seat) => match eval(p, w, obj, env)? {
            Value::Player(s) if by_seat.get(s as usize).copied().flatten().is_some() => {
                Value::Grid(by_seat[s as usize].unwrap_or_default())
            }
            other => return error(format!("a {} has no such grid", other.type_name())),
        },
        Expr::Placements { grid, shape, faces } => {
            let Value::Grid(g) = eval(p, w, grid, env)? else {
                return error("placements(...) are found on a grid");
            };
            let shape = eval(p, w, shape, env)?;
            placement::placements(p, w, g, &shape, faces)?
        }
        Expr::Routes { movement, start, args } => {
            let from = eval(p, w, start, env)?;
            let mut given = Vec::with_capacity(args.len());
            for a in args {
                given.push(eval(p, w, a, env)?);
            }
            crate::routes::routes(p, w, &p.ir.movements[*movement as usize], from, given, None)?
        }
        Expr::At(site, call) => located(p, w, *site, call, env)?,
    })
}

/// `region(NODE, ATTR)` or `regions(NODES, ATTR)` (`Expr::Regions`) from what its first
/// argument gave.
fn regions(p: &Loaded, w: &mut World, e: &Expr, given: Value, env: &mut [Value]) -> Result<Value, Fail> {
    let Expr::Regions { slot, key, adjacency, many, .. } = e else {
        return error("regions(...) asked of something else");
    };
    let starts: Vec<Value> = if *many { list(given)?.as_ref().clone() } else { vec![given] };
    let mut seen: HashSet<Value> = HashSet::new();
    let mut out = Vec::new();
    for start in starts {
        if !seen.contains(&start) || !*many {
            let joined = component(p, w, env, *slot, key, adjacency, start, &mut seen)?;
            out.push(Value::List(Arc::new(joined)));
        }
    }
    Ok(if *many { Value::List(Arc::new(out)) } else { out.pop().unwrap_or(Value::None) })
}

/// A call whose own errors are located at its site (`Expr::At`), as the Python engine locates
/// them (interpreter/builtins.py raises them with the call's span): its arguments are asked
/// first and their errors keep no place of their own (the statement's, on both engines); then
/// the call, whose errors take the site, unless they come from what it asks inside (a
/// look-ahead's question, a movement's conditions), which keep theirs.
fn located(p: &Loaded, w: &mut World, site: u32, call: &Expr, env: &mut [Value]) -> Result<Value, Fail> {
    let here = |fail: Fail| at(fail, site);
    match call {
        Expr::AsIfLaid(spot, then) => {
            let spot = eval(p, w, spot, env)?;
            let mut inside = false;
            crate::layers::as_if_laid(p, w, &spot, |w| {
                let answer = eval(p, w, then, env);
                inside = answer.is_err();
                answer
            })
            .map_err(|fail| if inside { fail } else { here(fail) })
        }
        Expr::AsIfMoved(what, to, then) => {
            let (what, to) = (eval(p, w, what, env)?, eval(p, w, to, env)?);
            let mut inside = false;
            crate::supposed::as_if_moved(p, w, &what, &to, |w| {
                let answer = eval(p, w, then, env);
                inside = answer.is_err();
                answer
            })
            .map_err(|fail| if inside { fail } else { here(fail) })
        }
        Expr::Builtin(b, args) => {
            argued(p, w, args, env, |w, values| apply_builtin(p, w, *b, values).map_err(here))
        }
        Expr::Areas { of, column, many } => {
            let given = eval(p, w, of, env)?;
            crate::areas::find(p, w, &given, column, *many).map_err(here)
        }
        Expr::Regions { seq, .. } => {
            let given = eval(p, w, seq, env)?;
            regions(p, w, call, given, env).map_err(here)
        }
        Expr::Placements { grid, shape, faces } => {
            let grid = eval(p, w, grid, env)?;
            let shape = eval(p, w, shape, env)?;
            let Value::Grid(g) = grid else {
                return error("placements(...) are found on a grid").map_err(here);
            };
            placement::placements(p, w, g, &shape, faces).map_err(here)
        }
        Expr::FewestSteps { movement, start, goals, args } => {
            let (from, goals) = (eval(p, w, start, env)?, eval(p, w, goals, env)?);
            let given = args.iter().map(|a| eval(p, w, a, env)).collect::<Result<_, _>>()?;
            crate::steps::fewest(p, w, &p.ir.movements[*movement as usize], from, goals, given, Some(site))
        }
        Expr::Routes { movement, start, args } => {
            let from = eval(p, w, start, env)?;
            let given = args.iter().map(|a| eval(p, w, a, env)).collect::<Result<_, _>>()?;
            crate::routes::routes(p, w, &p.ir.movements[*movement as usize], from, given, Some(site))
        }
        other => eval(p, w, other, env),
    }
}

/// The declared value `index` asked with these arguments, evaluated in order. Inlined where
/// `eval` asks it, as it was written there (measured: kept apart, `declared` went inside it).
#[inline(always)]
pub(crate) fn asked(
    p: &Loaded,
    w: &mut World,
    index: u32,
    args: &[Expr],
    env: &mut [Value],
) -> Result<Value, Fail> {
    let given = match args {
        // No list made of no arguments: collecting none cost some 90 instructions an asking
        // (`empty()`, asked three times a move).
        [] => Args::Many(Vec::new()),
        [one] => Args::One(eval(p, w, one, env)?),
        [a, b] => Args::Two(eval(p, w, a, env)?, eval(p, w, b, env)?),
        many => Args::Many(many.iter().map(|a| eval(p, w, a, env)).collect::<Result<_, _>>()?),
    };
    declared(p, w, (index, given))
}

/// A declared value's answer for these arguments: the game's memo's while it holds, else the
/// program's (`Known`), else computed, and kept by the memo (and, if it read nothing of the
/// game, by the program).
fn declared(p: &Loaded, w: &mut World, key: Key) -> Result<Value, Fail> {
    if p.in_place[key.0 as usize] {
        return computed_in_place(p, w, &key);
    }
    if let Some(answer) = compiled_body(p, w, &key)? {
        return Ok(answer);
    }
    if w.memo.unkept(key.0) {
        return computed_unkept(p, w, &key);
    }
    // Kept by what the body reads of its arguments (narrowed.rs), computed from them as given.
    let (key, given) = match &p.narrowed[key.0 as usize] {
        None => (key, None),
        Some(narrowing) => match narrowing.key(p, w, &key) {
            Ok(narrowed) => (narrowed, Some(key)),
            Err(_) => return computed_in_place(p, w, &key),
        },
    };
    let key = crate::memo::Asked::new(key);
    if let Some(known) = w.memo.get(&key) {
        return Ok(known);
    }
    let shared = p.known.may_know(key.0)
        && match &key.1 {
            Args::One(v) => of_the_program(p, v),
            Args::Two(a, b) => of_the_program(p, a) && of_the_program(p, b),
            Args::Many(values) => values.iter().all(|v| of_the_program(p, v)),
        };
    if shared {
        // An answer whose steps the budget cannot pay is computed again, to fail as it would.
        match p.known.get(&key) {
            Some((answer, steps)) if w.steps.saturating_add(steps) <= w.budget => {
                w.steps += steps;
                w.memo.keep(key, answer.clone(), Reads::default(), steps);
                return Ok(answer);
            }
            _ => {}
        }
    }
    let func = entered(p, w, key.0)?;
    w.depth += 1;
    w.memo.begin();
    let before = w.steps;
    let args = &given.as_ref().unwrap_or(&key).1;
    let result = with_names(args, func.slots as usize, |env| body(p, w, &key, &func.body, env));
    let read = w.memo.end();
    w.depth -= 1;
    w.calls -= 1;
    let result = result?;
    if shared {
        p.known.found(&key, &result, &read, w.steps - before);
    }
    w.memo.keep(key, result.clone(), read, w.steps - before);
    Ok(result)
}

/// A declared value whose answers are found stale at each asking (`Memo::unkept`): computed as
/// `declared` computes one, within the same limits, and not kept; what it reads, its caller reads.
#[inline(never)]
fn computed_unkept(p: &Loaded, w: &mut World, key: &Key) -> Result<Value, Fail> {
    let func = entered(p, w, key.0)?;
    w.depth += 1;
    let result = with_names(&key.1, func.slots as usize, |env| body(p, w, key, &func.body, env));
    w.depth -= 1;
    w.calls -= 1;
    result
}

/// A value whose body is a small test of what stands at a place, answered by its compiled body
/// (bodies.rs) where it answers as the walk would.
fn compiled_body(p: &Loaded, w: &mut World, key: &Key) -> Result<Option<Value>, Fail> {
    match &p.bodies[key.0 as usize] {
        Some(body) => crate::bodies::asked(p, w, key.0, body, &key.1),
        None => Ok(None),
    }
}

/// A declared value about to be computed, within the limits of values under way (how deep, how
/// many: `limits::enter`, which its caller undoes with `w.calls -= 1`), whether it is kept by the
/// memo or computed in place.
pub(crate) fn entered<'p>(p: &'p Loaded, w: &mut World, value: u32) -> Result<&'p crate::ir::FuncIr, Fail> {
    let func = &p.ir.values[value as usize];
    if w.depth >= p.ir.limits.max_value_depth {
        return Err(Fail { kind: FailKind::ValueDepth, at: None });
    }
    limits::enter(p, w, Entered::Value(func.at))?;
    Ok(func)
}

/// A declared value computed where it is asked, without the memo (in_place.rs): as `declared`
/// computes one, within the same limits; what it reads, its caller reads.
fn computed_in_place(p: &Loaded, w: &mut World, key: &Key) -> Result<Value, Fail> {
    let func = entered(p, w, key.0)?;
    // A comparison answered by `test`, which compares numbers without making a value per step.
    let result = with_names(&key.1, func.slots as usize, |env| match &func.body {
        e @ Expr::Bin(BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge, ..) => {
            test(p, w, e, env).map(Value::Bool)
        }
        e if p.sets[key.0 as usize] => crate::cells::answer(p, w, key, e, env),
        e => eval(p, w, e, env),
    });
    w.calls -= 1;
    result
}

/// `f` given a declared value's names (`size` of them: its arguments first, each other none). A
/// value of a few names (most are) has them on the stack, not in a list made per call, in as few
/// slots as fit them: those of a value of one or two names are two, not `FEW_SLOTS`, each dropped
/// after it (Tic-Tac-Toe: about 70 instructions an asking).
#[inline(always)]
fn with_names<T>(args: &Args, size: usize, f: impl FnOnce(&mut [Value]) -> T) -> T {
    if size <= 2 {
        let mut two: [Value; 2] = Default::default();
        args.fill(&mut two);
        f(&mut two[..size])
    } else if size <= FEW_SLOTS {
        let mut few: [Value; FEW_SLOTS] = Default::default();
        args.fill(&mut few);
        f(&mut few[..size])
    } else {
        f(&mut args.slots(size))
    }
}

/// A declared value's body: a filter kept item by item as pieces move (kept.rs), where one may
/// be (not inside another's test: those are what it keeps), or else evaluated.
#[inline(always)]
fn body(p: &Loaded, w: &mut World, key: &Key, e: &Expr, env: &mut [Value]) -> Result<Value, Fail> {
    if p.sets[key.0 as usize] {
        return crate::cells::answer(p, w, key, e, env);
    }
    if let Expr::Filter { seq, slot, cond } = e {
        // A board's cells by their pieces: one pass over a small board costs less than keeping them.
        if p.passes[key.0 as usize] {
            if let Some(answer) = crate::occupied::filter(p, w, seq, *slot, cond, env)? {
                return Ok(answer);
            }
        }
        // A small board's cells by a compiled condition: its words combined cost less than keeping them.
        if p.tested[key.0 as usize] {
            if let Some(answer) = crate::occupied::by_test(p, w, key.0, (seq, *slot), env)? {
                return Ok(answer);
            }
        }
        if w.memo.collecting.is_none() && w.memo.filters.may_keep(key.0) {
            return crate::kept::filter(p, w, key, (seq, *slot, cond), env);
        }
    }
    eval(p, w, e, env)
}

/// The places next to a place: a cell's neighbours across its sides, a node's along its edges.
fn next_to(p: &Loaded, at: &Value, adjacency: &[Vec<u32>]) -> Result<Vec<Value>, Fail> {
    match at {
        Value::Cell(_) => Ok(list(grid::neighbours(p, at)?)?.as_ref().clone()),
        Value::Row(r) => Ok(adjacency
            .get(*r as usize)
            .map_or_else(Vec::new, |nbs| nbs.iter().map(|n| Value::Row(*n)).collect())),
        other => error(format!("a {} has no neighbours", other.type_name())),
    }
}

/// The places joined to `start` by edges (or sides) whose key is the same as its own, in the
/// order the Python engine finds them (builtins.py's `_Regions`).
#[allow(clippy::too_many_arguments)]
fn component(
    p: &Loaded,
    w: &mut World,
    env: &mut [Value],
    slot: u32,
    key: &Expr,
    adjacency: &[Vec<u32>],
    start: Value,
    seen: &mut HashSet<Value>,
) -> Result<Vec<Value>, Fail> {
    env[slot as usize] = start.clone();
    let want = eval(p, w, key, env)?;
    let (mut out, mut todo) = (vec![start.clone()], vec![start.clone()]);
    seen.insert(start);
    while let Some(at) = todo.pop() {
        for nb in next_to(p, &at, adjacency)? {
            if seen.contains(&nb) {
                continue;
            }
            env[slot as usize] = nb.clone();
            if eval(p, w, key, env)? == want {
                seen.insert(nb.clone());
                out.push(nb.clone());
                todo.push(nb);
            }
        }
    }
    Ok(out)
}

fn numbers(items: &[Value]) -> Result<Vec<i64>, Fail> {
    items.iter().map(|v| int(v.clone())).collect()
}

fn builtin(p: &Loaded, w: &mut World, b: Builtin, args: &[Expr], env: &mut [Value]) -> Result<Value, Fail> {
    if matches!(b, Builtin::Any | Builtin::All) {
        // Going through a comprehension stops at the first answer, as the Python engine's does.
        let want = b == Builtin::Any;
        if let Expr::Map { seq, slot, e, cond } = &args[0] {
            let items = list(eval(p, w, seq, env)?)?;
            w.spend(items.len(), FailKind::BudgetList(items.len()))?;
            for x in items.iter() {
                env[*slot as usize] = x.clone();
                if cond.as_ref().map_or(Ok(true), |c| test(p, w, c, env))? && test(p, w, e, env)? == want {
                    return Ok(Value::Bool(want));
                }
            }
            return Ok(Value::Bool(!want));
        }
        let items = list(eval(p, w, &args[0], env)?)?;
        return Ok(Value::Bool(if want {
            items.iter().any(Value::truthy)
        } else {
            items.iter().all(Value::truthy)
        }));
    }
    if b == Builtin::Pieces {
        return Ok(Value::List(Arc::new(pieces(p, w, args, env)?)));
    }
    if let (Builtin::Count, [one]) = (b, args) {
        return Ok(Value::Int(count(p, w, one, env)?));
    }
    // A board's cells that a filter answers as a set, read as one (cells.rs).
    if matches!(b, Builtin::InARow | Builtin::Connected) {
        if let Some(answer) = crate::cells::asked(p, w, b, args, env)? {
            return Ok(answer);
        }
    }
    // A fixed board's cells (the list most filters go through): its list shared, no arguments made.
    if let (Builtin::Cells, [Expr::Const(Value::Grid(g))]) = (b, args) {
        if !p.ir.grids[*g as usize].grows {
            return Ok(grid::cells(p, *g));
        }
    }
    argued(p, w, args, env, |w, values| apply_builtin(p, w, b, values))
}

/// The arguments' values, on the stack for the few most built-ins take, given to `then`.
#[inline(always)]
fn argued(
    p: &Loaded,
    w: &mut World,
    args: &[Expr],
    env: &mut [Value],
    then: impl FnOnce(&mut World, &[Value]) -> Result<Value, Fail>,
) -> Result<Value, Fail> {
    let (mut few, many): ([Value; 4], Vec<Value>);
    let values: &[Value] = if args.len() <= 4 {
        few = [Value::None, Value::None, Value::None, Value::None];
        for (i, a) in args.iter().enumerate() {
            few[i] = eval(p, w, a, env)?;
        }
        &few[..args.len()]
    } else {
        many = args.iter().map(|a| eval(p, w, a, env)).collect::<Result<_, _>>()?;
        &many
    };
    then(w, values)
}

/// A built-in asked with its arguments' values.
fn apply_builtin(p: &Loaded, w: &mut World, b: Builtin, values: &[Value]) -> Result<Value, Fail> {
    Ok(match b {
        Builtin::Count => Value::Int(count_of(p, w, &values[0])?),
        Builtin::Sum => {
            let mut total: i64 = 0;
            for n in numbers(&list(values[0].clone())?)? {
                total = checked(total.checked_add(n))?;
            }
            Value::Int(total)
        }
        Builtin::Min | Builtin::Max => {
            let given =
                if values.len() == 1 { numbers(&list(values[0].clone())?)? } else { numbers(values)? };
            let best = if b == Builtin::Min { given.iter().min() } else { given.iter().max() };
            match best {
                Some(n) => Value::Int(*n),
                None => {
                    let (name, one) =
                        if b == Builtin::Min { ("min", "smallest") } else { ("max", "largest") };
                    return error(format!("{name} of an empty list: there is no {one} number"));
                }
            }
        }
        Builtin::Abs => Value::Int(checked(int(values[0].clone())?.checked_abs())?),
        Builtin::NextTo | Builtin::CornerTo => {
            crate::areas::beside(p, w, &values[0], b == Builtin::CornerTo)?
        }
        Builtin::Borders => crate::areas::borders(p, w, &values[0])?,
        Builtin::PlacementAt => placement::placement_at(p, values)?,
        Builtin::BlockAt => crate::layers::block_at(p, w, values)?,
        Builtin::Flat => {
            let mut out = Vec::new();
            for part in list(values[0].clone())?.iter() {
                match part {
                    Value::List(items) => out.extend(items.iter().cloned()),
                    other => {
                        return error(format!("flat joins lists, and one of these is {}", other.a_kind()))
                    }
                }
            }
            Value::List(Arc::new(out))
        }
        Builtin::NextPlayer => {
            w.memo.read(Part::Seats);
            Value::Player((seat(&values[0])? + 1) % w.players)
        }
        Builtin::Automated => {
            let of = seat(&values[0])?;
            Value::Bool(p.ir.humans.is_some_and(|humans| of >= humans))
        }
        Builtin::Team | Builtin::Teammates => {
            w.memo.read(Part::Seats);
            let of = seat(&values[0])?;
            let mates = w.teams.team(of).iter().filter(|&&s| b == Builtin::Team || s != of);
            Value::List(Arc::new(mates.map(|&s| Value::Player(s)).collect()))
        }
        Builtin::PlayersFrom => {
            w.memo.read(Part::Seats);
            let first = seat(&values[0])?;
            Value::List(Arc::new((0..w.players).map(|i| Value::Player((first + i) % w.players)).collect()))
        }
        Builtin::Cells => match values[0] {
            Value::Grid(g) if p.ir.grids[g as usize].grows => placement::cells(w, g),
            Value::Grid(g) => grid::cells(p, g),
            _ => return error("cells(...) are a grid's"),
        },
        Builtin::Cell => match values[0] {
            Value::Grid(g) => {
                let (q, r) = (int(values[1].clone())?, int(values[2].clone())?);
                placement::cell_at(p, w, g, q, r).map_or(Value::None, Value::Cell)
            }
            _ => return error("cell(...) is a grid's"),
        },
        Builtin::Distance => Value::Int(grid::distance(p, &values[0], &values[1])?),
        Builtin::Neighbours => match placement::neighbours(p, w, &values[0])? {
            Some(around) => around,
            None => grid::neighbours(p, &values[0])?,
        },
        Builtin::InARow => {
            Value::Bool(grid::in_a_row(p, &list(values[0].clone())?, int(values[1].clone())?)?)
        }
        Builtin::Connected => Value::Bool(grid::connected(
            p,
            &mut w.memo.filters.joins,
            &list(values[0].clone())?,
            &list(values[1].clone())?,
            &list(values[2].clone())?,
        )?),
        Builtin::Any | Builtin::All | Builtin::Pieces => unreachable!("answered above"),
    })
}

/// The tiny game the tests of every module play (`tests/tiny.json`, lowered by lower.py from
/// the rules this module's tests quote): one place to load it, as a program or as JSON to edit.
#[cfg(test)]
pub(crate) fn tiny_program<T: serde::de::DeserializeOwned>() -> T {
    serde_json::from_str(include_str!("../tests/tiny.json")).expect("the fixture loads")
}

/// Random two-player games of a program, one a seed, each handed to `at` in every position from
/// its start to its end (each decision answered by a generator of the seed): for the tests that
/// hold a mechanism to the walk it stands in for, position by position.
#[cfg(test)]
pub(crate) fn at_every_position(
    program: &Arc<Loaded>,
    seeds: std::ops::Range<i128>,
    mut at: impl FnMut(&mut Game, i128),
) {
    for seed in seeds {
        let mut game = Game::new(program.clone(), 2, seed, 10_000, false);
        let mut rng = crate::rng::Mt::new(seed);
        loop {
            at(&mut game, seed);
            let Some(pending) = &game.pending else { break };
            let size = pending.size() as u64;
            game.apply(rng.randbelow(size) as usize).expect("an option");
        }
    }
}

#[cfg(test)]
mod tests {
    //! A tiny game, lowered by lower.py from these rules (neutral names):
    //!
    //! ```text
    //! map board: grid square 3 by 1
    //! zone supply
    //! piece stone: 3 per player in supply
    //! var total: int = 0
    //! value free() = [each c in cells(board) where count(pieces(c)) == 0]
    //! score p = count(pieces(supply, stone, p))
    //! play: while count(free()) > 0: for each p in players: if count(free()) > 0:
    //!   turn p: choose c from free() prompt "Where": move 1 stone of p from supply to c; add 1 to total
    //! ```
    use super::{Agent, FailKind, Game, Loaded, Value};
    use crate::ir::Program;
    use crate::rng::Mt;
    use std::sync::Arc;

    fn tiny() -> Arc<Loaded> {
        let ir: Program = crate::vm::tiny_program();
        Arc::new(Loaded::new(ir))
    }

    #[test]
    fn first_agents_fill_the_board_in_turn() {
        let mut game = Game::new(tiny(), 2, 0, 1_000, true);
        assert_eq!(game.pending.as_ref().map(|p| (p.seat, p.size())), Some((0, 3)));
        game.play_out(&mut [Agent::First, Agent::First]).expect("the game plays");
        assert!(game.over && game.failed.is_none());
        // The last cell was the only option: taken without a choice.
        assert_eq!(game.choices, vec![0, 0]);
        assert_eq!(game.scores(false).expect("scores"), vec![1, 2]);
        assert_eq!(game.world.turns, 3);
    }

    #[test]
    fn a_copy_is_equal_until_one_of_them_moves_on() {
        let mut game = Game::new(tiny(), 2, 7, 1_000, false);
        let mut copy = game.clone();
        assert_eq!(copy, game);
        copy.apply(2).expect("an option");
        assert_ne!(copy, game);
        game.apply(2).expect("an option");
        assert_eq!(copy, game);
    }

    #[test]
    fn an_answer_that_is_no_option_changes_nothing() {
        let mut game = Game::new(tiny(), 2, 0, 1_000, false);
        let before = game.clone();
        assert!(game.apply(3).is_err());
        assert_eq!(game, before);
    }

    #[test]
    fn random_agents_draw_as_cpython_random_random_would() {
        // Seat 0 draws from Random(seed * 1000), the first of its draws a randrange(3).
        let mut game = Game::new(tiny(), 2, 5, 1_000, false);
        let expected = Mt::new(5000).randbelow(3) as u32;
        game.play_out(&mut [Agent::Random(Mt::new(5000)), Agent::Random(Mt::new(5001))]).expect("plays");
        assert_eq!(game.choices[0], expected);
    }

    #[test]
    fn a_located_call_gives_its_site_to_its_own_errors_only() {
        // `Expr::At`: the call's own error takes the call's site; an argument's, or the
        // look-ahead's question's, keeps none (its statement's, given later by `at`).
        use super::eval;
        use crate::ir::{Builtin, Expr};
        let program = tiny();
        let mut game = Game::new(program.clone(), 2, 0, 1_000, false);
        let at = |e: Expr| Expr::At(7, Box::new(e));
        let broken = || Expr::Index(Box::new(Expr::List(vec![])), Box::new(Expr::Const(Value::Int(5))));
        let three = || Expr::Const(Value::Int(3));
        let place = || Expr::Const(Value::Zone(0));
        let cases = [
            (at(Expr::Builtin(Builtin::NextTo, vec![three()])), Some(7)),
            (at(Expr::Builtin(Builtin::NextTo, vec![broken()])), None),
            (at(Expr::AsIfMoved(Box::new(three()), Box::new(place()), Box::new(three()))), Some(7)),
            (at(Expr::AsIfMoved(Box::new(Expr::List(vec![])), Box::new(place()), Box::new(broken()))), None),
            (Expr::AsIfMoved(Box::new(three()), Box::new(place()), Box::new(three())), None),
        ];
        for (e, site) in cases {
            let mut env = vec![Value::None; 2];
            let fail = eval(&program, &mut game.world, &e, &mut env).expect_err("it breaks");
            assert_eq!(fail.at, site, "{e:?}");
            assert!(matches!(fail.kind, FailKind::Error(_)));
        }
    }

    #[test]
    fn a_condition_holds_exactly_when_its_value_is_true() {
        // `test` answers comparisons of numbers without making values: for every operator, and
        // operands of every type as constants, names and counts, it must agree with the truth
        // of `eval`'s value, errors included.
        use super::{eval, test};
        use crate::ir::{BinOp, Builtin, Expr};
        use crate::value::Value;
        let program = tiny();
        let mut game = Game::new(program.clone(), 2, 0, 1_000, false);
        let values = [
            Value::Int(0),
            Value::Int(2),
            Value::Bool(true),
            Value::None,
            Value::Text("a".into()),
            Value::List(Arc::new(vec![Value::Int(1), Value::Int(2)])),
        ];
        let operand = |v: &Value, slot: u32, how: usize| match how {
            0 => Expr::Const(v.clone()),
            1 => Expr::Local(slot),
            _ => Expr::Builtin(Builtin::Count, vec![Expr::Const(v.clone())]),
        };
        let ops = [BinOp::Eq, BinOp::Ne, BinOp::Lt, BinOp::Le, BinOp::Gt, BinOp::Ge, BinOp::And, BinOp::Or];
        for op in ops {
            for l in &values {
                for r in &values {
                    for (left, right) in [(0, 0), (1, 1), (2, 0), (0, 2), (1, 2), (2, 2)] {
                        let compared =
                            Expr::Bin(op, Box::new(operand(l, 0, left)), Box::new(operand(r, 1, right)));
                        for e in [
                            Expr::Not(Box::new(Expr::Bin(
                                op,
                                Box::new(operand(l, 0, left)),
                                Box::new(operand(r, 1, right)),
                            ))),
                            compared,
                        ] {
                            let mut env = vec![l.clone(), r.clone()];
                            let by_test = test(&program, &mut game.world, &e, &mut env);
                            let by_eval = eval(&program, &mut game.world, &e, &mut env).map(|v| v.truthy());
                            assert_eq!(by_test, by_eval, "{e:?}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn a_filter_counting_pieces_keeps_what_its_condition_would() {
        // `[each x in ITEMS where count(pieces(x, ...)) OP N]` counts each item's pieces at
        // once (`pieces_counted`); the same count read as `[count(...)][0]`, which `test` leaves
        // to `eval`'s operators, must keep the same items and fail with the same errors.
        use super::eval;
        use crate::ir::{BinOp, Builtin, Expr};
        let program = tiny();
        let mut game = Game::new(program.clone(), 2, 0, 1_000_000, false);
        game.apply(1).expect("seat 1 puts a stone on the middle cell");
        let places = vec![Value::Zone(0), Value::Cell(1), Value::Cell(2), Value::Cell(3)];
        let lists = [
            places.clone(),
            vec![Value::List(Arc::new(places.clone())), Value::Cell(2)],
            vec![Value::Cell(2), Value::Int(4)],
            vec![],
        ];
        // pieces(x), pieces(x, stone), pieces(x, stone, seat 1), pieces(x, stone, seat 2), an
        // owner that is no player, a kind and an owner in names other than x (`fixed_kind_owner`
        // finds them once), an owner that is x, a place that is not x.
        let (x, stone) = (|| Expr::Local(0), || Expr::Const(Value::KindName(0)));
        let (kind_name, no_one) = (1, 2);
        let args = |k: usize| match k {
            0..=3 => {
                let given = [stone(), Expr::Const(Value::Player((k as u32) % 2))];
                std::iter::once(x()).chain(given.into_iter().take(k.min(2))).collect::<Vec<_>>()
            }
            4 => vec![x(), stone(), Expr::Const(Value::Text("a".into()))],
            5 => vec![x(), Expr::Local(kind_name), Expr::Local(no_one)],
            6 => vec![x(), stone(), x()],
            _ => vec![Expr::Const(Value::Cell(2)), stone()],
        };
        let ops = [BinOp::Eq, BinOp::Ne, BinOp::Lt, BinOp::Le, BinOp::Gt, BinOp::Ge];
        for items in &lists {
            for k in 0..8 {
                for op in ops {
                    for n in [0, 1, 3] {
                        let counted =
                            || Expr::Builtin(Builtin::Count, vec![Expr::Builtin(Builtin::Pieces, args(k))]);
                        let n = || Box::new(Expr::Const(Value::Int(n)));
                        let cond = || Expr::Bin(op, Box::new(counted()), n());
                        assert!(super::pieces_counted(&cond()).is_some());
                        let seq = || Box::new(Expr::Const(Value::List(Arc::new(items.clone()))));
                        let zero = Box::new(Expr::Const(Value::Int(0)));
                        let first = Expr::Index(Box::new(Expr::List(vec![counted()])), zero);
                        let slow = Expr::Bin(op, Box::new(first), n());
                        let fast = Expr::Filter { seq: seq(), slot: 0, cond: Box::new(cond()) };
                        let general = Expr::Filter { seq: seq(), slot: 0, cond: Box::new(slow) };
                        let names = vec![Value::None, Value::KindName(0), Value::None];
                        let (mut fast_names, mut general_names) = (names.clone(), names);
                        let by_fast = eval(&program, &mut game.world, &fast, &mut fast_names);
                        let by_general = eval(&program, &mut game.world, &general, &mut general_names);
                        assert_eq!(by_fast, by_general, "{fast:?}");
                        if by_fast.is_ok() {
                            assert_eq!(fast_names, general_names, "x is the last item after, as it would be");
                        }
                    }
                }
            }
        }
    }

    /// The tiny program with one table of two rows, `a` and `b` (`b` missing from the second),
    /// of which expressions read only `b`.
    fn with_rows() -> Loaded {
        let mut ir: serde_json::Value = crate::vm::tiny_program();
        ir["rows"] = serde_json::json!([{"a": {"Int": 1}, "b": {"Text": "x"}}, {"a": {"Int": 3}}]);
        ir["columns"] = serde_json::json!(["b"]);
        Loaded::new(serde_json::from_value(ir).expect("the program loads"))
    }

    #[test]
    fn a_column_read_by_its_index_is_the_rows_value_of_that_name() {
        use super::attr;
        use crate::ir::AttrIr;
        let program = with_rows();
        // The columns expressions read keep their index; the others follow, so every column has one.
        assert_eq!((program.column_id("b"), program.column_id("a")), (Some(0), Some(1)));
        let mut game = Game::new(Arc::new(with_rows()), 2, 0, 1_000, false);
        let no = |name: &str| Err(FailKind::Error(format!("a row has no '{name}'")));
        let expected = [
            (0, "a", Ok(Value::Int(1))),
            (0, "b", Ok(Value::Text("x".into()))),
            (1, "a", Ok(Value::Int(3))),
            (1, "b", no("b")),
            (0, "c", no("c")),
        ];
        for (row, name, want) in expected {
            let by_index = match program.column_id(name) {
                Some(column) => attr(&program, &mut game.world, Value::Row(row), &AttrIr::Column(column)),
                None => attr(&program, &mut game.world, Value::Row(row), &AttrIr::Shaped(name.into())),
            };
            let by_name = program.column_named(row, name);
            assert_eq!(by_index.map_err(|f| f.kind), want, "row {row}, column {name} by index");
            assert_eq!(by_name.map_err(|f| f.kind), want, "row {row}, column {name} by name");
        }
    }

    #[test]
    fn a_comparison_of_columns_read_in_place_answers_as_the_values_compared() {
        // `compared` looks at names, constants and rows' columns where they lie; every operator
        // must give what comparing the values read by `attr` gives, its errors included (a
        // column a row lacks, a number against a text, `in` something not a list).
        use super::{apply, attr, eval, test};
        use crate::ir::{AttrIr, BinOp, Expr};
        let program = Arc::new(with_rows());
        let mut game = Game::new(program.clone(), 2, 0, 1_000, false);
        let objects = [Value::Row(0), Value::Row(1), Value::Int(2)];
        let others = [
            Value::Int(1),
            Value::Int(3),
            Value::Text("x".into()),
            Value::None,
            Value::List(Arc::new(vec![Value::Int(1), Value::Text("x".into())])),
        ];
        let ops = [BinOp::Eq, BinOp::Ne, BinOp::Lt, BinOp::Le, BinOp::Gt, BinOp::Ge, BinOp::In, BinOp::NotIn];
        for op in ops {
            for object in &objects {
                for column in [0, 1] {
                    for other in &others {
                        let read = Expr::Attr(Box::new(Expr::Local(0)), AttrIr::Column(column));
                        let e = Expr::Bin(op, Box::new(read), Box::new(Expr::Local(1)));
                        let w = &mut game.world;
                        let want = attr(&program, w, object.clone(), &AttrIr::Column(column))
                            .and_then(|left| apply(&program, w, op, left, other.clone()))
                            .map_err(|f| f.kind);
                        let mut env = vec![object.clone(), other.clone()];
                        let got = eval(&program, w, &e, &mut env).map_err(|f| f.kind);
                        assert_eq!(got, want, "{e:?} of {object:?}, {other:?}");
                        let held = test(&program, w, &e, &mut env).map_err(|f| f.kind);
                        assert_eq!(held, want.map(|v| v.truthy()), "test {e:?} of {object:?}, {other:?}");
                    }
                }
            }
        }
    }

    /// A comparison of a variable of the game with a name or a constant, looked at where they lie
    /// (`var_against`, `compared_var`: `winner == none`), answers as comparing the values gives, its errors
    /// included, and reads the variable as evaluating it reads it (a kept answer that compared it
    /// is found stale when it changes).
    #[test]
    fn a_comparison_of_a_variable_looked_at_in_place_answers_and_reads_as_evaluating_it() {
        use super::{apply, eval, test, World};
        use crate::ir::{BinOp, Expr};
        let program = tiny();
        let mut game = Game::new(program.clone(), 2, 0, 1_000, false);
        let values = [
            Value::Int(1),
            Value::Int(3),
            Value::Player(1),
            Value::Text("x".into()),
            Value::None,
            Value::List(Arc::new(vec![Value::Int(1), Value::Player(1)])),
        ];
        let ops = [BinOp::Eq, BinOp::Ne, BinOp::Lt, BinOp::Le, BinOp::Gt, BinOp::Ge, BinOp::In, BinOp::NotIn];
        let (var, name) = (|| Box::new(Expr::Var(0)), || Box::new(Expr::Local(0)));
        for op in ops {
            for held in &values {
                for other in &values {
                    let w = &mut game.world;
                    w.vars[0] = held.clone();
                    let constant = || Box::new(Expr::Const(other.clone()));
                    for (e, left, right) in [
                        (Expr::Bin(op, var(), name()), held, other),
                        (Expr::Bin(op, name(), var()), other, held),
                        (Expr::Bin(op, var(), constant()), held, other),
                        (Expr::Bin(op, constant(), var()), other, held),
                    ] {
                        let want = apply(&program, w, op, left.clone(), right.clone()).map_err(|f| f.kind);
                        let asked = |w: &mut World, as_test: bool| {
                            let mut env = vec![other.clone()];
                            w.memo.begin();
                            let answer = match as_test {
                                true => test(&program, w, &e, &mut env).map(Value::Bool),
                                false => eval(&program, w, &e, &mut env),
                            };
                            (answer.map_err(|f| f.kind), w.memo.end())
                        };
                        let ((got, read), (tested, test_read)) = (asked(w, false), asked(w, true));
                        assert_eq!(got, want, "{e:?} of {held:?}, {other:?}");
                        assert_eq!(tested, want.map(|v| Value::Bool(v.truthy())), "test {e:?}");
                        assert_eq!(
                            (test_read, read.iter().any(|b| *b != 0)),
                            (read, true),
                            "what {e:?} reads"
                        );
                    }
                }
            }
        }
    }

    /// `players` is one list for the whole game, shared by every asking rather than made at each
    /// (a loop over the seats asked it every round), and reads the seats as it did.
    #[test]
    fn the_seats_are_one_list_for_the_game_shared_by_every_asking() {
        use crate::ir::Expr;
        let mut game = Game::new(tiny(), 3, 0, 1_000, false);
        let w = &mut game.world;
        w.memo.begin();
        let (first, second) = (
            super::eval(&tiny(), w, &Expr::Players, &mut []),
            super::eval(&tiny(), w, &Expr::Players, &mut []),
        );
        assert!(w.memo.end().iter().any(|b| *b != 0), "the seats are read");
        match (first, second) {
            (Ok(Value::List(a)), Ok(Value::List(b))) => {
                assert_eq!(*a, vec![Value::Player(0), Value::Player(1), Value::Player(2)]);
                assert!(Arc::ptr_eq(&a, &b));
            }
            other => panic!("{other:?}"),
        }
    }

    /// A frame's slots come from the room of a frame that ended, each none, however many that
    /// one had and held.
    #[test]
    fn a_frames_slots_from_the_room_are_each_none() {
        let mut room = super::Room::default();
        room.keep_slots(vec![Value::Int(1), Value::Player(0)]);
        assert_eq!(room.slots(3), vec![Value::None; 3]);
        room.keep_slots(vec![Value::Int(1); 5]);
        assert_eq!(room.slots(1), vec![Value::None]);
        assert_eq!(room.slots(2), vec![Value::None; 2], "none left: a new list");
    }

    /// The tiny program with four more values: `evens(n) = [each x in 1..n where x % 2 == 0]`
    /// (it reads nothing of a game), `seats() = count(players)`, `pile(c) = count(pieces(c))`
    /// (computed where it is asked: in_place.rs) and `taken() = pile(cell 1) > 0`.
    fn with_values() -> Arc<Loaded> {
        let mut ir: serde_json::Value = crate::vm::tiny_program();
        let evens = serde_json::json!({"slots": 2, "at": 0, "body": {"Filter": {
            "seq": {"Bin": ["Range", {"Const": {"Int": 1}}, {"Local": 0}]}, "slot": 1,
            "cond": {"Bin": ["Eq", {"Bin": ["Mod", {"Local": 1}, {"Const": {"Int": 2}}]}, {"Const": {"Int": 0}}]}}}});
        let seats =
            serde_json::json!({"slots": 0, "at": 0, "body": {"Builtin": ["Count", [{"Players": null}]]}});
        let pile = serde_json::json!({"slots": 1, "at": 0,
            "body": {"Builtin": ["Count", [{"Builtin": ["Pieces", [{"Local": 0}]]}]]}});
        let taken = serde_json::json!({"slots": 0, "at": 0,
            "body": {"Bin": ["Gt", {"Value": [3, [{"Const": {"Cell": 1}}]]}, {"Const": {"Int": 0}}]}});
        for value in [evens, seats, pile, taken] {
            ir["values"].as_array_mut().expect("values").push(value);
        }
        Arc::new(Loaded::new(serde_json::from_value(ir).expect("the program loads")))
    }

    /// A call of the value at `index` with these arguments, in `game`: its answer and the steps
    /// it spent.
    fn ask(game: &mut Game, index: u32, args: Vec<crate::ir::Expr>) -> (Result<Value, FailKind>, u64) {
        let program = game.program.clone();
        let before = game.world.steps;
        let answer = super::eval(&program, &mut game.world, &crate::ir::Expr::Value(index, args), &mut []);
        (answer.map_err(|f| f.kind), game.world.steps - before)
    }

    #[test]
    fn an_answer_that_reads_nothing_of_a_game_is_found_once_for_every_game() {
        use crate::ir::Expr;
        let program = with_values();
        let n = || vec![Expr::Const(Value::Int(6))];
        let evens = Value::List(Arc::new(vec![Value::Int(2), Value::Int(4), Value::Int(6)]));
        let mut first = Game::new(program.clone(), 2, 0, 1_000, false);
        let (answer, spent) = ask(&mut first, 1, n());
        assert_eq!(answer, Ok(evens.clone()));
        assert!(spent > 0, "going through 1..6 spends steps");
        // Another game, with a memo of its own, finds it known: it spends the same steps, so that
        // its budget sees the same game, and no value is computed (none is entered).
        let key = (1, super::Args::One(Value::Int(6)));
        assert_eq!(program.known.get(&key), Some((evens.clone(), spent)));
        let mut second = Game::new(program.clone(), 3, 1, 1_000, false);
        second.world.calls = program.ir.limits.max_recursion as u32; // a value computed could not enter
        assert_eq!(ask(&mut second, 1, n()), (Ok(evens), spent));
    }

    #[test]
    fn an_answer_that_read_the_seats_or_the_pieces_is_not_known_to_other_games() {
        use crate::ir::Expr;
        let program = with_values();
        let mut two = Game::new(program.clone(), 2, 0, 1_000, false);
        let mut three = Game::new(program.clone(), 3, 0, 1_000, false);
        assert_eq!(ask(&mut two, 2, vec![]).0, Ok(Value::Int(2)));
        assert_eq!(ask(&mut three, 2, vec![]).0, Ok(Value::Int(3)));
        let cell = || vec![Expr::Const(Value::Cell(1))];
        two.apply(0).expect("seat 1 puts a stone on the first cell");
        assert_eq!(ask(&mut two, 3, cell()).0, Ok(Value::Int(1)));
        assert_eq!(ask(&mut three, 3, cell()).0, Ok(Value::Int(0)));
        assert!(program.known.answers.lock().expect("the lock").is_empty());
    }

    /// A value of a few operations is computed where it is asked (in_place.rs): the memo keeps
    /// nothing of it, a value that asks it reads what it read (its kept answer goes when the
    /// pieces it counted move), and it is under way as a value computed is, within the limits.
    #[test]
    fn a_value_of_a_few_operations_is_computed_where_it_is_asked_and_read_by_its_caller() {
        use crate::ir::Expr;
        let program = with_values();
        assert!(program.in_place[3] && !program.in_place[4]);
        let mut game = Game::new(program.clone(), 2, 0, 1_000, false);
        let kept = game.world.memo.len();
        assert_eq!(ask(&mut game, 4, vec![]).0, Ok(Value::Bool(false)));
        assert_eq!(game.world.memo.len(), kept + 1, "taken() is kept, pile(c) is not");
        game.apply(0).expect("seat 1 puts a stone on the first cell");
        assert_eq!(ask(&mut game, 4, vec![]).0, Ok(Value::Bool(true)));
        game.world.calls = program.ir.limits.max_recursion as u32;
        let asked = ask(&mut game, 3, vec![Expr::Const(Value::Cell(1))]).0;
        assert!(matches!(asked, Err(FailKind::Recursion(_))), "{asked:?}");
    }

    #[test]
    fn a_known_answer_the_budget_cannot_pay_is_computed_again_and_fails_as_it_would() {
        use crate::ir::Expr;
        let program = with_values();
        let n = || vec![Expr::Const(Value::Int(6))];
        let mut first = Game::new(program.clone(), 2, 0, 1_000, false);
        let (_, spent) = ask(&mut first, 1, n());
        let mut poor = Game::new(program.clone(), 2, 0, 1_000, false);
        poor.world.budget = poor.world.steps + spent - 1;
        assert_eq!(ask(&mut poor, 1, n()).0, Err(FailKind::BudgetList(6)));
    }

    #[test]
    fn only_values_that_mean_the_same_in_every_game_are_arguments_of_known_answers() {
        let program = tiny();
        let locations = program.ir.locations.len() as u32;
        assert!(super::of_the_program(&program, &Value::Cell(locations - 1)));
        // A cell of a grid that grows is another cell in another game.
        assert!(!super::of_the_program(&program, &Value::Cell(locations)));
        let listed = Value::List(Arc::new(vec![Value::Int(1), Value::Cell(locations)]));
        assert!(!super::of_the_program(&program, &listed));
    }

    #[test]
    fn a_value_has_its_arguments_in_its_first_names_however_many_it_has() {
        // A value of a few names has them on the stack (FEW_SLOTS), one of more in a list: both
        // see their arguments in order, and every other name empty.
        use crate::ir::Expr;
        let mut ir: serde_json::Value = crate::vm::tiny_program();
        for size in [1, 2, 3, super::FEW_SLOTS, super::FEW_SLOTS + 1, 2 * super::FEW_SLOTS] {
            // `first - second * 10 + third * 100 ...` of its arguments, and its last name empty.
            let mut body = serde_json::json!({"Const": {"Int": 0}});
            for slot in 0..size - 1 {
                let weighed = serde_json::json!({"Bin": ["Mul", {"Local": slot}, {"Const": {"Int": 10_i64.pow(slot as u32)}}]});
                body = serde_json::json!({"Bin": ["Add", body, weighed]});
            }
            let last = serde_json::json!({"Bin": ["Eq", {"Local": size - 1}, {"Const": "None"}]});
            let body = serde_json::json!({"List": [body, last]});
            ir["values"]
                .as_array_mut()
                .expect("values")
                .push(serde_json::json!({"slots": size, "at": 0, "body": body}));
        }
        let program = Arc::new(Loaded::new(serde_json::from_value(ir).expect("the program loads")));
        let mut game = Game::new(program.clone(), 2, 0, 1_000, false);
        for (index, size) in
            [1, 2, 3, super::FEW_SLOTS, super::FEW_SLOTS + 1, 2 * super::FEW_SLOTS].into_iter().enumerate()
        {
            let args: Vec<Expr> = (0..size - 1).map(|i| Expr::Const(Value::Int(i as i64 + 1))).collect();
            let want: i64 = (0..size - 1).map(|i| (i as i64 + 1) * 10_i64.pow(i as u32)).sum();
            let answer = ask(&mut game, index as u32 + 1, args).0;
            let expected = Value::List(Arc::new(vec![Value::Int(want), Value::Bool(true)]));
            assert_eq!(answer, Ok(expected), "a value of {size} names");
        }
    }

    #[test]
    fn a_move_changes_only_the_places_whose_pieces_it_changed() {
        // The answers that read a place a move looked in and left as it was still hold: only
        // where a piece left or arrived is a change (the destination last).
        use crate::ir::Expr;
        let program = tiny();
        let mut game = Game::new(program.clone(), 2, 0, 1_000, false);
        let w = &mut game.world;
        let one = Expr::Const(Value::Int(1));
        let (supply, first, second) = (Value::Zone(0), Value::Cell(1), Value::Cell(2));
        let move_one = |w: &mut super::World, src: Value, dest: Value| {
            let (src, dest) = (Expr::Const(src), Expr::Const(dest));
            super::move_count(&program, w, &mut [], Some(&one), 0, None, None, &src, (&dest, false))
                .map(|(touched, moved)| (touched, moved.len()))
                .expect("the move runs")
        };
        assert_eq!(move_one(w, second.clone(), supply.clone()), (vec![], 0), "an empty cell: nothing");
        assert_eq!(move_one(w, supply.clone(), first.clone()), (vec![0, 1], 1));
        let both = Value::List(Arc::new(vec![second, first]));
        assert_eq!(move_one(w, both, supply.clone()), (vec![1, 0], 1), "the empty cell is no change");
        let none = Expr::Const(Value::List(Arc::new(vec![])));
        let moved = super::move_refs(&program, w, &mut [], &none, (&Expr::Const(supply), false));
        assert_eq!(moved.map(|(touched, _)| touched), Ok(vec![]), "no piece named: nothing");
    }

    /// `count_each` counts each item as `gather` counts it alone (a cell, a zone, a list of
    /// places, by kind and owner or not), reads the same parts, and fails where it fails.
    #[test]
    fn a_list_counted_item_by_item_counts_and_reads_as_each_item_gathered_alone() {
        let mut game = Game::new(tiny(), 2, 3, 1_000, false);
        game.play_out(&mut [Agent::First, Agent::Random(Mt::new(3))]).expect("the game plays");
        let program = game.program.clone();
        let places = Value::List(Arc::new(vec![Value::Cell(1), Value::Zone(0)]));
        let items = [Value::Cell(1), Value::Cell(2), Value::Cell(3), Value::Zone(0), places];
        let stone = Value::KindName(0);
        for (kind, owner) in [(None, None), (Some(&stone), Some(Some(1))), (Some(&stone), Some(None))] {
            let mut w = game.world.clone();
            w.memo.begin();
            let mut each = Vec::new();
            super::count_each(&program, &mut w, &items, kind, owner, |i, n| each.push((i, n)))
                .expect("counted");
            let read = w.memo.end();
            let mut alone = game.world.clone();
            alone.memo.begin();
            let gathered: Vec<(usize, i64)> = (items.iter().enumerate())
                .map(|(i, x)| {
                    (i, super::gather(&program, &mut alone, x, kind, owner, |_, _| {}).expect("counted"))
                })
                .collect();
            assert_eq!((each, read), (gathered, alone.memo.end()));
        }
        let fails =
            |x: Value| super::count_each(&program, &mut game.world.clone(), &[x], None, None, |_, _| {});
        let alone = super::gather(&program, &mut game.world.clone(), &Value::Int(1), None, None, |_, _| {});
        assert_eq!(fails(Value::Int(1)), alone.map(|_| ()));
    }

    /// `move N KIND of OWNER from A to B` takes the first pieces that fit, in the pile's order;
    /// the pieces that stay keep theirs (a supply of the second seat's pieces after the first's,
    /// and of both mixed).
    #[test]
    fn a_move_takes_the_first_pieces_that_fit_and_the_others_keep_their_order() {
        let program = tiny();
        let game = Game::new(program.clone(), 2, 0, 1_000, false);
        use crate::ir::Expr;
        use crate::value::Piece;
        let piece = |owner| Piece { kind: 0, owner };
        let (a, b, none) = (piece(Some(0)), piece(Some(1)), piece(None));
        let expr = |e: serde_json::Value| -> Expr { serde_json::from_value(e).expect("an expression") };
        let (supply, cell) = (
            expr(serde_json::json!({"Const": {"Zone": 0}})),
            expr(serde_json::json!({"Const": {"Cell": 1}})),
        );
        for (pile, n, owner, taken, left) in [
            (vec![a, a, b, b], 1, 1, vec![b], vec![a, a, b]),
            (vec![a, b, a, b, none], 2, 1, vec![b, b], vec![a, a, none]),
            (vec![b, none, a, b, a], 5, 0, vec![a, a], vec![b, none, b]),
            (vec![b, b], 1, 0, vec![], vec![b, b]),
        ] {
            let mut w = game.world.clone();
            w.locs[0] = pile;
            w.locs[1].clear();
            let (count, owner) =
                (expr(serde_json::json!({"Const": {"Int": n}})), Expr::Const(Value::Player(owner)));
            let (_, moved) = super::move_count(
                &program,
                &mut w,
                &mut [],
                Some(&count),
                0,
                None,
                Some(&owner),
                &supply,
                (&cell, false),
            )
            .expect("a move");
            assert_eq!((&moved, &w.locs[0], &w.locs[1]), (&taken, &left, &taken));
        }
    }

    /// A move's operands are read where they lie, its destination before its source as written;
    /// of a source and a destination that are no places, the source's error is the one said, and
    /// a destination that is none is said only once the source is found (its pieces taken).
    #[test]
    fn a_move_to_no_place_fails_after_its_source_is_found() {
        use crate::ir::Expr;
        let program = tiny();
        let game = Game::new(program.clone(), 2, 0, 1_000, false);
        let (supply, yes, four) =
            (Expr::Const(Value::Zone(0)), Expr::Const(Value::Bool(true)), Expr::Const(Value::Int(4)));
        let said = |src: &Expr, dest: &Expr| {
            let mut w = game.world.clone();
            let fail = super::move_count(&program, &mut w, &mut [], None, 0, None, None, src, (dest, false))
                .expect_err("no place");
            match fail.kind {
                FailKind::Error(said) => said,
                other => panic!("{other:?}"),
            }
        };
        assert!(said(&yes, &four).starts_with("a yes/no is not a place"), "{}", said(&yes, &four));
        assert!(said(&supply, &four).starts_with("a number is not a place"), "{}", said(&supply, &four));
    }

    /// A loop's index or counter read and set where it lies is the number `int` reads and a
    /// slot set to that number holds, whatever the slot held before.
    #[test]
    fn a_number_read_and_set_in_its_slot_is_the_number_int_reads_and_sets() {
        for v in [Value::Int(7), Value::Bool(true), Value::None, Value::Player(1)] {
            assert_eq!(super::int_at(&v).ok(), super::int(v.clone()).ok());
        }
        for mut slot in [Value::Int(3), Value::None, Value::List(Arc::new(vec![Value::Int(1)]))] {
            super::set_int(&mut slot, 4);
            assert_eq!(slot, Value::Int(4));
        }
    }

    /// A declaration's only kind is known where it has one, and none where it has several (a
    /// kind per row) or none.
    #[test]
    fn a_declaration_of_one_kind_of_piece_is_known_by_that_kind() {
        let mut ir: Program = crate::vm::tiny_program();
        let kind = |decl, row| crate::ir::KindIr { decl, row };
        ir.kinds = vec![kind(0, None), kind(2, Some(0)), kind(2, Some(1)), kind(3, None)];
        assert_eq!(super::sole_kinds(&ir), [Some(0), None, None, Some(3)]);
    }

    #[test]
    fn a_variable_set_to_the_value_it_has_is_no_change() {
        // `total()` reads the variable `total` and the second player's `funds`: its answer holds
        // while either is set to what it already was, and no longer once one is set to another
        // value.
        let mut ir: serde_json::Value = crate::vm::tiny_program();
        let funds = serde_json::json!({"Owned": [{"Const": {"Player": 1}}, {"name": "funds", "player": 0, "rows": []}]});
        let total = serde_json::json!({"slots": 0, "at": 0, "body": {"List": [{"Var": 0}, funds]}});
        ir["values"].as_array_mut().expect("values").push(total);
        ir["owned"] =
            serde_json::json!([{"init": {"Const": {"Int": 5}}, "clamp": null, "slots": 0, "rows": null}]);
        let program = Arc::new(Loaded::new(serde_json::from_value(ir).expect("the program loads")));
        let mut game = Game::new(program, 2, 0, 1_000, false);
        let key = crate::memo::Asked::new((1, super::Args::Many(vec![])));
        let answer = Value::List(Arc::new(vec![Value::Int(0), Value::Int(5)]));
        assert_eq!(ask(&mut game, 1, vec![]).0, Ok(answer.clone()));
        let w = &mut game.world;
        w.set_var(0, Value::Int(0));
        w.set_owned(0, 1, Value::Int(5));
        assert_eq!(w.memo.get(&key), Some(answer.clone()), "set to what it was: no change");
        w.set_owned(0, 0, Value::Int(6));
        assert_eq!(w.memo.get(&key), Some(answer.clone()), "another player's: it still holds");
        w.set_owned(0, 1, Value::Int(6));
        assert_eq!(w.memo.get(&key), None, "set to another value: a change");
        assert_eq!(
            ask(&mut game, 1, vec![]).0,
            Ok(Value::List(Arc::new(vec![Value::Int(0), Value::Int(6)])))
        );
        game.world.set_var(0, Value::Int(2));
        assert_eq!(game.world.memo.get(&key), None, "the variable set to another value: a change");
        assert_eq!(game.world.vars[0], Value::Int(2));
    }

    #[test]
    fn a_value_kept_no_more_answers_afresh_and_its_reads_are_its_callers() {
        // `next()` (variable 0 plus one) is found stale at each asking until the memo keeps it no
        // more (`Memo::unkept`); `after()` (`next()` plus one), kept, still holds until the
        // variable `next()` reads changes, and no longer.
        let mut ir: serde_json::Value = crate::vm::tiny_program();
        let one = serde_json::json!({"Builtin": ["Count", [{"List": [{"Var": 0}]}]]});
        let next = serde_json::json!({"slots": 0, "at": 0, "body": {"Bin": ["Add", {"Var": 0}, one]}});
        let after = serde_json::json!({"slots": 0, "at": 0, "body": {"Bin": ["Add", {"Value": [1, []]}, {"Const": {"Int": 1}}]}});
        ir["values"].as_array_mut().expect("values").extend([next, after]);
        let program = Arc::new(Loaded::new(serde_json::from_value(ir).expect("the program loads")));
        let mut game = Game::new(program, 2, 0, 1_000, false);
        for n in 0..4 {
            game.world.set_var(0, Value::Int(n));
            assert_eq!(ask(&mut game, 1, vec![]).0, Ok(Value::Int(n + 1)));
        }
        assert!(game.world.memo.unkept(1), "found stale at each asking");
        let after = crate::memo::Asked::new((2, super::Args::Many(vec![])));
        assert_eq!(ask(&mut game, 2, vec![]).0, Ok(Value::Int(5)));
        assert_eq!(game.world.memo.get(&after), Some(Value::Int(5)), "kept, it holds");
        game.world.set_var(0, Value::Int(7));
        assert_eq!(game.world.memo.get(&after), None, "what `next()` read changed");
        assert_eq!(ask(&mut game, 2, vec![]).0, Ok(Value::Int(9)));
    }

    #[test]
    fn a_boards_cells_are_its_own_list_shared_and_a_grid_that_grows_has_those_laid() {
        use crate::ir::{Builtin, Expr};
        let cells = Expr::Builtin(Builtin::Cells, vec![Expr::Const(Value::Grid(0))]);
        let mut game = Game::new(tiny(), 2, 0, 1_000, false);
        let program = game.program.clone();
        let asked = super::eval(&program, &mut game.world, &cells, &mut []).expect("cells(board)");
        let (Value::List(asked), Value::List(board)) = (&asked, &program.grids[0].cells) else {
            panic!("lists")
        };
        assert!(Arc::ptr_eq(asked, board) && asked.len() == 3);
        let mut ir: serde_json::Value = crate::vm::tiny_program();
        ir["grids"][0]["grows"] = serde_json::json!(true);
        let grows = Arc::new(Loaded::new(serde_json::from_value(ir).expect("the program loads")));
        let mut game = Game::new(grows, 2, 0, 1_000, false);
        let program = game.program.clone();
        let laid = super::eval(&program, &mut game.world, &cells, &mut []).expect("cells(grid)");
        assert_eq!(laid, Value::List(Arc::new(vec![])), "no cell laid yet");
    }

    #[test]
    fn a_seat_taken_by_its_place_among_the_players_is_the_lists_item_and_reads_the_seats() {
        use crate::ir::Expr;
        for players in [2, 3] {
            let mut game = Game::new(tiny(), players, 0, 1_000, false);
            let seats = Value::List(Arc::new((0..players).map(Value::Player).collect()));
            for i in -1..=4 {
                let at = || Box::new(Expr::Const(Value::Int(i)));
                let w = &mut game.world;
                w.memo.begin();
                let taken = super::eval(&tiny(), w, &Expr::Index(Box::new(Expr::Players), at()), &mut []);
                let read = w.memo.end();
                let listed = super::eval(
                    &tiny(),
                    w,
                    &Expr::Index(Box::new(Expr::Const(seats.clone())), at()),
                    &mut [],
                );
                assert_eq!(taken, listed, "players[{i}] of {players}");
                w.memo.begin();
                if i >= 0 {
                    w.memo.read(super::Part::Seats);
                }
                assert_eq!(read, w.memo.end(), "players[{i}] of {players}");
            }
        }
    }

    #[test]
    fn a_piece_taken_by_its_place_among_a_places_pieces_is_the_lists_item_and_reads_the_same() {
        // `pieces(supply, stone, p)[i]` without a list: the item `[...][i]` of the list made
        // first would be, or the same error, having read the same parts.
        use crate::ir::{Builtin, Expr};
        use crate::value::Piece;
        let program = tiny();
        let mut game = Game::new(program.clone(), 2, 0, 1_000, false);
        let piece = |owner| Piece { kind: 0, owner };
        game.world.locs[0] = vec![piece(Some(0)), piece(Some(1)), piece(None), piece(Some(1))];
        let args = |owner: Option<u32>| {
            let mut args = vec![Expr::Const(Value::Zone(0)), Expr::Const(Value::KindName(0))];
            args.extend(owner.map(|seat| Expr::Const(Value::Player(seat))));
            args
        };
        for owner in [None, Some(0), Some(1)] {
            for i in -1..=4 {
                let at = || Box::new(Expr::Const(Value::Int(i)));
                let w = &mut game.world;
                w.memo.begin();
                let taken = super::eval(
                    &program,
                    w,
                    &Expr::Index(Box::new(Expr::Builtin(Builtin::Pieces, args(owner))), at()),
                    &mut [],
                );
                let read = w.memo.end();
                w.memo.begin();
                let pieces = super::eval(&program, w, &Expr::Builtin(Builtin::Pieces, args(owner)), &mut []);
                let listed = super::eval(
                    &program,
                    w,
                    &Expr::Index(Box::new(Expr::Const(pieces.expect("listed"))), at()),
                    &mut [],
                );
                assert_eq!(taken, listed, "pieces(supply, stone, {owner:?})[{i}]");
                // A negative position fails before the pieces are looked at, as before.
                let listing = w.memo.end();
                assert_eq!(read, if i < 0 { Default::default() } else { listing }, "{owner:?}[{i}]");
            }
        }
    }

    #[test]
    fn a_question_about_one_kind_of_piece_at_a_place_holds_while_others_move_there() {
        // The tiny program with a second kind, `pebble` (two in the supply), and the values
        // `stones(c) = count(pieces(c, stone))` and `all(c) = count(pieces(c))`: a pebble put on
        // a cell leaves the count of its stones standing, not the count of all its pieces; a
        // stone put there, both.
        use crate::ir::Expr;
        let mut ir: serde_json::Value = crate::vm::tiny_program();
        ir["kinds"].as_array_mut().expect("kinds").push(serde_json::json!({"decl": 1, "row": null}));
        let pebble = serde_json::json!({"name": "pebble", "kind": 1, "count": {"Const": {"Int": 2}},
            "per_player": false, "zone": {"Const": {"Zone": 0}}, "own_zone": null, "at": 1});
        ir["pieces"].as_array_mut().expect("pieces").push(pebble);
        let counted = |kind: serde_json::Value| {
            let mut args = vec![serde_json::json!({"Local": 0})];
            args.extend(kind.as_object().map(|_| kind.clone()));
            serde_json::json!({"slots": 1, "at": 0, "body": {"Builtin": ["Count", [{"Builtin": ["Pieces", args]}]]}})
        };
        let values = ir["values"].as_array_mut().expect("values");
        values.push(counted(serde_json::json!({"Const": {"KindName": 0}})));
        values.push(counted(serde_json::Value::Null));
        let program = Arc::new(Loaded::new(serde_json::from_value(ir).expect("the program loads")));
        let mut game = Game::new(program.clone(), 2, 0, 1_000, false);
        let cell = || vec![Expr::Const(Value::Cell(1))];
        let stones = crate::memo::Asked::new((1, super::Args::One(Value::Cell(1))));
        let all = crate::memo::Asked::new((2, super::Args::One(Value::Cell(1))));
        assert_eq!(
            (ask(&mut game, 1, cell()).0, ask(&mut game, 2, cell()).0),
            (Ok(Value::Int(0)), Ok(Value::Int(0)))
        );
        let put = |game: &mut Game, decl: u32| {
            let (one, src, dest) =
                (Expr::Const(Value::Int(1)), Expr::Const(Value::Zone(0)), Expr::Const(Value::Cell(1)));
            let w = &mut game.world;
            let (touched, moved) =
                super::move_count(&program, w, &mut [], Some(&one), decl, None, None, &src, (&dest, false))
                    .expect("the move runs");
            w.moved(&program, &touched, &moved);
        };
        put(&mut game, 1);
        assert_eq!(
            game.world.memo.get(&stones),
            Some(Value::Int(0)),
            "a pebble came: the stones are as they were"
        );
        assert_eq!(game.world.memo.get(&all), None, "a pebble came: a piece more");
        assert_eq!(ask(&mut game, 2, cell()).0, Ok(Value::Int(1)));
        put(&mut game, 0);
        assert_eq!((game.world.memo.get(&stones), game.world.memo.get(&all)), (None, None));
        assert_eq!(
            (ask(&mut game, 1, cell()).0, ask(&mut game, 2, cell()).0),
            (Ok(Value::Int(1)), Ok(Value::Int(2)))
        );
    }

    #[test]
    fn a_game_at_rest_keeps_no_more_room_for_each_place_than_its_pieces_fill() {
        // Piles that grew as pieces came (room for more than they hold): at rest, each keeps
        // the room of its pieces, the pieces themselves as they were.
        let mut game = Game::new(tiny(), 2, 0, 1_000, false);
        game.world.locs.iter_mut().for_each(|pieces| pieces.reserve(64));
        let before = game.world.locs.clone();
        game.rest();
        assert_eq!(game.world.locs, before, "the same pieces, in the same order");
        for (loc, pieces) in game.world.locs.iter().enumerate() {
            assert_eq!(pieces.capacity(), pieces.len(), "room for the pieces of location {loc}");
        }
    }

    #[test]
    fn the_step_budget_stops_a_game_with_an_error() {
        let game = Game::new(tiny(), 2, 0, 2, false);
        let failed = game.failed.expect("the budget ran out");
        assert_eq!(failed.kind, FailKind::BudgetList(3));
        assert!(failed.at.is_some() && !game.over);
    }
}
