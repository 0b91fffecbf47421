//! The big-chess position and its rules (`state.py`, contract sections 6-13), ported line for line:
//! generation (the same actions, listed in the same code-point order of their canonical strings,
//! B38), application, undo by snapshot, the counters and `fired`, the evaluation and move ordering.
//!
//! An action is its dense int (`GameDef.action_to_int`); the legal list is built once per position as
//! descriptors (`D`, what `_legal_map` holds) sorted by their canonical text, and kept with the undo
//! snapshot, as the Python state keeps `_legal` in its history.

use std::cell::RefCell;
use std::sync::Arc;

use super::cards::{dir_index, quantize, AREA, FACING_NAMES, LEAP, MOVE, SLIDE, STRIKE, TAKE};
use super::context::{
    no_shadow, path_ok, standable_not, Context, Start, ALTAR, FOREST, LETTERS, MINE, PORTAL, ROCK, SAND, SWAMP,
};
use crate::core::protocol::{Game, TERMINAL};

/// Counter names in `state.COUNTERS` order; `fired` entries name them by index.
pub const COUNTERS: [&str; 28] = [
    "move",
    "strike",
    "take",
    "push",
    "area",
    "purchase",
    "transformation",
    "prince_buy",
    "prince_approach",
    "veterancy",
    "promotion",
    "shadow_placed",
    "shadow_strike",
    "jester_block",
    "altar",
    "portal",
    "mine_income",
    "team_lock",
    "king_loss_strike",
    "king_loss_take",
    "king_loss_area",
    "king_loss_altar",
    "succession",
    "elimination",
    "pass",
    "setup_place",
    "setup_remove",
    "setup_relocate",
];
pub const NC: usize = COUNTERS.len();
const C_MOVE: usize = 0;
const C_STRIKE: usize = 1;
const C_TAKE: usize = 2;
const C_PUSH: usize = 3;
const C_AREA: usize = 4;
const C_PURCHASE: usize = 5;
const C_TRANSFORM: usize = 6;
const C_PBUY: usize = 7;
const C_APPROACH: usize = 8;
const C_VET: usize = 9;
const C_PROMOTION: usize = 10;
const C_SHADOW_PLACED: usize = 11;
const C_SHADOW_STRIKE: usize = 12;
const C_JESTER: usize = 13;
const C_ALTAR: usize = 14;
const C_PORTAL: usize = 15;
const C_MINE: usize = 16;
const C_LOCK: usize = 17;
const C_KING_LOSS: usize = 18; // + cause: strike, take, area, altar
const C_SUCCESSION: usize = 22;
const C_ELIMINATION: usize = 23;
const C_PASS: usize = 24;
const C_SETUP_PLACE: usize = 25;
const C_SETUP_REMOVE: usize = 26;
const C_SETUP_RELOC: usize = 27;
const CAUSE_STRIKE: u8 = 0;
const CAUSE_TAKE: u8 = 1;
const CAUSE_AREA: u8 = 2;
const CAUSE_ALTAR: u8 = 3;

/// `result`
pub const R_NONE: u8 = 0;
pub const R_WIN: u8 = 1;
pub const R_DRAW: u8 = 2;

/// One piece (`state.Piece`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Piece {
    pub owner: u8,
    pub card: u16,
    pub facing: u8,
    pub moved: bool,
    pub levels: u32,
    pub cost: i64,
    pub trophies: i64,
    pub travelled: i64,
}

/// An action's descriptor (`_legal_map`'s tuples); `promo` is 0 or 1 + an index into `Context::promo`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum D {
    Place { p: u8, k: u16, c: u16, f: u8 },
    Remove { p: u8, s: u16 },
    Reloc { p: u8, s: u16, c: u16 },
    Ready { p: u8 },
    Move { s: u16, c: u16, keep: bool, shadow: bool, approach: bool, promo: u8 },
    Strike { s: u16, c: u16, keep: bool, pawn: i32, promo: u8 },
    Take { s: u16, c: u16 },
    Area { s: u16 },
    Push { s: u16, c: u16, b: u16, keep: bool },
    Buy { k: u16, c: u16, f: u8 },
    Transform { k: u16, c: u16, f: u8, price: i64 },
    Pbuy { c: u16 },
    Pass,
    Vet { s: u16, lv: u8, price: i64 },
}

/// A legal action: its sort key (the first 16 bytes of its text), dense id and descriptor.
#[derive(Clone, Copy, Debug)]
pub struct Act {
    key: u128,
    pub id: u32,
    pub d: D,
}

/// The mutable position (what `_snapshot` saves).
#[derive(Clone, Debug)]
pub struct Core {
    pub setup: bool,
    pub to_move: usize,
    pub turn_no: i64,
    pub quiet: i64,
    pub treasury: Vec<i64>,
    pub pieces: Vec<Option<Piece>>,
    /// (shadow cell, pawn cell)
    pub shadows: Vec<(u16, u16)>,
    pub protected: u32,
    pub locks: Vec<(u8, u8)>,
    pub out: u32,
    pub ready: u32,
    pub winner_team: i32,
    pub result: u8,
    pub moves: u64,
    /// `counts[name * players + p]`
    pub counts: Vec<i64>,
    /// `buys[card * players + p]`, and whether a card's key is in the Python dict
    pub buys: Vec<i64>,
    pub bought: Vec<bool>,
    pub lead10: Option<Vec<i64>>,
    /// (counter index, player, cell or -1)
    pub fired: Vec<(u8, u8, i32)>,
}

type Legal = Arc<Vec<Act>>;

/// A big-chess state: the shared context, the position, the undo stack and the cached legal list.
pub struct State {
    pub ctx: Arc<Context>,
    pub c: Core,
    history: Vec<(Core, Option<Legal>)>,
    legal: RefCell<Option<Legal>>,
    /// false on a fork (MCTS simulations, random playouts): no undo snapshot is kept
    record: bool,
    /// Learned weights of [`State::features`] an agent searches with (`eval=NAME`); `None`: the hand evaluation.
    pub weights: Option<Arc<[f64]>>,
}

impl Clone for State {
    fn clone(&self) -> Self {
        State {
            ctx: self.ctx.clone(),
            c: self.c.clone(),
            history: self.history.clone(),
            legal: RefCell::new(self.legal.borrow().clone()),
            record: self.record,
            weights: self.weights.clone(),
        }
    }
}

/// Offsets of the dense action space's parts (`_part_sizes`), or None past u32.
pub fn part_offsets(n: u64, k: u64, t: u64) -> Option<[u64; 11]> {
    let sizes = [4 * n * n * (t + 1), n, k * n, n, n * 32, 1, 25 * k * n * 9, 25 * n, 25 * n * n, 25];
    let mut offs = [0u64; 11];
    for i in 0..10 {
        offs[i + 1] = offs[i] + sizes[i];
    }
    (offs[10] <= u32::MAX as u64).then_some(offs)
}

struct Buf(Vec<u8>);
impl Buf {
    fn s(&mut self, t: &str) {
        self.0.extend_from_slice(t.as_bytes());
    }
    fn b(&mut self, c: u8) {
        self.0.push(c);
    }
    fn num(&mut self, v: i64) {
        self.s(&v.to_string());
    }
}

fn key_of(t: &[u8]) -> u128 {
    let mut k = 0u128;
    for i in 0..16 {
        k = (k << 8) | *t.get(i).unwrap_or(&0) as u128;
    }
    k
}

impl State {
    /// An empty setup-phase position (every treasury = `king_cost`).
    pub fn empty(ctx: Arc<Context>) -> State {
        let np = ctx.players.len();
        let nk = ctx.cards.len();
        let c = Core {
            setup: true,
            to_move: 0,
            turn_no: 0,
            quiet: 0,
            treasury: vec![ctx.rules.king_cost; np],
            pieces: vec![None; ctx.n],
            shadows: Vec::new(),
            protected: 0,
            locks: Vec::new(),
            out: 0,
            ready: 0,
            winner_team: -1,
            result: R_NONE,
            moves: 0,
            counts: vec![0; NC * np],
            buys: vec![0; nk * np],
            bought: vec![false; nk],
            lead10: None,
            fired: Vec::new(),
        };
        State { ctx, c, history: Vec::new(), legal: RefCell::new(None), record: true, weights: None }
    }

    /// `GameDef.new_initial_state`: the setup phase, the army start, or deployed by `deploy_plan`.
    pub fn new_game(ctx: Arc<Context>) -> Result<State, String> {
        let mut st = State::empty(ctx.clone());
        match ctx.rules.start {
            Start::Setup => {}
            Start::Army => {
                const ARMY: [(&str, i32, i32); 13] = [
                    ("king", 5, 11),
                    ("rook", 0, 11),
                    ("rook", 11, 11),
                    ("knight", 1, 11),
                    ("knight", 10, 11),
                    ("lbishop", 2, 11),
                    ("lbishop", 9, 11),
                    ("infantry", 3, 10),
                    ("infantry", 4, 10),
                    ("infantry", 5, 10),
                    ("infantry", 6, 10),
                    ("infantry", 7, 10),
                    ("infantry", 8, 10),
                ];
                for p in 0..ctx.players.len() {
                    let letter = ctx.players[p];
                    let mut spent = 0;
                    for &(key, x, y) in &ARMY {
                        let (x, y) = if letter != 0 { (ctx.w - 1 - x, ctx.h - 1 - y) } else { (x, y) };
                        let k = ctx.card_index(key).ok_or_else(|| format!("start=army needs the card {key}"))?;
                        let card = &ctx.cards[k];
                        let f = if card.vector { ctx.facing[letter as usize] } else { 0 };
                        let c = (y * ctx.w + x) as usize;
                        if c >= ctx.n {
                            return Err("start=army: the army does not fit the board".into());
                        }
                        st.c.pieces[c] = Some(Piece {
                            owner: p as u8,
                            card: k as u16,
                            facing: f,
                            moved: false,
                            levels: 0,
                            cost: ctx.cost[k],
                            trophies: 0,
                            travelled: 0,
                        });
                        spent += if card.king { 0 } else { ctx.cost[k] };
                    }
                    st.c.treasury[p] = (ctx.rules.king_cost - spent).max(0);
                }
                st.c.ready = (1u32 << ctx.players.len()) - 1;
                st.maybe_start_play();
            }
            Start::Deployed => {
                let plan = ctx.rules.deploy_plan.clone();
                st.setup_armies(&plan);
                st.history.clear();
                st.c.moves = 0;
                st.c.fired.clear();
                st.c.counts.iter_mut().for_each(|v| *v = 0);
            }
        }
        Ok(st)
    }

    /// `setup_armies`: each unready player puts its King on the zone cell nearest the zone's centre, then
    /// the plan's cards while its treasury allows (each on the free zone cell nearest the King), then ready.
    pub fn setup_armies(&mut self, plan: &[String]) {
        let ctx = self.ctx.clone();
        for p in 0..ctx.players.len() {
            if !self.c.setup || self.c.ready >> p & 1 == 1 || self.c.out >> p & 1 == 1 {
                continue;
            }
            let letter = ctx.players[p];
            let zone = &ctx.zones[letter as usize];
            let cx = zone.iter().map(|&c| ctx.x(c as usize) as f64).sum::<f64>() / zone.len() as f64;
            let cy = zone.iter().map(|&c| ctx.y(c as usize) as f64).sum::<f64>() / zone.len() as f64;
            let mut order: Vec<(f64, u16)> = zone
                .iter()
                .map(|&c| {
                    let dx = ctx.x(c as usize) as f64 - cx;
                    let dy = ctx.y(c as usize) as f64 - cy;
                    (dx.powi(2) + dy.powi(2), c)
                })
                .collect();
            order.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            if self.king_cell(p).is_none() {
                self.apply_desc(D::Place { p: p as u8, k: ctx.king as u16, c: order[0].1, f: 0 });
            }
            let king = self.king_cell(p).expect("the King was placed");
            let face = ctx.facing[letter as usize];
            for key in plan {
                let Some(k) = ctx.card_index(key) else { continue };
                let mut free: Vec<u16> =
                    zone.iter().copied().filter(|&c| self.c.pieces[c as usize].is_none()).collect();
                free.sort_by_key(|&c| (ctx.dist(c as usize, king), c));
                if free.is_empty() || ctx.cost[k] > self.c.treasury[p] {
                    continue;
                }
                let f = if ctx.cards[k].vector { face } else { 0 };
                self.apply_desc(D::Place { p: p as u8, k: k as u16, c: free[0], f });
            }
            self.apply_desc(D::Ready { p: p as u8 });
        }
    }

    pub fn np(&self) -> usize {
        self.ctx.players.len()
    }

    fn is_out(&self, p: usize) -> bool {
        self.c.out >> p & 1 == 1
    }

    fn enemy(&self, p: usize, q: usize) -> bool {
        self.ctx.team_of[p] != self.ctx.team_of[q]
    }

    /// `may_attack_owner`: enemy, not protected, no team-mate's lock on it.
    pub fn may_attack_owner(&self, p: usize, q: usize) -> bool {
        let t = &self.ctx.team_of;
        if t[p] == t[q] || self.c.protected >> q & 1 == 1 {
            return false;
        }
        !self.c.locks.iter().any(|&(a, b)| b as usize == q && a as usize != p && t[a as usize] == t[p])
    }

    /// `may_attack` (8.6): the owner rule, and the piece not untouchable.
    pub fn may_attack(&self, p: usize, t: &Piece) -> bool {
        !self.ctx.cards[t.card as usize].untouchable && self.may_attack_owner(p, t.owner as usize)
    }

    /// `effective_levels`: bought, first move, aura, fort.
    pub fn effective_levels(&self, s: usize) -> u32 {
        let ctx = &*self.ctx;
        let pc = self.c.pieces[s].expect("a piece");
        let card = &ctx.cards[pc.card as usize];
        let mut mask = pc.levels;
        if card.pawn {
            if !pc.moved {
                mask |= 1;
            }
            for &n in &ctx.neighbors[s] {
                if let Some(o) = self.c.pieces[n as usize] {
                    mask |= ctx.cards[o.card as usize].aura_mask;
                }
            }
        }
        if ctx.terrain[s] == super::context::FORT {
            mask |= ctx.fort_mask;
        }
        mask & card.levels_mask
    }

    fn jesters_active(&self) -> bool {
        self.c.pieces.iter().flatten().any(|pc| pc.moved && self.ctx.cards[pc.card as usize].jester)
    }

    /// `_blockers`: cells of the active Jesters that block the piece on `s` (8.3).
    fn blockers(&self, s: usize, pc: &Piece, jesters: bool) -> Option<Vec<u16>> {
        let ctx = &*self.ctx;
        if !jesters || ctx.cards[pc.card as usize].jester_immune {
            return None;
        }
        let mut out: Option<Vec<u16>> = None;
        for &n in &ctx.neighbors[s] {
            if let Some(o) = self.c.pieces[n as usize] {
                if ctx.cards[o.card as usize].jester
                    && o.moved
                    && (ctx.rules.jester_blocks_all || self.enemy(pc.owner as usize, o.owner as usize))
                {
                    out.get_or_insert_with(Vec::new).push(n);
                }
            }
        }
        out
    }

    pub fn king_cell(&self, p: usize) -> Option<usize> {
        let ctx = &*self.ctx;
        self.c
            .pieces
            .iter()
            .position(|x| matches!(x, Some(pc) if pc.owner as usize == p && ctx.cards[pc.card as usize].king))
    }

    // ------------------------------------------------------------------------------------ generation

    fn legal_list(&self) -> Legal {
        if let Some(l) = self.legal.borrow().as_ref() {
            return l.clone();
        }
        let ds = if self.c.result != R_NONE {
            Vec::new()
        } else if self.c.setup {
            self.gen_setup()
        } else {
            self.gen_play()
        };
        let l = Arc::new(self.finish(ds));
        *self.legal.borrow_mut() = Some(l.clone());
        l
    }

    /// Sort by canonical text (code-point order) and give each its dense id.
    fn finish(&self, ds: Vec<D>) -> Vec<Act> {
        let mut buf = Buf(Vec::with_capacity(48));
        let mut acts: Vec<Act> = ds
            .into_iter()
            .map(|d| {
                buf.0.clear();
                self.write_text(&d, &mut buf);
                Act { key: key_of(&buf.0), id: self.dense_id(&d), d }
            })
            .collect();
        // keys are the texts' first 16 bytes; equal keys (longer texts) compare their whole texts, so the order
        // is total and an unstable sort gives Python's `sorted` order
        acts.sort_unstable_by(|a, b| {
            a.key.cmp(&b.key).then_with(|| {
                let (ta, tb) = (self.text(&a.d), self.text(&b.d));
                ta.cmp(&tb)
            })
        });
        acts
    }

    fn gen_setup(&self) -> Vec<D> {
        let ctx = &*self.ctx;
        let mut out = Vec::new();
        for p in 0..self.np() {
            if self.c.ready >> p & 1 == 1 || self.is_out(p) {
                continue;
            }
            let zone = &ctx.zones[ctx.players[p] as usize];
            let free: Vec<u16> = zone.iter().copied().filter(|&c| self.c.pieces[c as usize].is_none()).collect();
            let has_king = self.king_cell(p).is_some();
            for (k, card) in ctx.cards.iter().enumerate() {
                if card.king {
                    if has_king {
                        continue;
                    }
                } else if !card.buyable || ctx.cost[k] > self.c.treasury[p] {
                    continue;
                }
                for &c in &free {
                    if card.vector {
                        for f in 0..8 {
                            out.push(D::Place { p: p as u8, k: k as u16, c, f });
                        }
                    } else {
                        out.push(D::Place { p: p as u8, k: k as u16, c, f: 0 });
                    }
                }
            }
            for s in 0..ctx.n {
                if matches!(self.c.pieces[s], Some(pc) if pc.owner as usize == p) {
                    out.push(D::Remove { p: p as u8, s: s as u16 });
                    for &c in &free {
                        out.push(D::Reloc { p: p as u8, s: s as u16, c });
                    }
                }
            }
            if has_king {
                out.push(D::Ready { p: p as u8 });
            }
        }
        out
    }

    fn gen_play(&self) -> Vec<D> {
        let ctx = &*self.ctx;
        let p = self.c.to_move;
        let mut out = Vec::new();
        let jesters = self.jesters_active();
        let att: Vec<bool> = (0..self.np()).map(|q| self.may_attack_owner(p, q)).collect();
        let mut princes = Vec::new();
        let mut own = Vec::new();
        for s in 0..ctx.n {
            if let Some(pc) = self.c.pieces[s] {
                if pc.owner as usize == p {
                    own.push(s);
                    if ctx.cards[pc.card as usize].prince {
                        princes.push(s);
                    }
                }
            }
        }
        let mut seen = vec![0u8; ctx.n];
        for &s in &own {
            let pc = self.c.pieces[s].expect("own piece");
            self.piece_actions(s, &pc, &princes, &att, jesters, &mut out, &mut seen);
        }
        // purchases at the King (10.1) and transformations (10.2)
        let treasury = self.c.treasury[p];
        if let Some(king) = self.king_cell(p) {
            let (kx, ky) = (ctx.x(king), ctx.y(king));
            let cells: Vec<u16> = ctx.neighbors[king]
                .iter()
                .copied()
                .filter(|&c| {
                    let t = ctx.terrain[c as usize];
                    self.c.pieces[c as usize].is_none() && !standable_not(t) && t != ALTAR
                })
                .collect();
            for (k, card) in ctx.cards.iter().enumerate() {
                if !card.buyable || ctx.cost[k] > treasury {
                    continue;
                }
                for &c in &cells {
                    let f = dir_index(ctx.x(c as usize) - kx, ctx.y(c as usize) - ky) as u8;
                    out.push(D::Buy { k: k as u16, c, f });
                }
            }
            if let Some(victim) = ctx.victim {
                let victims: Vec<usize> = own
                    .iter()
                    .copied()
                    .filter(|&c| self.c.pieces[c].map(|x| x.card as usize) == Some(victim))
                    .collect();
                if !victims.is_empty() {
                    let only = own.iter().all(|&c| {
                        let k = self.c.pieces[c].expect("own").card as usize;
                        ctx.cards[k].king || k == victim
                    });
                    let pct = if only { ctx.rules.victim_discount_pct } else { 0 };
                    for (k, card) in ctx.cards.iter().enumerate() {
                        if !card.buyable || k == victim {
                            continue;
                        }
                        let price = (ctx.cost[k] * (100 - pct)).div_euclid(100);
                        if price > treasury {
                            continue;
                        }
                        for &c in &victims {
                            let f = if card.vector { quantize(ctx.x(c) - kx, ctx.y(c) - ky) } else { 0 };
                            out.push(D::Transform { k: k as u16, c: c as u16, f, price });
                        }
                    }
                }
            }
        }
        // Prince buy (10.3)
        let mut pbuy = vec![false; 0];
        for &pr in &princes {
            for &c in &ctx.neighbors[pr] {
                if let Some(t) = self.c.pieces[c as usize] {
                    if !ctx.cards[t.card as usize].king && t.cost <= treasury && self.may_attack(p, &t) {
                        if pbuy.is_empty() {
                            pbuy = vec![false; ctx.n];
                        }
                        if !pbuy[c as usize] {
                            pbuy[c as usize] = true;
                            out.push(D::Pbuy { c });
                        }
                    }
                }
            }
        }
        if out.is_empty() {
            out.push(D::Pass);
        }
        // veterancy (10): not turn actions
        let rate = ctx.rules.vet_rate_pct;
        for &s in &own {
            let pc = self.c.pieces[s].expect("own");
            let card = &ctx.cards[pc.card as usize];
            if card.levels.is_empty() {
                continue;
            }
            let price = 1.max((pc.cost * rate).div_euclid(100));
            if pc.trophies < price {
                continue;
            }
            for &lv in &card.levels {
                if pc.levels >> lv & 1 == 0 {
                    out.push(D::Vet { s: s as u16, lv, price });
                }
            }
        }
        out
    }

    /// `_offsets`: every offset the active entries of `act` reach at facing `f` (slides at every distance).
    fn offsets(&self, card: usize, mask: u32, act: u8, f: usize) -> Vec<(i32, i32)> {
        let ctx = &*self.ctx;
        let top = ctx.w.max(ctx.h);
        let mut offs = Vec::new();
        for e in ctx.cards[card].entries.iter().filter(|e| e.level.is_none_or(|l| mask >> l & 1 == 1)) {
            if e.act != act {
                continue;
            }
            for &d in &e.turned[f] {
                if e.geom == SLIDE {
                    let hi = if e.range == 0 { top } else { e.range };
                    for k in e.min..=hi {
                        offs.push((d.0 * k, d.1 * k));
                    }
                } else {
                    offs.push(d);
                }
            }
        }
        offs
    }

    /// `_piece_actions`: the piece on `s`'s pattern actions, Prince approaches and promotions; a text
    /// already listed keeps its first descriptor (`setdefault`), tracked per target cell and symbol.
    #[allow(clippy::too_many_arguments)]
    fn piece_actions(
        &self,
        s: usize,
        pc: &Piece,
        princes: &[usize],
        att: &[bool],
        jesters: bool,
        out: &mut Vec<D>,
        seen: &mut [u8],
    ) {
        let ctx = &*self.ctx;
        let card = &ctx.cards[pc.card as usize];
        let p = pc.owner as usize;
        let (w, h) = (ctx.w, ctx.h);
        let terrain = &ctx.terrain;
        let pieces = &self.c.pieces;
        let blockers = self.blockers(s, pc, jesters);
        let f = if card.vector { pc.facing as usize } else { 0 };
        let mask = self.effective_levels(s);
        let on_swamp = terrain[s] == SWAMP;
        let (sx, sy) = (ctx.x(s), ctx.y(s));
        let pawn = card.pawn;
        let vblock = ctx.rules.victim_blocks_jumps;
        let victim = ctx.victim.map(|v| v as u16);
        let team = &ctx.team_of;
        let start = out.len();
        let mut has_area = false;
        let mut offs_cache: [Option<Vec<(i32, i32)>>; 5] = Default::default();
        let blocked_by = |c: usize| blockers.as_ref().is_none_or(|b| b.contains(&(c as u16)));
        // `target` of the Python engine
        let target = |act: u8, keep: bool, shadow: bool, c: usize, dd: i32, out: &mut Vec<D>, seen: &mut [u8]| {
            if dd != 1 && terrain[c] == FOREST {
                return;
            }
            let t = pieces[c];
            let mut put = |bit: u8, d: D, out: &mut Vec<D>| {
                if seen[c] & bit == 0 {
                    seen[c] |= bit;
                    out.push(d);
                }
            };
            let (s16, c16) = (s as u16, c as u16);
            match act {
                MOVE => {
                    if t.is_none() && !standable_not(terrain[c]) {
                        put(1, D::Move { s: s16, c: c16, keep, shadow, approach: false, promo: 0 }, out);
                    }
                }
                STRIKE => {
                    if standable_not(terrain[c]) {
                        return;
                    }
                    if let Some(t) = t {
                        if att[t.owner as usize] && !ctx.cards[t.card as usize].untouchable && blocked_by(c) {
                            put(2, D::Strike { s: s16, c: c16, keep, pawn: -1, promo: 0 }, out);
                        }
                    } else if pawn && blockers.is_none() {
                        if let Some(&(_, pc2)) = self.c.shadows.iter().find(|x| x.0 as usize == c) {
                            if let Some(t2) = pieces[pc2 as usize] {
                                if att[t2.owner as usize] && !ctx.cards[t2.card as usize].untouchable {
                                    put(2, D::Strike { s: s16, c: c16, keep, pawn: pc2 as i32, promo: 0 }, out);
                                }
                            }
                        }
                    }
                }
                TAKE => {
                    if let Some(t) = t {
                        if att[t.owner as usize] && !ctx.cards[t.card as usize].untouchable && blocked_by(c) {
                            put(4, D::Take { s: s16, c: c16 }, out);
                        }
                    }
                }
                _ => {
                    // push
                    let Some(t) = t else { return };
                    if blockers.is_some() || !ctx.pushable[t.card as usize] || ctx.cards[t.card as usize].untouchable {
                        return;
                    }
                    let (bx, by) = (2 * ctx.x(c) - sx, 2 * ctx.y(c) - sy);
                    if !(0..w).contains(&bx) || !(0..h).contains(&by) {
                        return;
                    }
                    let b = (by * w + bx) as usize;
                    let tb = terrain[b];
                    if standable_not(tb) || pieces[b].is_some() {
                        return;
                    }
                    if ctx.rules.passable_targets && (tb == SAND || tb == SWAMP || tb == FOREST) {
                        return;
                    }
                    if tb == ALTAR && self.c.protected >> t.owner & 1 == 1 && t.owner as usize != p {
                        return;
                    }
                    put(8, D::Push { s: s16, c: c16, b: b as u16, keep }, out);
                }
            }
        };
        let top = w.max(h);
        for e in card.entries.iter().filter(|e| e.level.is_none_or(|l| mask >> l & 1 == 1)) {
            if blockers.is_some() && e.act != STRIKE && e.act != TAKE {
                continue;
            }
            let vecs = &e.turned[f];
            if e.geom == SLIDE {
                let mut maxk = if e.range == 0 { top } else { e.range };
                if on_swamp {
                    if e.min > 1 {
                        continue;
                    }
                    maxk = 1;
                }
                for &d in vecs {
                    if e.min >= 2 {
                        let offs = offs_cache[e.act as usize]
                            .get_or_insert_with(|| self.offsets(pc.card as usize, mask, e.act, f));
                        if !(1..e.min).all(|j| offs.contains(&(d.0 * j, d.1 * j))) {
                            continue;
                        }
                    }
                    let ray = &ctx.rays[s][dir_index(d.0, d.1)];
                    let mut hopped = false;
                    for (i, &c) in ray.iter().enumerate() {
                        let k = i as i32 + 1;
                        if k > maxk {
                            break;
                        }
                        let c = c as usize;
                        if k >= e.min {
                            target(e.act, e.keep, e.shadow, c, k, out, seen);
                        }
                        if !path_ok(terrain[c]) {
                            break;
                        }
                        if let Some(t) = pieces[c] {
                            if !e.hop
                                || hopped
                                || team[t.owner as usize] != team[p]
                                || (vblock && Some(t.card) == victim)
                            {
                                break;
                            }
                            hopped = true;
                        }
                    }
                }
            } else if e.geom == LEAP {
                for (i, &v) in vecs.iter().enumerate() {
                    let (x, y) = (sx + v.0, sy + v.1);
                    if !(0..w).contains(&x) || !(0..h).contains(&y) {
                        continue;
                    }
                    let dd = v.0.abs().max(v.1.abs());
                    if on_swamp && dd != 1 {
                        continue;
                    }
                    let blocked = e.over[f][i].iter().any(|&(oi, oj)| {
                        let oc = ((sy + oj) * w + sx + oi) as usize;
                        terrain[oc] == ROCK || (vblock && matches!(pieces[oc], Some(t) if Some(t.card) == victim))
                    });
                    if !blocked {
                        target(e.act, e.keep, e.shadow, (y * w + x) as usize, dd, out, seen);
                    }
                }
            } else if !has_area && self.area_removed(s, p, e, f, on_swamp).is_some() {
                has_area = true;
                out.push(D::Area { s: s as u16 });
            }
        }
        // Prince approach (7.3)
        if blockers.is_none() && card.mobile && !princes.is_empty() {
            let passable_only = ctx.rules.passable_targets;
            for &pr in princes {
                if pr == s {
                    continue;
                }
                for &c in &ctx.neighbors[pr] {
                    let c = c as usize;
                    if c == s || pieces[c].is_some() {
                        continue;
                    }
                    let tc = terrain[c];
                    if standable_not(tc) || (passable_only && (tc == SAND || tc == SWAMP || tc == FOREST)) {
                        continue;
                    }
                    if (tc == FOREST || on_swamp) && ctx.dist(s, c) != 1 {
                        continue;
                    }
                    if seen[c] & 1 == 0 {
                        seen[c] |= 1;
                        out.push(D::Move {
                            s: s as u16,
                            c: c as u16,
                            keep: false,
                            shadow: false,
                            approach: true,
                            promo: 0,
                        });
                    }
                }
            }
        }
        // promotion (10.4)
        if pawn && ctx.rules.pawn_promotion && !ctx.promo.is_empty() {
            let n_new = out.len();
            for i in start..n_new {
                let d = out[i];
                if matches!(d, D::Move { .. } | D::Strike { .. }) && self.promotes(s, pc, &d) {
                    for j in 0..ctx.promo.len() {
                        let promo = j as u8 + 1;
                        out.push(match d {
                            D::Move { s, c, keep, shadow, approach, .. } => {
                                D::Move { s, c, keep, shadow, approach, promo }
                            }
                            D::Strike { s, c, keep, pawn, .. } => D::Strike { s, c, keep, pawn, promo },
                            other => other,
                        });
                    }
                }
            }
        }
        for d in &out[start..] {
            match *d {
                D::Move { c, .. } | D::Strike { c, .. } | D::Take { c, .. } | D::Push { c, .. } => seen[c as usize] = 0,
                _ => {}
            }
        }
    }

    /// The cells an area entry removes from `s` (None when it removes nothing it may).
    fn area_removed(&self, s: usize, p: usize, e: &super::cards::Entry, f: usize, on_swamp: bool) -> Option<Vec<u16>> {
        let ctx = &*self.ctx;
        let (sx, sy) = (ctx.x(s), ctx.y(s));
        let mut removed: Vec<u16> = Vec::new();
        for &v in &e.turned[f] {
            let (x, y) = (sx + v.0, sy + v.1);
            if !(0..ctx.w).contains(&x) || !(0..ctx.h).contains(&y) {
                continue;
            }
            let dd = v.0.abs().max(v.1.abs());
            if on_swamp && dd != 1 {
                continue;
            }
            let c = (y * ctx.w + x) as usize;
            let Some(t) = self.c.pieces[c] else { continue };
            if ctx.terrain[c] == FOREST && dd != 1 {
                continue;
            }
            if ctx.team_of[t.owner as usize] != ctx.team_of[p]
                && !ctx.cards[t.card as usize].untouchable
                && self.c.protected >> t.owner & 1 == 0
            {
                removed.push(c as u16);
            }
        }
        if removed.is_empty() {
            return None;
        }
        if removed.len() == 1 && !self.may_attack(p, &self.c.pieces[removed[0] as usize].expect("a piece")) {
            return None;
        }
        removed.sort_unstable();
        removed.dedup();
        Some(removed)
    }

    /// The cells the area action of the piece on `s` removes (the first area entry that applies).
    fn area_cells(&self, s: usize) -> Vec<u16> {
        let ctx = &*self.ctx;
        let pc = self.c.pieces[s].expect("a piece");
        let card = &ctx.cards[pc.card as usize];
        if self.blockers(s, &pc, self.jesters_active()).is_some() {
            return Vec::new();
        }
        let f = if card.vector { pc.facing as usize } else { 0 };
        let mask = self.effective_levels(s);
        let on_swamp = ctx.terrain[s] == SWAMP;
        for e in card.entries.iter().filter(|e| e.level.is_none_or(|l| mask >> l & 1 == 1)) {
            if e.act == AREA {
                if let Some(r) = self.area_removed(s, pc.owner as usize, e, f, on_swamp) {
                    return r;
                }
            }
        }
        Vec::new()
    }

    /// `_landing`: where a piece moving s -> c ends after the arrival effects (None: an altar).
    fn landing(&self, s: usize, c: usize, removed: Option<usize>) -> Option<usize> {
        let ctx = &*self.ctx;
        let tc = ctx.terrain[c];
        if tc == ALTAR {
            return None;
        }
        if tc == PORTAL {
            let q = ctx.portal_pair[c] as usize;
            if q == s || removed == Some(q) || self.c.pieces[q].is_none() {
                return Some(q);
            }
        }
        Some(c)
    }

    fn promotes(&self, s: usize, pc: &Piece, d: &D) -> bool {
        let ctx = &*self.ctx;
        let (c, keep, removed) = match *d {
            D::Move { c, keep, .. } => (c as usize, keep, None),
            D::Strike { c, keep, pawn, .. } => {
                (c as usize, keep, Some(if pawn < 0 { c as usize } else { pawn as usize }))
            }
            _ => return false,
        };
        if pc.travelled + ctx.dist(s, c) < ctx.rules.promotion_distance
            || (ctx.zone[c] == 0 && ctx.terrain[c] != PORTAL)
        {
            return false;
        }
        let Some(l) = self.landing(s, c, removed) else { return false };
        let letter = ctx.zone[l];
        if letter == 0 || letter - 1 == ctx.players[pc.owner as usize] || ctx.pidx[letter as usize - 1] < 0 {
            return false;
        }
        if !self.enemy(pc.owner as usize, ctx.pidx[letter as usize - 1] as usize) {
            return false;
        }
        let card = &ctx.cards[pc.card as usize];
        let f = if keep || !card.vector { pc.facing } else { quantize(ctx.x(c) - ctx.x(s), ctx.y(c) - ctx.y(s)) };
        !self.has_free_move(l, pc.card as usize, f as usize, pc.levels & card.levels_mask)
    }

    /// Condition (3) of 10.4: a move entry of the bought levels moves from `l` on an empty board.
    fn has_free_move(&self, l: usize, card: usize, f: usize, mask: u32) -> bool {
        let ctx = &*self.ctx;
        let (w, h) = (ctx.w, ctx.h);
        let terrain = &ctx.terrain;
        let on_swamp = terrain[l] == SWAMP;
        let (lx, ly) = (ctx.x(l), ctx.y(l));
        let mut offs: Option<Vec<(i32, i32)>> = None;
        for e in ctx.cards[card].entries.iter().filter(|e| e.level.is_none_or(|lv| mask >> lv & 1 == 1)) {
            if e.act != MOVE {
                continue;
            }
            for (i, &v) in e.turned[f].iter().enumerate() {
                if e.geom == SLIDE {
                    if e.min >= 2 {
                        if on_swamp {
                            continue;
                        }
                        let o = offs.get_or_insert_with(|| self.offsets(card, mask, MOVE, f));
                        if !(1..e.min).all(|j| o.contains(&(v.0 * j, v.1 * j))) {
                            continue;
                        }
                    }
                    let maxk = if on_swamp {
                        1
                    } else if e.range == 0 {
                        w.max(h)
                    } else {
                        e.range
                    };
                    let (mut x, mut y) = (lx, ly);
                    for k in 1..=maxk {
                        x += v.0;
                        y += v.1;
                        if !(0..w).contains(&x) || !(0..h).contains(&y) {
                            break;
                        }
                        let c = (y * w + x) as usize;
                        if k >= e.min && !standable_not(terrain[c]) && (terrain[c] != FOREST || k == 1) {
                            return true;
                        }
                        if !path_ok(terrain[c]) {
                            break;
                        }
                    }
                } else if e.geom == LEAP {
                    let (x, y) = (lx + v.0, ly + v.1);
                    let dd = v.0.abs().max(v.1.abs());
                    if !(0..w).contains(&x) || !(0..h).contains(&y) || (on_swamp && dd != 1) {
                        continue;
                    }
                    if e.over[f][i].iter().any(|&(oi, oj)| terrain[((ly + oj) * w + lx + oi) as usize] == ROCK) {
                        continue;
                    }
                    let c = (y * w + x) as usize;
                    if !standable_not(terrain[c]) && (terrain[c] != FOREST || dd == 1) {
                        return true;
                    }
                }
            }
        }
        false
    }

    // ------------------------------------------------------------------------------- notation

    fn write_text(&self, d: &D, o: &mut Buf) {
        let ctx = &*self.ctx;
        let name = |c: u16| ctx.names[c as usize].as_str();
        let promo = |o: &mut Buf, promo: u8| {
            if promo > 0 {
                o.b(b'=');
                o.s(&ctx.cards[ctx.promo[promo as usize - 1]].key);
            }
        };
        match *d {
            D::Place { p, k, c, f } => {
                o.b(ctx.letter(p as usize));
                o.s(":+");
                o.s(&ctx.cards[k as usize].key);
                o.b(b'@');
                o.s(name(c));
                if ctx.cards[k as usize].vector {
                    o.b(b':');
                    o.s(FACING_NAMES[f as usize]);
                }
            }
            D::Remove { p, s } => {
                o.b(ctx.letter(p as usize));
                o.s(":-");
                o.s(name(s));
            }
            D::Reloc { p, s, c } => {
                o.b(ctx.letter(p as usize));
                o.b(b':');
                o.s(name(s));
                o.b(b'-');
                o.s(name(c));
            }
            D::Ready { p } => {
                o.b(ctx.letter(p as usize));
                o.s(":ready");
            }
            D::Move { s, c, promo: pr, .. } => {
                o.s(name(s));
                o.b(b'-');
                o.s(name(c));
                promo(o, pr);
            }
            D::Strike { s, c, promo: pr, .. } => {
                o.s(name(s));
                o.b(b'x');
                o.s(name(c));
                promo(o, pr);
            }
            D::Take { s, c } => {
                o.s(name(s));
                o.b(b'*');
                o.s(name(c));
            }
            D::Area { s } => {
                o.s(name(s));
                o.s("*area");
            }
            D::Push { s, c, .. } => {
                o.s(name(s));
                o.b(b'>');
                o.s(name(c));
            }
            D::Buy { k, c, .. } | D::Transform { k, c, .. } => {
                o.b(b'+');
                o.s(&ctx.cards[k as usize].key);
                o.b(b'@');
                o.s(name(c));
            }
            D::Pbuy { c } => {
                o.b(b'$');
                o.s(name(c));
            }
            D::Pass => o.s("pass"),
            D::Vet { s, lv, .. } => {
                o.b(b'^');
                o.s(name(s));
                o.b(b':');
                o.num(lv as i64);
            }
        }
    }

    /// The canonical string of an action (`action_to_string`).
    pub fn text(&self, d: &D) -> String {
        let mut b = Buf(Vec::with_capacity(24));
        self.write_text(d, &mut b);
        String::from_utf8(b.0).expect("ASCII")
    }

    /// `GameDef.action_to_int`.
    pub fn dense_id(&self, d: &D) -> u32 {
        let ctx = &*self.ctx;
        let n = ctx.n as u64;
        let k = ctx.cards.len() as u64;
        let t1 = ctx.promo.len() as u64 + 1;
        let offs = part_offsets(n, k, t1 - 1).expect("checked when the context was built");
        let letter = |p: u8| ctx.players[p as usize] as u64;
        let piece =
            |t: u64, s: u16, c: u16, promo: u8| offs[0] + ((t * n + s as u64) * n + c as u64) * t1 + promo as u64;
        let id = match *d {
            D::Move { s, c, promo, .. } => piece(0, s, c, promo),
            D::Strike { s, c, promo, .. } => piece(1, s, c, promo),
            D::Take { s, c } => piece(2, s, c, 0),
            D::Push { s, c, .. } => piece(3, s, c, 0),
            D::Area { s } => offs[1] + s as u64,
            D::Buy { k: card, c, .. } | D::Transform { k: card, c, .. } => offs[2] + card as u64 * n + c as u64,
            D::Pbuy { c } => offs[3] + c as u64,
            D::Vet { s, lv, .. } => offs[4] + s as u64 * 32 + lv as u64,
            D::Pass => offs[5],
            D::Place { p, k: card, c, f } => {
                let fi = if ctx.cards[card as usize].vector { f as u64 + 1 } else { 0 };
                offs[6] + ((letter(p) * k + card as u64) * n + c as u64) * 9 + fi
            }
            D::Remove { p, s } => offs[7] + letter(p) * n + s as u64,
            D::Reloc { p, s, c } => offs[8] + (letter(p) * n + s as u64) * n + c as u64,
            D::Ready { p } => offs[9] + letter(p),
        };
        id as u32
    }

    /// The legal actions of every player (in the setup phase every unready player's), in canonical order.
    pub fn all_legal(&self) -> Legal {
        self.legal_list()
    }

    /// The descriptor of legal action `id`.
    pub fn find(&self, id: u32) -> Option<D> {
        self.legal_list().iter().find(|a| a.id == id).map(|a| a.d)
    }

    /// The legal action whose canonical text is `text`.
    pub fn find_text(&self, text: &str) -> Option<u32> {
        self.legal_list().iter().find(|a| self.text(&a.d) == text).map(|a| a.id)
    }

    // ------------------------------------------------------------------------------------ apply

    fn count(&mut self, name: usize, p: usize, cell: i32, n: i64) {
        let np = self.np();
        self.c.counts[name * np + p] += n;
        self.c.fired.push((name as u8, p as u8, cell));
    }

    /// Play legal action `id`; false (nothing changes) when it is not legal.
    pub fn apply_id(&mut self, id: u32) -> bool {
        match self.find(id) {
            Some(d) => {
                self.apply_desc(d);
                true
            }
            None => false,
        }
    }

    /// Play a descriptor taken from the legal list (`apply_action`).
    pub fn apply_desc(&mut self, d: D) {
        let legal = self.legal.borrow_mut().take();
        if self.record {
            self.history.push((self.c.clone(), legal));
        }
        self.c.fired.clear();
        self.c.moves += 1;
        match d {
            D::Place { .. } | D::Remove { .. } | D::Reloc { .. } | D::Ready { .. } => self.do_setup(d),
            D::Vet { s, lv, price } => {
                let pc = self.c.pieces[s as usize].as_mut().expect("a piece");
                pc.levels |= 1 << lv;
                pc.cost += price;
                pc.trophies -= price;
                let owner = pc.owner as usize;
                self.count(C_VET, owner, s as i32, 1);
            }
            _ => self.do_turn(d),
        }
    }

    /// Take back the last action exactly; false when there is none.
    pub fn undo_last(&mut self) -> bool {
        match self.history.pop() {
            Some((c, legal)) => {
                self.c = c;
                *self.legal.borrow_mut() = legal;
                true
            }
            None => false,
        }
    }

    /// Keep (true) or stop keeping undo snapshots (random playouts need none).
    pub fn set_record(&mut self, on: bool) {
        self.record = on;
    }

    pub fn history_len(&self) -> usize {
        self.history.len()
    }

    fn do_setup(&mut self, d: D) {
        let ctx = self.ctx.clone();
        match d {
            D::Place { p, k, c, f } => {
                let k = k as usize;
                let cost = if ctx.cards[k].king { 0 } else { ctx.cost[k] };
                self.c.treasury[p as usize] -= cost;
                self.c.pieces[c as usize] = Some(Piece {
                    owner: p,
                    card: k as u16,
                    facing: f,
                    moved: false,
                    levels: 0,
                    cost: ctx.cost[k],
                    trophies: 0,
                    travelled: 0,
                });
                self.count(C_SETUP_PLACE, p as usize, c as i32, 1);
            }
            D::Remove { p, s } => {
                let pc = self.c.pieces[s as usize].take().expect("a piece");
                if !ctx.cards[pc.card as usize].king {
                    self.c.treasury[p as usize] += ctx.cost[pc.card as usize];
                }
                self.count(C_SETUP_REMOVE, p as usize, s as i32, 1);
            }
            D::Reloc { p, s, c } => {
                self.c.pieces[c as usize] = self.c.pieces[s as usize].take();
                self.count(C_SETUP_RELOC, p as usize, c as i32, 1);
            }
            D::Ready { p } => {
                self.c.ready |= 1 << p;
                self.maybe_start_play();
            }
            _ => unreachable!("not a setup action"),
        }
    }

    fn maybe_start_play(&mut self) {
        let active: Vec<usize> = (0..self.np()).filter(|&p| !self.is_out(p)).collect();
        if active.iter().any(|&p| self.c.ready >> p & 1 == 0) {
            return;
        }
        self.c.setup = false;
        self.c.ready = 0;
        self.c.turn_no = 1;
        self.c.quiet = 0;
        self.c.protected = active.iter().fold(0, |m, &p| m | 1 << p);
        if self.end_test() {
            return;
        }
        self.c.to_move = active[0];
        self.start_turn(self.c.to_move);
    }

    /// Start-of-turn steps (11): own shadows go, own locks expire, income (9.4).
    fn start_turn(&mut self, p: usize) {
        let ctx = self.ctx.clone();
        let pieces = &self.c.pieces;
        self.c.shadows.retain(|&(_, pcell)| matches!(pieces[pcell as usize], Some(t) if t.owner as usize != p));
        if !ctx.rules.lock_round_end {
            self.c.locks.retain(|&(a, _)| a as usize != p);
        }
        let r = &ctx.rules;
        let mut gain = r.turn_income;
        let mut upkeep = 0;
        let mut mine = 0;
        for c in 0..ctx.n {
            if let Some(pc) = self.c.pieces[c] {
                if pc.owner as usize != p {
                    continue;
                }
                if ctx.terrain[c] == MINE {
                    mine += r.mine_income;
                }
                gain += ctx.income[pc.card as usize];
                if !ctx.cards[pc.card as usize].king {
                    upkeep += r.upkeep;
                }
            }
        }
        if mine != 0 {
            let np = self.np();
            self.c.counts[C_MINE * np + p] += mine;
        }
        self.c.treasury[p] = (self.c.treasury[p] + gain + mine - upkeep).max(0);
        if self.c.turn_no == 10 && self.c.lead10.is_none() {
            self.c.lead10 = Some(self.material_values());
        }
    }

    /// Per player: current cost of its pieces other than the King, plus its treasury.
    pub fn material_values(&self) -> Vec<i64> {
        let mut vals = self.c.treasury.clone();
        for pc in self.c.pieces.iter().flatten() {
            if !self.ctx.cards[pc.card as usize].king {
                vals[pc.owner as usize] += pc.cost;
            }
        }
        vals
    }

    fn move_piece(&mut self, s: usize, c: usize, piece: Piece) {
        self.c.pieces[s] = None;
        self.c.pieces[c] = Some(piece);
        for sh in self.c.shadows.iter_mut() {
            if sh.1 as usize == s {
                sh.1 = c as u16;
            }
        }
    }

    fn pop_shadow(&mut self, c: usize) {
        self.c.shadows.retain(|x| x.0 as usize != c);
    }

    fn remove(&mut self, c: usize, cause: u8, changed: &mut bool, lost: &mut Vec<(usize, u8)>) -> Piece {
        let pc = self.c.pieces[c].take().expect("a piece");
        *changed = true;
        self.c.shadows.retain(|x| x.1 as usize != c);
        if self.ctx.cards[pc.card as usize].king {
            lost.push((pc.owner as usize, cause));
        }
        pc
    }

    fn reward(&mut self, p: usize, xcell: usize, t: &Piece) {
        let r = (t.cost * self.ctx.rules.strike_reward_pct).div_euclid(100);
        self.c.treasury[p] += r;
        self.c.pieces[xcell].as_mut().expect("the attacker").trophies += r;
    }

    /// Arrival effects (7.5): shadow, altar, portal. Returns the piece's cell.
    fn arrive(&mut self, c: usize, p: usize, changed: &mut bool, lost: &mut Vec<(usize, u8)>) -> Option<usize> {
        self.pop_shadow(c);
        let tc = self.ctx.terrain[c];
        if tc == ALTAR {
            let pc = self.c.pieces[c].expect("a piece");
            self.c.treasury[p] += pc.cost + pc.trophies;
            self.remove(c, CAUSE_ALTAR, changed, lost);
            self.count(C_ALTAR, p, c as i32, 1);
            return None;
        }
        if tc == PORTAL {
            let q = self.ctx.portal_pair[c] as usize;
            if self.c.pieces[q].is_none() {
                let pc = self.c.pieces[c].expect("a piece");
                self.move_piece(c, q, pc);
                self.pop_shadow(q);
                self.count(C_PORTAL, p, q as i32, 1);
                return Some(q);
            }
        }
        Some(c)
    }

    fn lock(&mut self, p: usize, victim: usize) {
        let lk = (p as u8, victim as u8);
        if !self.c.locks.contains(&lk) {
            self.c.locks.push(lk);
            self.count(C_LOCK, p, -1, 1);
        }
    }

    fn moved_piece(&self, pc: Piece, s: usize, c: usize, keep: bool) -> Piece {
        let ctx = &*self.ctx;
        let mut out = pc;
        if ctx.cards[pc.card as usize].vector && !keep {
            out.facing = quantize(ctx.x(c) - ctx.x(s), ctx.y(c) - ctx.y(s));
        }
        out.moved = true;
        out.travelled += ctx.dist(s, c);
        out
    }

    fn buy_count(&mut self, k: usize, p: usize) {
        let np = self.np();
        self.c.bought[k] = true;
        self.c.buys[k * np + p] += 1;
    }

    fn do_turn(&mut self, d: D) {
        let ctx = self.ctx.clone();
        let p = self.c.to_move;
        let mut changed = false;
        let mut lost: Vec<(usize, u8)> = Vec::new();
        let area = if let D::Area { s } = d { self.area_cells(s as usize) } else { Vec::new() };
        let jesters = self.jesters_active();
        if jesters {
            let blocked = (0..ctx.n)
                .filter(|&c| matches!(self.c.pieces[c], Some(pc) if pc.owner as usize == p && self.blockers(c, &pc, true).is_some()))
                .count() as i64;
            if blocked > 0 {
                self.count(C_JESTER, p, -1, blocked);
            }
        }
        match d {
            D::Move { s, c, keep, promo, .. } | D::Strike { s, c, keep, promo, .. } => {
                let (s, c) = (s as usize, c as usize);
                if let D::Strike { pawn, .. } = d {
                    let t = if pawn < 0 {
                        let t = self.c.pieces[c].expect("a target");
                        self.reward(p, s, &t);
                        self.remove(c, CAUSE_STRIKE, &mut changed, &mut lost);
                        self.count(C_STRIKE, p, c as i32, 1);
                        t
                    } else {
                        let t = self.c.pieces[pawn as usize].expect("the pawn");
                        self.reward(p, s, &t);
                        self.remove(pawn as usize, CAUSE_STRIKE, &mut changed, &mut lost);
                        self.pop_shadow(c);
                        self.count(C_SHADOW_STRIKE, p, c as i32, 1);
                        t
                    };
                    self.lock(p, t.owner as usize);
                } else if let D::Move { approach, .. } = d {
                    self.count(if approach { C_APPROACH } else { C_MOVE }, p, c as i32, 1);
                }
                let x = self.c.pieces[s].expect("the piece");
                let np = self.moved_piece(x, s, c, keep);
                self.move_piece(s, c, np);
                let fin = self.arrive(c, p, &mut changed, &mut lost);
                if let (Some(fc), true) = (fin, promo > 0) {
                    let pc = self.c.pieces[fc].expect("the pawn");
                    let k = ctx.promo[promo as usize - 1];
                    let f = if ctx.cards[k].vector { pc.facing } else { 0 };
                    self.c.pieces[fc] = Some(Piece {
                        owner: p as u8,
                        card: k as u16,
                        facing: f,
                        moved: true,
                        levels: 0,
                        cost: ctx.cost[k],
                        trophies: pc.trophies,
                        travelled: pc.travelled,
                    });
                    self.c.shadows.retain(|x| x.1 as usize != fc);
                    changed = true;
                    self.count(C_PROMOTION, p, fc as i32, 1);
                } else if let (Some(fc), D::Move { shadow: true, .. }) = (fin, d) {
                    let mid =
                        (((ctx.y(s) + ctx.y(c)).div_euclid(2)) * ctx.w + (ctx.x(s) + ctx.x(c)).div_euclid(2)) as usize;
                    if self.c.pieces[mid].is_none()
                        && !self.c.shadows.iter().any(|x| x.0 as usize == mid)
                        && !no_shadow(ctx.terrain[mid])
                    {
                        self.c.shadows.push((mid as u16, fc as u16));
                        self.count(C_SHADOW_PLACED, p, mid as i32, 1);
                    }
                }
            }
            D::Take { s, c } => {
                let (s, c) = (s as usize, c as usize);
                let t = self.c.pieces[c].expect("a target");
                self.reward(p, s, &t);
                self.remove(c, CAUSE_TAKE, &mut changed, &mut lost);
                self.lock(p, t.owner as usize);
                self.c.pieces[s].as_mut().expect("the piece").moved = true;
                self.count(C_TAKE, p, c as i32, 1);
            }
            D::Area { s } => {
                let s = s as usize;
                let mut owner = 0;
                for &c in &area {
                    let t = self.c.pieces[c as usize].expect("a target");
                    owner = t.owner as usize;
                    self.reward(p, s, &t);
                    self.remove(c as usize, CAUSE_AREA, &mut changed, &mut lost);
                }
                if area.len() == 1 {
                    self.lock(p, owner);
                }
                self.c.pieces[s].as_mut().expect("the piece").moved = true;
                self.count(C_AREA, p, s as i32, 1);
            }
            D::Push { s, c, b, keep } => {
                let (s, c, b) = (s as usize, c as usize, b as usize);
                let t = self.c.pieces[c].expect("a target");
                let x = self.c.pieces[s].expect("the piece");
                let dirf = dir_index((ctx.x(c) - ctx.x(s)).signum(), (ctx.y(c) - ctx.y(s)).signum()) as u8;
                let mut nx = x;
                nx.moved = true;
                nx.travelled += 1;
                if ctx.cards[x.card as usize].vector && !keep {
                    nx.facing = dirf;
                }
                self.move_piece(c, b, t);
                self.move_piece(s, c, nx);
                self.count(C_PUSH, p, c as i32, 1);
                self.arrive(b, p, &mut changed, &mut lost);
                self.arrive(c, p, &mut changed, &mut lost);
            }
            D::Buy { k, c, f } => {
                let k = k as usize;
                self.c.treasury[p] -= ctx.cost[k];
                self.pop_shadow(c as usize);
                let f = if ctx.cards[k].vector { f } else { 0 };
                self.c.pieces[c as usize] = Some(Piece {
                    owner: p as u8,
                    card: k as u16,
                    facing: f,
                    moved: false,
                    levels: 0,
                    cost: ctx.cost[k],
                    trophies: 0,
                    travelled: 0,
                });
                changed = true;
                self.count(C_PURCHASE, p, c as i32, 1);
                self.buy_count(k, p);
            }
            D::Transform { k, c, f, price } => {
                let k = k as usize;
                self.c.treasury[p] -= price;
                self.c.pieces[c as usize] = Some(Piece {
                    owner: p as u8,
                    card: k as u16,
                    facing: f,
                    moved: false,
                    levels: 0,
                    cost: ctx.cost[k],
                    trophies: 0,
                    travelled: 0,
                });
                changed = true;
                self.count(C_TRANSFORM, p, c as i32, 1);
                self.buy_count(k, p);
            }
            D::Pbuy { c } => {
                let c = c as usize;
                let t = self.c.pieces[c].expect("a target");
                self.c.treasury[p] -= t.cost;
                if ctx.rules.prince_buy_to_owner {
                    self.c.treasury[t.owner as usize] += t.cost;
                }
                let mut nt = t;
                nt.owner = p as u8;
                self.c.pieces[c] = Some(nt);
                changed = true;
                self.c.shadows.retain(|x| x.1 as usize != c);
                self.lock(p, t.owner as usize);
                self.count(C_PBUY, p, c as i32, 1);
            }
            D::Pass => self.count(C_PASS, p, -1, 1),
            _ => unreachable!("not a turn action"),
        }
        self.after_turn(p, changed, lost);
    }

    fn after_turn(&mut self, p: usize, mut changed: bool, lost: Vec<(usize, u8)>) {
        let ctx = self.ctx.clone();
        self.c.protected &= !(1 << p);
        let mut done = 0u32;
        for (owner, cause) in lost {
            if done >> owner & 1 == 1 || self.is_out(owner) {
                continue;
            }
            done |= 1 << owner;
            self.count(C_KING_LOSS + cause as usize, owner, -1, 1);
            let prince = (0..ctx.n).find(|&c| matches!(self.c.pieces[c], Some(pc) if pc.owner as usize == owner && ctx.cards[pc.card as usize].prince));
            let successor = if ctx.rules.prince_succession && self.king_cell(owner).is_none() { prince } else { None };
            if let Some(c) = successor {
                let pr = self.c.pieces[c].expect("a prince");
                self.c.pieces[c] = Some(Piece {
                    owner: owner as u8,
                    card: ctx.king as u16,
                    facing: 0,
                    moved: pr.moved,
                    levels: 0,
                    cost: ctx.rules.king_cost,
                    trophies: 0,
                    travelled: pr.travelled,
                });
                changed = true;
                self.count(C_SUCCESSION, owner, c as i32, 1);
            } else if self.king_cell(owner).is_none() {
                self.eliminate(owner);
                changed = true;
            }
        }
        if changed {
            self.c.quiet = 0;
        } else {
            self.c.quiet += 1;
        }
        if self.end_test() {
            return;
        }
        let r = &ctx.rules;
        if (r.quiet_limit != 0 && self.c.quiet >= r.quiet_limit) || (r.max_turns != 0 && self.c.turn_no >= r.max_turns)
        {
            self.c.result = R_DRAW;
            self.c.winner_team = -1;
            return;
        }
        self.advance(p);
        self.c.turn_no += 1;
        self.start_turn(self.c.to_move);
    }

    fn advance(&mut self, p: usize) {
        let n = self.np();
        let mut cand = p;
        for k in 1..=n {
            cand = (p + k) % n;
            if !self.is_out(cand) {
                break;
            }
        }
        if self.ctx.rules.lock_round_end && cand <= p {
            self.c.locks.clear();
        }
        self.c.to_move = cand;
    }

    fn end_test(&mut self) -> bool {
        let mut teams = 0u64;
        for p in 0..self.np() {
            if !self.is_out(p) {
                teams |= 1 << self.ctx.team_of[p];
            }
        }
        if teams.count_ones() <= 1 {
            self.c.result = if teams != 0 { R_WIN } else { R_DRAW };
            self.c.winner_team = if teams != 0 { teams.trailing_zeros() as i32 } else { -1 };
            return true;
        }
        false
    }

    fn eliminate(&mut self, p: usize) {
        for c in 0..self.ctx.n {
            if matches!(self.c.pieces[c], Some(pc) if pc.owner as usize == p) {
                self.c.pieces[c] = None;
            }
        }
        let pieces = &self.c.pieces;
        self.c.shadows.retain(|x| pieces[x.1 as usize].is_some());
        self.c.locks.retain(|&(a, b)| a as usize != p && b as usize != p);
        self.c.out |= 1 << p;
        self.c.protected &= !(1 << p);
        self.c.ready &= !(1 << p);
        self.count(C_ELIMINATION, p, -1, 1);
    }

    /// `resign`: eliminate `p` at once, even out of turn (B36, B54); false when it cannot.
    pub fn resign(&mut self, p: usize) -> bool {
        if p >= self.np() || self.is_out(p) || self.c.result != R_NONE {
            return false;
        }
        let legal = self.legal.borrow_mut().take();
        self.history.push((self.c.clone(), legal));
        self.c.fired.clear();
        self.c.moves += 1;
        self.eliminate(p);
        if self.c.setup {
            if !self.end_test() {
                self.maybe_start_play();
            }
            return true;
        }
        if self.end_test() {
            return true;
        }
        if p == self.c.to_move {
            self.advance(p);
            self.start_turn(self.c.to_move);
        }
        true
    }

    // ----------------------------------------------------------------------------- agents' view

    /// `evaluate`: team material in infantry units, own team minus the best other team.
    pub fn eval(&self, player: usize) -> f64 {
        let ctx = &*self.ctx;
        if self.c.result == R_WIN {
            return if ctx.team_of[player] as i32 == self.c.winner_team { 1e6 } else { -1e6 };
        }
        if self.c.result == R_DRAW {
            return 0.0;
        }
        let nt = ctx.team_members.len();
        let mut material = vec![0i64; nt];
        let mut money = vec![0i64; nt];
        let mut tenths = vec![0i64; nt];
        for p in 0..self.np() {
            if !self.is_out(p) {
                money[ctx.team_of[p]] += self.c.treasury[p];
            }
        }
        for pc in self.c.pieces.iter().flatten() {
            let t = ctx.team_of[pc.owner as usize];
            let card = &ctx.cards[pc.card as usize];
            material[t] += if card.king { 1000 } else { pc.cost };
            money[t] += pc.trophies;
            if self.c.setup && card.vector && pc.facing == ctx.facing[ctx.players[pc.owner as usize] as usize] {
                tenths[t] += 2;
            }
        }
        if self.c.setup {
            for p in 0..self.np() {
                if self.c.ready >> p & 1 == 1 {
                    tenths[ctx.team_of[p]] += 1;
                }
            }
        }
        let per: Vec<f64> =
            (0..nt).map(|t| material[t] as f64 + 0.9 * money[t] as f64 + 0.1 * tenths[t] as f64).collect();
        let mine = ctx.team_of[player];
        let mut best: Option<f64> = None;
        for (t, &v) in per.iter().enumerate() {
            if t != mine && best.is_none_or(|b| v > b) {
                best = Some(v);
            }
        }
        (per[mine] - best.unwrap_or(0.0)) / 10.0
    }

    /// The number of `GameDef.evaluation_features`: one per card but the King, then upgrades, treasury
    /// and trophies.
    pub fn feature_count(&self) -> usize {
        self.ctx.cards.len() - 1 + 3
    }

    /// `evaluation_features`: material per card (count, own team minus the mean other team; the King left
    /// out), upgrades bought, treasury and trophies (in infantry units: summed in whole money, then / 10),
    /// in the Python order (the cards' order, then upgrades, treasury, trophies).
    pub fn features(&self, player: usize) -> Vec<f64> {
        let ctx = &*self.ctx;
        let nk = ctx.cards.len();
        let nf = self.feature_count();
        let teams = ctx.team_members.len();
        let slot: Vec<usize> = {
            let mut i = 0;
            (0..nk)
                .map(|k| {
                    let here = i;
                    if !ctx.cards[k].king {
                        i += 1;
                    }
                    here
                })
                .collect()
        };
        let mut counts = vec![vec![0.0f64; nf]; teams];
        let mut money = vec![[0i64; 3]; teams]; // upgrades, treasury, trophies in whole money
        for pc in self.c.pieces.iter().flatten() {
            let k = pc.card as usize;
            if ctx.cards[k].king {
                continue;
            }
            let t = ctx.team_of[pc.owner as usize];
            counts[t][slot[k]] += 1.0;
            money[t][0] += pc.cost - ctx.cost[k];
            money[t][2] += pc.trophies;
        }
        for p in 0..self.np() {
            if !self.is_out(p) {
                money[ctx.team_of[p]][1] += self.c.treasury[p];
            }
        }
        for (t, m) in money.iter().enumerate() {
            for (j, &v) in m.iter().enumerate() {
                counts[t][nk - 1 + j] = v as f64 / 10.0;
            }
        }
        let mine = ctx.team_of[player];
        let others: Vec<usize> = (0..teams).filter(|&t| t != mine).collect();
        (0..nf)
            .map(|i| {
                let mut total = 0.0;
                for &o in &others {
                    total += counts[o][i];
                }
                let n = others.len().max(1);
                counts[mine][i] - total / n as f64
            })
            .collect()
    }

    /// The evaluation an agent searches with: the learned weights' sum over [`State::features`] (summed in
    /// order from 0, as Python's `sum`) while the game runs, else the hand evaluation [`State::eval`].
    pub fn weighted_eval(&self, player: usize) -> f64 {
        match &self.weights {
            Some(w) if self.c.result == R_NONE => crate::core::protocol::learned_sum(w, &self.features(player)),
            _ => self.eval(player),
        }
    }

    /// `action_priority`: removals first (by the victim's cost), then promotions, purchases, moves.
    pub fn priority(&self, d: &D) -> i64 {
        let ctx = &*self.ctx;
        let cost = |c: usize| self.c.pieces[c].map(|t| t.cost).unwrap_or(0);
        match *d {
            D::Strike { c, pawn, .. } => 1000 + cost(if pawn < 0 { c as usize } else { pawn as usize }),
            D::Take { c, .. } => 1000 + cost(c as usize),
            D::Area { s } => 1000 + self.area_cells(s as usize).iter().map(|&c| cost(c as usize)).sum::<i64>(),
            D::Pbuy { .. } => 900,
            D::Move { promo, .. } if promo > 0 => 800,
            D::Buy { k, .. } | D::Transform { k, .. } => 100 + ctx.cost[k as usize].div_euclid(10),
            _ => 0,
        }
    }

    /// The player whose action `d` is (setup actions name theirs).
    fn actor(&self, d: &D) -> usize {
        match *d {
            D::Place { p, .. } | D::Remove { p, .. } | D::Reloc { p, .. } | D::Ready { p } => p as usize,
            _ => self.c.to_move,
        }
    }

    pub fn letter_of(&self, p: usize) -> char {
        LETTERS[self.ctx.players[p] as usize] as char
    }
}

impl Game for State {
    fn current_player(&self) -> i32 {
        if self.c.result != R_NONE {
            return TERMINAL;
        }
        if self.c.setup {
            return (0..self.np())
                .find(|&p| self.c.ready >> p & 1 == 0 && !self.is_out(p))
                .map_or(TERMINAL, |p| p as i32);
        }
        self.c.to_move as i32
    }

    fn is_terminal(&self) -> bool {
        self.c.result != R_NONE
    }

    fn num_players(&self) -> usize {
        self.np()
    }

    fn team_of(&self, player: usize) -> usize {
        self.ctx.team_of[player]
    }

    /// The mover's own actions (`own_actions`: in the setup phase only the current player's).
    fn legal_actions(&self, out: &mut Vec<u32>) {
        out.clear();
        let l = self.legal_list();
        if self.c.setup {
            let me = self.current_player();
            out.extend(l.iter().filter(|a| self.actor(&a.d) as i32 == me).map(|a| a.id));
        } else {
            out.extend(l.iter().map(|a| a.id));
        }
    }

    fn chance_outcomes(&self, out: &mut Vec<(u32, f64)>) {
        out.clear();
    }

    fn apply(&mut self, action: u32) {
        let d = self.find(action).expect("apply: the action is not legal here");
        self.apply_desc(d);
    }

    fn undo(&mut self) {
        self.undo_last();
    }

    fn returns(&self, player: usize) -> f64 {
        if self.c.result != R_WIN || self.c.winner_team < 0 {
            return 0.0;
        }
        if self.ctx.team_of[player] as i32 == self.c.winner_team {
            1.0
        } else {
            -1.0
        }
    }

    fn evaluate(&self, player: usize) -> f64 {
        self.weighted_eval(player)
    }

    fn feature_count(&self) -> usize {
        State::feature_count(self)
    }

    fn set_eval_weights(&mut self, weights: Option<Arc<[f64]>>) -> Option<Arc<[f64]>> {
        std::mem::replace(&mut self.weights, weights)
    }

    fn action_priority(&self, action: u32) -> i64 {
        self.find(action).map_or(0, |d| self.priority(&d))
    }

    fn move_number(&self) -> usize {
        self.c.moves as usize
    }

    fn fork(&self) -> Self {
        State {
            ctx: self.ctx.clone(),
            c: self.c.clone(),
            history: Vec::new(),
            legal: RefCell::new(self.legal.borrow().clone()),
            record: false,
            weights: self.weights.clone(),
        }
    }
}
