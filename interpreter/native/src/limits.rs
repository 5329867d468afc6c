//! The limits of a running game that the core keeps as the Python engine keeps them
//! (docs/language.md#limits): the characters of the readable log (`MAX_LOG_CHARS`), the
//! decisions a game asks (`MAX_DECISIONS`) and the calls of rules, values and triggers under way
//! one inside another (`MAX_RECURSION`). Each limit's number comes from meeple/limits.py with the
//! program (`ir::Limits`).
//!
//! The log's lines are put in words on the Python side (one formatter for both engines), but the
//! core must stop a game that logs without end as it writes, not after it filled the memory with
//! events: so the lowering hands over how many characters each label and text has, and the core
//! counts every line as the Python engine would write it.

use crate::value::Value;
use crate::vm::{Event, Fail, FailKind, Loaded, Said, World};
use serde::Deserialize;

/// How many characters (Python's `len`) each thing a log line names reads as: what
/// `values.label` says of it, by index.
#[derive(Deserialize, Debug)]
pub struct Labels {
    pub players: Vec<u64>,
    pub rows: Vec<u64>,
    /// Each location's label as a value (a zone instance, a board cell; 0 for a node, which is
    /// said as its row).
    pub locations: Vec<u64>,
    pub grids: Vec<u64>,
    /// Each piece declaration's name (a kind as the rules name it).
    pub decls: Vec<u64>,
    /// What players call each kind of piece (a piece reads as it, then " of " and its owner).
    pub kinds: Vec<u64>,
    /// Each text, and each text in lower case (a prompt as a log line says it).
    pub texts: Vec<u64>,
    pub lower: Vec<u64>,
}

/// What was entered when calls went deeper than `MAX_RECURSION`: the error is placed at its
/// declaration, as on the Python engine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Entered {
    /// A rule's or a trigger's code.
    Code(u32),
    /// A declared value, by its declaration's site (`FuncIr::at`).
    Value(u32),
}

/// Enter a call (a rule's body, a trigger's, a value's answer computed): refused, naming what
/// was entered, when `MAX_RECURSION` calls are under way already.
pub fn enter(p: &Loaded, w: &mut World, entered: Entered) -> Result<(), Fail> {
    if w.calls as usize >= p.ir.limits.max_recursion {
        return Err(Fail { kind: FailKind::Recursion(entered), at: None });
    }
    w.calls += 1;
    Ok(())
}

/// Refuse one more decision put to a player once `MAX_DECISIONS` were answered.
pub fn ask(p: &Loaded, answered: usize) -> Result<(), Fail> {
    if answered >= p.ir.limits.max_decisions {
        return Err(Fail { kind: FailKind::Decisions, at: None });
    }
    Ok(())
}

/// Add a line to the readable log, refused when it would take the log beyond `MAX_LOG_CHARS`.
pub fn write(p: &Loaded, w: &mut World, event: Event) -> Result<(), Fail> {
    let chars = line_chars(&p.ir.labels, &event);
    if w.log_chars.saturating_add(chars) > p.ir.limits.max_log_chars {
        return Err(Fail { kind: FailKind::LogChars, at: None });
    }
    w.log_chars += chars;
    w.events.push(event);
    Ok(())
}

/// The characters of the line the Python side writes for an event (state.py's `_words`).
fn line_chars(labels: &Labels, event: &Event) -> u64 {
    let text = |t: &u32| labels.texts.get(*t as usize).copied().unwrap_or(0);
    match event {
        // "  {who} {prompt in lower case}: {option or pass}", then " (only option)"
        Event::Chose { seat, prompt, option, only } => {
            let who = labels.players.get(*seat as usize).copied().unwrap_or(0);
            let prompt = labels.lower.get(*prompt as usize).copied().unwrap_or(0);
            let said = option.as_ref().map_or(4, |v| value_chars(labels, v));
            2 + who + 1 + prompt + 2 + said + if *only { 14 } else { 0 }
        }
        // "  ({title}: {outcome})"
        Event::Chance { title, outcome } => 3 + text(title) + 2 + said_chars(labels, outcome) + 1,
        Event::Line(parts) => parts.iter().map(|s| said_chars(labels, s)).sum(),
    }
}

fn said_chars(labels: &Labels, said: &Said) -> u64 {
    match said {
        Said::Text(t) => labels.texts.get(*t as usize).copied().unwrap_or(0),
        Said::Value(v) => value_chars(labels, v),
    }
}

/// The characters of `values.label(v)`.
pub fn value_chars(labels: &Labels, v: &Value) -> u64 {
    let at = |table: &[u64], i: u32| table.get(i as usize).copied().unwrap_or(0);
    match v {
        Value::None => 4,
        Value::Bool(true) => 3,
        Value::Bool(false) => 2,
        Value::Int(n) => n.to_string().len() as u64,
        Value::Text(t) => t.chars().count() as u64,
        Value::Player(i) => at(&labels.players, *i),
        Value::Row(i) => at(&labels.rows, *i),
        Value::Zone(loc) | Value::Cell(loc) => at(&labels.locations, *loc),
        Value::Grid(i) => at(&labels.grids, *i),
        Value::KindName(d) => at(&labels.decls, *d),
        Value::Piece(_, piece) => {
            let kind = at(&labels.kinds, piece.kind);
            piece.owner.map_or(kind, |o| kind + 4 + at(&labels.players, o))
        }
        // "[a, b, c]"
        Value::List(items) => {
            let inside: u64 = items.iter().map(|x| value_chars(labels, x)).sum();
            2 + inside + 2 * (items.len() as u64).saturating_sub(1)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{value_chars, Labels};
    use crate::value::{Piece, Value};
    use std::sync::Arc;

    fn labels() -> Labels {
        // "Player 1", "Player 2"; a kind called "Stone"
        Labels {
            players: vec![8, 8],
            rows: vec![],
            locations: vec![],
            grids: vec![],
            decls: vec![],
            kinds: vec![5],
            texts: vec![],
            lower: vec![],
        }
    }

    #[test]
    fn a_value_counts_as_many_characters_as_its_label() {
        let l = labels();
        assert_eq!(value_chars(&l, &Value::Int(-20)), 3); // "-20"
        assert_eq!(value_chars(&l, &Value::Bool(false)), 2); // "no"
        assert_eq!(value_chars(&l, &Value::None), 4); // "none"
        assert_eq!(value_chars(&l, &Value::Text("héllo".into())), 5); // characters, not bytes
        let owned = Value::Piece(0, Piece { kind: 0, owner: Some(1) });
        assert_eq!(value_chars(&l, &owned), 17); // "Stone of Player 2"
        let list =
            Value::List(Arc::new(vec![Value::Int(1), Value::Player(0), Value::List(Arc::new(vec![]))]));
        assert_eq!(value_chars(&l, &list), 17); // "[1, Player 1, []]"
    }
}
