//! Piece cards as data (`workbench/games/big_chess/cards.py` and `geometry.py`): a small JSON reader for
//! the card files (the starter set `data/cards/*.json` and a scenario's or designer's cards, which the
//! Python adapter hands over as the same file format), the pattern language (slide, leap, cells; `sym`
//! expansion; levels) and the square-grid geometry (ring rotation B3, nearest-angle facing B2, the
//! over-cells of a leap B4). Nothing here knows one card from another: every piece is what its card says.

use std::collections::BTreeMap;

/// A parsed JSON value (numbers are whole: the card format has no fractions).
#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    Int(i64),
    Str(String),
    List(Vec<Json>),
    Map(Vec<(String, Json)>),
}

impl Json {
    pub fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Map(m) => m.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }
    fn int(&self) -> Option<i64> {
        match self {
            Json::Int(v) => Some(*v),
            _ => None,
        }
    }
    fn boolean(&self) -> Option<bool> {
        match self {
            Json::Bool(v) => Some(*v),
            _ => None,
        }
    }
    fn text(&self) -> Option<&str> {
        match self {
            Json::Str(s) => Some(s),
            _ => None,
        }
    }
}

/// Parse JSON text (at most 64 levels deep); `Err` says where it failed.
pub fn parse_json(text: &str) -> Result<Json, String> {
    let b = text.as_bytes();
    let mut i = 0;
    let v = value(b, &mut i, 0)?;
    ws(b, &mut i);
    if i != b.len() {
        return Err(format!("unexpected text at byte {i}"));
    }
    Ok(v)
}

fn ws(b: &[u8], i: &mut usize) {
    while *i < b.len() && b[*i].is_ascii_whitespace() {
        *i += 1;
    }
}

fn value(b: &[u8], i: &mut usize, depth: usize) -> Result<Json, String> {
    if depth > 64 {
        return Err("nested too deeply".into());
    }
    ws(b, i);
    let Some(&ch) = b.get(*i) else { return Err("unexpected end".into()) };
    match ch {
        b'{' => {
            *i += 1;
            let mut out = Vec::new();
            ws(b, i);
            if b.get(*i) == Some(&b'}') {
                *i += 1;
                return Ok(Json::Map(out));
            }
            loop {
                ws(b, i);
                let Json::Str(k) = value(b, i, depth + 1)? else { return Err(format!("a key at byte {i}")) };
                ws(b, i);
                if b.get(*i) != Some(&b':') {
                    return Err(format!("':' expected at byte {i}"));
                }
                *i += 1;
                let v = value(b, i, depth + 1)?;
                out.push((k, v));
                ws(b, i);
                match b.get(*i) {
                    Some(b',') => *i += 1,
                    Some(b'}') => {
                        *i += 1;
                        return Ok(Json::Map(out));
                    }
                    _ => return Err(format!("',' or '}}' expected at byte {i}")),
                }
            }
        }
        b'[' => {
            *i += 1;
            let mut out = Vec::new();
            ws(b, i);
            if b.get(*i) == Some(&b']') {
                *i += 1;
                return Ok(Json::List(out));
            }
            loop {
                out.push(value(b, i, depth + 1)?);
                ws(b, i);
                match b.get(*i) {
                    Some(b',') => *i += 1,
                    Some(b']') => {
                        *i += 1;
                        return Ok(Json::List(out));
                    }
                    _ => return Err(format!("',' or ']' expected at byte {i}")),
                }
            }
        }
        b'"' => {
            *i += 1;
            let mut s = Vec::new();
            while let Some(&c) = b.get(*i) {
                *i += 1;
                match c {
                    b'"' => return String::from_utf8(s).map(Json::Str).map_err(|_| "bad UTF-8".to_string()),
                    b'\\' => {
                        let Some(&e) = b.get(*i) else { break };
                        *i += 1;
                        match e {
                            b'n' => s.push(b'\n'),
                            b't' => s.push(b'\t'),
                            b'r' => s.push(b'\r'),
                            b'b' => s.push(8),
                            b'f' => s.push(12),
                            b'u' => {
                                let hex = b.get(*i..*i + 4).ok_or("bad \\u escape")?;
                                let code = u32::from_str_radix(std::str::from_utf8(hex).map_err(|_| "bad \\u")?, 16)
                                    .map_err(|_| "bad \\u escape")?;
                                *i += 4;
                                let ch = char::from_u32(code).unwrap_or('\u{fffd}');
                                let mut tmp = [0u8; 4];
                                s.extend_from_slice(ch.encode_utf8(&mut tmp).as_bytes());
                            }
                            other => s.push(other),
                        }
                    }
                    _ => s.push(c),
                }
            }
            Err("unterminated string".into())
        }
        b't' if b[*i..].starts_with(b"true") => {
            *i += 4;
            Ok(Json::Bool(true))
        }
        b'f' if b[*i..].starts_with(b"false") => {
            *i += 5;
            Ok(Json::Bool(false))
        }
        b'n' if b[*i..].starts_with(b"null") => {
            *i += 4;
            Ok(Json::Null)
        }
        b'-' | b'0'..=b'9' => {
            let start = *i;
            *i += 1;
            while *i < b.len() && b[*i].is_ascii_digit() {
                *i += 1;
            }
            let t = std::str::from_utf8(&b[start..*i]).map_err(|_| "bad number")?;
            t.parse::<i64>().map(Json::Int).map_err(|_| format!("a whole number expected at byte {start}"))
        }
        _ => Err(format!("unexpected character at byte {i}")),
    }
}

// ------------------------------------------------------------------------------------------- geometry

/// index f -> (dx, dy); N is toward row 0 (`geometry.DIRS`).
pub const DIRS: [(i32, i32); 8] = [(0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1)];
pub const FACING_NAMES: [&str; 8] = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"];

pub fn dir_index(dx: i32, dy: i32) -> usize {
    DIRS.iter().position(|&d| d == (dx, dy)).expect("a unit direction")
}

/// `quantize`: the facing nearest by angle (B2).
pub fn quantize(dx: i32, dy: i32) -> u8 {
    let (a, b) = (dx.abs() as i64, dy.abs() as i64);
    let s = (a + b) * (a + b);
    let d = if s < 2 * a * a {
        (dx.signum(), 0)
    } else if s < 2 * b * b {
        (0, dy.signum())
    } else {
        (dx.signum(), dy.signum())
    };
    dir_index(d.0, d.1) as u8
}

fn ring_pos(vx: i32, vy: i32) -> (i32, i32) {
    let r = vx.abs().max(vy.abs());
    if vy == -r && vx >= 0 {
        (vx, r)
    } else if vx == r {
        (r + (vy + r), r)
    } else if vy == r {
        (3 * r + (r - vx), r)
    } else if vx == -r {
        (5 * r + (r - vy), r)
    } else {
        (7 * r + (vx + r), r)
    }
}

fn ring_cell(p: i32, r: i32) -> (i32, i32) {
    let p = p.rem_euclid(8 * r);
    if p <= r {
        (p, -r)
    } else if p <= 3 * r {
        (r, -r + (p - r))
    } else if p <= 5 * r {
        (r - (p - 3 * r), r)
    } else if p <= 7 * r {
        (-r, r - (p - 5 * r))
    } else {
        (-r + (p - 7 * r), -r)
    }
}

/// `rot`: a vector written for facing N turned to facing `f` by ring rotation (B3).
pub fn rot(vx: i32, vy: i32, f: u8) -> (i32, i32) {
    if vx == 0 && vy == 0 {
        return (0, 0);
    }
    let (p, r) = ring_pos(vx, vy);
    ring_cell(p + f as i32 * r, r)
}

/// `expand_sym`: the written vectors expanded by `sym`, duplicates dropped, order kept.
pub fn expand_sym(vectors: &[(i32, i32)], sym: &str) -> Vec<(i32, i32)> {
    let mut out: Vec<(i32, i32)> = Vec::new();
    let mut seen = std::collections::HashSet::new(); // a card of 16,000 vectors expands in linear time
    for &v in vectors {
        let mut group = vec![v];
        if sym == "lr" {
            group.push((-v.0, v.1));
        } else if sym == "rot4" || sym == "all" {
            let bases = if sym == "rot4" { vec![v] } else { vec![v, (-v.0, v.1)] };
            group.clear();
            for b in bases {
                let mut w = b;
                for _ in 0..4 {
                    group.push(w);
                    w = (-w.1, w.0);
                }
            }
        }
        for w in group {
            if seen.insert(w) {
                out.push(w);
            }
        }
    }
    out
}

/// `over_cells`: relative cells whose interior the centre-to-centre segment of a leap crosses (B4).
pub fn over_cells(dx: i32, dy: i32) -> Vec<(i32, i32)> {
    let mut out = Vec::new();
    for j in dy.min(0)..=dy.max(0) {
        for i in dx.min(0)..=dx.max(0) {
            if (i, j) == (0, 0) || (i, j) == (dx, dy) {
                continue;
            }
            let (mut pos, mut neg) = (false, false);
            for cx in [2 * i - 1, 2 * i + 1] {
                for cy in [2 * j - 1, 2 * j + 1] {
                    let g = dy * cx - dx * cy;
                    pos |= g > 0;
                    neg |= g < 0;
                }
            }
            if pos && neg {
                out.push((i, j));
            }
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------- cards

pub const MOVE: u8 = 0;
pub const STRIKE: u8 = 1;
pub const TAKE: u8 = 2;
pub const PUSH: u8 = 3;
pub const AREA: u8 = 4;
pub const SLIDE: u8 = 0;
pub const LEAP: u8 = 1;
pub const CELLS: u8 = 2;

/// One pattern entry, expanded by `sym`, with its vectors turned to each facing (and a leap's over-cells).
#[derive(Clone, Debug)]
pub struct Entry {
    pub act: u8,
    pub geom: u8,
    pub min: i32,
    pub range: i32,
    pub keep: bool,
    pub hop: bool,
    pub shadow: bool,
    /// None: base
    pub level: Option<u8>,
    pub vectors: Vec<(i32, i32)>,
    /// `turned[f]`: the vectors at facing f (`Entry.turned`)
    pub turned: [Vec<(i32, i32)>; 8],
    /// `over[f][i]`: over-cells of leap `turned[f][i]`
    pub over: [Vec<Vec<(i32, i32)>>; 8],
}

/// A piece type (`cards.Card`).
#[derive(Clone, Debug)]
pub struct Card {
    pub key: String,
    pub id: i64,
    pub vector: bool,
    pub cost: i64,
    pub buyable: bool,
    pub pushable: bool,
    pub pawn: bool,
    pub jester: bool,
    pub jester_immune: bool,
    pub prince: bool,
    pub king: bool,
    pub untouchable: bool,
    pub aura_mask: u32,
    pub income: i64,
    pub entries: Vec<Entry>,
    pub levels: Vec<u8>,
    pub levels_mask: u32,
    /// base has a move entry (text 8.2)
    pub mobile: bool,
}

fn vec2(v: &Json) -> Option<(i32, i32)> {
    match v {
        Json::List(xs) if xs.len() == 2 => {
            let a = xs[0].int()?;
            let b = xs[1].int()?;
            (a.abs() <= 64 && b.abs() <= 64).then_some((a as i32, b as i32))
        }
        _ => None,
    }
}

fn vec_list(v: &Json) -> Option<Vec<(i32, i32)>> {
    if let Some(one) = vec2(v) {
        return Some(vec![one]);
    }
    match v {
        Json::List(xs) if !xs.is_empty() => xs.iter().map(vec2).collect(),
        _ => None,
    }
}

fn entry(e: &Json, level: Option<u8>, pawn: bool, label: &str) -> Result<Entry, String> {
    let err = |f: &str, why: &str| format!("{label}: field {f}: {why}");
    let act = match e.get("act").and_then(Json::text) {
        Some("move") => MOVE,
        Some("strike") => STRIKE,
        Some("take") => TAKE,
        Some("push") => PUSH,
        Some("area") => AREA,
        _ => return Err(err("act", "must be one of move, strike, take, push, area")),
    };
    let geoms: Vec<(u8, &Json)> = [("slide", SLIDE), ("leap", LEAP), ("cells", CELLS)]
        .iter()
        .filter_map(|(k, g)| e.get(k).map(|v| (*g, v)))
        .collect();
    if geoms.len() != 1 {
        return Err(err("act", "needs exactly one geometry: slide, leap or cells"));
    }
    let (geom, gv) = geoms[0];
    let vecs = vec_list(gv).ok_or_else(|| err("geometry", "must be a vector or a list of vectors"))?;
    if vecs.iter().any(|&v| v == (0, 0) || (geom == SLIDE && (v.0.abs() > 1 || v.1.abs() > 1))) {
        return Err(err("geometry", "[0, 0], or a slide that is not a unit vector"));
    }
    let sym = match e.get("sym") {
        None => "none",
        Some(v) => v.text().ok_or_else(|| err("sym", "must be text"))?,
    };
    if !["none", "lr", "rot4", "all"].contains(&sym) {
        return Err(err("sym", "must be one of none, lr, rot4, all"));
    }
    let flag = |k: &str| -> Result<bool, String> {
        match e.get(k) {
            None => Ok(false),
            Some(v) => v.boolean().ok_or_else(|| err(k, "must be true or false")),
        }
    };
    let num = |k: &str| -> Result<i64, String> {
        match e.get(k) {
            None => Ok(1),
            Some(v) => v.int().ok_or_else(|| err(k, "must be a whole number")),
        }
    };
    let (range, min) = (num("range")?, num("min")?);
    if !(0..=64).contains(&range) || !(1..=64).contains(&min) || (range != 0 && min > range) {
        return Err(err("range", "range 0..64, min 1..64, min at most range"));
    }
    let (keep, hop, shadow) = (flag("keep")?, flag("hop")?, flag("shadow")?);
    if (act == AREA) != (geom == CELLS) || (act == PUSH && (geom != SLIDE || range != 1 || min != 1)) {
        return Err(err("act", "an area needs cells (and only an area has them); a push needs a slide of range 1"));
    }
    if shadow && !(pawn && act == MOVE && geom == SLIDE && min == 2 && range == 2) {
        return Err(err("shadow", "shadow is only for a pawn's move slide with min: 2, range: 2"));
    }
    let vectors = expand_sym(&vecs, sym);
    let turned: [Vec<(i32, i32)>; 8] =
        std::array::from_fn(|f| vectors.iter().map(|&(x, y)| rot(x, y, f as u8)).collect());
    let over: [Vec<Vec<(i32, i32)>>; 8] = std::array::from_fn(|f| {
        turned[f].iter().map(|&(x, y)| if geom == LEAP { over_cells(x, y) } else { Vec::new() }).collect()
    });
    Ok(Entry { act, geom, min: min as i32, range: range as i32, keep, hop, shadow, level, vectors, turned, over })
}

/// One card mapping in the file format (`cards.parse_card`); the Python reader has validated a card with
/// line numbers already, this checks again what the core relies on.
pub fn parse_card(node: &Json) -> Result<Card, String> {
    let key = node.get("key").and_then(Json::text).ok_or("a card needs a key")?.to_string();
    if key.is_empty() || key.len() > 32 || !key.bytes().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit()) {
        return Err(format!("card {key:.40}: field key: must match [a-z][a-z0-9]*"));
    }
    let label = format!("card {key}");
    let int = |k: &str, d: Option<i64>, lo: i64, hi: i64| -> Result<i64, String> {
        let v = match node.get(k) {
            None => d.ok_or_else(|| format!("{label}: field {k}: is required"))?,
            Some(v) => v.int().ok_or_else(|| format!("{label}: field {k}: must be a whole number"))?,
        };
        if !(lo..=hi).contains(&v) {
            return Err(format!("{label}: field {k}: must be {lo}..{hi}"));
        }
        Ok(v)
    };
    let flag = |k: &str, d: Option<bool>| -> Result<bool, String> {
        match node.get(k) {
            None => d.ok_or_else(|| format!("{label}: field {k}: is required")),
            Some(v) => v.boolean().ok_or_else(|| format!("{label}: field {k}: must be true or false")),
        }
    };
    let id = int("id", None, 0, 255)?;
    let cost = int("cost", None, 0, 100_000)?;
    let income = int("income", Some(0), 0, 10_000)?;
    let vector = flag("vector", None)?;
    let buyable = flag("buyable", Some(true))?;
    let pushable = flag("pushable", Some(true))?;
    let mut tags = Vec::new();
    if let Some(t) = node.get("tags") {
        let Json::List(xs) = t else { return Err(format!("{label}: field tags: must be a list")) };
        for x in xs {
            let s = x.text().ok_or_else(|| format!("{label}: field tags: must be text"))?;
            if !["pawn", "jester", "jester_immune", "prince", "king", "untouchable"].contains(&s) {
                return Err(format!("{label}: field tags: unknown tag {s:.30}"));
            }
            tags.push(s.to_string());
        }
    }
    let has = |t: &str| tags.iter().any(|x| x == t);
    let mut aura_mask = 0u32;
    if let Some(Json::List(xs)) = node.get("aura") {
        for x in xs {
            let lv =
                x.int().filter(|v| (0..=31).contains(v)).ok_or_else(|| format!("{label}: field aura: levels 0..31"))?;
            aura_mask |= 1 << lv;
        }
    }
    let pawn = has("pawn");
    let mut entries = Vec::new();
    if let Some(base) = node.get("base") {
        let Json::List(xs) = base else { return Err(format!("{label}: field base: must be a list")) };
        for (i, e) in xs.iter().enumerate() {
            entries.push(entry(e, None, pawn, &format!("{label}: base[{i}]"))?);
        }
    }
    let mut levels: Vec<(u8, &Json)> = Vec::new();
    if let Some(lv) = node.get("levels") {
        let Json::Map(m) = lv else { return Err(format!("{label}: field levels: must be a mapping")) };
        let mut seen = BTreeMap::new();
        for (k, v) in m {
            let n: u8 = k
                .parse()
                .ok()
                .filter(|n| *n <= 31 && k.len() <= 3)
                .ok_or_else(|| format!("{label}: field levels: level {k:.20} must be a number 0..31"))?;
            if seen.insert(n, ()).is_some() {
                return Err(format!("{label}: field levels: level {n} is given twice"));
            }
            levels.push((n, v));
        }
    }
    levels.sort_by_key(|t| t.0);
    for &(n, v) in &levels {
        match v {
            Json::Null => {}
            Json::List(xs) => {
                for (i, e) in xs.iter().enumerate() {
                    entries.push(entry(e, Some(n), pawn, &format!("{label}: levels.{n}[{i}]"))?);
                }
            }
            _ => return Err(format!("{label}: field levels: level {n} must be a list of entries")),
        }
    }
    if entries.len() > 64 {
        return Err(format!("{label}: at most 64 entries per card"));
    }
    let levels: Vec<u8> = levels.iter().map(|t| t.0).collect();
    let levels_mask = levels.iter().fold(0u32, |m, &l| m | (1 << l));
    let mobile = entries.iter().any(|e| e.level.is_none() && e.act == MOVE);
    Ok(Card {
        key,
        id,
        vector,
        cost,
        buyable,
        pushable,
        pawn,
        jester: has("jester"),
        jester_immune: has("jester_immune"),
        prince: has("prince"),
        king: has("king"),
        untouchable: has("untouchable"),
        aura_mask,
        income,
        entries,
        levels,
        levels_mask,
        mobile,
    })
}

/// A card or a list of cards (`cards.parse_cards`), in the order given.
pub fn parse_cards(node: &Json) -> Result<Vec<Card>, String> {
    match node {
        Json::List(xs) => {
            if xs.len() > 200 {
                return Err("at most 200 cards".into());
            }
            xs.iter().map(parse_card).collect()
        }
        other => Ok(vec![parse_card(other)?]),
    }
}

/// The card set checks of `check_card_set`, then ordered by id (`merge_cards`, `starter_cards`).
pub fn card_set(mut cards: Vec<Card>) -> Result<Vec<Card>, String> {
    cards.sort_by_key(|c| c.id);
    for i in 0..cards.len() {
        for j in 0..i {
            if cards[i].key == cards[j].key || cards[i].id == cards[j].id {
                return Err(format!("card {}: key or id used twice", cards[i].key));
            }
        }
    }
    if cards.iter().filter(|c| c.king).count() != 1 {
        return Err("exactly one card must be tagged king".into());
    }
    Ok(cards)
}

/// `merge_cards`: `base` with `extra` added or replacing by key, ordered by id.
pub fn merge(base: Vec<Card>, extra: Vec<Card>) -> Result<Vec<Card>, String> {
    let mut out = base;
    for c in extra {
        if let Some(i) = out.iter().position(|b| b.key == c.key) {
            out[i] = c;
        } else {
            out.push(c);
        }
    }
    card_set(out)
}

/// Every card file of a folder (`data/cards/*.json`, in file-name order), as one checked set ordered by id
/// (`cards.starter_cards`): the Rust tests and examples read the same files as the Python engine.
pub fn load_dir(dir: &std::path::Path) -> Result<Vec<Card>, String> {
    let mut paths: Vec<_> =
        std::fs::read_dir(dir).map_err(|e| e.to_string())?.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.retain(|p| p.extension().is_some_and(|x| x == "json"));
    paths.sort();
    let mut cards = Vec::new();
    for p in paths {
        let text = std::fs::read_to_string(&p).map_err(|e| e.to_string())?;
        cards.extend(parse_cards(&parse_json(&text)?)?);
    }
    card_set(cards)
}

/// A board file's rows, facings (letter index, facing index) and team string.
pub type BoardFile = (Vec<String>, Vec<(u8, u8)>, String);

/// Read a board file (`boards.named_board`'s format).
pub fn board_file(text: &str) -> Result<BoardFile, String> {
    let j = parse_json(text)?;
    let rows = match j.get("rows") {
        Some(Json::List(xs)) => {
            xs.iter().map(|r| r.text().map(str::to_string).ok_or("rows are text")).collect::<Result<_, _>>()?
        }
        _ => return Err("a board file has rows".into()),
    };
    let mut facing = Vec::new();
    if let Some(Json::Map(m)) = j.get("facing") {
        for (k, v) in m {
            let f = FACING_NAMES.iter().position(|n| Some(*n) == v.text()).ok_or("a facing N..NW")?;
            let l = k.bytes().next().filter(|c| (b'a'..=b'y').contains(c)).ok_or("a facing letter a..y")?;
            facing.push((l - b'a', f as u8));
        }
    }
    let teams = j.get("teams").and_then(Json::text).unwrap_or("").to_string();
    Ok((rows, facing, teams))
}
