//! The fixed part of one game (`context.py`, `boards.py`, `rules.py`): rules, board, cards, players,
//! teams and the tables built once (neighbours, rays, names). States share it behind an `Arc`.

use super::cards::{Card, FACING_NAMES};

pub const LETTERS: &[u8; 25] = b"abcdefghijklmnopqrstuvwxy";
pub const PLAIN: u8 = 0;
pub const ROCK: u8 = 1;
pub const EMBERS: u8 = 2;
pub const SAND: u8 = 3;
pub const FOREST: u8 = 4;
pub const SWAMP: u8 = 5;
pub const MINE: u8 = 6;
pub const FORT: u8 = 7;
pub const ALTAR: u8 = 8;
pub const PORTAL: u8 = 9;

/// `STANDABLE_NOT`
pub fn standable_not(t: u8) -> bool {
    t == ROCK || t == EMBERS
}
/// `PATH_OK`: slide intermediates (B6, B7)
pub fn path_ok(t: u8) -> bool {
    matches!(t, PLAIN | EMBERS | MINE | FORT | ALTAR | PORTAL)
}
/// `NO_SHADOW`
pub fn no_shadow(t: u8) -> bool {
    matches!(t, MINE | SWAMP | ALTAR | PORTAL)
}

/// How a game starts (`start`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Start {
    Setup,
    Army,
    Deployed,
}

/// Every parameter and toggle of section 15 (`rules.SPEC`), card costs aside (they are in `Context::cost`).
#[derive(Clone, Debug)]
pub struct Rules {
    pub king_cost: i64,
    pub strike_reward_pct: i64,
    pub vet_rate_pct: i64,
    pub mine_income: i64,
    pub turn_income: i64,
    pub upkeep: i64,
    pub victim_discount_pct: i64,
    pub promotion_distance: i64,
    pub max_turns: i64,
    pub quiet_limit: i64,
    pub victim_blocks_jumps: bool,
    pub pawn_promotion: bool,
    pub prince_succession: bool,
    /// `jester_blocks=all`
    pub jester_blocks_all: bool,
    /// `lock_expiry=round_end`
    pub lock_round_end: bool,
    pub prince_buy_to_owner: bool,
    pub king_pushable: bool,
    pub passable_targets: bool,
    pub start: Start,
    pub promotion_targets: Vec<String>,
    pub fort_levels: Vec<u8>,
    pub deploy_plan: Vec<String>,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            king_cost: 300,
            strike_reward_pct: 50,
            vet_rate_pct: 50,
            mine_income: 10,
            turn_income: 0,
            upkeep: 0,
            victim_discount_pct: 50,
            promotion_distance: 6,
            max_turns: 1000,
            quiet_limit: 100,
            victim_blocks_jumps: false,
            pawn_promotion: true,
            prince_succession: true,
            jester_blocks_all: false,
            lock_round_end: false,
            prince_buy_to_owner: false,
            king_pushable: false,
            passable_targets: false,
            start: Start::Setup,
            promotion_targets: ["knight", "bishop", "rook", "queen"].iter().map(|s| s.to_string()).collect(),
            fort_levels: vec![0, 1],
            deploy_plan: [
                "rook", "knight", "lbishop", "infantry", "infantry", "infantry", "rook", "knight", "lbishop",
                "infantry", "infantry", "infantry",
            ]
            .iter()
            .map(|s| s.to_string())
            .collect(),
        }
    }
}

impl Rules {
    /// Set one numeric rule by its Python name (bools as 0/1; the choices as the index of their value).
    pub fn set(&mut self, name: &str, v: i64) -> Result<(), String> {
        let range = |lo: i64, hi: i64| -> Result<i64, String> {
            if (lo..=hi).contains(&v) {
                Ok(v)
            } else {
                Err(format!("rule {name}={v}: must be {lo}..{hi}"))
            }
        };
        match name {
            "king_cost" => self.king_cost = range(0, 10_000)?,
            "strike_reward_pct" => self.strike_reward_pct = range(0, 200)?,
            "vet_rate_pct" => self.vet_rate_pct = range(1, 200)?,
            "mine_income" => self.mine_income = range(0, 100)?,
            "turn_income" => self.turn_income = range(0, 100)?,
            "upkeep" => self.upkeep = range(0, 100)?,
            "victim_discount_pct" => self.victim_discount_pct = range(0, 100)?,
            "promotion_distance" => self.promotion_distance = range(0, 64)?,
            "max_turns" => self.max_turns = range(0, 100_000)?,
            "quiet_limit" => self.quiet_limit = range(0, 100_000)?,
            "victim_blocks_jumps" => self.victim_blocks_jumps = range(0, 1)? == 1,
            "pawn_promotion" => self.pawn_promotion = range(0, 1)? == 1,
            "prince_succession" => self.prince_succession = range(0, 1)? == 1,
            "jester_blocks" => self.jester_blocks_all = range(0, 1)? == 1,
            "lock_expiry" => self.lock_round_end = range(0, 1)? == 1,
            "prince_buy_to_owner" => self.prince_buy_to_owner = range(0, 1)? == 1,
            "king_pushable" => self.king_pushable = range(0, 1)? == 1,
            "passable_targets" => self.passable_targets = range(0, 1)? == 1,
            "start" => {
                self.start = match range(0, 2)? {
                    0 => Start::Setup,
                    1 => Start::Army,
                    _ => Start::Deployed,
                }
            }
            _ => return Err(format!("unknown rule {name:?}")),
        }
        Ok(())
    }
}

/// Everything that does not change during a game (`context.Context`).
pub struct Context {
    pub rules: Rules,
    pub cards: Vec<Card>,
    pub cost: Vec<i64>,
    pub income: Vec<i64>,
    pub pushable: Vec<bool>,
    pub king: usize,
    pub victim: Option<usize>,
    pub promo: Vec<usize>,
    pub fort_mask: u32,
    pub w: i32,
    pub h: i32,
    pub n: usize,
    pub rows: Vec<String>,
    pub terrain: Vec<u8>,
    /// letter index + 1 of a start cell, 0 elsewhere
    pub zone: Vec<u8>,
    /// cells of each letter's zone in board order
    pub zones: Vec<Vec<u16>>,
    pub portal_pair: Vec<i32>,
    /// per letter index
    pub facing: [u8; 25],
    pub teams_text: String,
    /// letter index of each player (sorted letters)
    pub players: Vec<u8>,
    /// player index of each letter (-1: not playing)
    pub pidx: [i8; 25],
    pub team_of: Vec<usize>,
    pub team_members: Vec<Vec<usize>>,
    pub team_text: Vec<String>,
    pub names: Vec<String>,
    pub neighbors: Vec<Vec<u16>>,
    /// `rays[s][dir]`: cells from s along DIRS[dir] to the edge
    pub rays: Vec<[Vec<u16>; 8]>,
}

impl Context {
    /// Build a context: `cards` in the game's order (by id), `cost`/`income` the rules' values per card
    /// (`None`: the cards' own, the King at `king_cost`), the board as rows, the facing overrides by
    /// letter, the team string.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        rules: Rules,
        cards: Vec<Card>,
        cost: Option<Vec<i64>>,
        income: Option<Vec<i64>>,
        rows: &[String],
        facing: &[(u8, u8)],
        teams_text: &str,
    ) -> Result<Context, String> {
        let king = cards.iter().position(|c| c.king).ok_or("exactly one card must be tagged king")?;
        let cost =
            cost.unwrap_or_else(|| cards.iter().map(|c| if c.king { rules.king_cost } else { c.cost }).collect());
        let income = income.unwrap_or_else(|| cards.iter().map(|c| c.income).collect());
        if cost.len() != cards.len()
            || income.len() != cards.len()
            || cost.iter().chain(&income).any(|&v| !(0..=100_000).contains(&v))
        {
            return Err("cost and income: one value 0..100000 per card".into());
        }
        let victim = cards.iter().position(|c| c.key == "victim");
        let pushable = cards.iter().map(|c| if c.king { rules.king_pushable } else { c.pushable }).collect();
        let mut promo = Vec::new();
        for key in &rules.promotion_targets {
            let k = cards
                .iter()
                .position(|c| &c.key == key)
                .ok_or_else(|| format!("rule promotion_targets: {key} is not a card (B56)"))?;
            let c = &cards[k];
            if !c.buyable || c.pawn || c.king {
                return Err(format!("rule promotion_targets: {key} is not a buyable non-pawn card (B56)"));
            }
            if !promo.contains(&k) {
                promo.push(k);
            }
        }
        let fort_mask = rules.fort_levels.iter().fold(0u32, |m, &l| m | (1u32 << (l & 31)));
        // the board (boards.make_board)
        let h = rows.len();
        let w = rows.first().map(|r| r.len()).unwrap_or(0);
        if !(3..=64).contains(&w) || !(3..=64).contains(&h) {
            return Err(format!("the board is {w}x{h}; width and height must be 3..64"));
        }
        let n = w * h;
        let mut terrain = Vec::with_capacity(n);
        let mut zone = Vec::with_capacity(n);
        let mut zones: Vec<Vec<u16>> = vec![Vec::new(); 25];
        let mut portals = Vec::new();
        for (y, row) in rows.iter().enumerate() {
            if row.len() != w {
                return Err(format!("board row {y} has {} cells, row 0 has {w}", row.len()));
            }
            for (x, ch) in row.bytes().enumerate() {
                let i = y * w + x;
                let ch = if ch == b'.' { b'0' } else { ch };
                if let Some(l) = LETTERS.iter().position(|&c| c == ch) {
                    zones[l].push(i as u16);
                    terrain.push(PLAIN);
                    zone.push(l as u8 + 1);
                } else if ch.is_ascii_digit() {
                    terrain.push(ch - b'0');
                    zone.push(0);
                    if ch - b'0' == PORTAL {
                        portals.push(i);
                    }
                } else {
                    return Err(format!("board row {y}, cell {x},{y}: unknown character"));
                }
            }
        }
        if portals.len() % 2 == 1 {
            return Err("portals pair in board order, so their number must be even (B8)".into());
        }
        let mut portal_pair = vec![-1i32; n];
        for k in (0..portals.len()).step_by(2) {
            portal_pair[portals[k]] = portals[k + 1] as i32;
            portal_pair[portals[k + 1]] = portals[k] as i32;
        }
        let mut face = [4u8; 25];
        face[0] = 0;
        for &(l, f) in facing {
            if l as usize >= 25 || f >= 8 {
                return Err("facing: a letter a..y and a facing 0..7".into());
            }
            face[l as usize] = f;
        }
        // teams (boards.parse_teams)
        let mut teams: Vec<Vec<u8>> = Vec::new();
        let mut seen = [false; 25];
        if teams_text.is_empty() || teams_text.len() > 80 {
            return Err("teams: a team string such as ab,cd".into());
        }
        for part in teams_text.split(',') {
            if part.is_empty() {
                return Err(format!("teams {teams_text:?}: an empty team (B9)"));
            }
            let mut t = Vec::new();
            for ch in part.bytes() {
                let l = LETTERS
                    .iter()
                    .position(|&c| c == ch)
                    .ok_or_else(|| format!("teams {teams_text:?}: not a letter a..y"))?;
                if seen[l] {
                    return Err(format!("teams {teams_text:?}: a player written twice"));
                }
                if zones[l].is_empty() {
                    return Err(format!("teams {teams_text:?}: a player has no start zone on the board"));
                }
                seen[l] = true;
                t.push(l as u8);
            }
            teams.push(t);
        }
        if teams.len() < 2 {
            return Err(format!("teams {teams_text:?}: a game needs at least two teams"));
        }
        let players: Vec<u8> = (0..25u8).filter(|&l| seen[l as usize]).collect();
        let mut pidx = [-1i8; 25];
        for (i, &l) in players.iter().enumerate() {
            pidx[l as usize] = i as i8;
        }
        let team_members: Vec<Vec<usize>> =
            teams.iter().map(|t| t.iter().map(|&l| pidx[l as usize] as usize).collect()).collect();
        let mut team_of = vec![0; players.len()];
        for (ti, t) in team_members.iter().enumerate() {
            for &p in t {
                team_of[p] = ti;
            }
        }
        let team_text = teams.iter().map(|t| t.iter().map(|&l| LETTERS[l as usize] as char).collect()).collect();
        let (wi, hi) = (w as i32, h as i32);
        let names = (0..n).map(|i| format!("{},{}", i % w, i / w)).collect();
        let mut neighbors = Vec::with_capacity(n);
        let mut rays = Vec::with_capacity(n);
        for i in 0..n {
            let (x, y) = ((i % w) as i32, (i / w) as i32);
            let mut nb = Vec::new();
            for dy in -1..=1 {
                for dx in -1..=1 {
                    if (dx != 0 || dy != 0) && (0..wi).contains(&(x + dx)) && (0..hi).contains(&(y + dy)) {
                        nb.push(((y + dy) * wi + x + dx) as u16);
                    }
                }
            }
            neighbors.push(nb);
            rays.push(std::array::from_fn(|d| {
                let (dx, dy) = super::cards::DIRS[d];
                let mut cells = Vec::new();
                let (mut cx, mut cy) = (x + dx, y + dy);
                while (0..wi).contains(&cx) && (0..hi).contains(&cy) {
                    cells.push((cy * wi + cx) as u16);
                    cx += dx;
                    cy += dy;
                }
                cells
            }));
        }
        Ok(Context {
            rules,
            cards,
            cost,
            income,
            pushable,
            king,
            victim,
            promo,
            fort_mask,
            w: wi,
            h: hi,
            n,
            rows: rows.to_vec(),
            terrain,
            zone,
            zones,
            portal_pair,
            facing: face,
            teams_text: teams_text.to_string(),
            players,
            pidx,
            team_of,
            team_members,
            team_text,
            names,
            neighbors,
            rays,
        })
    }

    #[inline]
    pub fn x(&self, c: usize) -> i32 {
        c as i32 % self.w
    }
    #[inline]
    pub fn y(&self, c: usize) -> i32 {
        c as i32 / self.w
    }
    /// Chebyshev distance of two cells.
    #[inline]
    pub fn dist(&self, a: usize, b: usize) -> i64 {
        (self.x(a) - self.x(b)).abs().max((self.y(a) - self.y(b)).abs()) as i64
    }
    pub fn standable(&self, c: usize) -> bool {
        !standable_not(self.terrain[c])
    }
    pub fn card_index(&self, key: &str) -> Option<usize> {
        self.cards.iter().position(|c| c.key == key)
    }
    pub fn letter(&self, p: usize) -> u8 {
        LETTERS[self.players[p] as usize]
    }
    pub fn facing_name(f: u8) -> &'static str {
        FACING_NAMES[f as usize]
    }
}
