//! Big chess's random playouts inside Rust: `cargo run --release --example bc_playouts [games] [board]`.
//! The core's raw speed without Python around it (the bench command measures the whole path), from the
//! deployed start, on the same card and board files as the Python engine.

use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use _native::big_chess::cards::{board_file, load_dir};
use _native::big_chess::context::{Context, Rules, Start};
use _native::big_chess::play::random_playout;
use _native::big_chess::state::State;
use _native::core::pyrandom::PyRandom;

fn main() {
    let games: i128 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(200);
    let board = std::env::args().nth(2).unwrap_or_else(|| "classic-2".into());
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("../workbench/games/big_chess/data");
    let cards = load_dir(&data.join("cards")).expect("cards");
    let (rows, facing, teams) =
        board_file(&std::fs::read_to_string(data.join(format!("boards/{board}.json"))).expect("board")).expect("board");
    let rules = Rules { start: Start::Deployed, ..Rules::default() };
    let ctx = Arc::new(Context::new(rules, cards, None, None, &rows, &facing, &teams).expect("context"));
    let start = State::new_game(ctx).expect("start");
    let t0 = Instant::now();
    let mut actions = 0u64;
    for g in 0..games {
        let mut st = start.clone();
        actions += random_playout(&mut st, &mut PyRandom::new(g), 100_000);
    }
    let dt = t0.elapsed().as_secs_f64();
    println!("{games} games, {actions} actions in {dt:.2} s: {:.0} actions/s", actions as f64 / dt);
}
