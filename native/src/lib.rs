//! TerraFeud native core: the Python engine (`workbench/engine`) ported to Rust, exactly.
//!
//! The Python engine is the specification: same legal actions in the same order, same states,
//! same results. Terrain is drawn in Python and handed over as board tables, so no terrain
//! randomness lives here. `pyrandom` reproduces CPython's `random.Random` for seeded agents.

// Index loops mirror the Python engine line by line, which is what makes the port checkable.
#![allow(clippy::needless_range_loop)]

pub mod agents;
pub mod board;
pub mod cursed_lands;
pub mod geometry;
pub mod interrupt;
pub mod play;
pub mod pyrandom;
pub mod rules;
pub mod state;

#[cfg(feature = "python")]
pub(crate) mod bindings;
