//! Timing and strength aid: Cursed Lands games of two native agents over the 16 faction pairs, each
//! pair played with both seatings. `cargo run --release --example cl_games -- greedy alphabeta:depth=2 2 100`

use std::time::Instant;

use _native::core::generic::{self, Agent, Params};
use _native::core::pyrandom::PyRandom;
use _native::cursed_lands::rules::Rules;
use _native::cursed_lands::state::State;

fn agent(spec: &str, seed: i128) -> Box<dyn Agent<State>> {
    let mut parts = spec.split(':');
    let name = parts.next().unwrap_or("greedy");
    let mut p = Params::default();
    for kv in parts.next().unwrap_or("").split(',').filter(|s| !s.is_empty()) {
        let (k, v) = kv.split_once('=').expect("key=value");
        match k {
            "depth" => p.depth = v.parse().ok(),
            "nodes" => p.nodes = v.parse().ok(),
            "seconds" => p.seconds = v.parse().ok(),
            "iterations" => p.iterations = v.parse().ok(),
            "beam" => p.beam = v.parse().ok(),
            "steps" => p.steps = v.parse().ok(),
            "reply" => p.reply = v.parse().ok(),
            _ => panic!("unknown parameter {k}"),
        }
    }
    generic::make::<State>(name, PyRandom::new(seed), &p).expect("an agent")
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let a = args.get(1).cloned().unwrap_or("greedy".into());
    let b = args.get(2).cloned().unwrap_or("greedy".into());
    let games: u64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(1);
    let limit: i32 = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(100);
    let t0 = Instant::now();
    let (mut wa, mut wb, mut draws, mut turns, mut castle, mut plies) = (0, 0, 0, 0i64, 0, 0u64);
    let mut hash = 0xcbf2_9ce4_8422_2325u64; // FNV-1a over every action played: two builds compared
    let mut by_faction = [[0i32; 2]; 4]; // wins, games per faction of side A
    for f1 in 0..4 {
        for f2 in 0..4 {
            for g in 0..games {
                for swap in [false, true] {
                    let mut rules = Rules { turn_limit: limit, ..Rules::default() };
                    rules.factions = [f1, f2];
                    let seed = (f1 * 4 + f2) as u64 * 1000 + g;
                    let mut st = State::classic(rules, seed);
                    let (sa, sb) = (seed as i128 * 2, seed as i128 * 2 + 1);
                    let mut agents = if swap { [agent(&b, sb), agent(&a, sa)] } else { [agent(&a, sa), agent(&b, sb)] };
                    while !st.is_terminal() {
                        let p = st.c.to_move as usize;
                        let act = agents[p].select_action(&mut st);
                        st.apply(act);
                        plies += 1;
                        hash = (hash ^ u64::from(act)).wrapping_mul(0x0100_0000_01b3);
                    }
                    let a_seat = usize::from(swap);
                    let fa = if swap { f2 } else { f1 };
                    by_faction[fa][1] += 1;
                    turns += st.c.turn;
                    match st.winner() {
                        None => draws += 1,
                        Some(w) if w == a_seat => {
                            wa += 1;
                            by_faction[fa][0] += 1;
                        }
                        Some(_) => wb += 1,
                    }
                    if st.c.victory == 1 {
                        castle += 1;
                    }
                }
            }
        }
    }
    let n = wa + wb + draws;
    let dt = t0.elapsed().as_secs_f64();
    println!(
        "{a} vs {b}: {n} games: A {wa} B {wb} draw {draws} (castle wins {castle}); mean turns {:.1}; {plies} plies (actions {hash:016x}); {dt:.1} s",
        turns as f64 / n as f64
    );
    let names = ["humans", "elves", "orcs", "dwarves"];
    for (f, x) in by_faction.iter().enumerate() {
        print!("{} {}/{}  ", names[f], x[0], x[1]);
    }
    println!();
}
