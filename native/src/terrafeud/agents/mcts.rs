//! `mcts`: UCT with capture-first expansion, progressive widening below the root, an evaluation
//! (or short random rollout) leaf value and a one-capture quiescence check; the algorithm of
//! `mcts.py`, with the tree in an arena for one decision.

use std::time::{Duration, Instant};

use crate::core::pyrandom::PyRandom;
use crate::terrafeud::state::{Action, State};

use super::eval::{evaluate, material, EvalParams};
use super::{access, sort_captures_first, targets, Agent, MAX_SECONDS};

pub const MAX_ITERATIONS: u32 = 1_000_000;
const NO_PARENT: usize = usize::MAX;

struct Node {
    action: Option<Action>,
    parent: usize,
    children: Vec<usize>,
    untried: Option<Vec<Action>>,
    visits: u32,
    /// Summed rewards for `mover`, the side that played `action`.
    value: f64,
    mover: usize,
}

pub struct MctsAgent {
    pub rng: PyRandom,
    pub params: EvalParams,
    pub iterations: u32,
    pub random_rollout: bool,
    pub rollout_depth: u32,
    pub c: f64,
    pub scale: f64,
    pub widen: f64,
    pub quiesce: bool,
    pub seconds: Option<f64>,
    pub last_iterations: u64,
}

impl MctsAgent {
    fn iterate(&mut self, st: &mut State, tree: &mut Vec<Node>) {
        let mut node = 0usize;
        let mut played = 0u32;
        while !access::is_over(st) {
            if tree[node].untried.is_none() {
                let order = self.expansion_order(st);
                tree[node].untried = Some(order);
            }
            let room = node == 0 || (tree[node].children.len() as f64) < self.widen + (tree[node].visits as f64).sqrt();
            let has_untried = tree[node].untried.as_ref().is_some_and(|u| !u.is_empty());
            if has_untried && room {
                let a = tree[node].untried.as_mut().and_then(|u| u.pop()).expect("untried action");
                let mover = access::to_move(st);
                st.apply(&a);
                played += 1;
                let child = tree.len();
                tree.push(Node {
                    action: Some(a),
                    parent: node,
                    children: Vec::new(),
                    untried: None,
                    visits: 0,
                    value: 0.0,
                    mover,
                });
                tree[node].children.push(child);
                node = child;
                break;
            }
            if tree[node].children.is_empty() {
                break;
            }
            node = self.uct_child(tree, node);
            let a = tree[node].action.expect("child action");
            st.apply(&a);
            played += 1;
        }
        let mut reward = self.leaf_value(st, tree[node].mover);
        for _ in 0..played {
            st.undo();
        }
        let mut n = node;
        while n != NO_PARENT {
            tree[n].visits += 1;
            tree[n].value += reward;
            reward = 1.0 - reward;
            n = tree[n].parent;
        }
    }

    fn uct_child(&self, tree: &[Node], node: usize) -> usize {
        let log_n = (tree[node].visits as f64).ln();
        let mut best = NO_PARENT;
        let mut best_v = f64::NEG_INFINITY;
        for &ch in &tree[node].children {
            let n = &tree[ch];
            let v = n.value / n.visits as f64 + self.c * (log_n / n.visits as f64).sqrt();
            if best == NO_PARENT || v > best_v {
                best = ch;
                best_v = v;
            }
        }
        best
    }

    /// Untried actions, popped from the end: the capture ordering reversed, ties shuffled.
    fn expansion_order(&mut self, st: &mut State) -> Vec<Action> {
        let mut acts = st.legal_actions();
        self.rng.shuffle(&mut acts);
        sort_captures_first(st, &mut acts, &self.params.weights);
        acts.reverse();
        acts
    }

    /// Material the side to move at the leaf wins with its best capture, if `side` is not to move.
    fn best_capture_gain(&self, st: &mut State, side: usize) -> f64 {
        if access::is_over(st) || access::to_move(st) == side {
            return 0.0;
        }
        let base = material(st, side, &self.params);
        let mut worst: f64 = 0.0;
        let sq = *access::squares(st);
        for a in st.legal_actions() {
            if !matches!(a, Action::Move { .. } | Action::Order { .. }) {
                continue;
            }
            if !targets(&a).any(|t| sq[t] != 0 && (sq[t] >> 3) as usize == side) {
                continue;
            }
            st.apply(&a);
            let loss = if access::is_over(st) {
                if access::winner(st) != Some(1 - side) {
                    0.0
                } else {
                    1e3
                }
            } else {
                base - material(st, side, &self.params)
            };
            st.undo();
            worst = worst.max(loss);
        }
        worst
    }

    /// Win probability for `side` at the leaf (after an optional short random rollout).
    fn leaf_value(&mut self, st: &mut State, side: usize) -> f64 {
        let mut played = 0;
        if self.random_rollout {
            while !access::is_over(st) && played < self.rollout_depth {
                let acts = st.legal_actions();
                let i = self.rng.choice_index(acts.len()).expect("legal action");
                st.apply(&acts[i]);
                played += 1;
            }
        }
        let value = if access::is_over(st) {
            match access::winner(st) {
                None => 0.5,
                Some(w) if w == side => 1.0,
                Some(_) => 0.0,
            }
        } else {
            let mut v = evaluate(st, side, &self.params);
            if self.quiesce {
                v -= self.best_capture_gain(st, side);
            }
            1.0 / (1.0 + (-(v / self.scale).clamp(-50.0, 50.0)).exp())
        };
        for _ in 0..played {
            st.undo();
        }
        value
    }
}

impl Agent for MctsAgent {
    fn select_action(&mut self, st: &mut State) -> Action {
        let acts = st.legal_actions();
        if acts.is_empty() {
            return Action::Pass;
        }
        if acts.len() == 1 {
            return acts[0];
        }
        let mut tree = vec![Node {
            action: None,
            parent: NO_PARENT,
            children: Vec::new(),
            untried: None,
            visits: 0,
            value: 0.0,
            mover: 1 - access::to_move(st),
        }];
        let deadline = Instant::now() + Duration::from_secs_f64(self.seconds.unwrap_or(MAX_SECONDS));
        let mut done = 0u64;
        for i in 0..self.iterations {
            self.iterate(st, &mut tree);
            done += 1;
            if (i & 15 == 15 && Instant::now() > deadline) || crate::core::interrupt::poll() {
                break;
            }
        }
        self.last_iterations = done;
        let mut best = tree[0].children[0];
        for &ch in &tree[0].children {
            let (b, n) = (&tree[best], &tree[ch]);
            if (n.visits, n.value) > (b.visits, b.value) {
                best = ch;
            }
        }
        tree[best].action.expect("root child action")
    }

    fn searched(&self) -> u64 {
        self.last_iterations
    }
}
