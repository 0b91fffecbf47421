//! Random playouts from the classic start inside Rust: `cargo run --release --example playouts [games]`.
//! The engine's raw speed without Python around it (the bench command measures the whole path).

use std::sync::Arc;
use std::time::Instant;

use _native::terrafeud::agents::make_agent;
use _native::terrafeud::board::Board;
use _native::terrafeud::play::play_game;
use _native::terrafeud::rules::Rules;
use _native::terrafeud::state::{classic_setup, State};

fn main() {
    let games: u32 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(200);
    let h = |n: &str| _native::terrafeud::geometry::parse_hex(n);
    let rules = Arc::new(Rules::default());
    let board = Arc::new(Board::classic(false, [h("h4"), h("b6")], [h("c3"), h("e7")], &rules));
    let setup = classic_setup();
    let t0 = Instant::now();
    let mut plies = 0u64;
    for g in 0..games {
        let mut st = State::new(Arc::clone(&board), Arc::clone(&rules), &setup);
        let mut agents = [
            make_agent("random", &vec![], &[g]).expect("random agent"),
            make_agent("random", &vec![], &[g + 1_000_000]).expect("random agent"),
        ];
        let tr = play_game(&mut st, &mut agents, 300, false);
        plies += tr.actions.len() as u64;
    }
    let dt = t0.elapsed().as_secs_f64();
    println!("{games} games, {plies} plies, {:.0} plies/s", plies as f64 / dt);
}
