//! `reveal PIECES to PLAYERS`, as the Python engine runs it (compiler/statements.py's
//! `compile_Reveal`, runtime.py's `Runtime.reveal` and `unseen`): the seats shown remember, of
//! each piece, as many as they saw at once where it lies, until a piece like it leaves or
//! reaches the place (or the place is shuffled); the log line names the pieces for them, and
//! says to every other seat how many were looked at, and where.
//!
//! What a seat remembers is part of the position (`World::seen`): a copy carries it, and a
//! searching player (mcts.rs) leaves what its seat saw where it lies when it guesses the rest.

use crate::limits::Reading;
use crate::value::{Piece, Value};
use crate::vm::{Event, Fail, FailKind, Loaded, World};

/// What each seat was shown and still knows, by place: for each place (its location), for each
/// seat shown, how many of each piece it saw there, each list in the order it was first seen
/// (the Python engine's dicts keep that order, and the view lists them in it).
#[derive(Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct Seen {
    places: Vec<(u32, Vec<Known>)>,
}

/// What one seat knows of one place: each piece it saw there, and how many.
type Known = (u32, Vec<(Piece, u32)>);

impl Seen {
    pub fn is_empty(&self) -> bool {
        self.places.is_empty()
    }

    /// The seats `seats` saw the pieces `pieces` at `loc`: each keeps, of each piece, the most it
    /// saw there at once (a second look at the same hand adds nothing).
    fn show(&mut self, loc: u32, pieces: &[Piece], seats: &[u32]) {
        let mut looked: Vec<(Piece, u32)> = Vec::new();
        for piece in pieces {
            match looked.iter_mut().find(|(p, _)| p == piece) {
                Some((_, n)) => *n += 1,
                None => looked.push((*piece, 1)),
            }
        }
        let at = match self.places.iter().position(|(l, _)| *l == loc) {
            Some(i) => &mut self.places[i].1,
            None => {
                self.places.push((loc, Vec::new()));
                &mut self.places.last_mut().expect("just pushed").1
            }
        };
        for seat in seats {
            let known = match at.iter().position(|(s, _)| s == seat) {
                Some(i) => &mut at[i].1,
                None => {
                    at.push((*seat, Vec::new()));
                    &mut at.last_mut().expect("just pushed").1
                }
            };
            for (piece, count) in &looked {
                match known.iter_mut().find(|(p, _)| p == piece) {
                    Some((_, n)) => *n = (*n).max(*count),
                    None => known.push((*piece, *count)),
                }
            }
        }
    }

    /// Pieces left or reached `loc`, or it was shuffled: what any seat saw there of pieces like
    /// them is forgotten, since no seat can still tell which of the alike pieces is the one it saw.
    pub fn moved(&mut self, loc: u32, pieces: &[Piece]) {
        let Some(i) = self.places.iter().position(|(l, _)| *l == loc) else { return };
        let at = &mut self.places[i].1;
        for (_, known) in at.iter_mut() {
            known.retain(|(p, _)| !pieces.contains(p));
        }
        at.retain(|(_, known)| !known.is_empty());
        if at.is_empty() {
            self.places.remove(i);
        }
    }

    /// What `seat` was shown at `loc` and still knows: each piece and how many.
    pub fn of(&self, loc: u32, seat: u32) -> &[(Piece, u32)] {
        self.places
            .iter()
            .find(|(l, _)| *l == loc)
            .and_then(|(_, at)| at.iter().find(|(s, _)| *s == seat))
            .map_or(&[], |(_, known)| known.as_slice())
    }

    /// Everything remembered: (location, seat, pieces and counts), for the Python side.
    pub fn all(&self) -> impl Iterator<Item = (u32, u32, &[(Piece, u32)])> {
        self.places
            .iter()
            .flat_map(|(loc, at)| at.iter().map(move |(seat, known)| (*loc, *seat, known.as_slice())))
    }
}

fn error<T>(message: String) -> Result<T, Fail> {
    Err(Fail { kind: FailKind::Error(message), at: None })
}

/// `reveal WHAT to WHOM`, the two already evaluated (in that order, as the Python engine does):
/// checked first, whole, so that a bad one changes nothing; showing no pieces, or to nobody,
/// does nothing. Pieces are grouped by the place they are in, places in the order the rules
/// name them.
pub fn reveal(p: &Loaded, w: &mut World, what: Value, whom: Value) -> Result<(), Fail> {
    let seats: Vec<Value> = match whom {
        Value::List(items) => items.as_ref().clone(),
        one => vec![one],
    };
    let mut shown = Vec::with_capacity(seats.len());
    for seat in &seats {
        match seat {
            Value::Player(s) => shown.push(*s),
            other => return error(format!("pieces are revealed to players, not to {}", other.type_name())),
        }
    }
    let refs: Vec<Value> = match what {
        Value::List(items) => items.as_ref().clone(),
        one => vec![one],
    };
    let mut at: Vec<(u32, Vec<Piece>)> = Vec::new();
    for r in refs {
        let Value::Piece(loc, piece) = r else {
            return error(format!("only pieces can be revealed, not {}", r.type_name()));
        };
        if !w.locs.get(loc as usize).is_some_and(|pile| pile.contains(&piece)) {
            return error("a piece is no longer where it was".into());
        }
        match at.iter_mut().find(|(l, _)| *l == loc) {
            Some((_, pieces)) => pieces.push(piece),
            None => at.push((loc, vec![piece])),
        }
    }
    if at.is_empty() || shown.is_empty() {
        return Ok(());
    }
    for (loc, pieces) in &at {
        w.seen.show(*loc, pieces, &shown);
    }
    if w.logging {
        crate::limits::write(p, w, Event::Revealed { seats: shown, at })?;
    }
    Ok(())
}

/// The characters of a reveal's two lines (statements.py's `_looked`), the seats' and the
/// others': both count towards the log's limit, as `Runtime.write_secret` counts them.
/// "  P1 and P2 look at Owl, Key in hand of P3" / "  P1 and P2 look at 2 cards in hand of P3".
pub fn line_chars(r: &Reading, seats: &[u32], at: &[(u32, Vec<Piece>)]) -> u64 {
    let labels = r.labels;
    let get = |table: &[u64], i: u32| table.get(i as usize).copied().unwrap_or(0);
    let who =
        2 + listed(seats.iter().map(|s| get(&labels.players, *s))) + if seats.len() == 1 { 6 } else { 5 } + 3;
    let place = |loc: u32| match r.grown.cell(loc) {
        Some((_, q, rr, _)) => format!("({q},{rr})").chars().count() as u64,
        None => get(&labels.locations, loc),
    };
    let piece =
        |pc: &Piece| get(&labels.kinds, pc.kind) + pc.owner.map_or(0, |o| 4 + get(&labels.players, o));
    let named = listed(at.iter().map(|(loc, pieces)| {
        let names: u64 = pieces.iter().map(piece).sum();
        names + 2 * (pieces.len() as u64 - 1) + 4 + place(*loc)
    }));
    let counted = listed(at.iter().map(|(loc, pieces)| how_many(r, pieces) + 4 + place(*loc)));
    (who + 1 + named) + (who + 1 + counted)
}

/// The characters of items as a sentence lists them: "a", "a and b", "a, b and c".
fn listed(items: impl Iterator<Item = u64>) -> u64 {
    let (mut total, mut n) = (0, 0);
    for item in items {
        total += item;
        n += 1;
    }
    match n {
        0 | 1 => total,
        _ => total + 2 * (n - 2) + 5,
    }
}

/// The characters of "one Card", "2 Cards", or "3 pieces" for pieces of several declarations
/// (statements.py's `_how_many`).
fn how_many(r: &Reading, pieces: &[Piece]) -> u64 {
    let labels = r.labels;
    let decl = |pc: &Piece| labels.kind_decl.get(pc.kind as usize).copied();
    let first = pieces.first().and_then(decl);
    let number = pieces.len().to_string().len() as u64;
    if pieces.iter().any(|pc| decl(pc) != first) {
        return number + 7;
    }
    let d = first.unwrap_or(0) as usize;
    if pieces.len() == 1 {
        4 + labels.decl_one.get(d).copied().unwrap_or(0)
    } else {
        number + 1 + labels.decl_many.get(d).copied().unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pc(kind: u32) -> Piece {
        Piece { kind, owner: None }
    }

    #[test]
    fn a_second_look_adds_nothing_and_a_move_forgets_pieces_like_it() {
        let mut seen = Seen::default();
        seen.show(3, &[pc(1), pc(2)], &[0]);
        seen.show(3, &[pc(1)], &[0, 2]);
        assert_eq!(seen.of(3, 0), &[(pc(1), 1), (pc(2), 1)]);
        assert_eq!(seen.of(3, 2), &[(pc(1), 1)]);
        seen.moved(3, &[pc(1)]);
        assert_eq!(seen.of(3, 0), &[(pc(2), 1)]);
        assert!(seen.of(3, 2).is_empty());
        seen.moved(3, &[pc(2)]);
        assert!(seen.is_empty());
    }

    #[test]
    fn items_are_listed_as_a_sentence_lists_them() {
        assert_eq!(listed([3].into_iter()), 3); // "Owl"
        assert_eq!(listed([3, 4].into_iter()), 12); // "Owl and Lamp"
        assert_eq!(listed([3, 4, 3].into_iter()), 17); // "Owl, Lamp and Key"
    }
}
