//! Jumps that land on a jump go where the last of the chain goes, found once when the program
//! loads. The lowering ends each branch of an `if` and each round of a loop with a jump to the
//! instruction after it, which is often a jump itself (the end of an enclosing `if`, the top of
//! a loop): Tic-Tac-Toe's turn ran three jumps in a row after each move. A jump changes nothing
//! but where the frame goes on (no step spent, nothing read or written), so going straight to the
//! end of the chain runs the same statements in the same order, one instruction fewer per hop.

use crate::ir::{CodeIr, Instr};

/// Each `Jump` and `JumpUnless` of `code` sent to the end of the chain of plain jumps its target
/// starts (a chain that goes round, which only a loop doing nothing forever makes, is left as it
/// is after as many hops as the code has instructions).
pub fn threaded(code: &mut CodeIr) {
    let plain: Vec<Option<u32>> = code
        .instrs
        .iter()
        .map(|step| match step.op {
            Instr::Jump { to } => Some(to),
            _ => None,
        })
        .collect();
    let end_of = |mut to: u32| {
        for _ in 0..plain.len() {
            match plain.get(to as usize).copied().flatten() {
                Some(next) if next != to => to = next,
                _ => break,
            }
        }
        to
    };
    for step in &mut code.instrs {
        if let Instr::Jump { to } | Instr::JumpUnless { to, .. } = &mut step.op {
            *to = end_of(*to);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::threaded;
    use crate::ir::CodeIr;

    fn code(instrs: serde_json::Value) -> CodeIr {
        let steps: Vec<serde_json::Value> = instrs
            .as_array()
            .expect("a list")
            .iter()
            .map(|op| serde_json::json!({"op": op, "at": 0}))
            .collect();
        serde_json::from_value(serde_json::json!({"params": 0, "slots": 1, "instrs": steps})).expect("code")
    }

    fn targets(code: &CodeIr) -> Vec<Option<u32>> {
        code.instrs
            .iter()
            .map(|step| match step.op {
                crate::ir::Instr::Jump { to } | crate::ir::Instr::JumpUnless { to, .. } => Some(to),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn a_jump_to_a_jump_goes_where_the_last_jump_of_the_chain_goes() {
        let truth = serde_json::json!({"Const": {"Bool": true}});
        let mut c = code(serde_json::json!([
            {"JumpUnless": {"cond": truth, "to": 3}},
            {"Jump": {"to": 2}},
            {"Jump": {"to": 3}},
            {"Jump": {"to": 5}},
            "Spend",
            "Return"
        ]));
        threaded(&mut c);
        assert_eq!(targets(&c), [Some(5), Some(5), Some(5), Some(5), None, None]);
    }

    #[test]
    fn a_chain_of_jumps_that_goes_round_is_left_going_round() {
        let mut c = code(serde_json::json!([{"Jump": {"to": 1}}, {"Jump": {"to": 0}}, {"Jump": {"to": 2}}]));
        threaded(&mut c);
        let t = targets(&c);
        assert!(t[0].is_some_and(|to| to < 2) && t[1].is_some_and(|to| to < 2) && t[2] == Some(2), "{t:?}");
    }
}
