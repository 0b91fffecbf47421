//! TerraFeud on the core's protocol: [`TerraFeud`] implements [`Game`], so the generic agents
//! (`crate::core::generic`), the generic perft and the play loop ([`crate::core::protocol`]) run on it
//! as on every other game, beside TerraFeud's own tuned state and agents (which stay as they are).
//!
//! Actions are the protocol's dense ints of `workbench/games/terrafeud/__init__.py` (`action_to_int`):
//! a move `(from * 91 + to) * 7 + promotion`, then shots, castlings, the pass, and an Order numbered by
//! its rank among the position's Orders. `legal_actions` lists them in the Python state's
//! `legal_actions()` order (not sorted), which is the order the Python generic agents iterate, so the
//! native twins pick exactly what they pick. `evaluate` is TerraFeud's (`agents/evaluate.py`, its weights
//! handed over by Python); `action_priority` is the protocol's default 0, as `TerraFeudState` has none.

use std::cell::RefCell;
use std::sync::Arc;

use crate::core::protocol::{Game, TERMINAL};
use crate::terrafeud::agents::eval::{self, EvalParams};
use crate::terrafeud::geometry::N_HEXES;
use crate::terrafeud::state::{Action, State};

const N: u32 = N_HEXES as u32;
/// First id of each kind (`_MOVE0`, `_SHOT0`, `_CASTLE0`, `_PASS_ID`, `_ORDER0`).
pub const MOVE0: u32 = 0;
pub const SHOT0: u32 = MOVE0 + N * N * 7;
pub const CASTLE0: u32 = SHOT0 + N * N;
pub const PASS_ID: u32 = CASTLE0 + N * N;
pub const ORDER0: u32 = PASS_ID + 1;
/// `MAX_ORDERS`: ids of Orders above `ORDER0 + MAX_ORDERS` do not exist.
pub const MAX_ORDERS: u32 = 1 << 20;

/// The dense id of `a`, an Order by its `rank` among the position's Orders.
pub fn action_id(a: &Action, rank: u32) -> u32 {
    match *a {
        Action::Move { from, to, promo } => MOVE0 + (from as u32 * N + to as u32) * 7 + promo as u32,
        Action::Shot { archer, target } => SHOT0 + archer as u32 * N + target as u32,
        Action::Castle { feudal, infantry } => CASTLE0 + feudal as u32 * N + infantry as u32,
        Action::Pass => PASS_ID,
        Action::Order { .. } => ORDER0 + rank,
    }
}

/// The ids of `legal` in its order (Orders ranked as they come).
pub fn ids_of(legal: &[Action], out: &mut Vec<u32>) {
    out.clear();
    let mut rank = 0;
    for a in legal {
        out.push(action_id(a, rank));
        if matches!(a, Action::Order { .. }) {
            rank += 1;
        }
    }
}

/// The legal action of id `id` in `legal`, or None.
pub fn action_of(legal: &[Action], id: u32) -> Option<Action> {
    if id >= ORDER0 {
        return legal.iter().filter(|a| matches!(a, Action::Order { .. })).nth((id - ORDER0) as usize).copied();
    }
    let mut rank = 0;
    for a in legal {
        if matches!(a, Action::Order { .. }) {
            rank += 1;
            continue;
        }
        if action_id(a, rank) == id {
            return Some(*a);
        }
    }
    None
}

/// A TerraFeud state speaking the protocol. The tuned `State` caches its legal list and pikeman zones
/// (`&mut self` queries), so it sits in a `RefCell`: the protocol's queries take `&self`.
#[derive(Clone)]
pub struct TerraFeud {
    st: RefCell<State>,
    eval: Arc<EvalParams>,
    /// Learned weights of [`TerraFeud::features`] an agent searches with (`eval=NAME`); `None`: the hand
    /// evaluation.
    weights: Option<Arc<[f64]>>,
}

/// The number of `GameDef.evaluation_features`: a count per kind but the feudal, then `position`.
pub use crate::terrafeud::agents::eval::N_FEATURES;

impl TerraFeud {
    /// `st` with the evaluation weights Python handed over (`eval::params`).
    pub fn new(st: State, eval: Arc<EvalParams>) -> TerraFeud {
        TerraFeud { st: RefCell::new(st), eval, weights: None }
    }

    /// `evaluation_features`: a count per kind but the feudal (knight, pikeman, cavalry, archer,
    /// infantryman: own minus the enemy's), then `position`, the rest of the evaluation in material units
    /// (`evaluate - material`, 0 once the game is over).
    pub fn features(&self, player: usize) -> [f64; N_FEATURES] {
        eval::features(&mut self.st.borrow_mut(), player.min(1), &self.eval)
    }

    /// `st` with the installed evaluation weights; an error when Python has not handed them over.
    pub fn with_installed_eval(st: State) -> Result<TerraFeud, String> {
        Ok(TerraFeud::new(st, Arc::new(eval::params()?)))
    }

    /// The tuned state (read-only).
    pub fn state(&self) -> std::cell::Ref<'_, State> {
        self.st.borrow()
    }

    /// The tuned state, to query through its caches (`crate::terrafeud::classes`).
    pub fn state_mut(&mut self) -> &mut State {
        self.st.get_mut()
    }

    /// The tuned state back.
    pub fn into_state(self) -> State {
        self.st.into_inner()
    }
}

impl Game for TerraFeud {
    fn current_player(&self) -> i32 {
        let st = self.st.borrow();
        if st.is_terminal() {
            TERMINAL
        } else {
            st.current_player() as i32
        }
    }

    fn is_terminal(&self) -> bool {
        self.st.borrow().is_terminal()
    }

    fn num_players(&self) -> usize {
        2
    }

    fn legal_actions(&self, out: &mut Vec<u32>) {
        let mut st = self.st.borrow_mut();
        ids_of(st.legal_actions_ref(), out);
    }

    fn is_legal(&self, action: u32) -> bool {
        let mut st = self.st.borrow_mut();
        action_of(st.legal_actions_ref(), action).is_some()
    }

    fn chance_outcomes(&self, out: &mut Vec<(u32, f64)>) {
        out.clear(); // terrain is drawn at the start (`chance="seeded"`): no chance node in play
    }

    fn apply(&mut self, action: u32) {
        let st = self.st.get_mut();
        let a = action_of(st.legal_actions_ref(), action)
            .unwrap_or_else(|| panic!("terrafeud: action {action} is not legal here"));
        st.apply(&a);
    }

    fn undo(&mut self) {
        self.st.get_mut().undo();
    }

    fn returns(&self, player: usize) -> f64 {
        self.st.borrow().returns()[player.min(1)]
    }

    fn evaluate(&self, player: usize) -> f64 {
        match &self.weights {
            Some(w) if !self.is_terminal() => crate::core::protocol::learned_sum(w, &self.features(player)),
            _ => eval::hand_evaluate(&mut self.st.borrow_mut(), player.min(1), &self.eval),
        }
    }

    fn feature_count(&self) -> usize {
        N_FEATURES
    }

    fn set_eval_weights(&mut self, weights: Option<Arc<[f64]>>) -> Option<Arc<[f64]>> {
        std::mem::replace(&mut self.weights, weights)
    }

    fn action_priority(&self, _action: u32) -> i64 {
        0
    }

    fn move_number(&self) -> usize {
        self.st.borrow().ply() as usize
    }

    fn fork(&self) -> Self {
        self.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::generic::{self, Agent, Params};
    use crate::core::protocol::{perft, play, End};
    use crate::core::pyrandom::PyRandom;
    use crate::terrafeud::board::Board;
    use crate::terrafeud::geometry::parse_hex;
    use crate::terrafeud::rules::Rules;
    use crate::terrafeud::state::{classic_setup, perft as own_perft};

    /// `evaluate.TERMS` and the data file's `ai_weights` (feudal 1000, knight 4.5, pikeman 3, cavalry 3.5,
    /// archer 2, infantry 1); the Python tests compare the evaluation itself against Python.
    fn weights() -> Arc<EvalParams> {
        let kinds = [0.0, 1000.0, 4.5, 3.0, 3.5, 2.0, 1.0, 0.0];
        let terms: Vec<(String, f64)> = [
            ("ultimatum", 0.5),
            ("ultimatum_cap", 5.0),
            ("zone", 0.1),
            ("advance", 0.06),
            ("advance_base", 10.0),
            ("aura", 0.05),
            ("mine", 0.2),
            ("threat_mover", 3.0),
            ("threat_waiting", 40.0),
        ]
        .iter()
        .map(|(k, v)| (k.to_string(), *v))
        .collect();
        Arc::new(EvalParams::from_parts(kinds, &terms).unwrap())
    }

    fn state(winter: bool, terrain: bool, rules: Rules) -> State {
        let h = |n: &str| parse_hex(n);
        let (hills, swamps) = if terrain { ([h("e4"), h("e7")], [h("b3"), h("b5")]) } else { ([None; 2], [None; 2]) };
        let board = Board::classic(winter, hills, swamps, &rules);
        State::new(Arc::new(board), Arc::new(rules), &classic_setup())
    }

    #[test]
    fn the_generic_perft_counts_what_the_tuned_state_counts() {
        for (winter, terrain, depth) in [(false, false, 3), (false, true, 3), (true, true, 3), (true, false, 2)] {
            let mut own = state(winter, terrain, Rules::default());
            let mut g = TerraFeud::new(state(winter, terrain, Rules::default()), weights());
            assert_eq!(perft(&mut g, depth), own_perft(&mut own, depth), "winter={winter} terrain={terrain}");
        }
        // the stored table (workbench/games/terrafeud/data/perft.json), counted by the Python engine
        assert_eq!(perft(&mut TerraFeud::new(state(false, false, Rules::default()), weights()), 3), 157183);
    }

    #[test]
    fn the_features_under_the_hand_weights_are_the_evaluation() {
        let mut g = TerraFeud::new(state(false, true, Rules::default()), weights());
        let hand: Arc<[f64]> = Arc::from(vec![4.5, 3.0, 3.5, 2.0, 1.0, 1.0]);
        let mut rng = PyRandom::new(11);
        let mut ids = Vec::new();
        let mut checked = 0;
        for _ in 0..120 {
            if g.is_terminal() {
                break;
            }
            for side in 0..2 {
                let own = g.evaluate(side);
                let before = g.set_eval_weights(Some(hand.clone()));
                assert!(before.is_none());
                assert!((g.evaluate(side) - own).abs() < 1e-9, "side {side}");
                assert_eq!(g.fork().evaluate(side), g.evaluate(side), "a fork keeps the weights");
                g.set_eval_weights(None);
                assert_eq!(g.evaluate(side), own);
                checked += 1;
            }
            g.legal_actions(&mut ids);
            g.apply(*rng.choice(&ids).unwrap());
        }
        assert!(checked > 100);
    }

    #[test]
    fn the_tuned_agents_learned_evaluation_is_the_protocols_learned_sum() {
        // `eval=NAME` on the tuned agents (`EvalParams::learned`) scores as the generic agents' learned weights on
        // the protocol face (`set_eval_weights`), and under the hand weights as the hand evaluation
        let mut g = TerraFeud::new(state(true, true, Rules::default()), weights());
        let w = eval::parse_learned("0.7;-1.25;3;2.5e-1;1e-05;0.3").unwrap();
        let hand = eval::parse_learned("4.5;3.0;3.5;2.0;1.0;1.0").unwrap();
        let learned = EvalParams { learned: Some(w.clone()), ..(*weights()).clone() };
        let by_hand = EvalParams { learned: Some(hand), ..(*weights()).clone() };
        let mut rng = PyRandom::new(5);
        let mut ids = Vec::new();
        for _ in 0..100 {
            if g.is_terminal() {
                break;
            }
            for side in 0..2 {
                let own = eval::hand_evaluate(g.state_mut(), side, &weights());
                assert!((eval::evaluate(g.state_mut(), side, &by_hand) - own).abs() < 1e-9);
                let tuned = eval::evaluate(g.state_mut(), side, &learned);
                g.set_eval_weights(Some(w.clone()));
                assert_eq!(tuned, g.evaluate(side), "side {side}");
                g.set_eval_weights(None);
            }
            g.legal_actions(&mut ids);
            g.apply(*rng.choice(&ids).unwrap());
        }
        for bad in ["1;2;3", "1;2;3;4;5;x", "1;2;3;4;5;inf", ""] {
            assert!(eval::parse_learned(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn ids_are_python_action_to_int_and_round_trip() {
        let mut st = state(false, true, Rules { order_radius: 3, ..Rules::default() });
        let legal = st.legal_actions();
        let mut ids = Vec::new();
        ids_of(&legal, &mut ids);
        assert_eq!(ids.len(), legal.len());
        let mut sorted = ids.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), ids.len(), "ids are distinct");
        assert!(legal.iter().any(|a| matches!(a, Action::Order { .. })), "order_radius=3 gives Orders at the start");
        for (a, &id) in legal.iter().zip(&ids) {
            assert_eq!(action_of(&legal, id), Some(*a));
        }
        // e2-e3 style: a move's id is (from * 91 + to) * 7 + promotion
        if let Some(Action::Move { from, to, promo }) = legal.iter().find(|a| matches!(a, Action::Move { .. })) {
            assert_eq!(action_id(&legal[0], 0), (*from as u32 * 91 + *to as u32) * 7 + *promo as u32);
        }
        assert_eq!(action_of(&legal, ORDER0 + 100_000), None);
        assert_eq!(action_of(&legal, PASS_ID), None, "no pass while there are moves");
    }

    #[test]
    fn apply_and_undo_through_the_trait_match_the_tuned_state() {
        let mut own = state(true, true, Rules::default());
        let mut g = TerraFeud::new(state(true, true, Rules::default()), weights());
        let mut rng = PyRandom::new(3);
        let mut ids = Vec::new();
        for _ in 0..80 {
            if g.is_terminal() {
                break;
            }
            g.legal_actions(&mut ids);
            let legal = own.legal_actions();
            assert_eq!(ids.len(), legal.len());
            let i = rng.choice_index(ids.len()).unwrap();
            own.apply(&legal[i]);
            g.apply(ids[i]);
            assert_eq!(g.state().squares(), own.squares());
            assert_eq!(g.state().counters(), own.counters());
            assert_eq!(g.move_number(), own.ply() as usize);
        }
        while g.move_number() > 0 {
            g.undo();
            own.undo();
        }
        assert_eq!(g.state().squares(), own.squares());
        assert_eq!(g.current_player(), 0);
    }

    #[test]
    fn the_generic_agents_play_whole_games_on_it() {
        for (name, cap) in [("random", 400), ("greedy", 200), ("alphabeta", 40), ("mcts", 30), ("plan", 30)] {
            let p = Params { depth: Some(1), iterations: Some(30), nodes: Some(2_000), ..Params::default() };
            let mut agents: Vec<Box<dyn Agent<TerraFeud>>> =
                (0..2).map(|s| generic::make::<TerraFeud>(name, PyRandom::new(7 + s), &p).unwrap()).collect();
            let mut g = TerraFeud::new(state(false, true, Rules::default()), weights());
            let mut plies = 0;
            let end = play(&mut g, &mut agents, || 0.5, cap, |_, _, _, before| plies += usize::from(before));
            assert_eq!(end, End::Done, "{name}");
            assert!(g.is_terminal() || g.move_number() == cap, "{name}: played to the end or the cap");
            assert_eq!(plies, g.move_number(), "{name}");
            let r = [g.returns(0), g.returns(1)];
            assert!(r == [0.0, 0.0] || r == [1.0, -1.0] || r == [-1.0, 1.0]);
        }
    }

    #[test]
    fn evaluate_is_the_tuned_agents_evaluation() {
        let g = TerraFeud::new(state(false, true, Rules::default()), weights());
        let mut own = state(false, true, Rules::default());
        assert_eq!(g.evaluate(0), eval::evaluate(&mut own, 0, &weights()));
        assert!(g.evaluate(0).abs() < 1e-9 && g.evaluate(1).abs() < 1e-9, "the start is symmetric");
        assert_eq!(g.action_priority(PASS_ID), 0);
    }
}
