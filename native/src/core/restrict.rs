//! Restricted play natively (`workbench/agents/restrict.py`): an agent barred from classes of actions.
//!
//! A game's classifier ([`Classes`], the Rust twin of its Python `classes.py`) names the classes of an
//! action as bits in the declaration order of `GameDef.action_classes`. [`Barred`] wraps a state so the
//! player deciding is offered no action of its barred classes (all of them when every legal action is
//! barred: the move is forced), in its own future moves too, while the opponent's stay untouched, as the
//! Python `BarredView` does. [`play_barred`] is the play loop of `protocol::play` with one mask per seat,
//! counting what `Restricted.tally` counts: decisions, forced moves and the actions played of each class.

use std::cell::RefCell;
use std::sync::Arc;

use crate::core::generic::Agent;
use crate::core::protocol::{sample_outcome, End, Game, CHANCE};
use crate::core::pyrandom::PyRandom;

/// The most classes a game may declare (one bit each).
pub const MAX_CLASSES: usize = 64;

/// A game's action classifier: bit `i` set when `action` belongs to its `i`-th declared class, in the
/// position before it is played (it may apply and undo to read the rules the action fires; `self` is
/// left as it was). `Table` is what a game's classifier needs from Python beyond the position (big chess:
/// which card keys its declared buy classes name); `()` for most.
pub trait Classes: Game {
    type Table: Send + Sync;
    fn classes(&mut self, action: u32, table: &Self::Table) -> u64;
}

/// A state whose `player` is offered no action of the classes in `mask` (unless all are barred).
///
/// The state sits in a `RefCell` because the protocol lists legal actions from `&self` while a
/// classifier may apply and undo; the play loop sets `player` and `mask` to the deciding seat's before
/// each decision, so every agent searches its own view (the Python agent gets a `BarredView` of its own).
pub struct Barred<G: Classes> {
    inner: RefCell<G>,
    table: Arc<G::Table>,
    pub player: i32,
    pub mask: u64,
}

impl<G: Classes> Barred<G> {
    pub fn new(inner: G, table: Arc<G::Table>) -> Self {
        Barred { inner: RefCell::new(inner), table, player: -1, mask: 0 }
    }

    /// The wrapped state.
    pub fn into_inner(self) -> G {
        self.inner.into_inner()
    }

    /// The classes of `action` in the current position (the classifier on the wrapped state).
    pub fn classes(&self, action: u32) -> u64 {
        self.inner.borrow_mut().classes(action, &self.table)
    }

    /// True when the filter applies here: a barred player is to move.
    fn filtering(&self) -> bool {
        self.mask != 0 && self.inner.borrow().current_player() == self.player
    }

    /// `acts` without the barred actions, in the same order; `acts` unchanged when all are barred.
    /// Returns whether any action was allowed (false: the move is forced).
    fn keep_allowed(&self, acts: &mut Vec<u32>) -> bool {
        let mut st = self.inner.borrow_mut();
        let allowed: Vec<u32> = acts.iter().copied().filter(|&a| st.classes(a, &self.table) & self.mask == 0).collect();
        if allowed.is_empty() {
            return false;
        }
        *acts = allowed;
        true
    }

    fn wrap(&self, inner: G) -> Self {
        Barred { inner: RefCell::new(inner), table: Arc::clone(&self.table), player: self.player, mask: self.mask }
    }
}

impl<G: Classes> Game for Barred<G> {
    fn current_player(&self) -> i32 {
        self.inner.borrow().current_player()
    }
    fn is_terminal(&self) -> bool {
        self.inner.borrow().is_terminal()
    }
    fn num_players(&self) -> usize {
        self.inner.borrow().num_players()
    }
    fn team_of(&self, player: usize) -> usize {
        self.inner.borrow().team_of(player)
    }
    fn legal_actions(&self, out: &mut Vec<u32>) {
        self.inner.borrow().legal_actions(out);
        if !out.is_empty() && self.filtering() {
            self.keep_allowed(out);
        }
    }
    fn legal_listed(&self, out: &mut Vec<u32>) -> usize {
        if self.filtering() {
            self.legal_actions(out);
            return out.len();
        }
        self.inner.borrow().legal_listed(out)
    }
    fn random_action(&self, rng: &mut PyRandom, buf: &mut Vec<u32>) -> u32 {
        if self.filtering() {
            self.legal_actions(buf);
            return *rng.choice(buf).expect("random: no action to choose");
        }
        self.inner.borrow().random_action(rng, buf)
    }
    fn is_legal(&self, action: u32) -> bool {
        self.inner.borrow().is_legal(action)
    }
    fn chance_outcomes(&self, out: &mut Vec<(u32, f64)>) {
        self.inner.borrow().chance_outcomes(out)
    }
    fn apply(&mut self, action: u32) {
        self.inner.get_mut().apply(action)
    }
    fn undo(&mut self) {
        self.inner.get_mut().undo()
    }
    fn returns(&self, player: usize) -> f64 {
        self.inner.borrow().returns(player)
    }
    fn evaluate(&self, player: usize) -> f64 {
        self.inner.borrow().evaluate(player)
    }
    fn action_priority(&self, action: u32) -> i64 {
        self.inner.borrow().action_priority(action)
    }
    fn move_number(&self) -> usize {
        self.inner.borrow().move_number()
    }
    fn chance_key(&self, outcome: u32) -> u128 {
        self.inner.borrow().chance_key(outcome)
    }
    fn chance_classes(&self, out: &mut Vec<(u32, f64)>) {
        self.inner.borrow().chance_classes(out)
    }
    fn feature_count(&self) -> usize {
        self.inner.borrow().feature_count()
    }
    fn set_eval_weights(&mut self, weights: Option<Arc<[f64]>>) -> Option<Arc<[f64]>> {
        self.inner.get_mut().set_eval_weights(weights)
    }
    fn perfect_information(&self) -> bool {
        self.inner.borrow().perfect_information()
    }
    fn view(&self, seed: u64) -> Self {
        let v = self.inner.borrow().view(seed);
        self.wrap(v)
    }
    fn fork(&self) -> Self {
        let f = self.inner.borrow().fork();
        self.wrap(f)
    }
}

/// What one seat did in a game (`Restricted.tally`): decisions, forced moves, actions of each class.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    pub decisions: u64,
    pub forced: u64,
    pub classes: Vec<u64>,
}

/// `protocol::play` with restricted seats: seat `i` is barred from the classes of `masks[i]` (0: none).
/// `n_legal` gets the real (unfiltered) legal count of every decision, as the Python loop records it;
/// returns how the game ended and one [`Tally`] per seat over `n_classes` classes.
pub fn play_barred<G: Classes>(
    state: &mut Barred<G>,
    agents: &mut [Box<dyn Agent<Barred<G>>>],
    masks: &[u64],
    n_classes: usize,
    mut chance: impl FnMut() -> f64,
    max_plies: usize,
    n_legal: &mut Vec<usize>,
) -> (End, Vec<Tally>) {
    let mut tallies = vec![Tally { classes: vec![0; n_classes], ..Tally::default() }; agents.len()];
    let mut legal = Vec::new();
    let mut all = Vec::new();
    let mut outs = Vec::new();
    let check = !state.perfect_information();
    loop {
        if state.is_terminal() || state.move_number() >= max_plies {
            return (End::Done, tallies);
        }
        if crate::core::interrupt::poll() {
            return (End::Stopped, tallies);
        }
        let player = state.current_player();
        let action = if player == CHANCE {
            state.chance_outcomes(&mut outs);
            sample_outcome(&outs, chance())
        } else {
            let seat = player as usize;
            state.player = player;
            state.mask = 0;
            let n = state.legal_listed(&mut all);
            n_legal.push(n);
            state.mask = masks[seat];
            let tally = &mut tallies[seat];
            if state.mask != 0 {
                let mut acts = all.clone();
                if acts.is_empty() && n > 0 {
                    state.inner.borrow().legal_actions(&mut acts); // a lazy list, listed to classify
                }
                if !acts.is_empty() && !state.keep_allowed(&mut acts) {
                    tally.forced += 1;
                }
                state.legal_listed(&mut legal);
            } else {
                legal.clone_from(&all);
            }
            let action = agents[seat].select_among(state, &legal);
            state.mask = 0;
            if check && !(if all.is_empty() { state.is_legal(action) } else { all.contains(&action) }) {
                return (End::Illegal { action, n_legal: n }, tallies);
            }
            tally.decisions += 1;
            let bits = state.classes(action);
            for (i, c) in tally.classes.iter_mut().enumerate() {
                if bits >> i & 1 == 1 {
                    *c += 1;
                }
            }
            action
        };
        state.apply(action);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::generic;
    use crate::core::protocol::TERMINAL;

    /// Six plies, two seats alternating, actions 0 and 1 each of its own class (bit 0, bit 1).
    #[derive(Clone, Default)]
    struct Toy {
        played: Vec<u32>,
    }

    impl Game for Toy {
        fn current_player(&self) -> i32 {
            if self.is_terminal() {
                TERMINAL
            } else {
                (self.played.len() % 2) as i32
            }
        }
        fn is_terminal(&self) -> bool {
            self.played.len() >= 6
        }
        fn num_players(&self) -> usize {
            2
        }
        fn legal_actions(&self, out: &mut Vec<u32>) {
            out.clear();
            if !self.is_terminal() {
                out.extend([0, 1]);
            }
        }
        fn chance_outcomes(&self, out: &mut Vec<(u32, f64)>) {
            out.clear();
        }
        fn apply(&mut self, action: u32) {
            self.played.push(action);
        }
        fn undo(&mut self) {
            self.played.pop();
        }
        fn returns(&self, _player: usize) -> f64 {
            0.0
        }
        fn evaluate(&self, _player: usize) -> f64 {
            0.0
        }
        fn action_priority(&self, _action: u32) -> i64 {
            0
        }
        fn move_number(&self) -> usize {
            self.played.len()
        }
        fn fork(&self) -> Self {
            self.clone()
        }
    }

    impl Classes for Toy {
        type Table = ();
        fn classes(&mut self, action: u32, _table: &()) -> u64 {
            1 << action
        }
    }

    fn run(masks: [u64; 2]) -> (Vec<u32>, Vec<Tally>) {
        let mut agents: Vec<Box<dyn Agent<Barred<Toy>>>> = (0..2)
            .map(|i| generic::make::<Barred<Toy>>("random", PyRandom::new(i), &generic::Params::default()).unwrap())
            .collect();
        let mut st = Barred::new(Toy::default(), Arc::new(()));
        let mut n_legal = Vec::new();
        let (end, t) = play_barred(&mut st, &mut agents, &masks, 2, || 0.0, 100, &mut n_legal);
        assert_eq!(end, End::Done);
        assert_eq!(n_legal, vec![2; 6], "the real legal count, not the barred one");
        (st.into_inner().played, t)
    }

    #[test]
    fn a_barred_class_is_never_played_and_the_other_seat_is_free() {
        let (played, t) = run([1, 0]);
        assert!(played.iter().step_by(2).all(|&a| a == 1), "seat 0 barred from class 0: {played:?}");
        assert_eq!((t[0].decisions, t[0].forced, t[0].classes.clone()), (3, 0, vec![0, 3]));
        assert_eq!(t[1].decisions, 3);
        assert_eq!(t[1].classes.iter().sum::<u64>(), 3);
    }

    #[test]
    fn when_every_action_is_barred_one_is_played_anyway_and_counted_forced() {
        let (played, t) = run([0b11, 0]);
        assert_eq!(played.len(), 6);
        assert_eq!((t[0].decisions, t[0].forced), (3, 3));
        assert_eq!(t[1].forced, 0);
    }
}
