//! The turtle player of the contract's section 15 (`workbench/games/pole/turtle.py`, its
//! specification): the same choices in the same order, ties drawn from the same CPython stream.

use super::state::{bits, code, State, ALL0, ATT0, BUY_PHASE, MOVE0, NOBUY, PASS};
use super::tables::{A, B, C, H, I, P, S, T};
use crate::core::generic::Agent;
use crate::core::pyrandom::PyRandom;

/// Odds of at least 1/3: 12 of the 36 dice outcomes.
const THIRD_36: i64 = 12;

/// Chebyshev distance between two cells (`x * 10 + y`).
pub fn distance(a: usize, b: usize) -> i64 {
    let (ax, ay, bx, by) = ((a / 10) as i64, (a % 10) as i64, (b / 10) as i64, (b % 10) as i64);
    (ax - bx).abs().max((ay - by).abs())
}

/// `TurtleAgent`.
pub struct Turtle {
    pub rng: PyRandom,
    buf: Vec<u32>,
}

impl Turtle {
    pub fn new(rng: PyRandom) -> Self {
        Turtle { rng, buf: Vec::new() }
    }

    /// `_nearest`: the cell nearest `target`, the first in board order on a tie.
    fn nearest(cells: &[usize], target: usize) -> usize {
        let mut best = cells[0];
        for &c in &cells[1..] {
            if distance(c, target) < distance(best, target) {
                best = c;
            }
        }
        best
    }

    fn buy(&mut self, s: &State, legal: &[u32], target: usize) -> u32 {
        let side = s.pos.to_move as usize;
        let mut by_kind: [Vec<usize>; 7] = Default::default();
        for &act in legal {
            if act < NOBUY {
                by_kind[(act / 100) as usize].push((act % 100) as usize);
            }
        }
        for kind in [B, S] {
            if !s.board().contains(&code(kind, side)) {
                if !by_kind[kind].is_empty() {
                    return kind as u32 * 100 + Self::nearest(&by_kind[kind], target) as u32;
                }
                if s.pos.coins[side] < s.tables.rules.cost[kind] {
                    return NOBUY;
                }
            }
        }
        // min over (distance, action) of the tower and catapult purchases
        let mut siege: Option<(i64, u32)> = None;
        for kind in [T, C] {
            for &c in &by_kind[kind] {
                let key = (distance(c, target), kind as u32 * 100 + c as u32);
                if siege.is_none_or(|best| key < best) {
                    siege = Some(key);
                }
            }
        }
        if let Some((_, act)) = siege {
            return act;
        }
        let units: Vec<usize> = [I, A, H].into_iter().filter(|&k| !by_kind[k].is_empty()).collect();
        if let Some(&kind) = self.rng.choice(&units) {
            return kind as u32 * 100 + Self::nearest(&by_kind[kind], target) as u32;
        }
        NOBUY
    }

    /// `_best`: the top-scored action, ties by `rng.choice` in the legal order.
    fn best(&mut self, scored: &[((i64, i64), u32)]) -> u32 {
        let top = scored.iter().map(|x| x.0).max().expect("scored actions");
        let ties: Vec<u32> = scored.iter().filter(|x| x.0 == top).map(|x| x.1).collect();
        *self.rng.choice(&ties).expect("a best action")
    }

    fn act(&mut self, s: &State, legal: &[u32], target: usize) -> u32 {
        let board = s.board();
        let t = &*s.tables;
        let cost = &t.rules.cost;
        let kind_of = |c: usize| ((board[c] - 1) & 7) as usize;
        let mut shots: Vec<((i64, i64), u32)> = Vec::new();
        let mut attacks: Vec<((i64, i64), u32)> = Vec::new();
        let mut moves: Vec<((i64, i64), u32)> = Vec::new();
        for &act in legal {
            if act >= ALL0 {
                let a = (act - ALL0) as usize;
                let zone = s.zone_targets(a);
                if zone >> target & 1 == 1 {
                    shots.push(((s.success_count(a, target), 0), act));
                } else {
                    let akind = kind_of(a);
                    let mut n = 0;
                    for o in 0..36i64 {
                        let diff2 = 2 * (o / 6 - o % 6);
                        if bits(zone).any(|c| diff2 > t.threshold2(akind, a, kind_of(c), c)) {
                            n += 1;
                        }
                    }
                    let dear = bits(zone).map(|c| cost[kind_of(c)]).max().unwrap_or(0);
                    attacks.push(((n, dear), act));
                }
            } else if act >= ATT0 {
                let (a, c) = (((act - ATT0) / 100) as usize, ((act - ATT0) % 100) as usize);
                let n = s.success_count(a, c);
                if c == target {
                    shots.push(((n, 0), act));
                } else {
                    attacks.push(((n, cost[kind_of(c)]), act));
                }
            } else if act >= MOVE0 {
                let (a, b) = (((act - MOVE0) / 100) as usize, ((act - MOVE0) % 100) as usize);
                if kind_of(a) != P {
                    let drop = distance(a, target) - distance(b, target);
                    if drop > 0 {
                        moves.push(((drop, -distance(b, target)), act));
                    }
                }
            }
        }
        if !shots.is_empty() {
            return self.best(&shots);
        }
        attacks.retain(|x| x.0 .0 >= THIRD_36);
        if !attacks.is_empty() {
            return self.best(&attacks);
        }
        if !moves.is_empty() {
            return self.best(&moves);
        }
        PASS
    }
}

impl Agent<State> for Turtle {
    fn select_action(&mut self, state: &mut State) -> u32 {
        state.legal(&mut self.buf);
        let legal = std::mem::take(&mut self.buf);
        assert!(!legal.is_empty(), "turtle: no action to choose");
        let side = state.pos.to_move as usize;
        let out = match state.prince_of(1 - side) {
            None => {
                let last = *legal.last().expect("legal");
                if last == NOBUY || last == PASS {
                    last
                } else {
                    legal[0]
                }
            }
            Some(target) if state.pos.phase == BUY_PHASE => self.buy(state, &legal, target),
            Some(target) => self.act(state, &legal, target),
        };
        self.buf = legal;
        out
    }
}
