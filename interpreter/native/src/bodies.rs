//! Declared values whose body is a small test of what stands at a place an argument names,
//! answered by a tree compiled when the program loads rather than kept by the memo: `occupied(c)
//! = count(pieces(c, token)) > 0`, `shows(c, k) = count(pieces(c, token)) > 0 and pieces(c,
//! token)[0].row == k`, asked of every cell of a grid at each move. Found again by the memo, such
//! an answer cost about 450 instructions (its arguments hashed, the entry found and checked);
//! computed by the walk, about 1,100 more; the tree reads the pile and answers in a few dozen.
//!
//! The tree is what the walk (`vm::eval` of the body) does, step by step, with the same
//! functions: the pieces gathered by `vm::gather` (the same parts read), a piece's column read by
//! `vm::attr`, compared by `vm::apply`; `and`, `or` and `not` of such tests, whose values are
//! true or false, as the walk's are. Like a value computed in place (in_place.rs), it is entered
//! within the limits of values under way, spends no step (neither does the walk of such a body),
//! and what it reads counts as read by its caller. Wherever the walk would do anything else (a
//! place that is no place, no n-th piece, a comparison that is not true or false, any error),
//! the tree gives up having changed nothing but parts read, and the value is asked as any other:
//! its answer, or its error, is the walk's.

use crate::ir::{AttrIr, BinOp, Builtin, Expr, FuncIr};
use crate::value::{Piece, Value};
use crate::vm::{self, Args, Fail, Loaded, World};

/// A body compiled (see the module's comment). Its variant a byte of its own, as `Expr`'s.
#[derive(Debug, PartialEq, Clone)]
#[repr(u8)]
pub enum Body {
    And(Box<Body>, Box<Body>),
    Or(Box<Body>, Box<Body>),
    Not(Box<Body>),
    /// `count(pieces(PLACE, KIND, OWNER)) OP N`.
    Count {
        pieces: Pieces,
        op: BinOp,
        n: i64,
    },
    /// `pieces(PLACE, KIND, OWNER)[N].COLUMN OP OPERAND`.
    Nth {
        pieces: Pieces,
        n: usize,
        column: AttrIr,
        op: BinOp,
        against: Operand,
    },
}

/// `pieces(PLACE, KIND, OWNER)` of a place an argument names, a kind given by a name or a
/// constant, and an owner given as a constant (a seat, or none).
#[derive(Debug, PartialEq, Clone)]
pub struct Pieces {
    place: u32,
    kind: Option<Operand>,
    owner: Option<Option<u32>>,
}

/// An argument of the value, by its slot, or a constant.
#[derive(Debug, PartialEq, Clone)]
pub enum Operand {
    Arg(u32),
    Const(Value),
}

/// The body of a declared value compiled, if all of it is answered by the tree exactly as the
/// walk answers it (a value of no argument reads nothing it names, and is left to the memo).
pub fn compile(func: &FuncIr) -> Option<Body> {
    body(func.slots, &func.body)
}

fn body(slots: u32, e: &Expr) -> Option<Body> {
    let both = |l: &Expr, r: &Expr| Some((Box::new(body(slots, l)?), Box::new(body(slots, r)?)));
    Some(match e {
        Expr::Bin(BinOp::And, l, r) => {
            let (l, r) = both(l, r)?;
            Body::And(l, r)
        }
        Expr::Bin(BinOp::Or, l, r) => {
            let (l, r) = both(l, r)?;
            Body::Or(l, r)
        }
        Expr::Not(inner) => Body::Not(Box::new(body(slots, inner)?)),
        Expr::Bin(op @ (BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge), l, r) => {
            match (l.as_ref(), r.as_ref()) {
                (Expr::Builtin(Builtin::Count, counted), Expr::Const(Value::Int(n))) => {
                    let [Expr::Builtin(Builtin::Pieces, args)] = counted.as_slice() else { return None };
                    Body::Count { pieces: pieces(slots, args)?, op: *op, n: *n }
                }
                (Expr::Attr(taken, column), against) if matches!(op, BinOp::Eq | BinOp::Ne) => {
                    let Expr::Index(list, at) = taken.as_ref() else { return None };
                    let (Expr::Builtin(Builtin::Pieces, args), Expr::Const(Value::Int(n))) =
                        (list.as_ref(), at.as_ref())
                    else {
                        return None;
                    };
                    Body::Nth {
                        pieces: pieces(slots, args)?,
                        n: usize::try_from(*n).ok()?,
                        column: column.clone(),
                        op: *op,
                        against: operand(slots, against)?,
                    }
                }
                _ => return None,
            }
        }
        _ => return None,
    })
}

/// `pieces(ARG, KIND, OWNER)`'s arguments, if they are of the form the tree answers.
fn pieces(slots: u32, args: &[Expr]) -> Option<Pieces> {
    let [Expr::Local(place), rest @ ..] = args else { return None };
    if *place >= slots {
        return None;
    }
    let kind = match rest.first() {
        Some(e) => Some(operand(slots, e)?),
        None => None,
    };
    let owner = match rest.get(1) {
        None => None,
        Some(Expr::Const(Value::None)) => Some(None),
        Some(Expr::Const(Value::Player(seat))) => Some(Some(*seat)),
        Some(_) => return None,
    };
    (rest.len() <= 2).then_some(Pieces { place: *place, kind, owner })
}

fn operand(slots: u32, e: &Expr) -> Option<Operand> {
    match e {
        Expr::Local(slot) if *slot < slots => Some(Operand::Arg(*slot)),
        Expr::Const(v) => Some(Operand::Const(v.clone())),
        _ => None,
    }
}

/// The value's answer by its compiled body, entered within the limits of values under way; None
/// where the walk would do otherwise (see the module's comment).
pub(crate) fn asked(
    p: &Loaded,
    w: &mut World,
    value: u32,
    b: &Body,
    args: &Args,
) -> Result<Option<Value>, Fail> {
    vm::entered(p, w, value)?;
    let truth = at(p, w, b, args);
    w.calls -= 1;
    Ok(truth.map(Value::Bool))
}

fn at(p: &Loaded, w: &mut World, b: &Body, args: &Args) -> Option<bool> {
    Some(match b {
        Body::And(l, r) => at(p, w, l, args)? && at(p, w, r, args)?,
        Body::Or(l, r) => at(p, w, l, args)? || at(p, w, r, args)?,
        Body::Not(inner) => !at(p, w, inner, args)?,
        Body::Count { pieces, op, n } => vm::holds(*op, gathered(p, w, pieces, args, |_, _| {})?, *n),
        Body::Nth { pieces, n, column, op, against } => {
            let (mut nth, mut seen) = (None, 0);
            gathered(p, w, pieces, args, |loc, pc| {
                if seen == *n {
                    nth = Some(Value::Piece(loc, *pc));
                }
                seen += 1;
            })?;
            let value = vm::attr(p, w, nth?, column).ok()?;
            let against = match against {
                Operand::Arg(slot) => arg(args, *slot)?.clone(),
                Operand::Const(v) => v.clone(),
            };
            match vm::apply(p, w, *op, value, against).ok()? {
                Value::Bool(truth) => truth,
                _ => return None,
            }
        }
    })
}

/// The pieces `pieces(...)` finds, each handed to `found`, and how many, as the walk gathers
/// them.
fn gathered(
    p: &Loaded,
    w: &mut World,
    pieces: &Pieces,
    args: &Args,
    found: impl FnMut(u32, &Piece),
) -> Option<i64> {
    let place = arg(args, pieces.place)?;
    let kind = match &pieces.kind {
        Some(Operand::Arg(slot)) => Some(arg(args, *slot)?),
        Some(Operand::Const(v)) => Some(v),
        None => None,
    };
    vm::gather(p, w, place, kind, pieces.owner, found).ok()
}

/// The argument in a slot of the value's names (slots past the arguments are none).
fn arg(args: &Args, slot: u32) -> Option<&Value> {
    match (args, slot) {
        (Args::One(v), 0) | (Args::Two(v, _), 0) | (Args::Two(_, v), 1) => Some(v),
        (Args::Many(values), i) => values.get(i as usize),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    //! The tiny game of vm.rs's tests: a supply (location 0) and a board of 3 cells (locations
    //! 1 to 3), stones of each of the two seats moving from the supply to the cells.
    use super::{asked, compile};
    use crate::ir::FuncIr;
    use crate::value::Value;
    use crate::vm::{self, Args, Loaded};
    use serde_json::json;
    use std::sync::Arc;

    fn value(body: serde_json::Value) -> FuncIr {
        FuncIr { slots: 2, body: serde_json::from_value(body).expect("an expression"), at: 0 }
    }

    fn stones(owner: Option<serde_json::Value>) -> serde_json::Value {
        let mut args = vec![json!({"Local": 0}), json!({"Const": {"KindName": 0}})];
        args.extend(owner);
        json!({"Builtin": ["Pieces", args]})
    }

    fn counted(pieces: serde_json::Value, op: &str, n: i64) -> serde_json::Value {
        json!({"Bin": [op, {"Builtin": ["Count", [pieces]]}, {"Const": {"Int": n}}]})
    }

    fn nth_owner(pieces: serde_json::Value, n: i64, op: &str) -> serde_json::Value {
        json!({"Bin": [op, {"Attr": [{"Index": [pieces, {"Const": {"Int": n}}]}, "Owner"]}, {"Local": 1}]})
    }

    /// At every position of random games, at every place and for either seat, a compiled body's
    /// answer is the walk's value, having read the same parts; where it gives up (no such piece),
    /// the walk is what answers (here, with its error).
    #[test]
    fn a_compiled_body_answers_as_the_walk_at_every_position() {
        let program: Arc<Loaded> = Arc::new(Loaded::new(vm::tiny_program()));
        let bodies = [
            counted(stones(None), "Gt", 0),
            json!({"Bin": ["And", counted(stones(None), "Gt", 0), nth_owner(stones(None), 0, "Eq")]}),
            json!({"Bin": ["Or", {"Not": counted(stones(None), "Ge", 2)}, nth_owner(stones(None), 1, "Ne")]}),
            json!({"Bin": ["And", counted(stones(Some(json!({"Const": "None"}))), "Eq", 0),
                counted(stones(Some(json!({"Const": {"Player": 1}}))), "Lt", 3)]}),
            nth_owner(stones(None), 1, "Eq"),
        ];
        let (mut answered, mut gave_up) = (0, 0);
        for body in bodies {
            let func = value(body.clone());
            let compiled = compile(&func).unwrap_or_else(|| panic!("compiles: {body}"));
            vm::at_every_position(&program, 0..6, |game, _| {
                let places = [Value::Zone(0), Value::Cell(1), Value::Cell(2), Value::Cell(3)];
                for place in places {
                    for seat in [Value::Player(0), Value::Player(1)] {
                        let w = &mut game.world;
                        let args = Args::Two(place.clone(), seat.clone());
                        w.memo.begin();
                        let by_tree = asked(&program, w, 0, &compiled, &args).expect("no limit");
                        let tree_read = w.memo.end();
                        w.memo.begin();
                        let walked = vm::eval(&program, w, &func.body, &mut [place.clone(), seat]);
                        let walk_read = w.memo.end();
                        match by_tree {
                            Some(answer) => {
                                answered += 1;
                                assert_eq!(walked, Ok(answer), "{body}");
                                assert_eq!(tree_read, walk_read, "{body}");
                            }
                            None => {
                                // Here, always where the walk fails: no second stone.
                                gave_up += 1;
                                assert!(walked.is_err(), "{body}");
                            }
                        }
                    }
                }
            });
        }
        assert!(answered > 100 && gave_up > 0, "{answered} answered, {gave_up} given up");
    }

    /// A body that does anything else is left to the memo and the walk.
    #[test]
    fn a_body_of_another_form_is_not_compiled() {
        let others = [
            json!({"Bin": ["Gt", {"Bin": ["Add", {"Builtin": ["Count", [stones(None)]]}, {"Const": {"Int": 1}}]},
                {"Const": {"Int": 0}}]}),
            counted(json!({"Builtin": ["Pieces", [{"Const": {"Zone": 0}}]]}), "Gt", 0),
            counted(stones(Some(json!({"Local": 1}))), "Gt", 0),
            json!({"Builtin": ["Count", [stones(None)]]}),
            nth_owner(stones(None), -1, "Eq"),
        ];
        for body in others {
            assert!(compile(&value(body.clone())).is_none(), "{body}");
        }
    }
}
