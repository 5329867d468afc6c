//! meeple's native engine core: a lowered program (interpreter/native/lower.py) run by a
//! machine whose games are plain data. See docs/architecture.md, "The native engine".

/// Clone, equality and hashing for a part of a game that is no part of its position (a cache, a
/// room kept for work): a copy starts with none of it (`Default`, or what the method named makes
/// of it), any two are equal, and it hashes as nothing, so that a game copies, compares and
/// hashes by its position alone.
macro_rules! apart_from_the_position {
    ($t:ty) => {
        apart_from_the_position!($t, |_: &$t| <$t>::default());
    };
    ($t:ty, $fresh:expr) => {
        impl Clone for $t {
            fn clone(&self) -> $t {
                $fresh(self)
            }
        }

        impl PartialEq for $t {
            fn eq(&self, _: &$t) -> bool {
                true
            }
        }

        impl Eq for $t {}

        impl std::hash::Hash for $t {
            fn hash<H: std::hash::Hasher>(&self, _: &mut H) {}
        }
    };
}

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
pub mod options;
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
