//! The generic agents of `workbench/agents/generic.py` on The Cursed Lands: `random`, `greedy`,
//! `alphabeta`, `mcts`, `search`, with the same names, parameters and defaults. Seeded by the CPython
//! stream (`pyrandom`), drawing in the same order (the hidden-information view's seed first), iterating
//! the same actions in the same order and summing the same floats, so `random`, `greedy` and
//! `alphabeta` pick exactly what Python picks (while the Python twin's clock does not cut its search).

use std::time::{Duration, Instant};

use super::geo;
use super::state::State;
use crate::pyrandom::PyRandom;

/// A won position outranks any evaluation (`generic.WIN`).
pub const WIN: f64 = 1_000_000.0;
/// Ceiling on thinking time per decision (`workbench.agents.base.MAX_SECONDS`).
pub const MAX_SECONDS: f64 = 5.0;
pub const NAMES: [&str; 6] = ["random", "greedy", "alphabeta", "mcts", "search", "plan"];

/// Agent parameters, already range-checked by the caller (`check_param` in Python).
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
    pub replan: Option<u32>,
}

pub enum Agent {
    Random(PyRandom),
    Greedy(PyRandom),
    AlphaBeta(AlphaBeta),
    Mcts(Mcts),
    /// A generic agent of `native/src/generic/` through the protocol's `Game` trait.
    Generic(Box<dyn crate::generic::Agent<State>>),
}

impl Agent {
    /// An agent by name; `None` for an unknown name.
    pub fn new(name: &str, rng: PyRandom, p: &Params) -> Option<Agent> {
        Some(match name {
            "random" => Agent::Random(rng),
            "greedy" => Agent::Greedy(rng),
            "alphabeta" => Agent::AlphaBeta(AlphaBeta::new(
                rng,
                p.depth.unwrap_or(2),
                p.nodes.unwrap_or(20_000),
                p.seconds.unwrap_or(2.0),
            )),
            "search" => Agent::AlphaBeta(AlphaBeta::new(
                rng,
                p.depth.unwrap_or(8),
                p.nodes.unwrap_or(200_000),
                p.seconds.unwrap_or(1.0),
            )),
            "mcts" => Agent::Mcts(Mcts {
                rng,
                iterations: p.iterations.unwrap_or(300),
                c: p.c.unwrap_or(1.4),
                rollout: p.rollout.unwrap_or(20),
                seconds: p.seconds.unwrap_or(2.0).min(MAX_SECONDS),
                scale: p.scale.unwrap_or(5.0),
            }),
            "plan" => Agent::Generic(Box::new(
                crate::generic::Plan::new(
                    rng,
                    p.beam.unwrap_or(8) as usize,
                    p.steps.unwrap_or(16) as usize,
                    p.reply.unwrap_or(0) > 0,
                )
                .with_replan(p.replan.unwrap_or(1) > 0),
            )),
            _ => return None,
        })
    }

    /// True when the agent searches a view (its pick may be illegal under a hidden deck top).
    pub fn uses_view(&self) -> bool {
        !matches!(self, Agent::Random(_))
    }

    /// The action to play in `state` (running, not in a chance node); `state` is left as it was.
    pub fn select_action(&mut self, state: &State) -> u32 {
        match self {
            Agent::Random(rng) => {
                if state.c.setup {
                    let n = state.rules.starting_units as usize;
                    let i = rng.choice_index(geo::camp_count(n)).expect("random: no camp");
                    return geo::camp_at(n, i);
                }
                let mut acts = Vec::new();
                state.legal_actions(&mut acts);
                *rng.choice(&acts).expect("random: no action to choose")
            }
            Agent::Greedy(rng) => greedy(rng, state),
            Agent::AlphaBeta(ab) => ab.select(state),
            Agent::Mcts(m) => m.select(state),
            Agent::Generic(g) => g.select_action(&mut state.fork()),
        }
    }
}

/// `ProtocolAgent.searchable`: the view of the side to move, seeded by `rng.randrange(2**31)`.
fn searchable(rng: &mut PyRandom, state: &State) -> State {
    let seed = rng.randrange(0, 1 << 31) as u64;
    state.view(seed)
}

/// `_leaf`: a finished game is +-WIN, else the evaluation for `me`.
pub fn leaf(state: &State, me: usize) -> f64 {
    if state.is_terminal() {
        let r = state.returns(me);
        return if r != 0.0 { WIN * r } else { 0.0 };
    }
    state.evaluate(me)
}

fn greedy(rng: &mut PyRandom, state: &State) -> u32 {
    let mut root = searchable(rng, state);
    let me = root.c.to_move as usize;
    let mut acts = Vec::new();
    root.legal_actions(&mut acts);
    assert!(!acts.is_empty(), "greedy: no action to choose");
    let mut best: Vec<u32> = Vec::new();
    let mut best_v = f64::NEG_INFINITY;
    for &a in &acts {
        root.apply(a);
        let v = leaf(&root, me);
        root.undo();
        if v > best_v + 1e-9 {
            best.clear();
            best.push(a);
            best_v = v;
        } else if (v - best_v).abs() <= 1e-9 {
            best.push(a);
        }
    }
    *rng.choice(&best).expect("greedy: no best action")
}

/// `GenericAlphaBeta` / `GenericSearch`.
pub struct AlphaBeta {
    pub rng: PyRandom,
    pub depth: u32,
    pub nodes: u64,
    pub seconds: f64,
    pub score: f64,
    pub depth_reached: u32,
    pub nodes_searched: u64,
    me: usize,
    used: u64,
    deadline: Instant,
}

struct Stop;

impl AlphaBeta {
    pub fn new(rng: PyRandom, depth: u32, nodes: u64, seconds: f64) -> Self {
        AlphaBeta {
            rng,
            depth,
            nodes,
            seconds: seconds.min(MAX_SECONDS),
            score: 0.0,
            depth_reached: 0,
            nodes_searched: 0,
            me: 0,
            used: 0,
            deadline: Instant::now(),
        }
    }

    #[inline]
    fn spend(&mut self) -> bool {
        self.used += 1;
        self.used > self.nodes || (self.used & 255 == 0 && Instant::now() > self.deadline)
    }

    /// `sorted(actions, key=action_priority, reverse=True)`: stable, highest first.
    fn ordered(state: &State, actions: &mut Vec<u32>) {
        let mut keyed: Vec<(i64, u32)> = actions.iter().map(|&a| (state.action_priority(a), a)).collect();
        keyed.sort_by_key(|x| std::cmp::Reverse(x.0));
        actions.clear();
        actions.extend(keyed.into_iter().map(|(_, a)| a));
    }

    pub fn select(&mut self, state: &State) -> u32 {
        let mut root = searchable(&mut self.rng, state);
        self.me = root.c.to_move as usize;
        let mut actions = Vec::new();
        root.legal_actions(&mut actions);
        assert!(!actions.is_empty(), "alphabeta: no action to choose");
        Self::ordered(&root, &mut actions);
        if actions.len() == 1 {
            return actions[0];
        }
        self.used = 0;
        self.deadline = Instant::now() + Duration::from_secs_f64(self.seconds);
        let mut best = vec![actions[0]];
        for depth in 1..=self.depth {
            let Ok(scored) = self.root(&mut root, &actions, depth) else { break };
            let top = scored.iter().map(|x| x.0).fold(f64::NEG_INFINITY, f64::max);
            best = scored.iter().filter(|x| x.0 >= top - 1e-9).map(|x| x.1).collect();
            self.score = top;
            self.depth_reached = depth;
            let mut sorted = scored;
            sorted.sort_by(|x, y| (-x.0).partial_cmp(&-y.0).unwrap_or(std::cmp::Ordering::Equal));
            actions = sorted.into_iter().map(|x| x.1).collect();
        }
        self.nodes_searched = self.used;
        *self.rng.choice(&best).expect("alphabeta: no best action")
    }

    fn root(&mut self, root: &mut State, actions: &[u32], depth: u32) -> Result<Vec<(f64, u32)>, Stop> {
        let mut out = Vec::with_capacity(actions.len());
        let mut alpha = f64::NEG_INFINITY;
        for &a in actions {
            root.apply(a);
            let v = self.value(root, depth - 1, alpha, f64::INFINITY);
            root.undo();
            let v = v?;
            out.push((v, a));
            alpha = alpha.max(v - 1e-9);
        }
        Ok(out)
    }

    fn value(&mut self, state: &mut State, depth: u32, mut alpha: f64, mut beta: f64) -> Result<f64, Stop> {
        if self.spend() {
            return Err(Stop);
        }
        if state.is_terminal() || depth == 0 {
            return Ok(leaf(state, self.me));
        }
        let maximise = state.c.to_move as usize == self.me;
        let mut best = if maximise { f64::NEG_INFINITY } else { f64::INFINITY };
        let mut acts = Vec::new();
        state.legal_actions(&mut acts);
        Self::ordered(state, &mut acts);
        for a in acts {
            state.apply(a);
            let v = self.value(state, depth - 1, alpha, beta);
            state.undo();
            let v = v?;
            if maximise {
                best = best.max(v);
                alpha = alpha.max(v);
            } else {
                best = best.min(v);
                beta = beta.min(v);
            }
            if alpha >= beta {
                break;
            }
        }
        Ok(best)
    }
}

/// `GenericMCTS`: UCT with per-player rewards, random playouts scored by the evaluation.
pub struct Mcts {
    pub rng: PyRandom,
    pub iterations: u32,
    pub c: f64,
    pub rollout: u32,
    pub seconds: f64,
    pub scale: f64,
}

struct Node {
    action: u32,
    player: i32,
    children: Vec<usize>,
    visits: u64,
    total: f64,
}

impl Mcts {
    pub fn select(&mut self, state: &State) -> u32 {
        let mut legal = Vec::new();
        state.legal_actions(&mut legal);
        assert!(!legal.is_empty(), "mcts: no action to choose");
        if legal.len() == 1 {
            return legal[0];
        }
        let deadline = Instant::now() + Duration::from_secs_f64(self.seconds);
        let base = searchable(&mut self.rng, state);
        let mut nodes = vec![Node { action: 0, player: -1, children: Vec::new(), visits: 0, total: 0.0 }];
        let mut acts = Vec::new();
        let mut path = Vec::new();
        for it in 0..self.iterations {
            if it & 15 == 0 && Instant::now() > deadline {
                break;
            }
            let mut sim = base.fork();
            let mut node = 0usize;
            path.clear();
            path.push(0usize);
            loop {
                if sim.is_terminal() {
                    break;
                }
                sim.legal_actions(&mut acts);
                let known: std::collections::HashSet<u32> =
                    nodes[node].children.iter().map(|&ch| nodes[ch].action).collect();
                let fresh: Vec<u32> = acts.iter().copied().filter(|a| !known.contains(a)).collect();
                if !fresh.is_empty() {
                    let action = *self.rng.choice(&fresh).expect("fresh");
                    let child = nodes.len();
                    nodes.push(Node {
                        action,
                        player: sim.current_player(),
                        children: Vec::new(),
                        visits: 0,
                        total: 0.0,
                    });
                    nodes[node].children.push(child);
                    sim.apply(action);
                    path.push(child);
                    break;
                }
                let allowed: std::collections::HashSet<u32> = acts.iter().copied().collect();
                let options: Vec<usize> =
                    nodes[node].children.iter().copied().filter(|&ch| allowed.contains(&nodes[ch].action)).collect();
                let total_visits: u64 = options.iter().map(|&ch| nodes[ch].visits).sum();
                let log_n = (total_visits.max(1) as f64).ln();
                let mut pick = options[0];
                let mut pick_v = f64::NEG_INFINITY;
                for &ch in &options {
                    let nd = &nodes[ch];
                    let v = nd.total / nd.visits as f64 + self.c * (log_n / nd.visits as f64).sqrt();
                    if v > pick_v {
                        pick_v = v;
                        pick = ch;
                    }
                }
                node = pick;
                sim.apply(nodes[node].action);
                path.push(node);
            }
            for _ in 0..self.rollout {
                if sim.is_terminal() {
                    break;
                }
                if sim.c.setup {
                    let n = sim.rules.starting_units as usize;
                    let i = self.rng.choice_index(geo::camp_count(n)).expect("camp");
                    sim.apply(geo::camp_at(n, i));
                } else {
                    sim.legal_actions(&mut acts);
                    let a = *self.rng.choice(&acts).expect("rollout");
                    sim.apply(a);
                }
            }
            let rewards: [f64; 2] = if sim.is_terminal() {
                [sim.returns(0), sim.returns(1)]
            } else {
                [(sim.evaluate(0) / self.scale).tanh(), (sim.evaluate(1) / self.scale).tanh()]
            };
            for &nd in &path {
                nodes[nd].visits += 1;
                if nodes[nd].player >= 0 {
                    nodes[nd].total += rewards[nodes[nd].player as usize];
                }
            }
        }
        if nodes[0].children.is_empty() {
            return *self.rng.choice(&legal).expect("mcts");
        }
        let mut best = nodes[0].children[0];
        for &ch in &nodes[0].children {
            let (a, b) = (&nodes[ch], &nodes[best]);
            let ka = (a.visits, a.total / a.visits.max(1) as f64);
            let kb = (b.visits, b.total / b.visits.max(1) as f64);
            if ka.0 > kb.0 || (ka.0 == kb.0 && ka.1 > kb.1) {
                best = ch;
            }
        }
        nodes[best].action
    }
}
