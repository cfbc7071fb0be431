//! The verdict of a repetition: classify each side's moves in the cycle, then apply 棋例总则.
//!
//! A side's moves in the cycle are, by the heaviest effect of each (通则 5: 将 > 杀 > 捉 > 闲, "如杀兼
//! 捉，按杀"; so a mate threat that also chases is a mate threat under every rule set):
//! - **perpetual check** (长将): every move checks. Never allowed, whatever the other side does
//!   (总则 1), except that two sides checking perpetually draw (解将还将).
//! - **forbidden** (禁止着法, 25.2):
//!   - Chinese rules: every move attacks — checks, mate threats (杀) or chases (捉), in any mix
//!     (长杀, 一将一杀, 一将一捉, 一杀一捉 …). A cycle of chases alone is 长捉 only when one and
//!     the same enemy piece is chased by every move (seed 001: "乙方被捉之子, 每着均走逃避着法 …
//!     而甲方仍每着捉之"); the piece is followed as it moves, and the chasers may take turns
//!     (two pieces chasing one piece in turn is still a chase).
//!   - Asian rules: every move chases one and the same piece (perpetual chase). Mate threats and a
//!     mix of checks and chases are allowed, so a cycle of chases is allowed once one of its
//!     moves is a mate threat. Two details follow the WXF rule-book diagrams and Fairy-Stockfish:
//!     a threat to mate by taking the chased piece is that chase, not a mate threat besides it
//!     (orange-076, orange-079, orange-112: a cannon chasing a piece whose capture mates is
//!     perpetual chase); and a check that also chases counts as a chase of that piece (fsf-005,
//!     fsf-011: a cannon battery checking and chasing a pawn by turns is perpetual chase).
//! - **allowed** otherwise: some move is idle (闲, 兑, 献, 拦, 跟), e.g. 数将一闲, 一捉一闲.
//!
//! Pawn attacks (通则 3) count as chases only for a side whose opponent is forbidden
//! ("如形成相互长打局面，则应按捉处理").
//!
//! Verdict (总则 2-4): both allowed or both forbidden: draw; one forbidden: it loses (it must
//! deviate and did not). 二打一还打 needs no rule of its own: the side attacking with both moves is
//! forbidden, the side that answered once with an attack (一打一闲) is allowed, so the first loses.

use super::effects::{effect_of_last_move, threat_of_last_move, MoveEffect};
use super::{color_name, kind_name, RuleSet};
use crate::board::bitboard::Bitboard;
use crate::board::position::Position;
use crate::board::types::{Color, PieceKind};

/// The ruling on a cycle: who loses (`None` for a draw), and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CycleRuling {
    /// The side that must deviate and, having repeated, loses; `None` for a draw.
    pub loser: Option<Color>,
    /// Why, in words (as the judge prints it).
    pub reason: String,
}

/// The moves of the last `span` plies of `pos` (an even number, no null move among them), replayed
/// on a copy so each can be classified in its own position.
struct Cycle {
    start: Position,
    effects: Vec<MoveEffect>,
    rules: RuleSet,
}

impl Cycle {
    fn new(pos: &Position, span: usize, rules: RuleSet) -> Cycle {
        let mut start = pos.clone();
        for _ in 0..span {
            start.unmake_move();
        }
        let moves: Vec<_> = pos.history()[pos.history().len() - span..]
            .iter()
            .map(|st| st.mv)
            .collect();
        let mut replay = start.clone();
        let mut effects = Vec::with_capacity(span);
        for &m in &moves {
            replay.make_move(m);
            effects.push(effect_of_last_move(&mut replay, rules));
        }
        Cycle {
            start,
            effects,
            rules,
        }
    }

    /// The mate threat (杀) of move `i`, computed on first use. Under the Asian rules mates that
    /// take a piece the move chases (on its point) do not count: such a threat is the chase.
    fn threat(&mut self, i: usize) -> bool {
        if let Some(t) = self.effects[i].threat {
            return t;
        }
        let mut p = self.start.clone();
        for e in &self.effects[..=i] {
            p.make_move(e.mv);
        }
        let e = self.effects[i];
        let besides = if self.rules == RuleSet::Asian {
            e.chased | e.pawn_chased
        } else {
            Bitboard::EMPTY
        };
        let t = threat_of_last_move(&mut p, besides);
        self.effects[i].threat = Some(t);
        t
    }

    fn indices(&self, side: Color) -> Vec<usize> {
        (0..self.effects.len())
            .filter(|&i| self.effects[i].mover == side)
            .collect()
    }

    /// The enemy pieces `side` chases with every one of its moves, followed as they move, with
    /// the kinds that chased them (bit `1 << kind`); squares are those of the final position.
    fn common_targets(&self, side: Color, with_pawns: bool) -> (Bitboard, [u8; 90]) {
        let mut common: Option<Bitboard> = None;
        let mut kinds = [0u8; 90];
        for e in &self.effects {
            if e.mover == side {
                let mut c = e.chased;
                if with_pawns {
                    c |= e.pawn_chased;
                }
                let kept = common.map_or(c, |b| b & c);
                for sq in kept {
                    kinds[sq.index()] |= e.chasers[sq.index()];
                }
                for sq in !kept & Bitboard::ALL {
                    kinds[sq.index()] = 0;
                }
                common = Some(kept);
            } else if let Some(b) = common.as_mut() {
                let (f, t) = (e.mv.from(), e.mv.to());
                if b.has(f) {
                    *b ^= Bitboard::from_square(f) | Bitboard::from_square(t);
                    kinds[t.index()] = kinds[f.index()];
                    kinds[f.index()] = 0;
                }
            }
        }
        (common.unwrap_or(Bitboard::EMPTY), kinds)
    }

    /// Whether every move of `side` checks.
    fn perpetual_check(&self, side: Color) -> bool {
        self.effects
            .iter()
            .filter(|e| e.mover == side)
            .all(|e| e.check)
    }

    /// Why `side`'s moves are forbidden, or `None` when they are allowed (perpetual check is
    /// handled before).
    fn forbidden(&mut self, side: Color, with_pawns: bool, end: &Position) -> Option<String> {
        let chased = |e: &MoveEffect| e.chased.any() || (with_pawns && e.pawn_chased.any());
        let idx = self.indices(side);
        if self.rules == RuleSet::Chinese {
            // Every move must attack; moves neither checking nor chasing need the threat test.
            let mut heavy = false; // some check or mate threat among the moves
            for &i in &idx {
                let e = self.effects[i];
                if e.check {
                    heavy = true;
                } else if !chased(&e) {
                    if !self.threat(i) {
                        return None;
                    }
                    heavy = true;
                }
            }
            if !heavy {
                // All chases; one of them may be a mate threat too (then it is 杀, a mix).
                heavy = idx.iter().any(|&i| self.threat(i));
            }
            if heavy {
                return Some(self.describe_mix(side, &idx, with_pawns));
            }
        }
        let (common, kinds) = self.common_targets(side, with_pawns);
        let target = common.into_iter().next()?;
        // A mate threat that also chases is a mate threat (通则 5: 杀兼捉，按杀), so a cycle with
        // one is no perpetual chase: under the Chinese rules it was ruled above as a mix, under
        // the Asian rules it is allowed. Threats are tested only here, where a chase would
        // otherwise be forbidden. (Checks need no test: under the Chinese rules any check made a
        // mix above; under the Asian rules a check that chases still chases.)
        if idx.iter().any(|&i| self.threat(i)) {
            return None;
        }
        Some(describe_chase(end, side, target, kinds[target.index()]))
    }

    fn describe_mix(&mut self, side: Color, idx: &[usize], with_pawns: bool) -> String {
        let (mut checks, mut threats, mut chases) = (0, 0, 0);
        for &i in idx {
            let e = self.effects[i];
            if e.check {
                checks += 1;
            } else if self.threat(i) {
                threats += 1;
            } else if e.chased.any() || (with_pawns && e.pawn_chased.any()) {
                chases += 1;
            }
        }
        let who = color_name(side);
        if threats == idx.len() {
            return format!("perpetual mate threat by {who}");
        }
        let mut parts = Vec::new();
        if checks > 0 {
            parts.push("check");
        }
        if threats > 0 {
            parts.push("mate threat");
        }
        if chases > 0 {
            parts.push("chase");
        }
        format!("perpetual attack by {who} ({})", parts.join(" and "))
    }
}

fn describe_chase(
    end: &Position,
    side: Color,
    target: crate::board::types::Square,
    kinds: u8,
) -> String {
    let victim = end
        .piece_on(target)
        .map_or("piece", |p| kind_name(p.kind()));
    let chasers: Vec<&str> = PieceKind::ALL
        .iter()
        .filter(|k| kinds & (1 << k.index()) != 0)
        .map(|&k| kind_name(k))
        .collect();
    let by = if chasers.is_empty() {
        String::new()
    } else {
        format!(" by the {} {}", color_name(side), chasers.join(" and "))
    };
    format!(
        "perpetual chase of the {} {victim} on {target}{by}",
        color_name(side.flip())
    )
}

/// Rule on the repetition made by the last `span` plies of `pos`.
pub fn judge_cycle(pos: &Position, span: usize, rules: RuleSet) -> CycleRuling {
    let draw = |reason: &str| CycleRuling {
        loser: None,
        reason: reason.to_string(),
    };
    if rules == RuleSet::Draw {
        return draw("repetition (every repetition is a draw under the draw rules)");
    }
    // Perpetual checks first: they need only the recorded checkers.
    let hist = &pos.history()[pos.history().len() - span..];
    let last_mover = pos.side_to_move().flip();
    let mut all_check = [true; 2];
    for (back, st) in hist.iter().rev().enumerate() {
        let mover = if back % 2 == 0 {
            last_mover
        } else {
            last_mover.flip()
        };
        all_check[mover.index()] &= st.checkers.any();
    }
    match (all_check[0], all_check[1]) {
        (true, true) => return draw("repetition, mutual perpetual check"),
        (true, false) | (false, true) => {
            let checker = if all_check[0] {
                Color::Red
            } else {
                Color::Black
            };
            return CycleRuling {
                loser: Some(checker),
                reason: format!("perpetual check by {}", color_name(checker)),
            };
        }
        _ => {}
    }
    let mut cycle = Cycle::new(pos, span, rules);
    debug_assert!(!cycle.perpetual_check(Color::Red) && !cycle.perpetual_check(Color::Black));
    let mut red = cycle.forbidden(Color::Red, false, pos);
    let mut black = cycle.forbidden(Color::Black, false, pos);
    // Mutual perpetual attack: the pawns' attacks now count as chases too.
    if red.is_some() && black.is_none() {
        black = cycle.forbidden(Color::Black, true, pos);
    } else if black.is_some() && red.is_none() {
        red = cycle.forbidden(Color::Red, true, pos);
    }
    match (red, black) {
        (None, None) => draw("repetition, both sides allowed"),
        (Some(r), Some(b)) => draw(&format!("repetition, both sides forbidden ({r}; {b})")),
        (Some(r), None) => CycleRuling {
            loser: Some(Color::Red),
            reason: r,
        },
        (None, Some(b)) => CycleRuling {
            loser: Some(Color::Black),
            reason: b,
        },
    }
}

/// One line per move of the last `span` plies: what each move does under `rules`, heaviest
/// effect first (what the move counts as); for people checking a ruling, `chuhan judge --explain`.
pub fn explain_cycle(pos: &Position, span: usize, rules: RuleSet) -> Vec<String> {
    let mut cycle = Cycle::new(pos, span, rules);
    let mut lines = Vec::new();
    let mut replay = cycle.start.clone();
    for i in 0..cycle.effects.len() {
        let e = cycle.effects[i];
        replay.make_move(e.mv);
        let mut what = Vec::new();
        if e.check {
            what.push("check".to_string());
        }
        if !e.check && cycle.threat(i) {
            what.push("mate threat".to_string());
        }
        for (bb, label) in [(e.chased, "chase"), (e.pawn_chased, "pawn chase")] {
            for sq in bb {
                let victim = replay.piece_on(sq).map_or("piece", |p| kind_name(p.kind()));
                what.push(format!("{label} of the {victim} on {sq}"));
            }
        }
        if what.is_empty() {
            what.push("idle".to_string());
        }
        lines.push(format!(
            "{} {}: {}",
            color_name(e.mover),
            e.mv,
            what.join(", ")
        ));
    }
    lines
}
