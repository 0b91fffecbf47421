//! Native cores of the workbench's games: each Python engine ported to Rust, exactly.
//!
//! The layout follows the architecture:
//!
//! - `core`: independent of Python and of any game: `protocol` (the `Game` trait and the play loop),
//!   `generic` (the agents of `workbench/agents/generic.py`), `pyrandom` (CPython's random stream),
//!   `interrupt` (the stop flag) and `tt` (the transposition table).
//! - one module per game: `terrafeud` (its own tuned state and agents), `pole` and `cursed_lands`
//!   (both implement `core::protocol::Game` and play with the generic agents).
//! - `bindings` (only with `--features python`): the PyO3 module `workbench._native`, with shared
//!   helpers in `bindings/mod.rs` and one file per game (`terrafeud` at the top level of the Python
//!   module, `pole` and `cursed_lands` as submodules).
//!
//! `cargo test` builds without the bindings, so the cores are tested with no libpython. The module
//! `core` shadows the built-in `core` crate's name inside this crate (write `::core::` for that one).
//!
//! The Python engine is the specification: same legal actions in the same order, same states,
//! same results. Terrain is drawn in Python and handed over as board tables, so no terrain
//! randomness lives here. `pyrandom` reproduces CPython's `random.Random` for seeded agents.

// Index loops mirror the Python engine line by line, which is what makes the port checkable.
#![allow(clippy::needless_range_loop)]

pub mod big_chess;
pub mod core;
pub mod cursed_lands;
pub mod pole;
pub mod terrafeud;

#[cfg(feature = "python")]
pub(crate) mod bindings;
