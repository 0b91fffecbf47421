//! The games protocol in Rust (`workbench/core/protocol.py`): what the generic agents and the play
//! loop need from any game's native core. Actions and chance outcomes are the protocol's dense ints,
//! so a native game and its Python engine speak the same numbers.
//!
//! TerraFeud keeps its own tuned `State`; Pole and The Cursed Lands implement [`Game`], so they share
//! the generic agents (`crate::core::generic`) and the play loop ([`play`]).

use crate::core::pyrandom::PyRandom;

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
    /// The number of legal decisions, listed in `out` unless the game keeps that list lazy (then `out`
    /// is left empty): The Cursed Lands' setup phase counts its camps (up to millions) without listing
    /// them, as its Python `CampActions` does. Default: the list and its length.
    fn legal_listed(&self, out: &mut Vec<u32>) -> usize {
        self.legal_actions(out);
        out.len()
    }
    /// `rng.choice(legal_actions())`: the draw `randbelow(count)` and the action at that index (`buf`
    /// is scratch). A game with a lazy list indexes it without listing (a Python `Sequence`'s `choice`).
    fn random_action(&self, rng: &mut PyRandom, buf: &mut Vec<u32>) -> u32 {
        self.legal_actions(buf);
        *rng.choice(buf).expect("random: no action to choose")
    }
    /// Whether `action` is legal here: an agent that picked on a view (hidden information) may have
    /// picked what the real state does not allow. Default: looked up in the list.
    fn is_legal(&self, action: u32) -> bool {
        let mut out = Vec::new();
        self.legal_actions(&mut out);
        out.contains(&action)
    }
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
    /// so [`Self::chance_classes`] merges them and a search expands one child per key, as the Python
    /// searches expand `chance_classes`. Default: every outcome is its own key (nothing is shared).
    fn chance_key(&self, outcome: u32) -> u128 {
        outcome as u128
    }
    /// The chance outcomes merged by effect (the Python `chance_classes`): the first outcome of each
    /// [`Self::chance_key`] with the summed probability, in order of first occurrence. A game whose
    /// Python engine computes the merged probability otherwise (Pole: count / 36) says so here, so
    /// both sum the same floats.
    fn chance_classes(&self, out: &mut Vec<(u32, f64)>) {
        let mut outs = Vec::new();
        self.chance_outcomes(&mut outs);
        out.clear();
        let mut keys: Vec<u128> = Vec::new();
        for (o, p) in outs {
            let key = self.chance_key(o);
            match keys.iter().position(|&k| k == key) {
                Some(i) => out[i].1 += p,
                None => {
                    keys.push(key);
                    out.push((o, p));
                }
            }
        }
    }
    /// The number of evaluation features the core computes (`GameDef.evaluation_features`), 0 when it
    /// reads no learned weights.
    fn feature_count(&self) -> usize {
        0
    }
    /// Make [`Self::evaluate`] the weighted sum of the features (`None`: the hand evaluation again);
    /// returns the weights it replaces. A copy ([`Self::fork`], [`Self::view`]) keeps them.
    fn set_eval_weights(&mut self, weights: Option<std::sync::Arc<[f64]>>) -> Option<std::sync::Arc<[f64]>> {
        let _ = weights;
        None
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

/// How [`play`] ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// The game is over, or `max_plies` actions were played.
    Done,
    /// `interrupt::poll` said stop.
    Stopped,
    /// The agent to move picked `action`, not legal in the real state (a pick made on a view under
    /// hidden information), with `n_legal` actions to choose from: the Python loop's `apply_action`
    /// raises there, and its game becomes an error row. Nothing is applied.
    Illegal { action: u32, n_legal: usize },
}

/// An agent for a protocol game: the generic agents (`crate::core::generic`) and a game's own agents
/// implement it, and [`play`] drives them. It sits here, beside the `Game` trait and the loop, so this module
/// depends on no agent module.
pub trait Agent<G: Game>: Send {
    /// The action to play in `state` (not terminal, not chance); `state` is left as it was.
    fn select_action(&mut self, state: &mut G) -> u32;
    /// The same pick when the caller has listed `legal` already (`Game::legal_listed`: empty for a
    /// lazy list), so a play loop need not list twice; only `random` uses it.
    fn select_among(&mut self, state: &mut G, legal: &[u32]) -> u32 {
        let _ = legal;
        self.select_action(state)
    }
    /// The last decision's root value and nodes searched (iterations for mcts), when it has them.
    fn stats(&self) -> (f64, u64) {
        (0.0, 0)
    }
}

/// Play `state` to its end or `max_plies` actions: agents by player, chance by `chance()` (a
/// uniform float, as `sample_outcome(outcomes, rng)` draws), and `observe(state, action, n_legal,
/// before)` before and after each action (the events rows). Stops early when `interrupt::poll` says
/// so, or at an illegal pick (only a game without perfect information checks: its agents pick on views).
pub fn play<G: Game>(
    state: &mut G,
    agents: &mut [Box<dyn Agent<G>>],
    mut chance: impl FnMut() -> f64,
    max_plies: usize,
    mut observe: impl FnMut(&G, u32, usize, bool),
) -> End {
    let mut legal = Vec::new();
    let mut outs = Vec::new();
    let check = !state.perfect_information();
    loop {
        if state.is_terminal() || state.move_number() >= max_plies {
            return End::Done;
        }
        if crate::core::interrupt::poll() {
            return End::Stopped;
        }
        let player = state.current_player();
        let (action, n) = if player == CHANCE {
            state.chance_outcomes(&mut outs);
            (sample_outcome(&outs, chance()), 0)
        } else {
            let n = state.legal_listed(&mut legal);
            let action = agents[player as usize].select_among(state, &legal);
            if check && !(if legal.is_empty() { state.is_legal(action) } else { legal.contains(&action) }) {
                return End::Illegal { action, n_legal: n };
            }
            (action, n)
        };
        observe(state, action, n, true);
        state.apply(action);
        observe(state, action, n, false);
    }
}

/// Leaves of the game tree `depth` actions deep from `state` (`workbench/protocolbench.py`'s
/// `protocol_perft`: a finished game is a leaf, each chance outcome is one branch). Stops early, with a
/// partial count, when `interrupt::poll` says so; `state` is left as it was.
pub fn perft<G: Game>(state: &mut G, depth: u32) -> u64 {
    if crate::core::interrupt::poll() {
        return 0;
    }
    if depth == 0 || state.is_terminal() {
        return 1;
    }
    let moves: Vec<u32> = if state.current_player() == CHANCE {
        let mut outs = Vec::new();
        state.chance_outcomes(&mut outs);
        outs.into_iter().map(|(o, _)| o).collect()
    } else {
        let mut legal = Vec::new();
        state.legal_actions(&mut legal);
        legal
    };
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut total = 0;
    for a in moves {
        state.apply(a);
        total += perft(state, depth - 1);
        state.undo();
    }
    total
}

/// A learned evaluation: the weights' sum over a state's features, summed in order from 0 as Python's `sum`
/// over `zip(weights, features)` is, so every core scores a position with learned weights to the same float.
pub fn learned_sum(weights: &[f64], features: &[f64]) -> f64 {
    let mut total = 0.0;
    for (w, f) in weights.iter().zip(features.iter()) {
        total += w * f;
    }
    total
}
