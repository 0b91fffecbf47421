//! `GenericMCTS`: UCT with per-player rewards, chance sampled by its probabilities with the agent's
//! own stream, playouts of `rollout` random actions scored by `tanh(evaluate / scale)`. The same
//! draws in the same order as the Python twin (children in creation order, first maximum wins); under
//! hidden information the simulations start from the mover's view, drawn after the one-action check.
//! `odds=1` values an attack by its odds: a playout stops at a roll and takes the expectation of the
//! rewards over the roll's outcomes (merged by effect, `chance_key`), as the Python twin does; with
//! `rollout=0` that is an evaluation cut-off right after the expanded action. `prior=1` expands
//! children in the game's move order (`action_priority`) instead of drawing them.

use std::time::{Duration, Instant};

use super::{searchable, Agent};
use crate::core::protocol::{sample_outcome, Game, CHANCE};
use crate::core::pyrandom::PyRandom;

pub struct Mcts {
    pub rng: PyRandom,
    pub iterations: u32,
    pub c: f64,
    pub rollout: u32,
    pub seconds: f64,
    pub scale: f64,
    /// Playouts stop at a roll and take the expectation over its outcomes (`odds=1`).
    pub odds: bool,
    /// Children are expanded in the game's move order, not drawn (`prior=1`).
    pub prior: bool,
    pub score: f64,
    /// The root's visits of the last decision (the iterations its clock allowed).
    pub visits: u64,
}

struct Node {
    action: u32,
    player: i32,
    children: Vec<usize>,
    visits: u64,
    total: f64,
}

impl Mcts {
    pub fn new(rng: PyRandom, iterations: u32, c: f64, rollout: u32, seconds: f64, scale: f64) -> Self {
        Mcts { rng, iterations, c, rollout, seconds, scale, odds: false, prior: false, score: 0.0, visits: 0 }
    }

    /// The same agent valuing an attack by its odds (`odds=1`) and expanding in move order (`prior=1`).
    pub fn with_odds(mut self, odds: bool, prior: bool) -> Self {
        self.odds = odds;
        self.prior = prior;
        self
    }

    /// `_rewards`: the result of a finished game, the expectation over a roll's outcome classes (with
    /// `odds`), else `tanh(evaluate / scale)` for every player, into `out` (all zero on entry).
    fn rewards<G: Game>(&self, sim: &mut G, out: &mut [f64]) {
        if sim.is_terminal() {
            for (p, r) in out.iter_mut().enumerate() {
                *r = sim.returns(p);
            }
            return;
        }
        if self.odds && sim.current_player() == CHANCE {
            let mut outs = Vec::new();
            sim.chance_classes(&mut outs);
            let mut part = vec![0.0; out.len()];
            for (o, p) in outs {
                part.iter_mut().for_each(|x| *x = 0.0);
                sim.apply(o);
                self.rewards(sim, &mut part);
                sim.undo();
                for (t, r) in out.iter_mut().zip(&part) {
                    *t += p * r;
                }
            }
            return;
        }
        for (p, r) in out.iter_mut().enumerate() {
            *r = (sim.evaluate(p) / self.scale).tanh();
        }
    }

    fn sample_chance<G: Game>(&mut self, sim: &mut G, outs: &mut Vec<(u32, f64)>) {
        while sim.current_player() == CHANCE {
            sim.chance_outcomes(outs);
            sim.apply(sample_outcome(outs, self.rng.random()));
        }
    }
}

impl<G: Game> Agent<G> for Mcts {
    fn select_action(&mut self, state: &mut G) -> u32 {
        let n = state.num_players();
        let mut legal = Vec::new();
        state.legal_actions(&mut legal);
        assert!(!legal.is_empty(), "mcts: no action to choose");
        if legal.len() == 1 {
            return legal[0];
        }
        let root_legal = legal.clone();
        let mut tree = vec![Node { action: u32::MAX, player: -1, children: Vec::new(), visits: 0, total: 0.0 }];
        let deadline = Instant::now() + Duration::from_secs_f64(self.seconds);
        let view = searchable(&mut self.rng, state);
        let base: &G = view.as_ref().unwrap_or(state);
        let mut outs = Vec::new();
        let mut path: Vec<usize> = Vec::new();
        let mut rewards = vec![0.0; n];
        for it in 0..self.iterations {
            if it & 15 == 0 && Instant::now() > deadline {
                break;
            }
            let mut sim = base.fork();
            let mut node = 0usize;
            path.clear();
            path.push(0);
            loop {
                if sim.is_terminal() {
                    break;
                }
                self.sample_chance(&mut sim, &mut outs);
                if sim.is_terminal() {
                    break;
                }
                sim.legal_actions(&mut legal);
                let fresh: Vec<u32> = legal
                    .iter()
                    .copied()
                    .filter(|a| !tree[node].children.iter().any(|&ch| tree[ch].action == *a))
                    .collect();
                if !fresh.is_empty() {
                    let action = if self.prior {
                        // `max(fresh, key=action_priority)`: the first of the highest keys
                        let mut best = fresh[0];
                        let mut key = sim.action_priority(best);
                        for &a in &fresh[1..] {
                            let k = sim.action_priority(a);
                            if k > key {
                                best = a;
                                key = k;
                            }
                        }
                        best
                    } else {
                        *self.rng.choice(&fresh).expect("fresh is not empty")
                    };
                    let child = tree.len();
                    tree.push(Node {
                        action,
                        player: sim.current_player(),
                        children: Vec::new(),
                        visits: 0,
                        total: 0.0,
                    });
                    tree[node].children.push(child);
                    sim.apply(action);
                    path.push(child);
                    break;
                }
                let options: Vec<usize> =
                    tree[node].children.iter().copied().filter(|&ch| legal.contains(&tree[ch].action)).collect();
                let sum: u64 = options.iter().map(|&ch| tree[ch].visits).sum();
                let log_n = (sum.max(1) as f64).ln();
                let mut pick = options[0];
                let mut pick_v = f64::NEG_INFINITY;
                for &ch in &options {
                    let nd = &tree[ch];
                    let v = nd.total / nd.visits as f64 + self.c * (log_n / nd.visits as f64).sqrt();
                    if v > pick_v {
                        pick_v = v;
                        pick = ch;
                    }
                }
                node = pick;
                sim.apply(tree[node].action);
                path.push(node);
            }
            for _ in 0..self.rollout {
                if sim.is_terminal() || (self.odds && sim.current_player() == CHANCE) {
                    break;
                }
                self.sample_chance(&mut sim, &mut outs);
                if sim.is_terminal() {
                    break;
                }
                let a = sim.random_action(&mut self.rng, &mut legal);
                sim.apply(a);
            }
            rewards.iter_mut().for_each(|r| *r = 0.0);
            self.rewards(&mut sim, &mut rewards);
            for &nd in &path {
                tree[nd].visits += 1;
                if tree[nd].player >= 0 {
                    tree[nd].total += rewards[tree[nd].player as usize];
                }
            }
        }
        if tree[0].children.is_empty() {
            return *self.rng.choice(&root_legal).expect("legal is not empty");
        }
        let mut best = tree[0].children[0];
        for &ch in &tree[0].children {
            let (a, b) = (&tree[ch], &tree[best]);
            let ka = (a.visits, a.total / a.visits.max(1) as f64);
            let kb = (b.visits, b.total / b.visits.max(1) as f64);
            if ka.0 > kb.0 || (ka.0 == kb.0 && ka.1 > kb.1) {
                best = ch;
            }
        }
        self.score = tree[best].total / tree[best].visits.max(1) as f64;
        self.visits = tree[0].visits;
        tree[best].action
    }

    /// The chosen child's mean reward (the Python twin's `score`) and the root's visits.
    fn stats(&self) -> (f64, u64) {
        (self.score, self.visits)
    }
}
