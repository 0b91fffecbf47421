//! Terrain tables of one game (`workbench/engine/board.py`, Board). The hexes of the river,
//! crossings, castles, hills and swamps come from Python (which draws rolled terrain); the
//! per-hex tables are derived here exactly as the Python `Board` derives them.

use crate::geometry::{geo, N_HEXES};

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
    pub is_summer_ford: [bool; N_HEXES],
    pub is_ford: [bool; N_HEXES],
    pub walkable: [bool; N_HEXES],
    pub knight_walkable: [bool; N_HEXES],
    pub stop_for: [[bool; N_HEXES]; 2],
    pub cavalry_stop_for: [[bool; N_HEXES]; 2],
    pub is_hill: [bool; N_HEXES],
    pub steps: Vec<Vec<u8>>,
    pub promotes: [[bool; N_HEXES]; 2],
}

impl Board {
    /// Derive the tables from the terrain facts, as `Board.__init__` does.
    pub fn new(spec: TerrainSpec) -> Board {
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
                promotes[s][h] = castle_zone[1 - s][h] && h != spec.castle_centre[1 - s];
            }
        }
        let steps = (0..N_HEXES)
            .map(|h| g.adjacent[h].iter().copied().filter(|&n| walkable[n as usize]).collect())
            .collect();
        Board {
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
