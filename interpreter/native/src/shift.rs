//! `shift GRID by DQ, DR` (interpreter/layers.py's `shift`): every cell of a grid that grows
//! moves by (DQ, DR), in blocks on a grid laid in blocks, with the layers on it and the pieces on
//! its cells. A cell keeps its location, so pieces, areas and routes that name it by location
//! hold still; only coordinates change: the cells', and the layers' on the grid, which the Python
//! engine moves in place (the same objects at their new place).
//!
//! A layer the rules hold (in a variable, a rule's name, an offered action's arguments) is a
//! copy of the layer here, so after a shift every held copy of a layer that moved is made the
//! layer again (`refresh`), as a Python variable holding the layer object sees it moved.

use crate::value::{Spot, Value};
use crate::vm::{Fail, FailKind, Game, Loaded, Part, World};
use std::sync::Arc;

fn fail<T>(message: impl Into<String>) -> Result<T, Fail> {
    Err(Fail { kind: FailKind::Error(message.into()), at: None })
}

/// A value as the error words it: a number as it is, anything else by what it is.
fn said(v: &Value) -> String {
    match v {
        Value::Int(n) => n.to_string(),
        other => format!("a {}", other.type_name()),
    }
}

/// Move the grid's cells and the layers on them; every answer kept is forgotten (an answer may
/// have read a cell's coordinates anywhere).
pub fn shift(p: &Loaded, w: &mut World, grid: &Value, dq: &Value, dr: &Value) -> Result<(), Fail> {
    let Value::Grid(g) = *grid else {
        return fail(format!("a {} is not a grid map: only a grid shifts", grid.type_name()));
    };
    let ir = &p.ir.grids[g as usize];
    if !ir.grows {
        return fail(format!("{} is a board given by its size: its cells cannot shift", ir.name));
    }
    let (Value::Int(q), Value::Int(r)) = (dq, dr) else {
        return fail(format!("{} shifts by whole numbers, not {}, {}", ir.name, said(dq), said(dr)));
    };
    let block = crate::placement::block(p, g);
    let by = q.checked_mul(block).zip(r.checked_mul(block));
    let moved = by.and_then(|(q, r)| w.grown.shift(g, q, r));
    if moved.is_none() {
        return fail(format!("{} would shift beyond the numbers a game holds", ir.name));
    }
    w.changed(Part::Grid(g));
    w.forget();
    Ok(())
}

/// Every layer the game holds, made the layer as it lies now (after a shift moved some).
pub fn refresh(game: &mut Game) {
    let layers = game.world.grown.layers.clone();
    let world = &mut game.world;
    let held = world.vars.iter_mut().chain(world.owned.iter_mut().flatten());
    let slots = game.frames.iter_mut().flat_map(|f| f.slots.iter_mut());
    let args = game.offers.iter_mut().flat_map(|o| o.args.iter_mut());
    let again = game.taken.iter_mut().filter_map(|t| t.again.as_mut()).flat_map(|p| p.options.values_mut());
    for value in held.chain(slots).chain(args).chain(again) {
        renew(value, &layers);
    }
}

fn renew(value: &mut Value, layers: &[Arc<Spot>]) {
    match value {
        Value::Placement(spot) => {
            if let Some(now) = spot.layer.and_then(|id| layers.get(id as usize)) {
                if **now != **spot {
                    *spot = now.clone().into();
                }
            }
        }
        Value::List(items) if items.iter().any(holds_layer) => {
            for item in Arc::make_mut(items).iter_mut() {
                renew(item, layers);
            }
        }
        _ => {}
    }
}

fn holds_layer(value: &Value) -> bool {
    match value {
        Value::Placement(spot) => spot.layer.is_some(),
        Value::List(items) => items.iter().any(holds_layer),
        _ => false,
    }
}
