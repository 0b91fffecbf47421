//! The rule toggles and parameters of one game (`workbench/games/terrafeud/engine/rules.py`, RulesConfig), as
//! plain values. Parsing and validation stay in Python; Rust receives checked values.

/// Castling variant (section 7).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Castling {
    Swap,
    Sacrifice,
}

/// Who may parry a W10 threat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MateDefence {
    Feudal,
    Any,
}

/// Every toggle and parameter the engine reads during play. Terrain toggles (season, hill,
/// swamp, terrain, bridges, fords) are folded into the `Board` instead.
#[derive(Clone, Debug, PartialEq)]
pub struct Rules {
    pub castling: Castling,
    pub archer_melee: bool,
    pub mate_defence: MateDefence,
    pub draw_after: Option<u32>,
    pub pike_cavalry_mutual: bool,
    pub archer_range: u8,
    pub hill_bonus: u8,
    pub aura_radius: u8,
    pub aura_step: u8,
    pub aura_memory: bool,
    pub coordinated: u8,
    pub order_size: u8,
    pub order_radius: u8,
    pub castling_uses: u8,
    pub promotion: bool,
    pub knight_bridge_stop: bool,
}

impl Default for Rules {
    /// The rulebook defaults (English rulebook), as `RulesConfig()`.
    fn default() -> Self {
        Rules {
            castling: Castling::Swap,
            archer_melee: false,
            mate_defence: MateDefence::Feudal,
            draw_after: None,
            pike_cavalry_mutual: false,
            archer_range: 2,
            hill_bonus: 1,
            aura_radius: 2,
            aura_step: 2,
            aura_memory: true,
            coordinated: 2,
            order_size: 2,
            order_radius: 2,
            castling_uses: 1,
            promotion: true,
            knight_bridge_stop: true,
        }
    }
}
