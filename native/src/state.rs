//! The game state: generation, W7 triggers, W10 threat and mate, promotion, victory. A port of
//! `workbench/engine/state.py`; the Python file is the specification, including action order.

use std::sync::Arc;

use crate::board::Board;
use crate::rules::Rules;

pub const EMPTY: u8 = 0;
pub const FEUDAL: u8 = 1;
pub const KNIGHT: u8 = 2;
pub const PIKEMAN: u8 = 3;
pub const CAVALRY: u8 = 4;
pub const ARCHER: u8 = 5;
pub const INFANTRY: u8 = 6;
pub const WHITE: usize = 0;
pub const BLACK: usize = 1;
/// Most steps an Order may hold (`order_size` is validated in Python to stay within it).
pub const MAX_ORDER: usize = 4;

/// Piece code `kind | side << 3`, as in `pieces.py`.
#[inline]
pub fn code(kind: u8, side: usize) -> u8 {
    kind | ((side as u8) << 3)
}

/// One step of an Order: from, to, promotion kind (0 = none).
pub type OrderStep = [u8; 3];

/// An action, mirroring the Python tuples:
/// `(MOVE, from, to, promo)`, `(SHOT, archer, target)`, `(CASTLE, feudal, infantryman)`,
/// `(ORDER, a, a_to, a_promo, b, b_to, b_promo, ...)`, `(PASS,)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    Move { from: u8, to: u8, promo: u8 },
    Shot { archer: u8, target: u8 },
    Castle { feudal: u8, infantry: u8 },
    Order { n: u8, steps: [OrderStep; MAX_ORDER] },
    Pass,
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Victory {
    Destroyed,
    Castle,
    Checkmate,
    Draw,
    /// A victory string loaded from a position that the engine itself never produces.
    Other,
}

/// A position to start from (from `state_from_pieces` arguments).
#[derive(Clone, Debug, Default)]
pub struct Setup {
    pub squares: Vec<u8>,
    pub to_move: usize,
    /// (archer hex, marked hex) per side, in insertion order.
    pub markers: [Vec<(u8, u8)>; 2],
    pub pending: Vec<u8>,
    pub castled: [u8; 2],
    pub aura_ready: Vec<u8>,
    pub destroyed: [Vec<u8>; 2],
    pub ply: u32,
    pub quiet: u32,
    pub winner: Option<usize>,
    pub victory: Option<Victory>,
    pub counters: Vec<u32>,
}

/// One fired rule: (rule index in RULES, side, hex or -1).
pub type Fired = (u8, u8, i16);

/// A TerraFeud game state with undo.
#[derive(Clone)]
pub struct State {
    pub board: Arc<Board>,
    pub rules: Arc<Rules>,
}

impl State {
    /// A state from a setup; runs the W10 mate test like `Game.state_from_pieces`.
    pub fn new(board: Arc<Board>, rules: Arc<Rules>, setup: &Setup) -> State {
        let _ = setup;
        State { board, rules }
    }

    /// Every legal action of the side to move, in the Python engine's order; `[Pass]` when none.
    pub fn legal_actions(&mut self) -> Vec<Action> {
        todo!()
    }

    /// Play an action (taken from `legal_actions`) and resolve its triggers.
    pub fn apply(&mut self, a: &Action) {
        let _ = a;
        todo!()
    }

    /// Take back the last action exactly.
    pub fn undo(&mut self) {
        todo!()
    }

    pub fn is_terminal(&self) -> bool {
        todo!()
    }

    /// +1 win, -1 loss, 0 otherwise, per side.
    pub fn returns(&self) -> [f64; 2] {
        todo!()
    }

    pub fn current_player(&self) -> usize {
        todo!()
    }

    /// Piece code on each hex.
    pub fn squares(&self) -> &[u8; 91] {
        todo!()
    }

    /// Hex of `side`'s feudal, or None when destroyed.
    pub fn feudal(&self, side: usize) -> Option<usize> {
        let _ = side;
        todo!()
    }

    pub fn winner(&self) -> Option<usize> {
        todo!()
    }

    pub fn victory(&self) -> Option<Victory> {
        todo!()
    }

    pub fn ply(&self) -> u32 {
        todo!()
    }

    /// W10: could the opponent, given the move now, leave `side`'s feudal dead?
    pub fn is_threatened(&mut self, side: usize) -> bool {
        let _ = side;
        todo!()
    }

    /// Rule-usage counters, index 2 * rule + side.
    pub fn counters(&self) -> &[u32] {
        todo!()
    }

    /// Rules fired by the most recently applied action.
    pub fn fired(&self) -> &[Fired] {
        todo!()
    }
}
