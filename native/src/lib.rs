//! Native cores of the workbench's games: each Python engine ported to Rust, exactly.
//!
//! TerraFeud (`state`, `board`, `geometry`, `agents`, `rules`, `play`) keeps its own tuned modules.
//! The protocol games share a core independent of Python: `protocol` (the `Game` trait and the play
//! loop), `generic` (the agents of `workbench/agents/generic.py`), `pyrandom` and `interrupt`; each
//! game is one module (`pole`). The bindings (`--features python`) expose one submodule per game.
//!
//! The Python engine is the specification: same legal actions in the same order, same states,
//! same results. Terrain is drawn in Python and handed over as board tables, so no terrain
//! randomness lives here. `pyrandom` reproduces CPython's `random.Random` for seeded agents.

// Index loops mirror the Python engine line by line, which is what makes the port checkable.
#![allow(clippy::needless_range_loop)]

pub mod agents;
pub mod board;
pub mod cursed_lands;
pub mod generic;
pub mod geometry;
pub mod interrupt;
pub mod play;
pub mod pole;
pub mod protocol;
pub mod pyrandom;
pub mod rules;
pub mod state;

#[cfg(feature = "python")]
pub(crate) mod bindings;
