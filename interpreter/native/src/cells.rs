//! A filter of a board's cells answered as a set of cells, a bit each, where what asks it reads it
//! as a set: `in_a_row(V(...), n)` and `connected(V(...), FROM, TO)` of a declared value `V`
//! whose body is a filter of a board's cells by their pieces (`marked(p) = [each c in
//! cells(board) where count(pieces(c, mark, p)) > 0]`: a player's marks, discs or stones).
//!
//! Such a value was a list, made cell by cell (or kept item by item by kept.rs on a board of more
//! than 64 cells), that `in_a_row` and `connected` then marked again a bit per cell. Here the
//! pass's bits (occupied.rs) are the answer, held in the set itself (boards of up to
//! `MOST_CELLS` cells: nothing allocated but the set), and the two read them where they lie: no
//! list made, kept, copied or freed (callgrind, docs/benchmarks.md, a twenty-seventh round: Hex
//! 11×11 −5.5%, Connect Four −6.9%, Tic-Tac-Toe −2.9%).
//!
//! A filter of the cells of a board that fills a rectangle of at most 64 cells whose condition
//! compiled.rs compiles (occupied.rs's `tested`: Connect Four's `landing()`) is answered as a set
//! too, its bits the word that pass finds.
//!
//! The set is the answer of a value of its own, found when the program loads: a copy of `V`
//! (the same body, the same place in the rules for its errors and limits) appended to the
//! program's values, which only those two built-ins ask, and only of their first argument;
//! `count(V(...))`, which counts its bits (`counted`); and `choose x from V(...)` with no
//! condition, whose decision keeps the set as its options (options.rs: the option chosen is a
//! cell). So a set reaches nothing else: no variable, comparison, loop or log holds one, and the
//! memo keeps it under a key of its own, apart from `V`'s list (a position that asks both finds
//! each). Its computing spends the steps and reads the parts the filter does, and fails where it
//! fails.

use crate::grid;
use crate::ir::{Builtin, Expr, FuncIr, Instr, Program};
use crate::value::Value;
use crate::vm::{self, Fail, Key, Loaded, World};
use std::sync::Arc;

/// The most cells of a board whose filter is answered as a set: its bits lie in the set itself,
/// nothing more allocated per answer, and nothing in it to free but the set.
pub(crate) const MOST_CELLS: usize = 256;

/// Cells of a board given by its size: bit `i` the cell at location `first + i`.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct CellSet {
    pub grid: u32,
    /// The board's first cell's location.
    pub first: u32,
    pub bits: [u64; MOST_CELLS / 64],
    /// Found by a pass over the board's piles (occupied.rs), which read every cell's bucket: a
    /// set found again after a move starts from it (`answer`).
    pub passed: bool,
}

impl CellSet {
    /// Its cells, read where they lie.
    pub fn cells(&self) -> Cells<'_> {
        Cells { grid: self.grid, first: self.first, bits: &self.bits }
    }

    /// The set as a value, of a board of so many cells: in the value itself where they fit a
    /// word (`Value::FewCells`), so that a set found at every move allocates and frees nothing
    /// (callgrind, Tic-Tac-Toe one stream: a `malloc` and a `free` a move, 3.5% of the game);
    /// shared otherwise.
    pub fn value(self, cells: u32) -> Value {
        if cells <= 64 {
            let CellSet { grid, first, bits, passed } = self;
            Value::FewCells { grid, first, bits: bits[0], passed }
        } else {
            Value::Cells(Arc::new(self))
        }
    }

    /// The bits of a set a pass found (`passed`) that `v` holds, if it holds one: what the set
    /// found again after a move starts from.
    fn passed(v: &Value) -> Option<[u64; MOST_CELLS / 64]> {
        match v {
            Value::Cells(set) if set.passed => Some(set.bits),
            Value::FewCells { bits, passed: true, .. } => {
                let mut all = [0; MOST_CELLS / 64];
                all[0] = *bits;
                Some(all)
            }
            _ => None,
        }
    }
}

/// A set of cells where a value holds it (`Value::Cells`, `Value::FewCells`), read in place: bit
/// `i` of `bits` the cell at location `first + i` of board `grid`.
#[derive(Clone, Copy, Debug)]
pub struct Cells<'a> {
    pub grid: u32,
    pub first: u32,
    pub bits: &'a [u64],
}

impl<'a> Cells<'a> {
    pub fn is_empty(&self) -> bool {
        self.bits.iter().all(|word| *word == 0)
    }

    /// How many cells: the words past a small board's cells, nothing in them, not counted.
    pub fn len(&self) -> usize {
        self.bits.iter().filter(|word| **word != 0).map(|word| word.count_ones() as usize).sum()
    }

    /// The cells' locations, in the board's order.
    pub fn locations(self) -> impl Iterator<Item = u32> + 'a {
        let first = self.first;
        self.bits.iter().enumerate().flat_map(move |(word, bits)| {
            let mut bits = *bits;
            std::iter::from_fn(move || {
                (bits != 0).then(|| {
                    let at = first + (word * 64) as u32 + bits.trailing_zeros();
                    bits &= bits - 1;
                    at
                })
            })
        })
    }

    /// The cells as the list the filter makes.
    pub fn list(&self) -> Value {
        Value::List(Arc::new(self.locations().map(Value::Cell).collect()))
    }
}

/// By declared value: the value appended to the program that answers it as a set, where its
/// body is a filter of a board's cells by their pieces, or a filter of a small board's cells
/// whose condition compiled.rs compiles (`tested`); and by value, whether it is one of those
/// appended (`Loaded::as_set`, `Loaded::sets`).
pub(crate) fn found(ir: &mut Program) -> (Vec<Option<u32>>, Vec<bool>) {
    let declared = ir.values.len();
    let mut as_set = vec![None; declared];
    let tested = tested(ir);
    for (v, of) in as_set.iter_mut().enumerate() {
        let func = &ir.values[v];
        if tested[v]
            || crate::occupied::shaped(ir, &func.body).is_some_and(|cells| cells as usize <= MOST_CELLS)
        {
            let copy = FuncIr { slots: func.slots, body: func.body.clone(), at: func.at };
            *of = Some(ir.values.len() as u32);
            ir.values.push(copy);
        }
    }
    let sets = (0..ir.values.len()).map(|v| v >= declared).collect();
    (as_set, sets)
}

/// By declared value, whether occupied.rs's `tested` answers it a word of cells at a time (a
/// filter of the cells of a board that fills a rectangle of at most 64 cells, its condition
/// compiled: Connect Four's `landing()`), as `Loaded::tested` finds it; the values its condition
/// asks are not sets, so whether each is computed in place is in_place.rs's word alone.
fn tested(ir: &Program) -> Vec<bool> {
    let grids: Vec<crate::grid::GridIndex> = ir.grids.iter().map(crate::grid::GridIndex::new).collect();
    let in_place: Vec<bool> = ir
        .values
        .iter()
        .map(|v| v.slots as usize <= vm::FEW_SLOTS && crate::in_place::asked_in_place(&v.body))
        .collect();
    let compiles = |body: &Expr| match body {
        Expr::Filter { slot, cond, .. } => crate::compiled::compile(ir, &in_place, *slot, cond).is_some(),
        _ => false,
    };
    ir.values
        .iter()
        .map(|v| compiles(&v.body) && crate::occupied::tested_first(ir, &grids, &v.body))
        .collect()
}

/// Whether value `v` is a set of a small board's cells (of at most 64, occupied.rs's
/// `MOST_CELLS_KEPT`), computed where it is asked rather than kept by the memo (in_place.rs): its
/// pass costs less than finding and keeping an answer that a move makes stale (Tic-Tac-Toe's
/// `marked(p)`, asked once a move), and what it reads counts as read by its caller. The set of a
/// value a choice draws its options from is kept all the same: the choice and the counts around
/// it ask it again in the same position (Tic-Tac-Toe's `empty()`, three times a move), and one
/// pass and two findings cost less than three passes (callgrind, one stream: 2.8% of the game).
pub(crate) fn in_place(ir: &Program, as_set: &[Option<u32>], v: usize) -> bool {
    let Some(of) = as_set.iter().position(|set| *set == Some(v as u32)) else { return false };
    crate::occupied::shaped(ir, &ir.values[v].body)
        .is_some_and(|cells| cells <= crate::occupied::MOST_CELLS_KEPT)
        && !chosen_from(ir, of)
}

/// Whether some `choose x from V(...)` with no condition draws from value `v`: its options are
/// the set's (vm.rs's `from_a_set`).
fn chosen_from(ir: &Program, v: usize) -> bool {
    ir.code.iter().flat_map(|code| &code.instrs).any(|step| {
        matches!(&step.op, Instr::Choose { seq: Expr::Value(u, _), cond: None, .. } if *u as usize == v)
    })
}

/// The answer of a value appended by `found` (`key`), its body the filter: the pass's bits
/// (occupied.rs), only the cells whose pieces changed gone through again where the memo keeps
/// the set found before by a pass; where the pass does not answer (a kept filter's item under
/// test, a kind's pieces a part of their own), the filter walked and its cells marked.
pub(crate) fn answer(
    p: &Loaded,
    w: &mut World,
    key: &Key,
    body: &Expr,
    env: &mut [Value],
) -> Result<Value, Fail> {
    let Expr::Filter { seq, slot, .. } = body else { return vm::eval(p, w, body, env) };
    let grid = crate::occupied::board(&p.ir, seq).unwrap_or_default() as u32;
    let (first, size) = p.grids[grid as usize].span();
    // On a small board a pass over every cell costs less than finding the set found before
    // (Tic-Tac-Toe's 9 cells: 2.6% more for a whole game; Hex's 121: 9% less).
    let stale = || w.memo.stale(key);
    let before = match (size > crate::occupied::MOST_CELLS_KEPT).then(stale).flatten() {
        Some((old, changed)) => CellSet::passed(old).map(|bits| (bits, changed)),
        None => None,
    };
    let set = |of: &[u64], passed: bool| {
        let mut bits = [0; MOST_CELLS / 64];
        bits[..of.len()].copy_from_slice(of);
        CellSet { grid, first, bits, passed }.value(size)
    };
    let since = before.as_ref().map(|(bits, changed)| (&bits[..], changed));
    let made = |_, bits: &[u64]| set(bits, true);
    if let Some(passing) = &p.passing[key.0 as usize] {
        if let Some(answer) = passing.pass(p, w, env, since, made)? {
            return Ok(answer);
        }
    }
    if let Some(Some(test)) = p.tests.get(key.0 as usize) {
        if let Some((_, holds)) = crate::occupied::tested_bits(p, w, (seq, *slot, test), env)? {
            return Ok(set(&[holds], false));
        }
    }
    let mut bits = [0; MOST_CELLS / 64];
    for item in vm::list(vm::eval(p, w, body, env)?)?.iter() {
        if let Value::Cell(loc) = item {
            let i = (loc - first) as usize;
            bits[i / 64] |= 1 << (i % 64);
        }
    }
    Ok(set(&bits, false))
}

/// `in_a_row(V(...), n)` or `connected(V(...), FROM, TO)` of a value `V` answered as a set: the
/// answer, its arguments evaluated in order as the built-in's; None, having done nothing, for
/// any other asking.
pub(crate) fn asked(
    p: &Loaded,
    w: &mut World,
    b: Builtin,
    args: &[Expr],
    env: &mut [Value],
) -> Result<Option<Value>, Fail> {
    let (Some(Expr::Value(v, of)), Builtin::InARow | Builtin::Connected) = (args.first(), b) else {
        return Ok(None);
    };
    let Some(as_set) = p.as_set.get(*v as usize).copied().flatten() else { return Ok(None) };
    let arity = if b == Builtin::InARow { 2 } else { 3 };
    if args.len() != arity {
        return Ok(None);
    }
    let held = vm::asked(p, w, as_set, of, env)?;
    let set = cells_in(&held);
    let answer = if b == Builtin::InARow {
        let n = vm::int(vm::eval(p, w, &args[1], env)?)?;
        grid::in_a_row_of(p, set, n)?
    } else {
        let starts = vm::list(vm::eval(p, w, &args[1], env)?)?;
        let ends = vm::list(vm::eval(p, w, &args[2], env)?)?;
        w.memo.filters.joins.answer_cells(p, set, &starts, &ends)
    };
    Ok(Some(Value::Bool(answer)))
}

/// `count(V(...))` of a value `V` answered as a set (`as_set`, its copy's index): its cells
/// counted in the set, so that where a choice draws its options from the set (options.rs) the
/// list is not asked as well.
pub(crate) fn counted(
    p: &Loaded,
    w: &mut World,
    as_set: u32,
    of: &[Expr],
    env: &mut [Value],
) -> Result<i64, Fail> {
    Ok(cells_in(&vm::asked(p, w, as_set, of, env)?).len() as i64)
}

/// The cells of the answer of a value's set copy (`found`'s, asked by `vm::asked` in the value's
/// place by `in_a_row`, `connected`, `count` and a choice), read where they lie.
#[inline]
pub(crate) fn cells_in(set: &Value) -> Cells<'_> {
    match set.cells() {
        Some(cells) => cells,
        None => unreachable!("a value appended by cells::found answers a set"),
    }
}

#[cfg(test)]
mod tests {
    //! The tiny game of vm.rs's tests with its board made 10 by 10 cells (occupied.rs's tests:
    //! pieces of either seat, or of no one, laid at random), its value `free()` the empty cells.
    use super::{cells_in, CellSet, MOST_CELLS};
    use crate::grid::{self, Joins};
    use crate::ir::Expr;
    use crate::occupied::tests::{cells, counted, laid, program, SIDE};
    use crate::value::Value;
    use crate::vm::{self, Game};
    use serde_json::json;
    use std::sync::Arc;

    /// The filter of the board's cells by `cond`, as the walk's list and as the pass's set.
    fn both(game: &Game, cond: &Expr, seat: u32) -> (Arc<Vec<Value>>, Value) {
        let env = [Value::None, Value::Player(seat)];
        let filter = Expr::Filter { seq: Box::new(cells()), slot: 0, cond: Box::new(cond.clone()) };
        let mut w = game.world.clone();
        let listed = vm::eval(&game.program, &mut w, &filter, &mut env.clone()).expect("a list");
        // By the pass itself: `answer` takes its value's own filter apart when the program loads.
        let mut w = game.world.clone();
        let made = |first, of: &[u64]| {
            let mut bits = [0; MOST_CELLS / 64];
            bits[..of.len()].copy_from_slice(of);
            CellSet { grid: 0, first, bits, passed: true }.value((SIDE * SIDE) as u32)
        };
        let set =
            crate::occupied::pass(&game.program, &mut w, (&cells(), 0, cond), &mut env.clone(), None, made);
        let Ok(Some(set)) = set else { panic!("a set of cells, not {set:?}") };
        (vm::list(listed).expect("a list"), set)
    }

    /// The cells of one column of the board, from the west (0) to the east (SIDE - 1).
    fn column(q: i64) -> Arc<Vec<Value>> {
        Arc::new((0..SIDE).map(|r| Value::Cell((1 + r * SIDE + q) as u32)).collect())
    }

    #[test]
    fn a_set_of_a_board_of_a_word_of_cells_is_held_in_the_value_and_a_larger_boards_shared() {
        let mut bits = [0; MOST_CELLS / 64];
        bits[0] = 0b1011 << 60;
        let set = CellSet { grid: 2, first: 7, bits, passed: true };
        for (cells, held) in [(1, true), (64, true), (65, false), (MOST_CELLS as u32, false)] {
            let value = set.clone().value(cells);
            assert_eq!(matches!(value, Value::FewCells { .. }), held, "a board of {cells} cells");
            let read = cells_in(&value);
            assert_eq!((read.grid, read.first, read.len()), (2, 7, 3), "a board of {cells} cells");
            assert_eq!(read.locations().collect::<Vec<_>>(), set.cells().locations().collect::<Vec<_>>());
            assert_eq!(CellSet::passed(&value), Some(bits), "what a set found again starts from");
            assert!(value.truthy());
            assert_eq!(vm::list(value).expect("a list"), vm::list(set.cells().list()).expect("a list"));
        }
        let none = CellSet { bits: [0; MOST_CELLS / 64], passed: false, ..set };
        assert!(!none.clone().value(9).truthy() && !none.clone().value(100).truthy(), "false, as no list");
        assert_eq!(CellSet::passed(&none.value(9)), None, "not found by a pass");
    }

    #[test]
    fn a_filter_of_a_boards_cells_by_their_pieces_gets_a_copy_of_its_own_that_answers_as_a_set() {
        let program = program();
        // `free()` is value 0; its copy is appended after the program's values.
        assert_eq!(program.as_set, vec![Some(1)]);
        assert_eq!(program.sets, vec![false, true]);
        assert_eq!(program.ir.values[1].at, program.ir.values[0].at);
    }

    #[test]
    fn a_small_boards_set_is_computed_where_it_is_asked_unless_a_choice_draws_from_it() {
        // The tiny game's board of 2 cells (within the tests' `MOST_CELLS_KEPT`): `choose c from
        // free()` draws from it; with a condition added the choice draws from a list it filters.
        let mut ir = crate::occupied::tests::board_of(2, 1);
        let kept = vm::Loaded::new(serde_json::from_value(ir.clone()).expect("the program loads"));
        assert_eq!(kept.as_set, vec![Some(1)]);
        assert!(!super::in_place(&kept.ir, &kept.as_set, 1), "the set a choice draws from is kept");
        assert!(!super::in_place(&kept.ir, &kept.as_set, 0), "no set");
        ir["code"][0]["instrs"][6]["op"]["Choose"]["cond"] = json!({"Const": {"Bool": true}});
        let filtered = vm::Loaded::new(serde_json::from_value(ir).expect("the program loads"));
        assert!(super::in_place(&filtered.ir, &filtered.as_set, 1), "a set no choice draws from");
    }

    #[test]
    fn a_small_boards_filter_by_a_compiled_condition_gets_a_copy_that_answers_its_cells_as_a_set() {
        // The tiny game's board of 2 cells, a value `held()`: the cells where it is not so that
        // no piece is there (compiled.rs compiles it; it is no count of pieces compared).
        let mut ir = crate::occupied::tests::board_of(2, 1);
        let count = json!({"Builtin": ["Count", [{"Builtin": ["Pieces", [{"Local": 0}]]}]]});
        let cond = json!({"Not": {"Bin": ["Eq", count, {"Const": {"Int": 0}}]}});
        let filter = json!({"Filter": {"seq": {"Builtin": ["Cells", [{"Const": {"Grid": 0}}]]}, "slot": 0, "cond": cond}});
        ir["values"].as_array_mut().expect("values").push(json!({"slots": 1, "body": filter, "at": 2}));
        let program = Arc::new(vm::Loaded::new(serde_json::from_value(ir).expect("the program loads")));
        assert_eq!(program.as_set, vec![Some(2), Some(3)], "free() and held() each have a copy");
        let mut game = Game::new(program.clone(), 2, 0, 1_000, false);
        for (loc, laid) in [(0, false), (1, true), (0, true), (1, false)] {
            if laid {
                game.world.locs[loc + 1].push(crate::value::Piece { kind: 0, owner: Some(0) });
            } else {
                game.world.locs[loc + 1].clear();
            }
            game.world.memo.changed(crate::vm::Part::Loc(loc as u32 + 1));
            let set = vm::eval(&program, &mut game.world, &Expr::Value(3, vec![]), &mut []).expect("a set");
            let Some(set) = set.cells() else { panic!("a set of cells, not {set:?}") };
            let list = vm::eval(&program, &mut game.world, &Expr::Value(1, vec![]), &mut []).expect("a list");
            let listed: Vec<u32> =
                vm::list(list).expect("a list").iter().filter_map(Value::location).collect();
            assert_eq!(set.locations().collect::<Vec<_>>(), listed, "after cell {loc} changed");
        }
    }

    #[test]
    fn a_set_of_cells_holds_the_filters_cells_and_is_in_a_row_and_connected_as_its_list_is() {
        let shapes = [
            counted("Eq", &[], 0),
            counted("Gt", &[json!({"Const": {"KindName": 0}}), json!({"Local": 1})], 0),
            counted("Ge", &[], 2),
            counted("Lt", &[json!({"Const": {"KindName": 0}}), json!({"Const": "None"})], 1),
        ];
        for seed in 0..20 {
            let game = laid(seed);
            for cond in &shapes {
                for seat in 0..2 {
                    let (list, held) = both(&game, cond, seat);
                    let set = cells_in(&held);
                    let listed: Vec<u32> = list.iter().map(|c| c.location().expect("a cell")).collect();
                    assert_eq!(set.locations().collect::<Vec<_>>(), listed, "seed {seed}, {cond:?}");
                    for n in 1..=5 {
                        assert_eq!(
                            grid::in_a_row_of(&game.program, set, n).expect("an answer"),
                            grid::in_a_row(&game.program, &list, n).expect("an answer"),
                            "seed {seed}, {n} in a row, {cond:?}"
                        );
                    }
                    let (west, east) = (column(0), column(SIDE - 1));
                    assert_eq!(
                        Joins::default().answer_cells(&game.program, set, &west, &east),
                        grid::connected(&game.program, &mut Joins::default(), &list, &west, &east)
                            .expect("an answer"),
                        "seed {seed}, {cond:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_set_found_again_after_pieces_move_from_the_cells_that_changed_is_the_filters_list() {
        for seed in 0..10 {
            let mut game = laid(seed);
            let p = game.program.clone();
            let mut rng = crate::rng::Mt::new(seed);
            for round in 0..60 {
                // The copy of `free()`, asked in the game: kept by its memo from one round to the next.
                let set = vm::eval(&p, &mut game.world, &Expr::Value(1, vec![]), &mut []).expect("a set");
                let Some(set) = set.cells() else { panic!("a set of cells, not {set:?}") };
                let mut copy = game.clone();
                let list = vm::eval(&p, &mut copy.world, &p.ir.values[0].body, &mut [Value::None]);
                let listed: Vec<u32> = vm::list(list.expect("a list"))
                    .expect("a list")
                    .iter()
                    .filter_map(Value::location)
                    .collect();
                assert_eq!(set.locations().collect::<Vec<_>>(), listed, "seed {seed}, round {round}");
                // A few cells gain or lose a piece, as a move would change them.
                for _ in 0..=rng.randbelow(3) {
                    let loc = 1 + rng.randbelow((SIDE * SIDE) as u64) as u32;
                    let pile = &mut game.world.locs[loc as usize];
                    if pile.is_empty() || rng.randbelow(2) == 0 {
                        pile.push(crate::value::Piece { kind: 0, owner: Some(rng.randbelow(2) as u32) });
                    } else {
                        pile.pop();
                    }
                    game.world.memo.changed(crate::vm::Part::Loc(loc));
                }
                if round % 7 == 6 {
                    game.rest(); // handed back to Python, as after each decision it answers
                }
            }
        }
    }

    #[test]
    fn a_set_of_cells_asked_as_it_grows_is_connected_as_its_list_is() {
        let program = program();
        let (west, east) = (column(0), column(SIDE - 1));
        let mut rng = crate::rng::Mt::new(7);
        let (mut joins, mut bits, mut listed) = (Joins::default(), [0u64; MOST_CELLS / 64], Vec::new());
        for _ in 0..60 {
            let i = rng.randbelow((SIDE * SIDE) as u64) as usize;
            bits[i / 64] |= 1 << (i % 64);
            listed.push(Value::Cell(1 + i as u32));
            let set = CellSet { grid: 0, first: 1, bits, passed: true };
            assert_eq!(
                joins.answer_cells(&program, set.cells(), &west, &east),
                grid::connected(&program, &mut Joins::default(), &listed, &west, &east).expect("an answer")
            );
        }
    }

    #[test]
    fn in_a_row_and_connected_of_the_value_read_its_set_and_answer_as_of_its_list() {
        let game = laid(3);
        let program = &game.program;
        let asked = |b: &str, more: serde_json::Value| -> Expr {
            let mut args = vec![json!({"Value": [0, []]})];
            args.extend(more.as_array().expect("arguments").iter().cloned());
            serde_json::from_value(json!({"Builtin": [b, args]})).expect("a built-in")
        };
        let free: Vec<Value> = (1..=(SIDE * SIDE) as u32)
            .filter(|loc| game.world.locs[*loc as usize].is_empty())
            .map(Value::Cell)
            .collect();
        for n in 1..=4 {
            let mut w = game.world.clone();
            let e = asked("InARow", json!([{"Const": {"Int": n}}]));
            let answer = vm::eval(program, &mut w, &e, &mut []).expect("an answer");
            assert_eq!(answer, Value::Bool(grid::in_a_row(program, &free, n).expect("an answer")));
            // The set was asked (the copy's answer kept), and the list was not.
            assert!(w.memo.len() == 1, "one answer kept");
        }
        let mut w = game.world.clone();
        let west = json!({"Const": {"List": column(0).iter().map(|c| json!({"Cell": c.location()})).collect::<Vec<_>>()}});
        let east = json!({"Const": {"List": column(SIDE - 1).iter().map(|c| json!({"Cell": c.location()})).collect::<Vec<_>>()}});
        let e = asked("Connected", json!([west, east]));
        let answer = vm::eval(program, &mut w, &e, &mut []).expect("an answer");
        let search = grid::connected(program, &mut Joins::default(), &free, &column(0), &column(SIDE - 1));
        assert_eq!(answer, Value::Bool(search.expect("an answer")));
    }
}
