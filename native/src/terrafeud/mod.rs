//! TerraFeud natively: `workbench/games/terrafeud/engine` ported exactly, with its own tuned modules
//! (a faster state of its own, and its tuned agents), and `protocol`: that state speaking the core's
//! `Game` trait, so the generic agents, the generic perft and the play loop run on TerraFeud too.
//!
//! `geometry` (the hex board's tables), `board` (terrain tables handed over by Python), `rules` (the
//! toggles and parameters read during play), `state` (generation, triggers, threat and mate,
//! victory, perft), `play` (a whole game with one agent per side) and `agents` (the tuned twins of
//! `workbench/games/terrafeud/agents`: random, greedy, alphabeta, mcts, search; the searching ones
//! use the core's transposition table, `crate::core::tt`).

pub mod agents;
pub mod board;
pub mod classes;
pub mod geometry;
pub mod play;
pub mod protocol;
pub mod rules;
pub mod state;
