//! Playing below full strength, for human opponents (`Skill Level`, `UCI_LimitStrength` +
//! `UCI_Elo`). Two honest handicaps, both growing as the level drops: a node budget per move
//! (the engine sees less), and a random choice among the best few root moves weighted by their
//! scores (it sometimes prefers a slightly worse move, rarely a much worse one).
//!
//! `UCI_Elo` maps linearly onto the 21 skill levels between [`MIN_ELO`] and [`MAX_ELO`]. That
//! mapping is a convention, not a calibration against rated players: measure a level with
//! `chuhan match` before you quote its Elo.

use crate::board::types::{Move, Value, MATE_BOUND};
use crate::search::{SearchInfo, SearchResult};

/// `UCI_Elo` at skill level 0.
pub const MIN_ELO: u32 = 1000;
/// `UCI_Elo` at skill level 20 (full strength).
pub const MAX_ELO: u32 = 2800;
/// Full strength.
pub const MAX_SKILL: u32 = 20;
/// Root moves considered by the weighted choice.
pub const CANDIDATES: usize = 4;

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

    /// The level in force, 0..=20: the lower of `Skill Level` and, when limited, `UCI_Elo`'s level.
    pub fn skill(&self) -> u32 {
        let from_elo = if self.limit {
            let elo = self.elo.clamp(MIN_ELO, MAX_ELO);
            (elo - MIN_ELO) * MAX_SKILL / (MAX_ELO - MIN_ELO)
        } else {
            MAX_SKILL
        };
        self.skill_level.min(from_elo).min(MAX_SKILL)
    }

    /// Whether any handicap applies.
    pub fn is_limited(&self) -> bool {
        self.skill() < MAX_SKILL
    }

    /// Nodes per move at this level: 100 at level 0, doubling about every two levels.
    pub fn node_budget(&self) -> u64 {
        (100.0 * 2f64.powf(self.skill() as f64 * 0.55)) as u64
    }

    /// The node limit of a search at this level: `nodes`, capped by the budget when limited.
    pub fn cap_nodes(&self, nodes: Option<u64>) -> Option<u64> {
        if !self.is_limited() {
            return nodes;
        }
        let budget = self.node_budget();
        Some(nodes.map_or(budget, |n| n.min(budget)))
    }

    /// Root lines to search when `multipv` are asked: at least [`CANDIDATES`] when limited, for
    /// the weighted choice to choose among.
    pub fn lines_to_search(&self, multipv: usize) -> usize {
        if self.is_limited() {
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
        if !self.is_limited() {
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

    /// Softness of the choice in score units: 240 at level 0, 12 at level 19.
    pub fn temperature(&self) -> f64 {
        (MAX_SKILL - self.skill()) as f64 * 12.0
    }

    /// Choose among `lines` (move and score, best first) with weights exp((score - best) / T);
    /// `random` is uniform in [0, 1). A forced mate is never thrown away.
    pub fn choose(&self, lines: &[(Move, Value)], random: f64) -> Option<Move> {
        let (_, best) = *lines.first()?;
        if !self.is_limited() || best.abs() >= MATE_BOUND {
            return Some(lines[0].0);
        }
        let t = self.temperature().max(1.0);
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
        let budget = weak.node_budget();
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
    fn levels_from_skill_and_elo() {
        let full = StrengthRequest::default();
        assert_eq!(full.skill(), 20);
        assert!(!full.is_limited());
        let s = StrengthRequest {
            skill_level: 5,
            ..full
        };
        assert_eq!(s.skill(), 5);
        let e = StrengthRequest {
            limit: true,
            elo: 1900,
            ..full
        };
        assert_eq!(e.skill(), 10);
        // Elo is ignored unless UCI_LimitStrength is on.
        assert_eq!(StrengthRequest { elo: 1000, ..full }.skill(), 20);
        assert!(
            StrengthRequest {
                skill_level: 0,
                ..full
            }
            .node_budget()
                < s.node_budget()
        );
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
