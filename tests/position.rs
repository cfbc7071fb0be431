//! Position tests: FEN in/out and its errors, make/unmake, incremental Zobrist keys, and the
//! movement rules of each piece.

use chuhan::board::movegen::{legal_captures, legal_moves};
use chuhan::board::position::{FenError, MoveError, Position, START_FEN};
use chuhan::board::rng::Rng;
use chuhan::board::types::{Color, Move, PieceKind, Square};

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// A random game from the start (at most 200 plies): `after` sees the position after each
/// move, the move, and whether it captured. Returns the final position, history intact.
fn random_game(rng: &mut Rng, mut after: impl FnMut(&mut Position, Move, bool)) -> Position {
    let mut p = Position::startpos();
    for _ in 0..200 {
        let moves = legal_moves(&p);
        if moves.is_empty() {
            break;
        }
        let m = moves.as_slice()[rng.below(moves.len())];
        let captured = p.is_capture(m);
        p.make_move(m);
        after(&mut p, m, captured);
    }
    p
}

fn moves_from(p: &Position, from: &str) -> Vec<String> {
    let from = Square::parse(from).unwrap();
    let mut v: Vec<String> = legal_moves(p)
        .as_slice()
        .iter()
        .filter(|m| m.from() == from)
        .map(|m| m.to().to_string())
        .collect();
    v.sort();
    v
}

#[test]
fn fen_round_trip_and_forms() {
    assert_eq!(Position::startpos().to_fen(), START_FEN);
    let two_fields = pos("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w");
    assert_eq!(two_fields.to_fen(), START_FEN);
    let red_r = pos("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r - - 0 1");
    assert_eq!(red_r.side_to_move(), Color::Red);
    let aliases = pos("rhbakabhr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w - - 0 1");
    assert_eq!(aliases.key(), Position::startpos().key());
    let black = pos("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1");
    assert_eq!(black.side_to_move(), Color::Black);
    assert_eq!(
        black.to_fen(),
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1"
    );
}

#[test]
fn bad_fens_are_rejected_with_the_reason() {
    let cases: &[(&str, FenError)] = &[
        ("", FenError::Empty),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/RNBAKABNR w",
            FenError::RankCount(9),
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w",
            FenError::RankWidth { rank: 0, width: 8 },
        ),
        (
            "rnbakabnr/9/1c5c2/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
            FenError::RankWidth { rank: 7, width: 10 },
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5X1/9/RNBAKABNR w",
            FenError::UnknownPiece('X'),
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x",
            FenError::BadSide("x".into()),
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - z 1",
            FenError::BadNumber("z".into()),
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1CC3C2/9/RNBAKABNR w",
            FenError::TooMany('C'),
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/B8/P1P1P1P1P/1C5C1/9/RN1AKABNR w",
            FenError::UnreachableSquare('B', Square::parse("a4").unwrap()),
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR1 w",
            FenError::RankWidth { rank: 0, width: 10 },
        ),
        ("4k4/9/9/9/9/9/9/9/9/9 w", FenError::MissingKing(Color::Red)),
        (
            "9/9/9/9/9/9/9/9/9/4K4 w",
            FenError::MissingKing(Color::Black),
        ),
        ("3k5/9/9/9/9/9/9/9/9/3K5 w", FenError::KingsFacing),
        ("3k5/9/9/9/9/9/9/9/9/3RK4 w", FenError::OpponentInCheck),
        (
            "4k4/9/9/9/9/9/9/9/P8/3K5 w",
            FenError::UnreachableSquare('P', Square::parse("a1").unwrap()),
        ),
        (
            "4k4/9/9/9/9/9/9/9/9/3K1A1A1 w",
            FenError::UnreachableSquare('A', Square::parse("h0").unwrap()),
        ),
        (
            "4k4/9/9/9/9/9/9/9/9/2K6 w",
            FenError::UnreachableSquare('K', Square::parse("c0").unwrap()),
        ),
        (
            "4k4/9/9/9/9/9/9/9/9/3K5 red",
            FenError::BadSide("red".into()),
        ),
    ];
    for (fen, err) in cases {
        assert_eq!(Position::from_fen(fen).unwrap_err(), *err, "{fen}");
        assert!(!err.to_string().is_empty());
    }
    // Pieces on reachable points are fine, even in unusual places; the side to move may be in check.
    pos("4k4/4a4/9/9/9/9/9/9/9/3K1A3 w");
    pos("3k5/9/9/9/9/9/9/9/9/3RK4 b");
}

#[test]
fn make_unmake_restores_everything() {
    let mut p = Position::startpos();
    let before = p.to_fen();
    let key = p.key();
    for &m in legal_moves(&p).clone().as_slice() {
        p.make_move(m);
        assert_ne!(p.key(), key);
        p.unmake_move();
        assert_eq!(p.to_fen(), before);
        assert_eq!(p.key(), key);
    }
    p.make_null();
    assert_eq!(p.side_to_move(), Color::Black);
    assert_eq!(p.key(), p.compute_key());
    p.unmake_null();
    assert_eq!(p.key(), key);
}

/// Random games: after every move and undo, the incremental key equals the one from scratch,
/// and a FEN round trip gives the same key.
#[test]
fn incremental_key_matches_scratch_over_random_games() {
    let mut rng = Rng::new(0x1234_5678_9abc_def1);
    let mut checked = 0;
    for _ in 0..40 {
        let mut p = random_game(&mut rng, |p, m, _| {
            assert_eq!(p.key(), p.compute_key(), "after {m} in {}", p.to_fen());
            assert_eq!(Position::from_fen(&p.to_fen()).unwrap().key(), p.key());
            checked += 1;
        });
        while p.game_ply() > 0 {
            p.unmake_move();
            assert_eq!(p.key(), p.compute_key());
        }
        assert_eq!(p.to_fen(), START_FEN);
    }
    assert!(checked > 4000, "only {checked} moves checked");
}

/// The kept piece counts equal the bitboards' along random games with captures, take-backs,
/// passes, and in the flipped and mirrored copies.
#[test]
fn piece_counts_follow_the_bitboards() {
    fn assert_counts(p: &Position) {
        for color in Color::ALL {
            for kind in PieceKind::ALL {
                assert_eq!(p.count(color, kind), p.pieces(color, kind).count(), "{p:?}");
            }
            assert_eq!(p.color_count(color), p.color_bb(color).count(), "{p:?}");
        }
    }
    let mut rng = Rng::new(0x0c0f_fee0_1234_5678);
    let mut passes = Rng::new(8);
    let mut captures = 0;
    for _ in 0..30 {
        let mut p = random_game(&mut rng, |p, _, captured| {
            captures += usize::from(captured);
            assert_counts(p);
            if !p.in_check() && passes.below(8) == 0 {
                p.make_null();
                assert_counts(p);
                p.unmake_null();
            }
        });
        assert_counts(&p.color_flipped());
        assert_counts(&p.mirrored());
        while p.game_ply() > 0 {
            p.unmake_move();
            assert_counts(&p);
        }
        assert_eq!(p.color_count(Color::Red), 16);
    }
    assert!(captures > 300, "only {captures} captures");
}

#[test]
fn history_records_keys_and_captures() {
    let mut p = Position::startpos();
    for text in ["h2e2", "h9g7", "e2e6"] {
        let m = p.parse_move(text).unwrap();
        p.make_move(m);
    }
    let h = p.history();
    assert_eq!(h.len(), 4);
    assert_eq!(h[3].captured.map(|c| c.to_char()), Some('p'));
    assert_eq!(h[3].rule60, 0);
    assert_eq!(h[2].rule60, 2);
    assert_eq!(h[3].key, p.key());
    // Ce6 has no screen between it and the king on e9: no check.
    assert!(!p.in_check());
}

#[test]
fn last_move_names_the_mover_and_the_capture_only_after_a_move() {
    let mut p = Position::startpos();
    assert_eq!(p.last_move(), None, "a set-up position");
    for text in ["h2e2", "h9g7"] {
        p.make_move(p.parse_move(text).unwrap());
    }
    let m = p.parse_move("e2e6").unwrap();
    p.make_move(m);
    let (piece, mv, captured) = p.last_move().unwrap();
    assert_eq!((piece.to_char(), mv), ('C', m));
    assert_eq!(captured.map(|c| c.to_char()), Some('p'));
    p.make_null();
    assert_eq!(p.last_move(), None, "after a pass");
    p.unmake_null();
    assert_eq!(p.last_move().map(|(_, mv, _)| mv), Some(m));
}

#[test]
fn parse_move_checks_syntax_and_legality() {
    let p = Position::startpos();
    assert_eq!(p.parse_move("h2e2").unwrap().to_string(), "h2e2");
    assert!(matches!(p.parse_move("h2e"), Err(MoveError::Syntax(_))));
    assert!(matches!(p.parse_move("z2e2"), Err(MoveError::Syntax(_))));
    assert!(
        matches!(p.parse_move("h2h7"), Err(MoveError::Illegal(_))),
        "cannon capture needs a screen"
    );
    assert!(
        matches!(p.parse_move("h7e7"), Err(MoveError::Illegal(_))),
        "black piece on red's turn"
    );
    assert!(matches!(p.parse_move("e0e2"), Err(MoveError::Illegal(_))));
    assert!(!p.is_legal_move(Move::NONE));
    assert!(!p.is_legal_move(Move::NULL));
}

#[test]
fn horse_leg_blocks() {
    // Red horse b0 with its leg b1 free reaches a2, c2; the leg c0 (elephant) blocks d1.
    let p = Position::startpos();
    assert_eq!(moves_from(&p, "b0"), vec!["a2", "c2"]);
    let blocked = pos("3k5/9/9/9/9/9/9/9/1R7/1N2K4 w");
    assert_eq!(moves_from(&blocked, "b0"), vec!["d1"]);
}

#[test]
fn elephant_eye_and_river() {
    let p = pos("3k5/9/9/9/9/2B6/9/9/9/4K4 w");
    // c4 elephant: a2 and e2 only, never across the river.
    assert_eq!(moves_from(&p, "c4"), vec!["a2", "e2"]);
    let eye = pos("3k5/9/9/9/9/2B6/3n5/9/9/4K4 w");
    assert_eq!(moves_from(&eye, "c4"), vec!["a2"]);
}

#[test]
fn advisor_and_king_stay_in_palace() {
    let p = pos("3k5/9/9/9/9/9/9/9/9/3AK4 w");
    assert_eq!(moves_from(&p, "d0"), vec!["e1"]);
    // Ke0 may not go to d0 (own advisor) nor outside the palace; e1 and f0 are open.
    assert_eq!(moves_from(&p, "e0"), vec!["e1", "f0"]);
}

#[test]
fn pawn_moves_sideways_only_after_river() {
    let p = pos("4k4/9/9/9/9/4P4/2P6/9/9/3K5 w");
    assert_eq!(moves_from(&p, "c3"), vec!["c4"]);
    assert_eq!(moves_from(&p, "e4"), vec!["e5"]);
    let crossed = pos("4k4/9/9/9/4P4/9/9/9/9/3K5 w");
    assert_eq!(moves_from(&crossed, "e5"), vec!["d5", "e6", "f5"]);
    // A pawn on the last rank only moves sideways.
    let last = pos("3k5/9/9/9/9/9/9/9/9/2p1K4 w");
    let black = pos("3k5/9/9/9/9/9/9/9/9/2p1K4 b");
    assert!(moves_from(&last, "c0").is_empty());
    assert_eq!(moves_from(&black, "c0"), vec!["b0", "d0"]);
}

#[test]
fn cannon_needs_exactly_one_screen() {
    let p = pos("3k5/9/9/9/9/9/9/9/4K4/C1p1n4 w");
    // a0 cannon: slides to a1..a9, jumps the c0 screen to capture e0; b0 is a quiet move.
    let m = moves_from(&p, "a0");
    assert!(m.contains(&"e0".to_string()));
    assert!(!m.contains(&"c0".to_string()));
    assert!(m.contains(&"b0".to_string()));
    // Cxe0 and Kxe0 are the only captures: Ca0 cannot take c0 without a screen.
    assert_eq!(legal_captures(&p).len(), 2);
}

#[test]
fn rook_slides_until_blocked() {
    let p = pos("3k5/9/9/9/9/9/9/9/9/R1p1K4 w");
    let m = moves_from(&p, "a0");
    assert!(m.contains(&"b0".to_string()) && m.contains(&"c0".to_string()));
    assert!(!m.contains(&"d0".to_string()));
    assert_eq!(m.len(), 2 + 9);
}

#[test]
fn flying_general_forbids_opening_the_file() {
    // The e-file cannon is the only piece between the kings: it may move along the file only.
    let p = pos("4k4/9/9/9/9/4C4/9/9/9/4K4 w");
    assert_eq!(
        moves_from(&p, "e4"),
        vec!["e1", "e2", "e3", "e5", "e6", "e7", "e8"]
    );
    // A horse there cannot move at all.
    let h = pos("4k4/9/9/9/9/4N4/9/9/9/4K4 w");
    assert!(moves_from(&h, "e4").is_empty());
    // A king may not step onto the open file of the other king.
    let q = pos("3k5/9/9/9/9/9/9/9/9/4K4 w");
    assert!(!moves_from(&q, "e0").contains(&"d0".to_string()));
}

#[test]
fn cannot_leave_king_in_check() {
    // Black rook e9 checks the red king on e0 through the open file... Kf0/Kd0 escape, or block.
    let p = pos("3kr4/9/9/9/9/9/9/9/9/4K4 w");
    assert!(p.in_check());
    // e1 stays on the rook's file; d0 would face the black king on d9.
    assert_eq!(moves_from(&p, "e0"), vec!["f0"]);
}

#[test]
fn moving_onto_the_kings_line_can_make_a_cannon_screen() {
    // Black cannon e9, red king e0, red rook a4: Ra4-e4 would become the screen: illegal.
    let p = pos("3kc4/9/9/9/9/R8/9/9/9/4K4 w");
    assert!(!moves_from(&p, "a4").contains(&"e4".to_string()));
    assert!(moves_from(&p, "a4").contains(&"d4".to_string()));
}

#[test]
fn stalemate_has_no_moves() {
    let p = pos("4k4/5R3/9/9/9/9/9/9/9/3K5 b - - 0 1");
    assert!(!p.in_check());
    assert!(legal_moves(&p).is_empty());
}

#[test]
fn colour_flip_swaps_sides_and_mirrors_ranks() {
    let start = Position::startpos();
    let flipped = start.color_flipped();
    assert_eq!(flipped.side_to_move(), Color::Black);
    assert_eq!(flipped.to_fen(), START_FEN.replace(" w ", " b "));
    let fen = "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1";
    let p = pos(fen);
    assert_eq!(p.color_flipped().color_flipped().to_fen(), fen);
    assert_eq!(legal_moves(&p).len(), legal_moves(&p.color_flipped()).len());
}

#[test]
fn gives_check_agrees_with_making_the_move() {
    let mut rng = Rng::new(0x0bad_cafe_f00d_1234);
    let (mut moves_checked, mut checks) = (0, 0);
    for _ in 0..40 {
        let mut p = Position::startpos();
        for _ in 0..200 {
            let moves = legal_moves(&p);
            if moves.is_empty() {
                break;
            }
            for &m in moves.as_slice() {
                let predicted = p.gives_check(m);
                p.make_move(m);
                assert_eq!(predicted, p.in_check(), "{m} in {}", p.to_fen());
                p.unmake_move();
                moves_checked += 1;
                checks += usize::from(predicted);
            }
            p.make_move(moves.as_slice()[rng.below(moves.len())]);
        }
    }
    assert!(
        moves_checked > 100_000 && checks > 2_000,
        "{moves_checked} moves, {checks} checks"
    );
}

#[test]
fn gives_check_sees_screens_legs_and_lines() {
    let cases = [
        // The rook lands on the cannon's file: the screen it needed.
        ("4k4/9/9/9/9/R8/9/9/4C4/3K5 w", "a4e4", true),
        // The horse steps off the rook's file: a discovered check.
        ("4k4/9/9/9/4N4/9/9/9/4R4/3K5 w", "e5c6", true),
        // A rook move that keeps the horse between rook and king.
        ("4k4/9/9/9/4N4/9/9/9/4R4/3K5 w", "e1e3", false),
        // A pawn leaves the leg of the horse on d7: it now attacks e9 over d8.
        ("4k4/3P5/3N5/9/9/9/9/9/9/3K5 w", "d8c8", true),
        // A pawn steps beside the king.
        ("4k4/3P5/9/9/9/9/9/9/9/3K5 w", "d8d9", true),
        // Taking the upper of two screens leaves the cannon one.
        ("4k4/9/9/9/4p4/9/4R4/9/4C4/3K5 w", "e3e5", true),
        // A cannon with no screen does not check.
        ("4k4/9/9/9/9/9/9/9/9/3K1C3 w", "f0e0", false),
    ];
    for (fen, mv, expected) in cases {
        let p = pos(fen);
        let m = p
            .parse_move(mv)
            .unwrap_or_else(|e| panic!("{mv} in {fen}: {e}"));
        assert_eq!(p.gives_check(m), expected, "{mv} in {fen}");
        let mut after = p.clone();
        after.make_move(m);
        assert_eq!(after.in_check(), expected, "{mv} in {fen} (made)");
    }
}
