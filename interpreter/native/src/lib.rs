//! meeple's native engine core: a lowered program (interpreter/native/lower.py) run by a
//! machine whose games are plain data. See docs/architecture.md, "The native engine".
pub mod areas;
pub mod automata;
pub mod bodies;
pub mod carry;
pub mod cells;
pub mod compiled;
pub mod grid;
pub mod in_place;
pub mod ir;
pub mod jumps;
pub mod kept;
pub mod layers;
pub mod limits;
pub mod mcts;
pub mod memo;
pub mod narrowed;
pub mod occupied;
pub mod offers;
pub mod once;
pub mod placement;
pub mod playouts;
pub mod reveal;
pub mod rng;
pub mod routes;
pub mod rows;
pub mod shift;
pub mod shown;
pub mod steps;
pub mod styles;
pub mod supposed;
pub mod teams;
pub mod value;
pub mod vm;
pub mod words;

#[cfg(feature = "python")]
mod py;
