//! A declared value's answers kept by what its body reads of its arguments, not by the arguments
//! themselves: `touches(p, b) = ... b.old ... b.new.kind ...`, asked of every side of every
//! place a shape could go, reads of its side `b` only the cell beyond it and the kind of the
//! row laid against it. Kept by the side, an answer is found again only for that very side,
//! which the next placement does not share; kept by (the cell, the kind), it holds for every
//! side of every placement that meets that cell with a row of that kind.
//!
//! An argument is narrowed so where the body names it only as the start of attribute paths
//! (`b.old`, `b.new.kind`), outside any supposition, two of them or one of two names at least
//! and none that makes a list: its key is then the values of the shortest of those paths
//! (`b.new.kind.group` is read from `b.new.kind`), read where the value is asked.
//! Two arguments whose paths have equal values are told apart by nothing the body does with
//! them, so it computes the same answer from the same position; the memo still checks that
//! nothing the answer read has changed since. Reading the paths reads what they read (the
//! cell beyond a side, its row): the asking value counts it as read, as it would an argument
//! it computed itself. A path that cannot be read of an argument (a side asked of a number) is
//! no key: that asking is computed without the memo, and fails or not as the body does.

use crate::ir::{AttrIr, Expr, FuncIr};
use crate::value::Value;
use crate::vm::{Args, Fail, Key, Loaded, World};

/// The most paths an argument is keyed by: the key is made, hashed and compared at each asking,
/// and one of many values (a row keyed by seven of its columns) costs more than the answers
/// it could share save.
const FEW_PATHS: usize = 2;

/// The attributes that make a list where they are read (an area's `cells`, `blocks` and
/// `gaps`, areas.rs; a placement's `cells`, `shape` and `under`, placement.rs; a route's
/// `passed` and `path`): a key of a list is made and hashed item by item at each asking, which
/// costs what the body's own reading of it would.
const LISTING: [&str; 7] = ["cells", "blocks", "gaps", "shape", "under", "passed", "path"];

/// How a value's arguments are keyed: each argument (by its slot) whole, or by the values of
/// attribute paths read from it.
#[derive(Debug, PartialEq)]
pub(crate) struct Narrowing {
    args: Vec<Keyed>,
}

/// How one argument is keyed.
#[derive(Debug, Clone, PartialEq)]
enum Keyed {
    Whole,
    By(Vec<Vec<AttrIr>>),
}

/// How a slot of a value's names is used by its body.
#[derive(Debug, Clone)]
enum Use {
    /// Not named (yet).
    Unused,
    /// Only as the start of these attribute paths (each as written, the innermost name first).
    Paths(Vec<Vec<AttrIr>>),
    /// Otherwise: whole, bound by the body, or under a supposition.
    Whole,
}

impl Narrowing {
    /// How a value with this body keys its arguments, if some argument is narrowed; None keeps
    /// them whole. A filter is kept item by item by its own key (kept.rs): not narrowed.
    /// `columns` names the columns the body reads (`Program::columns`).
    pub(crate) fn of(func: &FuncIr, columns: &[String]) -> Option<Narrowing> {
        if matches!(func.body, Expr::Filter { .. }) {
            return None;
        }
        let mut uses = vec![Use::Unused; func.slots as usize];
        walk(&func.body, &mut uses, false);
        let lists = |a: &AttrIr| match a {
            AttrIr::Column(c) => columns.get(*c as usize).is_some_and(|n| LISTING.contains(&n.as_str())),
            AttrIr::Shaped(word) => LISTING.contains(&word.as_str()),
            _ => false,
        };
        let small = |paths: &[Vec<AttrIr>]| paths.len() <= FEW_PATHS && !paths.iter().flatten().any(lists);
        // One name alone read of an argument (a player's seat, a row's number) mostly tells
        // arguments apart as they are: its key would share no answer and cost its reading at
        // each asking (+2% of a bundled game's instructions, docs/benchmarks.md).
        let apart = |paths: &[Vec<AttrIr>]| paths.len() > 1 || paths.iter().any(|path| path.len() > 1);
        let args: Vec<Keyed> = uses
            .into_iter()
            .map(|u| match u {
                Use::Paths(paths) => {
                    let paths = shortest(paths);
                    if small(&paths) && apart(&paths) {
                        Keyed::By(paths)
                    } else {
                        Keyed::Whole
                    }
                }
                Use::Unused | Use::Whole => Keyed::Whole,
            })
            .collect();
        args.iter().any(|k| *k != Keyed::Whole).then_some(Narrowing { args })
    }

    /// The key an asking of the value is kept under: each narrowed argument's paths read, in
    /// place of it. Err where a path cannot be read of the argument given.
    pub(crate) fn key(&self, p: &Loaded, w: &mut World, key: &Key) -> Result<Key, Fail> {
        let (first, second, rest): (Option<&Value>, Option<&Value>, &[Value]) = match &key.1 {
            Args::One(v) => (Some(v), None, &[]),
            Args::Two(a, b) => (Some(a), Some(b), &[]),
            Args::Many(values) => (None, None, values),
        };
        // One or two values (most keys) made without a list.
        let mut out: Vec<Value> = Vec::new();
        let mut few: [Value; 2] = Default::default();
        let mut n = 0;
        for (i, v) in first.into_iter().chain(second).chain(rest).enumerate() {
            let read: &[Vec<AttrIr>] = match self.args.get(i) {
                Some(Keyed::By(paths)) => paths,
                _ => &[],
            };
            let mut push = |v: Value| {
                if n < 2 {
                    few[n] = v;
                } else {
                    if n == 2 {
                        out.extend(few.iter_mut().map(std::mem::take));
                    }
                    out.push(v);
                }
                n += 1;
            };
            if read.is_empty() {
                push(v.clone());
            }
            for path in read {
                let mut at = v.clone();
                for name in path {
                    at = crate::vm::attr(p, w, at, name)?;
                }
                push(at);
            }
        }
        let [a, b] = few;
        let args = match n {
            1 => Args::One(a),
            2 => Args::Two(a, b),
            _ => Args::Many(out),
        };
        Ok((key.0, args))
    }
}

/// The paths no other path is the start of, in the order first named.
fn shortest(paths: Vec<Vec<AttrIr>>) -> Vec<Vec<AttrIr>> {
    let mut kept: Vec<Vec<AttrIr>> = Vec::new();
    for path in &paths {
        let covered = paths.iter().any(|other| other.len() < path.len() && path.starts_with(other));
        if !covered && !kept.contains(path) {
            kept.push(path.clone());
        }
    }
    kept
}

/// A slot named whole (or bound, or under a supposition).
fn whole(uses: &mut [Use], slot: u32) {
    if let Some(u) = uses.get_mut(slot as usize) {
        *u = Use::Whole;
    }
}

/// How the body uses each slot; `supposed`: under a supposition, where a path may read
/// another position than the one the value is asked in.
fn walk(e: &Expr, uses: &mut [Use], supposed: bool) {
    match e {
        Expr::Local(slot) => whole(uses, *slot),
        Expr::Attr(..) => {
            // The chain of names down to what it is read of.
            let mut path = Vec::new();
            let mut at = e;
            while let Expr::Attr(obj, name) = at {
                path.push(name.clone());
                at = obj;
            }
            match at {
                Expr::Local(slot) if !supposed => {
                    path.reverse();
                    if let Some(u) = uses.get_mut(*slot as usize) {
                        match u {
                            Use::Unused => *u = Use::Paths(vec![path]),
                            Use::Paths(paths) => paths.push(path),
                            Use::Whole => {}
                        }
                    }
                }
                other => walk(other, uses, supposed),
            }
        }
        // What a supposition is asked of reads another position than the one the value is asked in.
        Expr::AsIfLaid(a, b) => {
            walk(a, uses, supposed);
            walk(b, uses, true);
        }
        Expr::AsIfMoved(a, b, c) => {
            walk(a, uses, supposed);
            walk(b, uses, supposed);
            walk(c, uses, true);
        }
        _ => {
            // A name an expression binds holds each item whole.
            if let Expr::Filter { slot, .. }
            | Expr::Ranked { slot, .. }
            | Expr::Map { slot, .. }
            | Expr::Regions { slot, .. } = e
            {
                whole(uses, *slot);
            }
            crate::once::each_inner(e, &mut |inner| walk(inner, uses, supposed));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Keyed, Narrowing};
    use crate::ir::{AttrIr, FuncIr};
    use crate::value::{Piece, Value};
    use crate::vm::{FailKind, Game, Loaded};
    use serde_json::json;
    use std::sync::Arc;

    /// The columns the bodies below read, by index.
    fn columns() -> Vec<String> {
        ["kind", "group", "cells"].map(String::from).to_vec()
    }

    fn value(slots: u32, body: serde_json::Value) -> FuncIr {
        serde_json::from_value(json!({"slots": slots, "at": 0, "body": body})).expect("a value")
    }

    fn attr(of: serde_json::Value, name: serde_json::Value) -> serde_json::Value {
        json!({"Attr": [of, name]})
    }

    fn local(slot: u32) -> serde_json::Value {
        json!({"Local": slot})
    }

    fn shaped(word: &str) -> serde_json::Value {
        json!({"Shaped": word})
    }

    fn eq(a: serde_json::Value, b: serde_json::Value) -> serde_json::Value {
        json!({"Bin": ["Eq", a, b]})
    }

    fn and(a: serde_json::Value, b: serde_json::Value) -> serde_json::Value {
        json!({"Bin": ["And", a, b]})
    }

    #[test]
    fn an_argument_read_only_through_attribute_paths_is_keyed_by_the_shortest_of_them() {
        // touches(b, c) = b.new.kind == c.q and b.new.kind.group == b.old
        let new_kind = attr(attr(local(0), shaped("new")), json!({"Column": 0}));
        let body = and(
            eq(new_kind.clone(), attr(local(1), json!("Q"))),
            eq(attr(new_kind, json!({"Column": 1})), attr(local(0), shaped("old"))),
        );
        let narrowing = Narrowing::of(&value(2, body), &columns()).expect("narrowed");
        let new_kind = vec![AttrIr::Shaped("new".into()), AttrIr::Column(0)];
        // `c` is read by one name alone (`c.q`): kept whole, as a player read by its seat.
        assert_eq!(
            narrowing.args,
            [Keyed::By(vec![new_kind, vec![AttrIr::Shaped("old".into())]]), Keyed::Whole]
        );
        let seat = eq(attr(local(0), json!("Seat")), local(1));
        assert_eq!(Narrowing::of(&value(2, seat), &columns()), None);
    }

    #[test]
    fn an_argument_named_whole_bound_or_read_under_a_supposition_is_kept_whole() {
        let old = || attr(local(0), shaped("old"));
        // Named whole once, as another value's argument: whole, however else it is read.
        let whole = and(eq(old(), local(1)), json!({"Value": [0, [local(0)]]}));
        assert_eq!(Narrowing::of(&value(2, whole), &columns()), None);
        // Read under a supposition, where the path may read another position.
        let supposed = json!({"AsIfLaid": [local(1), eq(old(), json!({"Const": {"Int": 1}}))]});
        assert_eq!(Narrowing::of(&value(2, supposed), &columns()), None);
        // Bound by the body (a filter's item), or a filter kept item by item.
        let map = json!({"Map": {"seq": local(1), "slot": 0, "e": old(), "cond": null}});
        assert_eq!(Narrowing::of(&value(2, map), &columns()), None);
        let filter = json!({"Filter": {"seq": local(1), "slot": 2, "cond": eq(old(), local(2))}});
        assert_eq!(Narrowing::of(&value(3, filter), &columns()), None);
    }

    #[test]
    fn an_argument_read_as_a_list_or_by_many_paths_is_kept_whole() {
        let listed = eq(attr(local(0), shaped("cells")), local(1));
        assert_eq!(Narrowing::of(&value(2, listed), &columns()), None);
        let column_named_cells = eq(attr(local(0), json!({"Column": 2})), local(1));
        assert_eq!(Narrowing::of(&value(2, column_named_cells), &columns()), None);
        let three = and(
            eq(attr(local(0), json!("Q")), attr(local(0), json!("R"))),
            eq(attr(local(0), json!("Owner")), local(1)),
        );
        assert_eq!(Narrowing::of(&value(2, three), &columns()), None);
    }

    /// The tiny game of vm.rs's tests, with `first_owns(x) = x.owner == players[0] and
    /// x.kind == x.kind` as its last value (two names read of `x`).
    fn tiny_with_a_narrowed_value() -> (Arc<Loaded>, u32) {
        let mut ir: serde_json::Value = crate::vm::tiny_program();
        let first = json!({"Index": [{"Players": null}, {"Const": {"Int": 0}}]});
        let kind = || attr(local(0), json!("Kind"));
        let body = and(eq(attr(local(0), json!("Owner")), first), eq(kind(), kind()));
        let values = ir["values"].as_array_mut().expect("values");
        values.push(json!({"slots": 1, "at": 0, "body": body}));
        let index = values.len() as u32 - 1;
        (Arc::new(Loaded::new(serde_json::from_value(ir).expect("the program loads"))), index)
    }

    #[test]
    fn arguments_alike_in_what_the_value_reads_of_them_share_its_answer() {
        let (program, first_owns) = tiny_with_a_narrowed_value();
        let mut game = Game::new(program.clone(), 2, 0, 1_000, false);
        let piece = |loc: u32, owner: u32| Value::Piece(loc, Piece { kind: 0, owner: Some(owner) });
        let mut ask = |x: Value| {
            let asked = crate::ir::Expr::Value(first_owns, vec![crate::ir::Expr::Const(x)]);
            let answer = crate::vm::eval(&program, &mut game.world, &asked, &mut []).map_err(|f| f.kind);
            (answer, game.world.memo.len())
        };
        let (answer, kept) = ask(piece(1, 0));
        assert_eq!(answer, Ok(Value::Bool(true)));
        // Another piece of the same owner, elsewhere: the answer kept for the first.
        assert_eq!(ask(piece(2, 0)), (Ok(Value::Bool(true)), kept));
        // Another owner: another answer, kept beside it.
        assert_eq!(ask(piece(2, 1)), (Ok(Value::Bool(false)), kept + 1));
        // An argument without the attribute: computed without the memo, failing as the body does.
        let (answer, after) = ask(Value::Int(3));
        assert!(matches!(answer, Err(FailKind::Error(ref m)) if m.contains("owner")), "{answer:?}");
        assert_eq!(after, kept + 1);
    }
}
