//! `random`: uniform over the legal actions, as `workbench/games/terrafeud/agents/random_agent.py`
//! (`self.rng.choice(state.legal_actions())`).

use super::Agent;
use crate::core::pyrandom::PyRandom;
use crate::terrafeud::state::{Action, State};

pub struct RandomAgent {
    pub rng: PyRandom,
}

impl Agent for RandomAgent {
    fn select_action(&mut self, state: &mut State) -> Action {
        let acts = state.legal_actions();
        match self.rng.choice_index(acts.len()) {
            Some(i) => acts[i],
            None => Action::Pass,
        }
    }
}
