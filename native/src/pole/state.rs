//! Pole's state, ported from `workbench/games/pole/state.py` line by line: the same dense action
//! ints in the same (ascending) order, the same phases, chance node, counters and fired events.
//!
//! Board codes: 0 empty, else `1 + kind + 8 * side`. A position is [`Pos`], a plain `Copy` value, so
//! undo is a snapshot (as the Python engine's); the fired events of the last action live in it in a
//! compact form (a head of at most two events, the removed cells as a bit set, a tail event).

use std::sync::Arc;

use super::tables::{Tables, B, MOVE_NONE, MOVE_STEP4, MOVE_STEP8, P, S, T, ZONE_MELEE};
use crate::core::protocol::{Game, CHANCE, TERMINAL};

pub const NOBUY: u32 = 700;
pub const PASS: u32 = 701;
pub const MOVE0: u32 = 702;
pub const ATT0: u32 = 10702;
pub const ALL0: u32 = 20702;
pub const NUM_ACTIONS: u32 = 20802;
pub const BUY_PHASE: u8 = 0;
pub const ACT_PHASE: u8 = 1;
pub const OVER_PHASE: u8 = 2;

/// Victory kinds (`victory_kind`): none yet, `prince`, `draw`, `unfinished`.
pub const V_NONE: u8 = 0;
pub const V_PRINCE: u8 = 1;
pub const V_DRAW: u8 = 2;
pub const V_UNFINISHED: u8 = 3;
pub const VICTORIES: [&str; 4] = ["", "prince", "draw", "unfinished"];

/// Rule-usage counters, in `state.COUNTERS` order; one (red, black) pair each.
pub const COUNTERS: [&str; 22] = [
    "income",
    "purchase",
    "nobuy",
    "buy_barracks",
    "buy_stable",
    "buy_tower",
    "buy_infantryman",
    "buy_archer",
    "buy_horseman",
    "buy_catapult",
    "coins_spent",
    "move",
    "prince_move",
    "pass",
    "attack",
    "attack_hit",
    "attack_miss",
    "fortress_halving",
    "expected_36",
    "prince_destroyed",
    "building_destroyed",
    "removed",
];
const N_COUNTERS: usize = 2 * COUNTERS.len();
const C_INCOME: usize = 0;
const C_PURCHASE: usize = 1;
const C_NOBUY: usize = 2;
const C_BUY0: usize = 3;
const C_SPENT: usize = 10;
const C_MOVE: usize = 11;
const C_PRINCE_MOVE: usize = 12;
const C_PASS: usize = 13;
const C_ATTACK: usize = 14;
const C_HIT: usize = 15;
const C_MISS: usize = 16;
const C_HALVING: usize = 17;
const C_EXPECTED: usize = 18;
const C_PRINCE_DOWN: usize = 19;
const C_BUILDING_DOWN: usize = 20;
const C_REMOVED: usize = 21;

/// Names of the fired events (`state.fired()`'s first field).
pub const FIRED: [&str; 17] = [
    "buy_barracks",
    "buy_stable",
    "buy_tower",
    "buy_infantryman",
    "buy_archer",
    "buy_horseman",
    "buy_catapult",
    "nobuy",
    "pass",
    "move",
    "fortress_halving",
    "attack",
    "dice",
    "removed",
    "draw",
    "turn_cap",
    "",
];
const F_NOBUY: u8 = 7;
const F_PASS: u8 = 8;
const F_MOVE: u8 = 9;
const F_HALVING: u8 = 10;
const F_ATTACK: u8 = 11;
const F_DICE: u8 = 12;
pub const F_REMOVED: u8 = 13;
const F_DRAW: u8 = 14;
const F_TURN_CAP: u8 = 15;
/// `analysis.PRINCE_WEIGHT`, `FORTRESS_BONUS`, `REPLY_WEIGHT`: the evaluation's weights, in coins.
pub const PRINCE_WEIGHT: f64 = 20.0;
pub const FORTRESS_BONUS: f64 = 1.0;
pub const REPLY_WEIGHT: f64 = 1.0;
/// No cell (`None` in Python).
pub const NO_CELL: u8 = 255;

/// The mutable part of a state (what the Python engine snapshots for undo).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pos {
    pub board: [u8; 100],
    pub coins: [i64; 2],
    pub to_move: u8,
    pub phase: u8,
    /// An attack action awaiting its dice, or -1.
    pub pending: i32,
    /// Bit set of the cells bought this turn (buy_first).
    pub fresh: u128,
    pub bought: i64,
    pub removed: bool,
    pub quiet: i64,
    pub turn: i64,
    pub victory: u8,
    /// 0 Red, 1 Black, -1 none.
    pub winner: i8,
    pub cnt: [i64; N_COUNTERS],
    fired_side: u8,
    fired_head: [(u8, u8); 2],
    fired_n: u8,
    fired_removed: u128,
    fired_tail: u8,
}

impl Pos {
    /// An empty board, Red to move in the buy phase of turn 1 (the bindings fill it in).
    pub fn empty() -> Self {
        Pos {
            board: [0; 100],
            coins: [0, 0],
            to_move: 0,
            phase: BUY_PHASE,
            pending: -1,
            fresh: 0,
            bought: 0,
            removed: false,
            quiet: 0,
            turn: 1,
            victory: V_NONE,
            winner: -1,
            cnt: [0; N_COUNTERS],
            fired_side: 0,
            fired_head: [(0, 0); 2],
            fired_n: 0,
            fired_removed: 0,
            fired_tail: 0,
        }
    }
}

#[inline]
pub fn code(kind: usize, side: usize) -> u8 {
    (1 + kind + 8 * side) as u8
}

/// A Pole game: the position, its tables, the history and the undo snapshots.
#[derive(Clone)]
pub struct State {
    pub pos: Pos,
    pub tables: Arc<Tables>,
    pub history: Vec<u32>,
    undo: Vec<Pos>,
    /// Learned weights of [`State::features`] (`eval=NAME`), set by the searching agent: the
    /// evaluation is then their weighted sum, as the Python `LearnedEvaluation` computes it.
    pub weights: Option<Arc<[f64]>>,
}

/// The number of evaluation features (`analysis.features`): seven kinds, coins, tempo, threat, reply,
/// Prince danger, fortress.
pub const N_FEATURES: usize = 13;

impl State {
    pub fn new(tables: Arc<Tables>, pos: Pos) -> Self {
        State { pos, tables, history: Vec::new(), undo: Vec::new(), weights: None }
    }

    /// The classic start (P34): both Princes on their fortress cell nearest their back rank, the
    /// lower file first; `start_coins` each, then Red's first income under `income_timing=start`.
    pub fn classic(tables: Arc<Tables>, start_coins: i64) -> Self {
        let mut pos = Pos::empty();
        for side in 0..2 {
            let cells = tables.rules.fortress[side];
            let cell = if side == 0 {
                *cells.iter().min_by_key(|&&c| (c % 10, c / 10)).expect("four cells")
            } else {
                *cells.iter().min_by_key(|&&c| (-((c % 10) as i32), c / 10)).expect("four cells")
            };
            pos.board[cell as usize] = code(P, side);
        }
        pos.coins = [start_coins, start_coins];
        let mut s = State::new(tables, pos);
        s.begin_turn();
        s
    }

    // ------------------------------------------------------------------ queries
    #[inline]
    pub fn board(&self) -> &[u8; 100] {
        &self.pos.board
    }

    /// Fired events of the last action: (rule index into [`FIRED`], side, cell or [`NO_CELL`]).
    pub fn fired(&self) -> Vec<(u8, u8, u8)> {
        let p = &self.pos;
        let mut out = Vec::new();
        for &(r, c) in &p.fired_head[..p.fired_n as usize] {
            out.push((r, p.fired_side, c));
        }
        let mut m = p.fired_removed;
        while m != 0 {
            let c = m.trailing_zeros() as u8;
            out.push((F_REMOVED, p.fired_side, c));
            m &= m - 1;
        }
        if p.fired_tail != 0 {
            out.push((p.fired_tail, p.fired_side, NO_CELL));
        }
        out
    }

    fn fire(&mut self, rule: u8, cell: u8) {
        let p = &mut self.pos;
        p.fired_head[p.fired_n as usize] = (rule, cell);
        p.fired_n += 1;
    }

    fn clear_fired(&mut self, side: u8) {
        let p = &mut self.pos;
        p.fired_side = side;
        p.fired_n = 0;
        p.fired_removed = 0;
        p.fired_tail = 0;
    }

    #[inline]
    fn count(&mut self, c: usize, side: usize, amount: i64) {
        self.pos.cnt[2 * c + side] += amount;
    }

    pub fn prince_of(&self, side: usize) -> Option<usize> {
        let c = code(P, side);
        self.pos.board.iter().position(|&v| v == c)
    }

    #[inline]
    fn has(&self, kind: usize, side: usize) -> bool {
        let c = code(kind, side);
        self.pos.board.contains(&c)
    }

    fn prereq(&self, side: usize, kind: usize) -> bool {
        use super::tables::{A, C, H, I};
        match kind {
            I | A => self.has(B, side),
            H => self.has(S, side),
            C => self.has(B, side) && self.has(S, side),
            _ => true,
        }
    }

    fn cells_for(&self, side: usize, kind: usize, out: &mut Vec<u32>, base: u32) {
        let t = &*self.tables;
        let board = &self.pos.board;
        let no_fort = !t.rules.fortress_buildings && (kind == B || kind == S || kind == T);
        if kind == T {
            let need = t.rules.tower_infantry;
            let inf = code(super::tables::I, side);
            for c in 0..100 {
                if board[c] == 0 && !(no_fort && t.fort_of[c] != 0) {
                    let ok =
                        need == 0 || t.step8[c].iter().filter(|&&n| board[n as usize] == inf).count() as i64 >= need;
                    if ok {
                        out.push(base + c as u32);
                    }
                }
            }
            return;
        }
        for &c in &t.place_zone[side] {
            let c = c as usize;
            if board[c] == 0 && !(no_fort && t.fort_of[c] != 0) {
                out.push(base + c as u32);
            }
        }
    }

    /// `_moves_from` appended as move actions of `a` (rides sorted by destination).
    fn moves_from(&self, a: usize, out: &mut Vec<u32>) {
        let t = &*self.tables;
        let board = &self.pos.board;
        let base = MOVE0 + a as u32 * 100;
        match super::tables::KIND_MOVE[((board[a] - 1) & 7) as usize] {
            MOVE_NONE => {}
            MOVE_STEP8 => out.extend(t.step8[a].iter().filter(|&&b| board[b as usize] == 0).map(|&b| base + b as u32)),
            MOVE_STEP4 => out.extend(t.step4[a].iter().filter(|&&b| board[b as usize] == 0).map(|&b| base + b as u32)),
            _ => {
                let mut mask = 0u128;
                for path in &t.ride_rays[a] {
                    for &b in path {
                        if board[b as usize] == 0 {
                            mask |= 1u128 << b;
                        } else if !t.rules.ride_jump {
                            break;
                        }
                    }
                }
                push_bits(mask, base, out);
            }
        }
    }

    /// Enemy cells in the zone of the piece on `a` as a bit set (geometry only, blocking applied).
    pub fn zone_targets(&self, a: usize) -> u128 {
        let board = &self.pos.board;
        let v = board[a];
        if v == 0 {
            return 0;
        }
        let kind = ((v - 1) & 7) as usize;
        let t = &*self.tables;
        if !t.can_attack[kind] {
            return 0;
        }
        let side = (v - 1) >> 3;
        let zone = super::tables::KIND_ZONE[kind] as usize;
        let mut out = 0u128;
        if zone == ZONE_MELEE as usize || !t.blocked[kind] {
            for &b in &t.zone_flat[zone][a] {
                let w = board[b as usize];
                if w != 0 && (w - 1) >> 3 != side {
                    out |= 1u128 << b;
                }
            }
            return out;
        }
        for ray in &t.zone_rays[zone][a] {
            for (i, &b) in ray.cells.iter().enumerate() {
                let w = board[b as usize];
                if w != 0 {
                    if i + 1 >= ray.lo && (w - 1) >> 3 != side {
                        out |= 1u128 << b;
                    }
                    break;
                }
            }
        }
        out
    }

    /// True when the piece on `a` has `target` in its attack zone now (`state.reaches`).
    pub fn reaches(&self, a: usize, target: usize) -> bool {
        let board = &self.pos.board;
        let v = board[a];
        if v == 0 {
            return false;
        }
        let kind = ((v - 1) & 7) as usize;
        let t = &*self.tables;
        if !t.can_attack[kind] {
            return false;
        }
        let zone = super::tables::KIND_ZONE[kind] as usize;
        if t.zone_mask[zone][a] >> target & 1 == 0 {
            return false;
        }
        if zone == ZONE_MELEE as usize || !t.blocked[kind] {
            return true;
        }
        for ray in &t.zone_rays[zone][a] {
            if ray.cells.contains(&(target as u8)) {
                for &b in &ray.cells {
                    if b as usize == target {
                        return true;
                    }
                    if board[b as usize] != 0 {
                        return false;
                    }
                }
            }
        }
        false
    }

    /// Successes out of 36 of an attack from `a` on `t` (geometry not checked).
    #[inline]
    pub fn success_count(&self, a: usize, t: usize) -> i64 {
        let b = &self.pos.board;
        self.tables.success_count(((b[a] - 1) & 7) as usize, a, ((b[t] - 1) & 7) as usize, t)
    }

    /// The attacker and the targets (bit set) of an attack action.
    pub fn attack_cells(&self, action: u32) -> (usize, u128) {
        if action >= ALL0 {
            let a = (action - ALL0) as usize;
            (a, self.zone_targets(a))
        } else {
            let a = ((action - ATT0) / 100) as usize;
            (a, 1u128 << ((action - ATT0) % 100))
        }
    }

    /// `_expected36`: the sum of the targets' success counts.
    pub fn expected36(&self, action: u32) -> i64 {
        let (a, ts) = self.attack_cells(action);
        bits(ts).map(|t| self.success_count(a, t)).sum()
    }

    /// Cells the pending attack removes under `outcome` (`_hits`), as a bit set.
    pub fn hits(&self, outcome: u32) -> u128 {
        let act = self.pos.pending as u32;
        let diff2 = 2 * ((outcome / 6) as i64 - (outcome % 6) as i64);
        let (a, ts) = self.attack_cells(act);
        let board = &self.pos.board;
        let akind = ((board[a] - 1) & 7) as usize;
        let mut out = 0u128;
        for t in bits(ts) {
            if diff2 > self.tables.threshold2(akind, a, ((board[t] - 1) & 7) as usize, t) {
                out |= 1u128 << t;
            }
        }
        out
    }

    /// Every legal decision in ascending (canonical) order (`_generate`); empty when over or chance.
    pub fn legal(&self, out: &mut Vec<u32>) {
        out.clear();
        let p = &self.pos;
        if p.phase == OVER_PHASE || p.pending >= 0 {
            return;
        }
        let t = &*self.tables;
        let side = p.to_move as usize;
        if p.phase == BUY_PHASE {
            let coins = p.coins[side];
            for kind in 0..7 {
                if coins >= t.rules.cost[kind] && self.prereq(side, kind) {
                    self.cells_for(side, kind, out, kind as u32 * 100);
                }
            }
            out.push(NOBUY);
            return;
        }
        out.push(PASS);
        let mut attacks: Vec<u32> = Vec::new();
        let board = &p.board;
        let own_lo = if side == 0 { 1u8 } else { 9u8 };
        for a in 0..100 {
            let v = board[a];
            if !(own_lo..own_lo + 8).contains(&v) || p.fresh >> a & 1 == 1 {
                continue;
            }
            let kind = (v - own_lo) as usize;
            if super::tables::KIND_MOVE[kind] != MOVE_NONE {
                self.moves_from(a, out);
            }
            if t.can_attack[kind] {
                let ts = self.zone_targets(a);
                if ts != 0 {
                    if t.rules.attack_all {
                        attacks.push(ALL0 + a as u32);
                    } else {
                        push_bits(ts, ATT0 + a as u32 * 100, &mut attacks);
                    }
                }
            }
        }
        out.extend(attacks);
    }

    pub fn n_legal(&self) -> usize {
        let mut v = Vec::new();
        self.legal(&mut v);
        v.len()
    }

    /// Whether `action` is legal here (a decision, or a chance outcome at a chance node).
    pub fn is_legal(&self, action: u32) -> bool {
        if self.pos.phase == OVER_PHASE {
            return false;
        }
        if self.pos.pending >= 0 {
            return action < 36;
        }
        let mut v = Vec::new();
        self.legal(&mut v);
        v.binary_search(&action).is_ok() || v.contains(&action)
    }

    // ------------------------------------------------------------------ mutation
    /// Apply a legal action or chance outcome (legality is the caller's: `apply_checked` checks).
    pub fn apply_action(&mut self, action: u32) {
        self.undo.push(self.pos);
        self.history.push(action);
        if self.pos.pending >= 0 {
            self.resolve(action);
            return;
        }
        self.clear_fired(self.pos.to_move);
        self.play(action);
    }

    pub fn apply_checked(&mut self, action: u32) -> Result<(), String> {
        if !self.is_legal(action) {
            return Err(format!("action {action} is not legal here"));
        }
        self.apply_action(action);
        Ok(())
    }

    pub fn undo_action(&mut self) -> bool {
        match self.undo.pop() {
            Some(p) => {
                self.pos = p;
                self.history.pop();
                true
            }
            None => false,
        }
    }

    fn play(&mut self, action: u32) {
        let side = self.pos.to_move as usize;
        let t = Arc::clone(&self.tables);
        if action < NOBUY {
            let (kind, cell) = ((action / 100) as usize, (action % 100) as usize);
            self.pos.board[cell] = code(kind, side);
            self.pos.coins[side] -= t.rules.cost[kind];
            self.pos.bought += 1;
            if t.rules.buy_first {
                self.pos.fresh |= 1u128 << cell;
            }
            self.count(C_PURCHASE, side, 1);
            self.count(C_BUY0 + kind, side, 1);
            self.count(C_SPENT, side, t.rules.cost[kind]);
            self.fire(kind as u8, cell as u8);
            if self.pos.bought >= t.rules.purchases_per_turn {
                self.end_buy();
            }
            return;
        }
        if action == NOBUY {
            self.count(C_NOBUY, side, 1);
            self.fire(F_NOBUY, NO_CELL);
            self.end_buy();
            return;
        }
        if action == PASS {
            self.count(C_PASS, side, 1);
            self.fire(F_PASS, NO_CELL);
            self.end_act();
            return;
        }
        if action < ATT0 {
            let (a, b) = (((action - MOVE0) / 100) as usize, ((action - MOVE0) % 100) as usize);
            let v = self.pos.board[a];
            self.pos.board[a] = 0;
            self.pos.board[b] = v;
            self.count(C_MOVE, side, 1);
            if ((v - 1) & 7) as usize == P {
                self.count(C_PRINCE_MOVE, side, 1);
            }
            self.fire(F_MOVE, b as u8);
            self.end_act();
            return;
        }
        let (a, targets) = self.attack_cells(action);
        self.pos.pending = action as i32;
        self.count(C_ATTACK, side, 1);
        let e = self.expected36(action);
        self.count(C_EXPECTED, side, e);
        if bits(targets).any(|tc| t.halved(a, tc)) {
            self.count(C_HALVING, side, 1);
            self.fire(F_HALVING, targets.trailing_zeros() as u8);
        }
        self.fire(F_ATTACK, a as u8);
    }

    fn resolve(&mut self, outcome: u32) {
        let side = self.pos.to_move as usize;
        let hits = self.hits(outcome);
        self.clear_fired(side as u8);
        self.fire(F_DICE, NO_CELL);
        self.pos.pending = -1;
        let mut prince_down = false;
        self.count(if hits != 0 { C_HIT } else { C_MISS }, side, 1);
        for tc in bits(hits) {
            let v = self.pos.board[tc];
            let kind = ((v - 1) & 7) as usize;
            self.pos.board[tc] = 0;
            self.pos.fresh &= !(1u128 << tc);
            self.count(C_REMOVED, side, 1);
            if kind == P {
                prince_down = true;
                self.count(C_PRINCE_DOWN, side, 1);
            } else if kind == B || kind == S || kind == T {
                self.count(C_BUILDING_DOWN, side, 1);
            }
        }
        self.pos.fired_removed = hits;
        if hits != 0 {
            self.pos.removed = true;
        }
        if prince_down {
            self.pos.phase = OVER_PHASE;
            self.pos.victory = V_PRINCE;
            self.pos.winner = side as i8;
            self.clear_marks();
            return;
        }
        self.end_act();
    }

    fn clear_marks(&mut self) {
        self.pos.fresh = 0;
        self.pos.bought = 0;
        self.pos.removed = false;
    }

    fn end_buy(&mut self) {
        self.pos.bought = 0;
        if self.tables.rules.buy_first {
            self.pos.phase = ACT_PHASE;
        } else {
            self.end_turn();
        }
    }

    fn end_act(&mut self) {
        if self.tables.rules.buy_first || self.tables.rules.purchases_per_turn == 0 {
            self.end_turn();
        } else {
            self.pos.phase = BUY_PHASE;
        }
    }

    fn end_turn(&mut self) {
        let side = self.pos.to_move as usize;
        let (income_start, income, draw_after, max_turns) = {
            let r = &self.tables.rules;
            (r.income_start, r.income, r.draw_after, r.max_turns)
        };
        if !income_start {
            self.pos.coins[side] += income;
            self.count(C_INCOME, side, income);
        }
        self.pos.quiet = if self.pos.removed { 0 } else { self.pos.quiet + 1 };
        self.clear_marks();
        if let Some(d) = draw_after {
            if self.pos.quiet >= d {
                self.pos.phase = OVER_PHASE;
                self.pos.victory = V_DRAW;
                self.pos.fired_tail = F_DRAW;
                return;
            }
        }
        if self.pos.turn >= max_turns {
            self.pos.phase = OVER_PHASE;
            self.pos.victory = V_UNFINISHED;
            self.pos.fired_tail = F_TURN_CAP;
            return;
        }
        self.pos.turn += 1;
        self.pos.to_move = 1 - self.pos.to_move;
        self.begin_turn();
    }

    /// Turn start: income under `income_timing=start`, then the turn's first phase.
    pub fn begin_turn(&mut self) {
        let side = self.pos.to_move as usize;
        let r = &self.tables.rules;
        let (income_start, income, first) =
            (r.income_start, r.income, if r.buy_first && r.purchases_per_turn > 0 { BUY_PHASE } else { ACT_PHASE });
        if income_start {
            self.pos.coins[side] += income;
            self.count(C_INCOME, side, income);
        }
        self.pos.phase = first;
    }

    // ------------------------------------------------------------------ evaluation
    /// `analysis.prince_danger`: the enemy pieces whose zone kind covers the Prince's cell (zones are
    /// symmetric, so `zone_mask[z][cell]` is where a zone-`z` attacker must stand), in board order as
    /// Python's loop over the board, each checked with `reaches` (blocking) and counted.
    fn prince_danger(&self, prince: Option<usize>, enemy_by_zone: &[u128; 4]) -> f64 {
        let Some(cell) = prince else { return 1.0 };
        let t = &*self.tables;
        let mut candidates = 0u128;
        for z in 1..4 {
            candidates |= t.zone_mask[z][cell] & enemy_by_zone[z];
        }
        let mut miss = 1.0;
        for a in bits(candidates) {
            if self.reaches(a, cell) {
                miss *= 1.0 - self.success_count(a, cell) as f64 / 36.0;
            }
        }
        1.0 - miss
    }

    /// `analysis._best_attack`: `side`'s best single attack now, in coins: the max of n/36 x the
    /// target's cost over its non-fresh attackers' zone targets (Princes are the safety term's).
    fn best_attack(&self, side: usize) -> f64 {
        let t = &*self.tables;
        let board = &self.pos.board;
        let lo = 1 + 8 * side as u8;
        let mut best = 0.0;
        for (a, &v) in board.iter().enumerate() {
            if v < lo || v >= lo + 8 {
                continue;
            }
            let kind = ((v - 1) & 7) as usize;
            if !t.can_attack[kind] || self.pos.fresh >> a & 1 == 1 {
                continue;
            }
            for target in bits(self.zone_targets(a)) {
                let tkind = ((board[target] - 1) & 7) as usize;
                if tkind != P {
                    let gain = (self.success_count(a, target) * t.rules.cost[tkind]) as f64 / 36.0;
                    if gain > best {
                        best = gain;
                    }
                }
            }
        }
        best
    }

    /// `analysis.side_value`: material + coins + tempo + both sides' best attack + fortress safety (one
    /// board pass for both sides).
    fn side_values(&self) -> [f64; 2] {
        let t = &*self.tables;
        let board = &self.pos.board;
        let mut material = [0i64; 2];
        let mut prince: [Option<usize>; 2] = [None, None];
        let mut by_zone = [[0u128; 4]; 2];
        for (c, &v) in board.iter().enumerate() {
            if v == 0 {
                continue;
            }
            let (side, kind) = (((v - 1) >> 3) as usize, ((v - 1) & 7) as usize);
            if kind == P {
                if prince[side].is_none() {
                    prince[side] = Some(c);
                }
            } else {
                material[side] += t.rules.cost[kind];
            }
            by_zone[side][super::tables::KIND_ZONE[kind] as usize] |= 1u128 << c;
        }
        let mover = self.pos.to_move as usize;
        let (threat, reply) = if self.pos.phase != OVER_PHASE {
            (self.best_attack(mover), self.best_attack(1 - mover))
        } else {
            (0.0, 0.0)
        };
        let mut out = [0.0; 2];
        for side in 0..2 {
            let mut value = (material[side] + self.pos.coins[side]) as f64;
            if side == mover {
                value += threat;
                value += t.rules.income as f64 / 2.0;
            } else {
                value += REPLY_WEIGHT * reply;
            }
            value -= PRINCE_WEIGHT * self.prince_danger(prince[side], &by_zone[1 - side]);
            if let Some(cell) = prince[side] {
                if t.fort_of[cell] != 0 {
                    value += FORTRESS_BONUS;
                }
            }
            out[side] = value;
        }
        out
    }

    /// `analysis.features`: the terms of the evaluation from `player`'s side (own minus enemy) in the
    /// Python order: a count per kind but the Prince, coins, tempo, threat, reply, Prince danger,
    /// fortress. Under the hand weights their sum is [`State::eval`].
    pub fn features(&self, player: usize) -> [f64; N_FEATURES] {
        let t = &*self.tables;
        let mut counts = [[0i64; 8]; 2];
        let mut prince: [Option<usize>; 2] = [None, None];
        let mut by_zone = [[0u128; 4]; 2];
        for (c, &v) in self.pos.board.iter().enumerate() {
            if v == 0 {
                continue;
            }
            let (side, kind) = (((v - 1) >> 3) as usize, ((v - 1) & 7) as usize);
            if kind == P {
                prince[side] = Some(c);
            } else {
                counts[side][kind] += 1;
            }
            by_zone[side][super::tables::KIND_ZONE[kind] as usize] |= 1u128 << c;
        }
        let (me, other) = (player, 1 - player);
        let mut out = [0.0; N_FEATURES];
        let mut i = 0;
        for k in 0..8 {
            if k != P {
                out[i] = (counts[me][k] - counts[other][k]) as f64;
                i += 1;
            }
        }
        let mover = self.pos.to_move as usize;
        let running = self.pos.phase != OVER_PHASE;
        let threat = if running { self.best_attack(mover) } else { 0.0 };
        let reply = if running { self.best_attack(1 - mover) } else { 0.0 };
        let sign = if me == mover { 1.0 } else { -1.0 };
        let danger = |s: usize| self.prince_danger(prince[s], &by_zone[1 - s]);
        let fort = |s: usize| match prince[s] {
            Some(c) if t.fort_of[c] != 0 => 1.0,
            _ => 0.0,
        };
        out[7] = (self.pos.coins[me] - self.pos.coins[other]) as f64;
        out[8] = sign;
        out[9] = sign * threat;
        out[10] = -sign * reply;
        out[11] = danger(me) - danger(other);
        out[12] = fort(me) - fort(other);
        out
    }

    /// The evaluation an agent searches with: the learned weights' sum over [`State::features`] when
    /// set (summed in order from 0, as Python's `sum`), else the hand evaluation [`State::eval`].
    pub fn weighted_eval(&self, player: usize) -> f64 {
        match &self.weights {
            Some(w) if self.pos.phase != OVER_PHASE => crate::core::protocol::learned_sum(w, &self.features(player)),
            _ => self.eval(player),
        }
    }

    /// `analysis.evaluate`: in coins from `player`'s side; +-1000 for a prince victory.
    pub fn eval(&self, player: usize) -> f64 {
        if self.pos.phase == OVER_PHASE {
            if self.pos.winner < 0 {
                return 0.0;
            }
            return if self.pos.winner as usize == player { 1000.0 } else { -1000.0 };
        }
        let v = self.side_values();
        v[player] - v[1 - player]
    }

    /// `state.action_priority`: attacks first (Prince shots, then by success count), purchases, moves.
    pub fn priority(&self, action: u32) -> i64 {
        if self.pos.pending >= 0 {
            return 0;
        }
        if action >= ATT0 {
            let (_, ts) = self.attack_cells(action);
            let prince = bits(ts).any(|t| ((self.pos.board[t] - 1) & 7) as usize == P);
            return 1000 * prince as i64 + 100 + self.expected36(action);
        }
        if action < NOBUY {
            return 50 + self.tables.rules.cost[(action / 100) as usize];
        }
        if action >= MOVE0 {
            return 10;
        }
        0
    }
}

/// The cells of a bit set in ascending (board) order.
pub fn bits(mut m: u128) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if m == 0 {
            return None;
        }
        let c = m.trailing_zeros() as usize;
        m &= m - 1;
        Some(c)
    })
}

fn push_bits(m: u128, base: u32, out: &mut Vec<u32>) {
    out.extend(bits(m).map(|c| base + c as u32));
}

impl Game for State {
    fn current_player(&self) -> i32 {
        if self.pos.phase == OVER_PHASE {
            TERMINAL
        } else if self.pos.pending >= 0 {
            CHANCE
        } else {
            self.pos.to_move as i32
        }
    }
    fn is_terminal(&self) -> bool {
        self.pos.phase == OVER_PHASE
    }
    fn num_players(&self) -> usize {
        2
    }
    fn legal_actions(&self, out: &mut Vec<u32>) {
        self.legal(out);
    }
    fn chance_outcomes(&self, out: &mut Vec<(u32, f64)>) {
        out.clear();
        if self.pos.pending >= 0 && self.pos.phase != OVER_PHASE {
            let p = 1.0 / 36.0;
            out.extend((0..36).map(|o| (o, p)));
        }
    }
    fn apply(&mut self, action: u32) {
        self.apply_action(action);
    }
    fn undo(&mut self) {
        self.undo_action();
    }
    fn returns(&self, player: usize) -> f64 {
        if self.pos.winner < 0 {
            0.0
        } else if self.pos.winner as usize == player {
            1.0
        } else {
            -1.0
        }
    }
    fn evaluate(&self, player: usize) -> f64 {
        self.weighted_eval(player)
    }
    fn feature_count(&self) -> usize {
        N_FEATURES
    }
    fn set_eval_weights(&mut self, weights: Option<Arc<[f64]>>) -> Option<Arc<[f64]>> {
        std::mem::replace(&mut self.weights, weights)
    }
    fn action_priority(&self, action: u32) -> i64 {
        self.priority(action)
    }
    fn move_number(&self) -> usize {
        self.history.len()
    }
    fn chance_key(&self, outcome: u32) -> u128 {
        self.hits(outcome) // the dice matter only through the cells they remove
    }
    /// `chance_groups`: the lowest outcome of each effect, probability `count / 36.0` as Python has it.
    fn chance_classes(&self, out: &mut Vec<(u32, f64)>) {
        out.clear();
        if self.pos.pending < 0 || self.pos.phase == OVER_PHASE {
            return;
        }
        let mut groups: Vec<(u128, u32, u32)> = Vec::new(); // (key, representative, count)
        for o in 0..36 {
            let key = self.hits(o);
            match groups.iter_mut().find(|g| g.0 == key) {
                Some(g) => g.2 += 1,
                None => groups.push((key, o, 1)),
            }
        }
        out.extend(groups.into_iter().map(|(_, o, n)| (o, n as f64 / 36.0)));
    }
    fn fork(&self) -> Self {
        State {
            pos: self.pos,
            tables: Arc::clone(&self.tables),
            history: Vec::new(),
            undo: Vec::new(),
            weights: self.weights.clone(),
        }
    }
}
