//! `greedy`: best material after one action and its triggers, ties by the seeded generator;
//! the same pick as the Python twin (same order, same sums, same `choice`).

use crate::core::pyrandom::PyRandom;
use crate::terrafeud::state::{Action, State};

use super::eval::{material, terminal_score, EvalParams};
use super::{access, Agent};

pub struct GreedyAgent {
    pub rng: PyRandom,
    pub params: EvalParams,
}

impl Agent for GreedyAgent {
    fn select_action(&mut self, st: &mut State) -> Action {
        let acts = st.legal_actions();
        if acts.is_empty() {
            return Action::Pass;
        }
        let side = access::to_move(st);
        let mut best: Vec<Action> = Vec::new();
        let mut best_score = f64::NEG_INFINITY;
        for a in &acts {
            st.apply(a);
            let score = if access::is_over(st) { terminal_score(st, side) } else { material(st, side, &self.params) };
            st.undo();
            if score > best_score {
                best_score = score;
                best.clear();
                best.push(*a);
            } else if score == best_score {
                best.push(*a);
            }
        }
        let i = self.rng.choice_index(best.len()).expect("non-empty");
        best[i]
    }
}
