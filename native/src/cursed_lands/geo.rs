//! The 9x9 board in offset rows (even rows shifted right) as tables built once
//! (`workbench/games/cursed_lands/geometry.py`), the action ints (`actions.py`) and the deck shuffle
//! (`deck.py`, SplitMix64 + Fisher-Yates).

use std::sync::OnceLock;

pub const SIZE: usize = 9;
pub const N: usize = 81;

// action ints (actions.py)
pub const END: u32 = 0;
pub const PRODUCE: u32 = 1;
pub const TILE: u32 = 5;
pub const MOVE: u32 = TILE + N as u32;
pub const ATTACK: u32 = MOVE + (N * N) as u32;
pub const MOVE_ATTACK: u32 = ATTACK + (N * N) as u32;
pub const CAMP: u32 = MOVE_ATTACK + (N * N * N) as u32;
pub const FLAG_CODES: u32 = 59_049; // 9^5
/// Camp tokens C S A R as kind indices (S=0, A=1, C=2, R=3).
pub const CAMP_KIND_ORDER: [usize; 4] = [2, 0, 1, 3];
/// `sorted("SACR").index(k)`: A < C < R < S.
pub const LETTER_RANK: [usize; 4] = [3, 0, 1, 2];

const DIRS: [(i32, i32); 6] = [(1, 0), (-1, 0), (0, 1), (-1, 1), (1, -1), (0, -1)];

/// Bit set of hexes.
pub type Set = u128;

pub struct Geo {
    pub neighbours: Vec<Vec<usize>>,
    pub rays: Vec<[Vec<usize>; 6]>,
    pub distance: Vec<[i32; N]>,
    /// `within[r][h]`: hexes at distance <= r of h, r 0..16.
    pub within: Vec<[Set; N]>,
    pub name_rank: [i64; N],
    /// ray index (direction) from a to b, or 255; position on it (1-based)
    pub line: Vec<[(u8, u8); N]>,
    /// neighbours of each hex as a bit set
    pub nb_mask: [Set; N],
}

fn to_axial(h: usize) -> (i32, i32) {
    let q = (h % SIZE) as i32;
    let y = (h / SIZE) as i32;
    (q - (y - (y & 1)) / 2, y)
}

fn from_axial(x: i32, z: i32) -> Option<usize> {
    if !(0..SIZE as i32).contains(&z) {
        return None;
    }
    let q = x + (z - (z & 1)) / 2;
    if !(0..SIZE as i32).contains(&q) {
        return None;
    }
    Some(z as usize * SIZE + q as usize)
}

fn build() -> Geo {
    let mut rays = Vec::with_capacity(N);
    let mut neighbours = Vec::with_capacity(N);
    for h in 0..N {
        let mut rs: [Vec<usize>; 6] = Default::default();
        for (d, &(dx, dz)) in DIRS.iter().enumerate() {
            let (mut x, mut z) = to_axial(h);
            loop {
                x += dx;
                z += dz;
                match from_axial(x, z) {
                    Some(n) => rs[d].push(n),
                    None => break,
                }
            }
        }
        let mut nb: Vec<usize> = rs.iter().filter_map(|r| r.first().copied()).collect();
        nb.sort_unstable();
        neighbours.push(nb);
        rays.push(rs);
    }
    let mut distance = vec![[0i32; N]; N];
    for a in 0..N {
        for b in 0..N {
            let (ax, az) = to_axial(a);
            let (bx, bz) = to_axial(b);
            let (dx, dz) = (bx - ax, bz - az);
            distance[a][b] = dx.abs().max(dz.abs()).max((dx + dz).abs());
        }
    }
    let mut within = vec![[0u128; N]; 17];
    for r in 0..17 {
        for a in 0..N {
            for b in 0..N {
                if distance[a][b] <= r as i32 {
                    within[r][a] |= 1u128 << b;
                }
            }
        }
    }
    let mut name_rank = [0i64; N];
    for h in 0..N {
        name_rank[h] = ((h % SIZE) * SIZE + h / SIZE) as i64;
    }
    let mut line = vec![[(255u8, 0u8); N]; N];
    for a in 0..N {
        for d in 0..6 {
            for (i, &b) in rays[a][d].iter().enumerate() {
                line[a][b] = (d as u8, (i + 1) as u8);
            }
        }
    }
    let mut nb_mask = [0u128; N];
    for h in 0..N {
        for &n in &neighbours[h] {
            nb_mask[h] |= 1u128 << n;
        }
    }
    Geo { neighbours, rays, distance, within, name_rank, line, nb_mask }
}

pub fn geo() -> &'static Geo {
    static G: OnceLock<Geo> = OnceLock::new();
    G.get_or_init(build)
}

pub fn hex_of(q: usize, r: usize) -> usize {
    (r - 1) * SIZE + q
}

pub fn hex_name(h: usize) -> String {
    format!("{}{}", (b'a' + (h % SIZE) as u8) as char, h / SIZE + 1)
}

/// Decoded action: kind, from, to, target (-1 where absent).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    End,
    Produce,
    Tile,
    Move,
    Attack,
    MoveAttack,
    Camp,
}

pub fn decode(a: u32) -> (Kind, i32, i32, i32) {
    let n = N as u32;
    if a == END {
        (Kind::End, -1, -1, -1)
    } else if a < TILE {
        (Kind::Produce, (a - PRODUCE) as i32, -1, -1)
    } else if a < MOVE {
        (Kind::Tile, -1, (a - TILE) as i32, -1)
    } else if a < ATTACK {
        let x = a - MOVE;
        (Kind::Move, (x / n) as i32, (x % n) as i32, -1)
    } else if a < MOVE_ATTACK {
        let x = a - ATTACK;
        (Kind::Attack, (x / n) as i32, (x / n) as i32, (x % n) as i32)
    } else if a < CAMP {
        let x = a - MOVE_ATTACK;
        let (ft, g) = (x / n, x % n);
        (Kind::MoveAttack, (ft / n) as i32, (ft % n) as i32, g as i32)
    } else {
        (Kind::Camp, -1, -1, -1)
    }
}

const HEX_GROUP: i64 = 200_000_000;

/// `actions.sort_key`: code-point order of the canonical strings (C51).
pub fn sort_key(a: u32) -> i64 {
    let g = geo();
    let nr = &g.name_rank;
    let n = N as u32;
    if a == END {
        return HEX_GROUP + nr[4 + 8 * SIZE] * 1_000_000 + 500_000;
    }
    if a < TILE {
        return 100_000_000 + LETTER_RANK[(a - PRODUCE) as usize] as i64;
    }
    if a < MOVE {
        return nr[(a - TILE) as usize];
    }
    if a < ATTACK {
        let x = a - MOVE;
        let (f, t) = ((x / n) as usize, (x % n) as usize);
        return HEX_GROUP + nr[f] * 1_000_000 + (nr[t] + 1) * 100;
    }
    if a < MOVE_ATTACK {
        let x = a - ATTACK;
        let (f, t) = ((x / n) as usize, (x % n) as usize);
        return HEX_GROUP + nr[f] * 1_000_000 + 100_000 + nr[t] + 1;
    }
    let x = a - MOVE_ATTACK;
    let (ft, gg) = (x / n, (x % n) as usize);
    let (f, t) = ((ft / n) as usize, (ft % n) as usize);
    HEX_GROUP + nr[f] * 1_000_000 + (nr[t] + 1) * 100 + nr[gg] + 1
}

// ------------------------------------------------------------------ camp actions (C45)

/// `unit_combos(n)`: every set of n starting units as (column, kind) by column, in canonical order.
pub struct Combos {
    pub list: Vec<Vec<(usize, usize)>>,
    /// `_combos_without(n, castle)` per castle column
    pub without: Vec<Vec<u32>>,
}

fn build_combos(n: usize) -> Combos {
    let mut list: Vec<Vec<(usize, usize)>> = Vec::new();
    let mut cols = Vec::new();
    fn rec(start: usize, n: usize, cols: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if cols.len() == n {
            out.push(cols.clone());
            return;
        }
        for c in start..SIZE {
            cols.push(c);
            rec(c + 1, n, cols, out);
            cols.pop();
        }
    }
    let mut colsets = Vec::new();
    rec(0, n, &mut cols, &mut colsets);
    for cs in &colsets {
        let total = 4usize.pow(n as u32);
        for code in 0..total {
            // itertools.product(range(4), repeat=n): the last position varies fastest
            let mut kinds = vec![0usize; n];
            let mut c = code;
            for i in (0..n).rev() {
                kinds[i] = c % 4;
                c /= 4;
            }
            list.push(cs.iter().copied().zip(kinds).collect());
        }
    }
    list.sort_by_key(|combo| combo.iter().map(|&(c, k)| (LETTER_RANK[k], c)).collect::<Vec<_>>());
    let without = (0..SIZE)
        .map(|castle| (0..list.len() as u32).filter(|&i| list[i as usize].iter().all(|&(c, _)| c != castle)).collect())
        .collect();
    Combos { list, without }
}

pub fn combos(n: usize) -> &'static Combos {
    static C: [OnceLock<Combos>; 4] = [OnceLock::new(), OnceLock::new(), OnceLock::new(), OnceLock::new()];
    C[n].get_or_init(|| build_combos(n))
}

/// `camp_action`: castle column, flag columns by kind S A C R, units (column, kind).
pub fn camp_action(castle: usize, flags: [usize; 4], units: &[(usize, usize)], n: usize) -> u32 {
    let cb = combos(n);
    let mut code = castle as u32;
    for k in CAMP_KIND_ORDER {
        code = code * SIZE as u32 + flags[k] as u32;
    }
    let mut sorted = units.to_vec();
    sorted.sort_unstable();
    let idx = cb.list.iter().position(|c| *c == sorted).expect("camp units form a combo") as u32;
    CAMP + code * cb.list.len() as u32 + idx
}

/// `decode_camp`: (castle column, flag columns by kind, units).
pub fn decode_camp(a: u32, n: usize) -> (usize, [usize; 4], &'static [(usize, usize)]) {
    let cb = combos(n);
    let w = cb.list.len() as u32;
    let (mut code, u) = ((a - CAMP) / w, (a - CAMP) % w);
    let mut cols = [0usize; 5];
    for i in (0..5).rev() {
        cols[i] = (code % SIZE as u32) as usize;
        code /= SIZE as u32;
    }
    let mut flags = [0usize; 4];
    for (i, &k) in CAMP_KIND_ORDER.iter().enumerate() {
        flags[k] = cols[i + 1];
    }
    (cols[0], flags, &cb.list[u as usize])
}

/// `camp_is_valid`.
pub fn camp_is_valid(a: u32, n: usize) -> bool {
    let cb = combos(n);
    if a < CAMP || (a - CAMP) as u64 >= FLAG_CODES as u64 * cb.list.len() as u64 {
        return false;
    }
    let (castle, flags, units) = decode_camp(a, n);
    let mut seen = 1u32 << castle;
    for f in flags {
        if seen & (1 << f) != 0 {
            return false;
        }
        seen |= 1 << f;
    }
    units.iter().all(|&(c, _)| c != castle)
}

/// `len(CampActions(n))`.
pub fn camp_count(n: usize) -> usize {
    SIZE * 8 * 7 * 6 * 5 * combos(n).without[0].len()
}

/// `CampActions(n)[index]`.
pub fn camp_at(n: usize, index: usize) -> u32 {
    let cb = combos(n);
    let per = cb.without[0].len();
    let (mut rest, u) = (index / per, index % per);
    let mut digits = [0usize; 4];
    for (i, base) in [5usize, 6, 7, 8].iter().enumerate() {
        digits[i] = rest % base;
        rest /= base;
    }
    let castle = rest;
    let mut free: Vec<usize> = (0..SIZE).filter(|&c| c != castle).collect();
    let mut cols = [0usize; 4];
    for (i, &d) in digits.iter().rev().enumerate() {
        cols[i] = free.remove(d);
    }
    let mut flags = [0usize; 4];
    for (i, &k) in CAMP_KIND_ORDER.iter().enumerate() {
        flags[k] = cols[i];
    }
    let combo = &cb.list[cb.without[castle][u] as usize];
    camp_action(castle, flags, combo, n)
}

// ------------------------------------------------------------------ deck (section 7)

/// SplitMix64 from `seed` (mod 2^64).
#[derive(Clone)]
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Fisher-Yates: for i from n-1 down to 1, j = next() mod (i+1), swap.
    pub fn shuffle<T>(&mut self, a: &mut [T]) {
        for i in (1..a.len()).rev() {
            let j = (self.next_u64() % (i as u64 + 1)) as usize;
            a.swap(i, j);
        }
    }
}

/// Both decks dealt from `seed`, top first (terrain codes 1..5).
pub fn deal(deck: &[i32; 5], seed: u64) -> [Vec<u8>; 2] {
    let mut canon = Vec::new();
    for (i, &n) in deck.iter().enumerate() {
        canon.extend(std::iter::repeat_n(i as u8 + 1, n as usize));
    }
    let mut g = SplitMix64(seed);
    let mut p1 = canon.clone();
    let mut p2 = canon;
    g.shuffle(&mut p1);
    g.shuffle(&mut p2);
    [p1, p2]
}
