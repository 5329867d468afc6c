//! Where a decision's rules show each option (`choose ... shown at PLACE`), for what a seat sees
//! (interpreter/view.py): the place is asked of the position as it stands, in the asking
//! statement's names with the option in its variable, as the Python engine's `State.shown` asks
//! it. A copy of the game is asked, so that looking changes nothing the game counts (its steps,
//! what its memo keeps).

use crate::value::Value;
use crate::vm::{eval, Game};

impl Game {
    /// For each option of the pending decision, the place the rules show it at (None where
    /// asking breaks: the option is still offered, as a button); None when nothing is pending or
    /// the decision shows its options as themselves.
    pub fn shown(&self) -> Option<Vec<Option<Value>>> {
        let pending = self.pending.as_ref()?;
        let var = pending.var? as usize;
        let at = self.program.ir.shown.get(&pending.at)?;
        let mut copy = self.clone();
        let program = self.program.clone();
        let mut env = self.frames.last().map_or_else(Vec::new, |frame| frame.slots.clone());
        if var >= env.len() {
            return None;
        }
        let places = pending
            .options
            .iter()
            .map(|option| {
                env[var] = option;
                eval(&program, &mut copy.world, at, &mut env).ok()
            })
            .collect();
        Some(places)
    }
}
