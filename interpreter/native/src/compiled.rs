//! A filter's condition compiled from its shape when the program loads: a small tree whose
//! leaves read the position straight (how many pieces lie at a place, whether the item is one
//! of a list of cells), rather than the expression walked by `vm::test` at each item. A filter
//! kept item by item (kept.rs) tests its items again whenever their places change, and walking
//! the general evaluator cost some 2,200 instructions for a test of a few operations on one
//! cell (a declared value entered and left, a cell made from the item's coordinates and looked
//! up, the item looked for in a list of 7 cells: docs/benchmarks.md, a twenty-first round).
//!
//! Only what is answered exactly as `vm::test` answers it is compiled: `and`, `or`, `not`;
//! `count(pieces(PLACE)) OP N`; the item `in` (or `not in`) a constant list of cells; a declared
//! value computed in place (in_place.rs) asked of a place, its body compiled in turn. A PLACE is
//! the item itself, or the cell of a board given by its size at the item's coordinates plus
//! constants (`cell(board, c.q, c.r + 1)`). The tree reads the same parts of the position in the
//! same order as the walk (each place's pieces, through the memo), enters and leaves a value as
//! `vm` does (the same limits), and spends no step, as the walk spends none there. Where the
//! walk would do anything else at some item (a place that is no place, a cell off the board,
//! an item that is not a board's cell), the tree says so having changed nothing but parts read,
//! which the walk then reads again, and the item is tested by `vm::test`: its answer, or its
//! error, is the walk's. Any other condition is not compiled, and always walked.

use crate::ir::{AttrIr, BinOp, Builtin, Expr, Program};
use crate::value::Value;
use crate::vm::{self, Fail, Loaded, Part, World};

/// A condition compiled (see the module's comment). Its variant a byte of its own, as `Expr`'s.
#[derive(Debug, PartialEq, Clone)]
#[repr(u8)]
pub enum Test {
    And(Box<Test>, Box<Test>),
    Or(Box<Test>, Box<Test>),
    Not(Box<Test>),
    /// `count(pieces(PLACE)) OP N`: the pieces at the place, of any kind and owner.
    Count {
        place: Place,
        op: BinOp,
        n: i64,
    },
    /// The item `in` a constant list of cells (`not in`: `among` false): bit `i` of word `i / 64`
    /// the cell at location `i`, so that a board's cells are a few words shifted (occupied.rs).
    Among {
        cells: Vec<u64>,
        among: bool,
    },
    /// A declared value computed in place asked of a place: its body, compiled with the place
    /// as its one name.
    Value {
        value: u32,
        arg: Place,
        body: Box<Test>,
    },
}

/// A place a compiled test reads: the filter's item, the one name of a value's body, or the
/// cell of a board given by its size at the item's coordinates plus `dq` and `dr`.
#[derive(Debug, PartialEq, Clone, Copy)]
pub enum Place {
    Item,
    Arg,
    Offset { grid: u32, dq: i64, dr: i64 },
}

/// What a name of the condition stands for while compiling: the filter's item (its slot), or,
/// in a value's body, its one argument (its slot 0).
#[derive(Clone, Copy)]
enum Names {
    Item(u32),
    Arg,
}

/// The most a constant may add to a coordinate: far beyond any board, short of any overflow.
const FAR: i64 = 1 << 32;

/// The condition of `[each x in SEQ where COND]`, x in `slot`, compiled; None if any part of it
/// is not answered by the tree exactly as the walk answers it.
pub fn compile(ir: &Program, in_place: &[bool], slot: u32, cond: &Expr) -> Option<Test> {
    test(ir, in_place, Names::Item(slot), cond)
}

fn test(ir: &Program, in_place: &[bool], names: Names, e: &Expr) -> Option<Test> {
    let both = |l: &Expr, r: &Expr| Some((test(ir, in_place, names, l)?, test(ir, in_place, names, r)?));
    Some(match e {
        Expr::Bin(BinOp::And, l, r) => {
            let (l, r) = both(l, r)?;
            Test::And(Box::new(l), Box::new(r))
        }
        Expr::Bin(BinOp::Or, l, r) => {
            let (l, r) = both(l, r)?;
            Test::Or(Box::new(l), Box::new(r))
        }
        Expr::Not(inner) => Test::Not(Box::new(test(ir, in_place, names, inner)?)),
        Expr::Bin(op @ (BinOp::In | BinOp::NotIn), l, r) => {
            let (Names::Item(slot), Expr::Local(of), Expr::Const(Value::List(items))) =
                (names, l.as_ref(), r.as_ref())
            else {
                return None;
            };
            if *of != slot {
                return None;
            }
            let mut cells = vec![0; ir.locations.len().div_ceil(64)];
            for item in items.iter() {
                match item {
                    Value::Cell(loc) if (*loc as usize) < ir.locations.len() => {
                        cells[*loc as usize / 64] |= 1 << (loc % 64)
                    }
                    _ => return None,
                }
            }
            Test::Among { cells, among: *op == BinOp::In }
        }
        Expr::Bin(..) => {
            let (op, at, n) = vm::pieces_counted(e)?;
            let [place] = at else { return None };
            Test::Count { place: self::place(ir, names, place)?, op, n }
        }
        Expr::Value(value, args) => {
            let [arg] = args.as_slice() else { return None };
            let func = ir.values.get(*value as usize)?;
            if !in_place.get(*value as usize).copied().unwrap_or(false) || func.slots == 0 {
                return None;
            }
            // A body is compiled with its own one name; a value asked within it is not.
            let body = match names {
                Names::Item(_) => test(ir, &[], Names::Arg, &func.body)?,
                Names::Arg => return None,
            };
            Test::Value { value: *value, arg: place(ir, names, arg)?, body: Box::new(body) }
        }
        _ => return None,
    })
}

/// A place of the condition: the item (or the body's name), or `cell(BOARD, x.q ± A, x.r ± B)`
/// of a board given by its size, x the item.
fn place(ir: &Program, names: Names, e: &Expr) -> Option<Place> {
    match (names, e) {
        (Names::Item(slot), Expr::Local(of)) if *of == slot => Some(Place::Item),
        (Names::Arg, Expr::Local(0)) => Some(Place::Arg),
        (Names::Item(slot), Expr::Builtin(Builtin::Cell, args)) => {
            let [Expr::Const(Value::Grid(grid)), q, r] = args.as_slice() else { return None };
            if ir.grids.get(*grid as usize)?.grows {
                return None;
            }
            let dq = offset(slot, &AttrIr::Q, q)?;
            let dr = offset(slot, &AttrIr::R, r)?;
            Some(Place::Offset { grid: *grid, dq, dr })
        }
        _ => None,
    }
}

/// `x.NAME`, `x.NAME + K` or `x.NAME - K` of the item x: K (0 for the first).
fn offset(slot: u32, name: &AttrIr, e: &Expr) -> Option<i64> {
    let of_item = |e: &Expr| matches!(e, Expr::Attr(obj, n) if matches!(**obj, Expr::Local(s) if s == slot) && n == name);
    let k = match e {
        e if of_item(e) => 0,
        Expr::Bin(BinOp::Add, l, r) => match (l.as_ref(), r.as_ref()) {
            (l, Expr::Const(Value::Int(k))) if of_item(l) => *k,
            _ => return None,
        },
        Expr::Bin(BinOp::Sub, l, r) => match (l.as_ref(), r.as_ref()) {
            (l, Expr::Const(Value::Int(k))) if of_item(l) => k.checked_neg()?,
            _ => return None,
        },
        _ => return None,
    };
    (k.abs() < FAR).then_some(k)
}

/// Whether the compiled condition holds of `item`; None where the walk would do otherwise than
/// the tree (see the module's comment), having changed nothing but parts read: the caller
/// then tests the item with `vm::test`.
pub fn holds(p: &Loaded, w: &mut World, t: &Test, item: &Value) -> Result<Option<bool>, Fail> {
    at(p, w, t, item, None)
}

fn at(p: &Loaded, w: &mut World, t: &Test, item: &Value, arg: Option<u32>) -> Result<Option<bool>, Fail> {
    Ok(Some(match t {
        Test::And(l, r) => match at(p, w, l, item, arg)? {
            Some(true) => return at(p, w, r, item, arg),
            other => return Ok(other),
        },
        Test::Or(l, r) => match at(p, w, l, item, arg)? {
            Some(false) => return at(p, w, r, item, arg),
            other => return Ok(other),
        },
        Test::Not(inner) => return Ok(at(p, w, inner, item, arg)?.map(|truth| !truth)),
        Test::Count { place, op, n } => {
            let Some(loc) = location(p, *place, item, arg) else { return Ok(None) };
            w.memo.read(Part::Loc(loc));
            vm::holds(*op, w.locs[loc as usize].len() as i64, *n)
        }
        Test::Among { cells, among } => {
            let found = matches!(item, Value::Cell(loc) if among_cells(cells, *loc as usize) & 1 == 1);
            found == *among
        }
        Test::Value { value, arg: given, body } => {
            let Some(loc) = location(p, *given, item, arg) else { return Ok(None) };
            vm::entered(p, w, *value)?;
            let truth = at(p, w, body, item, Some(loc));
            w.calls -= 1;
            return truth;
        }
    }))
}

/// The 64 bits of `Test::Among`'s cells from location `first` on, the first the lowest bit.
pub(crate) fn among_cells(cells: &[u64], first: usize) -> u64 {
    let (word, by) = (first / 64, first % 64);
    let low = cells.get(word).map_or(0, |bits| bits >> by);
    let high = match by {
        0 => 0,
        _ => cells.get(word + 1).map_or(0, |bits| bits << (64 - by)),
    };
    low | high
}

/// The location a place of a test stands for at this item (and this value's argument); None
/// where the walk would not find one the same way.
fn location(p: &Loaded, place: Place, item: &Value, arg: Option<u32>) -> Option<u32> {
    match place {
        Place::Item => vm::location(p, item).ok(),
        Place::Arg => arg,
        Place::Offset { grid, dq, dr } => {
            let Value::Cell(loc) = item else { return None };
            let (_, q, r) = p.ir.locations.get(*loc as usize)?.cell?;
            p.grids[grid as usize].get(q.checked_add(dq)?, r.checked_add(dr)?)
        }
    }
}

#[cfg(test)]
mod tests {
    //! The tiny game of vm.rs's tests (a board of 3 cells in a row, locations 1 to 3, and a
    //! supply, location 0), with a value asked in place, `free(c) = count(pieces(c)) == 0`, and a
    //! filter of the cells that take a stone as a column's cells would if the board stood on its
    //! east end: `[each c in cells(board) where free(c) and (c in [the east cell] or not
    //! free(cell(board, c.q + 1, c.r)))]`.
    use super::{compile, holds, Place, Test};
    use crate::ir::{BinOp, Expr, Program};
    use crate::value::Value;
    use crate::vm::{self, Game, Loaded};
    use serde_json::json;
    use std::sync::Arc;

    fn here(at: serde_json::Value) -> serde_json::Value {
        json!({"Builtin": ["Count", [{"Builtin": ["Pieces", [at]]}]]})
    }

    fn cell_east_of_item() -> serde_json::Value {
        json!({"Builtin": ["Cell", [{"Const": {"Grid": 0}}, {"Bin": ["Add", {"Attr": [{"Local": 0}, "Q"]},
            {"Const": {"Int": 1}}]}, {"Attr": [{"Local": 0}, "R"]}]]})
    }

    /// The landing filter's condition, asking `free` (value 1) of the item and of the cell east.
    fn landing_cond() -> serde_json::Value {
        json!({"Bin": ["And", {"Value": [1, [{"Local": 0}]]}, {"Bin": ["Or",
            {"Bin": ["In", {"Local": 0}, {"Const": {"List": [{"Cell": 3}]}}]},
            {"Not": {"Value": [1, [cell_east_of_item()]]}}]}]})
    }

    /// The tiny program with `free` (value 1), the landing filter (value 2) and the same filter
    /// with the east end's cell left out of the list (value 3): asked of the east cell when it is
    /// free, it asks `free` of a cell off the board, and fails.
    fn program() -> Arc<Loaded> {
        let mut ir: serde_json::Value = vm::tiny_program();
        let cells = json!({"Builtin": ["Cells", [{"Const": {"Grid": 0}}]]});
        let free = json!({"slots": 1, "at": 0, "body": {"Bin": ["Eq", here(json!({"Local": 0})), {"Const": {"Int": 0}}]}});
        let landing = json!({"slots": 1, "at": 0, "body": {"Filter": {"seq": cells, "slot": 0, "cond": landing_cond()}}});
        let mut off_the_board = landing_cond();
        off_the_board["Bin"][2]["Bin"][1]["Bin"][2] = json!({"Const": {"List": []}});
        let failing = json!({"slots": 1, "at": 0, "body": {"Filter": {"seq": cells, "slot": 0, "cond": off_the_board}}});
        for value in [free, landing, failing] {
            ir["values"].as_array_mut().expect("values").push(value);
        }
        Arc::new(Loaded::new(serde_json::from_value(ir).expect("the program loads")))
    }

    fn expr(e: serde_json::Value) -> Expr {
        serde_json::from_value(e).expect("an expression")
    }

    #[test]
    fn a_condition_of_places_counted_cells_listed_and_values_asked_in_place_is_compiled() {
        let program = program();
        let free = Test::Count { place: Place::Arg, op: BinOp::Eq, n: 0 };
        let value = |arg| Test::Value { value: 1, arg, body: Box::new(free.clone()) };
        let east = Place::Offset { grid: 0, dq: 1, dr: 0 };
        let expected = Test::And(
            Box::new(value(Place::Item)),
            Box::new(Test::Or(
                Box::new(Test::Among { cells: vec![0b1000], among: true }),
                Box::new(Test::Not(Box::new(value(east)))),
            )),
        );
        assert_eq!(program.tests[2].as_ref(), Some(&expected));
        // The tiny game's own `free()` is answered by counting (kept.rs), and compiled too.
        assert!(program.tests[0].is_some());
    }

    /// A list's cells read from any location on, across the words they are kept in, are the
    /// cells listed there, and none beyond the last word.
    #[test]
    fn the_cells_of_a_list_from_a_location_on_are_the_bits_of_those_listed() {
        let listed = [3, 63, 64, 100, 130];
        let mut cells = vec![0u64; 3];
        for loc in listed {
            cells[loc / 64] |= 1 << (loc % 64);
        }
        for first in 0..200 {
            let bits = super::among_cells(&cells, first);
            for i in 0..64 {
                assert_eq!(bits >> i & 1 == 1, listed.contains(&(first + i)), "{first} + {i}");
            }
        }
    }

    #[test]
    fn what_the_tree_does_not_answer_as_the_walk_does_is_not_compiled() {
        let program = program();
        let ir: &Program = &program.ir;
        let in_place = [false, true];
        let not_compiled = [
            // a value kept by the memo, not asked in place
            json!({"Value": [0, [{"Local": 0}]]}),
            // pieces of a kind
            json!({"Bin": ["Eq", {"Builtin": ["Count", [{"Builtin": ["Pieces", [{"Local": 0}, {"Const": {"KindName": 0}}]]}]]},
                {"Const": {"Int": 0}}]}),
            // a list that holds what is not a cell, a list that is not a constant
            json!({"Bin": ["In", {"Local": 0}, {"Const": {"List": [{"Int": 1}]}}]}),
            json!({"Bin": ["In", {"Local": 0}, {"Var": 0}]}),
            // a cell at other coordinates than the item's plus constants, a variable read
            json!({"Value": [1, [{"Builtin": ["Cell", [{"Const": {"Grid": 0}}, {"Attr": [{"Local": 0}, "R"]},
                {"Attr": [{"Local": 0}, "R"]}]]}]]}),
            json!({"Bin": ["Lt", here(json!({"Local": 0})), {"Var": 0}]}),
        ];
        for cond in not_compiled {
            assert_eq!(compile(ir, &in_place, 0, &expr(cond.clone())), None, "{cond}");
        }
    }

    /// An item's truth by the tree (None: no tree; `Ok(None)`: left to the walk) and by the walk.
    type Both = (Option<Result<Option<bool>, String>>, Result<bool, String>);

    /// Every item's truth, by the tree and by the walk.
    fn both(game: &mut Game, value: usize) -> Vec<Both> {
        let program = game.program.clone();
        let Expr::Filter { cond, .. } = &program.ir.values[value].body else { panic!("a filter") };
        let cells: Vec<Value> = (1..=3).map(Value::Cell).collect();
        cells
            .iter()
            .map(|x| {
                let tree = program.tests[value].as_ref().map(|t| {
                    let mut w = game.world.clone();
                    holds(&program, &mut w, t, x).map_err(|f| format!("{f:?}"))
                });
                let mut w = game.world.clone();
                let walked = vm::test(&program, &mut w, cond, &mut [x.clone()]).map_err(|f| format!("{f:?}"));
                (tree, walked)
            })
            .collect()
    }

    #[test]
    fn a_compiled_condition_holds_of_each_item_as_the_walk_finds_and_leaves_it_the_items_it_would_fail_on() {
        vm::at_every_position(&program(), 0..10, |game, seed| {
            for (tree, walked) in both(game, 2) {
                assert_eq!(tree, Some(walked.map(Some)), "seed {seed}");
            }
            for (tree, walked) in both(game, 3) {
                match walked {
                    Ok(truth) => assert_eq!(tree, Some(Ok(Some(truth))), "seed {seed}"),
                    // a free east cell asks `free` of a cell off the board: left to the walk
                    Err(_) => assert_eq!(tree, Some(Ok(None)), "seed {seed}"),
                }
            }
        });
    }

    /// The filter as the game asks it (kept item by item, by its compiled condition) and as the
    /// program's value computed afresh by walking it: the same answer, or the same error.
    #[test]
    fn a_filter_asked_by_its_compiled_condition_answers_as_walked_or_fails_as_the_walk_fails() {
        vm::at_every_position(&program(), 0..10, |game, seed| {
            let program = game.program.clone();
            for value in [2, 3] {
                let asked = vm::eval(&program, &mut game.world, &Expr::Value(value, vec![]), &mut []);
                let body = &program.ir.values[value as usize].body;
                let walked = vm::eval(&program, &mut game.world.clone(), body, &mut [Value::None]);
                assert_eq!(asked, walked, "seed {seed}, value {value}");
            }
        });
    }
}
