//! A filter of a board's cells by how many pieces each holds
//! (`[each c in cells(BOARD) where count(pieces(c[, KIND][, OWNER])) OP N]`, the shape a game's
//! empty cells, a player's stones or marks take) answered in one pass over the board's piles,
//! its reads given to the memo at once.
//!
//! A board given by its size has its cells as consecutive locations (grid.rs), so their piles are
//! a slice of the position, and the memo's parts of their pieces a run of consecutive numbers:
//! the board's reads are a run of buckets set a word at a time (`Memo::read_locations`), where
//! asked item by item each cell's read cost some 70 instructions (its part numbered, its bucket
//! set), about half the filter's cost (docs/benchmarks.md, a twenty-fifth round). The answer is
//! the list the walk makes, in the board's order, the same steps spent (one per cell) and the
//! same buckets read; nothing here can fail but the budget, as the walk would at the same point.
//!
//! Answered this way only where the walk reads each cell's own part: while no kept filter's item
//! is being tested (kept.rs wants each location read by name) and where a kind's pieces at a
//! place are no part of their own (memo.rs's `KindParts`). Elsewhere, and for any other shape,
//! `None`: the caller walks the filter as before.

use crate::compiled::{Place, Test};
use crate::grid::GridIndex;
use crate::ir::{BinOp, Builtin, Expr, Program};
use crate::value::{Piece, Value};
use crate::vm::{self, Fail, FailKind, Loaded, World};
use std::sync::Arc;

/// The most cells of a board whose filter, a value's body, is answered here before kept.rs is
/// asked to keep it item by item: on a larger board a pass over every cell and a list made anew cost more than
/// testing again the few items a move changed (callgrind on the core alone, examples/playouts.rs,
/// docs/benchmarks.md, a twenty-fifth round: a board of 42 cells, 5% less for a whole game of
/// Connect Four by a pass; of 121, 47% more for Hex). The tests keep the filters of their board
/// of 3 cells, as kept.rs's `FEW_ITEMS` has them kept.
#[cfg(not(test))]
pub(crate) const MOST_CELLS_KEPT: u32 = 64;
#[cfg(test)]
pub(crate) const MOST_CELLS_KEPT: u32 = 2;

/// Whether a value's body is a filter of a board's cells (a board given by its size) by the
/// pieces of each, found when the program loads: the board's cells if so.
pub(crate) fn shaped(ir: &Program, body: &Expr) -> Option<u32> {
    let Expr::Filter { seq, slot, cond } = body else { return None };
    let grid = &ir.grids[board(ir, seq)?];
    let (_, args, _) = vm::pieces_counted(cond)?;
    matches!(args.first(), Some(Expr::Local(s)) if s == slot).then_some(grid.cells.len() as u32)
}

/// The board of `cells(BOARD)`, a board given by its size (one that does not grow), if `seq` is
/// that; None for any other list.
pub(crate) fn board(ir: &Program, seq: &Expr) -> Option<usize> {
    let Expr::Builtin(Builtin::Cells, of) = seq else { return None };
    let [Expr::Const(Value::Grid(g))] = of.as_slice() else { return None };
    let g = *g as usize;
    ir.grids.get(g).is_some_and(|grid| !grid.grows).then_some(g)
}

/// Whether a value's body is answered by one pass before kept.rs is asked to keep it: a filter of
/// the shape on a board of at most `MOST_CELLS_KEPT` cells. On a larger one kept.rs keeps it
/// where it may; where it may not, the walk (`vm::eval`) asks the pass.
pub(crate) fn passes_first(ir: &Program, body: &Expr) -> bool {
    shaped(ir, body).is_some_and(|cells| cells <= MOST_CELLS_KEPT)
}

/// `[each x in SEQ where COND]` (x in `slot`) answered by one pass over a board's piles, or
/// None, having done nothing, where it is not of that shape or not answered here (see the
/// module's comment).
pub(crate) fn filter(
    p: &Loaded,
    w: &mut World,
    seq: &Expr,
    slot: u32,
    cond: &Expr,
    env: &mut [Value],
) -> Result<Option<Value>, Fail> {
    pass(p, w, (seq, slot, cond), env, None, listed)
}

/// The cells marked in `set` (bit `i` the cell at location `first + i`) as a list in the board's
/// order, made at its length: no list grown item by item.
fn listed(first: u32, set: &[u64]) -> Value {
    let mut out = Vec::with_capacity(set.iter().map(|bits| bits.count_ones() as usize).sum());
    for (word, bits) in set.iter().enumerate() {
        let mut bits = *bits;
        while bits != 0 {
            out.push(Value::Cell(first + (word * 64) as u32 + bits.trailing_zeros()));
            bits &= bits - 1;
        }
    }
    Value::List(Arc::new(out))
}

/// A value's body that `pass` answers, taken apart once when the program loads
/// (`Loaded::passing`): a set asked at each move of a small board does not find its board and
/// its condition's parts again at each pass (Tic-Tac-Toe's `empty()` and `marked(p)`, a pass
/// each per move).
#[derive(Clone, Debug)]
pub(crate) struct Passing {
    grid: usize,
    slot: u32,
    op: BinOp,
    n: i64,
    /// `pieces(...)`'s arguments.
    args: Vec<Expr>,
}

impl Passing {
    /// The parts of `body` if it is a filter `pass` may answer (`[each x in cells(BOARD) where
    /// count(pieces(x, ...)) OP N]`); None for any other body.
    pub(crate) fn of(ir: &Program, body: &Expr) -> Option<Passing> {
        let Expr::Filter { seq, slot, cond } = body else { return None };
        let grid = board(ir, seq)?;
        let (op, args, n) = vm::pieces_counted(cond)?;
        Some(Passing { grid, slot: *slot, op, n, args: args.to_vec() })
    }

    /// `pass` of the filter these are the parts of.
    pub(crate) fn pass(
        &self,
        p: &Loaded,
        w: &mut World,
        env: &mut [Value],
        since: Option<(&[u64], &crate::memo::Reads)>,
        then: impl FnOnce(u32, &[u64]) -> Value,
    ) -> Result<Option<Value>, Fail> {
        passed(p, w, (self.grid, self.slot, self.op, &self.args, self.n), env, since, then)
    }
}

/// The filter's pass (see `filter`): the cells that pass marked a bit each, by their place among
/// the board's (on the stack for a board of up to 256 cells), handed to `then` with the board's
/// first location, which makes the answer of them; None, having done nothing, where the filter
/// is not answered here.
///
/// With `since` (the bits of the answer found before, and the memo's buckets changed since among
/// the board's), only the cells of those buckets are gone through again, the others' bits kept:
/// the same bits, steps and reads as a pass over every cell.
pub(crate) fn pass(
    p: &Loaded,
    w: &mut World,
    (seq, slot, cond): (&Expr, u32, &Expr),
    env: &mut [Value],
    since: Option<(&[u64], &crate::memo::Reads)>,
    then: impl FnOnce(u32, &[u64]) -> Value,
) -> Result<Option<Value>, Fail> {
    let Some(g) = board(&p.ir, seq) else { return Ok(None) };
    let Some((op, args, n)) = vm::pieces_counted(cond) else { return Ok(None) };
    passed(p, w, (g, slot, op, args, n), env, since, then)
}

/// `pass` of the filter of board `g`'s cells (named by `slot`) by `count(pieces(ARGS)) OP N`.
fn passed(
    p: &Loaded,
    w: &mut World,
    (g, slot, op, args, n): (usize, u32, BinOp, &[Expr], i64),
    env: &mut [Value],
    since: Option<(&[u64], &crate::memo::Reads)>,
    then: impl FnOnce(u32, &[u64]) -> Value,
) -> Result<Option<Value>, Fail> {
    if w.memo.collecting.is_some() {
        return Ok(None);
    }
    let (first, size) = p.grids[g].span();
    let Some((kind, owner)) = vm::fixed_kind_owner(args, slot, env) else { return Ok(None) };
    if kind.as_ref().and_then(|k| p.kind_key(k)).is_some() && w.memo.has_kinds() {
        return Ok(None); // a kind's pieces at each cell are a part of their own: read one by one
    }
    w.spend(size as usize, FailKind::BudgetList(size as usize))?;
    w.memo.read_locations(first, size);
    let piles = &w.locs[first as usize..(first + size) as usize];
    let words = piles.len().div_ceil(64);
    let (mut small, mut large) = ([0u64; 4], Vec::new());
    let set = crate::grid::scratch(words, &mut small, &mut large);
    // Which kinds fit, a bit each where the program has at most 64 (found once, not a kind read
    // at each piece), and whether the condition asks only if any piece fits (`> 0`, `== 0`): a
    // board of 121 cells is gone through at each move, a word of bits at a time.
    let kinds = p.ir.kinds.len();
    let fitting = match &kind {
        None => Some(u64::MAX),
        Some(k) if kinds <= 64 => Some((0..kinds).fold(0u64, |bits, i| {
            bits | u64::from(vm::kind_fits(p, &Piece { kind: i as u32, owner: None }, k)) << i
        })),
        Some(_) => None,
    };
    let any = match (op, n) {
        (BinOp::Gt | BinOp::Ne, 0) | (BinOp::Ge, 1) => Some(true),
        (BinOp::Eq | BinOp::Le, 0) | (BinOp::Lt, 1) => Some(false),
        _ => None,
    };
    if let (Some((before, changed)), Some(wanted), Some(fitting)) = (since, any, fitting) {
        // The cell of each bucket changed: the board's parts are consecutive from its first's.
        let base = w.memo.bucket_index(first);
        let fits = |pc: &Piece| fitting & (1 << (pc.kind & 63)) != 0 && owner.is_none_or(|o| pc.owner == o);
        set.copy_from_slice(&before[..words]);
        for (word, bits) in changed.iter().enumerate() {
            let mut bits = *bits;
            while bits != 0 {
                let b = word * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let i = (b + crate::memo::BUCKETS - base) % crate::memo::BUCKETS;
                if let Some(pile) = piles.get(i) {
                    let holds = pile.iter().any(fits) == wanted;
                    set[i / 64] = set[i / 64] & !(1 << (i % 64)) | u64::from(holds) << (i % 64);
                }
            }
        }
    } else if let (Some(wanted), Some(fitting)) = (any, fitting) {
        let (anyone, whose) = (owner.is_none(), owner.flatten());
        let fits = |pc: &Piece| fitting & (1 << (pc.kind & 63)) != 0 && (anyone || pc.owner == whose);
        for (word, piles) in set.iter_mut().zip(piles.chunks(64)) {
            let mut bits = 0u64;
            for (i, pile) in piles.iter().enumerate() {
                let found = match pile.as_slice() {
                    [] => false,
                    [one] => fits(one),
                    many => many.iter().any(fits),
                };
                bits |= u64::from(found == wanted) << i;
            }
            *word = bits;
        }
    } else {
        let fits = |pc: &Piece| {
            owner.is_none_or(|o| pc.owner == o) && kind.as_ref().is_none_or(|k| vm::kind_fits(p, pc, k))
        };
        for (i, pile) in piles.iter().enumerate() {
            if vm::holds(op, pile.iter().filter(|pc| fits(pc)).count() as i64, n) {
                set[i / 64] |= 1 << (i % 64);
            }
        }
    }
    // The name holds the last item, as after the walk.
    if size > 0 {
        env[slot as usize] = Value::Cell(first + size - 1);
    }
    Ok(Some(then(first, set)))
}

/// Whether a value's body is answered by `tested` before kept.rs is asked to keep it, found when
/// the program loads (`Loaded::tested`, with its condition compiled): a filter of the cells of a
/// board that fills a rectangle of at most `MOST_CELLS_KEPT` cells. The tests keep the filters
/// of their board of 3 cells by kept.rs, as `passes_first`.
pub(crate) fn tested_first(ir: &Program, grids: &[GridIndex], body: &Expr) -> bool {
    let Expr::Filter { seq, .. } = body else { return false };
    board(ir, seq).is_some_and(|g| grids[g].rectangle().is_some() && grids[g].span().1 <= MOST_CELLS_KEPT)
}

/// The answer of declared value `value` found by `tested_first`, by `tested`; None, having done
/// nothing, where `tested` declines.
pub(crate) fn by_test(
    p: &Loaded,
    w: &mut World,
    value: u32,
    (seq, slot): (&Expr, u32),
    env: &mut [Value],
) -> Result<Option<Value>, Fail> {
    match p.tests.get(value as usize) {
        Some(Some(test)) => tested(p, w, (seq, slot, test), env),
        _ => Ok(None),
    }
}

/// `[each x in cells(BOARD) where COND]` whose condition is compiled (compiled.rs: `landing()`'s
/// `free(c) and (c in side(board, "south") or not free(cell(board, c.q, c.r + 1)))`) on a board
/// that fills a rectangle of at most 64 cells (a word), answered a word of cells at a time: each
/// leaf marks the cells where it holds, a place at an offset from the item being the item's
/// word shifted by the offset, and `and`, `or`, `not` are words combined, rather than the tree
/// asked item by item or its items kept by kept.rs.
///
/// The same list, steps and reads as the walk: one step per cell; every cell's bucket read (the
/// walk reads each cell's, and the places the tree reads are the board's cells). Where the walk
/// would do otherwise at some cell the tree asks of (a place off the board; `and` and `or`
/// asking their right side only where the walk would), or a value the tree enters would be
/// refused by the limits, None, having done nothing: the caller walks the filter, with its
/// answer or its error. Another board, a larger one, or a kept filter's item under test: None
/// too.
pub(crate) fn tested(
    p: &Loaded,
    w: &mut World,
    (seq, slot, test): (&Expr, u32, &Test),
    env: &mut [Value],
) -> Result<Option<Value>, Fail> {
    Ok(tested_bits(p, w, (seq, slot, test), env)?.map(|(first, holds)| listed(first, &[holds])))
}

/// `tested`'s answer as the board's first location and the word of the cells that pass (cells.rs
/// makes a set of them).
#[inline(never)]
pub(crate) fn tested_bits(
    p: &Loaded,
    w: &mut World,
    (seq, slot, test): (&Expr, u32, &Test),
    env: &mut [Value],
) -> Result<Option<(u32, u64)>, Fail> {
    let Some(g) = board(&p.ir, seq).filter(|_| w.memo.collecting.is_none()) else { return Ok(None) };
    let Some((width, height)) = p.grids[g].rectangle().filter(|(wide, high)| wide * high <= 64) else {
        return Ok(None);
    };
    let (first, size) = p.grids[g].span();
    let all = if size == 0 { 0 } else { u64::MAX >> (64 - size) };
    let mut occupied = 0;
    for (i, pile) in w.locs[first as usize..(first + size) as usize].iter().enumerate() {
        occupied |= u64::from(!pile.is_empty()) << i;
    }
    let b = Board { g: g as u32, first, width, height, all, occupied };
    let Some(Marked { holds, unsure }) = marked(p, w, &b, test, None) else { return Ok(None) };
    if unsure != 0 {
        return Ok(None);
    }
    w.spend(size as usize, FailKind::BudgetList(size as usize))?;
    w.memo.read_locations(first, size);
    // The name holds the last item, as after the walk.
    if size > 0 {
        env[slot as usize] = Value::Cell(first + size - 1);
    }
    Ok(Some((first, holds & b.all)))
}

/// A board whose cells fill a rectangle, row by row (`GridIndex::rectangle`), a compiled test is
/// asked of at every cell: bit `i` of a word the cell at location `first + i`.
struct Board {
    g: u32,
    first: u32,
    width: u32,
    height: u32,
    /// A bit for each cell.
    all: u64,
    /// A bit for each cell with a piece on it.
    occupied: u64,
}

/// What a compiled test answers at each cell of a board: where it holds, and where the walk
/// would do otherwise than the tree (`compiled::holds` answering None), which `holds` leaves
/// clear.
struct Marked {
    holds: u64,
    unsure: u64,
}

/// The test at every cell, `arg` the place that a value's body's name stands for; None where the
/// tree is not answered here for the whole board (a place of another board, a value the limits
/// would not enter).
fn marked(p: &Loaded, w: &mut World, b: &Board, t: &Test, arg: Option<Place>) -> Option<Marked> {
    Some(match t {
        // The right side counts only where the left holds (`and`) or fails (`or`), as the walk
        // asks it only there.
        Test::And(l, r) => {
            let (l, r) = (marked(p, w, b, l, arg)?, marked(p, w, b, r, arg)?);
            Marked { holds: l.holds & r.holds, unsure: l.unsure | l.holds & r.unsure }
        }
        Test::Or(l, r) => {
            let (l, r) = (marked(p, w, b, l, arg)?, marked(p, w, b, r, arg)?);
            let asked = !l.holds & !l.unsure;
            Marked { holds: l.holds | r.holds & asked, unsure: l.unsure | r.unsure & asked }
        }
        Test::Not(inner) => {
            let inner = marked(p, w, b, inner, arg)?;
            Marked { holds: !inner.holds & !inner.unsure & b.all, unsure: inner.unsure }
        }
        Test::Among { cells, among } => {
            // The board's cells among the list: its words shifted, not its cells one by one.
            let listed = crate::compiled::among_cells(cells, b.first as usize);
            Marked { holds: if *among { listed } else { !listed } & b.all, unsure: 0 }
        }
        Test::Count { place, op, n } => {
            // Whether any piece is there (`> 0`, `== 0`: most tests) is the board's word found once.
            let here = match (op, n) {
                (BinOp::Gt | BinOp::Ne, 0) | (BinOp::Ge, 1) => b.occupied,
                (BinOp::Eq | BinOp::Le, 0) | (BinOp::Lt, 1) => b.all & !b.occupied,
                _ => {
                    let piles = &w.locs[b.first as usize..][..b.all.count_ones() as usize];
                    let mut here = 0;
                    for (i, pile) in piles.iter().enumerate() {
                        here |= u64::from(vm::holds(*op, pile.len() as i64, *n)) << i;
                    }
                    here
                }
            };
            let (dq, dr) = match if let Place::Arg = place { arg? } else { *place } {
                Place::Item => return Some(Marked { holds: here, unsure: 0 }),
                Place::Offset { grid, dq, dr } if grid == b.g => (dq, dr),
                _ => return None,
            };
            let on = b.within(dq, dr);
            let step = dq + dr * i64::from(b.width);
            // The cell at the offset from cell i is cell i + step, where it is on the board.
            let moved =
                if step >= 0 { here.checked_shr(step as u32) } else { here.checked_shl((-step) as u32) };
            Marked { holds: moved.unwrap_or(0) & on, unsure: b.all & !on }
        }
        // Entered at each cell by the walk within the same limits: refused at one, refused at all.
        Test::Value { value, arg: given, body } => {
            vm::entered(p, w, *value).ok()?;
            w.calls -= 1;
            marked(p, w, b, body, Some(*given))?
        }
    })
}

impl Board {
    /// The cells whose cell at (dq, dr) from them is on the board.
    fn within(&self, dq: i64, dr: i64) -> u64 {
        let (width, height) = (i64::from(self.width), i64::from(self.height));
        let (west, east) = ((-dq).clamp(0, width), (width - dq).clamp(0, width));
        let row = if east > west { (u64::MAX >> (64 - (east - west))) << west } else { 0 };
        let (north, south) = ((-dr).clamp(0, height), (height - dr).clamp(0, height));
        (north..south).fold(0, |on, r| on | row << (r * width))
    }
}

#[cfg(test)]
pub(crate) mod tests {
    //! The tiny game of vm.rs's tests with its board made 10 by 10 cells (locations 1 to 100, so
    //! that the cells' buckets run over more than one word of the memo's), pieces of its one kind
    //! laid at random for either seat, and filters of the board's cells by their pieces answered
    //! by one pass and by the walk (`vm::test` at each cell).
    use super::{filter, shaped};
    use crate::ir::Expr;
    use crate::rng::Mt;
    use crate::value::{Piece, Value};
    use crate::vm::{self, Fail, Game, Loaded};
    use serde_json::json;
    use std::sync::Arc;

    pub(crate) const SIDE: i64 = 10;

    pub(crate) fn program() -> Arc<Loaded> {
        Arc::new(Loaded::new(serde_json::from_value(board_of(SIDE, SIDE)).expect("the program loads")))
    }

    /// The tiny program with its board made `wide` by `high` cells.
    pub(crate) fn board_of(wide: i64, high: i64) -> serde_json::Value {
        let mut ir: serde_json::Value = vm::tiny_program();
        let cells: Vec<(i64, i64)> = (0..high).flat_map(|r| (0..wide).map(move |q| (q, r))).collect();
        let mut locations = vec![ir["locations"][0].clone()];
        locations.extend(cells.iter().map(|(q, r)| json!({"cell": [0, q, r], "owner": "None"})));
        ir["locations"] = locations.into();
        ir["grids"][0]["cells"] = json!(cells);
        ir
    }

    pub(crate) fn cells() -> Expr {
        serde_json::from_value(json!({"Builtin": ["Cells", [{"Const": {"Grid": 0}}]]})).expect("cells")
    }

    /// `count(pieces(x, ARGS...)) OP N`, x in slot 0.
    pub(crate) fn counted(op: &str, more: &[serde_json::Value], n: i64) -> Expr {
        let mut args = vec![json!({"Local": 0})];
        args.extend(more.iter().cloned());
        let count = json!({"Builtin": ["Count", [{"Builtin": ["Pieces", args]}]]});
        serde_json::from_value(json!({"Bin": [op, count, {"Const": {"Int": n}}]})).expect("a condition")
    }

    /// Each seed's game with pieces of either seat (or of no one) laid at random on the board.
    pub(crate) fn laid(seed: i128) -> Game {
        laid_on(program(), seed)
    }

    /// Each seed's game of a program with pieces laid at random on its board's cells.
    fn laid_on(program: Arc<Loaded>, seed: i128) -> Game {
        let cells = program.ir.grids[0].cells.len();
        let mut game = Game::new(program, 2, seed, 1_000_000, false);
        let mut rng = Mt::new(seed);
        for loc in 1..=cells {
            for _ in 0..rng.randbelow(3) {
                let owner = [None, Some(0), Some(1)][rng.randbelow(3) as usize];
                game.world.locs[loc].push(Piece { kind: 0, owner });
            }
            // Laid behind the game's back: the answers its start kept (a set of its cells) forget them.
            game.world.memo.changed(vm::Part::Loc(loc as u32));
        }
        game
    }

    /// The answer, the steps spent and the memo's buckets read: by one pass, and by the walk.
    type Asked = (Result<Value, Fail>, u64, crate::memo::Reads);

    fn both(game: &Game, cond: &Expr, env: &[Value]) -> (Option<Asked>, Asked) {
        let mut w = game.world.clone();
        w.memo.begin();
        let mut passed_env = env.to_vec();
        let passed = filter(&game.program, &mut w, &cells(), 0, cond, &mut passed_env);
        let passed = match passed {
            Ok(None) => None,
            answer => Some((answer.map(|a| a.expect("answered")), w.steps, w.memo.end())),
        };
        let mut w = game.world.clone();
        w.memo.begin();
        let mut env = env.to_vec();
        let mut walk = || -> Result<Value, Fail> {
            let items = vm::list(vm::eval(&game.program, &mut w, &cells(), &mut env)?)?;
            w.spend(items.len(), vm::FailKind::BudgetList(items.len()))?;
            let mut out = Vec::new();
            for x in items.iter() {
                env[0] = x.clone();
                if vm::test(&game.program, &mut w, cond, &mut env)? {
                    out.push(x.clone());
                }
            }
            Ok(Value::List(Arc::new(out)))
        };
        let walked = walk();
        (passed, (walked, w.steps, w.memo.end()))
    }

    #[test]
    fn a_filter_of_a_boards_cells_by_their_pieces_is_the_walks_list_with_its_steps_and_reads() {
        let stone = json!({"Const": {"KindName": 0}});
        let shapes = [
            counted("Eq", &[], 0),
            counted("Ge", &[], 2),
            counted("Gt", &[stone.clone(), json!({"Local": 1})], 0),
            counted("Lt", &[stone.clone(), json!({"Const": "None"})], 1),
            counted("Ne", std::slice::from_ref(&stone), 1),
            counted("Le", &[json!({"Local": 1})], 1),
        ];
        for seed in 0..20 {
            let game = laid(seed);
            for cond in &shapes {
                for seat in 0..2 {
                    let (passed, walked) = both(&game, cond, &[Value::None, Value::Player(seat)]);
                    assert_eq!(passed, Some(walked), "seed {seed}, seat {seat}, {cond:?}");
                }
            }
        }
    }

    #[test]
    fn a_filter_the_budget_cannot_pay_for_fails_as_the_walk_fails() {
        let mut game = laid(1);
        game.world.budget = game.world.steps + 99;
        let (passed, walked) = both(&game, &counted("Eq", &[], 0), &[Value::None, Value::None]);
        assert!(walked.0.is_err());
        assert_eq!(passed, Some(walked));
    }

    #[test]
    fn what_is_not_a_boards_cells_counted_by_kind_and_owner_the_same_for_each_is_walked() {
        let game = laid(2);
        let not_answered = [
            // the item's neighbour's pieces, an owner that is the item, a count against a name
            json!({"Bin": ["Eq", {"Builtin": ["Count", [{"Builtin": ["Pieces", [{"Local": 1}]]}]]}, {"Const": {"Int": 0}}]}),
            json!({"Bin": ["Eq", {"Builtin": ["Count", [{"Builtin": ["Pieces", [{"Local": 0}, {"Const": "None"}, {"Local": 0}]]}]]}, {"Const": {"Int": 0}}]}),
            json!({"Bin": ["Eq", {"Builtin": ["Count", [{"Builtin": ["Pieces", [{"Local": 0}]]}]]}, {"Local": 1}]}),
        ];
        for cond in not_answered {
            let cond: Expr = serde_json::from_value(cond).expect("a condition");
            assert_eq!(both(&game, &cond, &[Value::None, Value::Player(0)]).0, None, "{cond:?}");
        }
        // A kept filter's item being tested wants each location read by name.
        let mut collecting = game.world.clone();
        collecting.memo.collecting = Some(Default::default());
        let cond = counted("Eq", &[], 0);
        let answer = filter(&game.program, &mut collecting, &cells(), 0, &cond, &mut [Value::None]);
        assert_eq!(answer.map_err(|f| format!("{f:?}")), Ok(None));
    }

    #[test]
    fn a_value_whose_body_is_a_boards_cells_by_their_pieces_is_found_when_the_program_loads() {
        let program = program();
        // The tiny game's `free()`: `[each c in cells(board) where count(pieces(c)) == 0]`, on
        // a board (of 100 cells) the tests have kept by kept.rs.
        assert_eq!(shaped(&program.ir, &program.ir.values[0].body), Some(100));
        // (and its copy that answers as a set, cells.rs)
        assert_eq!(program.passes, vec![false, false]);
        let of = |seq: serde_json::Value, cond: Expr| Expr::Filter {
            seq: Box::new(serde_json::from_value(seq).expect("a list")),
            slot: 0,
            cond: Box::new(cond),
        };
        let cells = json!({"Builtin": ["Cells", [{"Const": {"Grid": 0}}]]});
        assert_eq!(
            shaped(&program.ir, &of(cells.clone(), counted("Gt", &[json!({"Local": 1})], 0))),
            Some(100)
        );
        assert_eq!(shaped(&program.ir, &of(json!({"Var": 0}), counted("Eq", &[], 0))), None);
        assert_eq!(shaped(&program.ir, &of(cells.clone(), vm_test_of_a_name())), None);
        // another name's pieces counted, not the item's
        let elsewhere = json!({"Bin": ["Eq", {"Builtin": ["Count", [{"Builtin": ["Pieces", [{"Local": 1}]]}]]}, {"Const": {"Int": 0}}]});
        assert_eq!(
            shaped(&program.ir, &of(cells, serde_json::from_value(elsewhere).expect("a condition"))),
            None
        );
        assert_eq!(shaped(&program.ir, &counted("Eq", &[], 0)), None);
    }

    #[test]
    fn a_set_values_filter_is_taken_apart_once_when_the_program_loads_and_passes_as_the_filter() {
        let program = program();
        // `free()` is no set; its copy (cells.rs) is, and is taken apart for its pass.
        assert!(program.passing[0].is_none());
        let passing = program.passing[1].as_ref().expect("the set's filter taken apart");
        let cond = counted("Eq", &[], 0);
        for seed in 0..10 {
            let game = laid(seed);
            let mut w = game.world.clone();
            w.memo.begin();
            let made = |first: u32, bits: &[u64]| super::listed(first, bits);
            let answer = passing.pass(&program, &mut w, &mut [Value::None], None, made);
            let passed = (answer.map(|a| a.expect("answered")), w.steps, w.memo.end());
            assert_eq!(Some(passed), both(&game, &cond, &[Value::None]).0, "seed {seed}");
        }
    }

    /// A condition that counts nothing: the item's name read.
    fn vm_test_of_a_name() -> Expr {
        serde_json::from_value(json!({"Local": 0})).expect("a name")
    }

    /// `count(pieces(PLACE)) OP N`.
    fn count_at(place: serde_json::Value, op: &str, n: i64) -> serde_json::Value {
        let count = json!({"Builtin": ["Count", [{"Builtin": ["Pieces", [place]]}]]});
        json!({"Bin": [op, count, {"Const": {"Int": n}}]})
    }

    /// `cell(board, x.q + dq, x.r + dr)` of the item x (slot 0).
    fn offset(dq: i64, dr: i64) -> serde_json::Value {
        let plus = |name: &str, d: i64| json!({"Bin": ["Add", {"Attr": [{"Local": 0}, name]}, {"Const": {"Int": d}}]});
        json!({"Builtin": ["Cell", [{"Const": {"Grid": 0}}, plus("Q", dq), plus("R", dr)]]})
    }

    /// A filter of a board of 8 by 7 cells by a compiled condition, as `tested` answers it (None:
    /// left to the walk) and as the walk finds it: the answer, the steps and the buckets read.
    fn tested_and_walked(game: &Game, cond: &serde_json::Value) -> (Option<Asked>, Asked) {
        let program = &game.program;
        let cond: Expr = serde_json::from_value(cond.clone()).expect("a condition");
        let test = crate::compiled::compile(&program.ir, &[false, true], 0, &cond).expect("compiled");
        let mut w = game.world.clone();
        w.memo.begin();
        let answer = super::tested(program, &mut w, (&cells(), 0, &test), &mut [Value::None]);
        let tested = match answer {
            Ok(None) => None,
            answer => Some((answer.map(|a| a.expect("answered")), w.steps, w.memo.end())),
        };
        let filter = Expr::Filter { seq: Box::new(cells()), slot: 0, cond: Box::new(cond) };
        let mut w = game.world.clone();
        w.memo.begin();
        let walked = vm::eval(program, &mut w, &filter, &mut [Value::None]);
        (tested, (walked, w.steps, w.memo.end()))
    }

    #[test]
    fn a_filter_of_a_boards_cells_by_a_compiled_condition_is_the_walks_list_a_word_at_a_time() {
        // `free(c)` (value 1), asked in place of the item and of the cell at an offset from it.
        let mut ir = board_of(8, 7);
        let free = json!({"slots": 1, "at": 0, "body": count_at(json!({"Local": 0}), "Eq", 0)});
        ir["values"].as_array_mut().expect("values").push(free);
        let program = Arc::new(Loaded::new(serde_json::from_value(ir).expect("the program loads")));
        let free = |at: serde_json::Value| json!({"Value": [1, [at]]});
        let item = json!({"Local": 0});
        let rows = |rs: &[i64]| {
            let cells: Vec<_> =
                rs.iter().flat_map(|r| (0..8).map(move |q| json!({"Cell": 1 + r * 8 + q}))).collect();
            json!({"Const": {"List": cells}})
        };
        let row = |r: i64| rows(&[r]);
        let column = |q: i64| json!({"Const": {"List": (0..7).map(|r| json!({"Cell": 1 + r * 8 + q})).collect::<Vec<_>>()}});
        let answered = [
            // a disc lands on the south row or on a disc (Connect Four's `landing()`)
            json!({"Bin": ["And", free(item.clone()), {"Bin": ["Or", {"Bin": ["In", item, row(6)]},
                {"Not": free(offset(0, 1))}]}]}),
            // the same towards the west, by `not in` and a count at the offset
            json!({"Bin": ["And", {"Not": {"Bin": ["NotIn", item, column(0)]}}, count_at(item.clone(), "Ge", 1)]}),
            json!({"Bin": ["Or", {"Bin": ["In", item, column(0)]}, count_at(offset(-1, 0), "Gt", 0)]}),
            // counts other than whether any piece is there, two rows away
            json!({"Bin": ["And", count_at(item.clone(), "Lt", 2), {"Bin": ["Or", {"Bin": ["In", item, rows(&[0, 1])]},
                count_at(offset(0, -2), "Eq", 2)]}]}),
            // the left side never holds: the right one, off the board at the east column, not asked
            json!({"Bin": ["And", count_at(item.clone(), "Gt", 5), count_at(offset(1, 0), "Eq", 0)]}),
        ];
        // A cell off the board asked of the east column (alone, right of a left side that holds
        // or fails there), or of every cell: the walk's.
        let east = count_at(offset(1, 0), "Eq", 0);
        let walked = [
            east.clone(),
            json!({"Bin": ["And", count_at(json!({"Local": 0}), "Ge", 0), east]}),
            json!({"Bin": ["Or", count_at(json!({"Local": 0}), "Lt", 0), east]}),
            json!({"Not": free(offset(9, 9))}),
        ];
        for seed in 0..20 {
            let game = laid_on(program.clone(), seed);
            for cond in &answered {
                let (tested, walked) = tested_and_walked(&game, cond);
                let (answer, steps, read) = tested.expect("answered a word at a time");
                assert_eq!((&answer, steps), (&walked.0, walked.1), "seed {seed}, {cond}");
                // Every cell's bucket read: at least what the walk read.
                assert!(
                    read.iter().zip(&walked.2).all(|(all, some)| some & !all == 0),
                    "seed {seed}, {cond}"
                );
            }
            for cond in &walked {
                assert_eq!(tested_and_walked(&game, cond).0, None, "seed {seed}, {cond}");
            }
        }
    }

    #[test]
    fn a_filter_by_a_compiled_condition_is_walked_on_a_board_of_more_than_a_word() {
        let game = laid(4);
        let cond =
            json!({"Bin": ["And", count_at(json!({"Local": 0}), "Eq", 0), count_at(offset(0, 1), "Eq", 0)]});
        assert_eq!(tested_and_walked(&game, &cond).0, None);
    }
}
