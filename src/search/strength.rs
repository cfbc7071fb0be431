//! Playing below full strength, for human opponents (`Skill Level`, `UCI_LimitStrength` +
//! `UCI_Elo`). Every handicap is one number, the *knob* `k`, and two honest handicaps grow as it
//! falls: a node budget per move of `100 * 2^(0.55 k)` (the engine sees less), and a random
//! choice among the best few root moves weighted by their scores, with a temperature of
//! `12 * (20 - k)` score units (it sometimes prefers a slightly worse move, rarely a much worse
//! one; no choice from `k = 20` on).
//!
//! Where the levels sit on the knob is measured, not assumed. [`LADDER`] holds the rating of
//! knob values from games between them, ElephantEye and full strength (docs/skill.md, played
//! by `scripts/skill-ladder.sh` and rated by `chuhan match rate` in one list, with ElephantEye
//! 3.31 at 10 s + 0.1 s, books off, pinned to [`ANCHOR_ELO`]). A request is a rating: `UCI_Elo` asks for
//! its own, `Skill Level` `L` for `L / 20` of the way from the weakest rung to full strength,
//! so the 20 steps are even in Elo. The knob for a rating is read off the ladder by linear
//! interpolation; full strength is the top rung, measured at 10 s + 0.1 s (at slower time
//! controls full strength gains, the node-capped levels do not).

use crate::board::types::{Move, Value, MATE_BOUND};
use crate::search::{SearchInfo, SearchResult};

/// One measured point of the ladder: a knob value and the rating it played at.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rung {
    /// The knob (see the module docs).
    pub knob: f64,
    /// Its rating on the scale pinned by [`ANCHOR_ELO`].
    pub elo: f64,
}

/// The rating ElephantEye 3.31 (10 s + 0.1 s, books off, one thread) is pinned to.
pub const ANCHOR_ELO: f64 = 2500.0;

/// The measured ladder, strictly rising in both knob and rating, as
/// `scripts/skill-ladder-fit.py` prints it; the last rung is full strength at 10 s + 0.1 s,
/// placed at knob 20, where the weighted choice stops. How it was measured, with every rung's
/// games and error: docs/skill.md.
#[rustfmt::skip]
pub const LADDER: [Rung; 13] = [
    Rung { knob: 0.0, elo: 1683.0 },
    Rung { knob: 3.0, elo: 1759.0 },
    Rung { knob: 6.0, elo: 1800.0 },
    Rung { knob: 6.99, elo: 1932.0 },
    Rung { knob: 8.96, elo: 1977.0 },
    Rung { knob: 11.39, elo: 2163.0 },
    Rung { knob: 12.81, elo: 2233.0 },
    Rung { knob: 14.84, elo: 2341.0 },
    Rung { knob: 15.58, elo: 2393.0 },
    Rung { knob: 17.17, elo: 2483.0 },
    Rung { knob: 18.78, elo: 2512.0 },
    Rung { knob: 19.0, elo: 2558.0 },
    Rung { knob: 20.0, elo: 2917.0 },
];

/// `UCI_Elo` of the weakest level, `Skill Level` 0.
pub const MIN_ELO: u32 = LADDER[0].elo as u32;
/// `UCI_Elo` of full strength at 10 s + 0.1 s, `Skill Level` 20.
pub const MAX_ELO: u32 = LADDER[LADDER.len() - 1].elo as u32;
/// Full strength.
pub const MAX_SKILL: u32 = 20;
/// Root moves considered by the weighted choice.
pub const CANDIDATES: usize = 4;

/// The knob for a rating: interpolated between the ladder's rungs; `None` (no handicap) at or
/// above full strength, the bottom rung below the ladder.
pub fn knob_for_elo(elo: f64) -> Option<f64> {
    let top = LADDER[LADDER.len() - 1];
    if elo >= top.elo {
        return None;
    }
    let above = LADDER.iter().position(|r| r.elo > elo)?;
    if above == 0 {
        return Some(LADDER[0].knob);
    }
    let (lo, hi) = (LADDER[above - 1], LADDER[above]);
    Some(lo.knob + (hi.knob - lo.knob) * (elo - lo.elo) / (hi.elo - lo.elo))
}

/// The rating `Skill Level` `level` asks for: `level / 20` of the way up the ladder.
pub fn skill_elo(level: u32) -> f64 {
    let (bottom, top) = (LADDER[0].elo, LADDER[LADDER.len() - 1].elo);
    bottom + (top - bottom) * f64::from(level.min(MAX_SKILL)) / f64::from(MAX_SKILL)
}

/// What the GUI asked about playing strength.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StrengthRequest {
    /// `UCI_LimitStrength`: honour `elo`.
    pub limit: bool,
    /// `UCI_Elo`.
    pub elo: u32,
    /// `Skill Level`, 0..=20.
    pub skill_level: u32,
}

impl Default for StrengthRequest {
    fn default() -> Self {
        StrengthRequest::FULL
    }
}

impl StrengthRequest {
    /// Full strength: no limit asked.
    pub const FULL: StrengthRequest = StrengthRequest {
        limit: false,
        elo: MAX_ELO,
        skill_level: MAX_SKILL,
    };

    /// The rating asked for: the lower of `Skill Level`'s and, when limited, `UCI_Elo`.
    pub fn target_elo(&self) -> f64 {
        let skill = skill_elo(self.skill_level);
        if self.limit {
            skill.min(f64::from(self.elo))
        } else {
            skill
        }
    }

    /// The knob in force; `None` at full strength.
    pub fn knob(&self) -> Option<f64> {
        knob_for_elo(self.target_elo())
    }

    /// Whether any handicap applies.
    pub fn is_limited(&self) -> bool {
        self.knob().is_some()
    }

    /// Nodes per move: `100 * 2^(0.55 k)` (100 at the bottom, doubling about every two knob
    /// steps); unlimited at full strength.
    pub fn node_budget(&self) -> Option<u64> {
        self.knob().map(|k| (100.0 * 2f64.powf(k * 0.55)) as u64)
    }

    /// The node limit of a search at this level: `nodes`, capped by the budget when limited.
    pub fn cap_nodes(&self, nodes: Option<u64>) -> Option<u64> {
        match self.node_budget() {
            None => nodes,
            Some(budget) => Some(nodes.map_or(budget, |n| n.min(budget))),
        }
    }

    /// Whether the move is a weighted choice among the best lines (knob below 20).
    pub fn chooses(&self) -> bool {
        self.temperature() > 0.0
    }

    /// Root lines to search when `multipv` are asked: at least [`CANDIDATES`] when the move is
    /// a weighted choice, for it to choose among.
    pub fn lines_to_search(&self, multipv: usize) -> usize {
        if self.chooses() {
            multipv.max(CANDIDATES)
        } else {
            multipv
        }
    }

    /// Below full strength, replace the searched move by a weighted choice (see [`choose`])
    /// among the lines of the deepest iteration that reported more than one; `lines` are the
    /// search's progress reports in order. At full strength, or without such an iteration,
    /// `result` stands.
    ///
    /// [`choose`]: StrengthRequest::choose
    pub fn weaken(&self, result: SearchResult, lines: &[SearchInfo], random: f64) -> SearchResult {
        if !self.chooses() {
            return result;
        }
        let Some(depth) = lines
            .iter()
            .filter(|i| i.multipv > 1)
            .map(|i| i.depth)
            .max()
        else {
            return result;
        };
        let mut last: Vec<&SearchInfo> = lines.iter().filter(|i| i.depth == depth).collect();
        last.sort_by_key(|i| i.multipv);
        last.dedup_by_key(|i| i.multipv);
        let choices: Vec<(Move, Value)> = last
            .iter()
            .filter_map(|i| Some((*i.pv.first()?, i.score)))
            .collect();
        match self.choose(&choices, random) {
            Some(m) if Some(m) != result.best => {
                let line = last.iter().find(|i| i.pv.first() == Some(&m));
                SearchResult {
                    best: Some(m),
                    ponder: line.and_then(|i| i.pv.get(1).copied()),
                    score: line.map_or(result.score, |i| Some(i.score)),
                    pv: line.map_or_else(|| vec![m], |i| i.pv.clone()),
                    ..result
                }
            }
            _ => result,
        }
    }

    /// Softness of the choice in score units: `12 * (20 - k)`, 240 at knob 0, none from 20.
    pub fn temperature(&self) -> f64 {
        self.knob().map_or(0.0, |k| (20.0 - k).max(0.0) * 12.0)
    }

    /// Choose among `lines` (move and score, best first) with weights exp((score - best) / T);
    /// `random` is uniform in [0, 1). A forced mate is never thrown away.
    pub fn choose(&self, lines: &[(Move, Value)], random: f64) -> Option<Move> {
        let (_, best) = *lines.first()?;
        let t = self.temperature();
        if t <= 0.0 || best.abs() >= MATE_BOUND {
            return Some(lines[0].0);
        }
        let weights: Vec<f64> = lines
            .iter()
            .take(CANDIDATES)
            .map(|&(_, s)| (((s.max(-MATE_BOUND) - best) as f64) / t).exp())
            .collect();
        let total: f64 = weights.iter().sum();
        let mut x = random.clamp(0.0, 1.0) * total;
        for (i, w) in weights.iter().enumerate() {
            if x < *w {
                return Some(lines[i].0);
            }
            x -= w;
        }
        Some(lines[weights.len() - 1].0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::types::{Square, MATE};

    fn mv(i: usize) -> Move {
        Move::new(Square::new(i), Square::new(i + 9))
    }

    fn line(depth: u32, multipv: usize, score: Value, pv: &[Move]) -> SearchInfo {
        SearchInfo {
            depth,
            seldepth: depth,
            multipv,
            score,
            bound: crate::search::tt::Bound::Exact,
            nodes: 0,
            nps: 0,
            hashfull: 0,
            time_ms: 0,
            pv: pv.to_vec(),
        }
    }

    #[test]
    fn a_limited_search_is_capped_and_widened() {
        let full = StrengthRequest::default();
        assert_eq!(full.cap_nodes(None), None);
        assert_eq!(full.cap_nodes(Some(7)), Some(7));
        assert_eq!(full.lines_to_search(1), 1);
        let weak = StrengthRequest {
            skill_level: 3,
            ..full
        };
        let budget = weak.node_budget().unwrap();
        assert_eq!(weak.cap_nodes(None), Some(budget));
        assert_eq!(weak.cap_nodes(Some(budget + 1)), Some(budget));
        assert_eq!(weak.cap_nodes(Some(5)), Some(5));
        assert_eq!(weak.lines_to_search(1), CANDIDATES);
        assert_eq!(weak.lines_to_search(CANDIDATES + 2), CANDIDATES + 2);
    }

    #[test]
    fn weakening_chooses_among_the_deepest_full_iteration() {
        let searched = SearchResult {
            best: Some(mv(1)),
            ponder: Some(mv(10)),
            score: Some(30),
            depth: 5,
            nodes: 1234,
            pv: vec![mv(1), mv(10)],
        };
        // Depth 4 reported all lines; depth 5 only its first line (a partial iteration).
        let lines = [
            line(4, 1, 30, &[mv(1), mv(10)]),
            line(4, 2, 20, &[mv(2), mv(20), mv(21)]),
            line(5, 1, 30, &[mv(1), mv(10)]),
        ];
        let weak = StrengthRequest {
            skill_level: 0,
            ..Default::default()
        };
        // A draw near 1 falls on the last candidate: the second line of depth 4, all of it.
        let second = weak.weaken(searched.clone(), &lines, 0.999);
        assert_eq!(
            second,
            SearchResult {
                best: Some(mv(2)),
                ponder: Some(mv(20)),
                score: Some(20),
                pv: vec![mv(2), mv(20), mv(21)],
                ..searched.clone()
            }
        );
        assert_eq!(weak.weaken(searched.clone(), &lines, 0.0), searched);
        // Full strength, or no iteration with several lines: the search's move stands.
        let full = StrengthRequest::default();
        assert_eq!(full.weaken(searched.clone(), &lines, 0.999), searched);
        assert_eq!(weak.weaken(searched.clone(), &lines[2..], 0.999), searched);
    }

    #[test]
    fn the_ladder_rises_and_spans_the_options_range() {
        for pair in LADDER.windows(2) {
            assert!(pair[0].knob < pair[1].knob, "{pair:?}");
            assert!(pair[0].elo < pair[1].elo, "{pair:?}");
        }
        assert!(LADDER[0].knob >= 0.0);
        assert_eq!(MIN_ELO as f64, LADDER[0].elo.floor());
        assert_eq!(MAX_ELO as f64, LADDER[LADDER.len() - 1].elo.floor());
    }

    #[test]
    fn a_rating_reads_its_knob_off_the_ladder() {
        // At a rung, its knob; halfway between two rungs, halfway between their knobs.
        let (lo, hi) = (LADDER[1], LADDER[2]);
        assert_eq!(knob_for_elo(lo.elo), Some(lo.knob));
        let mid = knob_for_elo((lo.elo + hi.elo) / 2.0).unwrap();
        assert!((mid - (lo.knob + hi.knob) / 2.0).abs() < 1e-9);
        // Below the ladder, its bottom; at or above its top, full strength.
        assert_eq!(knob_for_elo(LADDER[0].elo - 500.0), Some(LADDER[0].knob));
        assert_eq!(knob_for_elo(MAX_ELO as f64 + 1.0), None);
        // Higher ratings never get a lower knob.
        let knobs: Vec<f64> = (MIN_ELO..MAX_ELO)
            .step_by(7)
            .map(|e| knob_for_elo(e as f64).unwrap())
            .collect();
        assert!(knobs.windows(2).all(|k| k[0] <= k[1]));
    }

    #[test]
    fn skill_levels_are_even_steps_in_elo() {
        let full = StrengthRequest::default();
        assert!(!full.is_limited());
        assert_eq!(full.knob(), None);
        let level = |skill_level| StrengthRequest {
            skill_level,
            ..full
        };
        assert_eq!(level(0).knob(), Some(LADDER[0].knob));
        assert_eq!(level(0).target_elo(), LADDER[0].elo);
        let step = (MAX_ELO - MIN_ELO) as f64 / 20.0;
        for l in 0..20 {
            let gap = level(l + 1).target_elo() - level(l).target_elo();
            assert!((gap - step).abs() < 1.0, "level {l}: {gap} vs {step}");
            assert!(level(l).knob().unwrap() < level(l + 1).knob().unwrap_or(f64::INFINITY));
            assert!(level(l).node_budget() < level(l + 1).node_budget().or(Some(u64::MAX)));
        }
        // UCI_Elo asks for its own rating, the lower of the two wins, and only when limited.
        let elo = |elo, limit| StrengthRequest { limit, elo, ..full };
        let e = elo(MIN_ELO + 1000, true);
        assert_eq!(e.target_elo(), (MIN_ELO + 1000) as f64);
        assert_eq!(e.knob(), knob_for_elo((MIN_ELO + 1000) as f64));
        assert_eq!(elo(MIN_ELO, false).knob(), None);
        assert_eq!(elo(MAX_ELO, true).knob(), None);
        let both = StrengthRequest {
            skill_level: 1,
            ..e
        };
        assert_eq!(both.target_elo(), skill_elo(1).min(e.target_elo()));
    }

    #[test]
    fn weighted_choice_prefers_better_moves() {
        let lines = [(mv(1), 50), (mv(2), 40), (mv(3), -300), (mv(4), -900)];
        let weak = StrengthRequest {
            skill_level: 0,
            ..Default::default()
        };
        let picks: Vec<Move> = (0..100)
            .map(|i| weak.choose(&lines, i as f64 / 100.0).unwrap())
            .collect();
        let count = |m: Move| picks.iter().filter(|&&p| p == m).count();
        assert!(count(mv(1)) > count(mv(3)) && count(mv(3)) > count(mv(4)));
        assert!(
            count(mv(2)) > 0,
            "a weak level sometimes plays the second best"
        );
        // Full strength always plays the best; a mate is never thrown away.
        assert_eq!(StrengthRequest::default().choose(&lines, 0.99), Some(mv(1)));
        let mate = [(mv(1), MATE - 3), (mv(2), 40)];
        assert_eq!(weak.choose(&mate, 0.99), Some(mv(1)));
        assert_eq!(weak.choose(&[], 0.5), None);
    }
}
