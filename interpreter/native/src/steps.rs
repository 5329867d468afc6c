//! Routes of a movement whose steps the rules compute (`step NAME to PLACES`): one step from a
//! place goes to the places PLACES lists with NAME bound to it, whatever they are (areas, cells,
//! nodes). The search is routes.rs's, breadth first in the order interpreter/grids.py's `routes`
//! finds routes, over places numbered as they are first met (builtins.py's `_computed_steps`).

use crate::ir::MovementIr;
use crate::routes::{path_of, Sets, Step};
use crate::value::{Value, Way};
use crate::vm::{at_site, eval, Fail, FailKind, Fast, Loaded, Part, World};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

fn fail<T>(message: impl Into<String>) -> Result<T, Fail> {
    Err(Fail { kind: FailKind::Error(message.into()), at: None })
}

/// A search's places, numbered as met, and what it asked of each, once: the conditions and the
/// step line look at places, which do not change during the search. Hashed fast (`Fast`):
/// nothing a player writes chooses these keys.
struct Places<'a> {
    p: &'a Loaded,
    mv: &'a MovementIr,
    env: Vec<Value>,
    places: Vec<Value>,
    ids: HashMap<Value, u32, Fast>,
    passable: HashMap<u32, bool, Fast>,
    endable: HashMap<u32, bool, Fast>,
    onward: HashMap<u32, Arc<Vec<u32>>, Fast>,
}

impl<'a> Places<'a> {
    /// A search of the places a movement reaches, none numbered yet and nothing asked of them.
    fn new(p: &'a Loaded, mv: &'a MovementIr, env: Vec<Value>) -> Self {
        Places {
            p,
            mv,
            env,
            places: Vec::new(),
            ids: HashMap::default(),
            passable: HashMap::default(),
            endable: HashMap::default(),
            onward: HashMap::default(),
        }
    }

    fn id(&mut self, place: Value) -> u32 {
        if let Some(id) = self.ids.get(&place) {
            return *id;
        }
        let id = self.places.len() as u32;
        self.places.push(place.clone());
        self.ids.insert(place, id);
        id
    }

    fn test(&mut self, w: &mut World, ending: bool, id: u32) -> Result<bool, Fail> {
        let known = if ending { &self.endable } else { &self.passable };
        if let Some(answer) = known.get(&id) {
            return Ok(*answer);
        }
        let cond = if ending { &self.mv.ends } else { &self.mv.through };
        let answer = match cond {
            Some((slot, e)) => {
                self.env[*slot as usize] = self.places[id as usize].clone();
                eval(self.p, w, e, &mut self.env)?.truthy()
            }
            None => true,
        };
        if ending { &mut self.endable } else { &mut self.passable }.insert(id, answer);
        Ok(answer)
    }

    /// Whether pieces stand on a place (one that holds none, as an area, never does).
    fn occupied(&self, w: &mut World, id: u32) -> bool {
        let loc = match &self.places[id as usize] {
            Value::Row(r) => self.p.ir.node_locations.get(*r as usize).copied().flatten(),
            other => other.location(),
        };
        loc.is_some_and(|loc| {
            w.read(Part::Loc(loc));
            w.locs.get(loc as usize).is_some_and(|pile| !pile.is_empty())
        })
    }

    /// Where one step from a place goes: the places the step line lists, each once, in order.
    fn ways(&mut self, w: &mut World, id: u32) -> Result<Arc<Vec<u32>>, Fail> {
        if let Some(known) = self.onward.get(&id) {
            return Ok(known.clone());
        }
        let Some((slot, step)) = &self.mv.step else {
            return fail("this movement does not say where a step goes");
        };
        self.env[*slot as usize] = self.places[id as usize].clone();
        let listed = match eval(self.p, w, step, &mut self.env)? {
            Value::List(items) => items,
            other => {
                let refused =
                    format!("a 'step' line lists the places one step reaches, not {}", other.a_kind());
                return fail(refused).map_err(|f| at_site(f, self.mv.step_at));
            }
        };
        let mut out: Vec<u32> = Vec::with_capacity(listed.len());
        for place in listed.iter() {
            if matches!(place, Value::List(_)) {
                let refused = "a 'step' line lists places, not lists of them";
                return fail(refused).map_err(|f| at_site(f, self.mv.step_at));
            }
            let next = self.id(place.clone());
            if !out.contains(&next) {
                out.push(next);
            }
        }
        let out = Arc::new(out);
        self.onward.insert(id, out.clone());
        Ok(out)
    }
}

/// `routes(START, MOVEMENT, ARGS...)` of a movement with a `step` line: its slots hold the
/// arguments, `start`, and what `steps`, `backtracks`, `through` and `ends` read.
pub fn routes(
    p: &Loaded,
    w: &mut World,
    mv: &MovementIr,
    mut env: Vec<Value>,
    steps: &[i64],
    backtracks: bool,
    site: Option<u32>,
) -> Result<Value, Fail> {
    let start = env[mv.start as usize].clone();
    if matches!(start, Value::List(_)) {
        return fail("a route starts on one place, not on a list").map_err(|f| at_site(f, site));
    }
    if steps.is_empty() {
        return Ok(Value::List(Arc::new(Vec::new())));
    }
    env.resize(mv.slots as usize, Value::None);
    let mut search = Places::new(p, mv, env);
    let from = search.id(start.clone());
    let (low, high) = (*steps.iter().min().unwrap_or(&0), *steps.iter().max().unwrap_or(&0));
    let mut sets = Sets::default();
    let none = sets.id(Vec::new());
    let mut found: Vec<Vec<u32>> = Vec::new();
    let mut keys: HashSet<(u32, u32), Fast> = HashSet::default();
    if low == 0 && search.test(w, true, from)? {
        keys.insert((from, none));
        found.push(Vec::new());
    }
    // Every state, the first (at the start, no step taken) at 0; `layer` those of one depth. A
    // computed step has no direction: a straight line is any line.
    let mut states = vec![Step { parent: 0, place: from, last: -1, passing: none }];
    let mut layer: Vec<usize> = vec![0];
    let mut seen: HashSet<(u32, u32, i64), Fast> = HashSet::default();
    for depth in 1..=high {
        let mut next_layer = Vec::new();
        let ending = steps.contains(&depth);
        let depth_seen = if low > 1 { depth } else { 0 };
        for &at in &layer {
            let here = states[at].place;
            let mut passing = states[at].passing;
            if at != 0 && here != from {
                if !search.test(w, false, here)? {
                    continue; // `here` would become a passed place: the route cannot go on from it
                }
                if search.occupied(w, here) {
                    passing = sets.with(passing, here);
                }
            }
            for &next in search.ways(w, here)?.iter() {
                if backtracks {
                    if !seen.insert((next, passing, depth_seen)) {
                        continue;
                    }
                } else if next == from || path_of(&states, at).contains(&next) {
                    continue;
                }
                states.push(Step { parent: at, place: next, last: -1, passing });
                let new = states.len() - 1;
                if ending && !keys.contains(&(next, passing)) && search.test(w, true, next)? {
                    keys.insert((next, passing));
                    found.push(path_of(&states, new));
                }
                next_layer.push(new);
            }
        }
        layer = next_layer;
    }
    let places = &search.places;
    let way = |path: Vec<u32>| {
        let path = path.into_iter().map(|id| places[id as usize].clone()).collect();
        Value::Route(Arc::new(Way { start: start.clone(), path }))
    };
    Ok(Value::List(Arc::new(found.into_iter().map(way).collect())))
}

/// `fewest_steps(START, PLACES, MOVEMENT, ARGS...)` of a movement with a `step` line: the
/// length of a shortest way from START to one of PLACES where its `ends` holds, passing only
/// places its `through` allows (the start excepted), however long; 0 when START is such a place,
/// `none` when none is reached (interpreter/grids.py's `fewest_steps`). Breadth first, each
/// place entered once, so it ends on any finite graph.
pub fn fewest(
    p: &Loaded,
    w: &mut World,
    mv: &MovementIr,
    start: Value,
    goals: Value,
    args: Vec<Value>,
    site: Option<u32>,
) -> Result<Value, Fail> {
    let Value::List(goals) = goals else {
        let refused = format!("fewest_steps counts to a list of places, not {}", goals.a_kind());
        return fail(refused).map_err(|f| at_site(f, site));
    };
    if matches!(start, Value::List(_)) {
        return fail("a route starts on one place, not on a list").map_err(|f| at_site(f, site));
    }
    if goals.iter().any(|g| matches!(g, Value::List(_))) {
        return fail("fewest_steps counts to places, not lists of them").map_err(|f| at_site(f, site));
    }
    let wanted: HashSet<&Value, Fast> = goals.iter().collect();
    let mut env = vec![Value::None; mv.slots as usize];
    for (i, arg) in args.into_iter().enumerate() {
        env[i] = arg;
    }
    env[mv.start as usize] = start.clone();
    let mut search = Places::new(p, mv, env);
    let from = search.id(start.clone());
    if wanted.contains(&start) && search.test(w, true, from)? {
        return Ok(Value::Int(0));
    }
    let mut seen: HashSet<u32, Fast> = [from].into_iter().collect();
    let mut layer = vec![from];
    let mut depth = 0;
    while !layer.is_empty() {
        depth += 1;
        let mut next_layer = Vec::new();
        for here in layer {
            if here != from && !search.test(w, false, here)? {
                continue;
            }
            for &next in search.ways(w, here)?.iter() {
                if !seen.insert(next) {
                    continue;
                }
                if wanted.contains(&search.places[next as usize]) && search.test(w, true, next)? {
                    return Ok(Value::Int(depth));
                }
                next_layer.push(next);
            }
        }
        layer = next_layer;
    }
    Ok(Value::None)
}
