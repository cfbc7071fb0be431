//! Rules tests: every case of `tests/data/rules.jsonl` under the rule sets it states (and under
//! the Chinese rules where the data gives no Chinese verdict, derived from the seeds below), then
//! our own cases for each clause of the rules module.

use chuhan::board::position::Position;
use chuhan::board::types::{Color, Square};
use chuhan::rules::effects::{chases, effect_of_last_move};
use chuhan::rules::{
    adjudicate, natural_limit_count, natural_limit_reached, repetition_verdict,
    repetition_verdict_in_search, Outcome, RepetitionFilter, RepetitionVerdict, RuleSet,
};
use chuhan::tools::judge::judge_line;
use serde_json::Value;

const DATA: &str = include_str!("data/rules.jsonl");

/// The judge's verdict word for a data verdict.
fn verdict_word(expected: &str) -> &'static str {
    match expected {
        "red_loses" => "black-wins",
        "black_loses" => "red-wins",
        "draw" => "draw",
        "no_result" => "ongoing",
        "illegal_move" => "illegal",
        "game_end_unspecified" => "any end",
        other => panic!("unknown verdict {other}"),
    }
}

/// Chinese verdicts for the cases where the data gives none, derived from the seeds.
///
/// Every case not listed here gets its Asian verdict: the two rule sets agree on perpetual check,
/// on perpetual chase of an unprotected piece or of a more valuable one, on pawn and king attacks
/// being idle, and on false roots (the data's README). They differ in four ways, and these are
/// the cases each difference decides:
/// - 长杀 is forbidden (25.2 "长将、长杀、长捉 … 统称为禁止着法"):
///   - orange-013, orange-015: Red threatens mate by checks with every move, Black only parries
///     (idle): Red must deviate, Red loses.
///   - orange-146: Black's cannon threatens a back-rank mate with every move, Red's cannon blocks
///     (拦, idle): Black loses.
///   - orange-137: Black threatens mate with every rook move (长杀); Red's rook blocks and attacks
///     the unprotected black rook each time (a chase that is also an exchange offer is a chase,
///     细则 "凡捉子兼具兑献…也按捉处理") and its horse chases it too: both forbidden, draw.
///   - orange-045, orange-046, orange-016: the side threatening mate does so only every other
///     move (一杀一闲, allowed), so the Asian verdict stands (Red's perpetual chase of the cannon
///     loses in 045/046; nobody is forbidden in 016).
/// - 一将一捉 and 一杀一捉 are forbidden (25.2):
///   - orange-053: Black alternates a chase of the horse on i1 with a discovered check (一将一捉,
///     forbidden) while Red chases the black cannon every move (长捉): both forbidden, draw.
///   - orange-021: labelled 一将一捉, but Red's non-checking move c9c8 attacks nothing (the rook
///     on c8 sees only empty points, and after ...d9e8 an advisor that king and advisor protect):
///     Red's cycle is 一将一闲, allowed (25.2 数将一闲); draw, as under the Asian rules.
/// - A chase that is also an exchange offer or an offer is a chase (细则); the Asian rules exempt
///   a piece attacking one of its own kind that can take it back:
///   - fsf-019: Red's cannon attacks the unprotected black cannon with every move (offering
///     itself too); Black's cannon only runs: Red's 长捉, Red loses.
///   - orange-171: Red's cannon and rook attack the black cannon on g8 every move (Black's cannon
///     can take back, so the Asian rules call it an exchange) while Black's cannon chases the red
///     rook: both forbidden, draw.
/// - Any move that turns "no chase" into "chase" is a chase (细则 "从没捉到捉…一律按捉处理"), also
///   when it parries a chase on one's own piece (解捉还捉; seed 001 names 反捉 among the attacks)
///   and the new chase comes from cutting a protector off. The Asian rules, as the WXF diagrams
///   and Fairy-Stockfish rule these cases, do not count a protector cut off by a parrying move:
///   - fsf-022 = orange-055: Black's advisor shuttles to block Red's attacks on the black rook,
///     each time cutting the red horse's protection so that Black's rook now wins it: Red chases
///     the rook every move and Black chases the horse every move: both forbidden, draw.
///   - fsf-023: Red's advisor shuttles to parry Black's attacks on the red rook, each time
///     cutting the black horse's protection (a cannon screen, a rook line): both sides chase every
///     move, draw.
///   - orange-087: Black's horse parries Red's cannon chase and, doing so, cuts the red cannon's
///     protection so Black's rook chases it: both chase every move, draw.
const DERIVED_CHINESE: &[(&str, &str)] = &[
    ("orange-013", "red_loses"),
    ("orange-015", "red_loses"),
    ("orange-146", "black_loses"),
    ("orange-137", "draw"),
    ("orange-045", "red_loses"),
    ("orange-046", "red_loses"),
    ("orange-016", "draw"),
    ("orange-053", "draw"),
    ("orange-021", "draw"),
    ("fsf-019", "red_loses"),
    ("orange-171", "draw"),
    ("fsf-022", "draw"),
    ("orange-055", "draw"),
    ("fsf-023", "draw"),
    ("orange-087", "draw"),
];

/// Cases whose data cannot be judged as given.
///
/// con-007: its FEN `3k5/9/9/9/9/9/9/9/3R5/4K4 w` has the black king in check from the rook on
/// d1 with Red to move, an impossible position; `Position::from_fen` rejects it and the judge
/// says so. (With the rook on c1 and the move c1d1 the intended mate is our own test
/// `checkmate_with_the_flying_general`.)
const INVALID_DATA: &[&str] = &["con-007"];

struct Case {
    id: String,
    line: String,
    expected: Vec<(RuleSet, String)>,
}

fn cases() -> Vec<Case> {
    DATA.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v: Value = serde_json::from_str(l).expect("valid JSON line");
            let id = v["id"].as_str().unwrap().to_string();
            let fen = v["fen"].as_str().unwrap();
            let moves: Vec<&str> = v["moves_3fold"]
                .as_array()
                .or(v["moves"].as_array())
                .unwrap()
                .iter()
                .map(|m| m.as_str().unwrap())
                .collect();
            let line = if moves.is_empty() {
                fen.to_string()
            } else {
                format!("{fen} moves {}", moves.join(" "))
            };
            let exp = &v["expected"];
            let mut expected = Vec::new();
            let asian = exp["asian"].as_str().map(str::to_string);
            if let Some(a) = &asian {
                expected.push((RuleSet::Asian, a.clone()));
            }
            let derived = DERIVED_CHINESE
                .iter()
                .find(|(i, _)| *i == id)
                .map(|(_, v)| v.to_string());
            match (exp["chinese"].as_str(), derived) {
                (Some(c), None) => expected.push((RuleSet::Chinese, c.to_string())),
                (None, Some(d)) => expected.push((RuleSet::Chinese, d)),
                (Some(_), Some(_)) => panic!("{id}: Chinese verdict both given and derived"),
                (None, None) => {
                    // The rule sets agree here (see DERIVED_CHINESE).
                    if let Some(a) = asian {
                        expected.push((RuleSet::Chinese, a));
                    }
                }
            }
            Case { id, line, expected }
        })
        .collect()
}

fn judge(line: &str, rules: RuleSet) -> String {
    judge_line(line, rules).expect("a verdict line")
}

#[test]
fn every_data_case_under_each_rule_set_it_states() {
    let all = cases();
    assert_eq!(all.len(), 98);
    let mut failures = Vec::new();
    let mut checked = 0;
    for case in &all {
        for (rules, exp) in &case.expected {
            let got = judge(&case.line, *rules);
            checked += 1;
            let ok = if INVALID_DATA.contains(&case.id.as_str()) {
                got.starts_with("error: bad FEN")
            } else {
                match verdict_word(exp) {
                    "illegal" => got.contains(": illegal move "),
                    "any end" => !got.starts_with("ongoing") && !got.starts_with("error"),
                    w => got.starts_with(&format!("{w}:")),
                }
            };
            if !ok {
                failures.push(format!("{} ({rules}): expected {exp}, got {got}", case.id));
            }
        }
    }
    assert!(checked >= 190, "only {checked} verdicts checked");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn data_under_the_draw_rules_never_ends_in_a_repetition_win() {
    for case in cases() {
        let got = judge(&case.line, RuleSet::Draw);
        if got.contains("repetition") || got.contains("perpetual") || got.contains("both sides") {
            assert!(got.starts_with("draw:"), "{}: {got}", case.id);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Helpers for our own cases.

fn play(fen: &str, moves: &str) -> Position {
    let mut p = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    for m in moves.split_whitespace() {
        let mv = p.parse_move(m).unwrap_or_else(|e| panic!("{fen} {m}: {e}"));
        p.make_move(mv);
    }
    p
}

fn ruling(fen: &str, moves: &str, rules: RuleSet) -> (Outcome, String) {
    let r = adjudicate(&play(fen, moves), rules).expect("game over");
    (r.outcome, r.reason)
}

/// The same game with colours swapped (ranks mirrored, case swapped, moves mirrored).
fn mirrored(fen: &str, moves: &str) -> (String, String) {
    let flipped = Position::from_fen(fen).unwrap().color_flipped().to_fen();
    let flip = |s: &str| {
        let sq = Square::parse(s).unwrap();
        Square::from_coords(sq.file(), 9 - sq.rank()).to_string()
    };
    let moves: Vec<String> = moves
        .split_whitespace()
        .map(|m| format!("{}{}", flip(&m[..2]), flip(&m[2..])))
        .collect();
    (flipped, moves.join(" "))
}

fn swap(o: Outcome) -> Outcome {
    match o {
        Outcome::RedWins => Outcome::BlackWins,
        Outcome::BlackWins => Outcome::RedWins,
        Outcome::Draw => Outcome::Draw,
    }
}

/// Check a repetition under every rule set, and its colour mirror too.
fn assert_cycle(fen: &str, moves: &str, chinese: Outcome, asian: Outcome) {
    for (rules, want) in [
        (RuleSet::Chinese, chinese),
        (RuleSet::Asian, asian),
        (RuleSet::Draw, Outcome::Draw),
    ] {
        let (got, why) = ruling(fen, moves, rules);
        assert_eq!(got, want, "{fen} {moves} ({rules}): {why}");
        let (mfen, mmoves) = mirrored(fen, moves);
        let (got, why) = ruling(&mfen, &mmoves, rules);
        assert_eq!(got, swap(want), "mirror {mfen} {mmoves} ({rules}): {why}");
    }
}

fn sq(s: &str) -> Square {
    Square::parse(s).unwrap()
}

// ---------------------------------------------------------------------------------------------
// Game ends other than repetition.

#[test]
fn checkmate_with_the_flying_general() {
    // Rc1-d1+: d8 is covered by the rook, e9 would face the red king on e0, c9 is outside the
    // palace.
    let (o, why) = ruling("3k5/9/9/9/9/9/9/9/2R6/4K4 w", "c1d1", RuleSet::Chinese);
    assert_eq!((o, why.as_str()), (Outcome::RedWins, "checkmate"));
}

#[test]
fn stalemate_loses() {
    // 困毙: Black is not in check and has no move.
    let (o, why) = ruling("3k5/9/9/9/9/9/9/9/4R4/4K4 w", "e1e8", RuleSet::Asian);
    assert_eq!((o, why.as_str()), (Outcome::RedWins, "stalemate"));
}

#[test]
fn a_move_that_makes_the_kings_face_is_illegal_and_loses() {
    let got = judge("4k4/9/9/9/4N4/9/9/9/9/4K4 w moves e5d7", RuleSet::Chinese);
    assert_eq!(got, "black-wins: illegal move e5d7 at ply 1 (red)");
}

#[test]
fn insufficient_material_is_a_draw() {
    let (o, why) = ruling("3aka3/9/4b4/9/9/9/9/4B4/9/3AKA3 w", "", RuleSet::Chinese);
    assert_eq!((o, why.as_str()), (Outcome::Draw, "insufficient material"));
    // A single pawn is enough material to play on.
    assert!(adjudicate(
        &play("3aka3/9/4b4/9/9/9/4P4/4B4/9/3AKA3 w", ""),
        RuleSet::Chinese
    )
    .is_none());
}

/// Repeat `cycle` (space-separated moves) `n` times.
fn times(cycle: &str, n: usize) -> String {
    vec![cycle; n].join(" ")
}

#[test]
fn sixty_move_limit_and_quiet_moves() {
    // Horses shuffle without captures or checks; the position repeats, but the limit is only
    // reached at 120 plies: judged on a position that is not a repetition (rule60 set by FEN).
    let fen = "1n1k5/9/9/9/9/9/9/9/9/1N2K4 w - - 118 1";
    let p = play(fen, "b0c2");
    assert_eq!(natural_limit_count(&p), 119);
    assert!(!natural_limit_reached(&p));
    let p = play(fen, "b0c2 b9c7");
    assert_eq!(natural_limit_count(&p), 120);
    let (o, why) = ruling(fen, "b0c2 b9c7", RuleSet::Chinese);
    assert_eq!((o, why.as_str()), (Outcome::Draw, "60-move limit"));
}

#[test]
fn checks_beyond_ten_per_side_do_not_advance_the_limit() {
    // Red checks with every move (Rd1+ Ke9 Re1+ Kd9 …): 60 red checks in 120 plies, of which
    // only the first ten count, so the counter stands at 120 - 50 = 70.
    let fen = "3k5/9/9/9/9/9/9/9/2R6/5K3 w";
    let moves = format!("c1d1 d9e9 {}", times("d1e1 e9d9 e1d1 d9e9", 29));
    let moves = format!("{moves} d1e1 e9d9");
    let p = play(fen, &moves);
    assert_eq!(p.rule60(), 120);
    assert_eq!(natural_limit_count(&p), 70);
    assert!(!natural_limit_reached(&p));
    // (It is a repetition all the same: the perpetual checker loses.)
    assert_eq!(
        adjudicate(&p, RuleSet::Chinese).unwrap().outcome,
        Outcome::BlackWins
    );
}

// ---------------------------------------------------------------------------------------------
// Classification of single moves (棋例通则 / 细则).

#[test]
fn chase_of_an_unprotected_piece_and_not_of_an_uncrossed_pawn() {
    // The rook a1 attacks the unprotected black horse a9 up the file; the rook i1 attacks the
    // uncrossed black pawn on i6 (no 子力, 25.3), which is no chase.
    let mut p = play("n3k4/9/9/8p/9/9/9/9/R7R/3K5 b", "");
    let c = chases(&mut p, Color::Red, RuleSet::Chinese);
    assert!(c.pieces.has(sq("a9")), "unprotected horse is chased");
    assert!(!c.pieces.has(sq("i6")), "uncrossed pawn is no 子力");
    // Across the river (i4) the same pawn is chased.
    let mut p = play("n3k4/9/9/9/9/8p/9/9/R7R/3K5 b", "");
    let c = chases(&mut p, Color::Red, RuleSet::Chinese);
    assert!(c.pieces.has(sq("i4")));
}

#[test]
fn protected_lower_value_is_no_chase_but_higher_value_is() {
    // Rook a1 attacks the horse on a9, protected by the rook b9: no chase.
    let mut p = play("nr2k4/9/9/9/9/9/9/9/R8/3K5 b", "");
    assert!(chases(&mut p, Color::Red, RuleSet::Chinese)
        .pieces
        .is_empty());
    // A red horse on c7 attacks the protected rook on b9: a horse on a rook is a chase.
    let mut p = play("1r2k4/9/2N6/9/9/9/9/9/9/3K5 b", "");
    let c = chases(&mut p, Color::Red, RuleSet::Chinese);
    assert!(c.pieces.has(sq("b9")));
}

#[test]
fn false_root_pinned_protector() {
    // The red rook a7 attacks the black horse d7. The black rook e7 protects it along the rank,
    // but it shields its king e9 from the red rook on e1, so it may not leave the e-file: a
    // false root (假根), and the horse counts as unprotected.
    let mut p = play("4k4/9/R2nr4/9/9/9/9/9/4R4/3K5 b", "");
    let c = chases(&mut p, Color::Red, RuleSet::Chinese);
    assert!(
        c.pieces.has(sq("d7")),
        "protection by a pinned rook is false"
    );
    // Unpinned (no red rook on e1), the same protection is real.
    let mut p = play("4k4/9/R2nr4/9/9/9/9/9/9/3K5 b", "");
    let c = chases(&mut p, Color::Red, RuleSet::Chinese);
    assert!(!c.pieces.has(sq("d7")));
}

#[test]
fn king_alone_and_pawn_alone_attack_as_idle() {
    // The red king on e1 attacks the unprotected crossed black pawn on d1 (it checks the king,
    // but that does not matter here): the king alone attacks as idle (通则 1).
    let mut p = play("3k5/9/9/9/9/9/9/9/3pK4/9 w", "");
    let c = chases(&mut p, Color::Red, RuleSet::Chinese);
    assert!(
        c.pieces.is_empty() && c.by_pawns.is_empty(),
        "the king alone is idle"
    );
    // A red pawn on a5 attacks the unprotected black rook on a6: recorded as a pawn attack.
    let mut p = play("4k4/9/9/r8/P8/9/9/9/9/3K5 b", "");
    let c = chases(&mut p, Color::Red, RuleSet::Chinese);
    assert!(c.pieces.is_empty());
    assert!(c.by_pawns.has(sq("a6")));
}

#[test]
fn formal_attack_where_capturing_gets_mated_is_idle() {
    // orange-150 after b6b3 d3d4 b3b4: the black cannon d8 (screen d4) attacks the red rook d2,
    // but Cxd2 is answered by Rb4xd4 mate. Formally an attack, really idle (细则).
    let mut p = play(
        "2bk5/3c5/4bN3/1R2p4/9/9/3r5/3R1p3/3K5/9 w",
        "b6b3 d3d4 b3b4",
    );
    let c = chases(&mut p, Color::Black, RuleSet::Chinese);
    assert!(!c.pieces.has(sq("d2")));
    // One move later (…d4d3, Red's rook still on b4) the mate is gone and the cannon chases.
    let mut p = play(
        "2bk5/3c5/4bN3/1R2p4/9/9/3r5/3R1p3/3K5/9 w",
        "b6b3 d3d4 b3b4 d4d3",
    );
    let c = chases(&mut p, Color::Black, RuleSet::Chinese);
    assert!(c.pieces.has(sq("d2")));
}

#[test]
fn a_chasing_piece_that_moves_on_without_a_new_chase_is_idle() {
    // The red rook a1 chases the unprotected black horse a9; Ra1-a2 keeps attacking it along
    // the file: 从捉到捉, idle.
    let mut p = play("n3k4/9/9/9/9/9/9/9/R8/3K5 w", "a1a2");
    let e = effect_of_last_move(&mut p, RuleSet::Chinese);
    assert!(e.chased.is_empty());
    // Rb1-a1 starts the attack: a chase.
    let mut p = play("n3k4/9/9/9/9/9/9/9/1R7/3K5 w", "b1a1");
    let e = effect_of_last_move(&mut p, RuleSet::Chinese);
    assert!(e.chased.has(sq("a9")));
}

// ---------------------------------------------------------------------------------------------
// Cycles and verdicts (each also checked with colours swapped, and under the draw rules).

#[test]
fn perpetual_check_loses_in_every_rule_set_but_draw() {
    // Rd1+ Ke9 Re1+ Kd9 Rd1+ …: every red move checks, Black only evades.
    let fen = "3k5/9/9/9/9/9/9/9/2R6/5K3 w";
    let m = format!("c1d1 {}", times("d9e9 d1e1 e9d9 e1d1", 2));
    let (o, why) = ruling(fen, &m, RuleSet::Chinese);
    assert_eq!(
        (o, why.as_str()),
        (Outcome::BlackWins, "perpetual check by red")
    );
    assert_cycle(fen, &m, Outcome::BlackWins, Outcome::BlackWins);
}

#[test]
fn perpetual_chase_of_an_unprotected_piece_loses() {
    // The red rook follows the black horse b9 <-> c7 (nothing protects it): 长捉.
    let fen = "1n2k4/9/9/9/9/9/9/9/9/2RK5 w";
    let moves = times("c0b0 b9c7 b0c0 c7b9", 2);
    let (o, why) = ruling(fen, &moves, RuleSet::Chinese);
    assert_eq!(o, Outcome::BlackWins);
    assert_eq!(
        why,
        "perpetual chase of the black horse on b9 by the red rook"
    );
    assert_cycle(fen, &moves, Outcome::BlackWins, Outcome::BlackWins);
}

#[test]
fn one_check_one_chase_is_forbidden_only_under_the_chinese_rules() {
    // Ra1-e1+ (the red king on d0 keeps the kings apart), Ke9-f9, Re1-a1 (chases the
    // unprotected horse on a9), Kf9-e9: 一将一捉. Forbidden by 25.2; allowed by the Asian rules.
    let fen = "n3k4/9/9/9/9/9/9/9/R8/3K5 w";
    let moves = times("a1e1 e9f9 e1a1 f9e9", 2);
    let (o, why) = ruling(fen, &moves, RuleSet::Chinese);
    assert_eq!(o, Outcome::BlackWins);
    assert_eq!(why, "perpetual attack by red (check and chase)");
    assert_cycle(fen, &moves, Outcome::BlackWins, Outcome::Draw);
}

#[test]
fn perpetual_mate_threat_is_forbidden_only_under_the_chinese_rules() {
    // orange-146 with the colours swapped (our own game): Red's cannon threatens a back-rank
    // mate with every move, Black's cannon blocks the file each time.
    let (fen, moves) = mirrored(
        "4k4/3P2P1P/9/9/6b1c/5p1C1/9/9/4A4/3AK1p2 w",
        "h4i4 i5h5 i4h4 h5i5 h4i4 i5h5 i4h4 h5i5",
    );
    let (o, why) = ruling(&fen, &moves, RuleSet::Chinese);
    assert_eq!(
        (o, why.as_str()),
        (Outcome::BlackWins, "perpetual mate threat by red")
    );
    assert_cycle(&fen, &moves, Outcome::BlackWins, Outcome::Draw);
}

#[test]
fn a_mate_threat_that_also_chases_counts_as_a_mate_threat() {
    // 通则 5: "凡走子兼具多种作用时，应从重称呼和裁处。如杀兼捉，按杀". Black: king e9, advisors
    // e8 and f7, horse d7. Red: rooks a7 and c4, king f1.
    // - Rc4-e4 pins the advisor e8 to its king (it may not leave the e-file). That advisor is
    //   the only protector of the horse d7, which the rook a7 attacks along the 7th rank: the
    //   root is false (假根), so the move formally chases the horse. It also threatens mate:
    //   Ra9+ Nc9 Rxc9# (d9 and f9 lie on the rank, e8 is the king's own advisor, and the pinned
    //   advisor may not interpose on d9). By 通则 5 it is a mate threat (杀), not a chase. (The
    //   mate does not take the horse where it is chased; it is taken only after interposing. A
    //   threat to mate by taking the chased piece would be that chase under the Asian rules, as
    //   in the WXF diagrams of orange-076 and orange-079.)
    // - Nd7-c9 runs and blocks the 9th rank, parrying the mate.
    // - Re4-c4 attacks the unprotected horse up the c-file: a chase, nothing more.
    // - Nc9-d7 goes back under the (now free) advisor.
    // Red plays 一杀一捉, Black only idle moves. Chinese rules: 一杀一捉 is forbidden (25.2), so
    // Red loses. Asian rules: mate threats are allowed and not every red move is a chase (the
    // first is a mate threat), so there is no perpetual chase: both allowed, a draw. Classing
    // the pinning move as a chase called it Red's perpetual chase of the horse, a loss.
    let fen = "4k4/4a4/R2n1a3/9/9/2R6/9/9/5K3/9 w";
    let cycle = "c4e4 d7c9 e4c4 c9d7";

    // The construction: before Re4 the horse is protected by the advisor; after it the advisor
    // could still take back but only by exposing its king, and the horse is chased.
    let mut p = play(fen, "");
    let before = chases(&mut p, Color::Red, RuleSet::Asian);
    assert!(!before.pieces.has(sq("d7")));
    assert!(before.info[sq("d7").index()].roots.has(sq("e8")));
    let mut p = play(fen, "c4e4");
    let after = chases(&mut p, Color::Red, RuleSet::Asian);
    let d7 = after.info[sq("d7").index()];
    assert!(after.pieces.has(sq("d7")));
    assert!(d7.chase_pseudo_roots.has(sq("e8")) && !d7.chase_roots.has(sq("e8")));
    assert!(effect_of_last_move(&mut p, RuleSet::Asian)
        .chased
        .has(sq("d7")));

    let moves = times(cycle, 2);
    let (o, why) = ruling(fen, &moves, RuleSet::Chinese);
    assert_eq!(
        (o, why.as_str()),
        (
            Outcome::BlackWins,
            "perpetual attack by red (mate threat and chase)"
        )
    );
    let (o, why) = ruling(fen, &moves, RuleSet::Asian);
    assert_eq!(
        (o, why.as_str()),
        (Outcome::Draw, "repetition, both sides allowed")
    );
    assert_cycle(fen, &moves, Outcome::BlackWins, Outcome::Draw);
    // The explanation names the heavier effect first under the Asian rules too.
    let got = chuhan::tools::judge::judge_line_with(
        &format!("{fen} moves {moves}"),
        RuleSet::Asian,
        true,
    )
    .unwrap();
    assert!(
        got.contains("\n  red c4e4: mate threat, chase of the horse on d7\n"),
        "{got}"
    );
}

#[test]
fn one_check_one_mate_threat_both_chasing_is_no_perpetual_chase() {
    // The king behind a pinned advisor, threatened with a back-rank mate, steps aside and is
    // checked back (the WXF rule book: allowed), with both red moves also leaving the same piece
    // en prise. Black: king e9, advisors e8 and f7. Red: rooks a7 and d3, king f1.
    // - Rd3-e3 pins the advisor e8, the only protector of the advisor f7, which the rook a7
    //   attacks: a chase by a false root, and a mate threat (Ra9#: d9 and f9 lie on the rank,
    //   e8 is the king's own advisor, pinned, so it may not interpose on d9; the mate takes
    //   nothing). 杀兼捉, 按杀: a mate threat.
    // - Ke9-d9 steps out of the pin and the mate.
    // - Re3-d3+ checks; with Black bound to answer the check the advisor f7 is formally
    //   unprotected again. Under the Chinese rules a check; under the Asian rules a check that
    //   chases still counts towards a perpetual chase (fsf-005), but this one has no partner.
    // - Kd9-e9 back.
    // Red plays 一将一杀, Black only king moves (idle). Chinese rules: forbidden (25.2), Red
    // loses. Asian rules: no perpetual check, and no perpetual chase since the first move is a
    // mate threat: both allowed, a draw.
    let fen = "4k4/4a4/R4a3/9/9/9/3R5/9/5K3/9 w";
    let moves = times("d3e3 e9d9 e3d3 d9e9", 2);
    let (o, why) = ruling(fen, &moves, RuleSet::Chinese);
    assert_eq!(
        (o, why.as_str()),
        (
            Outcome::BlackWins,
            "perpetual attack by red (check and mate threat)"
        )
    );
    let (o, why) = ruling(fen, &moves, RuleSet::Asian);
    assert_eq!(
        (o, why.as_str()),
        (Outcome::Draw, "repetition, both sides allowed")
    );
    assert_cycle(fen, &moves, Outcome::BlackWins, Outcome::Draw);
}

#[test]
fn two_attacks_against_one_counter_attack_the_double_attacker_deviates() {
    // 二打一还打 (orange-033, WXF diagram): Red's horse chases the rook, then (returning) the
    // cannon while Red's cannon takes over the rook through the horse screen; Black answers one
    // move in two with a counter-chase of Red's cannon. Red attacks twice, Black once: Red must
    // deviate and loses (Black is 一捉一闲, allowed).
    let fen = "2c1kab2/4a4/4b4/9/9/9/P1p5P/2r1N1cC1/4A4/3ACK3 w";
    let moves = format!("e2d4 {}", times("g2g1 d4e2 g1g2 e2d4", 2));
    assert_cycle(fen, &moves, Outcome::BlackWins, Outcome::BlackWins);
}

#[test]
fn two_pieces_taking_turns_to_chase_one_piece_is_a_chase() {
    // fsf-003 mirrored: two red cannons take turns (by discovery) to attack the black rook.
    let (fen, moves) = mirrored(
        "2bakabr1/9/9/r1p1p1p2/p7R/P8/9/9/9/CC1AKA3 w",
        "a4a5 a6b6 a5b5 b6a6 b5a5 a6b6 a5b5 b6a6 b5a5",
    );
    assert_cycle(&fen, &moves, Outcome::RedWins, Outcome::RedWins);
}

#[test]
fn perpetual_block_is_allowed() {
    // 长拦: Black's rook shifts a9 <-> b9 to run down a file; Red's cannon (protected by the rook
    // on i5) steps in front of it each time. Nothing is chased: draw.
    let fen = "r3k4/9/9/9/C7R/9/9/9/9/3K5 b";
    let moves = times("a9b9 a5b5 b9a9 b5a5", 2);
    let (o, why) = ruling(fen, &moves, RuleSet::Chinese);
    assert_eq!(
        (o, why.as_str()),
        (Outcome::Draw, "repetition, both sides allowed")
    );
    assert_cycle(fen, &moves, Outcome::Draw, Outcome::Draw);
}

#[test]
fn perpetual_follow_is_allowed() {
    // 长跟: a crossed red pawn (protected along the rank by the rook on i6) follows the black
    // rook a9 <-> b9 sideways, staying in front of it. The rook's attack on a protected pawn is
    // no chase, the pawn attacks nothing: draw.
    let fen = "r3k4/9/9/P7R/9/9/9/9/9/3K5 b";
    let moves = times("a9b9 a6b6 b9a9 b6a6", 2);
    let (o, why) = ruling(fen, &moves, RuleSet::Chinese);
    assert_eq!(
        (o, why.as_str()),
        (Outcome::Draw, "repetition, both sides allowed")
    );
    assert_cycle(fen, &moves, Outcome::Draw, Outcome::Draw);
}

#[test]
fn both_allowed_and_both_forbidden_draw() {
    // Bare kings shuffle: both allowed.
    assert_cycle(
        "3k5/9/9/9/9/9/9/9/9/4K4 w",
        &times("e0e1 d9d8 e1e0 d8d9", 2),
        Outcome::Draw,
        Outcome::Draw,
    );
    // fsf-006: rook and horse chase each other: both forbidden.
    let fen = "4k4/7n1/9/4pR3/9/9/4P4/9/9/4K4 w";
    let moves =
        "f6h6 h8f7 h6h7 f7g5 h7g7 g5i6 g7g6 i6h8 g6h6 h8f7 h6h7 f7g5 h7g7 g5i6 g7g6 i6h8 g6h6";
    let (o, why) = ruling(fen, moves, RuleSet::Chinese);
    assert_eq!(o, Outcome::Draw);
    assert!(why.starts_with("repetition, both sides forbidden"), "{why}");
}

#[test]
fn repetition_is_ruled_only_on_the_third_occurrence() {
    let fen = "3k5/9/9/9/9/9/9/9/2R6/5K3 w";
    let p = play(fen, "c1d1 d9e9 d1e1 e9d9 e1d1 d9e9");
    assert!(
        adjudicate(&p, RuleSet::Chinese).is_none(),
        "two occurrences only"
    );
    assert_eq!(
        judge(
            &format!("{fen} moves c1d1 d9e9 d1e1 e9d9 e1d1 d9e9"),
            RuleSet::Chinese
        ),
        "ongoing: no game-ending rule applies"
    );
}

// ---------------------------------------------------------------------------------------------
// The search API.

#[test]
fn repetition_verdict_for_the_side_to_move() {
    let fen = "3k5/9/9/9/9/9/9/9/2R6/5K3 w";
    // No repetition yet.
    let p = play(fen, "c1d1 d9e9 d1e1");
    assert_eq!(repetition_verdict(&p, RuleSet::Chinese), None);
    // After Kd9 Rd1+ the position after c1d1 recurs with Black to move: Red checked every move,
    // so Black (to move) wins.
    let p = play(fen, "c1d1 d9e9 d1e1 e9d9 e1d1");
    assert_eq!(
        repetition_verdict(&p, RuleSet::Chinese),
        Some(RepetitionVerdict::Win)
    );
    assert_eq!(
        repetition_verdict(&p, RuleSet::Draw),
        Some(RepetitionVerdict::Draw)
    );
    // One more ply: Red to move in a repeated position of its own perpetual check: a loss.
    let p = play(fen, "c1d1 d9e9 d1e1 e9d9 e1d1 d9e9");
    assert_eq!(
        repetition_verdict(&p, RuleSet::Asian),
        Some(RepetitionVerdict::Loss)
    );
    // In search: with the root 2 plies back the earlier occurrence lies before the root, and a
    // second occurrence is needed; with the root 6 plies back it is inside the tree.
    assert_eq!(repetition_verdict_in_search(&p, RuleSet::Chinese, 2), None);
    assert_eq!(
        repetition_verdict_in_search(&p, RuleSet::Chinese, 6),
        Some(RepetitionVerdict::Loss)
    );
}

#[test]
fn repetition_filter_says_maybe_only_for_keys_seen() {
    let fen = "3k5/9/9/9/9/9/9/9/2R6/5K3 w";
    let p = play(fen, "c1d1 d9e9 d1e1 e9d9 e1d1");
    let f = RepetitionFilter::from_position(&p);
    assert!(f.may_repeat(p.key()), "the position after c1d1 recurred");
    let p2 = play(fen, "c1d1 d9e9 d1e1");
    let f2 = RepetitionFilter::from_position(&p2);
    assert!(!f2.may_repeat(p2.key()), "no key has occurred twice");
    let mut f3 = RepetitionFilter::default();
    f3.push(42);
    assert!(!f3.may_repeat(42));
    f3.push(42);
    assert!(f3.may_repeat(42));
    f3.pop(42);
    assert!(!f3.may_repeat(42));
}

// ---------------------------------------------------------------------------------------------
// Names and the judge's input handling.

#[test]
fn rule_set_names() {
    for (text, want) in [
        ("chinese", RuleSet::Chinese),
        ("CHINESE", RuleSet::Chinese),
        ("ChineseRule", RuleSet::Chinese),
        ("SkyRule", RuleSet::Chinese),
        ("asian", RuleSet::Asian),
        ("AsianRule", RuleSet::Asian),
        ("WXF", RuleSet::Asian),
        ("draw", RuleSet::Draw),
        ("DrawRule", RuleSet::Draw),
        ("none", RuleSet::Draw),
    ] {
        assert_eq!(text.parse::<RuleSet>().unwrap(), want, "{text}");
    }
    assert!("klingon".parse::<RuleSet>().is_err());
    assert_eq!(RuleSet::default(), RuleSet::Chinese);
    for r in RuleSet::ALL {
        assert_eq!(r.to_string().parse::<RuleSet>().unwrap(), r);
    }
    assert_eq!(Outcome::RedWins.to_string(), "red-wins");
    assert_eq!(Outcome::BlackWins.to_string(), "black-wins");
    assert_eq!(Outcome::Draw.to_string(), "draw");
}

#[test]
fn judge_handles_bad_input_and_goes_on() {
    let input = "\
startpos moves h2e2 h9g7
# a comment

not-a-fen moves a0a1
startpos moves h2e2 zz99
startpos moves h2e2 h9g7 e2e9
3k5/9/9/9/9/9/9/9/2R6/4K4 w moves c1d1
position fen 3k5/9/9/9/9/9/9/9/2R6/4K4 w moves c1d1
";
    let mut out = Vec::new();
    chuhan::tools::judge::run(input.as_bytes(), &mut out, RuleSet::Chinese, false).unwrap();
    let text = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 6, "{text}");
    assert_eq!(lines[0], "ongoing: no game-ending rule applies");
    assert!(
        lines[1].starts_with("error: bad FEN 'not-a-fen'"),
        "{}",
        lines[1]
    );
    assert_eq!(lines[2], "error: cannot parse move 'zz99' at ply 2");
    assert_eq!(lines[3], "black-wins: illegal move e2e9 at ply 3 (red)");
    assert_eq!(lines[4], "red-wins: checkmate");
    assert_eq!(lines[5], "red-wins: checkmate");
}

#[test]
fn judge_explains_a_cycle() {
    let line = format!(
        "3k5/9/9/9/9/9/9/9/2R6/5K3 w moves {}",
        "c1d1 d9e9 d1e1 e9d9 e1d1 d9e9 d1e1 e9d9 e1d1 d9e9"
    );
    let got = chuhan::tools::judge::judge_line_with(&line, RuleSet::Chinese, true).unwrap();
    let mut lines = got.lines();
    assert_eq!(lines.next(), Some("black-wins: perpetual check by red"));
    assert_eq!(lines.next(), Some("  red d1e1: check"));
    assert_eq!(lines.next(), Some("  black e9d9: idle"));
}
