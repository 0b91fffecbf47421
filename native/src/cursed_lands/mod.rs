//! The Cursed Lands' native core: `workbench/games/cursed_lands/` (the specification) ported exactly.
//!
//! `rules` (the parameters as one struct and the unit table), `geo` (board tables, action ints, camp
//! actions, the SplitMix64 deck shuffle), `state` (the rules of play, the view, the evaluation, and
//! the protocol's `Game` through which the generic agents of `crate::core::generic` play it), `play` (whole
//! games through `protocol::play`). Its bindings are `crate::bindings::cursed_lands` (`--features python`).

pub mod classes;
pub mod geo;
pub mod play;
pub mod rules;
pub mod state;

#[cfg(test)]
mod tests;
