//! Styles played by an agent (`--agents STYLE`), as interpreter/agents.py's `StyleAgent` plays
//! them with interpreter/styles.py's `Style.weights`: each option starts with a weight of 1,
//! and every preference that speaks of it and whose condition holds multiplies it by its weight
//! (`prefer`) or divides it (`avoid`); the option is then drawn in proportion, from the agent's
//! own generator (`random.Random(seed * 1000 + seat)`). Where every option weighs the same, or
//! the style says nothing of the decision, the agent draws as a random one of the same seed
//! would. The same floating-point operations in the same order as the Python engine's, so a
//! seed plays the same game on both engines.
//!
//! What a style says of a decision (`Game::spoken`) serves the seats the rules play too
//! (automata.rs), which rank by it rather than draw.

use crate::automata::{said, weigh, Said};
use crate::ir::{PrefIr, PrefTarget};
use crate::rng::Mt;
use crate::vm::{Fail, Game, Loaded, Pending};

impl Game {
    /// What the lines of the style `style` say of the pending decision: of its options and its
    /// pass (in the asking frame's names), then of each action offered beside it (in the names of
    /// the frame that runs the `offer` block), in the order the lines and the options come; None
    /// when no line speaks of it (styles.py's `Style.said`).
    pub(crate) fn spoken(
        &mut self,
        p: &Loaded,
        style: u32,
        pending: &Pending,
    ) -> Result<Option<Vec<Said>>, Fail> {
        let of_style = |at: u32| -> Vec<&PrefIr> {
            p.ir.prefs.get(&at).map_or_else(Vec::new, |all| all.iter().filter(|c| c.style == style).collect())
        };
        let here = of_style(pending.at);
        let mut offered = Vec::new();
        for (i, which) in pending.offers.iter().enumerate() {
            let open = &self.offers[*which as usize];
            let code = self.frames[open.frame as usize].code;
            let site = p.ir.code[code as usize].instrs[open.instr as usize].at;
            let prefs: Vec<&PrefIr> =
                of_style(site).into_iter().filter(|c| c.target == PrefTarget::Offer).collect();
            if !prefs.is_empty() {
                offered.push((i, open.frame, prefs));
            }
        }
        if here.is_empty() && offered.is_empty() {
            return Ok(None);
        }
        let mut out = Vec::new();
        let mut env = self.frames.last().map_or_else(Vec::new, |frame| frame.slots.clone());
        said(p, &mut self.world, &here, pending, &mut env, &mut out)?;
        let first_offer = pending.options.len() + usize::from(pending.optional);
        for (i, frame, prefs) in offered {
            let mut env = self.frames[frame as usize].slots.clone();
            for pref in prefs {
                weigh(p, &mut self.world, pref, &mut env, first_offer + i, &mut out)?;
            }
        }
        Ok(Some(out))
    }

    /// Each option's weight by the style for the pending decision (styles.py's `Style.weights`);
    /// None when nothing is pending or no line of the style speaks of it.
    pub fn weights(&mut self, style: u32) -> Result<Option<Vec<f64>>, Fail> {
        let Some(pending) = self.pending.clone() else { return Ok(None) };
        let program = self.program.clone();
        let Some(said) = self.spoken(&program, style, &pending)? else { return Ok(None) };
        let mut weights = vec![1.0_f64; pending.size()];
        for (_, index, weight, avoid) in said {
            if avoid {
                weights[index] /= weight as f64;
            } else {
                weights[index] *= weight as f64;
            }
        }
        Ok(Some(weights))
    }

    /// The answer of an agent playing the style, from its generator (agents.py's
    /// `StyleAgent.choose`).
    pub(crate) fn style_answer(&mut self, style: u32, rng: &mut Mt) -> Result<usize, Fail> {
        let size = self.pending.as_ref().map_or(0, Pending::size);
        match self.weights(style)? {
            Some(weights) if weights.iter().any(|w| *w != weights[0]) => Ok(draw(rng, &weights)),
            _ => Ok(rng.randbelow(size as u64) as usize),
        }
    }
}

/// An index drawn in proportion to the weights, uniform when they add up to nothing
/// (styles.py's `draw`: the sum from the left, a point in [0, total), each weight off it).
fn draw(rng: &mut Mt, weights: &[f64]) -> usize {
    let total = weights.iter().fold(0.0_f64, |sum, w| sum + w);
    if total <= 0.0 {
        return rng.randbelow(weights.len() as u64) as usize;
    }
    let mut point = rng.random() * total;
    for (index, weight) in weights.iter().enumerate() {
        point -= weight;
        if point < 0.0 {
            return index;
        }
    }
    weights.len() - 1
}
