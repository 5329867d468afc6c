//! Actions offered beside a player's decisions (`offer RULE(ARGS) to P [where COND] [as
//! LABEL]:`), as the Python engine offers them (interpreter/runtime.py's `Offer`,
//! `offers_for`, `take_offer`): while the block runs, every decision of P gets one more option
//! per action open to P, after the others; taking one runs the rule, then asks the same decision
//! again. An action is not offered inside itself, and the offer ends with its block.
//!
//! The offers open are part of the position (`Game::offers`), so a copy of a game carries them;
//! an action being taken is a frame like any rule's (not a call: the Python engine neither
//! spends a step nor counts it towards `MAX_RECURSION`), remembered in `Game::taken` so that,
//! when it returns, the decision is asked again: a `choose` or a `may "..."` by running its
//! instruction again (its options, its chooser and the offers worked out afresh), the next item
//! of a loop whose order a player chooses with the same items (the Python engine takes them
//! once per item).

use crate::ir::Instr;
use crate::limits;
use crate::value::Value;
use crate::vm::{at, eval, Event, Fail, Frame, Game, Pending};
use std::sync::Arc;

/// An `offer` block under way.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Open {
    /// The offered rule's code.
    pub code: u32,
    /// Its arguments, bound when the block began.
    pub args: Vec<Value>,
    /// The seat it is offered to.
    pub seat: u32,
    /// Its option's text.
    pub label: u32,
    /// The frame running the block (its index among the frames): its names are what the
    /// condition reads, and its code holds the `OfferOpen` instruction at `instr`.
    pub frame: u32,
    pub instr: u32,
    /// Whether the action is being taken now: it is not offered inside itself.
    pub running: bool,
}

/// An offered action being taken: its frame's index, the offer, and the decision to ask again
/// once it returns when that is not done by running the asking instruction again.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Taken {
    pub frame: u32,
    pub offer: u32,
    pub again: Option<Pending>,
}

impl Game {
    /// An `offer` block begins in the top frame, at its instruction `instr`.
    pub(crate) fn open_offer(&mut self, instr: u32, code: u32, args: Vec<Value>, seat: u32, label: u32) {
        let frame = self.frames.len() as u32 - 1;
        self.offers.push(Open { code, args, seat, label, frame, instr, running: false });
    }

    /// The actions open to `seat` now, by index among the offers, in the order their blocks
    /// began: each not being taken, its condition holding.
    pub(crate) fn open_to(&mut self, seat: u32) -> Result<Vec<u32>, Fail> {
        let program = self.program.clone();
        let mut out = Vec::new();
        for (i, offer) in self.offers.iter().enumerate() {
            if offer.seat != seat || offer.running {
                continue;
            }
            let frame = &mut self.frames[offer.frame as usize];
            let step = &program.ir.code[frame.code as usize].instrs[offer.instr as usize];
            if let Instr::OfferOpen { cond: Some(cond), .. } = &step.op {
                if !eval(&program, &mut self.world, cond, &mut frame.slots)?.truthy() {
                    continue;
                }
            }
            out.push(i as u32);
        }
        Ok(out)
    }

    /// Take the offered action the answer `index` names (past the pending decision's own
    /// options): the log says so, and the rule runs on top of the asking frame, which asks its
    /// decision again once it returns.
    pub(crate) fn take_offer(&mut self, pending: Pending, index: usize) -> Result<(), Fail> {
        let which = pending.offers[index - pending.options.len() - usize::from(pending.optional)];
        let (code, label) = (self.offers[which as usize].code, self.offers[which as usize].label);
        if self.world.logging {
            let said = Value::Text(Arc::from(self.program.ir.texts[label as usize].as_str()));
            let chose =
                Event::Chose { seat: pending.seat, prompt: pending.prompt, option: Some(said), only: false };
            limits::write(&self.program, &mut self.world, chose).map_err(|f| at(f, pending.at))?;
        }
        let offer = &mut self.offers[which as usize];
        offer.running = true;
        let mut slots = offer.args.clone();
        slots.resize(self.program.ir.code[code as usize].slots as usize, Value::None);
        let asking = self.frames.last_mut().expect("a decision is asked by a running frame");
        let again = if pending.same_again {
            Some(pending)
        } else {
            asking.pc = pending.asked;
            None
        };
        self.frames.push(Frame { code, pc: 0, slots, entered: false });
        self.taken.push(Taken { frame: self.frames.len() as u32 - 1, offer: which, again });
        Ok(())
    }

    /// A frame has just returned: if it was an offered action's, the action is offered again
    /// and its decision asked again. True when that decision is now pending.
    pub(crate) fn offer_returned(&mut self) -> Result<bool, Fail> {
        match self.taken.last() {
            Some(taken) if taken.frame as usize == self.frames.len() => {}
            _ => return Ok(false),
        }
        let Some(taken) = self.taken.pop() else { return Ok(false) };
        self.offers[taken.offer as usize].running = false;
        let Some(mut pending) = taken.again else { return Ok(false) };
        pending.offers = self.open_to(pending.seat).map_err(|f| at(f, pending.at))?;
        limits::ask(&self.program, self.choices.len()).map_err(|f| at(f, pending.at))?;
        self.pending = Some(pending);
        Ok(true)
    }
}
