//! TerraFeud natively: `workbench/games/terrafeud/engine` ported exactly, with its own tuned modules
//! (it predates the protocol's `Game` trait and keeps a faster state of its own).
//!
//! `geometry` (the hex board's tables), `board` (terrain tables handed over by Python), `rules` (the
//! toggles and parameters read during play), `state` (generation, triggers, threat and mate,
//! victory, perft), `play` (a whole game with one agent per side) and `agents` (the tuned twins of
//! `workbench/games/terrafeud/agents`: random, greedy, alphabeta, mcts, search; the searching ones
//! use the core's transposition table, `crate::core::tt`).

pub mod agents;
pub mod board;
pub mod geometry;
pub mod play;
pub mod rules;
pub mod state;
