//! Seats the rules play (`automated NAME plays STYLE`), as interpreter/seats.py plays them.
//!
//! Such a seat sits after the players and is never asked: when a decision of two options or
//! more is its, the rules make it. Its style's lines are read in order, as priorities: an
//! option's rank is what each line says of it, first line first (its weight where the line
//! speaks of it and its condition holds, 1/weight for `avoid`, else 1), and the best rank is
//! taken; options still level are drawn from the game's own generator. The decision is logged
//! as any answer is, and is not among the game's choices. An action offered beside the decision
//! (`offer`) is ranked with the options by the lines that speak of it (styles.rs's `spoken`),
//! and taken as a player takes it (offers.rs).

use crate::ir::{AutomatonIr, PrefIr, PrefTarget};
use crate::limits;
use crate::value::Value;
use crate::vm::{at, eval, int, Event, Fail, FailKind, Game, Loaded, Pending, World};
use std::cmp::Ordering;

/// The weight of a preference that says none (`prefer X`): styles.py's DEFAULT_WEIGHT.
const DEFAULT_WEIGHT: i64 = 10;

fn fail<T>(message: impl Into<String>) -> Result<T, Fail> {
    Err(Fail { kind: FailKind::Error(message.into()), at: None })
}

/// A rank's entry: a weight, or one over a weight, as a fraction (numerator, denominator).
type Part = (i128, i128);

/// What a line of a style says of an option: the line (and column), the option's index, the
/// weight, and whether the line avoids.
pub(crate) type Said = ((i64, i64), usize, i64, bool);

fn compare(a: &[Part], b: &[Part]) -> Ordering {
    for ((an, ad), (bn, bd)) in a.iter().zip(b) {
        match (an * bd).cmp(&(bn * ad)) {
            Ordering::Equal => {}
            other => return other,
        }
    }
    Ordering::Equal
}

/// What each preference says of each option it speaks of and whose condition holds: its line,
/// the option's index, its weight and whether it avoids (styles.py's `Style.said`).
pub(crate) fn said(
    p: &Loaded,
    w: &mut World,
    prefs: &[&PrefIr],
    pending: &Pending,
    env: &mut [Value],
    out: &mut Vec<Said>,
) -> Result<(), Fail> {
    for pref in prefs {
        let indexes: Vec<(usize, Option<Value>)> = match pref.target {
            PrefTarget::Option => pending.options.iter().enumerate().map(|(i, v)| (i, Some(v))).collect(),
            PrefTarget::Yes => vec![(0, None)],
            PrefTarget::Pass => vec![(if pref.ask { 1 } else { pending.options.len() }, None)],
            PrefTarget::Offer => Vec::new(), // kept at the offer's site: styles.rs reads them
        };
        for (index, option) in indexes {
            if let (Some(v), Some(var)) = (option, pending.var) {
                env[var as usize] = v;
            }
            weigh(p, w, pref, env, index, out)?;
        }
    }
    Ok(())
}

/// What one preference says of one option, if its condition holds (styles.py's `_weigh`).
pub(crate) fn weigh(
    p: &Loaded,
    w: &mut World,
    pref: &PrefIr,
    env: &mut [Value],
    index: usize,
    out: &mut Vec<Said>,
) -> Result<(), Fail> {
    if let Some(cond) = &pref.cond {
        if !eval(p, w, cond, env).map_err(|f| at(f, pref.at))?.truthy() {
            return Ok(());
        }
    }
    let weight = match &pref.weight {
        Some(e) => eval(p, w, e, env).and_then(int).map_err(|f| at(f, pref.at))?,
        None => DEFAULT_WEIGHT,
    };
    if weight < i64::from(pref.avoid) {
        let least = if pref.avoid {
            "1 (avoiding by 1 changes nothing)"
        } else {
            "0 (0: never, if anything else is possible)"
        };
        return Err(at(
            Fail {
                kind: FailKind::Error(format!("a weight of {weight}: a weight is at least {least}")),
                at: None,
            },
            pref.bound_at,
        ));
    }
    out.push((pref.line, index, weight, pref.avoid));
    Ok(())
}

impl Game {
    /// The option the rules take for the automaton whose decision is pending: the best by its
    /// style's lines, read in order; a tie drawn from the game's generator (seats.py's `resolve`).
    fn ranked(&mut self, p: &Loaded, automaton: &AutomatonIr, pending: &Pending) -> Result<usize, Fail> {
        let prompt = &p.ir.texts[pending.prompt as usize];
        let asked = |why: String| {
            fail(format!(
                "{} is a seat the rules play, and the rules ask it '{prompt}': {why}. Give its style a \
                 preference for it, or ask it only of players",
                automaton.name
            ))
        };
        let Some(style) = automaton.style else {
            return asked("it plays no style (`automated NAME plays STYLE`)".into());
        };
        let Some(said) = self.spoken(p, style, pending)? else {
            let name = automaton.style_name.as_deref().unwrap_or_default();
            return asked(format!("its style '{name}' says nothing of this decision"));
        };
        let mut lines: Vec<(i64, i64)> = said.iter().map(|s| s.0).collect();
        lines.sort_unstable();
        lines.dedup();
        let mut ranks: Vec<Vec<Part>> = vec![vec![(1, 1); lines.len()]; pending.size()];
        for (line, index, weight, avoid) in said {
            let column = lines.binary_search(&line).unwrap_or_default();
            let part = &mut ranks[index][column];
            if avoid {
                part.1 *= i128::from(weight);
            } else {
                part.0 *= i128::from(weight);
            }
        }
        let best = ranks.iter().max_by(|a, b| compare(a, b)).cloned().unwrap_or_default();
        let level: Vec<usize> =
            (0..ranks.len()).filter(|i| compare(&ranks[*i], &best) == Ordering::Equal).collect();
        Ok(if level.len() == 1 {
            level[0]
        } else {
            level[self.world.rng.randbelow(level.len() as u64) as usize]
        })
    }

    /// If the pending decision is an automaton's, make it: logged as an answer, not among the
    /// choices. True when one was made (the game then runs on).
    pub(crate) fn automaton_answers(&mut self) -> Result<bool, Fail> {
        let program = self.program.clone();
        let Some(humans) = program.ir.humans else { return Ok(false) };
        match &self.pending {
            Some(pending) if pending.seat >= humans => {}
            _ => return Ok(false),
        }
        let Some(pending) = self.pending.take() else { return Ok(false) };
        let Some(automaton) = program.ir.automata.get((pending.seat - humans) as usize) else {
            return fail("a seat the rules play that the program does not know");
        };
        let index = self.ranked(&program, automaton, &pending).map_err(|f| at(f, pending.at))?;
        if index >= pending.options.len() + usize::from(pending.optional) {
            // an action offered beside the decision (offers.rs), logged as it is taken
            self.take_offer(pending, index)?;
            return Ok(true);
        }
        if self.world.logging {
            let option = pending.options.get(index);
            let chose = Event::Chose { seat: pending.seat, prompt: pending.prompt, option, only: false };
            limits::write(&program, &mut self.world, chose).map_err(|f| at(f, pending.at))?;
        }
        self.resolve(pending, index);
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_compare_line_by_line_as_fractions() {
        assert_eq!(compare(&[(10, 1), (1, 1)], &[(1, 1), (100, 1)]), Ordering::Greater);
        assert_eq!(compare(&[(1, 3), (5, 1)], &[(2, 6), (5, 1)]), Ordering::Equal);
        assert_eq!(compare(&[(1, 1), (1, 2)], &[(1, 1), (0, 1)]), Ordering::Greater);
    }
}
