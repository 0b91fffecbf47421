//! Position evaluation: a port of `workbench/games/terrafeud/agents/evaluate.py`, same terms, same order of sums.
//!
//! The numbers are not written here: Python reads the piece weights from
//! `workbench/games/terrafeud/data/terrafeud.json` (`ai_weights`) and the positional terms from
//! `evaluate.TERMS`, and hands them over ([`EvalParams`]), so both engines score alike.

use std::sync::{Arc, RwLock};

use crate::terrafeud::geometry::{geo, N_HEXES};
use crate::terrafeud::state::{State, ARCHER, FEUDAL, INFANTRY, PIKEMAN};

use super::access;

/// A finished game dwarfs any material count (`evaluate.WIN_SCORE`).
pub const WIN_SCORE: f64 = 100_000.0;

/// Piece weights per code (`kind | side << 3`) and the positional terms of `evaluate`.
#[derive(Clone, Debug, PartialEq)]
pub struct EvalParams {
    pub weights: [f64; 16],
    pub ultimatum: f64,
    pub ultimatum_cap: f64,
    pub zone: f64,
    pub advance: f64,
    pub advance_base: f64,
    pub aura: f64,
    pub mine: f64,
    pub threat_mover: f64,
    pub threat_waiting: f64,
    /// Learned weights over [`features`] (`eval=NAME`): [`evaluate`] is then their sum (`learned_sum`);
    /// `None`: the hand evaluation.
    pub learned: Option<Arc<[f64]>>,
}

impl EvalParams {
    /// Build from the weight per kind (index 1..=6) and the named terms (`evaluate.TERMS`).
    pub fn from_parts(kind_weights: [f64; 8], terms: &[(String, f64)]) -> Result<EvalParams, String> {
        let mut weights = [0.0; 16];
        weights[..8].copy_from_slice(&kind_weights);
        weights[8..].copy_from_slice(&kind_weights);
        let get = |name: &str| -> Result<f64, String> {
            terms
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, v)| *v)
                .ok_or_else(|| format!("evaluation term {name:?} is missing"))
        };
        Ok(EvalParams {
            weights,
            ultimatum: get("ultimatum")?,
            ultimatum_cap: get("ultimatum_cap")?,
            zone: get("zone")?,
            advance: get("advance")?,
            advance_base: get("advance_base")?,
            aura: get("aura")?,
            mine: get("mine")?,
            threat_mover: get("threat_mover")?,
            threat_waiting: get("threat_waiting")?,
            learned: None,
        })
    }
}

static PARAMS: RwLock<Option<EvalParams>> = RwLock::new(None);

/// Install the parameters Python read from its data (done once per process on import).
pub fn set_params(p: EvalParams) {
    *PARAMS.write().unwrap_or_else(|e| e.into_inner()) = Some(p);
}

/// The installed parameters, or an error saying Python has not handed them over.
pub fn params() -> Result<EvalParams, String> {
    PARAMS
        .read()
        .unwrap_or_else(|e| e.into_inner())
        .clone()
        .ok_or_else(|| "native agents: evaluation weights not set (import workbench.native first)".to_string())
}

/// Sum of `side`'s weights minus the opponent's (`evaluate.material`).
pub fn material(st: &State, side: usize, p: &EvalParams) -> f64 {
    let mut total = 0.0;
    for &c in access::squares(st).iter() {
        if c != 0 {
            if (c >> 3) as usize == side {
                total += p.weights[c as usize];
            } else {
                total -= p.weights[c as usize];
            }
        }
    }
    total
}

/// A finished game for `side`: a win, a loss (sooner is stronger) or 0 (`evaluate.terminal_score`).
pub fn terminal_score(st: &State, side: usize) -> f64 {
    match access::winner(st) {
        None => 0.0,
        Some(w) => {
            let sign = if w == side { 1.0 } else { -1.0 };
            sign * (WIN_SCORE - access::ply(st) as f64)
        }
    }
}

/// The number of `GameDef.evaluation_features`: a count per kind but the feudal, then `position`.
pub const N_FEATURES: usize = 6;

/// Parse learned weights as Python hands them over (`native.agent_spec`): one `repr` per feature, joined by `;`.
pub fn parse_learned(text: &str) -> Result<Arc<[f64]>, String> {
    let mut out = Vec::with_capacity(N_FEATURES);
    for part in text.split(';') {
        let w: f64 = part.trim().parse().map_err(|_| format!("eval: weight {part:?} is not a number"))?;
        if !w.is_finite() {
            return Err(format!("eval: weight {part:?} is not finite"));
        }
        out.push(w);
    }
    if out.len() != N_FEATURES {
        return Err(format!("eval: {} weights for {N_FEATURES} features", out.len()));
    }
    Ok(out.into())
}

/// `evaluate.features` / `evaluation_features`: a count per kind but the feudal (knight, pikeman, cavalry,
/// archer, infantryman: own minus the enemy's), then `position`, the rest of the hand evaluation in material
/// units (`hand_evaluate - material`, 0 once the game is over).
pub fn features(st: &mut State, side: usize, p: &EvalParams) -> [f64; N_FEATURES] {
    let mut counts = [0i64; 8];
    for &c in access::squares(st).iter() {
        let kind = (c & 7) as usize;
        if c != 0 && (2..=6).contains(&kind) {
            counts[kind] += if (c >> 3) as usize == side { 1 } else { -1 };
        }
    }
    let mut out = [0.0; N_FEATURES];
    for (i, o) in out.iter_mut().take(5).enumerate() {
        *o = counts[i + 2] as f64;
    }
    out[5] = if access::is_over(st) { 0.0 } else { hand_evaluate(st, side, p) - material(st, side, p) };
    out
}

/// The agents' evaluation for `side`: learned weights' sum over [`features`] when the agent was given some
/// (`eval=NAME`, `LearnedEvaluation` in Python), else [`hand_evaluate`]; a finished game scores
/// [`terminal_score`] either way.
pub fn evaluate(st: &mut State, side: usize, p: &EvalParams) -> f64 {
    match &p.learned {
        Some(w) if !access::is_over(st) => crate::core::protocol::learned_sum(w, &features(st, side, p)),
        _ => hand_evaluate(st, side, p),
    }
}

/// Heuristic value for `side` in material units (`evaluate.evaluate`, term by term).
///
/// One pass over the board feeds both sides' sums; each side's terms are still added in board
/// order, as in Python, so the two evaluations agree to the last bit.
pub fn hand_evaluate(st: &mut State, side: usize, p: &EvalParams) -> f64 {
    if access::is_over(st) {
        return terminal_score(st, side);
    }
    let g = geo();
    let w = &p.weights;
    let sq = *access::squares(st);
    let mut score = material(st, side, p);
    let feudal = [access::feudal(st, 0), access::feudal(st, 1)];
    let centre = access::castle_centre(st);
    // zone[s]: hexes in s's pikeman zones; marked[s]: hexes holding a marker of s.
    let zone = [st.zone(0), st.zone(1)];
    let marked = [st.marked_by(0), st.marked_by(1)];
    let mut part = [0.0f64; 2];
    for h in 0..N_HEXES {
        let c = sq[h];
        if c == 0 {
            continue;
        }
        let s = (c >> 3) as usize;
        let e = 1 - s;
        let k = c & 7;
        let wc = w[c as usize];
        let bit = 1u128 << h;
        let ps = &mut part[s];
        if marked[e] & bit != 0 {
            *ps -= p.ultimatum * wc.min(p.ultimatum_cap);
        }
        if zone[e] & bit != 0 && k != PIKEMAN {
            *ps -= p.zone;
        }
        if k != FEUDAL {
            *ps += p.advance * (p.advance_base - g.distance[h][centre[e]] as f64);
        }
        if k == ARCHER {
            for &n in &g.adjacent[h] {
                let cn = sq[n as usize];
                if cn != 0 && (cn >> 3) as usize == e {
                    *ps -= wc;
                    break;
                }
            }
        }
    }
    for (s, sign) in [(side, 1.0), (1 - side, -1.0)] {
        let e = 1 - s;
        let inf = INFANTRY | ((s as u8) << 3);
        let mut ps = part[s];
        if let Some(f) = feudal[s] {
            let n = g.within[f][2].iter().filter(|&&i| sq[i as usize] == inf).count();
            ps += p.aura * n as f64;
        }
        if let Some(fe) = feudal[e] {
            let n = access::markers(st, s).filter(|&(_, t)| g.distance[t as usize][fe] == 1).count();
            ps += p.mine * n as f64;
        }
        score += sign * ps;
    }
    let to_move = access::to_move(st);
    for (s, sign) in [(side, 1.0), (1 - side, -1.0)] {
        if feudal[s].is_some() && access::is_threatened(st, s) {
            score -= sign * if s == to_move { p.threat_mover } else { p.threat_waiting };
        }
    }
    score
}
