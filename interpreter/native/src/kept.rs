//! Filters kept up to date as pieces move. A declared value whose body is a filter over a list
//! (`value empty() = [each c in cells(board) where count(pieces(c)) == 0]`) reads the pieces of
//! every item's place, so any move made its answer stale, and it was computed again over the
//! whole list at the next asking: on a board of 121 cells, 121 tests a move for one that
//! changed. Here each item's test is kept with the few locations whose pieces it read (and each
//! one's count of changes then); asked again, only the items whose locations changed since are
//! tested again, the others keep their truth. The answer is the same list, in the same order,
//! as the filter computed afresh would give.
//!
//! An item's test is kept only while nothing else it read changed (the buckets of the memo,
//! memo.rs: a variable, the turn, ...: any change there and the whole list is tested again), and
//! only if it read the pieces of at most `FEW` locations, each one of the program's (not a cell of
//! a grid that grows), and spent no steps (so that the budget sees the same game: the filter
//! spends its list's length at each asking, as computed afresh). A location's pieces are known
//! unchanged by its bucket's time: a part sharing the bucket may make an item be tested again
//! when it still held, never kept when it did not. A value whose items read no pieces, or more
//! than that, is computed as before, and not tried again in that game. Not part of the position,
//! as the memo is not: a copy starts without it. A game at rest (handed back to Python) keeps
//! them, every item still true of the position, since each decision from Python would make them
//! again, at a cost, and use them once.

use crate::compiled::Test;
use crate::ir::Expr;
use crate::memo::Reads;
use crate::value::Value;
use crate::vm::{self, Fail, FailKind, Key, Loaded, World};
use std::collections::HashMap;
use std::sync::Arc;

/// The most locations one item's test may read and still be kept item by item.
const FEW: usize = 4;

/// The most filters a game keeps at once: past it, they are all forgotten and kept anew.
const MOST: usize = 256;

/// The fewest items a filter's list has for the filter to be kept item by item: a shorter one
/// is tested whole at each asking, which costs less than the keeping (measured with callgrind
/// on the core alone, examples/playouts.rs: Tic-Tac-Toe's filters of 9 cells, kept, made its
/// games 5% longer; Connect Four's of 42 took 3.5 times as long without). The tests keep the
/// filters of their board of 3 cells.
#[cfg(not(test))]
pub(crate) const FEW_ITEMS: usize = 16;
#[cfg(test)]
pub(crate) const FEW_ITEMS: usize = 3;

/// The locations whose pieces one item's test read, while it is tested: `lost` once it read
/// more than `FEW`, or pieces it cannot say the locations of (an answer that read many, a
/// supposition).
#[derive(Clone, Copy, Default, Debug)]
pub(crate) struct Reading {
    at: [u32; FEW],
    len: u8,
    lost: bool,
    /// The buckets of the other parts the test read (memo.rs).
    others: Reads,
}

impl Reading {
    /// The pieces of a location were read.
    pub(crate) fn add(&mut self, loc: u32) {
        if self.lost || self.at[..self.len as usize].contains(&loc) {
            return;
        }
        if self.len as usize == FEW {
            self.lost = true;
            return;
        }
        self.at[self.len as usize] = loc;
        self.len += 1;
    }

    /// Pieces were read whose locations cannot be said.
    pub(crate) fn lose(&mut self) {
        self.lost = true;
    }

    /// A part other than a location's pieces was read, of this bucket.
    pub(crate) fn other(&mut self, bucket: usize) {
        self.others[bucket / 64] |= 1 << (bucket % 64);
    }

    /// An answer kept by the memo was read, which read these buckets.
    pub(crate) fn others(&mut self, reads: &Reads) {
        self.others.iter_mut().zip(reads).for_each(|(mine, theirs)| *mine |= theirs);
    }
}

/// One item's test as kept: its truth, the locations it read, and the memo's time when it was
/// tested (`stale`: tested before a game at rest forgot the times, and not true since).
#[derive(Clone, Copy, Debug)]
struct Item {
    truth: bool,
    at: [u32; FEW],
    len: u8,
    tested: u32,
    stale: bool,
}

impl Item {
    /// Whether it read the same locations as `other`.
    fn reads_as(&self, other: &Item) -> bool {
        self.len == other.len && self.at == other.at
    }

    /// Whether none of the locations it read changed since it was tested.
    fn holds(&self, memo: &crate::memo::Memo) -> bool {
        !self.stale && self.at[..self.len as usize].iter().all(|loc| memo.unmoved_since(*loc, self.tested))
    }
}

/// A filter's answer kept item by item.
#[derive(Clone, Debug)]
struct Kept {
    /// The list it went through: asked of another list, it is computed afresh.
    items: Arc<Vec<Value>>,
    each: Vec<Item>,
    /// Each item's truth, a bit each: where an item stands in the answer is how many items
    /// before it hold.
    truths: Vec<u64>,
    /// The buckets the items' tests read besides pieces, unchanged since the time `found`.
    others: Reads,
    found: u32,
    /// Every bucket the tests read (pieces included): what the value that asks reads through them.
    read: Reads,
    /// The bucket of each location each item read, (bucket, item) in the buckets' order, then
    /// the items': asked again, the items to test again are those of the buckets changed since
    /// `found`, each bucket's found by a search (a board of 121 cells, one of them changed).
    by_bucket: Vec<(u16, u32)>,
    /// Whether an item is `stale` (a game at rest): every item is then gone through.
    some_stale: bool,
    /// The items that hold, in order: where an item's truth changes, it is put in or taken out
    /// where it stands (in place, where no one else holds the list), not the list made again.
    answer: Arc<Vec<Value>>,
}

/// The filters a game keeps, by declared value and arguments, and the values not worth keeping.
#[derive(Default, Debug)]
pub(crate) struct Filters {
    /// Each in a box of its own, taken out of its entry while it is asked and put back in the
    /// same entry: a box moves as one word where a `Kept` is some 200 bytes, and the entry is
    /// neither removed nor made again (a key cloned, hashed and dropped) at each asking (memcpy
    /// and the table were 8% of the instructions of a game on 121 cells, docs/benchmarks.md, a
    /// twenty-first round). An entry left empty (an asking that failed) is as no filter kept.
    kept: HashMap<Key, Option<Box<Kept>>, vm::Fast>,
    /// Those of no arguments or of one seat, by value and seat (`memo::by_seat`), without
    /// hashing their keys (Hex's `empty()`, asked three times a move: two lookups an asking).
    by_seat: Vec<Option<Box<Kept>>>,
    refused: Vec<bool>,
    /// The items to test of the filter being asked, kept between askings for its room.
    todo: Vec<usize>,
    /// The connection questions kept as their places grow (grid.rs).
    pub(crate) joins: crate::grid::Joins,
}

impl Clone for Filters {
    fn clone(&self) -> Filters {
        let Filters { kept, by_seat, refused, todo, joins } = self;
        Filters {
            kept: kept.clone(),
            by_seat: by_seat.clone(),
            refused: refused.clone(),
            todo: todo.clone(),
            joins: joins.clone(),
        }
    }

    /// Field by field, each table keeping its allocation: a stream of playouts lays each game's
    /// memo over the one before (`Memo::copy_from`), and the derived copy made every table anew
    /// and dropped the old, for every game.
    fn clone_from(&mut self, source: &Filters) {
        let Filters { kept, by_seat, refused, todo, joins } = source;
        crate::memo::copy_table(&mut self.kept, kept);
        self.by_seat.clone_from(by_seat);
        self.refused.clone_from(refused);
        self.todo.clone_from(todo);
        self.joins.clone_from(joins);
    }
}

impl Filters {
    /// Whether a declared value's filter may be kept.
    pub(crate) fn may_keep(&self, value: u32) -> bool {
        !self.refused.get(value as usize).copied().unwrap_or(false)
    }

    /// Whether any filter is kept: else no answer is one's to change in place (true too where
    /// one was kept by seat, and is no longer: the memo then does what it need not).
    pub(crate) fn any(&self) -> bool {
        !self.kept.is_empty() || !self.by_seat.is_empty()
    }

    /// The entry of the filter kept for a key, if it has one.
    fn entry(&mut self, key: &Key) -> Option<&mut Option<Box<Kept>>> {
        match crate::memo::by_seat(key) {
            Some(i) => self.by_seat.get_mut(i),
            None => self.kept.get_mut(key),
        }
    }

    /// The filter kept for a key, if one is.
    #[cfg(test)]
    fn get(&self, key: &Key) -> Option<&Kept> {
        match crate::memo::by_seat(key) {
            Some(i) => self.by_seat.get(i)?.as_deref(),
            None => self.kept.get(key)?.as_deref(),
        }
    }

    /// Keep a filter for a key, in the entry it has (else a new one).
    fn put(&mut self, key: &Key, kept: Box<Kept>) {
        if let Some(entry) = self.entry(key) {
            *entry = Some(kept);
            return;
        }
        match crate::memo::by_seat(key) {
            Some(i) => {
                self.by_seat.resize_with(self.by_seat.len().max(i + 1), || None);
                self.by_seat[i] = Some(kept);
            }
            None => {
                if self.kept.len() >= MOST {
                    self.clear();
                }
                self.kept.insert(key.clone(), Some(kept));
            }
        }
    }

    /// Every filter kept, by seat and by key.
    fn all(&mut self) -> impl Iterator<Item = &mut Option<Box<Kept>>> {
        self.by_seat.iter_mut().chain(self.kept.values_mut())
    }

    fn refuse(&mut self, value: u32) {
        let i = value as usize;
        if self.refused.len() <= i {
            self.refused.resize(i + 1, false);
        }
        self.refused[i] = true;
        self.kept.retain(|key, _| key.0 != value);
        // Its entries by seat, those the table has.
        let (seats, len) = (crate::memo::DIRECT_SEATS as usize + 1, self.by_seat.len());
        self.by_seat[(i * seats).min(len)..(i * seats + seats).min(len)].fill_with(|| None);
    }

    /// Forget every filter kept.
    fn clear(&mut self) {
        self.kept = HashMap::default();
        self.by_seat = Vec::new();
    }

    /// The memo's clock starts again (`Memo::settle`, which hands itself over before): a filter
    /// whose other reads changed is forgotten, an item whose places changed is marked to be
    /// tested again, and every time kept is the new clock's start.
    pub(crate) fn settle(&mut self, memo: &crate::memo::Memo) {
        self.kept.retain(|_, kept| kept.as_ref().is_some_and(|k| memo.holds_since(&k.others, k.found)));
        for entry in &mut self.by_seat {
            if entry.as_ref().is_some_and(|k| !memo.holds_since(&k.others, k.found)) {
                *entry = None;
            }
        }
        // A game at rest keeps no room to grow: the items to test are made again when asked,
        // and each filter's layout by bucket holds what it lists (bench/memory.py).
        self.todo = Vec::new();
        for kept in self.all().flatten() {
            kept.by_bucket.shrink_to_fit();
            kept.found = 0;
            for item in &mut kept.each {
                item.stale = !item.holds(memo);
                item.tested = 0;
                kept.some_stale |= item.stale;
            }
        }
    }
}

/// The answer of the filter `[each x in SEQ where COND]` that is the body of the declared value
/// `key`, its names in `env`: from the filter kept for it where its list is the same and what
/// its tests read besides pieces has not changed, each item whose pieces changed tested again;
/// else computed item by item, and kept.
pub(crate) fn filter(
    p: &Loaded,
    w: &mut World,
    key: &Key,
    (seq, slot, cond): (&Expr, u32, &Expr),
    env: &mut [Value],
) -> Result<Value, Fail> {
    // A fixed board's cells (Hex's `empty()`): its list shared, as `cells(BOARD)` evaluates to,
    // without the evaluator's way there (some 170 instructions an asking).
    let items = match crate::occupied::board(&p.ir, seq) {
        Some(g) => vm::list(crate::grid::cells(p, g as u32))?,
        None => vm::list(vm::eval(p, w, seq, env)?)?,
    };
    w.spend(items.len(), FailKind::BudgetList(items.len()))?;
    // `count(pieces(x, KIND, OWNER)) OP N` with KIND and OWNER the same for every item: each
    // item's pieces counted at once, as the filter's own fast path counts them (vm.rs).
    let counted = vm::pieces_counted(cond)
        .and_then(|(op, args, n)| Some((op, vm::fixed_kind_owner(args, slot, env)?, n)));
    // Else the condition as compiled when the program loaded, where it could be (compiled.rs).
    let compiled = p.tests.get(key.0 as usize).and_then(Option::as_ref);
    if items.len() < FEW_ITEMS {
        return whole(p, w, &items, (cond, &counted, compiled), slot, env);
    }
    let old = w.memo.filters.entry(key).and_then(Option::take).filter(|k| {
        (Arc::ptr_eq(&k.items, &items) || k.items == items) && w.memo.holds_since(&k.others, k.found)
    });
    let mut kept = match old {
        Some(kept) => kept,
        None => Box::new(Kept {
            items: items.clone(),
            each: Vec::with_capacity(items.len()),
            truths: Vec::new(),
            others: Reads::default(),
            found: w.memo.now(),
            read: Reads::default(),
            by_bucket: Vec::new(),
            some_stale: false,
            answer: Arc::default(),
        }),
    };
    let fresh = kept.each.is_empty();
    // Whether what the tests read besides pieces grew (or all is new): every item's buckets are
    // then laid out again. An item that read other places than before moves its own entries
    // alone, and with them the buckets of what the filter read (`relay`).
    let mut retested = fresh;
    let mut keep = true;
    let mut tested = Reads::default();
    let mut todo = std::mem::take(&mut w.memo.filters.todo);
    to_test(w, &kept, fresh, items.len(), &mut todo);
    for &i in &todo {
        let x = &items[i];
        let (item, read, others, fine) = test(p, w, (cond, &counted, compiled), slot, x, env)?;
        keep &= fine;
        tested.iter_mut().zip(read).for_each(|(all, one)| *all |= one);
        if others.iter().zip(&kept.others).any(|(new, old)| new & !old != 0) {
            kept.others.iter_mut().zip(others).for_each(|(all, one)| *all |= one);
            retested = true;
        }
        if fresh {
            kept.each.push(item);
        } else {
            // An item that read other places than before changes what the filter read.
            if !kept.each[i].reads_as(&item) {
                relay(w, &mut kept, i, &item);
            }
            if kept.each[i].truth != item.truth {
                turn(&mut kept, &items, i, item.truth);
            }
            kept.each[i] = item;
        }
    }
    // Every part the filter read is unchanged since now (those its items read before were
    // checked above: `holds_since`).
    kept.found = w.memo.now();
    if fresh {
        kept.truths = vec![0; items.len().div_ceil(64)];
        let mut chosen = Vec::with_capacity(kept.each.iter().filter(|item| item.truth).count());
        for (i, (x, item)) in items.iter().zip(&kept.each).enumerate() {
            if item.truth {
                kept.truths[i / 64] |= 1 << (i % 64);
                chosen.push(x.clone());
            }
        }
        kept.answer = Arc::new(chosen);
    }
    todo.clear();
    w.memo.filters.todo = todo;
    kept.some_stale = false;
    if retested {
        kept.read = kept.others;
        kept.by_bucket.clear();
        for (i, item) in kept.each.iter().enumerate() {
            for loc in &item.at[..item.len as usize] {
                let b = w.memo.bucket_index(*loc);
                kept.read[b / 64] |= 1 << (b % 64);
                kept.by_bucket.push((b as u16, i as u32));
            }
        }
        kept.by_bucket.sort_unstable();
    }
    // What the asking value read: what the tests read, kept or made again.
    if keep {
        w.memo.read_through(&kept.read);
    } else {
        tested.iter_mut().zip(kept.read).for_each(|(all, one)| *all |= one);
        w.memo.read_through(&tested);
    }
    let answer = Value::List(kept.answer.clone());
    let reads_pieces = kept.each.iter().any(|item| item.len > 0);
    let filters = &mut w.memo.filters;
    if !keep || (!reads_pieces && !items.is_empty()) {
        filters.refuse(key.0);
    } else if items.is_empty() {
        if let Some(entry) = filters.entry(key) {
            *entry = None;
        }
    } else {
        filters.put(key, kept);
    }
    Ok(answer)
}

/// The item `i` read other places than its kept test (now `now`): its entries in `by_bucket`
/// taken out and put in where they belong in the buckets' order, rather than every item's laid
/// out and sorted again (a board of 42 cells, the cell filled reading one place fewer at each
/// move). What the filter read changes by the buckets of those entries alone: a bucket taken out
/// stays read while another entry or the tests' other reads have it, one put in is read; not
/// found again from every entry at each such asking (1.2% of the instructions of the game of
/// 42 cells, docs/benchmarks.md, a twenty-first round).
fn relay(w: &World, kept: &mut Kept, i: usize, now: &Item) {
    let was = kept.each[i];
    let entry = |loc: &u32| (w.memo.bucket_index(*loc) as u16, i as u32);
    let by_bucket = &mut kept.by_bucket;
    for e in was.at[..was.len as usize].iter().map(entry) {
        if let Ok(at) = by_bucket.binary_search(&e) {
            by_bucket.remove(at);
        }
        let b = usize::from(e.0);
        let left = by_bucket.get(by_bucket.partition_point(|x| x.0 < e.0)).is_some_and(|x| x.0 == e.0);
        if !left && kept.others[b / 64] & (1 << (b % 64)) == 0 {
            kept.read[b / 64] &= !(1 << (b % 64));
        }
    }
    for e in now.at[..now.len as usize].iter().map(entry) {
        let at = by_bucket.partition_point(|x| *x < e);
        by_bucket.insert(at, e);
        kept.read[usize::from(e.0) / 64] |= 1 << (e.0 % 64);
    }
}

/// The item `i` of a kept filter now holds (`truth`) or no longer does: put in its answer, or
/// taken out, where it stands among the items that hold.
fn turn(kept: &mut Kept, items: &[Value], i: usize, truth: bool) {
    let (word, bit) = (i / 64, 1u64 << (i % 64));
    let before: u32 = kept.truths[..word].iter().map(|w| w.count_ones()).sum();
    let at = (before + (kept.truths[word] & (bit - 1)).count_ones()) as usize;
    let answer = Arc::make_mut(&mut kept.answer);
    if truth {
        kept.truths[word] |= bit;
        answer.insert(at, items[i].clone());
    } else {
        kept.truths[word] &= !bit;
        answer.remove(at);
    }
}

/// The filter of a short list, each item tested as the filter computed afresh tests it (the
/// same answer, reads and steps), and nothing kept.
fn whole(
    p: &Loaded,
    w: &mut World,
    items: &[Value],
    (cond, counted, compiled): Condition,
    slot: u32,
    env: &mut [Value],
) -> Result<Value, Fail> {
    let mut out = Vec::with_capacity(items.len());
    if let Some((op, (kind, owner), n)) = counted {
        vm::count_each(p, w, items, kind.as_ref(), *owner, |i, count| {
            if vm::holds(*op, count, *n) {
                out.push(items[i].clone());
            }
        })?;
        if let Some(last) = items.last() {
            env[slot as usize] = last.clone();
        }
        return Ok(Value::List(Arc::new(out)));
    }
    for x in items {
        if walked(p, w, (cond, compiled), slot, x, env)? {
            out.push(x.clone());
        }
    }
    Ok(Value::List(Arc::new(out)))
}

/// The items to test (again), in order: every item of a filter found afresh; where an item is
/// stale, those that do not hold; else those that read a location whose bucket changed since the
/// filter was last asked. These are the items that do not hold: each item held when the filter
/// was last asked (it was tested then, or held), so a bucket it read changed after its test
/// exactly when it changed after that asking.
fn to_test(w: &World, kept: &Kept, fresh: bool, len: usize, todo: &mut Vec<usize>) {
    if fresh {
        return todo.extend(0..len);
    }
    if kept.some_stale {
        return todo.extend((0..len).filter(|i| !kept.each[*i].holds(&w.memo)));
    }
    let moved = w.memo.changed_since(&kept.read, kept.found);
    for (word, bits) in moved.iter().enumerate() {
        let mut bits = *bits;
        while bits != 0 {
            let b = (word * 64) as u16 + bits.trailing_zeros() as u16;
            let from = kept.by_bucket.partition_point(|(at, _)| *at < b);
            let of_b = kept.by_bucket[from..].iter().take_while(|(at, _)| *at == b);
            todo.extend(of_b.map(|(_, i)| *i as usize));
            bits &= bits - 1;
        }
    }
    // The items of several buckets (or an item twice in one), in the items' order, once each.
    todo.sort_unstable();
    todo.dedup();
}

/// A test that counts an item's pieces of a kind and an owner against a number: the operator,
/// the kind and owner (`vm::fixed_kind_owner`), the number.
type Counted = (crate::ir::BinOp, (Option<Value>, Option<Option<u32>>), i64);

/// A filter's condition: as written, as counted (`Counted`) where it counts an item's pieces,
/// and as compiled when the program loaded (compiled.rs) where it could be.
type Condition<'a> = (&'a Expr, &'a Option<Counted>, Option<&'a Test>);

/// Whether the condition holds of the item `x`, not counted: by its compiled tree where there is
/// one and it answers, else walked by `vm::test` with `x` in its name's slot.
fn walked(
    p: &Loaded,
    w: &mut World,
    (cond, compiled): (&Expr, Option<&Test>),
    slot: u32,
    x: &Value,
    env: &mut [Value],
) -> Result<bool, Fail> {
    if let Some(truth) = compiled.map(|t| crate::compiled::holds(p, w, t, x)).transpose()?.flatten() {
        return Ok(truth);
    }
    env[slot as usize] = x.clone();
    vm::test(p, w, cond, env)
}

/// One item's test, with what it read: the item (its truth and locations), every bucket it read,
/// the buckets of what it read besides pieces, and whether it may be kept (it read few
/// locations, each of the program's, and spent no steps).
fn test(
    p: &Loaded,
    w: &mut World,
    (cond, counted, compiled): Condition,
    slot: u32,
    x: &Value,
    env: &mut [Value],
) -> Result<(Item, Reads, Reads, bool), Fail> {
    let steps = w.steps;
    w.memo.begin();
    let outer = w.memo.collecting.replace(Reading::default());
    let truth = match counted {
        Some((op, (kind, owner), n)) => {
            vm::gather(p, w, x, kind.as_ref(), *owner, |_, _| {}).map(|count| vm::holds(*op, count, *n))
        }
        None => walked(p, w, (cond, compiled), slot, x, env),
    };
    let reading = std::mem::replace(&mut w.memo.collecting, outer).unwrap_or_default();
    let read = w.memo.end();
    let truth = truth?;
    let item = Item { truth, at: reading.at, len: reading.len, tested: w.memo.now(), stale: false };
    let fine = !reading.lost && w.steps == steps;
    Ok((item, read, reading.others, fine))
}

#[cfg(test)]
mod tests {
    //! The tiny game of vm.rs's tests (a board of 3 cells, `free()` the empty ones, `total` one
    //! more at each turn), with two more filters of its cells: one whose test reads a variable
    //! (`count(pieces(c)) < total`) and one whose test reads two places (`count(pieces(c)) +
    //! count(pieces(supply)) > 3`); and the empty cells among two of them, a list shorter than
    //! `FEW_ITEMS`.
    use crate::ir::Expr;
    use crate::rng::Mt;
    use crate::value::Value;
    use crate::vm::{self, Game, Loaded};
    use std::sync::Arc;

    #[test]
    fn a_filter_of_no_arguments_or_of_one_seat_is_found_by_its_value_and_seat_and_refused_with_its_value() {
        // Kept by value and seat (the first seats) or by key (the others): each found as kept,
        // none for another seat, and every one of a value forgotten when the value is refused.
        let kept = |found| {
            Box::new(super::Kept {
                items: Arc::default(),
                each: Vec::new(),
                truths: Vec::new(),
                others: Default::default(),
                found,
                read: Default::default(),
                by_bucket: Vec::new(),
                some_stale: false,
                answer: Arc::default(),
            })
        };
        let far = crate::memo::DIRECT_SEATS + 3;
        let keys: Vec<crate::vm::Key> = [(1, None), (2, Some(0)), (2, Some(1)), (2, Some(far)), (3, Some(0))]
            .into_iter()
            .map(|(value, seat)| {
                (value, seat.map_or(vm::Args::Many(Vec::new()), |s| vm::Args::One(Value::Player(s))))
            })
            .collect();
        let mut filters = super::Filters::default();
        for (found, key) in keys.iter().enumerate() {
            filters.put(key, kept(found as u32));
        }
        let found = |filters: &super::Filters| -> Vec<Option<u32>> {
            keys.iter().map(|key| filters.get(key).map(|kept| kept.found)).collect()
        };
        assert_eq!(found(&filters), [Some(0), Some(1), Some(2), Some(3), Some(4)]);
        assert!(filters.get(&(2, vm::Args::One(Value::Player(2)))).is_none());
        filters.refuse(2);
        assert_eq!(found(&filters), [Some(0), None, None, None, Some(4)]);
        filters.clear();
        assert_eq!(found(&filters), [None; 5]);
    }

    fn program() -> Arc<Loaded> {
        let mut ir: serde_json::Value = crate::vm::tiny_program();
        let here = serde_json::json!({"Builtin": ["Count", [{"Builtin": ["Pieces", [{"Local": 0}]]}]]});
        let supply =
            serde_json::json!({"Builtin": ["Count", [{"Builtin": ["Pieces", [{"Const": {"Zone": 0}}]]}]]});
        let cells = serde_json::json!({"Builtin": ["Cells", [{"Const": {"Grid": 0}}]]});
        let below_total = serde_json::json!({"slots": 1, "at": 0, "body": {"Filter": {"seq": cells, "slot": 0,
            "cond": {"Bin": ["Lt", here, {"Var": 0}]}}}});
        let two_places = serde_json::json!({"slots": 1, "at": 0, "body": {"Filter": {"seq": cells, "slot": 0,
            "cond": {"Bin": ["Gt", {"Bin": ["Add", here, supply]}, {"Const": {"Int": 3}}]}}}});
        let two = serde_json::json!({"List": [{"Const": {"Cell": 1}}, {"Const": {"Cell": 2}}]});
        let short = serde_json::json!({"slots": 1, "at": 0, "body": {"Filter": {"seq": two, "slot": 0,
            "cond": {"Bin": ["Eq", here, {"Const": {"Int": 0}}]}}}});
        // The supply's pieces read only where the cell is empty: an item filled reads one place fewer.
        let empty_while_supplied = serde_json::json!({"slots": 1, "at": 0, "body": {"Filter": {"seq": cells,
            "slot": 0, "cond": {"Bin": ["And", {"Bin": ["Eq", here, {"Const": {"Int": 0}}]},
            {"Bin": ["Gt", supply, {"Const": {"Int": 0}}]}]}}}});
        for value in [below_total, two_places, short, empty_while_supplied] {
            ir["values"].as_array_mut().expect("values").push(value);
        }
        Arc::new(Loaded::new(serde_json::from_value(ir).expect("the program loads")))
    }

    /// The value's answer as the game asks it (its memo, its kept filters) and as its filter
    /// computed afresh on a copy gives it.
    fn asked_and_afresh(game: &mut Game, value: u32) -> (Value, Value) {
        let program = game.program.clone();
        let asked = vm::eval(&program, &mut game.world, &Expr::Value(value, vec![]), &mut [])
            .expect("the value is computed");
        let mut copy = game.clone();
        let body = &program.ir.values[value as usize].body;
        let afresh =
            vm::eval(&program, &mut copy.world, body, &mut [Value::None]).expect("the filter is computed");
        (asked, afresh)
    }

    #[test]
    fn a_kept_filter_answers_as_the_filter_computed_afresh_after_every_move_at_rest_or_not() {
        for seed in 0..20 {
            let mut game = Game::new(program(), 2, seed, 10_000, false);
            let mut rng = Mt::new(seed);
            loop {
                for value in 0..5 {
                    let (asked, afresh) = asked_and_afresh(&mut game, value);
                    assert_eq!(asked, afresh, "seed {seed}, value {value}");
                }
                // The filters whose tests read few places are kept (`free()`, the two-place one,
                // the one that reads a variable too, the one whose items read one or two places),
                // by a game at rest too; not the short one.
                assert_eq!(game.world.memo.filters.all().flatten().count(), 4);
                let Some(pending) = &game.pending else { break };
                let size = pending.size() as u64;
                game.apply(rng.randbelow(size) as usize).expect("an option");
                if seed % 2 == 1 {
                    game.rest(); // handed back to Python, as after each decision it answers: kept
                }
            }
        }
    }

    #[test]
    fn an_item_that_reads_other_places_moves_its_own_entries_as_a_layout_afresh_would_place_them() {
        // The filter whose items read the supply only while their cell is empty: each move
        // changes what the filled cell's item reads, and the buckets of every item, moved item by
        // item, are as laid out whole and sorted; what the filter read is theirs and its others'.
        let key = (4, vm::Args::Many(Vec::new()));
        vm::at_every_position(&program(), 0..20, |game, seed| {
            asked_and_afresh(game, 4);
            let memo = &game.world.memo;
            let kept = memo.filters.get(&key).expect("kept");
            let mut laid = Vec::new();
            let mut read = kept.others;
            for (i, item) in kept.each.iter().enumerate() {
                for loc in &item.at[..item.len as usize] {
                    let b = memo.bucket_index(*loc);
                    read[b / 64] |= 1 << (b % 64);
                    laid.push((b as u16, i as u32));
                }
            }
            laid.sort_unstable();
            assert_eq!((&kept.by_bucket, &kept.read), (&laid, &read), "seed {seed}");
        });
    }

    #[test]
    fn a_kept_filter_asked_after_a_move_spends_its_own_steps_and_leaves_out_the_filled_cell() {
        let mut game = Game::new(program(), 2, 0, 10_000, false);
        let program = game.program.clone();
        let free = Expr::Value(0, vec![]);
        let first = vm::eval(&program, &mut game.world, &free, &mut []).expect("free()");
        // A piece moved to the first cell (location 1): the steps spent are the filter's own, one
        // per item, as computed afresh, and no value is entered.
        let piece = game.world.locs[0].pop().expect("a piece in the supply");
        game.world.locs[1].push(piece);
        game.world.changed(vm::Part::Loc(0));
        game.world.changed(vm::Part::Loc(1));
        let (steps, calls) = (game.world.steps, game.world.calls);
        let again = vm::eval(&program, &mut game.world, &free, &mut []).expect("free()");
        assert_eq!((game.world.steps - steps, game.world.calls), (3, calls));
        let Value::List(first) = first else { panic!("a list") };
        assert_eq!(again, Value::List(Arc::new(first[1..].to_vec())));
    }

    #[test]
    fn a_kept_filter_takes_an_item_out_of_its_answer_where_it_stands_not_making_the_answer_again() {
        // No one else holds the answer once the memo has dropped it as stale: the same list,
        // changed in place.
        let mut game = Game::new(program(), 2, 0, 10_000, false);
        // The decision the game waits on offers that list; answered, it lets it go.
        game.pending = None;
        let program = game.program.clone();
        let free = Expr::Value(0, vec![]);
        let Value::List(first) = vm::eval(&program, &mut game.world, &free, &mut []).expect("free()") else {
            panic!("a list")
        };
        let (at, cells) = (Arc::as_ptr(&first), first.as_ref().clone());
        drop(first);
        let piece = game.world.locs[0].pop().expect("a piece in the supply");
        game.world.locs[2].push(piece);
        game.world.changed(vm::Part::Loc(0));
        game.world.changed(vm::Part::Loc(2));
        let Value::List(again) = vm::eval(&program, &mut game.world, &free, &mut []).expect("free()") else {
            panic!("a list")
        };
        assert_eq!(Arc::as_ptr(&again), at);
        assert_eq!(again.as_ref(), &[cells[0].clone(), cells[2].clone()]);
    }

    #[test]
    fn a_kept_filters_short_answer_left_stale_in_the_memo_is_changed_where_it_stands() {
        // The answer the memo keeps for `free()` is one cell long, shorter than the filter's
        // list: gone stale, the memo lets it go when asked, and the filter edits it in place.
        let mut game = Game::new(program(), 2, 0, 10_000, false);
        game.pending = None; // the decision the game waits on offers the list: answered
        let program = game.program.clone();
        let free = Expr::Value(0, vec![]);
        let fill = |game: &mut Game, loc: usize| {
            let piece = game.world.locs[0].pop().expect("a piece in the supply");
            game.world.locs[loc].push(piece);
            game.world.changed(vm::Part::Loc(0));
            game.world.changed(vm::Part::Loc(loc as u32));
        };
        fill(&mut game, 1);
        fill(&mut game, 2);
        let Value::List(short) = vm::eval(&program, &mut game.world, &free, &mut []).expect("free()") else {
            panic!("a list")
        };
        let at = Arc::as_ptr(&short);
        assert_eq!(short.len(), 1);
        drop(short);
        fill(&mut game, 3);
        let Value::List(none) = vm::eval(&program, &mut game.world, &free, &mut []).expect("free()") else {
            panic!("a list")
        };
        assert!(none.is_empty());
        assert_eq!(Arc::as_ptr(&none), at);
    }

    #[test]
    fn asked_again_a_kept_filter_tests_only_the_items_whose_places_changed() {
        // `free()` over the 3 cells (locations 1 to 3) asked, then a piece moved from the supply
        // to the second cell: only that cell's item is to be tested again, found from the
        // buckets changed (the supply's is read by no item), not by going through the items.
        let mut game = Game::new(program(), 2, 0, 10_000, false);
        asked_and_afresh(&mut game, 0);
        let key = (0, vm::Args::Many(Vec::new()));
        let mut todo = Vec::new();
        let kept = game.world.memo.filters.get(&key).expect("kept");
        super::to_test(&game.world, kept, false, 3, &mut todo);
        assert!(todo.is_empty(), "nothing moved: nothing to test again");
        let piece = game.world.locs[0].pop().expect("a piece in the supply");
        game.world.locs[2].push(piece);
        game.world.changed(vm::Part::Loc(0));
        game.world.changed(vm::Part::Loc(2));
        let kept = game.world.memo.filters.get(&key).expect("kept");
        super::to_test(&game.world, kept, false, 3, &mut todo);
        assert_eq!(todo, vec![1]);
    }

    #[test]
    fn a_game_at_rest_keeps_its_filters_without_room_to_grow() {
        // A filter asked, its layout given room for more: at rest, the layout holds what it
        // lists and the items to test hold nothing; asked again, the filter answers as afresh.
        let mut game = Game::new(program(), 2, 0, 10_000, false);
        let (asked, _) = asked_and_afresh(&mut game, 0);
        let key = (0, vm::Args::Many(Vec::new()));
        let filters = &mut game.world.memo.filters;
        filters.entry(&key).and_then(Option::as_mut).expect("kept").by_bucket.reserve(64);
        filters.todo.reserve(64);
        game.rest();
        let filters = &game.world.memo.filters;
        let layout = &filters.get(&key).expect("kept").by_bucket;
        assert_eq!(layout.capacity(), layout.len(), "the layout holds what it lists");
        assert_eq!(filters.todo.capacity(), 0, "no items to test are kept at rest");
        let (again, afresh) = asked_and_afresh(&mut game, 0);
        assert_eq!(again, afresh);
        assert_eq!(again, asked, "nothing moved: the same answer");
    }

    #[test]
    fn a_game_at_rest_tests_again_the_items_whose_places_changed_before_it_rested() {
        // Asked, then a piece moved, then handed back to Python (the memo's clock starts again):
        // the item of the cell filled must not be taken as unchanged by the new clock.
        let mut game = Game::new(program(), 2, 0, 10_000, false);
        let (asked, _) = asked_and_afresh(&mut game, 0);
        let piece = game.world.locs[0].pop().expect("a piece in the supply");
        game.world.locs[1].push(piece);
        game.world.changed(vm::Part::Loc(0));
        game.world.changed(vm::Part::Loc(1));
        game.rest();
        let (again, afresh) = asked_and_afresh(&mut game, 0);
        assert_eq!(again, afresh);
        assert_ne!(again, asked);
    }
}
