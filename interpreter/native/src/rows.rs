//! Variables with a value for each row of a table as well as for each owner (`var NAME: T = E
//! per player, TABLE`): a marker on each track, a resource of each kind. Read `OWNER.NAME[ROW]`
//! and changed with `set`, `add` and `subtract` on the same form (compiler/statements.py's
//! `set_owned` with a row). An owner's values lie side by side in its store, in the table's
//! order, so a store holds owners times rows values.

use crate::ir::OwnedRef;
use crate::value::Value;
use crate::vm::{Fail, FailKind, Loaded, Part, World};

fn fail<T>(message: impl Into<String>) -> Result<T, Fail> {
    Err(Fail { kind: FailKind::Error(message.into()), at: None })
}

/// Where one row's value of an owner's variable is: its store and its place in it.
pub fn place(p: &Loaded, var: &OwnedRef, owner: &Value, row: &Value) -> Result<(u32, u32), Fail> {
    let (store, i) = crate::vm::owned_place(var, owner)?;
    let Some(rows) = p.ir.owned.get(store as usize).and_then(|o| o.by.as_ref()) else {
        return fail(format!("'{}' has one value, not one for each row", var.name));
    };
    let at = match row {
        Value::Row(r) => rows.iter().position(|x| x == r),
        _ => None,
    };
    match at {
        Some(k) => Ok((store, i * rows.len() as u32 + k as u32)),
        None => fail(format!(
            "'{}' has a value for each row of its table: a {} is not one of them",
            var.name,
            row.type_name()
        )),
    }
}

/// `OWNER.NAME[ROW]`.
pub fn read(p: &Loaded, w: &mut World, var: &OwnedRef, owner: &Value, row: &Value) -> Result<Value, Fail> {
    let (store, i) = place(p, var, owner, row)?;
    w.read(Part::Owned(store, i));
    Ok(w.owned[store as usize][i as usize].clone())
}
