//! `as_if_moved(PIECES, PLACE, X)`: a question about the position some moves would make,
//! asked without making them (interpreter/layers.py's `supposing_moved`). The pieces leave
//! their places and join PLACE, X is asked, and every place they touched holds again exactly
//! what it held, in its order. No trigger runs; answers found meanwhile are kept apart and
//! forgotten (`World::apart`), as `as_if_laid`'s are.

use crate::value::{Piece, Value};
use crate::vm::{location, Fail, FailKind, Loaded, World};

fn fail<T>(message: impl Into<String>) -> Result<T, Fail> {
    Err(Fail { kind: FailKind::Error(message.into()), at: None })
}

/// The pieces a supposition moves, each at its place: one piece, or a list of them.
fn pieces(what: &Value) -> Result<Vec<(u32, Piece)>, Fail> {
    let given = match what {
        Value::List(items) => items.as_ref().clone(),
        one => vec![one.clone()],
    };
    given
        .into_iter()
        .map(|v| match v {
            Value::Piece(loc, piece) => Ok((loc, piece)),
            other => fail(format!("only pieces can move, not {}", other.a_kind())),
        })
        .collect()
}

/// X as it would be were the pieces `what` moved to `to`: each must be where it was found,
/// and named once (so that they can all move).
pub fn as_if_moved(
    p: &Loaded,
    w: &mut World,
    what: &Value,
    to: &Value,
    then: impl FnOnce(&mut World) -> Result<Value, Fail>,
) -> Result<Value, Fail> {
    let moving = pieces(what)?;
    let found = match to {
        Value::List(_) | Value::Bool(_) => None,
        place => location(p, place).ok().filter(|loc| (*loc as usize) < w.locs.len()),
    };
    let Some(to) = found else {
        return fail(format!("as_if_moved moves pieces to one place, not {}", to.a_kind()));
    };
    // Every place touched, as it is: what each holds again afterwards.
    let mut saved: Vec<(u32, Vec<Piece>)> = Vec::new();
    for loc in moving.iter().map(|(loc, _)| *loc).chain([to]) {
        if !saved.iter().any(|(at, _)| *at == loc) {
            let Some(pile) = w.locs.get(loc as usize) else {
                return fail("as_if_moved: a piece is not where it was found");
            };
            saved.push((loc, pile.clone()));
        }
    }
    // Each piece where it was found, once: checked on copies, before anything moves.
    let mut left = saved.clone();
    for (loc, piece) in &moving {
        let Some((_, pile)) = left.iter_mut().find(|(at, _)| at == loc) else { continue };
        let Some(i) = pile.iter().position(|x| x == piece) else {
            return fail("as_if_moved: a piece is not where it was found, or is named twice");
        };
        pile.remove(i);
    }
    w.apart(|w| {
        for (loc, piece) in &moving {
            let pile = &mut w.locs[*loc as usize];
            if let Some(i) = pile.iter().position(|x| x == piece) {
                pile.remove(i);
            }
        }
        w.locs[to as usize].extend(moving.iter().map(|(_, piece)| *piece));
        let answer = then(w);
        for (loc, pile) in saved {
            w.locs[loc as usize] = pile;
        }
        answer
    })
}
