//! Terrain tables of one game (`workbench/games/terrafeud/engine/board.py`, Board). The hexes of the river,
//! crossings, castles, hills and swamps come from Python (which draws rolled terrain); the
//! per-hex tables are derived here exactly as the Python `Board` derives them.

use crate::terrafeud::geometry::{geo, MAX_DISTANCE, N_HEXES};
use crate::terrafeud::rules::Rules;

/// The terrain facts a game is built from (all hexes already resolved by Python).
#[derive(Clone, Debug, PartialEq)]
pub struct TerrainSpec {
    pub winter: bool,
    /// Doubled rows of the river band (classic: 9, 10, 11).
    pub river_rows: Vec<i32>,
    pub bridges: Vec<usize>,
    pub fords: Vec<usize>,
    pub castle_centre: [usize; 2],
    pub hills: [Option<usize>; 2],
    pub swamps: [Option<usize>; 2],
}

/// Per-hex tables read by move generation.
#[derive(Clone, Debug)]
pub struct Board {
    pub spec: TerrainSpec,
    pub castle_centre: [usize; 2],
    pub castle_zone: [[bool; N_HEXES]; 2],
    pub swamp_owner: [i8; N_HEXES],
    pub is_bridge: [bool; N_HEXES],
    /// Bridges where the knight's bridge stop applies (none with knight_bridge_stop=false).
    pub knight_bridge: [bool; N_HEXES],
    pub is_summer_ford: [bool; N_HEXES],
    pub is_ford: [bool; N_HEXES],
    pub walkable: [bool; N_HEXES],
    pub knight_walkable: [bool; N_HEXES],
    pub stop_for: [[bool; N_HEXES]; 2],
    pub cavalry_stop_for: [[bool; N_HEXES]; 2],
    pub is_hill: [bool; N_HEXES],
    pub steps: Vec<Vec<u8>>,
    pub promotes: [[bool; N_HEXES]; 2],
    /// shot_targets[h]: hexes an archer on h may mark, nearest ring first (W8).
    pub shot_targets: Vec<Vec<u8>>,
}

impl Board {
    /// Derive the tables from the terrain facts and rule parameters, as `Board.__init__` does.
    pub fn new(spec: TerrainSpec, rules: &Rules) -> Board {
        let g = geo();
        let mut is_bridge = [false; N_HEXES];
        let mut is_ford = [false; N_HEXES];
        for &b in &spec.bridges {
            is_bridge[b] = true;
        }
        for &f in &spec.fords {
            is_ford[f] = true;
        }
        let mut river = [false; N_HEXES];
        for h in 0..N_HEXES {
            river[h] = spec.river_rows.contains(&g.qy[h].1) && !is_bridge[h] && !is_ford[h];
        }
        let mut castle_zone = [[false; N_HEXES]; 2];
        for s in 0..2 {
            let c = spec.castle_centre[s];
            castle_zone[s][c] = true;
            for &n in &g.adjacent[c] {
                castle_zone[s][n as usize] = true;
            }
        }
        let mut swamp_owner = [-1i8; N_HEXES];
        for s in 0..2 {
            if let Some(h) = spec.swamps[s] {
                swamp_owner[h] = s as i8;
            }
        }
        let mut is_hill = [false; N_HEXES];
        for h in spec.hills.iter().flatten() {
            is_hill[*h] = true;
        }
        let mut is_summer_ford = [false; N_HEXES];
        let mut walkable = [true; N_HEXES];
        let mut knight_walkable = [true; N_HEXES];
        for h in 0..N_HEXES {
            let summer_river = !spec.winter && river[h];
            is_summer_ford[h] = !spec.winter && is_ford[h];
            walkable[h] = !summer_river;
            knight_walkable[h] = !summer_river && !is_summer_ford[h];
        }
        let mut stop_for = [[false; N_HEXES]; 2];
        let mut cavalry_stop_for = [[false; N_HEXES]; 2];
        let mut promotes = [[false; N_HEXES]; 2];
        for s in 0..2 {
            for h in 0..N_HEXES {
                let enemy_swamp = swamp_owner[h] == 1 - s as i8;
                stop_for[s][h] = enemy_swamp || is_summer_ford[h];
                cavalry_stop_for[s][h] = enemy_swamp;
                promotes[s][h] = rules.promotion && castle_zone[1 - s][h] && h != spec.castle_centre[1 - s];
            }
        }
        let steps =
            (0..N_HEXES).map(|h| g.adjacent[h].iter().copied().filter(|&n| walkable[n as usize]).collect()).collect();
        let knight_bridge = if rules.knight_bridge_stop { is_bridge } else { [false; N_HEXES] };
        let shot_targets = (0..N_HEXES)
            .map(|h| {
                let lo = rules.archer_range as usize;
                let hi = (lo + if is_hill[h] { rules.hill_bonus as usize } else { 0 }).min(MAX_DISTANCE);
                (lo..=hi).flat_map(|d| g.ring[h][d].iter().copied()).collect()
            })
            .collect();
        Board {
            knight_bridge,
            shot_targets,
            castle_centre: spec.castle_centre,
            spec,
            castle_zone,
            swamp_owner,
            is_bridge,
            is_summer_ford,
            is_ford,
            walkable,
            knight_walkable,
            stop_for,
            cavalry_stop_for,
            is_hill,
            steps,
            promotes,
        }
    }
}

/// The Python `Board`'s tables, read as they are (so any terrain rule Python adds holds here).
#[derive(Clone, Debug, Default)]
pub struct Tables {
    pub castle_centre: [usize; 2],
    pub castle_zone: [Vec<usize>; 2],
    pub swamp_owner: Vec<i8>,
    pub is_bridge: Vec<bool>,
    pub knight_bridge: Vec<bool>,
    pub is_summer_ford: Vec<bool>,
    pub is_ford: Vec<bool>,
    pub walkable: Vec<bool>,
    pub knight_walkable: Vec<bool>,
    pub stop_for: [Vec<bool>; 2],
    pub cavalry_stop_for: [Vec<bool>; 2],
    pub is_hill: Vec<bool>,
    pub steps: Vec<Vec<u8>>,
    pub promotes: [Vec<bool>; 2],
    pub shot_targets: Vec<Vec<u8>>,
}

fn arr<T: Copy + Default>(v: &[T]) -> Result<[T; N_HEXES], String> {
    if v.len() != N_HEXES {
        return Err(format!("board table has {} entries, expected {N_HEXES}", v.len()));
    }
    let mut out = [T::default(); N_HEXES];
    out.copy_from_slice(v);
    Ok(out)
}

impl Board {
    /// A board from the Python tables; an error names a table of the wrong size.
    pub fn from_tables(t: &Tables, spec: TerrainSpec) -> Result<Board, String> {
        let mut castle_zone = [[false; N_HEXES]; 2];
        for s in 0..2 {
            for &h in &t.castle_zone[s] {
                if h >= N_HEXES {
                    return Err(format!("castle zone hex {h} off the board"));
                }
                castle_zone[s][h] = true;
            }
        }
        if t.steps.len() != N_HEXES || t.steps.iter().flatten().any(|&n| n as usize >= N_HEXES) {
            return Err("board steps table is malformed".into());
        }
        if t.shot_targets.len() != N_HEXES || t.shot_targets.iter().flatten().any(|&n| n as usize >= N_HEXES) {
            return Err("board shot_targets table is malformed".into());
        }
        if t.castle_centre.iter().any(|&c| c >= N_HEXES) {
            return Err("castle centre off the board".into());
        }
        Ok(Board {
            spec,
            castle_centre: t.castle_centre,
            castle_zone,
            swamp_owner: arr(&t.swamp_owner)?,
            is_bridge: arr(&t.is_bridge)?,
            knight_bridge: arr(&t.knight_bridge)?,
            is_summer_ford: arr(&t.is_summer_ford)?,
            is_ford: arr(&t.is_ford)?,
            walkable: arr(&t.walkable)?,
            knight_walkable: arr(&t.knight_walkable)?,
            stop_for: [arr(&t.stop_for[0])?, arr(&t.stop_for[1])?],
            cavalry_stop_for: [arr(&t.cavalry_stop_for[0])?, arr(&t.cavalry_stop_for[1])?],
            is_hill: arr(&t.is_hill)?,
            steps: t.steps.clone(),
            promotes: [arr(&t.promotes[0])?, arr(&t.promotes[1])?],
            shot_targets: t.shot_targets.clone(),
        })
    }

    /// The classic terrain of `board.py` with the data file's river, crossings and castles.
    pub fn classic(winter: bool, hills: [Option<usize>; 2], swamps: [Option<usize>; 2], rules: &Rules) -> Board {
        let h = |n: &str| crate::terrafeud::geometry::parse_hex(n).expect("classic hex");
        Board::new(
            TerrainSpec {
                winter,
                river_rows: vec![9, 10, 11],
                bridges: vec![h("b4"), h("f6"), h("k4")],
                fords: vec![h("d5"), h("h5")],
                castle_centre: [h("f1"), h("f11")],
                hills,
                swamps,
            },
            rules,
        )
    }
}
