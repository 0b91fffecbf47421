//! `GenericPlan` (`plan:beam=8`): plans the whole of the mover's turn, however many actions it has.
//! Every legal action is scored one action deep (as `greedy` does); the `beam` best (a stable sort,
//! so equal scores keep the canonical order) are each completed greedily to the end of the mover's
//! turn (at most `steps` more actions, the first best action of each step), with `reply=1` the opponent
//! answers with its best single action, with `reply=2` with its whole turn played greedily (its best
//! action at each step, at most `steps`), with `reply=3` that turn and then the mover's own next turn
//! greedily, and the first action of
//! the best whole turn is played, ties broken by `rng.choice` in beam order. It replans at every
//! decision. A game of one action per turn reduces to `greedy` over the beam (a one-ply search).
//!
//! The same actions in the same order and the same floats as the Python twin, so the same choice.

use super::{expected_leaf, searchable, Agent};
use crate::core::protocol::Game;
use crate::core::pyrandom::PyRandom;

pub struct Plan {
    pub rng: PyRandom,
    pub beam: usize,
    pub steps: usize,
    /// Let the opponent answer the planned turn: 0 not at all, 1 with its best single action, 2 with
    /// its whole turn played greedily, 3 that turn and then the mover's next turn.
    pub reply: u32,
    /// Value of the last decision's best turn and the evaluations it spent.
    pub score: f64,
    pub nodes_searched: u64,
}

impl Plan {
    pub fn new(rng: PyRandom, beam: usize, steps: usize, reply: u32) -> Self {
        Plan { rng, beam, steps, reply, score: 0.0, nodes_searched: 0 }
    }

    /// The value of the turn after the first action: greedy completion while `me` is to move.
    fn complete<G: Game>(&mut self, state: &mut G, me: usize, mut value: f64, acts: &mut Vec<u32>) -> f64 {
        let mut played = 0;
        if state.current_player() == me as i32 {
            // the rest of `me`'s turn: `turn` for the mover
            (value, played) = self.turn(state, me, value, true, acts);
        }
        let answers = !state.is_terminal() && state.current_player() >= 0 && state.current_player() != me as i32;
        if self.reply >= 2 && answers {
            let (v, answered) = self.turn(state, me, value, false, acts);
            value = v;
            if self.reply == 3 && answered > 0 && !state.is_terminal() && state.current_player() == me as i32 {
                let (v, again) = self.turn(state, me, value, true, acts); // the mover's next turn
                value = v;
                for _ in 0..again {
                    state.undo();
                }
            }
            for _ in 0..answered {
                state.undo();
            }
        } else if self.reply > 0 && answers {
            state.legal_actions(acts);
            let mut worst = f64::INFINITY;
            for &a in acts.iter() {
                state.apply(a);
                let v = expected_leaf(state, me);
                state.undo();
                self.nodes_searched += 1;
                worst = worst.min(v);
            }
            if worst < f64::INFINITY {
                value = worst;
            }
        }
        for _ in 0..played {
            state.undo();
        }
        value
    }

    /// `reply=2`/`3`: the whole turn of the side to move, greedily (the best action for `me` at each
    /// step when `mine`, else the worst, the first of equal ones), left applied: `me`'s value at its
    /// end and the number of actions played (the caller undoes them).
    fn turn<G: Game>(
        &mut self,
        state: &mut G,
        me: usize,
        mut value: f64,
        mine: bool,
        acts: &mut Vec<u32>,
    ) -> (f64, usize) {
        let side = state.current_player();
        let mut played = 0;
        while played < self.steps && !state.is_terminal() && state.current_player() == side {
            state.legal_actions(acts);
            let mut best = None;
            let mut best_v = if mine { f64::NEG_INFINITY } else { f64::INFINITY };
            for &a in acts.iter() {
                state.apply(a);
                let v = expected_leaf(state, me);
                state.undo();
                self.nodes_searched += 1;
                let better = if mine { v > best_v + 1e-9 } else { v < best_v - 1e-9 };
                if better {
                    best = Some(a);
                    best_v = v;
                }
            }
            let Some(a) = best else { break };
            state.apply(a);
            played += 1;
            value = best_v;
        }
        (value, played)
    }
}

impl<G: Game> Agent<G> for Plan {
    fn select_action(&mut self, state: &mut G) -> u32 {
        let mut view = searchable(&mut self.rng, state);
        let root = view.as_mut().unwrap_or(state);
        let me = root.current_player() as usize;
        let mut actions = Vec::new();
        root.legal_actions(&mut actions);
        assert!(!actions.is_empty(), "plan: no action to choose");
        if actions.len() == 1 {
            return actions[0];
        }
        self.nodes_searched = 0;
        let mut first: Vec<(f64, u32)> = Vec::with_capacity(actions.len());
        for &a in &actions {
            root.apply(a);
            first.push((expected_leaf(root, me), a));
            root.undo();
        }
        self.nodes_searched += actions.len() as u64;
        first.sort_by(|x, y| y.0.partial_cmp(&x.0).unwrap_or(std::cmp::Ordering::Equal));
        let mut acts = Vec::new();
        let mut scored: Vec<(f64, u32)> = Vec::with_capacity(self.beam);
        for &(v1, a) in first.iter().take(self.beam) {
            root.apply(a);
            let v = self.complete(root, me, v1, &mut acts);
            root.undo();
            scored.push((v, a));
        }
        let top = scored.iter().map(|x| x.0).fold(f64::NEG_INFINITY, f64::max);
        let best: Vec<u32> = scored.iter().filter(|x| x.0 >= top - 1e-9).map(|x| x.1).collect();
        self.score = top;
        *self.rng.choice(&best).expect("plan: no best action")
    }

    fn stats(&self) -> (f64, u64) {
        (self.score, self.nodes_searched)
    }
}
