//! `CursedState` (`workbench/games/cursed_lands/state.py`) line by line: turns and AP, production,
//! activation, movement, tiles, combat, victory, the automatic end (C40), counters and `fired`,
//! undo by snapshot, the agent's view, and the static evaluation (`insight.evaluate`).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use super::geo::{self, decode, geo, hex_of, sort_key, Kind, Set, SplitMix64, N, SIZE};
use super::rules::{Rules, UnitTable, DWARVES, ELVES, ORCS, RANGED};

pub const VOID: u8 = 0;
pub const PLAIN: u8 = 1;
pub const ROAD: u8 = 2;
pub const FOREST: u8 = 3;
pub const HILL: u8 = 4;
pub const MOUNTAIN: u8 = 5;
pub const CASTLE: u8 = 6;
pub const NO_CAMP: u8 = 0;
pub const CAMP_CASTLE: u8 = 1;
pub const CAMP_FLAG: u8 = 2;
pub const CAMP_FREE: u8 = 3;
pub const ACTIVATED: u8 = 1;
pub const FRESH: u8 = 2;
const OPENNESS: [u8; 7] = [0, 1, 1, 1, 1, 2, 0];

/// Victory kinds: none, castle, elimination, draw.
pub const V_NONE: u8 = 0;
pub const V_CASTLE: u8 = 1;
pub const V_ELIMINATION: u8 = 2;
pub const V_DRAW: u8 = 3;

pub const COUNTER_NAMES: [&str; 26] = [
    "tiles_placed_plain",
    "tiles_placed_road",
    "tiles_placed_forest",
    "tiles_placed_hill",
    "tiles_placed_mountain",
    "produced_S",
    "produced_A",
    "produced_C",
    "produced_R",
    "attacks_S",
    "attacks_A",
    "attacks_C",
    "attacks_R",
    "activations",
    "moves",
    "castle_attacks",
    "castle_damage",
    "units_destroyed",
    "forest_cover",
    "hill_range_bonus",
    "forest_range_penalty",
    "mountain_range_penalty",
    "road_bonus",
    "dwarf_mountain_entries",
    "counterattacks",
    "zero_damage_attacks",
];
pub const NC: usize = 26;
const TILES_PLACED: usize = 0;
const PRODUCED: usize = 5;
const ATTACKS: usize = 9;
const ACTIVATIONS: usize = 13;
const MOVES: usize = 14;
const CASTLE_ATTACKS: usize = 15;
const CASTLE_DAMAGE: usize = 16;
const UNITS_DESTROYED: usize = 17;
const FOREST_COVER: usize = 18;
const HILL_RANGE_BONUS: usize = 19;
const FOREST_RANGE_PENALTY: usize = 20;
const MOUNTAIN_RANGE_PENALTY: usize = 21;
const ROAD_BONUS: usize = 22;
const DWARF_MOUNTAIN_ENTRIES: usize = 23;
const COUNTERATTACKS: usize = 24;
const ZERO_DAMAGE: usize = 25;
/// `fired()` rule names: the counters, then these.
pub const FIRED_EXTRA: [&str; 5] =
    ["castle_hit_from", "victory_castle", "victory_elimination", "draw_turn_limit", "camp"];
const F_HIT_FROM: u8 = 26;
const F_VICTORY: u8 = 27; // + 0 castle, + 1 elimination
const F_DRAW: u8 = 29;
const F_CAMP: u8 = 30;
pub const MAX_FIRED: usize = 12;

/// The name of a `fired` rule index.
pub fn fired_name(i: u8) -> &'static str {
    let i = i as usize;
    if i < NC {
        COUNTER_NAMES[i]
    } else {
        FIRED_EXTRA[i - NC]
    }
}

/// A camp: castle hex and flag hexes by kind S A C R.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Camp {
    pub castle: u8,
    pub flags: [u8; 4],
}

/// Everything that changes in play, copied whole for undo.
#[derive(Clone, Copy)]
pub struct Core {
    pub setup: bool,
    pub to_move: u8,
    pub ap: i32,
    pub turn: i64,
    pub tiles_placed: i32,
    pub castle_hp: [i32; 2],
    pub camps: [Option<Camp>; 2],
    pub camp_kind: [u8; N],
    pub tile: [u8; N],
    pub terrain: [u8; N],
    pub owner: [i8; N],
    pub kind: [u8; N],
    pub hp: [i32; N],
    pub mark: [u8; N],
    pub unit_count: [i32; 2],
    pub deck_pos: [usize; 2],
    pub winner: i8,
    pub victory: u8,
    pub counts: [i64; 2 * NC],
    pub fired: [(u8, u8, i8); MAX_FIRED],
    pub nfired: u8,
    pub moves: u64,
}

/// One position of The Cursed Lands.
#[derive(Clone)]
pub struct State {
    pub rules: Arc<Rules>,
    pub units: Arc<UnitTable>,
    pub c: Core,
    /// Both decks as dealt or loaded, top first; `c.deck_pos` is how many were placed.
    pub decks: Arc<[Vec<u8>; 2]>,
    history: Vec<Core>,
    /// The evaluation's terrain tables by board, shared by the game's forks and views.
    cache: Arc<Mutex<TablesCache>>,
    /// Learned weights of [`State::features`] an agent searches with (`eval=NAME`); `None`: the hand evaluation.
    pub weights: Option<Arc<[f64]>>,
}

/// The evaluation's terrain tables by board, and the last board asked for (most evaluations of a search
/// share it).
#[derive(Default)]
pub struct TablesCache {
    boards: HashMap<[u8; N], Arc<TerrainTables>>,
    last: Option<([u8; N], Arc<TerrainTables>)>,
}

impl State {
    /// An empty board (no camps, no units, no decks) under `rules`, turn 1 of `first_player`.
    pub fn empty(rules: Rules) -> Self {
        let units = UnitTable::new(&rules);
        let t0 = if rules.untiled_plain { PLAIN } else { VOID };
        let c = Core {
            setup: false,
            to_move: 0,
            ap: 0,
            turn: 1,
            tiles_placed: 0,
            castle_hp: [rules.castle_hp; 2],
            camps: [None, None],
            camp_kind: [NO_CAMP; N],
            tile: [VOID; N],
            terrain: [t0; N],
            owner: [-1; N],
            kind: [0; N],
            hp: [0; N],
            mark: [0; N],
            unit_count: [0, 0],
            deck_pos: [0, 0],
            winner: -1,
            victory: V_NONE,
            counts: [0; 2 * NC],
            fired: [(0, 0, 0); MAX_FIRED],
            nfired: 0,
            moves: 0,
        };
        State {
            rules: Arc::new(rules),
            units: Arc::new(units),
            c,
            decks: Arc::new([Vec::new(), Vec::new()]),
            history: Vec::new(),
            cache: Arc::default(),
            weights: None,
        }
    }

    /// The classic start (section 2) or the setup phase, decks dealt from `seed`.
    pub fn classic(rules: Rules, seed: u64) -> Self {
        let mut st = State::empty(rules);
        let r = st.rules.clone();
        st.decks = Arc::new(geo::deal(&r.deck, seed));
        if r.setup_phase {
            st.c.setup = true;
            st.c.turn = 0;
            st.c.ap = 0;
            st.c.to_move = 0;
            return st;
        }
        for side in 0..2 {
            let row = if side == 0 { 1 } else { 9 };
            let h = |q: usize| hex_of(q, row) as u8;
            // flags by kind S A C R: S d, A f, C b, R h
            st.set_camp(side, h(4), [h(3), h(5), h(1), h(7)]);
            let extra = [2usize, 6, 0];
            for &q in extra.iter().take(r.starting_units as usize) {
                st.put_unit(hex_of(q, row), side, 0, None);
            }
        }
        st.c.to_move = r.first_player as u8;
        st.c.turn = 1;
        st.c.ap = r.ap_first_turn;
        st
    }

    pub fn set_decks(&mut self, p1: Vec<u8>, p2: Vec<u8>) {
        self.decks = Arc::new([p1, p2]);
        self.c.deck_pos = [0, 0];
    }

    // ------------------------------------------------------------------ board helpers
    pub fn set_camp(&mut self, side: usize, castle: u8, flags: [u8; 4]) {
        self.c.camps[side] = Some(Camp { castle, flags });
        let row = if side == 0 { 1 } else { 9 };
        let start = hex_of(0, row);
        for h in start..start + SIZE {
            self.c.camp_kind[h] = if h == castle as usize {
                CAMP_CASTLE
            } else if flags.contains(&(h as u8)) {
                CAMP_FLAG
            } else {
                CAMP_FREE
            };
            self.refresh_terrain(h);
        }
    }

    fn refresh_terrain(&mut self, h: usize) {
        let ck = self.c.camp_kind[h];
        self.c.terrain[h] = if ck == CAMP_CASTLE {
            CASTLE
        } else if self.c.tile[h] != 0 {
            self.c.tile[h]
        } else if ck != NO_CAMP || self.rules.untiled_plain {
            PLAIN
        } else {
            VOID
        };
    }

    pub fn put_tile(&mut self, h: usize, code: u8) {
        self.c.tile[h] = code;
        self.refresh_terrain(h);
    }

    pub fn put_unit(&mut self, h: usize, side: usize, kind: usize, hp: Option<i32>) {
        self.c.owner[h] = side as i8;
        self.c.kind[h] = kind as u8;
        self.c.hp[h] = hp.unwrap_or_else(|| self.full_hp(side, kind));
        self.c.mark[h] = 0;
        self.c.unit_count[side] += 1;
    }

    fn remove_unit(&mut self, h: usize) {
        self.c.unit_count[self.c.owner[h] as usize] -= 1;
        self.c.owner[h] = -1;
        self.c.kind[h] = 0;
        self.c.hp[h] = 0;
        self.c.mark[h] = 0;
    }

    pub fn faction(&self, side: usize) -> usize {
        self.rules.factions[side]
    }

    pub fn full_hp(&self, side: usize, kind: usize) -> i32 {
        self.units.hp[self.faction(side)][kind]
    }

    pub fn castle_of(&self, side: usize) -> i32 {
        self.c.camps[side].map_or(-1, |c| c.castle as i32)
    }

    pub fn flag_of(&self, side: usize, kind: usize) -> i32 {
        self.c.camps[side].map_or(-1, |c| c.flags[kind] as i32)
    }

    /// The remaining deck of `side`, top first.
    pub fn deck(&self, side: usize) -> &[u8] {
        &self.decks[side][self.c.deck_pos[side]..]
    }

    pub fn deck_top(&self, side: usize) -> Option<u8> {
        self.deck(side).first().copied()
    }

    // ------------------------------------------------------------------ queries
    pub fn is_terminal(&self) -> bool {
        self.c.victory != V_NONE
    }

    pub fn winner(&self) -> Option<usize> {
        (self.c.winner >= 0).then_some(self.c.winner as usize)
    }

    pub fn returns(&self, player: usize) -> f64 {
        match self.winner() {
            None => 0.0,
            Some(w) if w == player => 1.0,
            Some(_) => -1.0,
        }
    }

    pub fn current_player(&self) -> i32 {
        if self.is_terminal() {
            -4
        } else {
            self.c.to_move as i32
        }
    }

    pub fn fired(&self) -> &[(u8, u8, i8)] {
        &self.c.fired[..self.c.nfired as usize]
    }

    fn fire(&mut self, rule: u8, side: usize, cell: i32) {
        let i = self.c.nfired as usize;
        self.c.fired[i] = (rule, side as u8, cell as i8);
        self.c.nfired += 1;
    }

    fn count(&mut self, side: usize, i: usize, by: i64) {
        self.c.counts[side * NC + i] += by;
    }

    // ------------------------------------------------------------------ movement and targets
    pub fn allowance(&self, h: usize) -> i32 {
        let f = self.faction(self.c.owner[h] as usize);
        let k = self.c.kind[h] as usize;
        let mut m = self.units.movement[f][k];
        if self.c.terrain[h] == ROAD {
            m += self.units.road[f];
        }
        m
    }

    pub fn open_hexes(&self) -> [u8; N] {
        let mut o = [0u8; N];
        for h in 0..N {
            o[h] = if self.c.owner[h] >= 0 { 0 } else { OPENNESS[self.c.terrain[h] as usize] };
        }
        o
    }

    /// Hex -> most movement left (-1 = unreachable), the unit's own hex included (C9).
    pub fn reach(&self, h: usize, open: &[u8; N], best: &mut [i32; N]) {
        let g = geo();
        best.fill(-1);
        let dwarf = self.faction(self.c.owner[h] as usize) == DWARVES;
        let mut lc = self.allowance(h);
        best[h] = lc;
        let mut frontier = vec![h];
        let mut nxt = Vec::new();
        while !frontier.is_empty() && lc > 0 {
            lc -= 1;
            nxt.clear();
            for &cur in &frontier {
                for &n in &g.neighbours[cur] {
                    let o = open[n];
                    if o == 0 || best[n] >= 0 {
                        continue;
                    }
                    if o == 2 {
                        if dwarf {
                            best[n] = 0;
                        }
                        continue;
                    }
                    best[n] = lc;
                    nxt.push(n);
                }
            }
            std::mem::swap(&mut frontier, &mut nxt);
        }
    }

    pub fn shot_range(&self, at: usize, side: usize, kind: usize) -> i32 {
        let f = self.faction(side);
        let mut rng = self.units.range[kind];
        let t = self.c.terrain[at];
        if t == HILL && f != ORCS {
            rng += self.rules.hill_range_bonus;
        } else if t == FOREST && f != ELVES {
            rng -= self.rules.forest_range_penalty;
        }
        rng
    }

    /// Enemy units and the enemy castle a unit of `side`/`kind` on `at` may attack.
    pub fn targets_from(&self, at: usize, side: usize, kind: usize, out: &mut Vec<usize>) {
        let g = geo();
        let enemy = (1 - side) as i8;
        let castle = self.castle_of(1 - side);
        if !RANGED[kind] {
            for &n in &g.neighbours[at] {
                if self.c.owner[n] == enemy || n as i32 == castle {
                    out.push(n);
                }
            }
            return;
        }
        let rng = self.shot_range(at, side, kind);
        let pen = self.rules.mountain_range_penalty;
        for ray in &g.rays[at] {
            let mut m = 0;
            for (i, &t) in ray.iter().enumerate() {
                if (i + 1) as i32 > rng - pen * m {
                    break;
                }
                if self.c.owner[t] == enemy || t as i32 == castle {
                    out.push(t);
                }
                if self.c.terrain[t] == MOUNTAIN {
                    m += 1;
                }
            }
        }
    }

    pub fn mountains_between(&self, at: usize, target: usize) -> i32 {
        let g = geo();
        let (d, pos) = g.line[at][target];
        if d == 255 {
            return 0;
        }
        g.rays[at][d as usize][..pos as usize - 1].iter().filter(|&&t| self.c.terrain[t] == MOUNTAIN).count() as i32
    }

    // ------------------------------------------------------------------ tiles
    pub fn tile_hexes(&self, side: usize, out: &mut Vec<u32>) {
        let Some(top) = self.deck_top(side) else { return };
        let g = geo();
        for h in 0..N {
            if self.c.tile[h] != 0 || self.c.owner[h] >= 0 {
                continue;
            }
            let ck = self.c.camp_kind[h];
            if ck != NO_CAMP && !(ck == CAMP_FREE && self.rules.tiles_on_camp) {
                continue;
            }
            if !g.neighbours[h].iter().any(|&n| self.c.tile[n] != 0 || self.c.camp_kind[n] != 0) {
                continue;
            }
            if top == MOUNTAIN && !self.mountain_fits(h) {
                continue;
            }
            out.push(geo::TILE + h as u32);
        }
    }

    fn mountain_fits(&self, h: usize) -> bool {
        let g = geo();
        if g.neighbours[h].iter().any(|&n| self.c.tile[n] == MOUNTAIN) {
            return false;
        }
        let r0 = (h / SIZE) * SIZE;
        ((r0..r0 + SIZE).filter(|&x| self.c.tile[x] == MOUNTAIN).count() as i32) < self.rules.max_mountains_per_row
    }

    // ------------------------------------------------------------------ legal actions
    /// Number of legal actions (the setup phase counts its camps without listing them).
    pub fn legal_count(&self) -> usize {
        if self.is_terminal() {
            return 0;
        }
        if self.c.setup {
            return geo::camp_count(self.rules.starting_units as usize);
        }
        let mut out = Vec::new();
        self.legal_actions(&mut out);
        out.len()
    }

    /// Legal actions in code-point order of their canonical strings (C51); in the setup phase
    /// the whole camp list (large: use `legal_count` / `geo::camp_at` where possible).
    pub fn legal_actions(&self, out: &mut Vec<u32>) {
        out.clear();
        if self.is_terminal() {
            return;
        }
        if self.c.setup {
            let n = self.rules.starting_units as usize;
            let count = geo::camp_count(n);
            out.reserve(count);
            for i in 0..count {
                out.push(geo::camp_at(n, i));
            }
            return;
        }
        let g = geo();
        let r = &*self.rules;
        let p = self.c.to_move as usize;
        let ap = self.c.ap;
        out.push(geo::END);
        for k in 0..4 {
            if ap >= r.produce_cost[k] && self.c.owner[self.flag_of(p, k) as usize] < 0 {
                out.push(geo::PRODUCE + k as u32);
            }
        }
        if ap >= r.tile_cost && (r.tiles_per_turn == 0 || self.c.tiles_placed < r.tiles_per_turn) {
            self.tile_hexes(p, out);
        }
        let can_move = ap >= r.activation_cost;
        let can_attack = ap >= r.attack_cost();
        if can_move || can_attack {
            let enemy = (1 - p) as i8;
            let mut goals: Vec<usize> = (0..N).filter(|&h| self.c.owner[h] == enemy).collect();
            let castle = self.castle_of(1 - p);
            if castle >= 0 {
                goals.push(castle as usize);
            }
            let open = self.open_hexes();
            let mut zones: [Option<Set>; 17] = [None; 17];
            let mut left = [-1i32; N];
            let mut tg = Vec::new();
            let n = N as u32;
            for h in 0..N {
                if self.c.owner[h] != p as i8 || self.c.mark[h] != 0 {
                    continue;
                }
                let k = self.c.kind[h] as usize;
                self.reach(h, &open, &mut left);
                if can_move {
                    for t in 0..N {
                        if t != h && left[t] >= 0 {
                            out.push(geo::MOVE + h as u32 * n + t as u32);
                        }
                    }
                }
                if !can_attack || goals.is_empty() {
                    continue;
                }
                let longest = if RANGED[k] { (self.units.range[k] + r.hill_range_bonus).min(16) } else { 1 };
                let zone = *zones[longest as usize]
                    .get_or_insert_with(|| goals.iter().fold(0u128, |acc, &gl| acc | g.within[longest as usize][gl]));
                if zone >> h & 1 == 1 {
                    tg.clear();
                    self.targets_from(h, p, k, &mut tg);
                    for &t in &tg {
                        out.push(geo::ATTACK + h as u32 * n + t as u32);
                    }
                }
                for t in 0..N {
                    if left[t] >= 1 && t != h && zone >> t & 1 == 1 {
                        tg.clear();
                        self.targets_from(t, p, k, &mut tg);
                        let base = geo::MOVE_ATTACK + (h as u32 * n + t as u32) * n;
                        for &x in &tg {
                            out.push(base + x as u32);
                        }
                    }
                }
            }
        }
        out.sort_unstable_by_key(|&a| sort_key(a));
    }

    pub fn is_legal(&self, a: u32) -> bool {
        if self.is_terminal() {
            return false;
        }
        if self.c.setup {
            return geo::camp_is_valid(a, self.rules.starting_units as usize);
        }
        let mut out = Vec::new();
        self.legal_actions(&mut out);
        out.contains(&a)
    }

    // ------------------------------------------------------------------ apply / undo
    /// Play a legal action (the caller checks legality: `is_legal`).
    pub fn apply(&mut self, a: u32) {
        self.history.push(self.c);
        self.c.nfired = 0;
        self.c.moves += 1;
        if self.c.setup {
            self.apply_camp(a);
            return;
        }
        let (kind, f, t, g) = decode(a);
        let p = self.c.to_move as usize;
        let r = self.rules.clone();
        match kind {
            Kind::End => {
                self.end_turn();
                return;
            }
            Kind::Produce => {
                let k = f as usize;
                let h = self.flag_of(p, k) as usize;
                self.put_unit(h, p, k, None);
                self.c.mark[h] = FRESH;
                self.c.ap -= r.produce_cost[k];
                self.count(p, PRODUCED + k, 1);
                self.fire((PRODUCED + k) as u8, p, h as i32);
            }
            Kind::Tile => {
                let code = self.deck_top(p).expect("tile from an empty deck");
                self.c.deck_pos[p] += 1;
                self.put_tile(t as usize, code);
                self.c.tiles_placed += 1;
                self.c.ap -= r.tile_cost;
                let i = TILES_PLACED + code as usize - 1;
                self.count(p, i, 1);
                self.fire(i as u8, p, t);
            }
            _ => self.activate(p, f as usize, t as usize, g),
        }
        if !self.is_terminal() && self.c.ap == 0 {
            let only_end = r.auto_zero || r.all_costs_positive() || {
                let mut out = Vec::new();
                self.legal_actions(&mut out);
                out == [geo::END]
            };
            if only_end {
                self.end_turn();
            }
        }
    }

    fn activate(&mut self, p: usize, f: usize, t: usize, g: i32) {
        let k = self.c.kind[f] as usize;
        let fac = self.faction(p);
        self.count(p, ACTIVATIONS, 1);
        self.c.ap -= if g >= 0 { self.rules.attack_cost() } else { self.rules.activation_cost };
        let mut at = f;
        if t != f {
            let open = self.open_hexes();
            let mut left = [-1i32; N];
            self.reach(f, &open, &mut left);
            let allowance = left[f];
            let base = self.units.movement[fac][k];
            let used = allowance - left[t];
            if allowance > base && used > base - i32::from(g >= 0) {
                self.count(p, ROAD_BONUS, 1);
                self.fire(ROAD_BONUS as u8, p, f as i32);
            }
            if self.c.terrain[t] == MOUNTAIN {
                self.count(p, DWARF_MOUNTAIN_ENTRIES, 1);
                self.fire(DWARF_MOUNTAIN_ENTRIES as u8, p, t as i32);
            }
            self.c.owner[t] = p as i8;
            self.c.kind[t] = k as u8;
            self.c.hp[t] = self.c.hp[f];
            self.c.owner[f] = -1;
            self.c.kind[f] = 0;
            self.c.hp[f] = 0;
            self.c.mark[f] = 0;
            self.count(p, MOVES, 1);
            at = t;
        }
        self.c.mark[at] = ACTIVATED;
        if g >= 0 {
            self.attack(p, at, g as usize);
        }
    }

    fn ignores_cover(&self, side: usize, kind: usize) -> bool {
        self.faction(side) == ELVES && (self.rules.elf_ignore_all || RANGED[kind])
    }

    fn covered(&self, side: usize, kind: usize, target: usize) -> bool {
        if self.c.terrain[target] != FOREST || self.rules.forest_cover <= 0 || self.ignores_cover(side, kind) {
            return false;
        }
        self.rules.orc_cover || self.faction(self.c.owner[target] as usize) != ORCS
    }

    fn damage(&self, side: usize, kind: usize, target: usize) -> i32 {
        let mut d = self.units.attack[self.faction(side)][kind];
        if self.covered(side, kind, target) {
            d -= self.rules.forest_cover;
        }
        d.max(0)
    }

    fn attack(&mut self, p: usize, at: usize, g: usize) {
        let k = self.c.kind[at] as usize;
        let e = 1 - p;
        let r = self.rules.clone();
        self.count(p, ATTACKS + k, 1);
        if RANGED[k] {
            let terrain = self.c.terrain[at];
            let fac = self.faction(p);
            if terrain == HILL && fac != ORCS && r.hill_range_bonus != 0 {
                self.count(p, HILL_RANGE_BONUS, 1);
                self.fire(HILL_RANGE_BONUS as u8, p, at as i32);
            } else if terrain == FOREST && fac != ELVES && r.forest_range_penalty != 0 {
                self.count(p, FOREST_RANGE_PENALTY, 1);
                self.fire(FOREST_RANGE_PENALTY as u8, p, at as i32);
            }
            if r.mountain_range_penalty != 0 && self.mountains_between(at, g) != 0 {
                self.count(p, MOUNTAIN_RANGE_PENALTY, 1);
                self.fire(MOUNTAIN_RANGE_PENALTY as u8, p, g as i32);
            }
        }
        if g as i32 == self.castle_of(e) {
            let dmg = self.units.attack[self.faction(p)][k].max(0);
            let before = self.c.castle_hp[e];
            self.c.castle_hp[e] = (before - dmg).max(0);
            self.count(p, CASTLE_ATTACKS, 1);
            self.count(p, CASTLE_DAMAGE, (before - self.c.castle_hp[e]) as i64);
            self.fire(CASTLE_DAMAGE as u8, p, g as i32);
            self.fire(F_HIT_FROM, p, at as i32);
            if dmg == 0 {
                self.count(p, ZERO_DAMAGE, 1);
            }
            if self.c.castle_hp[e] == 0 {
                self.win(p, V_CASTLE);
            }
            return;
        }
        if self.covered(p, k, g) {
            self.count(e, FOREST_COVER, 1);
            self.fire(FOREST_COVER as u8, e, g as i32);
        }
        let dmg = self.damage(p, k, g);
        if dmg == 0 {
            self.count(p, ZERO_DAMAGE, 1);
        }
        self.c.hp[g] -= dmg;
        if self.c.hp[g] <= 0 {
            self.remove_unit(g);
            self.count(p, UNITS_DESTROYED, 1);
            self.fire(UNITS_DESTROYED as u8, p, g as i32);
            if self.c.unit_count[e] == 0 {
                self.win(p, V_ELIMINATION);
            }
            return;
        }
        let melee = |x: usize| x == 0 || x == 2;
        let kd = self.c.kind[g] as usize;
        if r.counter_melee && melee(k) && melee(kd) {
            if self.covered(e, kd, at) {
                self.count(p, FOREST_COVER, 1);
            }
            let dmg2 = self.damage(e, kd, at);
            self.count(e, COUNTERATTACKS, 1);
            self.fire(COUNTERATTACKS as u8, e, at as i32);
            self.c.hp[at] -= dmg2;
            if self.c.hp[at] <= 0 {
                self.remove_unit(at);
                self.count(e, UNITS_DESTROYED, 1);
                self.fire(UNITS_DESTROYED as u8, e, at as i32);
                if self.c.unit_count[p] == 0 {
                    self.win(e, V_ELIMINATION);
                }
            }
        }
    }

    fn win(&mut self, side: usize, how: u8) {
        self.c.winner = side as i8;
        self.c.victory = how;
        self.fire(F_VICTORY + how - V_CASTLE, side, -1);
    }

    fn end_turn(&mut self) {
        let r = &*self.rules;
        if r.turn_limit != 0 && self.c.turn >= r.turn_limit as i64 {
            self.c.victory = V_DRAW;
            let side = self.c.to_move as usize;
            self.fire(F_DRAW, side, -1);
            return;
        }
        self.c.to_move = 1 - self.c.to_move;
        self.c.ap = r.ap_per_turn;
        self.c.mark = [0; N];
        self.c.tiles_placed = 0;
        self.c.turn += 1;
    }

    fn apply_camp(&mut self, a: u32) {
        let p = self.c.to_move as usize;
        let (castle_col, flag_cols, units) = geo::decode_camp(a, self.rules.starting_units as usize);
        let row = if p == 0 { 1 } else { 9 };
        let fl = flag_cols.map(|c| hex_of(c, row) as u8);
        self.set_camp(p, hex_of(castle_col, row) as u8, fl);
        for &(c, k) in units {
            self.put_unit(hex_of(c, row), p, k, None);
        }
        self.fire(F_CAMP, p, hex_of(castle_col, row) as i32);
        if p == 0 {
            self.c.to_move = 1;
            return;
        }
        self.c.setup = false;
        self.c.to_move = self.rules.first_player as u8;
        self.c.turn = 1;
        self.c.ap = self.rules.ap_first_turn;
        self.c.tiles_placed = 0;
    }

    /// Take back the last action; false when there is none.
    pub fn undo(&mut self) -> bool {
        match self.history.pop() {
            Some(c) => {
                self.c = c;
                true
            }
            None => false,
        }
    }

    pub fn history_len(&self) -> usize {
        self.history.len()
    }

    /// A copy without undo history (MCTS simulations, views).
    pub fn fork(&self) -> State {
        State {
            rules: self.rules.clone(),
            units: self.units.clone(),
            c: self.c,
            decks: self.decks.clone(),
            history: Vec::new(),
            cache: self.cache.clone(),
            weights: self.weights.clone(),
        }
    }

    /// `view(player, seed)`: what no player can know (the order below each top, the top too under
    /// `deck_top_visible=false`) reshuffled with SplitMix64 from `seed`; no undo history.
    pub fn view(&self, seed: u64) -> State {
        let mut new = self.fork();
        let keep = usize::from(self.rules.deck_top_visible);
        let mut gen = SplitMix64(seed);
        let mut decks = [self.deck(0).to_vec(), self.deck(1).to_vec()];
        for d in decks.iter_mut() {
            if d.len() > keep {
                gen.shuffle(&mut d[keep..]);
            }
        }
        new.decks = Arc::new(decks);
        new.c.deck_pos = [0, 0];
        if keep == 0 {
            new.match_offered_tiles(self);
        }
        new
    }

    /// Under a hidden top the view allows exactly the placements the agent is offered (C5, C46): when
    /// the reshuffled top places elsewhere, the first tile below it of the real top's class (mountain
    /// or not) is swapped up; as `state.py`'s `_match_offered_tiles`.
    fn match_offered_tiles(&mut self, real: &State) {
        let r = &*real.rules;
        let p = real.c.to_move as usize;
        if real.is_terminal() || real.c.setup || real.c.ap < r.tile_cost {
            return;
        }
        if r.tiles_per_turn != 0 && real.c.tiles_placed >= r.tiles_per_turn {
            return;
        }
        let (mut mine, mut theirs) = (Vec::new(), Vec::new());
        self.tile_hexes(p, &mut mine);
        real.tile_hexes(p, &mut theirs);
        if mine == theirs {
            return;
        }
        let want = real.deck_top(p) == Some(MOUNTAIN);
        let mut decks = [self.deck(0).to_vec(), self.deck(1).to_vec()];
        if let Some(i) = (1..decks[p].len()).find(|&i| (decks[p][i] == MOUNTAIN) == want) {
            decks[p].swap(0, i);
            self.decks = Arc::new(decks);
            self.c.deck_pos = [0, 0];
        }
    }

    // ------------------------------------------------------------------ evaluation (insight.py)
    /// `action_priority`: castle attacks, attacks, production, moves, tiles, camp, end.
    pub fn action_priority(&self, a: u32) -> i64 {
        let (kind, _, _, g) = decode(a);
        if g >= 0 {
            return if g == self.castle_of(1 - self.c.to_move as usize) { 30 } else { 20 };
        }
        match kind {
            Kind::Produce => 10,
            Kind::Tile => 5,
            Kind::Move => 8,
            Kind::Camp => 1,
            _ => 0,
        }
    }

    fn depth(&self, side: usize) -> i32 {
        let cap: i32 = DEPTH_CAP;
        if self.rules.untiled_plain {
            return cap;
        }
        if self.c.camps[side].is_none() {
            return 0;
        }
        let dwarf = self.faction(side) == DWARVES;
        let g = geo();
        let home: i32 = if side == 0 { 1 } else { 9 };
        let mut walk: Set = 0;
        for h in 0..N {
            let t = self.c.terrain[h];
            if !(t == VOID || t == CASTLE || (t == MOUNTAIN && !dwarf)) {
                walk |= 1 << h;
            }
        }
        let r0 = (home as usize - 1) * SIZE;
        let mut frontier: Set = 0;
        for h in r0..r0 + SIZE {
            if self.c.terrain[h] != CASTLE {
                frontier |= 1 << h;
            }
        }
        let mut seen = frontier;
        let mut depth = 0;
        while frontier != 0 && depth < cap {
            let mut nxt: Set = 0;
            let mut f = frontier;
            while f != 0 {
                let cur = f.trailing_zeros() as usize;
                f &= f - 1;
                nxt |= g.nb_mask[cur];
            }
            nxt &= walk & !seen;
            seen |= nxt;
            let mut x = nxt;
            while x != 0 {
                let n = x.trailing_zeros() as usize;
                x &= x - 1;
                let d = ((n / SIZE) as i32 + 1 - home).abs();
                if d > depth {
                    depth = d;
                }
            }
            frontier = nxt;
        }
        depth.min(cap)
    }

    /// Walking cost from every hex to the nearest hex of `targets` (-1: no route): entering a walkable
    /// hex costs 1, a void hex `void_step` (a tile is still to be laid there); `open` and `void` are the
    /// hexes a unit of the side may enter or that are untiled (units ignored: they move). Costs beyond
    /// `ADVANCE_HORIZON` are left at -1: the evaluation adds `W_ADVANCE * 0.0` for them, which changes
    /// no sum, so the walk stops there.
    fn walk_from(targets: Set, open: Set, void: Set, void_step: usize, out: &mut [i8; N]) {
        let g = geo();
        out.fill(-1);
        let passable = open | void;
        // Dial's algorithm on bit sets: ring[d % 4] holds the hexes reached at cost d
        let mut ring: [Set; 4] = [0; 4];
        ring[0] = targets & passable;
        let mut done: Set = 0;
        let mut d = 0usize;
        while d <= ADVANCE_HORIZON as usize && ring.iter().any(|&r| r & !done != 0) {
            let cur = ring[d % 4] & !done;
            ring[d % 4] = 0;
            done |= cur;
            let (mut step1, mut step_v): (Set, Set) = (0, 0);
            let mut x = cur;
            while x != 0 {
                let y = x.trailing_zeros() as usize;
                x &= x - 1;
                out[y] = d as i8;
                if void >> y & 1 == 1 {
                    step_v |= g.nb_mask[y];
                } else {
                    step1 |= g.nb_mask[y];
                }
            }
            ring[(d + 1) % 4] |= step1 & passable & !done;
            ring[(d + void_step) % 4] |= step_v & passable & !done;
            d += 1;
        }
    }

    /// The evaluation's terrain tables (`insight._terrain_tables`), built once per board.
    pub fn terrain_tables(&self) -> Arc<TerrainTables> {
        {
            let mut cache = self.cache.lock().expect("cache");
            if let Some((terrain, t)) = &cache.last {
                if *terrain == self.c.terrain {
                    return t.clone();
                }
            }
            let hit = cache.boards.get(&self.c.terrain).cloned();
            if let Some(t) = hit {
                cache.last = Some((self.c.terrain, t.clone()));
                return t;
            }
        }
        let g = geo();
        let mut t = TerrainTables { walk: [[[-1; N]; 3]; 2], depth: [self.depth(0), self.depth(1)] };
        let void_step = VOID_STEP;
        for side in 0..2 {
            let castle = self.castle_of(1 - side);
            if castle < 0 {
                continue;
            }
            let ec = castle as usize;
            let f = self.faction(side);
            let dwarf = f == DWARVES;
            let (mut open, mut void): (Set, Set) = (0, 0);
            for h in 0..N {
                let tr = self.c.terrain[h];
                if tr == VOID {
                    void |= 1 << h;
                } else if !(tr == CASTLE || (tr == MOUNTAIN && !dwarf)) {
                    open |= 1 << h;
                }
            }
            Self::walk_from(g.nb_mask[ec], open, void, void_step, &mut t.walk[side][0]);
            // the hexes from which the ranged kinds (1 and 3) reach the castle: walked out along the
            // castle's six lines, counting the mountains passed, which is `line[h][castle]` and
            // `mountains_between(h, castle)` read from the other end (the lines are symmetric)
            let mut fire: [Set; 2] = [0, 0];
            for ray in &g.rays[ec] {
                let mut m = 0;
                for (j, &h) in ray.iter().enumerate() {
                    let tr = self.c.terrain[h];
                    let mut bonus = 0;
                    if tr == HILL && f != ORCS {
                        bonus = self.rules.hill_range_bonus;
                    } else if tr == FOREST && f != ELVES {
                        bonus = -self.rules.forest_range_penalty;
                    }
                    for (i, kind) in [1usize, 3].into_iter().enumerate() {
                        if (j + 1) as i32 <= self.units.range[kind] + bonus - self.rules.mountain_range_penalty * m {
                            fire[i] |= 1 << h;
                        }
                    }
                    if tr == MOUNTAIN {
                        m += 1;
                    }
                }
            }
            for (i, slot) in [1usize, 2].into_iter().enumerate() {
                Self::walk_from(fire[i], open, void, void_step, &mut t.walk[side][slot]);
            }
        }
        let t = Arc::new(t);
        let mut cache = self.cache.lock().expect("cache");
        if cache.boards.len() >= 4096 {
            cache.boards.clear();
        }
        cache.boards.insert(self.c.terrain, t.clone());
        cache.last = Some((self.c.terrain, t.clone()));
        t
    }

    /// `insight.evaluate`, the same floats summed in the same order, rounded to 6 places.
    pub fn evaluate(&self, player: usize) -> f64 {
        if self.is_terminal() {
            return match self.winner() {
                None => 0.0,
                Some(w) if w == player => 1000.0,
                Some(_) => -1000.0,
            };
        }
        let g = geo();
        let tables = self.terrain_tables();
        let mut score = [0.0f64; 2];
        let mut units: [Set; 2] = [0, 0];
        let mut zones: [Set; 2] = [0, 0];
        let mut zone_of = [0 as Set; N];
        let mut value = [0.0f64; N];
        for h in 0..N {
            let side = self.c.owner[h];
            if side < 0 {
                continue;
            }
            let side = side as usize;
            let k = self.c.kind[h] as usize;
            let f = self.faction(side);
            let v = W_UNIT + W_HP * self.c.hp[h] as f64 + W_ATTACK * self.units.attack[f][k] as f64;
            score[side] += v;
            value[h] = v;
            let radius = self.allowance(h) + if RANGED[k] { self.shot_range(h, side, k) } else { 1 };
            units[side] |= 1 << h;
            let zone = g.within[radius.clamp(0, 16) as usize][h];
            zone_of[h] = zone;
            zones[side] |= zone;
        }
        let horizon = ADVANCE_HORIZON;
        for side in 0..2 {
            let mut s = W_CASTLE * self.c.castle_hp[side] as f64
                + W_DECK * self.deck(side).len() as f64
                + W_DEPTH * tables.depth[side] as f64;
            let ecastle = self.castle_of(1 - side);
            if ecastle >= 0 {
                let f = self.faction(side);
                let mut u = units[side];
                while u != 0 {
                    let h = u.trailing_zeros() as usize;
                    u &= u - 1;
                    let k = self.c.kind[h] as usize;
                    let w = tables.walk[side][WALK_CLASS[k]][h] as i32;
                    if w >= 0 {
                        s += W_ADVANCE * (horizon - w).max(0) as f64;
                        if w == 0 {
                            s += W_SIEGE * self.units.attack[f][k] as f64;
                        }
                    }
                }
                if zones[side] >> ecastle & 1 == 1 {
                    s += W_THREAT_CASTLE;
                }
            }
            let threatened = (units[1 - side] & zones[side]).count_ones();
            s += W_THREAT_UNIT * threatened as f64;
            score[side] += s;
        }
        if !self.c.setup {
            score[self.c.to_move as usize] += W_AP * self.c.ap as f64;
        }
        // hanging units: the enemy has a unit whose zone holds it and whose damage would destroy it; the set
        // is found from the enemies' side (few units sit in any zone), then subtracted in board order, as
        // `insight.evaluate` sums it
        for side in 0..2 {
            let mut hanging = self.hanging(side, &units, &zone_of);
            while hanging != 0 {
                let h = hanging.trailing_zeros() as usize;
                hanging &= hanging - 1;
                score[side] -= W_HANG * value[h];
            }
        }
        round6(score[player] - score[1 - player])
    }

    /// `side`'s hanging units: an enemy unit's zone holds each and its damage would destroy it. Found from the
    /// enemies' side (few units sit in any zone); the callers sum them in board order, as `insight` does.
    fn hanging(&self, side: usize, units: &[Set; 2], zone_of: &[Set; N]) -> Set {
        let mut hanging: Set = 0;
        let mut e = units[1 - side];
        while e != 0 {
            let a = e.trailing_zeros() as usize;
            e &= e - 1;
            let mut u = zone_of[a] & units[side] & !hanging;
            while u != 0 {
                let h = u.trailing_zeros() as usize;
                u &= u - 1;
                if self.damage(1 - side, self.c.kind[a] as usize, h) >= self.c.hp[h] {
                    hanging |= 1 << h;
                }
            }
        }
        hanging
    }

    /// `insight.features`: the evaluation's terms from `player`'s side (own minus enemy) in the Python
    /// order: a count per unit kind, then unit HP, unit attack, castle HP, deck, depth, advance, siege,
    /// castle threat, unit threats, AP and hanging units; all 0 once the game is over.
    pub fn features(&self, player: usize) -> [f64; N_FEATURES] {
        let mut out = [0.0; N_FEATURES];
        if self.is_terminal() {
            return out;
        }
        let g = geo();
        let tables = self.terrain_tables();
        let mut terms = [[0.0f64; N_FEATURES]; 2];
        let mut units: [Set; 2] = [0, 0];
        let mut zones: [Set; 2] = [0, 0];
        let mut zone_of = [0 as Set; N];
        let mut value = [0.0f64; N];
        for h in 0..N {
            let side = self.c.owner[h];
            if side < 0 {
                continue;
            }
            let side = side as usize;
            let k = self.c.kind[h] as usize;
            let f = self.faction(side);
            let t = &mut terms[side];
            t[k] += 1.0;
            t[F_UNIT_HP] += self.c.hp[h] as f64;
            t[F_UNIT_ATTACK] += self.units.attack[f][k] as f64;
            value[h] = W_UNIT + W_HP * self.c.hp[h] as f64 + W_ATTACK * self.units.attack[f][k] as f64;
            let radius = self.allowance(h) + if RANGED[k] { self.shot_range(h, side, k) } else { 1 };
            units[side] |= 1 << h;
            let zone = g.within[radius.clamp(0, 16) as usize][h];
            zone_of[h] = zone;
            zones[side] |= zone;
        }
        for side in 0..2 {
            let t = &mut terms[side];
            t[F_CASTLE_HP] += self.c.castle_hp[side] as f64;
            t[F_DECK] += self.deck(side).len() as f64;
            t[F_DEPTH] += tables.depth[side] as f64;
            let ecastle = self.castle_of(1 - side);
            if ecastle >= 0 {
                let f = self.faction(side);
                let mut u = units[side];
                while u != 0 {
                    let h = u.trailing_zeros() as usize;
                    u &= u - 1;
                    let k = self.c.kind[h] as usize;
                    let w = tables.walk[side][WALK_CLASS[k]][h] as i32;
                    if w >= 0 {
                        t[F_ADVANCE] += (ADVANCE_HORIZON - w).max(0) as f64;
                        if w == 0 {
                            t[F_SIEGE] += self.units.attack[f][k] as f64;
                        }
                    }
                }
                if zones[side] >> ecastle & 1 == 1 {
                    t[F_THREAT_CASTLE] += 1.0;
                }
            }
            t[F_THREAT_UNITS] += (units[1 - side] & zones[side]).count_ones() as f64;
        }
        if !self.c.setup {
            terms[self.c.to_move as usize][F_AP] += self.c.ap as f64;
        }
        for side in 0..2 {
            let mut hanging = self.hanging(side, &units, &zone_of);
            while hanging != 0 {
                let h = hanging.trailing_zeros() as usize;
                hanging &= hanging - 1;
                terms[side][F_HANGING] += value[h];
            }
        }
        for (i, o) in out.iter_mut().enumerate() {
            *o = terms[player][i] - terms[1 - player][i];
        }
        out
    }

    /// The evaluation an agent searches with: the learned weights' sum over [`State::features`] (summed in
    /// order from 0, as Python's `sum`) while the game runs, else the hand evaluation [`State::evaluate`].
    pub fn weighted_eval(&self, player: usize) -> f64 {
        match &self.weights {
            Some(w) if !self.is_terminal() => crate::core::protocol::learned_sum(w, &self.features(player)),
            _ => self.evaluate(player),
        }
    }
}

/// The number of `insight.features` (4 unit kinds, then the terms) and the terms' places among them.
pub const N_FEATURES: usize = 15;
const F_CASTLE_HP: usize = 4;
const F_UNIT_HP: usize = 5;
const F_UNIT_ATTACK: usize = 6;
const F_DECK: usize = 7;
const F_DEPTH: usize = 8;
const F_ADVANCE: usize = 9;
const F_SIEGE: usize = 10;
const F_THREAT_CASTLE: usize = 11;
const F_THREAT_UNITS: usize = 12;
const F_AP: usize = 13;
const F_HANGING: usize = 14;

/// Which walk table a kind reads: melee (S, C) walks next to the castle, A and R to where they can shoot it.
const WALK_CLASS: [usize; 4] = [0, 1, 0, 2];

/// The evaluation's tables of one board (terrain and camps; the rules and factions are the game's).
pub struct TerrainTables {
    /// `walk[side][class][hex]`: walking cost to a hex from which that class attacks the enemy castle.
    pub walk: [[[i8; N]; 3]; 2],
    /// `board_depth` of each side.
    pub depth: [i32; 2],
}

// Evaluation weights (`insight.py`, which documents the terms), in castle-HP units.
const W_CASTLE: f64 = 3.0;
const W_UNIT: f64 = 1.0;
const W_HP: f64 = 0.5;
const W_ATTACK: f64 = 0.25;
const W_THREAT_UNIT: f64 = 0.3;
const W_THREAT_CASTLE: f64 = 1.0;
const W_ADVANCE: f64 = 0.25;
const ADVANCE_HORIZON: i32 = 20;
const VOID_STEP: usize = 2;
const W_SIEGE: f64 = 2.0;
const W_AP: f64 = 0.2;
const W_HANG: f64 = 0.5;
const W_DECK: f64 = 0.02;
const W_DEPTH: f64 = 0.5;
const DEPTH_CAP: i32 = 7;

/// Python's `round(x, 6)`: the correctly rounded decimal (half to even on the exact value), read back.
///
/// Fast path: when `x * 1e6` is far from a half (further than its rounding error can reach), the decimal
/// rounding is `round(x * 1e6)`, and `k / 1e6` (both exact, one correctly rounded division) is what
/// reading the decimal back gives. Near a half, or for huge values, the exact decimal text decides.
pub fn round6(x: f64) -> f64 {
    let y = x * 1e6;
    if y.abs() < 1e12 {
        let fl = y.floor();
        let frac = y - fl;
        if (frac - 0.5).abs() > 1e-3 {
            let k = if frac > 0.5 { fl + 1.0 } else { fl };
            return k / 1e6;
        }
    }
    let text = format!("{x:.6}");
    text.parse().unwrap_or(x)
}

/// The protocol's [`Game`](crate::core::protocol::Game): the generic agents of `native/src/core/generic/` play
/// The Cursed Lands through it, and `protocol::play` plays its whole games (no chance node; the decks'
/// order is hidden, so agents search a view, and a pick on a view may be illegal under a hidden top).
impl crate::core::protocol::Game for State {
    fn current_player(&self) -> i32 {
        State::current_player(self)
    }
    fn is_terminal(&self) -> bool {
        State::is_terminal(self)
    }
    fn num_players(&self) -> usize {
        2
    }
    fn legal_actions(&self, out: &mut Vec<u32>) {
        State::legal_actions(self, out)
    }
    /// The setup phase's camps (`CampActions`, up to millions) are counted, not listed.
    fn legal_listed(&self, out: &mut Vec<u32>) -> usize {
        if self.c.setup && !self.is_terminal() {
            out.clear();
            return self.legal_count();
        }
        State::legal_actions(self, out);
        out.len()
    }
    /// `rng.choice(CampActions)` draws `randbelow(count)` and indexes the lazy list: so does this.
    fn random_action(&self, rng: &mut crate::core::pyrandom::PyRandom, buf: &mut Vec<u32>) -> u32 {
        if self.c.setup && !self.is_terminal() {
            let n = self.rules.starting_units as usize;
            return geo::camp_at(n, rng.choice_index(geo::camp_count(n)).expect("random: no camp"));
        }
        State::legal_actions(self, buf);
        *rng.choice(buf).expect("random: no action to choose")
    }
    fn is_legal(&self, action: u32) -> bool {
        State::is_legal(self, action)
    }
    fn chance_outcomes(&self, out: &mut Vec<(u32, f64)>) {
        out.clear();
    }
    fn apply(&mut self, action: u32) {
        State::apply(self, action)
    }
    fn undo(&mut self) {
        State::undo(self);
    }
    fn returns(&self, player: usize) -> f64 {
        State::returns(self, player)
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
        State::action_priority(self, action)
    }
    fn move_number(&self) -> usize {
        self.c.moves as usize
    }
    fn perfect_information(&self) -> bool {
        false
    }
    fn view(&self, seed: u64) -> Self {
        State::view(self, seed)
    }
    fn fork(&self) -> Self {
        State::fork(self)
    }
}
