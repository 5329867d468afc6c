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

use crate::ir::GridIr;
use crate::placement::{full_turn, Grown};
use crate::value::Value;
use crate::vm::{Event, Fail, FailKind, Loaded, Said, World};
use serde::Deserialize;

/// How many characters (Python's `len`) each thing a log line names reads as: what
/// `values.label` says of it, by index.
#[derive(Deserialize, Debug)]
pub struct Labels {
    pub players: Vec<u64>,
    pub rows: Vec<u64>,
    /// Each location's label as a place (a zone instance, a board cell, a map's node as its
    /// row): a node is a value only as its row, but a reveal names the place a piece is in.
    pub locations: Vec<u64>,
    pub grids: Vec<u64>,
    /// Each piece declaration's name (a kind as the rules name it).
    pub decls: Vec<u64>,
    /// What players call each kind of piece (a piece reads as it, then " of " and its owner).
    pub kinds: Vec<u64>,
    /// Each text, and each text in lower case (a prompt as a log line says it).
    pub texts: Vec<u64>,
    pub lower: Vec<u64>,
    /// Each kind's declaration, and each declaration's name for one piece and for several
    /// ("one Card", "2 Cards": what a reveal tells the seats it does not show; reveal.rs).
    #[serde(default)]
    pub kind_decl: Vec<u32>,
    #[serde(default)]
    pub decl_one: Vec<u64>,
    #[serde(default)]
    pub decl_many: Vec<u64>,
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
    let reading = Reading { labels: &p.ir.labels, grown: &w.grown, grids: &p.ir.grids };
    let chars = line_chars(&reading, &event);
    if w.log_chars.saturating_add(chars) > p.ir.limits.max_log_chars {
        return Err(Fail { kind: FailKind::LogChars, at: None });
    }
    w.log_chars += chars;
    let context = if w.logging { crate::words::context(p, w, &event) } else { None };
    w.events.push(event);
    w.events.extend(context.map(Event::Context));
    Ok(())
}

/// What the characters of a value are read from: the program's labels, and the cells the game
/// laid on its grids that grow (they have no label in the program, and read as `(q,r)`).
pub struct Reading<'a> {
    pub labels: &'a Labels,
    pub grown: &'a Grown,
    pub grids: &'a [GridIr],
}

/// The characters of the line the Python side writes for an event (state.py's `_words`).
fn line_chars(r: &Reading, event: &Event) -> u64 {
    let labels = r.labels;
    let text = |t: &u32| labels.texts.get(*t as usize).copied().unwrap_or(0);
    match event {
        // "  {who} {prompt in lower case}: {option or pass}", then " (only option)"
        Event::Chose { seat, prompt, option, only } => {
            let who = labels.players.get(*seat as usize).copied().unwrap_or(0);
            let prompt = labels.lower.get(*prompt as usize).copied().unwrap_or(0);
            let said = option.as_ref().map_or(4, |v| value_chars(r, v));
            2 + who + 1 + prompt + 2 + said + if *only { 14 } else { 0 }
        }
        // "  ({title}: {outcome})"
        Event::Chance { title, outcome } => 3 + text(title) + 2 + said_chars(r, outcome) + 1,
        Event::Line(parts) => parts.iter().map(|s| said_chars(r, s)).sum(),
        Event::Revealed { seats, at } => crate::reveal::line_chars(r, seats, at),
        Event::Context(_) => 0,
    }
}

fn said_chars(r: &Reading, said: &Said) -> u64 {
    match said {
        Said::Text(t) => r.labels.texts.get(*t as usize).copied().unwrap_or(0),
        Said::Value(v) => value_chars(r, v),
    }
}

/// The characters of text made by formatting (numbers, coordinates): all ASCII but the degree sign.
fn chars(text: &str) -> u64 {
    text.chars().count() as u64
}

/// The characters of `values.label(v)`.
pub fn value_chars(r: &Reading, v: &Value) -> u64 {
    let labels = r.labels;
    let at = |table: &[u64], i: u32| table.get(i as usize).copied().unwrap_or(0);
    match v {
        Value::None => 4,
        Value::Bool(true) => 3,
        Value::Bool(false) => 2,
        Value::Int(n) => n.to_string().len() as u64,
        Value::Text(t) => t.chars().count() as u64,
        Value::Player(i) => at(&labels.players, *i),
        Value::Row(i) => at(&labels.rows, *i),
        // A cell laid on a grid that grows reads as its coordinates, `(q,r)` (values.Cell).
        Value::Zone(loc) | Value::Cell(loc) => match r.grown.cell(*loc) {
            Some((_, q, rr, _)) => chars(&format!("({q},{rr})")),
            None => at(&labels.locations, *loc),
        },
        Value::Grid(i) => at(&labels.grids, *i),
        Value::KindName(d) => at(&labels.decls, *d),
        Value::Piece(_, piece) => {
            let kind = at(&labels.kinds, piece.kind);
            piece.owner.map_or(kind, |o| kind + 4 + at(&labels.players, o))
        }
        // "(x,y) turned 60°": the block of the first cell (the cell, on a grid without blocks),
        // and the turn in degrees (values.Placement).
        Value::Placement(spot) => {
            let (q, rr) = spot.coords().next().unwrap_or((0, 0));
            let k = i64::from(r.grids.get(spot.grid as usize).map_or(1, |g| g.block.max(1)));
            let (x, y) = (q.div_euclid(k), rr.div_euclid(k));
            let hex = r.grids.get(spot.grid as usize).is_some_and(|g| g.hex);
            let degrees = spot.turns * 360 / full_turn(hex);
            chars(&format!("({x},{y}) turned {degrees}°"))
        }
        // "stay at S", "from S via P, Q back to S", "from S to E via P, Q" (values.Route).
        Value::Route(way) => {
            let start = value_chars(r, &way.start);
            let passed = way.passed();
            let via = if passed.is_empty() {
                0
            } else {
                5 + passed.iter().map(|x| value_chars(r, x)).sum::<u64>() + 2 * (passed.len() as u64 - 1)
            };
            let end = way.end();
            if way.path.is_empty() {
                8 + start
            } else if end == way.start {
                5 + start + via + 9 + start
            } else {
                5 + start + 4 + value_chars(r, &end) + via
            }
        }
        // "town at (0,0)": its value, and its first cell (values.Area).
        Value::Area(area) => {
            let first = area.cells.first().map_or(0, |c| value_chars(r, &Value::Cell(*c)));
            value_chars(r, &area.key) + 4 + first
        }
        // "town against (1,0)" (values.Border).
        Value::Border(row, cell) => {
            value_chars(r, &Value::Row(*row)) + 9 + value_chars(r, &Value::Cell(*cell))
        }
        Value::Cells(_) | Value::FewCells { .. } => value_chars(r, &v.cells_listed().unwrap_or_default()),
        // "[a, b, c]"
        Value::List(items) => {
            let inside: u64 = items.iter().map(|x| value_chars(r, x)).sum();
            2 + inside + 2 * (items.len() as u64).saturating_sub(1)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{value_chars, Labels, Reading};
    use crate::ir::GridIr;
    use crate::placement::Grown;
    use crate::value::{Piece, Spot, Value, Way};
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
            kind_decl: vec![],
            decl_one: vec![],
            decl_many: vec![],
        }
    }

    fn hex_grid() -> GridIr {
        GridIr { hex: true, first: 0, cells: vec![], owner: None, grows: true, name: String::new(), block: 1 }
    }

    #[test]
    fn a_value_counts_as_many_characters_as_its_label() {
        let (l, grown) = (labels(), Grown::default());
        let r = Reading { labels: &l, grown: &grown, grids: &[] };
        assert_eq!(value_chars(&r, &Value::Int(-20)), 3); // "-20"
        assert_eq!(value_chars(&r, &Value::Bool(false)), 2); // "no"
        assert_eq!(value_chars(&r, &Value::None), 4); // "none"
        assert_eq!(value_chars(&r, &Value::Text("héllo".into())), 5); // characters, not bytes
        let owned = Value::Piece(0, Piece { kind: 0, owner: Some(1) });
        assert_eq!(value_chars(&r, &owned), 17); // "Stone of Player 2"
        let list =
            Value::List(Arc::new(vec![Value::Int(1), Value::Player(0), Value::List(Arc::new(vec![]))]));
        assert_eq!(value_chars(&r, &list), 17); // "[1, Player 1, []]"
    }

    #[test]
    fn a_placement_and_a_route_count_as_their_labels() {
        let (l, grown, grids) = (labels(), Grown::default(), [hex_grid()]);
        let r = Reading { labels: &l, grown: &grown, grids: &grids };
        let turned: Arc<[(i64, i64)]> = Arc::from(vec![(0, 0), (1, 0)]);
        let spot =
            Spot { grid: 0, rows: Arc::from(vec![0, 0]), turned, shift: (2, -1), turns: 1, layer: None };
        assert_eq!(value_chars(&r, &Value::Placement(Arc::new(spot).into())), 17); // "(2,-1) turned 60°"
        let way = |path: Vec<i64>| {
            Value::Route(Arc::new(Way {
                start: Value::Int(1),
                path: path.into_iter().map(Value::Int).collect(),
            }))
        };
        assert_eq!(value_chars(&r, &way(vec![])), 9); // "stay at 1"
        assert_eq!(value_chars(&r, &way(vec![2, 3])), 17); // "from 1 to 3 via 2"
        assert_eq!(value_chars(&r, &way(vec![2, 1])), 22); // "from 1 via 2 back to 1"
    }
}
