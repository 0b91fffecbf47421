//! The agents in Rust, twins of `workbench/agents` with the same names and parameters:
//! `random`, `greedy`, `alphabeta`, `mcts` and the strong `search`.
//!
//! `random` and `greedy` choose exactly what their Python twins choose (same legal-action order,
//! same `random.Random` stream through `pyrandom`, same material sums). The searching agents
//! follow the Python algorithms; they need not pick the same action but play equally well at the
//! same settings (checked on the ladder). Whole games call them directly, with no Python per ply.
// Hex tables are indexed in parallel (squares, masks, distances), as in the Python twins.
#![allow(clippy::needless_range_loop)]

pub mod access;
pub mod alphabeta;
pub mod eval;
pub mod greedy;
pub mod mcts;
pub mod random;
pub mod search;

use crate::core::pyrandom::PyRandom;
use crate::terrafeud::state::{Action, State};

pub use eval::EvalParams;

/// Ceiling on any agent's thinking time per decision (`base.MAX_SECONDS`).
pub const MAX_SECONDS: f64 = 5.0;

/// What every native agent does: pick an action, leaving the state as it found it.
pub trait Agent: Send {
    /// The action to play in `state` (which must not be terminal; `Pass` if it is).
    fn select_action(&mut self, state: &mut State) -> Action;
    /// Nodes (or iterations) the last decision used, for benchmarks.
    fn searched(&self) -> u64 {
        0
    }
    /// The last decision's root value (side to move's view), for agents whose search has one.
    fn score(&self) -> Option<f64> {
        None
    }
}

/// A parsed agent spec (`name:key=value,...`), validated with the Python ranges.
#[derive(Clone, Debug, PartialEq)]
pub struct Spec {
    pub name: String,
    pub params: Vec<(String, String)>,
}

impl Spec {
    /// Parse `name:key=value,...` (the text form shared with Python).
    pub fn parse(text: &str) -> Result<Spec, String> {
        let text = text.trim();
        let (name, rest) = match text.split_once(':') {
            Some((n, r)) => (n.trim(), r),
            None => (text, ""),
        };
        let mut params = Vec::new();
        for part in rest.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (k, v) = part
                .split_once('=')
                .ok_or_else(|| format!("agent {text:?}: parameter {part:?} needs the form name=value"))?;
            params.push((k.trim().to_string(), v.trim().to_string()));
        }
        Ok(Spec { name: name.to_string(), params })
    }

    fn raw(&self, key: &str) -> Option<&str> {
        self.params.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }

    fn check_known(&self, known: &[&str]) -> Result<(), String> {
        for (k, _) in &self.params {
            if !known.contains(&k.as_str()) {
                return Err(format!("agent {:?}: unknown parameter {k:?} (known: {})", self.name, known.join(", ")));
            }
        }
        Ok(())
    }

    /// Integer parameter in `lo..=hi` (a float with no fraction is accepted, as in Python).
    pub fn int(&self, key: &str, default: i64, lo: i64, hi: i64) -> Result<i64, String> {
        let Some(v) = self.raw(key) else {
            return Ok(default);
        };
        let x: f64 = v.parse().map_err(|_| format!("{}: {key}={v:?} must be an integer in {lo}..{hi}", self.name))?;
        if !x.is_finite() || x.fract() != 0.0 {
            return Err(format!("{}: {key}={v:?} must be an integer in {lo}..{hi}", self.name));
        }
        if x < lo as f64 || x > hi as f64 {
            return Err(format!("{}: {key}={v:?} is out of range {lo}..{hi}", self.name));
        }
        Ok(x as i64)
    }

    /// Number parameter in `lo..=hi`; `None` when absent or `none`.
    pub fn float(&self, key: &str, lo: f64, hi: f64) -> Result<Option<f64>, String> {
        let Some(v) = self.raw(key) else {
            return Ok(None);
        };
        if v.eq_ignore_ascii_case("none") {
            return Ok(None);
        }
        let x: f64 = v.parse().map_err(|_| format!("{}: {key}={v:?} must be a number in {lo}..{hi}", self.name))?;
        if !x.is_finite() {
            return Err(format!("{}: {key}={v:?} must be a number in {lo}..{hi}", self.name));
        }
        if x < lo || x > hi {
            return Err(format!("{}: {key}={v:?} is out of range {lo}..{hi}", self.name));
        }
        Ok(Some(x))
    }

    /// Boolean parameter (`true`/`false`).
    pub fn boolean(&self, key: &str, default: bool) -> Result<bool, String> {
        match self.raw(key) {
            None => Ok(default),
            Some(v) if v.eq_ignore_ascii_case("true") => Ok(true),
            Some(v) if v.eq_ignore_ascii_case("false") => Ok(false),
            Some(v) => Err(format!("{}: {key}={v:?} must be true or false", self.name)),
        }
    }
}

/// A parameter value as parsed by `workbench.agents.parse_agent_spec` (ints, floats, words).
pub type Params = Vec<(String, String)>;

/// Names of the native agents.
pub const NAMES: [&str; 5] = ["random", "greedy", "alphabeta", "mcts", "search"];

/// Whether `name` has a native implementation (the Python adapter asks before choosing native play).
pub fn has_native(name: &str) -> bool {
    NAMES.contains(&name)
}

/// Build an agent by name; `seed` is the little-endian 32-bit words of `abs(seed)` (as CPython
/// seeds `random.Random`). The evaluation uses the parameters Python installed
/// ([`eval::set_params`]). An unknown name or a bad parameter is an error naming it.
pub fn make_agent(name: &str, params: &Params, seed: &[u32]) -> Result<Box<dyn Agent>, String> {
    let spec = Spec { name: name.to_string(), params: params.clone() };
    build(&spec, PyRandom::from_key(seed))
}

/// An agent from its text form `name:key=value,...` (the form simulations record).
pub fn make_agent_from_spec(text: &str, seed: &[u32]) -> Result<Box<dyn Agent>, String> {
    build(&Spec::parse(text)?, PyRandom::from_key(seed))
}

fn build(sp: &Spec, rng: PyRandom) -> Result<Box<dyn Agent>, String> {
    // `engine=` pins an agent's engine in Python (`alphabeta:engine=python`); native is this one.
    let mut sp = sp.clone();
    if let Some(e) = sp.raw("engine") {
        if e != "native" && e != "auto" {
            return Err(format!("agent {:?} is pinned to engine={e}", sp.name));
        }
    }
    sp.params.retain(|(k, _)| k != "engine");
    let agent: Box<dyn Agent> = match sp.name.as_str() {
        "random" => {
            sp.check_known(&[])?;
            Box::new(random::RandomAgent { rng })
        }
        "greedy" => {
            sp.check_known(&[])?;
            Box::new(greedy::GreedyAgent { rng, params: eval::params()? })
        }
        "alphabeta" => {
            sp.check_known(&["depth", "nodes", "seconds", "eval"])?;
            Box::new(alphabeta::AlphaBetaAgent::new(
                rng,
                searching_params(&sp)?,
                sp.int("depth", 2, 1, alphabeta::MAX_DEPTH as i64)? as u32,
                sp.int("nodes", 4000, 1, alphabeta::MAX_NODES as i64)? as u64,
                sp.float("seconds", 0.001, MAX_SECONDS)?,
            ))
        }
        "search" => {
            sp.check_known(&["depth", "nodes", "seconds", "qdepth", "attack", "lmr", "trade", "eval"])?;
            let mut agent = Box::new(search::SearchAgent::new(
                rng,
                searching_params(&sp)?,
                sp.int("depth", 8, 1, search::MAX_DEPTH as i64)? as u32,
                sp.int("nodes", 100_000, 1, search::MAX_NODES as i64)? as u64,
                sp.float("seconds", 0.001, MAX_SECONDS)?,
                sp.int("qdepth", 4, 0, search::MAX_QDEPTH as i64)? as u32,
                sp.float("attack", 0.0, 1.0)?.unwrap_or(search::DEFAULT_ATTACK),
            ));
            agent.lmr = sp.boolean("lmr", true)?;
            agent.trade = sp.float("trade", 0.0, 1.0)?.unwrap_or(search::DEFAULT_TRADE);
            agent
        }
        "mcts" => {
            sp.check_known(&[
                "iterations",
                "rollout",
                "rollout_depth",
                "c",
                "scale",
                "widen",
                "quiesce",
                "seconds",
                "eval",
            ])?;
            let rollout = sp.raw("rollout").unwrap_or("eval");
            if rollout != "eval" && rollout != "random" {
                return Err(format!("mcts: rollout={rollout:?} must be 'eval' or 'random'"));
            }
            Box::new(mcts::MctsAgent {
                rng,
                params: searching_params(&sp)?,
                iterations: sp.int("iterations", 300, 1, mcts::MAX_ITERATIONS as i64)? as u32,
                random_rollout: rollout == "random",
                rollout_depth: sp.int("rollout_depth", 6, 0, 200)? as u32,
                c: sp.float("c", 0.0, 100.0)?.unwrap_or(0.3),
                scale: sp.float("scale", 0.001, 1000.0)?.unwrap_or(1.0),
                widen: sp.float("widen", 0.0, 1000.0)?.unwrap_or(2.0),
                quiesce: sp.boolean("quiesce", true)?,
                seconds: sp.float("seconds", 0.001, MAX_SECONDS)?,
                last_iterations: 0,
            })
        }
        other => return Err(format!("no native agent {other:?}; native agents: {}", NAMES.join(", "))),
    };
    Ok(agent)
}

/// The evaluation of a searching agent (`alphabeta`, `search`, `mcts`): the installed hand parameters, and
/// learned weights when the spec has `eval=` (the vector Python resolved from the file's name).
fn searching_params(sp: &Spec) -> Result<EvalParams, String> {
    let mut p = eval::params()?;
    if let Some(text) = sp.raw("eval") {
        p.learned = Some(eval::parse_learned(text)?);
    }
    Ok(p)
}

/// The steps' target hexes of an action that strikes (moves and Orders).
#[inline]
pub fn targets(a: &Action) -> impl Iterator<Item = usize> + '_ {
    let (slice, n): (&[[u8; 3]], usize) = match a {
        Action::Order { n, steps } => (&steps[..], *n as usize),
        _ => (&[], 0),
    };
    let single = match a {
        Action::Move { to, .. } => Some(*to as usize),
        _ => None,
    };
    single.into_iter().chain(slice[..n].iter().map(|s| s[1] as usize))
}

/// The ordering key of `alphabeta._ordered` (lower first): castle centre, captures by victim
/// value, shots at pieces, the rest.
pub fn capture_priority(sq: &[u8; 91], side: usize, centre: usize, w: &[f64; 16], a: &Action) -> f64 {
    match a {
        Action::Move { from, to, .. } => {
            let t = *to as usize;
            if t == centre {
                return -1e8;
            }
            let c = sq[t];
            if c != 0 && (c >> 3) as usize != side {
                -100.0 * w[c as usize] + w[sq[*from as usize] as usize]
            } else {
                0.0
            }
        }
        Action::Shot { target, .. } => {
            let c = sq[*target as usize];
            if c != 0 {
                -10.0 * w[c as usize]
            } else {
                1.0
            }
        }
        Action::Order { .. } => {
            let hit = enemy_weight_hit(sq, side, w, a);
            if hit != 0.0 {
                -100.0 * hit
            } else {
                0.5
            }
        }
        _ => 0.0,
    }
}

/// Weight of the enemy pieces on the target hexes of an action's steps.
pub fn enemy_weight_hit(sq: &[u8; 91], side: usize, w: &[f64; 16], a: &Action) -> f64 {
    let mut hit = 0.0;
    for t in targets(a) {
        let c = sq[t];
        if c != 0 && (c >> 3) as usize != side {
            hit += w[c as usize];
        }
    }
    hit
}

/// Order `acts` by [`capture_priority`] for the side to move in `st` (stable: earlier ties stay first),
/// as the Python agents' `sorted(acts, key=priority)` at a root or an expansion.
pub fn sort_captures_first(st: &State, acts: &mut [Action], w: &[f64; 16]) {
    let sq = *access::squares(st);
    let side = access::to_move(st);
    let centre = access::castle_centre(st)[1 - side];
    sort_by_priority(acts, |a| capture_priority(&sq, side, centre, w, a));
}

/// Sort like Python's `sorted(acts, key=priority)`: stable, lower first.
pub fn sort_by_priority(acts: &mut [Action], mut key: impl FnMut(&Action) -> f64) {
    let mut keyed: Vec<(f64, Action)> = acts.iter().map(|a| (key(a), *a)).collect();
    keyed.sort_by(|x, y| x.0.partial_cmp(&y.0).unwrap_or(std::cmp::Ordering::Equal));
    for (slot, (_, a)) in acts.iter_mut().zip(keyed) {
        *slot = a;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse_and_validate_like_python() {
        let sp = Spec::parse("alphabeta:depth=3, nodes=8000").unwrap();
        assert_eq!(sp.name, "alphabeta");
        assert_eq!(sp.int("depth", 2, 1, 20), Ok(3));
        assert_eq!(sp.int("nodes", 4000, 1, 5_000_000), Ok(8000));
        assert_eq!(sp.float("seconds", 0.001, 5.0), Ok(None));
        let bad = Spec::parse("alphabeta:depth=30,seconds=abc,quiesce=2").unwrap();
        assert!(bad.int("depth", 2, 1, 20).unwrap_err().contains("out of range"));
        assert!(bad.float("seconds", 0.001, 5.0).unwrap_err().contains("must be a number"));
        assert!(bad.boolean("quiesce", true).unwrap_err().contains("true or false"));
        assert!(Spec::parse("mcts:iterations").is_err());
    }

    #[test]
    fn unknown_agents_and_parameters_are_refused() {
        assert!(make_agent("minimax", &vec![], &[1]).err().unwrap().contains("no native agent"));
        let p = vec![("depth".to_string(), "2".to_string())];
        assert!(make_agent("random", &p, &[1]).err().unwrap().contains("unknown parameter"));
        assert!(has_native("search") && !has_native("minimax"));
    }
}
