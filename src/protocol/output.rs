//! Reports → text, per dialect: the handshake, `info` lines, `bestmove`/`nobestmove`,
//! `pophash`, and the draw/resign verdict UCCI attaches to a move.
//!
//! Score conventions (internal scores are side-relative, mate in n plies = `MATE - n`):
//! - UCI: `score cp X` with Chuhan's evaluation units (a pawn before the river is about 60-90);
//!   `score mate N` in moves, negative when being mated (`mate 0`: mated now).
//! - UCCI: a bare score; mate in n plies is ±(30000 − n), the scale `cchess` and other UCCI
//!   GUIs read (|score| > 29000 is a mate); other scores are clamped to ±29000.

use crate::board::types::{Move, Value, MATE, MATE_BOUND};
use crate::engine::book::BookMove;
use crate::engine::StrengthRequest;
use crate::search::tt::{Bound, TtEntry};
use crate::search::SearchInfo;

use super::options::{Kind, EMPTY, TABLE};

/// Which protocol the GUI speaks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Dialect {
    /// UCI (Pikafish style), also before any handshake.
    #[default]
    Uci,
    /// UCCI (ElephantEye style).
    Ucci,
}

/// The engine's name in `id name` (must not begin with `Fairy-Stockfish`).
pub const NAME: &str = concat!("Chuhan ", env!("CARGO_PKG_VERSION"));
/// The authors in `id author`.
pub const AUTHOR: &str = "the Chuhan developers";

/// UCCI mate scores: mate in n plies is ±(UCCI_MATE − n).
pub const UCCI_MATE: Value = 30_000;
/// UCCI non-mate scores are clamped to ±UCCI_MAX_EVAL.
pub const UCCI_MAX_EVAL: Value = 29_000;

/// The handshake, from `id` lines to `uciok`/`ucciok`.
pub fn handshake(d: Dialect) -> Vec<String> {
    let mut lines = vec![format!("id name {NAME}")];
    if d == Dialect::Ucci {
        lines.push("id copyright GPL-3.0-or-later".into());
    }
    lines.push(format!("id author {AUTHOR}"));
    for spec in TABLE {
        let name = match d {
            Dialect::Uci => spec.uci,
            Dialect::Ucci => spec.ucci,
        };
        let Some(name) = name else { continue };
        let kind = match spec.kind {
            Kind::Spin {
                default, min, max, ..
            } => match d {
                Dialect::Uci => format!("type spin default {default} min {min} max {max}"),
                // UCCI puts the default last.
                Dialect::Ucci => format!("type spin min {min} max {max} default {default}"),
            },
            Kind::Check { default, .. } => format!("type check default {default}"),
            Kind::Button { .. } => "type button".into(),
            Kind::Combo { default, vars, .. } => {
                let vars: Vec<String> = vars.iter().map(|v| format!("var {v}")).collect();
                format!("type combo default {default} {}", vars.join(" "))
            }
            Kind::Text { default, .. } => {
                format!(
                    "type string default {}",
                    if default.is_empty() { EMPTY } else { default }
                )
            }
        };
        lines.push(match d {
            Dialect::Uci => format!("option name {name} {kind}"),
            Dialect::Ucci => format!("option {name} {kind}"),
        });
    }
    lines.push(
        match d {
            Dialect::Uci => "uciok",
            Dialect::Ucci => "ucciok",
        }
        .into(),
    );
    lines
}

/// Moves to mate from a mate score: positive when mating, negative (or 0) when being mated.
pub fn mate_moves(score: Value) -> Value {
    if score > 0 {
        (MATE - score + 1) / 2
    } else {
        -((MATE + score) / 2)
    }
}

/// The UCCI form of a score.
pub fn ucci_score(score: Value) -> Value {
    if score >= MATE_BOUND {
        UCCI_MATE - (MATE - score)
    } else if score <= -MATE_BOUND {
        -UCCI_MATE + (MATE + score)
    } else {
        score.clamp(-UCCI_MAX_EVAL, UCCI_MAX_EVAL)
    }
}

/// The UCI form of a score: `cp X` or `mate N`.
pub fn uci_score(score: Value) -> String {
    if score.abs() >= MATE_BOUND {
        format!("mate {}", mate_moves(score))
    } else {
        format!("cp {score}")
    }
}

/// How an info line is dressed.
#[derive(Clone, Copy, Debug, Default)]
pub struct InfoStyle {
    /// The dialect.
    pub dialect: Dialect,
    /// Add `wdl` (UCI only).
    pub show_wdl: bool,
    /// Add `multipv` in UCCI (UCI always has it).
    pub multipv: bool,
    /// The root position's material count, for the WDL model ([`super::wdl::material`]).
    pub material: u32,
}

/// One `info` line of search progress.
pub fn info(style: InfoStyle, i: &SearchInfo) -> String {
    let pv: Vec<String> = i.pv.iter().map(Move::to_string).collect();
    let pv = pv.join(" ");
    match style.dialect {
        Dialect::Uci => {
            let mut s = format!(
                "info depth {} seldepth {} multipv {} score {}",
                i.depth,
                i.seldepth,
                i.multipv,
                uci_score(i.score)
            );
            match i.bound {
                Bound::Lower => s.push_str(" lowerbound"),
                Bound::Upper => s.push_str(" upperbound"),
                _ => {}
            }
            if style.show_wdl {
                let (w, d, l) = super::wdl::shipped().wdl(i.score, style.material);
                s.push_str(&format!(" wdl {w} {d} {l}"));
            }
            s.push_str(&format!(
                " nodes {} nps {} hashfull {} time {} pv {pv}",
                i.nodes, i.nps, i.hashfull, i.time_ms
            ));
            s
        }
        Dialect::Ucci => {
            // `depth` then `score` first: old UCCI readers scan "info depth %d score %d".
            let mut s = format!("info depth {} score {}", i.depth, ucci_score(i.score));
            if style.multipv {
                s.push_str(&format!(" multipv {}", i.multipv));
            }
            s.push_str(&format!(
                " time {} nodes {} nps {} pv {pv}",
                i.time_ms, i.nodes, i.nps
            ));
            s
        }
    }
}

/// What UCCI adds after the move: a draw offer (or acceptance), or resignation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Nothing.
    Play,
    /// Offer a draw, or accept the opponent's offer.
    Draw,
    /// Resign.
    Resign,
}

/// Inputs of the UCCI draw/resign decision.
#[derive(Clone, Copy, Debug, Default)]
pub struct VerdictInput {
    /// Score of the move, side-relative (None: not searched).
    pub score: Option<Value>,
    /// The opponent offers a draw (`go draw` / `ponderhit draw`).
    pub draw_offered: bool,
    /// The `resign` option.
    pub may_resign: bool,
    /// Full-move number of the root position.
    pub fullmove: u32,
    /// Plies since the last capture at the root.
    pub quiet_plies: u32,
}

/// Accept a draw offer when we are not better (score ≤ 0). Offer one ourselves only when the
/// score is a dead level (|score| ≤ 10) in a long game (move 40+, or 40 plies without a
/// capture). Resign only when the search proves a mate against us, and only if allowed.
pub fn verdict(v: VerdictInput) -> Verdict {
    let Some(score) = v.score else {
        return Verdict::Play;
    };
    if v.may_resign && score <= -MATE_BOUND {
        return Verdict::Resign;
    }
    if v.draw_offered && score <= 0 {
        return Verdict::Draw;
    }
    if score.abs() <= 10 && (v.fullmove >= 40 || v.quiet_plies >= 40) {
        return Verdict::Draw;
    }
    Verdict::Play
}

/// The final lines of a search. `mated`: the root has no legal move at all (not just none
/// left after `banmoves`/`searchmoves`). UCCI's `draw`/`resign` go after a ponder move (one
/// GUI's parser breaks otherwise), so they are dropped when there is no ponder move.
pub fn bestmove(
    d: Dialect,
    best: Option<Move>,
    ponder: Option<Move>,
    verdict: Verdict,
    mated: bool,
) -> Vec<String> {
    match (d, best) {
        (Dialect::Uci, None) => {
            let mut v = Vec::new();
            if mated {
                v.push("info depth 0 score mate 0".to_string());
            }
            v.push("bestmove (none)".into());
            v
        }
        (Dialect::Ucci, None) => vec!["nobestmove".into()],
        (Dialect::Uci, Some(m)) => vec![match ponder {
            Some(p) => format!("bestmove {m} ponder {p}"),
            None => format!("bestmove {m}"),
        }],
        (Dialect::Ucci, Some(m)) => vec![match (ponder, verdict) {
            (None, _) => format!("bestmove {m}"),
            (Some(p), Verdict::Play) => format!("bestmove {m} ponder {p}"),
            (Some(p), Verdict::Draw) => format!("bestmove {m} ponder {p} draw"),
            (Some(p), Verdict::Resign) => format!("bestmove {m} ponder {p} resign"),
        }],
    }
}

/// UCCI `pophash`: what the hash table knows about a position.
pub fn pophash(entry: Option<TtEntry>) -> String {
    let Some(e) = entry else {
        return "pophash".into();
    };
    let mut s = String::from("pophash");
    if e.mv.is_ok() {
        s.push_str(&format!(" bestmove {}", e.mv));
    }
    let score = ucci_score(e.score);
    if matches!(e.bound, Bound::Lower | Bound::Exact) {
        s.push_str(&format!(" lowerbound {score} depth {}", e.depth.max(0)));
    }
    if matches!(e.bound, Bound::Upper | Bound::Exact) {
        s.push_str(&format!(" upperbound {score} depth {}", e.depth.max(0)));
    }
    s
}

/// The line that says a move comes from the opening book, not from a search.
pub fn book_move(b: &BookMove) -> String {
    let score = b.score.map(|s| format!(", score {s}")).unwrap_or_default();
    format!(
        "info string book move {} (weight {}{score})",
        b.mv, b.weight
    )
}

/// The `d` command's book line: whether the position is in the book, its book moves with
/// their weights and scores (`-`: unknown), which of them the book would play, and whether the
/// book is in use (`OwnBook`/`usebook`).
pub fn book_status(moves: &[BookMove], playable: &[BookMove], in_use: bool) -> String {
    let off = if in_use { "" } else { " (not in use)" };
    if moves.is_empty() {
        return format!("Book{off}: not in book");
    }
    let listed: Vec<String> = moves
        .iter()
        .map(|b| {
            let score = b.score.map_or("-".to_string(), |s| s.to_string());
            format!("{} {} {score}", b.mv, b.weight)
        })
        .collect();
    let plays = if playable.is_empty() {
        "none".to_string()
    } else {
        let p: Vec<String> = playable.iter().map(|b| b.mv.to_string()).collect();
        p.join(" ")
    };
    format!(
        "Book{off}: in book, {} moves (move weight score): {}; plays {plays}",
        moves.len(),
        listed.join(", ")
    )
}

/// The `d` command's strength line: full strength, or the rating asked for and the handicap
/// that plays it (knob, nodes a move, temperature of the move choice; see
/// [`crate::search::strength`]). `scripts/skill-ladder.sh` reads the knob from it.
pub fn strength_status(s: &StrengthRequest) -> String {
    match (s.knob(), s.node_budget()) {
        (Some(knob), Some(nodes)) => format!(
            "Strength: Elo {:.0}, knob {knob:.2}, {nodes} nodes a move, temperature {:.0}",
            s.target_elo(),
            s.temperature()
        ),
        _ => "Strength: full".to_string(),
    }
}

pub use crate::engine::files::file_problem;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::types::{mate_in, mated_in, Square};

    fn mv(s: &str) -> Move {
        Move::new(
            Square::parse(&s[..2]).unwrap(),
            Square::parse(&s[2..]).unwrap(),
        )
    }

    fn sample(score: Value, bound: Bound) -> SearchInfo {
        SearchInfo {
            depth: 5,
            seldepth: 9,
            multipv: 1,
            score,
            bound,
            nodes: 12345,
            nps: 500000,
            hashfull: 3,
            time_ms: 24,
            pv: vec![mv("h2e2"), mv("h9g7")],
        }
    }

    #[test]
    fn the_strength_line_names_the_handicap() {
        assert_eq!(strength_status(&StrengthRequest::FULL), "Strength: full");
        let weakest = StrengthRequest {
            skill_level: 0,
            ..StrengthRequest::FULL
        };
        let line = strength_status(&weakest);
        let knob = crate::search::strength::LADDER[0].knob;
        let nodes = weakest.node_budget().unwrap();
        assert!(line.starts_with("Strength: Elo "), "{line}");
        assert!(
            line.contains(&format!("knob {knob:.2}, {nodes} nodes a move")),
            "{line}"
        );
        assert!(line.ends_with(&format!("temperature {:.0}", weakest.temperature())));
    }

    #[test]
    fn mate_conventions() {
        assert_eq!(mate_moves(mate_in(1)), 1);
        assert_eq!(mate_moves(mate_in(3)), 2);
        assert_eq!(mate_moves(mated_in(0)), 0);
        assert_eq!(mate_moves(mated_in(2)), -1);
        assert_eq!(mate_moves(mated_in(4)), -2);
        assert_eq!(uci_score(mate_in(5)), "mate 3");
        assert_eq!(uci_score(mated_in(2)), "mate -1");
        assert_eq!(uci_score(-37), "cp -37");
        assert_eq!(ucci_score(mate_in(3)), 29_997);
        assert_eq!(ucci_score(mated_in(2)), -29_998);
        assert_eq!(ucci_score(120), 120);
        assert_eq!(ucci_score(MATE_BOUND - 1), UCCI_MAX_EVAL);
    }

    #[test]
    fn info_lines_per_dialect() {
        let uci = InfoStyle::default();
        assert_eq!(
            info(uci, &sample(35, Bound::Exact)),
            "info depth 5 seldepth 9 multipv 1 score cp 35 nodes 12345 nps 500000 hashfull 3 \
             time 24 pv h2e2 h9g7"
        );
        let wdl_style = InfoStyle {
            show_wdl: true,
            ..uci
        };
        let s = info(wdl_style, &sample(mate_in(3), Bound::Lower));
        assert!(
            s.contains("score mate 2 lowerbound wdl 1000 0 0 nodes"),
            "{s}"
        );
        let ucci = InfoStyle {
            dialect: Dialect::Ucci,
            ..InfoStyle::default()
        };
        assert_eq!(
            info(ucci, &sample(-35, Bound::Upper)),
            "info depth 5 score -35 time 24 nodes 12345 nps 500000 pv h2e2 h9g7"
        );
    }

    #[test]
    fn the_wdl_follows_the_model_at_the_root_material() {
        let style = |material| InfoStyle {
            show_wdl: true,
            material,
            ..InfoStyle::default()
        };
        for material in [12, 110] {
            let (w, d, l) = super::super::wdl::shipped().wdl(150, material);
            let s = info(style(material), &sample(150, Bound::Exact));
            assert!(
                s.contains(&format!("score cp 150 wdl {w} {d} {l} nodes")),
                "{s}"
            );
        }
    }

    #[test]
    fn bestmove_lines() {
        let (m, p) = (Some(mv("h2e2")), Some(mv("h9g7")));
        assert_eq!(
            bestmove(Dialect::Uci, m, p, Verdict::Draw, false),
            ["bestmove h2e2 ponder h9g7"]
        );
        assert_eq!(
            bestmove(Dialect::Uci, m, None, Verdict::Play, false),
            ["bestmove h2e2"]
        );
        assert_eq!(
            bestmove(Dialect::Uci, None, None, Verdict::Play, true),
            ["info depth 0 score mate 0", "bestmove (none)"]
        );
        assert_eq!(
            bestmove(Dialect::Uci, None, None, Verdict::Play, false),
            ["bestmove (none)"]
        );
        assert_eq!(
            bestmove(Dialect::Ucci, None, None, Verdict::Play, true),
            ["nobestmove"]
        );
        assert_eq!(
            bestmove(Dialect::Ucci, m, p, Verdict::Draw, false),
            ["bestmove h2e2 ponder h9g7 draw"]
        );
        assert_eq!(
            bestmove(Dialect::Ucci, m, p, Verdict::Resign, false),
            ["bestmove h2e2 ponder h9g7 resign"]
        );
        assert_eq!(
            bestmove(Dialect::Ucci, m, None, Verdict::Draw, false),
            ["bestmove h2e2"]
        );
    }

    #[test]
    fn verdicts() {
        let base = VerdictInput {
            score: Some(50),
            fullmove: 10,
            ..VerdictInput::default()
        };
        assert_eq!(verdict(base), Verdict::Play);
        let offered = VerdictInput {
            draw_offered: true,
            ..base
        };
        assert_eq!(verdict(offered), Verdict::Play);
        assert_eq!(
            verdict(VerdictInput {
                score: Some(-20),
                ..offered
            }),
            Verdict::Draw
        );
        let lost = VerdictInput {
            score: Some(mated_in(6)),
            ..base
        };
        assert_eq!(verdict(lost), Verdict::Play);
        assert_eq!(
            verdict(VerdictInput {
                may_resign: true,
                ..lost
            }),
            Verdict::Resign
        );
        assert_eq!(
            verdict(VerdictInput {
                may_resign: true,
                score: Some(-900),
                ..base
            }),
            Verdict::Play
        );
        let level = VerdictInput {
            score: Some(0),
            ..base
        };
        assert_eq!(verdict(level), Verdict::Play);
        assert_eq!(
            verdict(VerdictInput {
                fullmove: 45,
                ..level
            }),
            Verdict::Draw
        );
        assert_eq!(
            verdict(VerdictInput {
                score: None,
                draw_offered: true,
                ..base
            }),
            Verdict::Play
        );
    }

    #[test]
    fn handshakes() {
        let uci = handshake(Dialect::Uci);
        assert!(uci[0].starts_with("id name Chuhan"));
        assert_eq!(uci.last().unwrap(), "uciok");
        for needed in [
            "option name Hash type spin default 64 min 1 max",
            "option name Threads type spin default 1 min 1 max 1024",
            "option name Clear Hash type button",
            "option name Ponder type check default false",
            "option name MultiPV type spin default 1",
            "option name Move Overhead type spin default 10",
            "option name UCI_ShowWDL type check default false",
        ] {
            assert!(uci.iter().any(|l| l.starts_with(needed)), "{needed}");
        }
        let ucci = handshake(Dialect::Ucci);
        assert_eq!(ucci.last().unwrap(), "ucciok");
        for needed in [
            "option usemillisec type check default true",
            "option hashsize type spin min 1 max",
            "option threads type spin min 1 max 1024 default 1",
            "option ponder type check default false",
            "option newgame type button",
            "option resign type check default false",
        ] {
            assert!(ucci.iter().any(|l| l.starts_with(needed)), "{needed}");
        }
        assert!(!ucci
            .iter()
            .any(|l| l.starts_with("option") && l.contains(" name ")));
    }

    #[test]
    fn pophash_lines() {
        assert_eq!(pophash(None), "pophash");
        let e = TtEntry {
            mv: mv("h2e2"),
            score: 40,
            eval: 10,
            depth: 7,
            bound: Bound::Exact,
        };
        assert_eq!(
            pophash(Some(e)),
            "pophash bestmove h2e2 lowerbound 40 depth 7 upperbound 40 depth 7"
        );
        let e = TtEntry {
            mv: Move::NONE,
            bound: Bound::Upper,
            ..e
        };
        assert_eq!(pophash(Some(e)), "pophash upperbound 40 depth 7");
    }
}
