//! Where a `movement` can go from a cell: the distinct routes, found breadth first in the order
//! interpreter/grids.py's `routes` finds them (one per end place and set of occupied places
//! passed, the first found kept). What may be passed and where a route may end are the rules'
//! own conditions, evaluated here with the place being tested in their slot.

use crate::ir::MovementIr;
use crate::placement;
use crate::value::{Value, Way};
use crate::vm::{eval, Fail, FailKind, Loaded, Part, World};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

/// No direction: the first step of a route.
const UNDIRECTED: i64 = -1;

fn fail<T>(message: impl Into<String>) -> Result<T, Fail> {
    Err(Fail { kind: FailKind::Error(message.into()), at: None })
}

/// A route search: the movement's slots (its parameters, `start`, the place a condition tests)
/// and what it has asked of each place, once (the conditions look at places, which do not
/// change during the search).
struct Search<'a> {
    p: &'a Loaded,
    mv: &'a MovementIr,
    env: Vec<Value>,
    passable: HashMap<u32, bool>,
    endable: HashMap<u32, bool>,
    full: HashMap<u32, bool>,
    onward: HashMap<u32, Arc<Vec<(usize, u32)>>>,
}

impl Search<'_> {
    fn test(
        &mut self,
        w: &mut World,
        cond: Option<&(u32, crate::ir::Expr)>,
        place: u32,
    ) -> Result<bool, Fail> {
        let Some((slot, e)) = cond else { return Ok(true) };
        self.env[*slot as usize] = Value::Cell(place);
        Ok(eval(self.p, w, e, &mut self.env)?.truthy())
    }

    fn may_pass(&mut self, w: &mut World, place: u32) -> Result<bool, Fail> {
        if let Some(known) = self.passable.get(&place) {
            return Ok(*known);
        }
        let answer = self.test(w, self.mv.through.as_ref(), place)?;
        self.passable.insert(place, answer);
        Ok(answer)
    }

    fn may_end(&mut self, w: &mut World, place: u32) -> Result<bool, Fail> {
        if let Some(known) = self.endable.get(&place) {
            return Ok(*known);
        }
        let answer = self.test(w, self.mv.ends.as_ref(), place)?;
        self.endable.insert(place, answer);
        Ok(answer)
    }

    fn occupied(&mut self, w: &mut World, place: u32) -> bool {
        if let Some(known) = self.full.get(&place) {
            return *known;
        }
        w.read(Part::Loc(place));
        let answer = !w.locs[place as usize].is_empty();
        self.full.insert(place, answer);
        answer
    }

    fn ways(&mut self, w: &mut World, place: u32) -> Result<Arc<Vec<(usize, u32)>>, Fail> {
        if let Some(known) = self.onward.get(&place) {
            return Ok(known.clone());
        }
        let ways = Arc::new(placement::steps(self.p, w, place)?);
        self.onward.insert(place, ways.clone());
        Ok(ways)
    }
}

/// `routes(START, MOVEMENT, ARGS...)` from a cell of a grid.
pub fn routes(
    p: &Loaded,
    w: &mut World,
    mv: &MovementIr,
    start: Value,
    args: Vec<Value>,
) -> Result<Value, Fail> {
    let mut env = vec![Value::None; mv.slots as usize];
    for (i, arg) in args.into_iter().enumerate() {
        env[i] = arg;
    }
    env[mv.start as usize] = start.clone();
    let steps: Vec<i64> = match eval(p, w, &mv.steps, &mut env)? {
        Value::Int(n) => vec![n],
        Value::List(items) => {
            items.iter().filter_map(|v| if let Value::Int(n) = v { Some(*n) } else { None }).collect()
        }
        other => return fail(format!("a movement's steps are numbers, not a {}", other.type_name())),
    };
    let straight = match &mv.straight {
        Some(e) => eval(p, w, e, &mut env)?.truthy(),
        None => false,
    };
    let backtracks = match &mv.backtracks {
        Some(e) => eval(p, w, e, &mut env)?.truthy(),
        None => false,
    };
    let Value::Cell(from) = start else {
        return fail(format!("routes start on a grid cell, not on a {}", start.type_name()));
    };
    if placement::coords(p, w, from).is_none() {
        return fail("routes start on a grid cell");
    }
    if steps.is_empty() {
        return Ok(Value::List(Arc::new(Vec::new())));
    }
    let (low, high) = (*steps.iter().min().unwrap_or(&0), *steps.iter().max().unwrap_or(&0));
    let wanted: HashSet<i64> = steps.iter().copied().collect();
    let mut search = Search {
        p,
        mv,
        env,
        passable: HashMap::new(),
        endable: HashMap::new(),
        full: HashMap::new(),
        onward: HashMap::new(),
    };
    let mut found: Vec<Value> = Vec::new();
    let mut keys: HashSet<(u32, Vec<u32>)> = HashSet::new();
    let way = |path: &[u32]| {
        Value::Route(Arc::new(Way {
            start: Value::Cell(from),
            path: path.iter().map(|c| Value::Cell(*c)).collect(),
        }))
    };
    if low == 0 && search.may_end(w, from)? {
        keys.insert((from, Vec::new()));
        found.push(way(&[]));
    }
    // A state: the path so far, the direction of its last step, the occupied places passed.
    let mut layer: Vec<(Vec<u32>, i64, Vec<u32>)> = vec![(Vec::new(), UNDIRECTED, Vec::new())];
    let mut seen: HashSet<(u32, Vec<u32>, i64, i64)> = HashSet::new();
    for depth in 1..=high {
        let mut next_layer = Vec::new();
        let ending = wanted.contains(&depth);
        let depth_seen = if low > 1 { depth } else { 0 };
        for (path, last, occupied_passed) in &layer {
            let here = path.last().copied().unwrap_or(from);
            let mut passing = occupied_passed.clone();
            if !path.is_empty() && here != from {
                if !search.may_pass(w, here)? {
                    continue;
                }
                if search.occupied(w, here) {
                    if let Err(i) = passing.binary_search(&here) {
                        passing.insert(i, here);
                    }
                }
            }
            for &(direction, next) in search.ways(w, here)?.iter() {
                let direction = direction as i64;
                if straight && *last != UNDIRECTED && direction != *last {
                    continue;
                }
                if backtracks {
                    let state =
                        (next, passing.clone(), if straight { direction } else { UNDIRECTED }, depth_seen);
                    if !seen.insert(state) {
                        continue;
                    }
                } else if next == from || path.contains(&next) {
                    continue;
                }
                let mut new = path.clone();
                new.push(next);
                if ending {
                    let key = (next, passing.clone());
                    if !keys.contains(&key) && search.may_end(w, next)? {
                        keys.insert(key);
                        found.push(way(&new));
                    }
                }
                next_layer.push((new, direction, passing.clone()));
            }
        }
        layer = next_layer;
    }
    Ok(Value::List(Arc::new(found)))
}
