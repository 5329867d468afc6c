//! A decision's options: a list, or a set of a small board's cells (cells.rs) kept as the set.
//!
//! `choose c from V()` of a value `V` that cells.rs answers as a set (a filter of a board's cells
//! by their pieces: a game's empty cells) takes its options from the set: an agent reads only
//! how many there are and the one it draws, so no list of the cells is made, kept, copied or
//! freed at each move (docs/benchmarks.md, a thirtieth round: a list made from the set at every
//! choice cost Hex 2,000 instructions a move). The `n`-th option is the `n`-th cell in the
//! board's order, the order of the filter's list (the Python engine's options), so that
//! `randrange(size)` picks the same cell on both engines. Whatever reads the options otherwise
//! (the Python view, styles, a search's guess, the log) reads them one by one from the set, or
//! the list made then (`listed`).

use crate::cells::{cells_in, Cells};
use crate::value::Value;
use std::sync::Arc;

/// A pending decision's options (`Pending::options`). Which one an asking makes is fixed by the
/// asking instruction (cells.rs finds its sets when the program loads), so two games at the
/// same decision hold the same kind, and the derived equality and hashing compare positions.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Options {
    /// Shared with the list they were taken from where no condition filtered it (a value's
    /// answer, kept by the memo).
    List(Arc<Vec<Value>>),
    /// The cells of a set (the value that holds it: `Value::Cells` or `Value::FewCells`), in
    /// the board's order, and how many (counted once, read at every answer).
    Cells { set: Value, len: usize },
}

impl Options {
    /// The options of a set of cells (the answer of a value's set copy: cells.rs's `found`).
    pub fn cells(set: Value) -> Options {
        let len = cells_in(&set).len();
        Options::Cells { set, len }
    }

    #[inline]
    pub fn len(&self) -> usize {
        match self {
            Options::List(items) => items.len(),
            Options::Cells { len, .. } => *len,
        }
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The option at `index`, if there is one.
    #[inline]
    pub fn get(&self, index: usize) -> Option<Value> {
        match self {
            Options::List(items) => items.get(index).cloned(),
            Options::Cells { set, len } if index < *len => Some(Value::Cell(nth(cells_in(set), index))),
            Options::Cells { .. } => None,
        }
    }

    /// The options in order, each made as it is read.
    pub fn iter(&self) -> impl Iterator<Item = Value> + '_ {
        let (items, cells) = match self {
            Options::List(items) => (Some(items.iter().cloned()), None),
            Options::Cells { set, .. } => (None, Some(cells_in(set).locations().map(Value::Cell))),
        };
        items.into_iter().flatten().chain(cells.into_iter().flatten())
    }

    /// The options as a list: shared where they are one, made from the set otherwise.
    pub fn listed(&self) -> Arc<Vec<Value>> {
        match self {
            Options::List(items) => items.clone(),
            Options::Cells { .. } => Arc::new(self.iter().collect()),
        }
    }

    /// The options to change in place (shift.rs renews the placements among them): a set of
    /// cells holds none, and is left as it is.
    pub fn values_mut(&mut self) -> impl Iterator<Item = &mut Value> {
        match self {
            Options::List(items) => Some(Arc::make_mut(items).iter_mut()),
            Options::Cells { .. } => None,
        }
        .into_iter()
        .flatten()
    }
}

/// The location of the `n`-th cell of `set` in the board's order (`n` below its count): the
/// words before it counted whole, then the `n`-th bit of its word found by clearing the lowest.
fn nth(set: Cells<'_>, mut n: usize) -> u32 {
    for (word, bits) in set.bits.iter().enumerate() {
        let count = bits.count_ones() as usize;
        if n < count {
            let mut bits = *bits;
            for _ in 0..n {
                bits &= bits - 1;
            }
            return set.first + (word * 64) as u32 + bits.trailing_zeros();
        }
        n -= count;
    }
    unreachable!("an index below the set's count")
}

#[cfg(test)]
mod tests {
    use super::Options;
    use crate::cells::{CellSet, MOST_CELLS};
    use crate::rng::Mt;
    use crate::value::Value;
    use crate::vm::{Game, Loaded};
    use std::sync::Arc;

    /// Sets of cells at random on boards of `MOST_CELLS` cells and of 64 (a set held in the value
    /// itself) from location 5, sparse to full, with the list of their cells made the way the
    /// filter makes it.
    fn drawn() -> Vec<(Options, Options)> {
        let mut rng = Mt::new(11);
        let mut out = Vec::new();
        for (cells, density) in
            [MOST_CELLS, 64].into_iter().flat_map(|n| [0, 1, 2, 8, 32, 63, 64].map(|d| (n, d)))
        {
            for _ in 0..10 {
                let mut bits = [0u64; MOST_CELLS / 64];
                for i in 0..cells {
                    if rng.randbelow(64) < density {
                        bits[i / 64] |= 1 << (i % 64);
                    }
                }
                let set = CellSet { grid: 0, first: 5, bits, passed: true };
                let listed: Vec<Value> = set.cells().locations().map(Value::Cell).collect();
                out.push((Options::cells(set.value(cells as u32)), Options::List(Arc::new(listed))));
            }
        }
        out
    }

    #[test]
    fn options_drawn_from_a_set_of_cells_are_the_lists_at_every_index() {
        for (set, list) in drawn() {
            assert_eq!(set.len(), list.len());
            assert_eq!(set.is_empty(), list.is_empty());
            for i in 0..=list.len() + 64 {
                assert_eq!(set.get(i), list.get(i), "option {i} of {}", list.len());
            }
            assert_eq!(set.iter().collect::<Vec<_>>(), list.iter().collect::<Vec<_>>());
            assert_eq!(set.listed(), list.listed());
        }
    }

    #[test]
    fn a_random_answer_to_options_from_a_set_of_cells_is_the_cell_the_list_gives() {
        let mut rng = Mt::new(3);
        for (set, list) in drawn().into_iter().filter(|(_, list)| !list.is_empty()) {
            let index = rng.randbelow(set.len() as u64) as usize;
            assert_eq!(set.get(index), list.get(index));
        }
    }

    #[test]
    fn a_set_of_cells_has_no_option_to_change_in_place() {
        for (mut set, mut list) in drawn() {
            assert_eq!(set.values_mut().count(), 0);
            assert_eq!(list.values_mut().count(), list.len());
        }
    }

    /// The tiny game of vm.rs's tests on boards of `wide` by `high` cells (`choose c from
    /// free()`, `free()` a board's empty cells), as loaded, and with no value answered as a set,
    /// so that its choice draws from `free()`'s list.
    fn drawn_and_listed(wide: i64, high: i64) -> (Arc<Loaded>, Arc<Loaded>) {
        let ir = crate::occupied::tests::board_of(wide, high);
        let drawn = Loaded::new(serde_json::from_value(ir.clone()).expect("the program loads"));
        let mut listed = Loaded::new(serde_json::from_value(ir).expect("the program loads"));
        listed.as_set.iter_mut().for_each(|set| *set = None);
        (Arc::new(drawn), Arc::new(listed))
    }

    #[test]
    fn a_choice_drawn_from_a_set_of_cells_plays_as_the_same_choice_drawn_from_its_list() {
        // Boards of a word and more (kept by the memo), and of fewer cells than the tests'
        // `MOST_CELLS_KEPT` (the set computed at each asking).
        for (wide, high) in [(10, 10), (3, 1), (2, 1), (16, 9)] {
            let (drawn, listed) = drawn_and_listed(wide, high);
            for seed in 0..6 {
                let mut a = Game::new(drawn.clone(), 2, seed, 1_000_000, true);
                let mut b = Game::new(listed.clone(), 2, seed, 1_000_000, true);
                let mut rng = Mt::new(seed);
                while let (Some(x), Some(y)) = (&a.pending, &b.pending) {
                    assert!(matches!(x.options, Options::Cells { .. }), "drawn from the set");
                    assert!(matches!(y.options, Options::List(_)), "drawn from the list");
                    // What a reader of the decision sees: its size and its options, in order.
                    assert_eq!((x.seat, x.prompt, x.size()), (y.seat, y.prompt, y.size()));
                    assert_eq!(x.options.listed(), y.options.listed());
                    let index = rng.randbelow(x.size() as u64) as usize;
                    a.apply(index).expect("an option");
                    b.apply(index).expect("an option");
                }
                assert!(a.pending.is_none() && b.pending.is_none());
                // The same end: over, or (the tiny game's supply of 3 stones a seat running out on a
                // larger board) stopped at the same decision by the limit of decisions.
                assert_eq!((a.over, &a.failed), (b.over, &b.failed));
                assert_eq!(a.world.events, b.world.events, "{wide}x{high}, seed {seed}: the same log");
                assert_eq!(a.world.locs, b.world.locs);
                assert_eq!(a.choices, b.choices);
                assert_eq!(a.scores(false).expect("scores"), b.scores(false).expect("scores"));
            }
        }
    }
}
