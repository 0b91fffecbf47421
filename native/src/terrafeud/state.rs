//! The game state: generation, W7 triggers, W10 threat and mate, promotion, victory. A port of
//! `workbench/games/terrafeud/engine/state.py`; the Python file is the specification, including action order.
//!
//! Every field that Python snapshots in `_push` lives in the `Copy` struct `Pos`, so `apply`
//! pushes one memcpy and `undo` pops it back, exactly like the Python stack of tuples.

use std::sync::Arc;

use crate::terrafeud::board::Board;
use crate::terrafeud::geometry::{geo, Geometry, NONE, N_HEXES};
use crate::terrafeud::rules::{Castling, MateDefence, Rules};

pub const EMPTY: u8 = 0;
pub const FEUDAL: u8 = 1;
pub const KNIGHT: u8 = 2;
pub const PIKEMAN: u8 = 3;
pub const CAVALRY: u8 = 4;
pub const ARCHER: u8 = 5;
pub const INFANTRY: u8 = 6;
pub const WHITE: usize = 0;
pub const BLACK: usize = 1;
/// Most steps an Order may hold (`order_size` is validated in Python to stay within it).
pub const MAX_ORDER: usize = 4;
/// Most markers per side (one per archer); a start with more archers is refused by the adapter.
pub const MAX_MARKERS: usize = 24;
/// Capacity of the counters array (2 * number of rules).
pub const MAX_COUNTERS: usize = 2 * RULES.len();
const MAX_MATE_DEPTH: i32 = 2;

/// Rule-usage telemetry names, in `workbench/games/terrafeud/engine/telemetry.py`'s order (tests compare them).
pub const RULES: [&str; 23] = [
    "bridge_stop",
    "ford_stop",
    "zone_stop",
    "swamp_stop",
    "shot",
    "hill_shot",
    "mine_kill",
    "ultimatum_kill",
    "coordinated_kill",
    "archer_melee_death",
    "zone_attack",
    "aura_move",
    "order",
    "castling",
    "promotion",
    "pass",
    "pike_cavalry_mutual",
    "threat",
    "promotion_knight",
    "promotion_pikeman",
    "promotion_cavalry",
    "promotion_archer",
    "promotion_infantryman",
];
pub const R_BRIDGE_STOP: u8 = 0;
pub const R_FORD_STOP: u8 = 1;
pub const R_ZONE_STOP: u8 = 2;
pub const R_SWAMP_STOP: u8 = 3;
pub const R_SHOT: u8 = 4;
pub const R_HILL_SHOT: u8 = 5;
pub const R_MINE_KILL: u8 = 6;
pub const R_ULTIMATUM_KILL: u8 = 7;
pub const R_COORDINATED_KILL: u8 = 8;
pub const R_ARCHER_MELEE_DEATH: u8 = 9;
pub const R_ZONE_ATTACK: u8 = 10;
pub const R_AURA_MOVE: u8 = 11;
pub const R_ORDER: u8 = 12;
pub const R_CASTLING: u8 = 13;
pub const R_PROMOTION: u8 = 14;
pub const R_PASS: u8 = 15;
pub const R_PIKE_CAVALRY_MUTUAL: u8 = 16;
pub const R_THREAT: u8 = 17;
/// `promotion_<kind>` counter of a promotion kind (knight 2 .. infantryman 6).
fn r_promotion_kind(k: u8) -> u8 {
    18 + (k - KNIGHT)
}
/// Kinds that a coordinated infantry attack kills (W7 step 3).
const COORD_TARGET: [bool; 8] = [false, true, true, true, true, false, false, false];

/// Piece code `kind | side << 3`, as in `pieces.py`.
#[inline]
pub fn code(kind: u8, side: usize) -> u8 {
    kind | ((side as u8) << 3)
}

#[inline]
fn side_of(c: u8) -> usize {
    (c >> 3) as usize
}

/// One step of an Order: from, to, promotion kind (0 = none).
pub type OrderStep = [u8; 3];

/// An action, mirroring the Python tuples:
/// `(MOVE, from, to, promo)`, `(SHOT, archer, target)`, `(CASTLE, feudal, infantryman)`,
/// `(ORDER, a, a_to, a_promo, b, b_to, b_promo, ...)`, `(PASS,)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    Move { from: u8, to: u8, promo: u8 },
    Shot { archer: u8, target: u8 },
    Castle { feudal: u8, infantry: u8 },
    Order { n: u8, steps: [OrderStep; MAX_ORDER] },
    Pass,
}

impl Action {
    /// An Order of two steps.
    pub fn order2(a: u8, ta: u8, pa: u8, b: u8, tb: u8, pb: u8) -> Action {
        let mut steps = [[0u8; 3]; MAX_ORDER];
        steps[0] = [a, ta, pa];
        steps[1] = [b, tb, pb];
        Action::Order { n: 2, steps }
    }

    /// The Python tuple's second field (`action[1]`): the acting piece's hex.
    pub fn first_hex(&self) -> Option<u8> {
        match *self {
            Action::Move { from, .. } => Some(from),
            Action::Shot { archer, .. } => Some(archer),
            Action::Castle { feudal, .. } => Some(feudal),
            Action::Order { steps, .. } => Some(steps[0][0]),
            Action::Pass => None,
        }
    }

    /// The Python tuple's third field (`action[2]`): the (first) final hex.
    pub fn second_hex(&self) -> Option<u8> {
        match *self {
            Action::Move { to, .. } => Some(to),
            Action::Shot { target, .. } => Some(target),
            Action::Castle { infantry, .. } => Some(infantry),
            Action::Order { steps, .. } => Some(steps[0][1]),
            Action::Pass => None,
        }
    }

    /// The Python tuple as a flat list of ints (kind first).
    pub fn to_vec(&self) -> Vec<u8> {
        match *self {
            Action::Move { from, to, promo } => vec![0, from, to, promo],
            Action::Shot { archer, target } => vec![1, archer, target],
            Action::Castle { feudal, infantry } => vec![2, feudal, infantry],
            Action::Order { n, steps } => {
                let mut v = vec![3];
                for s in steps.iter().take(n as usize) {
                    v.extend_from_slice(s);
                }
                v
            }
            Action::Pass => vec![4],
        }
    }

    /// Inverse of `to_vec`; None for a malformed tuple.
    pub fn from_slice(v: &[i64]) -> Option<Action> {
        let ok = |x: i64| (0..N_HEXES as i64).contains(&x);
        let k = |x: i64| (0..8).contains(&x);
        match v {
            [0, a, t, p] if ok(*a) && ok(*t) && k(*p) => {
                Some(Action::Move { from: *a as u8, to: *t as u8, promo: *p as u8 })
            }
            [1, a, t] if ok(*a) && ok(*t) => Some(Action::Shot { archer: *a as u8, target: *t as u8 }),
            [2, f, i] if ok(*f) && ok(*i) => Some(Action::Castle { feudal: *f as u8, infantry: *i as u8 }),
            [4] => Some(Action::Pass),
            [3, rest @ ..] if !rest.is_empty() && rest.len() % 3 == 0 && rest.len() / 3 <= MAX_ORDER => {
                let mut steps = [[0u8; 3]; MAX_ORDER];
                for (i, ch) in rest.chunks(3).enumerate() {
                    if !ok(ch[0]) || !ok(ch[1]) || !k(ch[2]) {
                        return None;
                    }
                    steps[i] = [ch[0] as u8, ch[1] as u8, ch[2] as u8];
                }
                Some(Action::Order { n: (rest.len() / 3) as u8, steps })
            }
            _ => None,
        }
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Victory {
    Destroyed,
    Castle,
    Checkmate,
    Draw,
}

impl Victory {
    pub fn name(&self) -> &'static str {
        match self {
            Victory::Destroyed => "destroyed",
            Victory::Castle => "castle",
            Victory::Checkmate => "checkmate",
            Victory::Draw => "draw",
        }
    }

    pub fn parse(s: &str) -> Option<Victory> {
        match s {
            "destroyed" => Some(Victory::Destroyed),
            "castle" => Some(Victory::Castle),
            "checkmate" => Some(Victory::Checkmate),
            "draw" => Some(Victory::Draw),
            _ => None,
        }
    }
}

/// A position to start from (the arguments of `Game.state_from_pieces`).
#[derive(Clone, Debug, Default)]
pub struct Setup {
    /// Piece code per hex (91 entries).
    pub squares: Vec<u8>,
    pub to_move: usize,
    /// (archer hex, marked hex) per side, in insertion order.
    pub markers: [Vec<(u8, u8)>; 2],
    pub pending: Vec<u8>,
    pub castled: [u8; 2],
    pub aura_ready: Vec<u8>,
    pub destroyed: [Vec<u8>; 2],
    pub ply: u32,
    pub quiet: u32,
    pub winner: Option<usize>,
    pub victory: Option<Victory>,
    pub counters: Vec<u32>,
    /// What the action that led here fired (`GameState.fired`), as (rule index, side, hex).
    pub fired: Vec<Fired>,
    /// Triggers 2-3 have already run on this board (`GameState._settled`).
    pub settled: bool,
    /// A live state converted mid-game: its result is already known, skip the start-of-turn mate test.
    pub skip_mate_test: bool,
}

/// One fired rule: (rule index in RULES, side, hex or -1).
pub type Fired = (u8, u8, i16);

/// A list on the stack (no allocation on the hot path); pushing past `N` is a bug.
#[derive(Clone, Copy)]
struct Small<T: Copy + Default, const N: usize> {
    v: [T; N],
    n: usize,
}

impl<T: Copy + Default, const N: usize> Small<T, N> {
    fn new() -> Self {
        Small { v: [T::default(); N], n: 0 }
    }

    #[inline]
    fn push(&mut self, x: T) {
        self.v[self.n] = x;
        self.n += 1;
    }
}

impl<T: Copy + Default, const N: usize> std::ops::Deref for Small<T, N> {
    type Target = [T];

    #[inline]
    fn deref(&self) -> &[T] {
        &self.v[..self.n]
    }
}

type Steps = Small<(i16, u8), { MAX_ORDER + 1 }>;

/// W6: may an infantryman attack the enemy piece `c` on `t` alone? (`own_zone`: its side's pikemen zones.)
#[inline]
fn w6_ok(c: u8, t: usize, own_zone: u128) -> bool {
    let k = c & 7;
    k == ARCHER || k == INFANTRY || ((k == KNIGHT || k == CAVALRY) && has(own_zone, t))
}

#[inline]
fn bit(h: usize) -> u128 {
    1u128 << h
}

#[inline]
fn has(set: u128, h: usize) -> bool {
    set & (1u128 << h) != 0
}

/// Everything `_push` snapshots in Python.
#[derive(Clone, Copy)]
struct Pos {
    sq: [u8; N_HEXES],
    to_move: u8,
    markers: [[(u8, u8); MAX_MARKERS]; 2],
    n_markers: [u8; 2],
    pending: u128,
    castled: [u8; 2],
    aura_ready: u128,
    destroyed: [[u8; N_HEXES]; 2],
    n_destroyed: [u8; 2],
    ply: u32,
    quiet: u32,
    winner: i8,
    victory: Option<Victory>,
    feudal: [i8; 2],
    settled: bool,
    counters: [u32; MAX_COUNTERS],
    /// Where this position's action's entries start in `State::fired_log`.
    fired_start: u32,
}

/// A TerraFeud game state with undo.
#[derive(Clone)]
pub struct State {
    pub board: Arc<Board>,
    pub rules: Arc<Rules>,
    p: Pos,
    stack: Vec<Pos>,
    history: Vec<Action>,
    mate_depth: i32,
    deaths: Vec<usize>,
    removed: u32,
    zones: Option<[u128; 2]>,
    cache: Option<Vec<Action>>,
    /// What each applied action fired, oldest first: an action's entries are the tail from its
    /// position's `fired_start`, and `pop` truncates them away (Python's `_pop` restores `fired`).
    fired_log: Vec<Fired>,
}

impl State {
    /// A state from a setup; runs the W10 mate test like `Game.state_from_pieces`.
    pub fn new(board: Arc<Board>, rules: Arc<Rules>, setup: &Setup) -> State {
        let mut p = Pos {
            sq: [0; N_HEXES],
            to_move: setup.to_move as u8,
            markers: [[(0, 0); MAX_MARKERS]; 2],
            n_markers: [0; 2],
            pending: 0,
            castled: setup.castled,
            aura_ready: 0,
            destroyed: [[0; N_HEXES]; 2],
            n_destroyed: [0; 2],
            ply: setup.ply,
            quiet: setup.quiet,
            winner: -1,
            victory: None,
            feudal: [-1, -1],
            settled: setup.settled,
            counters: [0; MAX_COUNTERS],
            fired_start: 0,
        };
        for (h, &c) in setup.squares.iter().enumerate().take(N_HEXES) {
            p.sq[h] = c;
            if c & 7 == FEUDAL {
                p.feudal[side_of(c)] = h as i8;
            }
        }
        for s in 0..2 {
            for &(a, t) in setup.markers[s].iter().take(MAX_MARKERS) {
                let n = p.n_markers[s] as usize;
                p.markers[s][n] = (a, t);
                p.n_markers[s] += 1;
            }
            for &k in setup.destroyed[s].iter().take(N_HEXES) {
                let n = p.n_destroyed[s] as usize;
                p.destroyed[s][n] = k;
                p.n_destroyed[s] += 1;
            }
        }
        for &h in &setup.pending {
            p.pending |= bit(h as usize);
        }
        for &h in &setup.aura_ready {
            p.aura_ready |= bit(h as usize);
        }
        for (i, &c) in setup.counters.iter().enumerate().take(MAX_COUNTERS) {
            p.counters[i] = c;
        }
        let mut st = State {
            board,
            rules,
            p,
            stack: Vec::with_capacity(64),
            history: Vec::new(),
            mate_depth: 0,
            deaths: Vec::new(),
            removed: 0,
            zones: None,
            cache: None,
            fired_log: setup.fired.clone(),
        };
        if let Some(v) = setup.victory {
            st.p.victory = Some(v);
            st.p.winner = setup.winner.map(|w| w as i8).unwrap_or(-1);
        } else if !setup.skip_mate_test {
            let tm = setup.to_move;
            if st.p.feudal[tm] >= 0 && st.is_checkmated(tm) {
                st.p.winner = (1 - tm) as i8;
                st.p.victory = Some(Victory::Checkmate);
            }
        }
        st
    }

    // ------------------------------------------------------------------ queries

    pub fn is_terminal(&self) -> bool {
        self.p.victory.is_some()
    }

    /// +1 win, -1 loss, 0 otherwise, per side.
    pub fn returns(&self) -> [f64; 2] {
        match self.p.winner {
            0 => [1.0, -1.0],
            1 => [-1.0, 1.0],
            _ => [0.0, 0.0],
        }
    }

    pub fn current_player(&self) -> usize {
        self.p.to_move as usize
    }

    /// Piece code on each hex.
    pub fn squares(&self) -> &[u8; N_HEXES] {
        &self.p.sq
    }

    /// Hex of `side`'s feudal, or None when destroyed.
    pub fn feudal(&self, side: usize) -> Option<usize> {
        let f = self.p.feudal[side];
        (f >= 0).then_some(f as usize)
    }

    pub fn winner(&self) -> Option<usize> {
        (self.p.winner >= 0).then_some(self.p.winner as usize)
    }

    pub fn victory(&self) -> Option<Victory> {
        self.p.victory
    }

    pub fn ply(&self) -> u32 {
        self.p.ply
    }

    pub fn quiet(&self) -> u32 {
        self.p.quiet
    }

    /// Markers of `side` as (archer hex, marked hex), in insertion order.
    pub fn markers(&self, side: usize) -> &[(u8, u8)] {
        &self.p.markers[side][..self.p.n_markers[side] as usize]
    }

    /// Hexes of pending ultimatums (for the side to move), as a bit set.
    pub fn pending(&self) -> u128 {
        self.p.pending
    }

    /// Castlings made by each side.
    pub fn castled(&self) -> [u8; 2] {
        self.p.castled
    }

    /// Infantry that had the aura at the end of their side's last turn, as a bit set.
    pub fn aura_ready(&self) -> u128 {
        self.p.aura_ready
    }

    /// Destroyed kinds of `side`, in order of destruction.
    pub fn destroyed(&self, side: usize) -> &[u8] {
        &self.p.destroyed[side][..self.p.n_destroyed[side] as usize]
    }

    /// Actions played so far (what `undo` takes back).
    pub fn history(&self) -> &[Action] {
        &self.history
    }

    /// Rule-usage counters, index 2 * rule + side.
    pub fn counters(&self) -> &[u32] {
        &self.p.counters
    }

    /// Rules fired by the most recently applied action.
    pub fn fired(&self) -> &[Fired] {
        &self.fired_log[self.p.fired_start as usize..]
    }

    /// Hexes in the zone of control of `side`'s pikemen (W2), as a bit set.
    pub fn zone(&mut self, side: usize) -> u128 {
        if let Some(z) = self.zones {
            return z[side];
        }
        let g = geo();
        let mut z = [0u128; 2];
        for (h, &c) in self.p.sq.iter().enumerate() {
            if c & 7 == PIKEMAN {
                z[side_of(c)] |= g.pike_mask[h];
            }
        }
        self.zones = Some(z);
        z[side]
    }

    /// Hexes holding a marker of `side`, as a bit set.
    pub fn marked_by(&self, side: usize) -> u128 {
        self.markers(side).iter().fold(0u128, |acc, &(_, t)| acc | bit(t as usize))
    }

    fn marker_of(&self, side: usize, archer: usize) -> Option<u8> {
        self.markers(side).iter().find(|&&(a, _)| a as usize == archer).map(|&(_, t)| t)
    }

    // ------------------------------------------------------------------ generation

    /// Every legal action of the side to move, in the Python engine's order; `[Pass]` when none.
    pub fn legal_actions(&mut self) -> Vec<Action> {
        if self.p.victory.is_some() {
            return Vec::new();
        }
        self.legal_actions_ref().to_vec()
    }

    /// The legal actions without copying them (valid until the state changes).
    pub fn legal_actions_ref(&mut self) -> &[Action] {
        if self.p.victory.is_some() {
            return &[];
        }
        if self.cache.is_none() {
            let mut acts = self.generate(self.p.to_move as usize, None);
            if acts.is_empty() {
                acts.push(Action::Pass);
            }
            self.cache = Some(acts);
        }
        self.cache.as_deref().unwrap_or(&[])
    }

    /// Number of legal actions (cheaper than cloning the list when it is cached).
    pub fn n_legal(&mut self) -> usize {
        if self.p.victory.is_some() {
            return 0;
        }
        self.legal_actions_ref().len()
    }

    /// Actions `side` would have if it were to move now; `only` restricts to one piece hex.
    pub fn actions_of(&mut self, side: usize, only: Option<usize>) -> Vec<Action> {
        self.generate(side, only)
    }

    fn generate(&mut self, s: usize, only: Option<usize>) -> Vec<Action> {
        let g = geo();
        let e = 1 - s;
        let zone = self.zone(e);
        let own_zone = self.zone(s);
        let mines = self.marked_by(e);
        let mut acts: Vec<Action> = Vec::with_capacity(64);
        // Python lists the hexes first; generators restore the board, so walking it directly is the same.
        let (lo, hi) = match only {
            Some(h) => (h, h + 1),
            None => (0, N_HEXES),
        };
        let ef = self.p.feudal[e];
        for h in lo..hi {
            let c = self.p.sq[h];
            if c == 0 || side_of(c) != s {
                continue;
            }
            match c & 7 {
                INFANTRY => self.gen_infantry(g, h, s, zone, mines, &mut acts, own_zone),
                KNIGHT => {
                    let mut tg = Vec::new();
                    self.knight_targets(g, h, s, zone, mines, &[0, 1, 2, 3, 4, 5], &mut tg);
                    for (t, _) in tg {
                        acts.push(Action::Move { from: h as u8, to: t, promo: 0 });
                    }
                }
                CAVALRY => {
                    let (seen, n) = self.cavalry_targets(g, h, s, zone);
                    for &t in &seen[..n] {
                        acts.push(Action::Move { from: h as u8, to: t, promo: 0 });
                    }
                }
                PIKEMAN => {
                    for &n in &self.board.steps[h] {
                        let cn = self.p.sq[n as usize];
                        if cn == 0 || side_of(cn) == e {
                            acts.push(Action::Move { from: h as u8, to: n, promo: 0 });
                        }
                    }
                }
                ARCHER => self.gen_archer(g, h, s, &mut acts),
                FEUDAL => self.gen_feudal(g, h, s, ef, &mut acts),
                _ => {}
            }
        }
        acts
    }

    fn gen_feudal(&mut self, g: &Geometry, h: usize, s: usize, ef: i8, acts: &mut Vec<Action>) {
        let walk = &self.board.walkable;
        let near: &[u8] = if ef >= 0 { &g.adjacent[ef as usize] } else { &[] };
        let inf = code(INFANTRY, s);
        for &n in &g.adjacent[h] {
            let nu = n as usize;
            let c = self.p.sq[nu];
            if !walk[nu] || nu as i8 == ef || near.contains(&n) {
                continue;
            }
            if c == 0 || side_of(c) != s {
                acts.push(Action::Move { from: h as u8, to: n, promo: 0 });
            } else if c == inf && self.p.castled[s] < self.rules.castling_uses {
                acts.push(Action::Castle { feudal: h as u8, infantry: n });
            }
        }
        let size = self.rules.order_size as usize;
        if size > 0 {
            let radius = self.rules.order_radius as usize;
            let ready: Vec<u8> =
                g.within[h][radius].iter().copied().filter(|&i| self.p.sq[i as usize] == inf).collect();
            if ready.len() >= size {
                self.gen_orders(&ready, s, acts);
            }
        }
    }

    fn order_steps(&self, h: usize, s: usize) -> ([u8; 6], usize) {
        let mut out = [0u8; 6];
        let mut k = 0;
        for &n in &self.board.steps[h] {
            let c = self.p.sq[n as usize];
            if c == 0 || side_of(c) != s {
                out[k] = n;
                k += 1;
            }
        }
        (out, k)
    }

    /// Orders of `order_size` distinct ready infantry: for each in `ready` order, each of its steps,
    /// then (on the board after that step) the next infantry's steps, and so on.
    fn gen_orders(&mut self, ready: &[u8], s: usize, acts: &mut Vec<Action>) {
        let size = self.rules.order_size as usize;
        let start = acts.len();
        if size == 2 {
            for &a in ready {
                let au = a as usize;
                let (tas, nta) = self.order_steps(au, s);
                for &ta in &tas[..nta] {
                    let tu = ta as usize;
                    let captured = self.p.sq[tu];
                    self.p.sq[tu] = self.p.sq[au];
                    self.p.sq[au] = 0;
                    for &b in ready {
                        if b == a {
                            continue;
                        }
                        let (tbs, ntb) = self.order_steps(b as usize, s);
                        for &tb in &tbs[..ntb] {
                            acts.push(Action::order2(a, ta, 0, b, tb, 0));
                        }
                    }
                    self.p.sq[au] = self.p.sq[tu];
                    self.p.sq[tu] = captured;
                }
            }
        } else {
            let mut prefix = [[0u8; 3]; MAX_ORDER];
            self.order_rec(ready, s, size, &mut prefix, 0, acts);
        }
        let board = Arc::clone(&self.board);
        let prom = &board.promotes[s];
        let needs = |x: &Action| match x {
            Action::Order { n, steps } => steps.iter().take(*n as usize).any(|st| prom[st[1] as usize]),
            _ => false,
        };
        if acts[start..].iter().any(needs) {
            let old: Vec<Action> = acts.split_off(start);
            for x in old {
                if needs(&x) {
                    let ex = self.with_promotions(&x);
                    acts.extend(ex);
                } else {
                    acts.push(x);
                }
            }
        }
    }

    /// Order steps for any `order_size`: the same nesting as the unrolled size-2 loop.
    fn order_rec(
        &mut self,
        ready: &[u8],
        s: usize,
        left: usize,
        prefix: &mut [OrderStep; MAX_ORDER],
        depth: usize,
        acts: &mut Vec<Action>,
    ) {
        for &a in ready {
            if prefix[..depth].iter().any(|st| st[0] == a) {
                continue;
            }
            let au = a as usize;
            let (tas, nta) = self.order_steps(au, s);
            for &ta in &tas[..nta] {
                prefix[depth] = [a, ta, 0];
                if left == 1 {
                    let mut steps = [[0u8; 3]; MAX_ORDER];
                    steps[..=depth].copy_from_slice(&prefix[..=depth]);
                    acts.push(Action::Order { n: (depth + 1) as u8, steps });
                    continue;
                }
                let tu = ta as usize;
                let captured = self.p.sq[tu];
                self.p.sq[tu] = self.p.sq[au];
                self.p.sq[au] = 0;
                self.order_rec(ready, s, left - 1, prefix, depth + 1, acts);
                self.p.sq[au] = self.p.sq[tu];
                self.p.sq[tu] = captured;
            }
        }
    }

    fn gen_archer(&mut self, g: &Geometry, h: usize, s: usize, acts: &mut Vec<Action>) {
        let bd = &self.board;
        let melee = self.rules.archer_melee;
        for &n in &g.adjacent[h] {
            let c = self.p.sq[n as usize];
            if bd.walkable[n as usize] && (c == 0 || (melee && side_of(c) != s)) {
                acts.push(Action::Move { from: h as u8, to: n, promo: 0 });
            }
        }
        if bd.is_summer_ford[h] {
            return;
        }
        let current = self.marker_of(s, h).map_or(-1, |t| t as i32);
        for &t in bd.shot_targets[h].iter() {
            let c = self.p.sq[t as usize];
            if (c != 0 && side_of(c) == s) || t as i32 == current {
                continue;
            }
            if g.between[h * N_HEXES + t as usize].iter().all(|&b| self.p.sq[b as usize] == 0) {
                acts.push(Action::Shot { archer: h as u8, target: t });
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn gen_infantry(
        &mut self,
        g: &Geometry,
        h: usize,
        s: usize,
        zone: u128,
        mines: u128,
        acts: &mut Vec<Action>,
        own_zone: u128,
    ) {
        let out = self.infantry_targets(g, h, s, zone, mines, own_zone);
        for &t in out.iter() {
            let a = Action::Move { from: h as u8, to: t, promo: 0 };
            if self.board.promotes[s][t as usize] {
                let ex = self.with_promotions(&a);
                acts.extend(ex);
            } else {
                acts.push(a);
            }
        }
    }

    /// Final hexes of an infantryman's moves: steps (W6 for attacks) then aura moves (W5).
    fn infantry_targets(
        &self,
        g: &Geometry,
        h: usize,
        s: usize,
        zone: u128,
        mines: u128,
        own_zone: u128,
    ) -> Small<u8, 64> {
        let board = &*self.board;
        let walk = &board.walkable;
        let mut out: Small<u8, 64> = Small::new();
        for &n in &board.steps[h] {
            let c = self.p.sq[n as usize];
            if c == 0 {
                out.push(n);
            } else if side_of(c) != s {
                let k = c & 7;
                if k == ARCHER || k == INFANTRY || ((k == KNIGHT || k == CAVALRY) && has(own_zone, n as usize)) {
                    out.push(n);
                }
            }
        }
        if self.aura_active(h, s) {
            let stop = &board.stop_for[s];
            let step = self.rules.aura_step as usize;
            for d in 0..6 {
                let mut n = g.neighbours[h][d];
                if n == NONE {
                    continue;
                }
                let nu = n as usize;
                if !walk[nu] || self.p.sq[nu] != 0 || stop[nu] || has(zone, nu) || has(mines, nu) {
                    continue;
                }
                // Further along the axis: every hex passed is free; a stop hex ends the move there.
                for _ in 0..step - 1 {
                    n = g.neighbours[n as usize][d];
                    if n == NONE || !walk[n as usize] {
                        break;
                    }
                    let c = self.p.sq[n as usize];
                    if c != 0 {
                        if side_of(c) != s && w6_ok(c, n as usize, own_zone) {
                            out.push(n);
                        }
                        break;
                    }
                    out.push(n);
                    let nu = n as usize;
                    if stop[nu] || has(zone, nu) || has(mines, nu) {
                        break;
                    }
                }
            }
        }
        out
    }

    /// W5 with its parameters: within aura_radius of the own feudal now (and, with aura_memory, at
    /// the end of the side's previous turn: `aura_ready`), and aura_step above 1.
    fn aura_active(&self, h: usize, s: usize) -> bool {
        let f = self.p.feudal[s];
        let r = &self.rules;
        f >= 0
            && r.aura_step > 1
            && geo().distance[h][f as usize] <= r.aura_radius
            && (!r.aura_memory || has(self.p.aura_ready, h))
    }

    /// Final hexes of the knight's slides (W3), with the bridge passed or NONE.
    #[allow(clippy::too_many_arguments)]
    fn knight_targets(
        &self,
        g: &Geometry,
        h: usize,
        s: usize,
        zone: u128,
        mines: u128,
        directions: &[usize],
        out: &mut Vec<(u8, u8)>,
    ) {
        let bd = &self.board;
        let kwalk = &bd.knight_walkable;
        let stop = &bd.stop_for[s];
        for &d in directions {
            let ray = &g.rays[h][d];
            for (i, &n) in ray.iter().enumerate() {
                let nu = n as usize;
                let c = self.p.sq[nu];
                if c != 0 && side_of(c) == s {
                    break;
                }
                if bd.knight_bridge[nu] {
                    if has(mines, nu) {
                        out.push((n, NONE));
                        break;
                    }
                    if i + 1 >= ray.len() {
                        break;
                    }
                    let m = ray[i + 1];
                    let cm = self.p.sq[m as usize];
                    if kwalk[m as usize] && !(cm != 0 && side_of(cm) == s) {
                        out.push((m, n));
                    }
                    break;
                }
                if !kwalk[nu] {
                    break;
                }
                out.push((n, NONE));
                if c != 0 || has(zone, nu) || stop[nu] || has(mines, nu) {
                    break;
                }
            }
        }
    }

    /// Final hexes of the cavalry's 18 landings after W2 stops (W4), and how many.
    fn cavalry_targets(&self, g: &Geometry, h: usize, s: usize, zone: u128) -> ([u8; 18], usize) {
        let bd = &self.board;
        let swamp_stop = &bd.cavalry_stop_for[s];
        let enemy_pike = code(PIKEMAN, 1 - s);
        let mut seen = [0u8; 18];
        let mut n = 0;
        for path in &g.cavalry_compact[h][..g.cavalry_count[h] as usize] {
            let land = path[0];
            let mut fin = land;
            let exact_pike = self.p.sq[land as usize] == enemy_pike;
            for &i in &path[2..2 + path[1] as usize] {
                if swamp_stop[i as usize] || (!exact_pike && has(zone, i as usize)) {
                    fin = i;
                    break;
                }
            }
            let c = self.p.sq[fin as usize];
            if !bd.walkable[fin as usize] || (c != 0 && side_of(c) == s) || seen[..n].contains(&fin) {
                continue;
            }
            seen[n] = fin;
            n += 1;
        }
        (seen, n)
    }

    /// The promotion variants of an action (W13): one per kind in the pool after triggers 1-4.
    fn with_promotions(&mut self, action: &Action) -> Vec<Action> {
        let Some((promoting, pool)) = self.promotion_pool_after(action) else {
            return vec![*action];
        };
        match *action {
            Action::Move { from, to, .. } => {
                if promoting[0] {
                    let mut kinds = pool.clone();
                    kinds.sort_unstable();
                    kinds.dedup();
                    kinds.into_iter().map(|k| Action::Move { from, to, promo: k }).collect()
                } else {
                    vec![*action]
                }
            }
            Action::Order { n, steps } => {
                // Each promoting step takes a choice; a later step draws from what earlier ones left.
                let mut out = Vec::new();
                let mut prefix = [[0u8; 3]; MAX_ORDER];
                promo_extend(0, n as usize, &steps, &promoting, &mut prefix, &pool, &mut out);
                out
            }
            _ => vec![*action],
        }
    }

    /// (promoting flag per step, pool of kinds) judged after triggers 1-4; None for an empty pool.
    fn promotion_pool_after(&mut self, action: &Action) -> Option<(Vec<bool>, Vec<u8>)> {
        self.push();
        let saved_to_move = self.p.to_move;
        let saved_deaths = self.deaths.clone();
        let side = side_of(self.p.sq[action.first_hex().unwrap_or(0) as usize]);
        self.p.to_move = side as u8;
        let steps = self.perform(action, side);
        self.triggers_1_to_4(side, &steps);
        let inf = code(INFANTRY, side);
        let prom = &self.board.promotes[side];
        let promoting: Vec<u8> =
            steps.iter().filter(|&&(_, t)| prom[t as usize] && self.p.sq[t as usize] == inf).map(|&(_, t)| t).collect();
        let pool: Vec<u8> = self.destroyed(side).iter().copied().filter(|&k| k != FEUDAL).collect();
        self.pop();
        self.p.to_move = saved_to_move;
        self.deaths = saved_deaths;
        if pool.is_empty() {
            return None;
        }
        let flags = match *action {
            Action::Move { to, .. } => vec![promoting.contains(&to)],
            Action::Order { n, steps: st } => st.iter().take(n as usize).map(|x| promoting.contains(&x[1])).collect(),
            _ => vec![],
        };
        Some((flags, pool))
    }

    // ------------------------------------------------------------------ applying

    fn push(&mut self) {
        self.stack.push(self.p);
        // Everything fired from here until the matching pop is taken back by it.
        self.p.fired_start = self.fired_log.len() as u32;
    }

    /// Telemetry: `RULES[rule]` fired for `side` on hex `h` (-1: no hex).
    fn fire(&mut self, rule: u8, side: usize, h: i16) {
        self.p.counters[2 * rule as usize + side] += 1;
        self.fired_log.push((rule, side as u8, h));
    }

    fn pop(&mut self) {
        self.fired_log.truncate(self.p.fired_start as usize);
        if let Some(p) = self.stack.pop() {
            self.p = p;
        }
        self.zones = None;
    }

    /// Play an action (taken from `legal_actions`) and resolve its triggers.
    pub fn apply(&mut self, a: &Action) {
        self.apply_unchecked(a);
        self.history.push(*a);
    }

    /// Take back the last action exactly; None when nothing was played.
    pub fn undo(&mut self) -> Option<Action> {
        let a = self.history.pop()?;
        self.pop();
        self.cache = None;
        Some(a)
    }

    fn kill(&mut self, h: usize) {
        let c = self.p.sq[h];
        let side = side_of(c);
        let k = c & 7;
        self.p.sq[h] = 0;
        self.removed += 1;
        if k == FEUDAL {
            self.p.feudal[side] = -1;
            self.deaths.push(side);
        } else {
            let n = self.p.n_destroyed[side] as usize;
            if n < N_HEXES {
                self.p.destroyed[side][n] = k;
                self.p.n_destroyed[side] += 1;
            }
        }
        if k == ARCHER {
            self.remove_marker(side, h);
        }
        self.p.aura_ready &= !bit(h);
    }

    fn remove_marker(&mut self, side: usize, archer: usize) {
        let n = self.p.n_markers[side] as usize;
        if let Some(i) = self.p.markers[side][..n].iter().position(|&(a, _)| a as usize == archer) {
            self.p.markers[side].copy_within(i + 1..n, i);
            self.p.n_markers[side] -= 1;
        }
    }

    fn set_marker(&mut self, side: usize, archer: u8, target: u8) {
        let n = self.p.n_markers[side] as usize;
        if let Some(i) = self.p.markers[side][..n].iter().position(|&(a, _)| a == archer) {
            self.p.markers[side][i].1 = target;
        } else if n < MAX_MARKERS {
            self.p.markers[side][n] = (archer, target);
            self.p.n_markers[side] += 1;
        }
    }

    /// Markers of `side` on `t` that killed are used up.
    fn spend(&mut self, side: usize, t: usize) {
        let n = self.p.n_markers[side] as usize;
        let mut w = 0;
        for i in 0..n {
            let m = self.p.markers[side][i];
            if m.1 as usize != t {
                self.p.markers[side][w] = m;
                w += 1;
            }
        }
        self.p.n_markers[side] = w as u8;
    }

    fn move_piece(&mut self, a: usize, t: usize) {
        let c = self.p.sq[a];
        self.p.sq[t] = c;
        self.p.sq[a] = 0;
        if c & 7 == FEUDAL {
            self.p.feudal[side_of(c)] = t as i8;
        } else if c & 7 == ARCHER {
            self.remove_marker(side_of(c), a);
        }
        self.p.aura_ready &= !bit(a);
    }

    /// Carry out the action's movement; returns (code or -1, final hex) of each moved step.
    fn perform(&mut self, action: &Action, s: usize) -> Steps {
        let mut steps = Steps::new();
        match *action {
            Action::Move { from, to, .. } => {
                let (a, t) = (from as usize, to as usize);
                let c = self.p.sq[a];
                let k = c & 7;
                if k == KNIGHT || k == CAVALRY || k == INFANTRY {
                    self.fire_move_rules(a, t, s, k);
                }
                if k == KNIGHT && geo().distance[a][t] > 1 {
                    self.knight_bridge_kill(a, t, s);
                }
                self.strike(a, t, s);
                if self.p.sq[a] != 0 {
                    self.move_piece(a, t);
                    steps.push((c as i16, to));
                }
            }
            Action::Shot { archer, target } => {
                self.set_marker(s, archer, target);
                self.fire(R_SHOT, s, target as i16);
                if geo().distance[archer as usize][target as usize] > self.rules.archer_range {
                    self.fire(R_HILL_SHOT, s, target as i16);
                }
            }
            Action::Castle { feudal, infantry } => {
                let (f, i) = (feudal as usize, infantry as usize);
                let (fc, ic) = (self.p.sq[f], self.p.sq[i]);
                if self.rules.castling == Castling::Sacrifice {
                    self.kill(i);
                    self.p.sq[i] = fc;
                    self.p.sq[f] = 0;
                } else {
                    self.p.sq[f] = ic;
                    self.p.sq[i] = fc;
                }
                self.p.feudal[s] = i as i8;
                self.p.castled[s] = self.p.castled[s].saturating_add(1);
                self.fire(R_CASTLING, s, infantry as i16);
                steps.push((-1, feudal));
                steps.push((-1, infantry));
                self.p.aura_ready &= !(bit(f) | bit(i));
            }
            Action::Order { n, steps: os } => {
                self.fire(R_ORDER, s, -1);
                for st in os.iter().take(n as usize) {
                    let (a, t) = (st[0] as usize, st[1] as usize);
                    let c = self.p.sq[a];
                    self.strike(a, t, s);
                    self.move_piece(a, t);
                    steps.push((c as i16, st[1]));
                }
            }
            Action::Pass => self.fire(R_PASS, s, -1),
        }
        steps
    }

    /// Telemetry of a knight, cavalry or infantry move, before it happens (docs/rulings.md,
    /// "Rule-usage telemetry"): forced stops on an empty final hex, aura moves, zone attacks.
    fn fire_move_rules(&mut self, a: usize, t: usize, s: usize, k: u8) {
        let g = geo();
        let e = 1 - s;
        let c = self.p.sq[t];
        let summer_ford = self.board.is_summer_ford[t];
        let enemy_swamp = self.board.swamp_owner[t] == e as i8;
        if k == INFANTRY {
            if g.distance[a][t] > 1 {
                self.fire(R_AURA_MOVE, s, t as i16);
            }
            if c != 0 {
                if c & 7 == KNIGHT || c & 7 == CAVALRY {
                    self.fire(R_ZONE_ATTACK, s, t as i16);
                }
                return;
            }
            if (summer_ford || enemy_swamp) && self.aura_active(a, s) {
                if summer_ford {
                    self.fire(R_FORD_STOP, s, t as i16);
                }
                if enemy_swamp {
                    self.fire(R_SWAMP_STOP, s, t as i16);
                }
            }
            return;
        }
        if c != 0 {
            return;
        }
        if k == KNIGHT && g.distance[a][t] > 1 {
            let d = g.direction_to[a * N_HEXES + t] as usize;
            let ray = &g.rays[a][d];
            if let Some(i) = ray.iter().position(|&x| x as usize == t) {
                if i >= 1 && self.board.knight_bridge[ray[i - 1] as usize] {
                    self.fire(R_BRIDGE_STOP, s, t as i16);
                }
            }
        }
        let pike = code(PIKEMAN, e);
        if g.pike_zone[t].iter().any(|&p| self.p.sq[p as usize] == pike) {
            self.fire(R_ZONE_STOP, s, t as i16);
        }
        if enemy_swamp {
            self.fire(R_SWAMP_STOP, s, t as i16);
        }
    }

    /// Remove the enemy on `t` attacked from `a`; W15's mutual rule removes the attacker too.
    fn strike(&mut self, a: usize, t: usize, s: usize) {
        let target = self.p.sq[t];
        if target == 0 {
            return;
        }
        if self.rules.pike_cavalry_mutual {
            let (ka, kt) = (self.p.sq[a] & 7, target & 7);
            if (ka == CAVALRY && kt == PIKEMAN) || (ka == PIKEMAN && kt == CAVALRY) {
                self.fire(R_PIKE_CAVALRY_MUTUAL, s, t as i16);
                self.kill(t);
                self.kill(a);
                return;
            }
        }
        self.kill(t);
    }

    /// Section 2: an enemy standing on a bridge the knight passes is killed in passing.
    fn knight_bridge_kill(&mut self, a: usize, t: usize, s: usize) {
        let g = geo();
        for ray in g.rays[a].iter() {
            if let Some(i) = ray.iter().position(|&x| x as usize == t) {
                if i >= 1 {
                    let b = ray[i - 1] as usize;
                    let c = self.p.sq[b];
                    if self.board.knight_bridge[b] && c != 0 && side_of(c) != s {
                        self.kill(b);
                    }
                }
                return;
            }
        }
    }

    fn triggers_1_to_4(&mut self, s: usize, steps: &[(i16, u8)]) {
        let e = 1 - s;
        // (1) mines
        if self.p.n_markers[e] > 0 {
            for &(c, t) in steps {
                let tu = t as usize;
                if self.p.sq[tu] as i16 == c && has(self.marked_by(e), tu) {
                    self.fire(R_MINE_KILL, e, tu as i16);
                    self.kill(tu);
                    self.spend(e, tu);
                }
            }
        }
        let mut touched: Small<u8, { MAX_ORDER + 1 }> = Small::new();
        for &(_, t) in steps.iter() {
            touched.push(t);
        }
        self.triggers_2_3(&touched);
        // (4) ultimatums placed before this turn
        if self.p.pending != 0 {
            for t in 0..N_HEXES {
                if !has(self.p.pending, t) {
                    continue;
                }
                let c = self.p.sq[t];
                if c != 0 && side_of(c) == s && has(self.marked_by(e), t) {
                    self.fire(R_ULTIMATUM_KILL, e, t as i16);
                    self.kill(t);
                    self.spend(e, t);
                }
            }
        }
    }

    fn triggers_2_3(&mut self, touched: &[u8]) {
        if !self.p.settled {
            self.triggers_2_3_everywhere();
            self.p.settled = true;
            return;
        }
        let g = geo();
        let mut doomed: Vec<u8> = Vec::new();
        for &t in touched {
            let c = self.p.sq[t as usize];
            if c == 0 {
                continue;
            }
            let side = side_of(c);
            for &n in &g.adjacent[t as usize] {
                let cn = self.p.sq[n as usize];
                if cn != 0 && side_of(cn) != side {
                    if cn & 7 == ARCHER && !doomed.contains(&n) {
                        doomed.push(n);
                    }
                    if c & 7 == ARCHER && !doomed.contains(&t) {
                        doomed.push(t);
                    }
                }
            }
        }
        for h in doomed {
            let side = side_of(self.p.sq[h as usize]);
            self.fire(R_ARCHER_MELEE_DEATH, side, h as i16);
            self.kill(h as usize);
        }
        let mut candidates: u128 = 0;
        for &t in touched {
            let c = self.p.sq[t as usize];
            if c == 0 {
                continue;
            }
            if COORD_TARGET[(c & 7) as usize] {
                candidates |= bit(t as usize);
            } else if c & 7 == INFANTRY {
                let side = side_of(c);
                for &n in &g.adjacent[t as usize] {
                    let cn = self.p.sq[n as usize];
                    if cn != 0 && side_of(cn) != side && COORD_TARGET[(cn & 7) as usize] {
                        candidates |= bit(n as usize);
                    }
                }
            }
        }
        if candidates != 0 {
            let list: Vec<u8> = (0..N_HEXES).filter(|&h| has(candidates, h)).map(|h| h as u8).collect();
            self.coordinated(&list);
        }
    }

    /// Coordinated attacks on `targets` one at a time in board order (ruling 6).
    fn coordinated(&mut self, targets: &[u8]) {
        let g = geo();
        for &h in targets {
            let hu = h as usize;
            let c = self.p.sq[hu];
            if c == 0 || !COORD_TARGET[(c & 7) as usize] {
                continue;
            }
            let enemy_inf = code(INFANTRY, 1 - side_of(c));
            let mut first: i32 = -1;
            let mut count = 0;
            for &n in &g.adjacent[hu] {
                if self.p.sq[n as usize] == enemy_inf {
                    count += 1;
                    if first < 0 || (n as i32) < first {
                        first = n as i32;
                    }
                }
            }
            if count >= self.rules.coordinated as usize {
                self.fire(R_COORDINATED_KILL, 1 - side_of(c), hu as i16);
                self.kill(hu);
                self.kill(first as usize);
            }
        }
    }

    fn triggers_2_3_everywhere(&mut self) {
        let g = geo();
        let occupied: Vec<u8> = (0..N_HEXES).filter(|&h| self.p.sq[h] != 0).map(|h| h as u8).collect();
        let mut doomed = Vec::new();
        for &h in &occupied {
            let c = self.p.sq[h as usize];
            if c & 7 == ARCHER {
                let side = side_of(c);
                if g.adjacent[h as usize].iter().any(|&n| {
                    let cn = self.p.sq[n as usize];
                    cn != 0 && side_of(cn) != side
                }) {
                    doomed.push(h);
                }
            }
        }
        for h in doomed {
            let side = side_of(self.p.sq[h as usize]);
            self.fire(R_ARCHER_MELEE_DEATH, side, h as i16);
            self.kill(h as usize);
        }
        self.coordinated(&occupied);
    }

    fn apply_unchecked(&mut self, action: &Action) {
        self.push();
        self.cache = None;
        let s = self.p.to_move as usize;
        let e = 1 - s;
        self.deaths.clear();
        self.removed = 0;
        self.zones = None;
        let steps = self.perform(action, s);
        self.triggers_1_to_4(s, &steps);
        // (5) promotion, chosen as part of the action
        let proms: Vec<(u8, u8)> = match *action {
            Action::Move { to, promo, .. } if promo != 0 => vec![(to, promo)],
            Action::Order { n, steps: os } if os.iter().take(n as usize).any(|x| x[2] != 0) => {
                os.iter().take(n as usize).map(|x| (x[1], x[2])).collect()
            }
            _ => Vec::new(),
        };
        if !proms.is_empty() {
            let inf = code(INFANTRY, s);
            let mut promoted = false;
            for &(t, k) in &proms {
                if k != 0 && self.p.sq[t as usize] == inf {
                    let n = self.p.n_destroyed[s] as usize;
                    if let Some(i) = self.p.destroyed[s][..n].iter().position(|&x| x == k) {
                        self.p.destroyed[s].copy_within(i + 1..n, i);
                        self.p.n_destroyed[s] -= 1;
                    }
                    self.p.sq[t as usize] = code(k, s);
                    promoted = true;
                    self.fire(R_PROMOTION, s, t as i16);
                    self.fire(r_promotion_kind(k), s, t as i16);
                }
            }
            if promoted {
                let touched: Vec<u8> = proms.iter().map(|&(t, _)| t).collect();
                self.triggers_2_3(&touched);
            }
        }
        self.zones = None;
        // (6) victory: a destroyed feudal first, then castle capture: a piece that ended this
        // action on the enemy centre (one already standing there in a set-up wins nothing).
        if let Some(&d) = self.deaths.first() {
            self.p.winner = (1 - d) as i8;
            self.p.victory = Some(Victory::Destroyed);
        } else {
            let centre = self.board.castle_centre[e];
            let c = self.p.sq[centre];
            if c != 0 && side_of(c) == s && steps.iter().any(|&(_, t)| t as usize == centre) {
                self.p.winner = s as i8;
                self.p.victory = Some(Victory::Castle);
            }
        }
        // bookkeeping for the next turn
        let g = geo();
        let f = self.p.feudal[s];
        let inf = code(INFANTRY, s);
        let inf_e = code(INFANTRY, e);
        let mut ready: u128 = 0;
        let mut rest = self.p.aura_ready;
        while rest != 0 {
            let h = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            if self.p.sq[h] == inf_e {
                ready |= bit(h);
            }
        }
        if f >= 0 {
            for &h in &g.within[f as usize][self.rules.aura_radius as usize] {
                if self.p.sq[h as usize] == inf {
                    ready |= bit(h as usize);
                }
            }
        }
        self.p.aura_ready = ready;
        let mut pending: u128 = 0;
        for &(_, t) in self.markers(s) {
            let c = self.p.sq[t as usize];
            if c != 0 && side_of(c) == e {
                pending |= bit(t as usize);
            }
        }
        self.p.pending = pending;
        self.p.quiet = if self.removed > 0 { 0 } else { self.p.quiet + 1 };
        self.p.ply += 1;
        self.p.to_move = e as u8;
        if self.p.victory.is_none() {
            // The start of e's turn: the W10 threat test (telemetry "threat"), then the mate test;
            // a win, checkmate included, beats draw_after (section 8).
            let fe = self.p.feudal[e];
            if self.mate_depth < MAX_MATE_DEPTH && fe >= 0 && self.is_threatened(e) {
                self.fire(R_THREAT, e, fe as i16);
                if !self.has_parry(e) {
                    self.p.winner = s as i8;
                    self.p.victory = Some(Victory::Checkmate);
                }
            }
            if self.p.victory.is_none() && self.rules.draw_after.is_some_and(|d| self.p.quiet >= d) {
                self.p.victory = Some(Victory::Draw);
            }
        }
    }

    // ------------------------------------------------------------------ threat and mate (W10)

    /// W10: could the opponent, given the move now, leave `side`'s feudal dead?
    pub fn is_threatened(&mut self, side: usize) -> bool {
        let g = geo();
        let f = self.p.feudal[side];
        if f < 0 {
            return false;
        }
        let f = f as usize;
        let e = 1 - side;
        let inf_e = code(INFANTRY, e);
        let need = self.rules.coordinated as usize;
        let adjacent_inf = g.adjacent[f].iter().filter(|&&n| self.p.sq[n as usize] == inf_e).count();
        if adjacent_inf >= need {
            let acts = self.generate(e, None);
            return self.threat_by_search(side, &acts);
        }
        let melee = self.rules.archer_melee;
        let zone_side = self.zone(side);
        for &h in &g.within[f][3] {
            let hu = h as usize;
            let c = self.p.sq[hu];
            if c == 0 || side_of(c) != e {
                continue;
            }
            let k = c & 7;
            if k == PIKEMAN || (k == ARCHER && melee) {
                if g.distance[hu][f] == 1 {
                    return true;
                }
            } else if k == CAVALRY && g.cavalry_reach[f * N_HEXES + hu] && {
                let (seen, n) = self.cavalry_targets(g, hu, e, zone_side);
                seen[..n].contains(&(f as u8))
            } {
                return true;
            }
        }
        let kn = code(KNIGHT, e);
        let mines = self.marked_by(side);
        let mut tg = Vec::new();
        for h in 0..N_HEXES {
            if self.p.sq[h] != kn {
                continue;
            }
            let d = g.direction_to[f * N_HEXES + h];
            if d == NONE {
                continue;
            }
            tg.clear();
            self.knight_targets(g, h, e, zone_side, mines, &[((d + 3) % 6) as usize], &mut tg);
            if tg.iter().any(|&(t, passed)| t as usize == f || passed as usize == f) {
                return true;
            }
        }
        let fe = self.p.feudal[e];
        let mut candidates: Vec<Action> = Vec::new();
        // An infantryman ends at most aura_step hexes away (1 without the aura), so only those within
        // aura_step + 1 of the feudal can end next to it.
        let reach = (self.rules.aura_step.max(2) as usize + 1).min(crate::terrafeud::geometry::MAX_DISTANCE);
        let near: Vec<u8> = g.within[f][reach].iter().copied().filter(|&h| self.p.sq[h as usize] == inf_e).collect();
        if fe >= 0 && !near.is_empty() {
            let fe = fe as usize;
            let size = self.rules.order_size as usize;
            let radius = self.rules.order_radius as usize;
            let ready: Vec<u8> = if size > 0 {
                g.within[fe][radius].iter().copied().filter(|&i| self.p.sq[i as usize] == inf_e).collect()
            } else {
                Vec::new()
            };
            let mut orders: Vec<Action> = Vec::new();
            if size > 0 && ready.len() >= size && ready.iter().any(|&i| g.distance[i as usize][f] <= 2) {
                self.gen_orders(&ready, e, &mut orders);
                let hits = orders.iter().any(|a| match a {
                    Action::Order { n, steps } => steps.iter().take(*n as usize).any(|s| s[1] as usize == f),
                    _ => false,
                });
                if hits {
                    return true;
                }
            }
            if adjacent_inf + 1 == need {
                for &h in &near {
                    for a in self.generate(e, Some(h as usize)) {
                        if let Some(t) = a.second_hex() {
                            if g.distance[t as usize][f] == 1 {
                                candidates.push(a);
                            }
                        }
                    }
                }
                if g.distance[fe][f] <= 3 {
                    for a in self.generate(e, Some(fe)) {
                        if let Action::Castle { feudal, .. } = a {
                            if g.distance[feudal as usize][f] == 1 {
                                candidates.push(a);
                            }
                        }
                    }
                }
            }
            for a in &orders {
                if let Action::Order { n, steps } = a {
                    let adj = steps.iter().take(*n as usize).filter(|s| g.distance[s[1] as usize][f] == 1).count();
                    if adj + adjacent_inf >= need {
                        candidates.push(*a);
                    }
                }
            }
        }
        if candidates.is_empty() {
            false
        } else {
            self.threat_by_search(side, &candidates)
        }
    }

    fn threat_by_search(&mut self, side: usize, actions: &[Action]) -> bool {
        let saved = self.p.to_move;
        self.p.to_move = (1 - side) as u8;
        self.mate_depth += 10;
        let mut found = false;
        for a in actions {
            self.apply_unchecked(a);
            let dead = self.p.feudal[side] < 0;
            self.pop();
            if dead {
                found = true;
                break;
            }
        }
        self.mate_depth -= 10;
        self.p.to_move = saved;
        self.cache = None;
        found
    }

    /// W10: at the start of `side`'s turn, threatened and no parry (feudal's own, or any).
    pub fn is_checkmated(&mut self, side: usize) -> bool {
        if self.p.feudal[side] < 0 || !self.is_threatened(side) {
            return false;
        }
        !self.has_parry(side)
    }

    /// W10, for a threatened `side`: some defence leaves the feudal out of threat (or wins).
    fn has_parry(&mut self, side: usize) -> bool {
        let f = self.p.feudal[side] as usize;
        let defences: Vec<Action> = if self.rules.mate_defence == MateDefence::Any {
            self.generate(side, None)
        } else {
            self.generate(side, Some(f)).into_iter().filter(|a| !matches!(a, Action::Order { .. })).collect()
        };
        let saved = self.p.to_move;
        self.p.to_move = side as u8;
        self.mate_depth += 1;
        let mut parried = false;
        for a in &defences {
            self.apply_unchecked(a);
            let ok =
                if self.p.victory.is_some() { self.p.winner != (1 - side) as i8 } else { !self.is_threatened(side) };
            self.pop();
            if ok {
                parried = true;
                break;
            }
        }
        self.mate_depth -= 1;
        self.p.to_move = saved;
        self.cache = None;
        parried
    }
}

/// Python's nested `extend` of `_with_promotions` for Orders: step `i` takes each kind left in
/// `rest` (sorted, distinct) when it promotes, else 0.
fn promo_extend(
    i: usize,
    n: usize,
    steps: &[OrderStep; MAX_ORDER],
    promoting: &[bool],
    prefix: &mut [OrderStep; MAX_ORDER],
    rest: &[u8],
    out: &mut Vec<Action>,
) {
    if i == n {
        out.push(Action::Order { n: n as u8, steps: *prefix });
        return;
    }
    let mut kinds: Vec<u8> = if promoting[i] { rest.to_vec() } else { Vec::new() };
    kinds.sort_unstable();
    kinds.dedup();
    if kinds.is_empty() {
        kinds.push(0);
    }
    for k in kinds {
        let mut left = rest.to_vec();
        if k != 0 {
            if let Some(j) = left.iter().position(|&x| x == k) {
                left.remove(j);
            }
        }
        prefix[i] = [steps[i][0], steps[i][1], k];
        promo_extend(i + 1, n, steps, promoting, prefix, &left, out);
    }
}

/// The classic start (section 3): White's setup from the data file, Black the same-file mirror.
pub fn classic_setup() -> Setup {
    use crate::terrafeud::geometry::parse_hex;
    let white: [(u8, &[&str]); 6] = [
        (FEUDAL, &["f1"]),
        (KNIGHT, &["f3"]),
        (PIKEMAN, &["e2", "g2"]),
        (ARCHER, &["d2", "h2"]),
        (CAVALRY, &["b1", "k1"]),
        (INFANTRY, &["a1", "c2", "e3", "g3", "i2", "l1"]),
    ];
    let g = geo();
    let mut squares = vec![0u8; N_HEXES];
    for (kind, hexes) in white {
        for name in hexes {
            let h = parse_hex(name).expect("classic hex");
            squares[h] = code(kind, WHITE);
            let (q, y) = g.qy[h];
            let m = g.qy.iter().position(|&p| p == (q, 20 - y)).expect("mirror hex");
            squares[m] = code(kind, BLACK);
        }
    }
    Setup { squares, ..Setup::default() }
}

/// Number of action sequences of length `depth` (a finished game counts as a leaf), as `perft.py`.
/// Stops early (returning a partial count) when `interrupt::poll` says so.
pub fn perft(st: &mut State, depth: u32) -> u64 {
    if crate::core::interrupt::poll() {
        return 0;
    }
    if depth == 0 || st.is_terminal() {
        return 1;
    }
    let acts = st.legal_actions();
    if depth == 1 {
        return acts.len() as u64;
    }
    let mut total = 0;
    for a in &acts {
        st.apply(a);
        total += perft(st, depth - 1);
        st.undo();
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::terrafeud::geometry::parse_hex;

    fn state(winter: bool, terrain: bool, rules: Rules) -> State {
        let h = |n: &str| parse_hex(n);
        let (hills, swamps) = if terrain { ([h("e4"), h("e7")], [h("b3"), h("b5")]) } else { ([None; 2], [None; 2]) };
        let board = Board::classic(winter, hills, swamps, &rules);
        State::new(Arc::new(board), Arc::new(rules), &classic_setup())
    }

    // The stored perft table (workbench/games/terrafeud/data/perft.json), counted by the Python engine.
    #[test]
    fn perft_stops_when_interrupted_and_leaves_the_state_whole() {
        fn stop() -> bool {
            true
        }
        let mut st = state(false, false, Rules::default());
        let full = perft(&mut st, 3);
        // the hook is asked once `interrupt::INTERVAL` has passed: depth 6 would take minutes
        let t0 = std::time::Instant::now();
        let (_, stopped) = crate::core::interrupt::guarded(stop, || perft(&mut st, 6));
        assert!(stopped && t0.elapsed() < std::time::Duration::from_secs(1));
        assert_eq!(perft(&mut st, 3), full, "every apply was undone on the way out");
    }

    #[test]
    fn perft_matches_the_python_engine() {
        assert_eq!(
            (1..=3).map(|d| perft(&mut state(false, false, Rules::default()), d)).collect::<Vec<_>>(),
            vec![53, 2808, 157183]
        );
        assert_eq!(perft(&mut state(false, true, Rules::default()), 3), 157077);
        assert_eq!(perft(&mut state(true, true, Rules::default()), 3), 197343);
        assert_eq!(perft(&mut state(true, false, Rules::default()), 2), 3248);
    }

    #[test]
    fn undo_restores_everything_and_counters_follow_fired() {
        let mut st = state(false, true, Rules::default());
        let start = (*st.squares(), st.counters().to_vec(), st.ply());
        let mut rng = crate::core::pyrandom::PyRandom::new(5);
        for _ in 0..60 {
            if st.is_terminal() {
                break;
            }
            let acts = st.legal_actions();
            let a = acts[rng.choice_index(acts.len()).unwrap()];
            let before = st.counters().to_vec();
            st.apply(&a);
            let mut fired_count = vec![0u32; before.len()];
            for &(r, s, _) in st.fired() {
                fired_count[2 * r as usize + s as usize] += 1;
            }
            for i in 0..before.len() {
                assert_eq!(st.counters()[i], before[i] + fired_count[i], "counter {i} moves by what fired");
            }
        }
        while st.undo().is_some() {}
        assert_eq!((*st.squares(), st.counters().to_vec(), st.ply()), start);
        assert!(st.fired().is_empty());
    }

    #[test]
    fn order_size_and_castling_parameters_change_the_actions() {
        let count = |rules: Rules| {
            let mut st = state(false, false, rules);
            let acts = st.legal_actions();
            (
                acts.iter().filter(|a| matches!(a, Action::Order { .. })).count(),
                acts.iter().filter(|a| matches!(a, Action::Castle { .. })).count(),
            )
        };
        let (orders, castles) = count(Rules::default());
        assert_eq!((orders, castles), (0, 0), "no infantryman within 2 of f1 at the start, none beside it");
        let (wide, _) = count(Rules { order_radius: 3, ..Rules::default() });
        let (wide_none, _) = count(Rules { order_radius: 3, order_size: 0, ..Rules::default() });
        let (wide_single, _) = count(Rules { order_radius: 3, order_size: 1, ..Rules::default() });
        assert!(wide > 0, "order_radius=3 reaches e3 and g3");
        assert_eq!(wide_none, 0);
        assert!(wide_single > 0 && wide_single != wide);
    }

    #[test]
    fn actions_round_trip_through_their_tuples() {
        let mut st = state(false, true, Rules::default());
        for a in st.legal_actions() {
            let v: Vec<i64> = a.to_vec().into_iter().map(i64::from).collect();
            assert_eq!(Action::from_slice(&v), Some(a));
        }
        assert_eq!(Action::from_slice(&[0, 91, 3, 0]), None);
        assert_eq!(Action::from_slice(&[3, 1, 2]), None);
    }
}
