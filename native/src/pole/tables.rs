//! Pole's rules as one plain struct ([`Rules`], handed over from Python's `Rules`) and the tables
//! built from it once per game ([`Tables`], as `workbench/games/pole/tables.py`'s `Config`).

/// Kinds in `BSTIAHCP` order (the rulebook letters), as in `workbench/games/pole/rules.py`.
pub const B: usize = 0;
pub const S: usize = 1;
pub const T: usize = 2;
pub const I: usize = 3;
pub const A: usize = 4;
pub const H: usize = 5;
pub const C: usize = 6;
pub const P: usize = 7;
pub const LETTERS: &[u8; 8] = b"BSTIAHCP";

pub const ZONE_NONE: u8 = 0;
pub const ZONE_MELEE: u8 = 1;
pub const ZONE_ARCHER: u8 = 2;
pub const ZONE_CATAPULT: u8 = 3;
pub const MOVE_NONE: u8 = 0;
pub const MOVE_STEP8: u8 = 1;
pub const MOVE_STEP4: u8 = 2;
pub const MOVE_RIDE: u8 = 3;
/// `data/pieces.json`: the zone and movement of each kind (fixed by the contract, not parameters).
pub const KIND_ZONE: [u8; 8] =
    [ZONE_NONE, ZONE_NONE, ZONE_ARCHER, ZONE_MELEE, ZONE_ARCHER, ZONE_MELEE, ZONE_CATAPULT, ZONE_ARCHER];
pub const KIND_MOVE: [u8; 8] =
    [MOVE_NONE, MOVE_NONE, MOVE_NONE, MOVE_STEP8, MOVE_STEP8, MOVE_RIDE, MOVE_STEP4, MOVE_RIDE];

pub const ORTHOGONAL: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
pub const DIAGONAL: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// Line-of-fire toggle `shot_blocking`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Blocking {
    #[default]
    None,
    All,
    ExceptCatapult,
}

/// Every parameter and toggle of the contract's section 10, as plain values (the Python `Rules`
/// validates them; [`Rules::check`] re-checks the ranges a table depends on).
#[derive(Clone, Debug)]
pub struct Rules {
    pub income: i64,
    pub purchases_per_turn: i64,
    /// `cost_X` (P: 0, never bought), `damage_X`, `armour_X` in kind order.
    pub cost: [i64; 8],
    pub damage: [i64; 8],
    pub armour: [i64; 8],
    pub archer_orth: u32,
    pub archer_diag: u32,
    pub ride_orth: u32,
    pub ride_diag: u32,
    pub catapult_orth: u32,
    pub catapult_diag: u32,
    pub catapult_dead: u32,
    pub tower_infantry: i64,
    /// Fortress cells (`x * 10 + y`), Red's and Black's.
    pub fortress: [[u8; 4]; 2],
    pub max_turns: i64,
    pub draw_after: Option<i64>,
    pub attack_all: bool,
    pub blocking: Blocking,
    pub ride_jump: bool,
    pub rounding_down: bool,
    pub income_start: bool,
    pub buy_first: bool,
    pub placement_any: bool,
    pub fortress_buildings: bool,
    pub inside_halved: bool,
}

impl Default for Rules {
    /// The contract's defaults.
    fn default() -> Self {
        Rules {
            income: 1,
            purchases_per_turn: 1,
            cost: [3, 3, 10, 2, 2, 3, 4, 0],
            damage: [0, 0, 2, 1, 2, 2, 4, 3],
            armour: [5, 5, 6, 2, 1, 2, 3, 5],
            archer_orth: 3,
            archer_diag: 2,
            ride_orth: 3,
            ride_diag: 2,
            catapult_orth: 4,
            catapult_diag: 3,
            catapult_dead: 1,
            tower_infantry: 2,
            fortress: [[41, 42, 51, 52], [47, 48, 57, 58]],
            max_turns: 400,
            draw_after: None,
            attack_all: false,
            blocking: Blocking::None,
            ride_jump: false,
            rounding_down: false,
            income_start: true,
            buy_first: true,
            placement_any: false,
            fortress_buildings: true,
            inside_halved: false,
        }
    }
}

impl Rules {
    /// The ranges the tables rely on (a library's surface checks what it is given).
    pub fn check(&self) -> Result<(), String> {
        for (name, v) in [
            ("archer_orth", self.archer_orth),
            ("archer_diag", self.archer_diag),
            ("ride_orth", self.ride_orth),
            ("ride_diag", self.ride_diag),
            ("catapult_orth", self.catapult_orth),
            ("catapult_diag", self.catapult_diag),
        ] {
            if !(1..=9).contains(&v) {
                return Err(format!("rule {name}={v} is out of range 1..9"));
            }
        }
        if self.catapult_dead >= self.catapult_orth || self.catapult_dead >= self.catapult_diag {
            return Err(format!("rule catapult_dead={} must be below the catapult's reaches", self.catapult_dead));
        }
        if self.fortress.iter().flatten().any(|&c| c >= 100) {
            return Err("a fortress cell is off the board".into());
        }
        if !(0..=3).contains(&self.purchases_per_turn) {
            return Err(format!("rule purchases_per_turn={} is out of range 0..3", self.purchases_per_turn));
        }
        if self.max_turns < 1 {
            return Err(format!("rule max_turns={} must be at least 1", self.max_turns));
        }
        let small = |v: i64| (0..=1_000_000).contains(&v);
        if !self.cost.iter().chain(&self.damage).chain(&self.armour).all(|&v| small(v))
            || !small(self.income)
            || !small(self.tower_infantry)
        {
            return Err("a cost, damage, armour, income or tower_infantry is out of range 0..1000000".into());
        }
        Ok(())
    }
}

/// The cells `cell + k * dir` for `lo <= k <= hi` on the board (stops at the edge).
pub fn ray(cell: usize, dir: (i32, i32), lo: u32, hi: u32) -> Vec<u8> {
    let (x, y) = ((cell / 10) as i32, (cell % 10) as i32);
    let mut out = Vec::new();
    for k in 1..=hi as i32 {
        let (nx, ny) = (x + k * dir.0, y + k * dir.1);
        if !(0..10).contains(&nx) || !(0..10).contains(&ny) {
            break;
        }
        if k as u32 >= lo {
            out.push((nx * 10 + ny) as u8);
        }
    }
    out
}

/// Successes out of 36 with `2 * (r_a - r_d) > threshold2`.
pub fn successes(threshold2: i64) -> i64 {
    let mut n = 0;
    for ra in 1..=6i64 {
        for rd in 1..=6i64 {
            if 2 * (ra - rd) > threshold2 {
                n += 1;
            }
        }
    }
    n
}

/// A zone's rays: the directions and the distances that are targets (lo..=hi).
type ZoneSpec = (Vec<(i32, i32)>, u32, u32);

/// A zone ray: the cells at distance 1..hi and the first distance that is a target.
#[derive(Clone, Debug)]
pub struct ZoneRay {
    pub cells: Vec<u8>,
    pub lo: usize,
}

/// The rules as tables, built once per game and shared (read-only) by its states.
#[derive(Clone, Debug)]
pub struct Tables {
    pub rules: Rules,
    pub fort_of: [u8; 100],
    /// Placement zones (sorted) per side, after `placement_fortress`.
    pub place_zone: [Vec<u8>; 2],
    pub can_attack: [bool; 8],
    pub blocked: [bool; 8],
    /// Per zone kind and cell: rays, flat sorted cells, and the same as a bit set.
    pub zone_rays: [Vec<Vec<ZoneRay>>; 4],
    pub zone_flat: [Vec<Vec<u8>>; 4],
    pub zone_mask: [Vec<u128>; 4],
    pub ride_rays: Vec<Vec<Vec<u8>>>,
    pub step8: Vec<Vec<u8>>,
    pub step4: Vec<Vec<u8>>,
    /// Doubled effective damage per kind: [full, halved].
    pub d2: [[i64; 2]; 8],
    /// `successes` for thresholds -24..=24.
    count2: [i64; 49],
}

impl Tables {
    pub fn new(rules: Rules) -> Result<Self, String> {
        rules.check()?;
        let r = &rules;
        let mut fort_of = [0u8; 100];
        for (side, cells) in r.fortress.iter().enumerate() {
            for &c in cells {
                fort_of[c as usize] = side as u8 + 1;
            }
        }
        let all: Vec<(i32, i32)> = ORTHOGONAL.iter().chain(DIAGONAL.iter()).copied().collect();
        let step8: Vec<Vec<u8>> = (0..100)
            .map(|c| {
                let mut v: Vec<u8> = all.iter().flat_map(|&d| ray(c, d, 1, 1)).collect();
                v.sort_unstable();
                v
            })
            .collect();
        let step4: Vec<Vec<u8>> = (0..100)
            .map(|c| {
                let mut v: Vec<u8> = ORTHOGONAL.iter().flat_map(|&d| ray(c, d, 1, 1)).collect();
                v.sort_unstable();
                v
            })
            .collect();
        let mut zones: [Vec<u8>; 2] = [Vec::new(), Vec::new()];
        for side in 0..2 {
            let mut z: Vec<u8> = Vec::new();
            for &c in &r.fortress[side] {
                z.push(c);
                z.extend_from_slice(&step8[c as usize]);
            }
            z.sort_unstable();
            z.dedup();
            zones[side] = z;
        }
        let place_zone = if r.placement_any {
            let mut both: Vec<u8> = zones[0].iter().chain(zones[1].iter()).copied().collect();
            both.sort_unstable();
            both.dedup();
            [both.clone(), both]
        } else {
            zones
        };
        let mut can_attack = [false; 8];
        let mut blocked = [false; 8];
        for k in 0..8 {
            can_attack[k] = KIND_ZONE[k] != ZONE_NONE && r.damage[k] > 0 && k != B && k != S;
            blocked[k] = (r.blocking == Blocking::All
                && (KIND_ZONE[k] == ZONE_ARCHER || KIND_ZONE[k] == ZONE_CATAPULT))
                || (r.blocking == Blocking::ExceptCatapult && KIND_ZONE[k] == ZONE_ARCHER);
        }
        let dead = r.catapult_dead;
        let spec: [Vec<ZoneSpec>; 4] = [
            vec![],
            vec![(all.clone(), 1, 1)],
            vec![(ORTHOGONAL.to_vec(), 1, r.archer_orth), (DIAGONAL.to_vec(), 1, r.archer_diag)],
            vec![(ORTHOGONAL.to_vec(), dead + 1, r.catapult_orth), (DIAGONAL.to_vec(), dead + 1, r.catapult_diag)],
        ];
        let mut zone_rays: [Vec<Vec<ZoneRay>>; 4] = Default::default();
        let mut zone_flat: [Vec<Vec<u8>>; 4] = Default::default();
        let mut zone_mask: [Vec<u128>; 4] = Default::default();
        for zone in 0..4 {
            for c in 0..100 {
                let mut rs = Vec::new();
                let mut mask = 0u128;
                for (dirs, lo, hi) in &spec[zone] {
                    for &d in dirs {
                        let full = ray(c, d, 1, *hi);
                        if full.len() >= *lo as usize {
                            for &b in &full[*lo as usize - 1..] {
                                mask |= 1u128 << b;
                            }
                            rs.push(ZoneRay { cells: full, lo: *lo as usize });
                        }
                    }
                }
                zone_rays[zone].push(rs);
                zone_flat[zone].push((0..100u8).filter(|&b| mask >> b & 1 == 1).collect());
                zone_mask[zone].push(mask);
            }
        }
        let ride_rays: Vec<Vec<Vec<u8>>> = (0..100)
            .map(|c| {
                let mut v = Vec::new();
                for &d in &ORTHOGONAL {
                    if !ray(c, d, 1, 1).is_empty() {
                        v.push(ray(c, d, 1, r.ride_orth));
                    }
                }
                for &d in &DIAGONAL {
                    if !ray(c, d, 1, 1).is_empty() {
                        v.push(ray(c, d, 1, r.ride_diag));
                    }
                }
                v
            })
            .collect();
        let mut d2 = [[0i64; 2]; 8];
        for k in 0..8 {
            let d = r.damage[k];
            d2[k] = [2 * d, if r.rounding_down { 2 * (d / 2) } else { d }];
        }
        let mut count2 = [0i64; 49];
        for (i, slot) in count2.iter_mut().enumerate() {
            *slot = successes(i as i64 - 24);
        }
        Ok(Tables {
            rules,
            fort_of,
            place_zone,
            can_attack,
            blocked,
            zone_rays,
            zone_flat,
            zone_mask,
            ride_rays,
            step8,
            step4,
            d2,
            count2,
        })
    }

    /// Fortress rule (section 8): target on a fortress cell, attacker not in that same fortress.
    #[inline]
    pub fn halved(&self, attacker: usize, target: usize) -> bool {
        let f = self.fort_of[target];
        f != 0 && (self.rules.inside_halved || self.fort_of[attacker] != f)
    }

    /// Success iff `2 * (r_a - r_d)` exceeds this.
    #[inline]
    pub fn threshold2(&self, akind: usize, attacker: usize, tkind: usize, target: usize) -> i64 {
        2 * self.rules.armour[tkind] - self.d2[akind][self.halved(attacker, target) as usize]
    }

    /// Successes out of 36 of an attack.
    #[inline]
    pub fn success_count(&self, akind: usize, attacker: usize, tkind: usize, target: usize) -> i64 {
        let t = self.threshold2(akind, attacker, tkind, target);
        if t < -24 {
            36
        } else if t > 24 {
            0
        } else {
            self.count2[(t + 24) as usize]
        }
    }
}
