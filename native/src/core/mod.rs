//! The game-independent core, free of Python: what every game's native port shares.
//!
//! `protocol` (the `Game` trait of `workbench/core/protocol.py` and the play loop), `generic` (the
//! agents of `workbench/agents/generic.py` over any `Game`), `pyrandom` (CPython's `random.Random`,
//! so seeded agents draw what Python draws), `interrupt` (the stop flag long loops poll, which the
//! bindings tie to Ctrl-C) and `tt` (the transposition table, generic over the action type).
//!
//! Inside this crate `core` names this module, not the built-in `core` crate; the code here needs
//! nothing from the latter that `std` does not re-export (write `::core::` if it ever does).

pub mod generic;
pub mod interrupt;
pub mod protocol;
pub mod pyrandom;
pub mod restrict;
pub mod tt;
