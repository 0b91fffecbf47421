//! Core checks that need no Python: the contract's deck vectors, camp actions, rounding, play.

use super::geo::{self, camp_at, camp_count, camp_is_valid, decode_camp, SplitMix64};
use super::play::{play, random_playout};
use super::rules::Rules;
use super::state::{round6, State};
use std::sync::Arc;

use crate::core::generic::{self, Params};
use crate::core::protocol::Game;
use crate::core::pyrandom::PyRandom;

fn letters(d: &[u8]) -> String {
    d.iter().map(|&c| b"prfhm"[c as usize - 1] as char).collect()
}

#[test]
fn splitmix_and_deck_vectors() {
    assert_eq!(SplitMix64(0).next_u64(), 0xe220_a839_7b1d_cdaf);
    let r = Rules::default();
    let cases = [
        (0u64, "rrphfrfpfprmpppfpmppphppmmrfhfhr", "pmrffpphhrfhprpffmhrfppmrmrppppp"),
        (1, "hrprhmffprhfmpppffhprppmprmprpfp", "frfpfmpmpppfprrppprfhphhrpfpmmrh"),
        (42, "pfppprpfphrprphprhpmmhmrpfrpffmf", "prpfrppprrpphhhrmphpprfpfffpmmfm"),
    ];
    for (seed, a, b) in cases {
        let [p1, p2] = geo::deal(&r.deck, seed);
        assert_eq!(letters(&p1), a);
        assert_eq!(letters(&p2), b);
    }
}

#[test]
fn camp_actions_are_a_dense_valid_list() {
    assert_eq!(camp_count(1), 483_840);
    let mut prev = 0;
    for i in (0..camp_count(1)).step_by(997) {
        let a = camp_at(1, i);
        assert!(camp_is_valid(a, 1));
        assert!(a > prev);
        prev = a;
        let (castle, flags, units) = decode_camp(a, 1);
        assert_eq!(geo::camp_action(castle, flags, units, 1), a);
    }
    assert_eq!(camp_count(0), 15_120);
}

#[test]
fn round6_is_half_even_on_the_exact_value() {
    assert_eq!(round6(0.0078125), 0.007812);
    assert_eq!(round6(1.2345675), 1.234568); // 1.2345675 is just above the tie in binary, as Python rounds it
    assert_eq!(round6(-2.5000004), -2.5);
}

#[test]
fn classic_start_has_the_contract_actions() {
    let st = State::classic(Rules::default(), 0);
    let mut acts = Vec::new();
    st.legal_actions(&mut acts);
    // end, 4 productions, 9 tiles next to p1's camp (row 2), the swordsman's moves along row 1
    assert!(acts.contains(&geo::END));
    assert_eq!(acts.iter().filter(|&&a| (geo::TILE..geo::MOVE).contains(&a)).count(), 18);
    let keys: Vec<i64> = acts.iter().map(|&a| geo::sort_key(a)).collect();
    assert!(keys.windows(2).all(|w| w[0] < w[1]));
}

#[test]
fn games_end_and_undo_restores() {
    let r = Rules { turn_limit: 40, ..Rules::default() };
    for seed in 0..20u64 {
        let mut st = State::classic(r.clone(), seed);
        let mut rng = PyRandom::new(seed as i128);
        let n = random_playout(&mut st, &mut rng, 5000);
        assert!(st.is_terminal(), "seed {seed}: {n} actions");
        let mut back = 0;
        while st.undo() {
            back += 1;
        }
        assert_eq!(back, n);
        assert_eq!(st.c.moves, 0);
    }
}

#[test]
fn agents_play_whole_games() {
    let r = Rules { turn_limit: 12, setup_phase: true, starting_units: 0, ..Rules::default() };
    for name in ["random", "greedy", "alphabeta", "mcts", "plan"] {
        let p = Params {
            depth: Some(1),
            iterations: Some(20),
            rollout: Some(5),
            beam: Some(2),
            reply: Some(1),
            ..Params::default()
        };
        let mut agents = [
            generic::make::<State>(name, PyRandom::new(1), &p).unwrap(),
            generic::make::<State>(name, PyRandom::new(2), &p).unwrap(),
        ];
        let mut st = State::classic(r.clone(), 3);
        let tr = play(&mut st, &mut agents, 10_000, true);
        assert!(st.is_terminal(), "{name}");
        assert_eq!(tr.actions.len(), tr.fired_end.len());
    }
}

#[test]
#[ignore = "timing, run with --release --ignored --nocapture"]
fn timing_of_the_hot_paths() {
    let r = Rules { turn_limit: 60, ..Rules::default() };
    let mut st = State::classic(r, 5);
    let mut rng = PyRandom::new(5);
    random_playout(&mut st, &mut rng, 120);
    let n = 200_000;
    let t = std::time::Instant::now();
    let mut s = 0.0;
    for _ in 0..n {
        s += st.evaluate(0);
    }
    eprintln!("evaluate {:?}/call ({s})", t.elapsed() / n);
    let mut acts = Vec::new();
    let t = std::time::Instant::now();
    for _ in 0..n / 10 {
        st.legal_actions(&mut acts);
    }
    eprintln!("legal_actions {:?}/call ({} actions)", t.elapsed() / (n / 10), acts.len());
    let t = std::time::Instant::now();
    for i in 0..n {
        let a = acts[i as usize % acts.len()];
        st.apply(a);
        st.undo();
    }
    eprintln!("apply+undo {:?}/pair", t.elapsed() / n);
    let t = std::time::Instant::now();
    for _ in 0..n {
        s += round6(s * 1e-9 + 0.123);
    }
    eprintln!("round6 {:?}/call", t.elapsed() / n);
}

#[test]
fn lazy_camps_are_counted_and_drawn_as_the_list() {
    let r = Rules { setup_phase: true, starting_units: 1, ..Rules::default() };
    let st = State::classic(r, 4);
    assert!(st.c.setup);
    let mut listed = Vec::new();
    assert_eq!(Game::legal_listed(&st, &mut listed), camp_count(1));
    assert!(listed.is_empty(), "the camps are counted, not listed");
    let mut all = Vec::new();
    st.legal_actions(&mut all);
    let (mut lazy, mut eager) = (PyRandom::new(9), PyRandom::new(9));
    let mut buf = Vec::new();
    for _ in 0..50 {
        let a = Game::random_action(&st, &mut lazy, &mut buf);
        assert_eq!(a, *eager.choice(&all).unwrap());
        assert!(Game::is_legal(&st, a));
    }
}

#[test]
fn a_pick_on_a_view_is_legal_in_the_real_game() {
    // C5, C46: under a hidden top the view allows exactly the offered placements (`match_offered_tiles`),
    // so no agent's pick is ever illegal in the real state (it once ended games as error rows).
    let p = Params { depth: Some(1), ..Params::default() };
    for seed in 0..40u64 {
        for hidden in [true, false] {
            let r = Rules { turn_limit: 6, deck_top_visible: !hidden, ..Rules::default() };
            let start = State::classic(r, seed);
            let mut st = start.clone();
            let name = if seed % 2 == 0 { "greedy" } else { "alphabeta" };
            let mut agents = [
                generic::make::<State>(name, PyRandom::new(seed as i128), &p).unwrap(),
                generic::make::<State>(name, PyRandom::new(seed as i128 + 1), &p).unwrap(),
            ];
            let tr = play(&mut st, &mut agents, 10_000, false);
            let mut replay = start.clone();
            for &a in &tr.actions {
                assert!(replay.is_legal(a));
                replay.apply(a);
            }
            assert_eq!(replay.c.moves, st.c.moves);
            assert_eq!(tr.illegal, None, "seed {seed}, hidden {hidden}: a pick outside the offered list");
            assert!(st.is_terminal());
            assert_eq!(tr.n_legal.len(), tr.actions.len());
        }
    }
}

#[test]
fn the_features_under_the_hand_weights_are_the_evaluation() {
    // `insight.feature_weights`: every unit kind 1, then castle HP 3, unit HP 0.5, attack 0.25, deck 0.02,
    // depth 0.5, advance 0.25, siege 2, castle threat 1, unit threats 0.3, AP 0.2, hanging -0.5
    let hand: Arc<[f64]> =
        Arc::from(vec![1.0, 1.0, 1.0, 1.0, 3.0, 0.5, 0.25, 0.02, 0.5, 0.25, 2.0, 1.0, 0.3, 0.2, -0.5]);
    let mut st = State::classic(Rules { turn_limit: 30, ..Rules::default() }, 4);
    let mut rng = PyRandom::new(4);
    let mut buf = Vec::new();
    let mut checked = 0;
    while !st.is_terminal() {
        for side in 0..2 {
            let own = Game::evaluate(&st, side);
            st.set_eval_weights(Some(hand.clone()));
            assert!((Game::evaluate(&st, side) - own).abs() < 1e-5, "side {side}");
            assert_eq!(Game::evaluate(&st.view(9), side), Game::evaluate(&st, side), "a view keeps the weights");
            st.set_eval_weights(None);
            checked += 1;
        }
        st.legal_actions(&mut buf);
        st.apply(*rng.choice(&buf).unwrap());
    }
    assert_eq!(st.features(0), [0.0; super::state::N_FEATURES]);
    assert!(checked > 50);
}
