//! The endgame suite (`tests/data/endgames.tsv`): positions of endings whose theoretical
//! verdict the xiangqi manuals give by material, each with its public source. The evaluation
//! the engine searches with (the built-in network, with the endgame scale of
//! `eval::endgame`) must honour them: a won ending scores as won for the stronger side,
//! a drawn one near zero, a hard-to-win one below a win. Both the static evaluation and a
//! fixed-depth search are checked, for the position as written and for its colour-flipped
//! twin. `cargo test --release --test endgames -- --nocapture` prints the table.

use chuhan::board::position::Position;
use chuhan::board::types::{Value, MATE_BOUND};
use chuhan::engine::Engine;
use chuhan::search::time::Limits;

/// The depth of the searches.
const DEPTH: u32 = 8;
/// A won ending scores at least this much for the stronger side.
const WIN: Value = 200;
/// A drawn ending scores within this much of zero (less than half a horse).
const DRAW: Value = 150;

#[derive(Clone, Copy, Debug, PartialEq)]
enum Verdict {
    Win,
    Draw,
    Hard,
}

struct Case {
    id: String,
    fen: String,
    verdict: Verdict,
    /// Whether the stronger side is the side to move in `fen`.
    strong_to_move: bool,
}

fn suite() -> Vec<Case> {
    let text = include_str!("data/endgames.tsv");
    let mut cases = Vec::new();
    for line in text.lines().filter(|l| !l.starts_with('#')).skip(1) {
        let f: Vec<&str> = line.split('\t').collect();
        assert!(f.len() >= 6, "a row with too few fields: {line}");
        assert!(f[5].contains("http"), "{}: no source", f[0]);
        let verdict = match f[2] {
            "win" => Verdict::Win,
            "draw" => Verdict::Draw,
            "hard" => Verdict::Hard,
            other => panic!("{}: verdict {other}", f[0]),
        };
        let pos = Position::from_fen(f[1]).unwrap_or_else(|e| panic!("{}: {e}", f[0]));
        let strong_is_red = match f[3] {
            "red" => true,
            "black" => false,
            other => panic!("{}: stronger side {other}", f[0]),
        };
        cases.push(Case {
            id: f[0].to_string(),
            fen: pos.to_fen(),
            verdict,
            strong_to_move: strong_is_red
                == (pos.side_to_move() == chuhan::board::types::Color::Red),
        });
    }
    cases
}

/// The static evaluation and a depth-`DEPTH` search's score of `fen`, for the stronger side.
fn scores(fen: &str, strong_to_move: bool) -> (Value, Value) {
    let mut e = Engine::new();
    e.set_hash_mb(16).unwrap();
    e.set_position(Some(fen), &[] as &[&str]).unwrap();
    let stat = e.static_eval();
    let result = e.search_sync(Limits {
        depth: Some(DEPTH),
        ..Limits::default()
    });
    let searched = result.score.expect("a legal move");
    let sign = if strong_to_move { 1 } else { -1 };
    (sign * stat, sign * searched)
}

fn honoured(verdict: Verdict, score: Value) -> bool {
    match verdict {
        Verdict::Win => score >= WIN,
        Verdict::Draw => score.abs() <= DRAW,
        Verdict::Hard => score < WIN,
    }
}

fn show(v: Value) -> String {
    if v.abs() >= MATE_BOUND {
        format!("{}mate", if v > 0 { "+" } else { "-" })
    } else {
        format!("{v:+}")
    }
}

#[test]
fn the_suite_has_wins_draws_and_both_colours() {
    let cases = suite();
    let count = |v: Verdict| cases.iter().filter(|c| c.verdict == v).count();
    assert!(cases.len() >= 30, "{} cases", cases.len());
    assert!(count(Verdict::Win) >= 15 && count(Verdict::Draw) + count(Verdict::Hard) >= 15);
    let black_strong = cases
        .iter()
        .filter(|c| c.strong_to_move == c.fen.ends_with(" b") || c.fen.contains(" b "))
        .count();
    assert!(
        black_strong >= 5,
        "{black_strong} cases with Black stronger"
    );
    let mut ids: Vec<&str> = cases.iter().map(|c| c.id.as_str()).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), cases.len(), "ids are unique");
}

#[test]
fn the_evaluation_honours_the_theoretical_verdicts() {
    let mut failed = Vec::new();
    let cases = suite();
    println!(
        "{:<14} {:<5} {:>7} {:>7} {:>7} {:>7}",
        "id", "verdict", "static", "search", "flip st", "flip se"
    );
    for case in &cases {
        let (st, se) = scores(&case.fen, case.strong_to_move);
        let flipped = Position::from_fen(&case.fen)
            .unwrap()
            .color_flipped()
            .to_fen();
        let (fst, fse) = scores(&flipped, case.strong_to_move);
        let ok = [st, se, fst, fse]
            .iter()
            .all(|&v| honoured(case.verdict, v));
        println!(
            "{:<14} {:<7} {:>7} {:>7} {:>7} {:>7} {}",
            case.id,
            format!("{:?}", case.verdict).to_lowercase(),
            show(st),
            show(se),
            show(fst),
            show(fse),
            if ok { "" } else { "WRONG" }
        );
        if !ok {
            failed.push(case.id.clone());
        }
    }
    println!("{} of {} honoured", cases.len() - failed.len(), cases.len());
    assert!(failed.is_empty(), "not honoured: {failed:?}");
}
