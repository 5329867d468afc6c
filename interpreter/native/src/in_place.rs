//! Which declared values are computed where they are asked rather than kept by the memo: those
//! whose answer costs less to find again than to look up. Looking an answer up hashes its
//! arguments, finds the entry and checks that nothing it read has changed since; keeping one
//! hashes them again and stores them. A value whose body is a few operations on names and
//! constants, and at most counts the pieces of a place (`free(c) = count(pieces(c)) == 0`,
//! asked for each cell of a board inside a filter at every move), pays more for that than for
//! its answer (docs/benchmarks.md, a thirteenth round). Its answer is the same either way: what
//! it reads counts as read by its caller, as a kept answer's reads do; it spends no step, as
//! neither does a value found in the memo; and it counts towards the limits of values under way
//! as one computed does.

use crate::ir::{BinOp, Builtin, Expr};

/// The most operations a body asked in place has.
const FEW_OPERATIONS: usize = 8;

/// Whether a value with this body is computed where it is asked (see the module's comment).
pub fn asked_in_place(body: &Expr) -> bool {
    let mut operations = 0;
    cheap(body, &mut operations) && operations <= FEW_OPERATIONS
}

/// Whether an expression is made only of cheap operations, each counted in `operations`.
fn cheap(e: &Expr, operations: &mut usize) -> bool {
    *operations += 1;
    match e {
        Expr::Const(_) | Expr::Local(_) | Expr::Var(_) | Expr::Current | Expr::PlayerCount => true,
        Expr::Neg(inner) | Expr::Not(inner) => cheap(inner, operations),
        // `in` goes through a list: as long as the list.
        Expr::Bin(BinOp::In | BinOp::NotIn, ..) => false,
        Expr::Bin(_, l, r) => cheap(l, operations) && cheap(r, operations),
        Expr::If(c, t, o) => cheap(c, operations) && cheap(t, operations) && cheap(o, operations),
        // How many pieces one place holds (or a list of places: as long as the list, and so
        // is hashing it), without a kind or an owner to test each piece against.
        Expr::Builtin(Builtin::Count, counted) => match counted.as_slice() {
            [Expr::Builtin(Builtin::Pieces, at)] => match at.as_slice() {
                [place] => cheap(place, operations),
                _ => false,
            },
            _ => false,
        },
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::asked_in_place;
    use crate::ir::Expr;

    fn expr(json: serde_json::Value) -> Expr {
        serde_json::from_value(json).expect("an expression")
    }

    fn pieces_here() -> serde_json::Value {
        serde_json::json!({"Builtin": ["Count", [{"Builtin": ["Pieces", [{"Local": 0}]]}]]})
    }

    #[test]
    fn a_value_of_a_few_operations_on_names_and_a_places_count_is_asked_in_place() {
        let free = serde_json::json!({"Bin": ["Eq", pieces_here(), {"Const": {"Int": 0}}]});
        assert!(asked_in_place(&expr(free)));
        let either = serde_json::json!({"If": [{"Not": {"Var": 0}}, {"Const": {"Bool": true}},
            {"Bin": ["Gt", {"Local": 1}, {"Const": {"Int": 2}}]}]});
        assert!(asked_in_place(&expr(either)));
    }

    /// What goes through a list, calls another value, tests each piece against a kind or an
    /// owner, or is longer than a few operations, is kept by the memo.
    #[test]
    fn a_value_that_goes_through_a_list_or_calls_another_is_kept() {
        let cells = serde_json::json!({"Builtin": ["Cells", [{"Const": {"Grid": 0}}]]});
        let free = serde_json::json!({"Bin": ["Eq", pieces_here(), {"Const": {"Int": 0}}]});
        let kept = [
            serde_json::json!({"Filter": {"seq": cells, "slot": 0, "cond": free}}),
            serde_json::json!({"Value": [0, [{"Local": 0}]]}),
            serde_json::json!({"Bin": ["In", {"Local": 0}, {"Local": 1}]}),
            serde_json::json!({"Builtin": ["Count", [{"Builtin": ["Pieces", [{"Local": 0}, {"Const": {"KindName": 0}}]]}]]}),
            serde_json::json!({"Bin": ["Add", {"Bin": ["Add", pieces_here(), pieces_here()]},
                {"Bin": ["Add", pieces_here(), pieces_here()]}]}),
        ];
        for body in kept {
            assert!(!asked_in_place(&expr(body.clone())), "{body}");
        }
    }
}
