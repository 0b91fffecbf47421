//! Hex geometry of the 91-hex board, built once: a port of `workbench/games/terrafeud/engine/geometry.py`.
//!
//! A hex is a `usize` 0..90 in board order (a1..a6, b1, ..., l6), the order ruling 6 uses for
//! "the first one found". Every table has the same content and order as its Python twin.

use std::sync::OnceLock;

pub const N_HEXES: usize = 91;
pub const NONE: u8 = 255;
pub const FILES: &[u8] = b"abcdefghikl";
/// The six directions in doubled-row coordinates (dq, dy); d and d+3 are opposite.
/// The board's diameter: distance parameters never exceed it (`geometry.MAX_DISTANCE`).
pub const MAX_DISTANCE: usize = 10;
pub const DIRECTIONS: [(i32, i32); 6] = [(0, 2), (1, 1), (1, -1), (0, -2), (-1, -1), (-1, 1)];

/// All geometry tables (see the Python module for their meaning).
pub struct Geometry {
    pub qy: Vec<(i32, i32)>,
    pub names: Vec<String>,
    pub neighbours: Vec<[u8; 6]>,
    pub adjacent: Vec<Vec<u8>>,
    pub rays: Vec<[Vec<u8>; 6]>,
    pub distance: Vec<[u8; N_HEXES]>,
    /// within[h][k]: hexes at distance 1..=k (k <= MAX_DISTANCE), board order.
    pub within: Vec<Vec<Vec<u8>>>,
    /// ring[h][k]: hexes at exactly distance k (k <= MAX_DISTANCE), board order.
    pub ring: Vec<Vec<Vec<u8>>>,
    /// between[a * 91 + b]: hexes strictly between a and b.
    pub between: Vec<Vec<u8>>,
    pub pike_zone: Vec<Vec<u8>>,
    /// pike_mask[h]: `pike_zone[h]` as a bit set.
    pub pike_mask: Vec<u128>,
    /// cavalry_paths[h]: (landing, intermediates) in Python's order.
    pub cavalry_paths: Vec<Vec<(u8, Vec<u8>)>>,
    /// cavalry_compact[h][i] = [landing, number of intermediates, first, second]: `cavalry_paths`
    /// without the inner vectors (the hot path), `cavalry_count[h]` entries used.
    pub cavalry_compact: Vec<[[u8; 4]; 18]>,
    pub cavalry_count: Vec<u8>,
    /// cavalry_reach[t * 91 + h]: some gallop from h lands on or passes over t.
    pub cavalry_reach: Vec<bool>,
    /// direction_to[a * 91 + b]: direction d with b on rays[a][d], or NONE.
    pub direction_to: Vec<u8>,
}

pub fn file_length(q: i32) -> i32 {
    11 - (q - 5).abs()
}

fn index_of(qy: &[(i32, i32)], q: i32, y: i32) -> Option<usize> {
    qy.iter().position(|&p| p == (q, y))
}

fn cube(qy: &[(i32, i32)], h: usize) -> (i32, i32, i32) {
    let (q, y) = qy[h];
    let x = q - 5;
    let z = (y - 10 - x).div_euclid(2);
    (x, -x - z, z)
}

fn build() -> Geometry {
    let mut qy = Vec::new();
    let mut names = Vec::new();
    for q in 0..11 {
        for r in 1..=file_length(q) {
            qy.push((q, 2 * (r - 1) + (q - 5).abs()));
            names.push(format!("{}{}", FILES[q as usize] as char, r));
        }
    }
    let step = |h: usize, d: usize| -> Option<usize> {
        let (q, y) = qy[h];
        let (dq, dy) = DIRECTIONS[d];
        index_of(&qy, q + dq, y + dy)
    };
    let mut neighbours = Vec::new();
    let mut adjacent = Vec::new();
    let mut rays = Vec::new();
    for h in 0..N_HEXES {
        let mut nb = [NONE; 6];
        let mut adj = Vec::new();
        for (d, slot) in nb.iter_mut().enumerate() {
            if let Some(n) = step(h, d) {
                *slot = n as u8;
                adj.push(n as u8);
            }
        }
        neighbours.push(nb);
        adjacent.push(adj);
        let r: [Vec<u8>; 6] = std::array::from_fn(|d| {
            let mut out = Vec::new();
            let mut cur = step(h, d);
            while let Some(c) = cur {
                out.push(c as u8);
                cur = step(c, d);
            }
            out
        });
        rays.push(r);
    }
    let mut distance = vec![[0u8; N_HEXES]; N_HEXES];
    for a in 0..N_HEXES {
        let (ax, ay, az) = cube(&qy, a);
        for b in 0..N_HEXES {
            let (bx, by, bz) = cube(&qy, b);
            distance[a][b] = (ax - bx).abs().max((ay - by).abs()).max((az - bz).abs()) as u8;
        }
    }
    let within: Vec<Vec<Vec<u8>>> = (0..N_HEXES)
        .map(|a| {
            (0..=MAX_DISTANCE)
                .map(|k| {
                    (0..N_HEXES)
                        .filter(|&b| distance[a][b] > 0 && distance[a][b] as usize <= k)
                        .map(|b| b as u8)
                        .collect()
                })
                .collect()
        })
        .collect();
    let ring: Vec<Vec<Vec<u8>>> = (0..N_HEXES)
        .map(|a| {
            (0..=MAX_DISTANCE)
                .map(|k| (0..N_HEXES).filter(|&b| k > 0 && distance[a][b] as usize == k).map(|b| b as u8).collect())
                .collect()
        })
        .collect();
    let mut between = vec![Vec::new(); N_HEXES * N_HEXES];
    for a in 0..N_HEXES {
        for b in 0..N_HEXES {
            let n = distance[a][b] as i32;
            if n == 0 {
                continue;
            }
            let mut found = None;
            for ray in rays[a].iter() {
                if let Some(i) = ray.iter().position(|&x| x as usize == b) {
                    found = Some(ray[..i].to_vec());
                    break;
                }
            }
            let out = found.unwrap_or_else(|| {
                let (ax, ay, az) = cube(&qy, a);
                let (bx, by, bz) = cube(&qy, b);
                let mut out = Vec::new();
                for t in 1..n {
                    let (px, py, pz) = (ax * n + (bx - ax) * t, ay * n + (by - ay) * t, az * n + (bz - az) * t);
                    if px % n == 0 && py % n == 0 && pz % n == 0 {
                        let (x, z) = (px / n, pz / n);
                        if let Some(h) = index_of(&qy, x + 5, 2 * z + 10 + x) {
                            out.push(h as u8);
                        }
                    }
                }
                out
            });
            between[a * N_HEXES + b] = out;
        }
    }
    let pike_zone: Vec<Vec<u8>> = (0..N_HEXES)
        .map(|h| {
            let mut out = adjacent[h].clone();
            for ray in rays[h].iter() {
                if ray.len() >= 2 {
                    out.push(ray[1]);
                }
            }
            out
        })
        .collect();
    let pike_mask: Vec<u128> = pike_zone.iter().map(|z| z.iter().fold(0u128, |m, &n| m | (1u128 << n))).collect();
    let cavalry_paths: Vec<Vec<(u8, Vec<u8>)>> = (0..N_HEXES)
        .map(|h| {
            let mut out = Vec::new();
            for d in 0..6 {
                let ray = &rays[h][d];
                if ray.len() < 2 {
                    continue;
                }
                let (first, second) = (ray[0], ray[1]);
                out.push((second, vec![first]));
                for turn in [1i32, -1] {
                    let land = neighbours[second as usize][((d as i32 + turn).rem_euclid(6)) as usize];
                    if land != NONE {
                        out.push((land, vec![first, second]));
                    }
                }
            }
            out
        })
        .collect();
    let mut cavalry_compact = vec![[[0u8; 4]; 18]; N_HEXES];
    let mut cavalry_count = vec![0u8; N_HEXES];
    for (h, paths) in cavalry_paths.iter().enumerate() {
        for (i, (land, inter)) in paths.iter().enumerate() {
            cavalry_compact[h][i] = [*land, inter.len() as u8, inter[0], *inter.get(1).unwrap_or(&NONE)];
        }
        cavalry_count[h] = paths.len() as u8;
    }
    let mut cavalry_reach = vec![false; N_HEXES * N_HEXES];
    for (h, paths) in cavalry_paths.iter().enumerate() {
        for (land, inter) in paths {
            cavalry_reach[*land as usize * N_HEXES + h] = true;
            for &i in inter {
                cavalry_reach[i as usize * N_HEXES + h] = true;
            }
        }
    }
    let mut direction_to = vec![NONE; N_HEXES * N_HEXES];
    for a in 0..N_HEXES {
        for d in 0..6 {
            for &b in rays[a][d].iter() {
                direction_to[a * N_HEXES + b as usize] = d as u8;
            }
        }
    }
    Geometry {
        qy,
        names,
        neighbours,
        adjacent,
        rays,
        distance,
        within,
        ring,
        between,
        pike_zone,
        pike_mask,
        cavalry_paths,
        cavalry_compact,
        cavalry_count,
        cavalry_reach,
        direction_to,
    }
}

/// The tables, built on first use.
pub fn geo() -> &'static Geometry {
    static G: OnceLock<Geometry> = OnceLock::new();
    G.get_or_init(build)
}

/// Name of a hex (`f6`).
pub fn hex_name(h: usize) -> &'static str {
    &geo().names[h]
}

/// Hex of a name, if any.
pub fn parse_hex(name: &str) -> Option<usize> {
    let low = name.trim().to_ascii_lowercase();
    geo().names.iter().position(|n| *n == low)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn board_has_91_hexes_in_order() {
        let g = geo();
        assert_eq!(g.names.len(), 91);
        assert_eq!(g.names[0], "a1");
        assert_eq!(g.names[90], "l6");
        assert_eq!(parse_hex("f6"), Some(45));
    }

    #[test]
    fn neighbours_are_symmetric_and_centre_has_six() {
        let g = geo();
        assert_eq!(g.adjacent[45].len(), 6);
        for h in 0..N_HEXES {
            for &n in &g.adjacent[h] {
                assert!(g.adjacent[n as usize].contains(&(h as u8)));
                assert_eq!(g.distance[h][n as usize], 1);
            }
        }
    }

    #[test]
    fn pike_zone_is_a_flower_of_twelve_in_the_centre() {
        assert_eq!(geo().pike_zone[45].len(), 12);
        assert_eq!(geo().cavalry_paths[45].len(), 18);
    }
}
