//! Where a `movement` can go from a cell: the distinct routes, found breadth first in the order
//! interpreter/grids.py's `routes` finds them (one per end place and set of occupied places
//! passed, the first found kept). What may be passed and where a route may end are the rules'
//! own conditions, evaluated here with the place being tested in their slot.

use crate::ir::MovementIr;
use crate::placement;
use crate::value::{Value, Way};
use crate::vm::{at_site, eval, test, Fail, FailKind, Fast, Loaded, Part, World};
use std::collections::hash_map::Entry;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

/// No direction: the first step of a route.
const UNDIRECTED: i64 = -1;

fn fail<T>(message: impl Into<String>) -> Result<T, Fail> {
    Err(Fail { kind: FailKind::Error(message.into()), at: None })
}

/// A route search: the movement's slots (its parameters, `start`, the place a condition tests)
/// and what it has asked of each place, once, by location (the conditions look at places,
/// which do not change during the search).
struct Search<'a> {
    p: &'a Loaded,
    mv: &'a MovementIr,
    env: Vec<Value>,
    passable: Vec<Option<bool>>,
    endable: Vec<Option<bool>>,
    full: Vec<Option<bool>>,
}

type Cond = Option<(u32, crate::ir::Expr)>;

impl Search<'_> {
    fn test(&mut self, w: &mut World, cond: &Cond, place: u32) -> Result<bool, Fail> {
        let Some((slot, e)) = cond else { return Ok(true) };
        self.env[*slot as usize] = Value::Cell(place);
        // Answered as `if` answers it (`vm::test`: a comparison or a value's answer without a
        // value made for each step of `and`, `or`, `not`), as truthy as the value would be.
        test(self.p, w, e, &mut self.env)
    }

    fn may_pass(&mut self, w: &mut World, place: u32) -> Result<bool, Fail> {
        if let Some(known) = self.passable[place as usize] {
            return Ok(known);
        }
        let answer = self.test(w, &self.mv.through, place)?;
        self.passable[place as usize] = Some(answer);
        Ok(answer)
    }

    fn may_end(&mut self, w: &mut World, place: u32) -> Result<bool, Fail> {
        if let Some(known) = self.endable[place as usize] {
            return Ok(known);
        }
        let answer = self.test(w, &self.mv.ends, place)?;
        self.endable[place as usize] = Some(answer);
        Ok(answer)
    }

    fn occupied(&mut self, w: &mut World, place: u32) -> bool {
        if let Some(known) = self.full[place as usize] {
            return known;
        }
        w.read(Part::Loc(place));
        let answer = !w.locs[place as usize].is_empty();
        self.full[place as usize] = Some(answer);
        answer
    }
}

/// The sets of occupied places the search's paths have passed, each kept once and named by a
/// number (what makes two routes different outcomes). A set is bits, a place's bit given when
/// the search first passes it (a search passes a few dozen at most), with no word of zeros at its
/// end, so that equal sets are equal words: a set grown by a place is a copy of a few words and a
/// hash of them, where a sorted list of places was searched, grown and hashed (nearly every
/// growing makes a new set).
#[derive(Default)]
pub(crate) struct Sets {
    sets: Vec<Vec<u64>>,
    ids: HashMap<Vec<u64>, u32, Fast>,
    bits: HashMap<u32, usize, Fast>,
}

impl Sets {
    pub(crate) fn with(&mut self, set: u32, place: u32) -> u32 {
        let given = self.bits.len();
        let bit = *self.bits.entry(place).or_insert(given);
        let (word, mask) = (bit / 64, 1u64 << (bit % 64));
        let words = &self.sets[set as usize];
        if words.get(word).is_some_and(|w| w & mask != 0) {
            return set;
        }
        let mut grown = words.clone();
        if grown.len() <= word {
            grown.resize(word + 1, 0);
        }
        grown[word] |= mask;
        self.id(grown)
    }

    pub(crate) fn id(&mut self, set: Vec<u64>) -> u32 {
        let next = self.sets.len() as u32;
        match self.ids.entry(set) {
            Entry::Occupied(known) => *known.get(),
            Entry::Vacant(new) => {
                self.sets.push(new.key().clone());
                *new.insert(next)
            }
        }
    }
}

/// The states a search has met, by (place, set of occupied places passed, direction, depth),
/// where routes may go back over their path (a route's search meets each of a few thousand
/// states once or more). Where neither direction nor depth tells states apart (a movement that
/// turns, whose shortest routes count), a bit each in a row of bits per set (a hash of each
/// state cost more than the rest of the step); otherwise, hashed.
enum Seen {
    Rows { bits: Vec<u64>, places: usize },
    Hashed(HashSet<(u32, u32, i64, usize), Fast>),
}

impl Seen {
    fn new(places: usize, straight: bool, by_depth: bool) -> Seen {
        match straight || by_depth {
            false => Seen::Rows { bits: Vec::new(), places },
            true => Seen::Hashed(HashSet::default()),
        }
    }

    /// Whether the state is new, marking it met.
    fn insert(&mut self, place: u32, passing: u32, direction: i64, depth: usize) -> bool {
        match self {
            Seen::Rows { bits, places } => {
                let at = passing as usize * *places + place as usize;
                let (word, bit) = (at / 64, 1u64 << (at % 64));
                if word >= bits.len() {
                    bits.resize(word + 1 + *places / 64, 0);
                }
                let new = bits[word] & bit == 0;
                bits[word] |= bit;
                new
            }
            Seen::Hashed(seen) => seen.insert((place, passing, direction, depth)),
        }
    }
}

/// One state of the search: the place it reached (by the step from its parent state), the
/// direction of that step, and the set of occupied places passed before it.
pub(crate) struct Step {
    pub(crate) parent: usize,
    pub(crate) place: u32,
    pub(crate) passing: u32,
    pub(crate) last: i64,
}

/// The places a state's path entered, from the first step.
pub(crate) fn path_of(states: &[Step], mut at: usize) -> Vec<u32> {
    let mut path = Vec::new();
    while at != 0 {
        path.push(states[at].place);
        at = states[at].parent;
    }
    path.reverse();
    path
}

/// Whether a state's path (its start left out) entered `place`, without listing the path.
fn entered(states: &[Step], mut at: usize, place: u32) -> bool {
    while at != 0 {
        if states[at].place == place {
            return true;
        }
        at = states[at].parent;
    }
    false
}

/// A state's path, `depth` places long, as the route's cells: made once, at its size.
fn cells_of(states: &[Step], mut at: usize, depth: usize) -> Vec<Value> {
    let mut path = vec![Value::None; depth];
    for slot in path.iter_mut().rev() {
        *slot = Value::Cell(states[at].place);
        at = states[at].parent;
    }
    path
}

/// `routes(START, MOVEMENT, ARGS...)` from a cell of a grid.
pub fn routes(
    p: &Loaded,
    w: &mut World,
    mv: &MovementIr,
    start: Value,
    args: Vec<Value>,
    site: Option<u32>,
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
    if mv.step.is_some() {
        return crate::steps::routes(p, w, mv, env, &steps, backtracks, site);
    }
    let Value::Cell(from) = start else {
        let refused = format!("routes start on a grid cell, not on {}", start.a_kind());
        return fail(refused).map_err(|f| at_site(f, site));
    };
    if placement::coords(p, w, from).is_none() {
        return fail("routes start on a grid cell").map_err(|f| at_site(f, site));
    }
    if steps.is_empty() {
        return Ok(Value::List(Arc::new(Vec::new())));
    }
    let (low, high) = (*steps.iter().min().unwrap_or(&0), *steps.iter().max().unwrap_or(&0));
    let places = w.locs.len();
    let mut search = Search {
        p,
        mv,
        env,
        passable: vec![None; places],
        endable: vec![None; places],
        full: vec![None; places],
    };
    let mut sets = Sets::default();
    let none = sets.id(Vec::new());
    let mut found: Vec<Value> = Vec::new();
    let mut keys: HashSet<(u32, u32), Fast> = HashSet::default();
    let way = |path: Vec<Value>| Value::Route(Arc::new(Way { start: Value::Cell(from), path }));
    // What one step from a place reaches, (the index of its direction, the place): one list,
    // filled afresh for each state.
    let mut ways: Vec<(usize, u32)> = Vec::with_capacity(6);
    if low == 0 && search.may_end(w, from)? {
        keys.insert((from, none));
        found.push(way(Vec::new()));
    }
    // Every state, the first (at the start, no step taken) at 0; `layer` those of one depth.
    let mut states = vec![Step { parent: 0, place: from, last: UNDIRECTED, passing: none }];
    let mut layer: Vec<usize> = vec![0];
    let mut seen = Seen::new(places, straight, low > 1);
    for depth in 1..=high {
        let mut next_layer = Vec::new();
        let ending = steps.contains(&depth);
        let depth_seen = if low > 1 { depth as usize } else { 0 };
        for &at in &layer {
            let (here, last) = (states[at].place, states[at].last);
            let mut passing = states[at].passing;
            if at != 0 && here != from {
                if !search.may_pass(w, here)? {
                    continue; // `here` would become a passed place: the route cannot go on from it
                }
                if search.occupied(w, here) {
                    passing = sets.with(passing, here);
                }
            }
            placement::steps_into(p, w, here, &mut ways)?;
            for &(direction, next) in &ways {
                let direction = direction as i64;
                if straight && last != UNDIRECTED && direction != last {
                    continue;
                }
                if backtracks {
                    let way = if straight { direction } else { UNDIRECTED };
                    if !seen.insert(next, passing, way, depth_seen) {
                        continue;
                    }
                } else if next == from || entered(&states, at, next) {
                    continue;
                }
                states.push(Step { parent: at, place: next, last: direction, passing });
                let new = states.len() - 1;
                // A place is asked whether a route may end there before a route ends there
                // (`keys`), so asking first asks nothing more, and hashes only where one may.
                if ending && search.may_end(w, next)? && !keys.contains(&(next, passing)) {
                    keys.insert((next, passing));
                    found.push(way(cells_of(&states, new, depth as usize)));
                }
                next_layer.push(new);
            }
        }
        layer = next_layer;
    }
    Ok(Value::List(Arc::new(found)))
}

#[cfg(test)]
mod tests {
    use super::{Seen, Sets};

    /// A set grown by the same places in any order, or by a place twice, is the same set; any
    /// other set is another (its bits past the first word too).
    #[test]
    fn sets_of_places_grown_in_any_order_are_one_set_and_others_are_not() {
        let mut sets = Sets::default();
        let none = sets.id(Vec::new());
        let grow = |sets: &mut Sets, places: &[u32]| places.iter().fold(none, |set, p| sets.with(set, *p));
        let many: Vec<u32> = (100..170).collect();
        let mut reversed = many.clone();
        reversed.reverse();
        assert_eq!(grow(&mut sets, &[7, 3, 9]), grow(&mut sets, &[9, 7, 3, 3]));
        assert_eq!(grow(&mut sets, &many), grow(&mut sets, &reversed));
        assert_ne!(grow(&mut sets, &[7, 3]), grow(&mut sets, &[7, 3, 9]));
        assert_ne!(grow(&mut sets, &many), grow(&mut sets, &many[1..]));
        assert_ne!(grow(&mut sets, &[]), grow(&mut sets, &[3]));
        assert_eq!(grow(&mut sets, &[]), none);
    }

    /// The table of bits meets states as the hashed set does: each new the first time alone,
    /// whatever the set of places passed (rows added as sets are met, out of order too).
    #[test]
    fn a_state_met_in_the_rows_of_bits_is_new_once_as_in_the_hashed_set() {
        let places = 70; // more than a word, so a set's row straddles words
        let (mut rows, mut hashed) = (Seen::new(places, false, false), Seen::new(places, true, false));
        assert!(matches!(rows, Seen::Rows { .. }) && matches!(hashed, Seen::Hashed(_)));
        let states = [(0, 0), (69, 0), (0, 1), (3, 5), (69, 5), (0, 0), (3, 5), (64, 2), (69, 0), (64, 2)];
        for (place, passing) in states {
            let (a, b) = (rows.insert(place, passing, -1, 0), hashed.insert(place, passing, -1, 0));
            assert_eq!(a, b, "state {place} after set {passing}");
        }
        assert!(!rows.insert(3, 5, -1, 0) && rows.insert(4, 5, -1, 0) && rows.insert(3, 4, -1, 0));
    }
}
