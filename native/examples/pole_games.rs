//! Timing and profiling aid: whole Pole games of a native generic agent against itself.
//! `cargo run --release --example pole_games -- alphabeta 20`

use std::sync::Arc;
use std::time::Instant;

use _native::core::generic::{make, Params};
use _native::core::pyrandom::PyRandom;
use _native::pole::{play_game, State, Tables};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let agent = args.get(1).map(String::as_str).unwrap_or("alphabeta");
    let games: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(10);
    let tables = Arc::new(Tables::new(Default::default()).expect("default rules"));
    let t0 = Instant::now();
    let mut plies = 0;
    for g in 0..games {
        let mut agents = vec![
            make::<State>(agent, PyRandom::new(2 * g as i128), &Params::default()).expect("an agent"),
            make::<State>(agent, PyRandom::new(2 * g as i128 + 1), &Params::default()).expect("an agent"),
        ];
        let mut st = State::classic(Arc::clone(&tables), 4);
        let mut chance = PyRandom::new(g as i128);
        play_game(&mut st, &mut agents, &mut chance, 1_000_000, false);
        plies += st.history.len();
    }
    let dt = t0.elapsed().as_secs_f64();
    println!("{agent}: {games} games, {plies} plies in {dt:.2} s ({:.3} s a game)", dt / games as f64);
}
