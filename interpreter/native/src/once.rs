//! A declared value asked in a loop's condition with arguments the loop does not change, found
//! once per loop rather than once per item: `may choose s from track where s.number >
//! progress(p) and not free(s)` asks `progress(p)` of each of the track's spaces, the same
//! question with the same answer, each asking costing more than the comparison around it (which
//! then leaves the compiled path of names and constants, `vm::compared`, for the general one).
//!
//! At load, such an asking in the condition of a statement's loop (`for each`, `choose`,
//! `pick`) is put in a slot of its own (the code's frame grows by one per asking), and a second
//! copy of the condition reads that slot. The loop tests its first item with the condition as
//! written, then asks the value once into its slot (the answer the first item's test just
//! found), tests every later item with the copy, and empties the slot after its last (a frame
//! holds nothing the position does not). An asking is
//! taken out only where the condition asks it of every item whatever the item is: at its top,
//! under `not`, in either side of a comparison or an operation, and in the left side of `and` or
//! `or` (a right side may not be asked: `x.ok and f(p)`); of a list with no item it asks nothing,
//! as the loop as written does. Its arguments are names (other than the loop's own, and no name
//! something in the condition binds) and constants, which the loop does not change, and
//! statements change the position only between loops: the answer is the one each item's asking
//! would have found, and only the first asking of a loop was ever computed (the memo finds the
//! others, spending no steps), so the steps and reads are the loop's as written. The first item
//! is tested as written, so a condition that fails there fails with the walk's error, in the
//! walk's order; a list of one item never asks again.

use crate::ir::{BinOp, CodeIr, Expr, Instr};

/// What a loop asks once: each asking with the slot its answer is put in, and the loop's
/// condition as written (the first item's test), where the instruction's own now reads the slots.
#[derive(Debug, Default)]
pub struct Once {
    pub asked: Vec<(u32, Expr)>,
    pub written: Option<Expr>,
}

/// Each instruction's askings made once per loop (none for most), the code's loop conditions
/// rewritten to read them and its frame grown to hold them.
pub fn found_once(code: &mut CodeIr) -> Vec<Once> {
    let mut slots = code.slots;
    let once = code
        .instrs
        .iter_mut()
        .map(|step| match &mut step.op {
            Instr::ForStart { cond: Some(cond), var, .. }
            | Instr::Choose { cond: Some(cond), var, .. }
            | Instr::Pick { cond: Some(cond), var, .. } => {
                let mut bound = vec![*var];
                binds(cond, &mut bound);
                let written = cond.clone();
                let mut asked = Vec::new();
                asked_always(cond, &bound, &mut slots, &mut asked);
                let written = (!asked.is_empty()).then_some(written);
                Once { asked, written }
            }
            _ => Once::default(),
        })
        .collect();
    code.slots = slots;
    once
}

/// The askings every item's test makes, taken out into new slots (from `slots` on).
fn asked_always(e: &mut Expr, bound: &[u32], slots: &mut u32, once: &mut Vec<(u32, Expr)>) {
    match e {
        Expr::Value(_, args) if args.iter().all(|a| unchanged(a, bound)) => {
            let asked = std::mem::replace(e, Expr::Local(*slots));
            once.push((*slots, asked));
            *slots += 1;
        }
        Expr::Bin(BinOp::And | BinOp::Or, left, _) => asked_always(left, bound, slots, once),
        Expr::Bin(_, left, right) => {
            asked_always(left, bound, slots, once);
            asked_always(right, bound, slots, once);
        }
        Expr::Not(inner) | Expr::Neg(inner) => asked_always(inner, bound, slots, once),
        _ => {}
    }
}

/// Whether an argument is the same for every item: a constant, or a name neither the loop nor
/// its condition binds.
fn unchanged(e: &Expr, bound: &[u32]) -> bool {
    match e {
        Expr::Const(_) => true,
        Expr::Local(slot) => !bound.contains(slot),
        _ => false,
    }
}

/// The slots an expression binds (the names of its lists' items), added to `bound`.
fn binds(e: &Expr, bound: &mut Vec<u32>) {
    match e {
        Expr::Filter { slot, .. }
        | Expr::Ranked { slot, .. }
        | Expr::Map { slot, .. }
        | Expr::Regions { slot, .. } => bound.push(*slot),
        _ => {}
    }
    each_inner(e, &mut |inner| binds(inner, bound));
}

/// Each expression directly inside another.
pub(crate) fn each_inner(e: &Expr, f: &mut impl FnMut(&Expr)) {
    match e {
        Expr::Const(_)
        | Expr::Local(_)
        | Expr::Var(_)
        | Expr::Players
        | Expr::Current
        | Expr::PlayerCount => {}
        Expr::Attr(a, _)
        | Expr::Neg(a)
        | Expr::Not(a)
        | Expr::NextTo(a, _)
        | Expr::Side(a, _)
        | Expr::GridOf(a, _)
        | Expr::ZoneOf(a, ..)
        | Expr::Owned(a, _)
        | Expr::Areas { of: a, .. }
        | Expr::At(_, a) => f(a),
        Expr::Index(a, b) | Expr::Bin(_, a, b) | Expr::OwnedRow(a, _, b) | Expr::AsIfLaid(a, b) => {
            f(a);
            f(b);
        }
        Expr::If(a, b, c) | Expr::AsIfMoved(a, b, c) => {
            f(a);
            f(b);
            f(c);
        }
        Expr::List(es) | Expr::Value(_, es) | Expr::Builtin(_, es) => es.iter().for_each(f),
        Expr::Filter { seq, cond, .. } => {
            f(seq);
            f(cond);
        }
        Expr::Ranked { items, keys, .. } => {
            f(items);
            keys.iter().for_each(f);
        }
        Expr::Map { seq, e, cond, .. } => {
            f(seq);
            f(e);
            if let Some(c) = cond {
                f(c);
            }
        }
        Expr::Regions { seq, key, .. } => {
            f(seq);
            f(key);
        }
        Expr::FewestSteps { start, goals, args, .. } => {
            f(start);
            f(goals);
            args.iter().for_each(f);
        }
        Expr::Placements { grid, shape, .. } => {
            f(grid);
            f(shape);
        }
        Expr::Routes { start, args, .. } => {
            f(start);
            args.iter().for_each(f);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::found_once;
    use crate::ir::{CodeIr, Expr, Instr};
    use serde_json::json;

    fn local(slot: u32) -> serde_json::Value {
        json!({"Local": slot})
    }

    fn ask(value: u32, args: Vec<serde_json::Value>) -> serde_json::Value {
        json!({"Value": [value, args]})
    }

    fn bin(op: &str, a: serde_json::Value, b: serde_json::Value) -> serde_json::Value {
        json!({"Bin": [op, a, b]})
    }

    /// A code of 3 slots (a player in 0, the loop's item in 1) whose one instruction is a loop
    /// over a constant list with this condition.
    fn looping(cond: serde_json::Value) -> CodeIr {
        let seq = json!({"Const": {"List": [{"Int": 1}, {"Int": 2}]}});
        let op = json!({"ForStart": {"seq": seq, "cond": cond, "var": 1, "list": 2, "index": 3}});
        serde_json::from_value(json!({"params": 1, "slots": 4, "instrs": [{"at": 0, "op": op}]}))
            .expect("a code")
    }

    fn cond(code: &CodeIr) -> &Expr {
        match &code.instrs[0].op {
            Instr::ForStart { cond: Some(cond), .. } => cond,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_value_asked_of_every_item_with_arguments_the_loop_does_not_change_is_asked_once() {
        // [each x in [1, 2] where x > reach(p) and free(x)]: reach(p), in a slot of its own.
        let mut code =
            looping(bin("And", bin("Gt", local(1), ask(7, vec![local(0)])), ask(8, vec![local(1)])));
        let once = found_once(&mut code);
        assert_eq!(code.slots, 5);
        assert!(
            matches!(once[0].asked.as_slice(), [(4, Expr::Value(7, args))] if matches!(args[..], [Expr::Local(0)]))
        );
        // The first item is tested by the condition as written.
        let Some(Expr::Bin(_, written, _)) = &once[0].written else { panic!() };
        assert!(matches!(written.as_ref(), Expr::Bin(_, _, r) if matches!(r.as_ref(), Expr::Value(7, _))));
        // The condition reads the slot; the asking of the item stays where it was.
        let Expr::Bin(_, left, right) = cond(&code) else { panic!() };
        assert!(matches!(left.as_ref(), Expr::Bin(_, _, r) if matches!(r.as_ref(), Expr::Local(4))));
        assert!(matches!(right.as_ref(), Expr::Value(8, _)));
    }

    #[test]
    fn a_value_the_condition_may_not_ask_or_asks_of_what_changes_is_asked_as_written() {
        // In the right side of `and` (the left may be false), of the item, of a constant and
        // the item, of a name the condition binds, or inside another value's arguments.
        let bound = json!({"Filter": {"seq": local(0), "slot": 3, "cond": bin("Eq", local(3), ask(9, vec![local(3)]))}});
        for cond in [
            bin("And", ask(8, vec![local(1)]), ask(7, vec![local(0)])),
            bin("Or", local(1), ask(7, vec![])),
            bin("Eq", ask(7, vec![json!({"Const": {"Int": 1}}), local(1)]), local(0)),
            bin("In", ask(7, vec![local(3)]), bound),
            ask(8, vec![ask(7, vec![local(0)])]),
        ] {
            let mut code = looping(cond.clone());
            let once = found_once(&mut code);
            assert!(once[0].asked.is_empty() && once[0].written.is_none(), "{cond}");
            assert_eq!(code.slots, 4, "{cond}");
        }
        // At the top, under `not`, in an operation: taken out, one slot each.
        let mut code =
            looping(json!({"Not": bin("Add", ask(7, vec![]), ask(8, vec![json!({"Const": {"Int": 2}})]))}));
        assert_eq!(found_once(&mut code)[0].asked.len(), 2);
        assert_eq!(code.slots, 6);
    }
}
