//! The games protocol in Rust (`workbench/core/protocol.py`): what the generic agents and the play
//! loop need from any game's native core. Actions and chance outcomes are the protocol's dense ints,
//! so a native game and its Python engine speak the same numbers.
//!
//! TerraFeud keeps its own tuned `State`; Pole (and later The Cursed Lands) implement [`Game`].

/// `current_player()` at a chance node (OpenSpiel's kChancePlayerId).
pub const CHANCE: i32 = -1;
/// `current_player()` of a finished game (OpenSpiel's kTerminalPlayerId).
pub const TERMINAL: i32 = -4;

/// A game state with apply/undo, the protocol's queries and the game's static evaluation.
pub trait Game: Send {
    /// A player index, [`CHANCE`] or [`TERMINAL`].
    fn current_player(&self) -> i32;
    fn is_terminal(&self) -> bool;
    fn num_players(&self) -> usize;
    /// The team of a player (search maximises by team, not by ply parity).
    fn team_of(&self, player: usize) -> usize {
        player
    }
    /// Legal decisions in the protocol's canonical order (cleared and filled).
    fn legal_actions(&self, out: &mut Vec<u32>);
    /// Chance outcomes with their probabilities, in the Python engine's order.
    fn chance_outcomes(&self, out: &mut Vec<(u32, f64)>);
    fn apply(&mut self, action: u32);
    fn undo(&mut self);
    fn returns(&self, player: usize) -> f64;
    /// The game's static evaluation from `player`'s side (the Python `state.evaluate`).
    fn evaluate(&self, player: usize) -> f64;
    /// Move-ordering key of the Python `state.action_priority` (higher first).
    fn action_priority(&self, action: u32) -> i64;
    fn move_number(&self) -> usize;
    /// Outcomes of the current chance node with equal keys lead to the same state (up to history),
    /// so a search may value one and reuse it, summing the same floats in the same order. Default:
    /// every outcome is its own key (nothing is shared).
    fn chance_key(&self, outcome: u32) -> u128 {
        outcome as u128
    }
    /// False when an agent must search a view (`GameInfo.perfect_information`).
    fn perfect_information(&self) -> bool {
        true
    }
    /// `view(player, seed)` of the player to move: hidden information resampled from `seed`.
    fn view(&self, _seed: u64) -> Self
    where
        Self: Sized,
    {
        self.fork()
    }
    /// A copy to play on without undo (MCTS simulations): history and undo stack may be dropped.
    fn fork(&self) -> Self
    where
        Self: Sized;
}

/// `workbench.simulate.protocol_play.sample_outcome`: one outcome by its probability from `r`.
pub fn sample_outcome(outcomes: &[(u32, f64)], r: f64) -> u32 {
    let mut acc = 0.0;
    for &(o, p) in outcomes {
        acc += p;
        if r < acc {
            return o;
        }
    }
    outcomes[outcomes.len() - 1].0
}

/// Play `state` to its end or `max_plies` actions: agents by player, chance by `chance()` (a
/// uniform float, as `sample_outcome(outcomes, rng)` draws), and `observe(state, action, n_legal,
/// before)` before and after each action (the events rows). Stops early when `interrupt::poll` says so.
pub fn play<G: Game>(
    state: &mut G,
    agents: &mut [Box<dyn crate::generic::Agent<G>>],
    mut chance: impl FnMut() -> f64,
    max_plies: usize,
    mut observe: impl FnMut(&G, u32, usize, bool),
) {
    let mut legal = Vec::new();
    let mut outs = Vec::new();
    while !state.is_terminal() && state.move_number() < max_plies && !crate::interrupt::poll() {
        let player = state.current_player();
        let (action, n) = if player == CHANCE {
            state.chance_outcomes(&mut outs);
            (sample_outcome(&outs, chance()), 0)
        } else {
            state.legal_actions(&mut legal);
            let n = legal.len();
            (agents[player as usize].select_action(state), n)
        };
        observe(state, action, n, true);
        state.apply(action);
        observe(state, action, n, false);
    }
}
