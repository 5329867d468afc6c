//! Layers on a grid that grows: a shape laid over cells that are there (`place ... over`), the
//! top layer lifted off again (`lift`), what lies under a placement (`under`), the top layer of a
//! block (`block`), and a question asked as if a placement were laid (`as_if_laid`), which lays it
//! for a moment and lifts it again. interpreter/layers.py says the same for the Python engine.
//!
//! A cell shows the row its top layer puts there; lifting the top layer shows the one under it,
//! and a cell with no layer left goes, which it may only do empty, so pieces are never lost.

use crate::placement::{block, full_turn, place, put};
use crate::value::{Spot, Value};
use crate::vm::{Fail, FailKind, Loaded, Part, World};

fn fail<T>(message: impl Into<String>) -> Result<T, Fail> {
    Err(Fail { kind: FailKind::Error(message.into()), at: None })
}

/// A placement as players read it: "(x,y) turned 90°" (values.Placement).
fn said(p: &Loaded, spot: &Spot) -> String {
    let (x, y) = crate::placement::block_of(p, spot);
    let degrees = spot.turns * 360 / full_turn(p.ir.grids[spot.grid as usize].hex);
    format!("({x},{y}) turned {degrees}°")
}

/// `lift LAYER`: take the top layer off, refused (changing nothing) if it is not on top
/// everywhere, or if a cell it alone holds up has pieces on it.
pub fn lift(p: &Loaded, w: &mut World, layer: &Value) -> Result<(), Fail> {
    let Value::Placement(spot) = layer else {
        return fail(format!("only a laid shape is lifted, not a {}", layer.type_name()));
    };
    let name = &p.ir.grids[spot.grid as usize].name;
    let mut cells = Vec::new();
    for (q, r) in spot.coords() {
        let cell = w.grown.get(spot.grid, q, r);
        let top = cell.and_then(|c| w.grown.stack(c).last().copied());
        let (Some(cell), Some(top)) = (cell, top) else {
            return fail(format!("{} is not the top layer of {name} there", said(p, spot)));
        };
        if spot.layer != Some(top) {
            return fail(format!("{} is not the top layer of {name} there", said(p, spot)));
        }
        if w.grown.stack(cell).len() == 1 && !w.locs[cell as usize].is_empty() {
            return fail(format!("nothing would be left under the pieces at ({q},{r}): move them first"));
        }
        cells.push(cell);
    }
    for (cell, (q, r)) in cells.into_iter().zip(spot.coords()) {
        w.grown.take_off(cell);
        w.changed(place(p, spot.grid, q, r));
    }
    w.changed(Part::Grid(spot.grid));
    Ok(())
}

/// `PLACEMENT.under`: the layer it lies on at its first cell (for one not laid, the layer it
/// would lie on), or none.
pub fn under(p: &Loaded, w: &mut World, spot: &Spot) -> Value {
    let (q, r) = spot.coords().next().unwrap_or_default();
    w.read(place(p, spot.grid, q, r));
    let Some(first) = w.grown.get(spot.grid, q, r) else { return Value::None };
    let stack = w.grown.stack(first);
    let below = match spot.layer.and_then(|id| stack.iter().position(|l| *l == id)) {
        Some(at) => at.checked_sub(1).map(|i| stack[i]),
        None => stack.last().copied(),
    };
    below.map_or(Value::None, |l| Value::Placement(w.grown.layers[l as usize].clone().into()))
}

/// `block(GRID, X, Y)`: the top layer laid on the block at (X, Y) (on a grid without blocks, the
/// cell), or none.
pub fn block_at(p: &Loaded, w: &mut World, values: &[Value]) -> Result<Value, Fail> {
    let [Value::Grid(g), Value::Int(x), Value::Int(y)] = values else {
        return fail("block(...) is asked of a grid, at whole numbers x and y");
    };
    let k = block(p, *g);
    w.read(Part::Place(*g, *x, *y));
    for q in x * k..x * k + k {
        for r in y * k..y * k + k {
            if let Some(cell) = w.grown.get(*g, q, r) {
                return Ok(w.grown.layer(cell).map_or(Value::None, |l| Value::Placement(l.into())));
            }
        }
    }
    Ok(Value::None)
}

/// `as_if_laid(PLACEMENT, X)`: X as it would be were the placement laid (over what is there,
/// where its cells are); then the grid is exactly as it was. Answers found meanwhile are kept
/// apart and forgotten (`World::apart`).
pub fn as_if_laid(
    p: &Loaded,
    w: &mut World,
    spot: &Value,
    then: impl FnOnce(&mut World) -> Result<Value, Fail>,
) -> Result<Value, Fail> {
    let Value::Placement(spot) = spot else {
        return fail(format!("as_if_laid supposes a placement, not {}", spot.a_kind()));
    };
    let spot = spot.clone();
    let g = spot.grid;
    w.apart(|w| {
        let (mark, locations) = (w.grown.mark(), w.locs.len());
        let coords: Vec<(i64, i64)> = spot.coords().collect();
        let over = coords.iter().any(|(q, r)| w.grown.get(g, *q, *r).is_some());
        let there: Vec<u32> = coords.iter().filter_map(|(q, r)| w.grown.get(g, *q, *r)).collect();
        put(p, w, g, coords, spot.rows.to_vec(), spot.turns, over)?;
        let answer = then(w);
        // Lift it again: the layer off the cells that were there, the cells it made gone.
        for cell in there {
            w.grown.take_off(cell);
        }
        w.grown.truncate(mark);
        w.locs.truncate(locations);
        w.changed(Part::Grid(g)); // what was found of the grid supposed is forgotten
        answer
    })
}
