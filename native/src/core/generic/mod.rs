//! The generic agents of `workbench/agents/generic.py` over any [`Game`]: `random`, `greedy`,
//! `alphabeta`, `mcts`, `search`, with the same names, parameters and defaults. Seeded by the
//! CPython stream (`pyrandom`), iterating the same actions in the same order and summing the same
//! floats in the same order, so `random`, `greedy` and `alphabeta` pick exactly what Python picks
//! (while the Python twin's clock does not cut its search: the node budget is counted the same way).

pub mod alphabeta;
pub mod mcts;
pub mod plan;

use crate::core::protocol::{Game, CHANCE};
use crate::core::pyrandom::PyRandom;

/// The agent trait lives beside the play loop that drives it ([`crate::core::protocol::Agent`]), so the protocol
/// never reaches into this module (no `protocol` <-> `generic` cycle); it is re-exported here, where the agents
/// implementing it are.
pub use crate::core::protocol::Agent;

pub use alphabeta::AlphaBeta;
pub use mcts::Mcts;
pub use plan::Plan;

/// A won position outranks any evaluation (`generic.WIN`).
pub const WIN: f64 = 1_000_000.0;
/// Ceiling on thinking time per decision (`workbench.agents.base.MAX_SECONDS`).
pub const MAX_SECONDS: f64 = 5.0;

/// Names with a native generic twin.
pub const NAMES: [&str; 6] = ["random", "greedy", "alphabeta", "mcts", "search", "plan"];

/// One agent parameter value, already range-checked by the caller (`check_param` in Python).
#[derive(Clone, Debug, Default)]
pub struct Params {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub seconds: Option<f64>,
    pub iterations: Option<u32>,
    pub c: Option<f64>,
    pub rollout: Option<u32>,
    pub scale: Option<f64>,
    pub beam: Option<u32>,
    pub steps: Option<u32>,
    pub reply: Option<u32>,
    /// `mcts:odds=1`: playouts value a roll by its odds.
    pub odds: Option<u32>,
    /// `mcts:prior=1`: children expanded in move order.
    pub prior: Option<u32>,
    /// `greedy:epsilon=p`: a random action with probability `p`.
    pub epsilon: Option<f64>,
    /// `eval=NAME`: learned weights of the game's features (resolved by name in Python).
    pub weights: Option<std::sync::Arc<[f64]>>,
    /// A batch's random opening (`GameSpec.opening`, not an agent parameter a user writes): `(plies,
    /// seed)`, every decision before ply `plies` drawn uniformly by [`Opening`].
    pub opening: Option<(u32, i128)>,
}

/// A generic agent by name with its `random.Random(seed)` stream; `None` for an unknown name.
pub fn make<G: Game + 'static>(name: &str, rng: PyRandom, p: &Params) -> Option<Box<dyn Agent<G>>> {
    let agent = make_plain::<G>(name, rng, p)?;
    let agent: Box<dyn Agent<G>> = match &p.weights {
        Some(w) => Box::new(Weighted { inner: agent, weights: w.clone() }),
        None => agent,
    };
    Some(with_opening(agent, p))
}

/// `agent` behind the batch's random opening when `p` asks for one (`Params::opening`), else `agent`.
pub fn with_opening<G: Game + 'static>(agent: Box<dyn Agent<G>>, p: &Params) -> Box<dyn Agent<G>> {
    match p.opening {
        Some((plies, seed)) if plies > 0 => {
            Box::new(Opening { inner: agent, plies: plies as usize, seed, buf: Vec::new() })
        }
        _ => agent,
    }
}

/// A fixed random opening (`workbench.core.agents.Opening`): a decision at ply `m < plies` (`move_number`,
/// chance plies counted) is `random.Random(seed + m).choice(legal)`, the pick of `random` seeded so; every
/// seat holds the same `seed`, so the opening is the batch's (the same for agents swapped between seats), not
/// an agent's. From ply `plies` on the agent plays.
pub struct Opening<G: Game> {
    pub inner: Box<dyn Agent<G>>,
    pub plies: usize,
    pub seed: i128,
    buf: Vec<u32>,
}

impl<G: Game> Opening<G> {
    fn stream(&self, state: &G) -> Option<PyRandom> {
        let m = state.move_number();
        (m < self.plies).then(|| PyRandom::new(self.seed + m as i128))
    }
}

impl<G: Game> Agent<G> for Opening<G> {
    fn select_action(&mut self, state: &mut G) -> u32 {
        match self.stream(state) {
            Some(mut rng) => state.random_action(&mut rng, &mut self.buf),
            None => self.inner.select_action(state),
        }
    }

    fn select_among(&mut self, state: &mut G, legal: &[u32]) -> u32 {
        match self.stream(state) {
            Some(mut rng) => match rng.choice(legal) {
                Some(&a) => a,
                None => state.random_action(&mut rng, &mut self.buf),
            },
            None => self.inner.select_among(state, legal),
        }
    }

    fn stats(&self) -> (f64, u64) {
        self.inner.stats()
    }
}

/// An agent searching with learned weights (`eval=NAME`): the state's evaluation is their weighted
/// sum of the game's features while it decides, and the hand evaluation again after.
pub struct Weighted<G: Game> {
    pub inner: Box<dyn Agent<G>>,
    pub weights: std::sync::Arc<[f64]>,
}

impl<G: Game> Weighted<G> {
    fn with<R>(&mut self, state: &mut G, f: impl FnOnce(&mut dyn Agent<G>, &mut G) -> R) -> R {
        assert!(
            state.feature_count() == self.weights.len(),
            "eval: {} weights for the core's {} evaluation features",
            self.weights.len(),
            state.feature_count()
        );
        let before = state.set_eval_weights(Some(self.weights.clone()));
        let out = f(&mut *self.inner, state);
        state.set_eval_weights(before);
        out
    }
}

impl<G: Game> Agent<G> for Weighted<G> {
    fn select_action(&mut self, state: &mut G) -> u32 {
        self.with(state, |a, s| a.select_action(s))
    }

    fn select_among(&mut self, state: &mut G, legal: &[u32]) -> u32 {
        self.with(state, |a, s| a.select_among(s, legal))
    }

    fn stats(&self) -> (f64, u64) {
        self.inner.stats()
    }
}

fn make_plain<G: Game + 'static>(name: &str, rng: PyRandom, p: &Params) -> Option<Box<dyn Agent<G>>> {
    Some(match name {
        "random" => Box::new(Random { rng, buf: Vec::new() }),
        "greedy" => Box::new(Greedy { rng, buf: Vec::new(), epsilon: p.epsilon.unwrap_or(0.0) }),
        "alphabeta" => Box::new(AlphaBeta::new(
            rng,
            p.depth.unwrap_or(2),
            p.nodes.unwrap_or(20_000),
            p.seconds.unwrap_or(2.0).min(MAX_SECONDS),
        )),
        "search" => Box::new(AlphaBeta::new(
            rng,
            p.depth.unwrap_or(8),
            p.nodes.unwrap_or(200_000),
            p.seconds.unwrap_or(1.0).min(MAX_SECONDS),
        )),
        "mcts" => Box::new(
            Mcts::new(
                rng,
                p.iterations.unwrap_or(300),
                p.c.unwrap_or(1.4),
                p.rollout.unwrap_or(20),
                p.seconds.unwrap_or(2.0).min(MAX_SECONDS),
                p.scale.unwrap_or(5.0),
            )
            .with_odds(p.odds.unwrap_or(0) > 0, p.prior.unwrap_or(0) > 0),
        ),
        "plan" => Box::new(Plan::new(
            rng,
            p.beam.unwrap_or(8) as usize,
            p.steps.unwrap_or(16) as usize,
            p.reply.unwrap_or(0).min(3),
        )),
        _ => return None,
    })
}

/// `ProtocolAgent.searchable`: under hidden information, the mover's view seeded by
/// `rng.randrange(2**31)` (None: the game has none, search the state itself).
pub fn searchable<G: Game>(rng: &mut PyRandom, state: &G) -> Option<G> {
    if state.perfect_information() {
        return None;
    }
    let seed = rng.randrange(0, 1 << 31) as u64;
    Some(state.view(seed))
}

/// `GenericRandom`: `rng.choice(legal)` (a lazy list indexed without listing: `Game::random_action`).
pub struct Random {
    pub rng: PyRandom,
    buf: Vec<u32>,
}

impl<G: Game> Agent<G> for Random {
    fn select_action(&mut self, state: &mut G) -> u32 {
        state.random_action(&mut self.rng, &mut self.buf)
    }

    fn select_among(&mut self, state: &mut G, legal: &[u32]) -> u32 {
        match self.rng.choice(legal) {
            Some(&a) => a,
            None => state.random_action(&mut self.rng, &mut self.buf),
        }
    }
}

/// `_leaf`: a finished game is +-WIN, else the game's evaluation for `me`.
pub fn leaf<G: Game>(state: &G, me: usize) -> f64 {
    if state.is_terminal() {
        let r = state.returns(me);
        return if r != 0.0 { WIN * r } else { 0.0 };
    }
    state.evaluate(me)
}

/// `expected_value(state, _leaf)`: the expectation over the chance outcomes that follow.
pub fn expected_leaf<G: Game>(state: &mut G, me: usize) -> f64 {
    if state.current_player() != CHANCE {
        return leaf(state, me);
    }
    let mut outs = Vec::new();
    state.chance_classes(&mut outs); // as Python's `expected_value`: each effect once, its summed probability
    let mut total = 0.0;
    for (o, p) in outs {
        state.apply(o);
        total += p * expected_leaf(state, me);
        state.undo();
    }
    total
}

/// `GenericGreedy`: one action deep on the mover's view (hidden information), attacks valued by their
/// odds; ties broken by `rng.choice`. With `epsilon > 0`, first one `rng.random()` draw: below
/// `epsilon` the pick is `random`'s (`rng.choice` of the legal actions) instead.
pub struct Greedy {
    pub rng: PyRandom,
    buf: Vec<u32>,
    pub epsilon: f64,
}

impl<G: Game> Agent<G> for Greedy {
    fn select_action(&mut self, state: &mut G) -> u32 {
        if self.epsilon > 0.0 && self.rng.random() < self.epsilon {
            return state.random_action(&mut self.rng, &mut self.buf);
        }
        let mut view = searchable(&mut self.rng, state);
        let state = view.as_mut().unwrap_or(state);
        let me = state.current_player() as usize;
        state.legal_actions(&mut self.buf);
        let acts = std::mem::take(&mut self.buf);
        assert!(!acts.is_empty(), "greedy: no action to choose");
        let mut best: Vec<u32> = Vec::new();
        let mut best_v = f64::NEG_INFINITY;
        for &a in &acts {
            state.apply(a);
            let v = expected_leaf(state, me);
            state.undo();
            if v > best_v + 1e-9 {
                best.clear();
                best.push(a);
                best_v = v;
            } else if (v - best_v).abs() <= 1e-9 {
                best.push(a);
            }
        }
        self.buf = acts;
        *self.rng.choice(&best).expect("greedy: no best action")
    }
}
