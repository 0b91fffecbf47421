//! Rust-side checks of the Pole core (the equality with the Python engine is proven from Python,
//! `python -m workbench.games.pole.nativediff`); these pin the contract's own figures.

use std::sync::Arc;

use super::state::{State, ATT0, MOVE0, NOBUY, PASS};
use super::tables::{successes, Rules, Tables};
use crate::core::generic::{make, Params};
use crate::core::protocol::{Game, CHANCE};
use crate::core::pyrandom::PyRandom;

fn classic(rules: Rules) -> State {
    State::classic(Arc::new(Tables::new(rules).expect("valid rules")), 4)
}

#[test]
fn the_success_table_of_section_8() {
    let n: Vec<i64> = (-6..=5).map(|k| successes(2 * k)).collect();
    assert_eq!(n, vec![36, 35, 33, 30, 26, 21, 15, 10, 6, 3, 1, 0]);
}

#[test]
fn the_classic_start_buys_b_or_s_on_fifteen_cells() {
    let s = classic(Rules::default());
    assert_eq!(s.pos.coins, [5, 4]);
    assert_eq!(s.pos.board[41], 8); // red Prince on e2
    assert_eq!(s.pos.board[48], 16); // black Prince on e9
    let mut v = Vec::new();
    s.legal(&mut v);
    assert_eq!(v.len(), 31);
    assert_eq!(*v.last().unwrap(), NOBUY);
    assert!(v.windows(2).all(|w| w[0] < w[1]), "canonical order is ascending");
}

#[test]
fn a_turn_buys_then_acts_and_undo_restores_everything() {
    let mut s = classic(Rules::default());
    let before = s.pos;
    s.apply_action(31); // B@d2
    assert_eq!(s.pos.phase, super::state::ACT_PHASE);
    let mut v = Vec::new();
    s.legal(&mut v);
    assert_eq!(v[0], PASS);
    assert!(v.iter().all(|&a| (MOVE0..ATT0).contains(&a) || a == PASS), "no target in range yet");
    s.apply_action(PASS);
    assert_eq!((s.pos.to_move, s.pos.turn, s.pos.coins), (1, 2, [2, 5]));
    s.undo_action();
    s.undo_action();
    assert_eq!(s.pos, before);
}

#[test]
fn random_games_end_and_every_agent_plays_legally() {
    let rules = Rules { max_turns: 60, ..Rules::default() };
    for (i, name) in ["random", "greedy", "alphabeta", "mcts", "search"].iter().enumerate() {
        let p = Params { depth: Some(1), nodes: Some(2000), iterations: Some(30), ..Params::default() };
        let mut agents = vec![
            make::<State>(name, PyRandom::new(i as i128), &p).unwrap(),
            make::<State>("random", PyRandom::new(99), &p).unwrap(),
        ];
        let mut st = classic(rules.clone());
        let mut chance = PyRandom::new(7);
        let (_, n) = super::play_game(&mut st, &mut agents, &mut chance, 100_000, false);
        assert!(st.is_terminal(), "{name}: the cap ends the game");
        assert!(!n.is_empty());
        assert_ne!(st.current_player(), CHANCE);
    }
}

#[test]
fn the_turtle_buys_its_barracks_nearest_the_enemy_prince_and_keeps_its_prince_home() {
    use super::turtle::Turtle;
    let mut s = classic(Rules::default());
    let mut t = Turtle::new(PyRandom::new(0));
    assert_eq!(crate::core::generic::Agent::select_action(&mut t, &mut s), 33); // B@d4: 5 from e9, first in board order
    let rules = Rules { max_turns: 120, ..Rules::default() };
    let mut agents: Vec<Box<dyn crate::core::generic::Agent<State>>> =
        vec![Box::new(Turtle::new(PyRandom::new(1))), Box::new(Turtle::new(PyRandom::new(2)))];
    let mut st = classic(rules);
    let mut chance = PyRandom::new(4);
    super::play_game(&mut st, &mut agents, &mut chance, 100_000, false);
    assert!(st.is_terminal());
    assert!(st.prince_of(0).is_none_or(|c| c == 41) && st.prince_of(1).is_none_or(|c| c == 48));
}
