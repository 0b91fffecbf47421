//! Big chess's native core: `workbench/games/big_chess/` (the specification) ported exactly.
//!
//! `cards` (the card file format, read by a small JSON reader, the pattern language and the square-grid
//! geometry), `context` (rules, board, teams and the tables built once per game), `state` (the rules of
//! play, the setup phase and the deployed start, the counters, the evaluation, and the protocol's `Game`
//! through which the generic agents of `crate::core::generic` play it), `play` (whole games and random
//! playouts). Its bindings are `crate::bindings::big_chess` (`--features python`).
//!
//! Nothing is hard-coded per card: every piece is what its card says (the army start of section 14
//! names its cards, as the Python engine does).

pub mod cards;
pub mod classes;
pub mod context;
pub mod play;
pub mod state;

#[cfg(test)]
mod tests;
