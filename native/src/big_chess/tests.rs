//! Core checks that need no Python: the card files read, the geometry's formulas, whole random games
//! with undo restoring every position, the deployed and army starts.

use std::sync::Arc;

use super::cards::{board_file, load_dir, over_cells, parse_cards, parse_json, quantize, rot, Card};
use super::context::{Context, Rules, Start};
use super::play::random_playout;
use super::state::State;
use crate::core::generic::{self, Params};
use crate::core::protocol::Game;
use crate::core::pyrandom::PyRandom;

fn data(rel: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../workbench/games/big_chess/data").join(rel)
}

/// The starter set, read from the same card files as the Python engine.
pub fn starter() -> Vec<Card> {
    load_dir(&data("cards")).expect("the starter set")
}

fn board(name: &str) -> (Vec<String>, Vec<(u8, u8)>, String) {
    board_file(&std::fs::read_to_string(data(&format!("boards/{name}.json"))).expect("board")).expect("a board")
}

fn ctx(name: &str, teams: Option<&str>, rules: Rules) -> Arc<Context> {
    let (rows, facing, t) = board(name);
    Arc::new(Context::new(rules, starter(), None, None, &rows, &facing, teams.unwrap_or(&t)).expect("context"))
}

#[test]
fn geometry_formulas() {
    assert_eq!(rot(0, -1, 2), (1, 0));
    assert_eq!(rot(1, -2, 1), (2, -1));
    assert_eq!(rot(0, -1, 4), (0, 1));
    assert_eq!(quantize(2, -1), 1);
    assert_eq!(quantize(1, -1), 1);
    assert_eq!(over_cells(1, 2), vec![(0, 1), (1, 1)]);
    assert!(over_cells(1, 1).is_empty());
}

#[test]
fn starter_cards_read() {
    let cards = starter();
    assert_eq!(cards.len(), 26);
    assert_eq!(cards.iter().filter(|c| c.king).count(), 1);
    assert!(cards.iter().any(|c| c.pawn && c.entries.iter().any(|e| e.shadow)));
    assert!(parse_cards(&parse_json(r#"{"key": "x", "id": 1}"#).expect("json")).is_err());
}

#[test]
fn army_start_is_the_classic_position() {
    let r = Rules { start: Start::Army, ..Rules::default() };
    let st = State::new_game(ctx("classic-2", None, r)).expect("army");
    assert!(!st.c.setup);
    assert_eq!(st.c.pieces.iter().flatten().count(), 26);
    let mut acts = Vec::new();
    st.legal_actions(&mut acts);
    assert!(!acts.is_empty());
}

#[test]
fn random_games_undo_exactly() {
    for (name, teams, start) in [
        ("classic-2", None, Start::Deployed),
        ("classic-4", Some("ab,cd"), Start::Deployed),
        ("free-8", None, Start::Setup),
    ] {
        let r = Rules { start, max_turns: 60, ..Rules::default() };
        let st0 = State::new_game(ctx(name, teams, r)).expect("start");
        let mut st = st0.clone();
        let mut rng = PyRandom::new(7);
        let mut before = Vec::new();
        for _ in 0..300 {
            if st.is_terminal() {
                break;
            }
            before.push(format!("{:?}", st.c));
            let l = st.all_legal();
            let d = rng.choice(&l).expect("an action").d;
            st.apply_desc(d);
        }
        while let Some(b) = before.pop() {
            assert!(st.undo_last());
            assert_eq!(format!("{:?}", st.c), b);
        }
        let mut st2 = st0.clone();
        assert!(random_playout(&mut st2, &mut PyRandom::new(3), 2000) > 0);
    }
}

#[test]
fn greedy_and_alphabeta_play_deployed_games() {
    let r = Rules { start: Start::Deployed, max_turns: 40, ..Rules::default() };
    let c = ctx("classic-2", None, r);
    let p = Params { depth: Some(1), ..Params::default() };
    let mut agents = vec![
        generic::make::<State>("greedy", PyRandom::new(1), &p).expect("greedy"),
        generic::make::<State>("alphabeta", PyRandom::new(2), &p).expect("alphabeta"),
    ];
    let mut st = State::new_game(c).expect("start");
    let tr = super::play::play(&mut st, &mut agents, 200, true);
    assert!(!tr.actions.is_empty());
    assert_eq!(tr.actions.len(), tr.fired_end.len());
}

#[test]
fn the_features_under_the_hand_weights_are_the_evaluation() {
    // two teams of one, the play phase: a card's cost / 10, upgrades 1, treasury and trophies 0.9 sum to `eval`
    // (the Kings' 1000 cancel while both stand)
    let r = Rules { start: Start::Deployed, max_turns: 40, ..Rules::default() };
    let mut st = State::new_game(ctx("classic-2", None, r)).expect("start");
    let mut hand: Vec<f64> =
        (0..st.ctx.cards.len()).filter(|&k| !st.ctx.cards[k].king).map(|k| st.ctx.cost[k] as f64 / 10.0).collect();
    hand.extend([1.0, 0.9, 0.9]);
    let hand: Arc<[f64]> = Arc::from(hand);
    let mut rng = PyRandom::new(5);
    let mut checked = 0;
    for _ in 0..150 {
        if st.is_terminal() {
            break;
        }
        for side in 0..2 {
            let own = st.eval(side);
            st.set_eval_weights(Some(hand.clone()));
            assert!((Game::evaluate(&st, side) - own).abs() < 1e-9, "side {side}");
            assert_eq!(Game::evaluate(&st.fork(), side), Game::evaluate(&st, side), "a fork keeps the weights");
            st.set_eval_weights(None);
            checked += 1;
        }
        let l = st.all_legal();
        let d = rng.choice(&l).expect("an action").d;
        st.apply_desc(d);
    }
    assert!(checked > 50);
}
