//! The search follows the repetition rules (棋例): it deviates from a cycle it may not keep up,
//! keeps up a cycle its opponent must break, and under the `draw` rule set treats both as draws.
//!
//! The geometry (from the rules data, con-004): the red rook checks the black king from d1/e1
//! while the red king on f0 guards the f-file; the black king can only shuffle d9/e9 (in check
//! from e1 its advisor could also block, f9e8).

use chuhan::board::position::Position;
use chuhan::board::types::{Move, Value, MATE_BOUND};
use chuhan::engine::Engine;
use chuhan::rules::RuleSet;
use chuhan::search::time::Limits;

/// Black: rook a9, king d9, advisor f9, horse a4. Red: rook c1, king f0. Black is clearly ahead.
const FEN: &str = "r2k1a3/9/9/9/9/n8/9/9/2R6/5K3 w - - 0 1";
const CYCLE: [&str; 4] = ["c1d1", "d9e9", "d1e1", "e9d9"];

fn search(rules: RuleSet, moves: &[&str], depth: u32) -> (Move, Value) {
    search_with_contempt(rules, moves, depth, 0)
}

fn search_with_contempt(
    rules: RuleSet,
    moves: &[&str],
    depth: u32,
    contempt: Value,
) -> (Move, Value) {
    let mut e = Engine::new();
    e.set_hash_mb(16).unwrap();
    e.options.search.rules = rules;
    e.options.search.contempt = contempt;
    e.set_position(Some(FEN), moves).unwrap();
    let result = e.search_sync(Limits {
        depth: Some(depth),
        ..Limits::default()
    });
    (result.best.unwrap(), result.score.unwrap())
}

/// The cycle played `times` times, then `extra` more plies of it.
fn history(times: usize, extra: usize) -> Vec<&'static str> {
    // After the first cycle the rook comes back from e1, not c1.
    let next = ["e1d1", "d9e9", "d1e1", "e9d9"];
    let mut moves: Vec<&str> = CYCLE.to_vec();
    for _ in 1..times {
        moves.extend(next);
    }
    moves.extend(&next[..extra]);
    moves
}

#[test]
fn the_checking_side_deviates_from_a_forbidden_perpetual() {
    // Red to move after two cycles: Re1-d1+ would repeat the position a third time. Red is worse,
    // so a draw would suit it, and under the draw rule set it repeats...
    let moves = history(2, 0);
    let (best, score) = search(RuleSet::Draw, &moves, 10);
    assert_eq!(best.to_string(), "e1d1");
    assert_eq!(score, 0);
    // ...but perpetual check loses under the Chinese and the Asian rules: it plays on instead.
    for rules in [RuleSet::Chinese, RuleSet::Asian] {
        let (best, score) = search(rules, &moves, 10);
        assert_ne!(best.to_string(), "e1d1", "{rules:?}");
        assert!(score < 0 && score > -MATE_BOUND, "{rules:?}: {score}");
    }
}

#[test]
fn the_checked_side_keeps_a_cycle_its_opponent_must_break() {
    // Black to move, in check from e1, after the cycle was played twice and Re1 once more:
    // Ke9-d9 repeats the position a third time with Red the perpetual checker, so Black wins.
    let moves = history(2, 3);
    let (best, score) = search(RuleSet::Chinese, &moves, 8);
    assert_eq!(best.to_string(), "e9d9");
    assert!(score >= MATE_BOUND, "{score}");
    // With every repetition a draw, Red's perpetual check holds the draw: Black, in check from
    // d1 one ply earlier, has only Kd9-e9 (the advisor cannot block the d-file; from e9 it
    // could, with f9e8, so that ply is not the one to ask).
    let (best, score) = search(RuleSet::Draw, &history(2, 1), 8);
    assert_eq!((best.to_string().as_str(), score), ("d9e9", 0));
}

/// The black rook chases the unprotected red cannon between a2 and b2 (长捉); after these
/// moves from `chase_fen`, Red's a2b2 would be the third occurrence.
const CHASE: [&str; 9] = [
    "b9a9", "a2b2", "a9b9", "b2a2", "b9a9", "a2b2", "a9b9", "b2a2", "b9a9",
];

/// Where `CHASE` starts, with the capture-free counter at `counter`.
fn chase_fen(counter: u32) -> String {
    format!("1r3k3/9/9/9/9/9/9/C8/9/4K4 b - - {counter} 1")
}

/// The best move and score of a search of the chase to `depth`.
fn search_chase(counter: u32, depth: u32) -> (Move, Value) {
    let mut e = Engine::new();
    e.set_hash_mb(16).unwrap();
    e.set_position(Some(&chase_fen(counter)), &CHASE).unwrap();
    let result = e.search_sync(Limits {
        depth: Some(depth),
        ..Limits::default()
    });
    (result.best.unwrap(), result.score.unwrap())
}

#[test]
fn the_chased_side_keeps_fleeing_when_the_chaser_must_stop() {
    // Fleeing along the cycle is Red's best, since Black must be the one to break it.
    let (best, score) = search_chase(0, 8);
    assert_eq!(best.to_string(), "a2b2");
    assert!(score >= MATE_BOUND, "{score}");
}

#[test]
fn contempt_scores_a_draw_below_zero_for_the_side_to_play() {
    // Red, worse, holds the draw by repeating (every repetition a draw): with contempt the
    // draw is worth -contempt to Red, still better than playing on a horse down.
    let moves = history(2, 0);
    let (best, score) = search_with_contempt(RuleSet::Draw, &moves, 10, 40);
    assert_eq!((best.to_string().as_str(), score), ("e1d1", -40));
    // Black, ahead, cannot escape Red's perpetual check (in check from d1, Kd9-e9 is its only
    // move): the draw it must accept is -contempt to Black too, since contempt counts against
    // whichever side the engine plays.
    let (_, score) = search_with_contempt(RuleSet::Draw, &history(2, 1), 8, 40);
    assert_eq!(score, -40);
    // A negative contempt makes the draw welcome.
    let (_, score) = search_with_contempt(RuleSet::Draw, &moves, 10, -40);
    assert_eq!(score, 40);
}

#[test]
fn a_repetition_on_the_last_ply_before_the_natural_limit_is_judged_as_a_repetition() {
    // The chase with the FEN's counter set so that Red's a2b2, the third occurrence, is also the
    // 120th ply without a capture. The referee judges the repetition before the limit
    // (`rules::adjudicate`): Black's perpetual chase loses, not a draw.
    let fen = chase_fen(110);
    let mut pos = Position::from_fen(&fen).unwrap();
    for m in CHASE.iter().chain(&["a2b2"]) {
        let m = pos.parse_move(m).unwrap();
        pos.make_move(m);
    }
    assert!(chuhan::rules::natural_limit_reached(&pos));
    let ruling = chuhan::rules::adjudicate(&pos, RuleSet::Chinese).unwrap();
    assert!(ruling.reason.contains("chase"), "{}", ruling.reason);

    let (best, score) = search_chase(110, 8);
    assert_eq!(best.to_string(), "a2b2");
    assert!(score >= MATE_BOUND, "{score}");
}
